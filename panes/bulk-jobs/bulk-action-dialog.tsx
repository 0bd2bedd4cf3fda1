// The confirmation before a bulk action over a selection: what will happen to how many rows, a tick where the
// action is permanent (cancelling payment jobs, as the single cancel needs it), and Start. One Idempotency-Key per
// opening: a second press or a retry after a lost answer is the same job, never a second one.
import { type FormEvent, type ReactNode, useEffect, useState } from 'react';
import type { BulkJob } from '../../src/contract/bulk-jobs.ts';
import { FormModal } from '../../src/ui/form-modal.tsx';
import { ApiError } from '../../src/api/api-error.ts';

export type BulkActionDialogProps = {
  open: boolean;
  title: string;
  /** '14 payment jobs will be cancelled…' */
  summary: string;
  /** the tick's label when the action is permanent */
  confirmation?: string;
  onClose: () => void;
  onStart: (idempotencyKey: string) => Promise<BulkJob>;
  onStarted: (job: BulkJob) => void;
  /** the action's own fields (a ticket's new status or assignee), after the summary */
  children?: ReactNode;
};

const newKey = () => globalThis.crypto?.randomUUID?.() ?? `bulk-${Date.now()}-${Math.random().toString(36).slice(2)}`;

export function BulkActionDialog({ open, title, summary, confirmation, onClose, onStart, onStarted, children }: BulkActionDialogProps) {
  const [key, setKey] = useState(newKey);
  const [ticked, setTicked] = useState(false);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  useEffect(() => {
    if (!open) return;
    setKey(newKey());
    setTicked(false);
    setProblem(null);
  }, [open]);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy || (confirmation && !ticked)) return;
    setBusy(true);
    setProblem(null);
    try {
      const job = await onStart(key);
      onStarted(job);
    } catch (error) {
      setProblem(error instanceof ApiError ? error.message : 'The bulk job could not be started. Try again.');
    } finally {
      setBusy(false);
    }
  };
  return (
    <FormModal
      open={open}
      title={title}
      onClose={onClose}
      size="md"
      closeActionLabel="Close"
      submitLabel="Start"
      busyLabel="Starting…"
      busy={busy}
      disabled={Boolean(confirmation && !ticked)}
      onSubmit={(event) => void submit(event)}
    >
      <p>{summary}</p>
      {children}
      <p>
        Each row is checked on the server against your permissions and its state; rows that cannot be changed are listed with the reason in the job's result
        file.
      </p>
      {confirmation ? (
        <label className="dt-checkbox">
          <input type="checkbox" checked={ticked} onChange={(event) => setTicked(event.target.checked)} /> {confirmation}
        </label>
      ) : null}
      {problem ? <p role="alert">{problem}</p> : null}
    </FormModal>
  );
}
