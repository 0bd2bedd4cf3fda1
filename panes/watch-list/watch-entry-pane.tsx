// One merchant on the watch list: its score and the signals behind it, the trend, the triggering transactions one
// keystroke away (a link to the filtered overview), and the analyst's actions: acknowledge (Shift+A), put on
// monitoring (Shift+M), add a note (Shift+O), escalate to a support ticket in the merchant's business (Shift+U, once;
// the entry then links its ticket). The actions are offered only with Mapi.AccountWatchList.Update, the permission the
// server checks and the commands declare: the internal read-only role reads the entry and acts on nothing.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { useSnapshot } from 'valtio';
import type { ContextSelections } from '../../src/contract/context.ts';
import { ticketPriorities, type TicketPriority } from '../../src/contract/tickets.ts';
import { watchEntryStatusLabels, type WatchEntryStatusName } from '../../src/contract/watch-list.ts';
import { formatDateTime } from '../../src/format/dates.ts';
import { contextStore } from '../../src/state/context-store.ts';
import { type PaneProps, type PaneRequestHandlers, usePaneCapabilities } from '../../src/state/pane-scope.tsx';
import { permissionScope, sessionStore } from '../../src/state/session-store.ts';
import { showToast } from '../../src/state/toast-store.ts';
import { Modal } from '../../src/ui/modal.tsx';
import { Skeleton } from '../../src/ui/skeleton.tsx';
import { Sparkline, trendLabel } from './sparkline.tsx';
import { ScoreText } from './watch-list-pane.tsx';
import { signalText, triggeringTransactionsPath } from './watch-list-format.ts';
import { addWatchNote, escalateWatchEntry, setWatchStatus, watchListQueries } from './watch-list-queries.ts';
import './watch-list.css';

export function WatchEntryPane({ params }: PaneProps) {
  const merchantId = params.merchantId ?? '';
  const queryClient = useQueryClient();
  const entry = useQuery(watchListQueries.detail(merchantId));
  const { applied } = useSnapshot(contextStore);
  const session = useSnapshot(sessionStore);
  const mayAct = (session.permissions[permissionScope(applied as ContextSelections).key] ?? []).includes('Mapi.AccountWatchList.Update');
  const [noteOpen, setNoteOpen] = useState(false);
  const [noteText, setNoteText] = useState('');
  const noteField = useRef<HTMLTextAreaElement>(null);
  const [escalateOpen, setEscalateOpen] = useState(false);
  const [priority, setPriority] = useState<TicketPriority>('High');
  const priorityField = useRef<HTMLSelectElement>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: watchListQueries.all });
  const status = useMutation({
    mutationFn: (next: WatchEntryStatusName) => setWatchStatus(merchantId, next, entry.data?.version ?? 0),
    onSuccess: async (_answer, next) => {
      await refresh();
      showToast({
        kind: 'success',
        message:
          next === 'acknowledged' ? 'Watch list entry acknowledged.' : next === 'monitoring' ? 'Merchant put on monitoring.' : 'Watch list entry reopened.',
      });
    },
  });
  const note = useMutation({
    mutationFn: (text: string) => addWatchNote(merchantId, text),
    onSuccess: async () => {
      setNoteOpen(false);
      setNoteText('');
      await refresh();
      showToast({ kind: 'success', message: 'Note added.' });
    },
  });
  const escalation = useMutation({
    mutationFn: () => escalateWatchEntry(merchantId, entry.data?.version ?? 0, priority),
    onSuccess: async (answer) => {
      setEscalateOpen(false);
      await refresh();
      showToast({ kind: 'success', message: `Ticket ${answer.ticketId} created in ${entry.data?.businessName ?? 'the business'}.` });
    },
  });
  const data = entry.data;
  const canEscalate = data !== undefined && data.ticketId === null && !escalation.isPending;
  const canChange = (next: WatchEntryStatusName) => data !== undefined && data.status !== next && !status.isPending;

  const handlers: PaneRequestHandlers = {};
  if (data && mayAct && !noteOpen && !escalateOpen) {
    if (canEscalate) handlers.escalate = () => setEscalateOpen(true);
    if (canChange('acknowledged')) handlers.acknowledge = () => status.mutate('acknowledged');
    if (canChange('monitoring')) handlers.monitor = () => status.mutate('monitoring');
    handlers.addNote = () => setNoteOpen(true);
  }
  usePaneCapabilities(handlers);

  if (entry.isPending) return <Skeleton lines={6} label="Loading the watch list entry" />;
  if (entry.isError || !data)
    return (
      <p role="alert" className="watch-entry-pane">
        This merchant is not on the watch list.
      </p>
    );
  return (
    <section className="watch-entry-pane" aria-labelledby="watch-entry-title">
      <header className="risk-header">
        <h1 id="watch-entry-title">{data.merchantName}</h1>
        {mayAct ? (
          <div className="risk-actions">
            <button type="button" className="button button-primary" disabled={!canChange('acknowledged')} onClick={() => status.mutate('acknowledged')}>
              Acknowledge
            </button>
            <button type="button" className="button" disabled={!canChange('monitoring')} onClick={() => status.mutate('monitoring')}>
              Put on monitoring
            </button>
            <button type="button" className="button" onClick={() => setNoteOpen(true)}>
              Add a note
            </button>
            <button type="button" className="button" disabled={!canEscalate} onClick={() => setEscalateOpen(true)}>
              Escalate to a ticket
            </button>
          </div>
        ) : null}
      </header>
      <dl className="risk-facts">
        <dt>Business</dt>
        <dd>
          {data.businessName} ({data.businessId})
        </dd>
        <dt>Score</dt>
        <dd>
          <ScoreText score={data.score} status={data.status} />
        </dd>
        <dt>Status</dt>
        <dd>
          {watchEntryStatusLabels[data.status]}
          {data.statusChangedBy ? ` by ${data.statusChangedBy}` : ''}
          {data.statusChangedUtc ? `, ${formatDateTime(data.statusChangedUtc)}` : ''}
        </dd>
        <dt>First flagged</dt>
        <dd>{formatDateTime(data.firstFlaggedUtc)}</dd>
        <dt>Computed</dt>
        <dd>{formatDateTime(data.lastComputedUtc)}</dd>
        <dt>Ticket</dt>
        <dd>{data.ticketId ? <a href={`/tickets/${encodeURIComponent(data.ticketId)}`}>Ticket {data.ticketId}</a> : 'Not escalated'}</dd>
        <dt>Trend</dt>
        <dd>
          <Sparkline values={data.trend} label={trendLabel(data.trend)} width={180} height={36} />
        </dd>
      </dl>
      <h2>Signals</h2>
      {data.signals.length === 0 ? (
        <p>No signal crosses its threshold now.</p>
      ) : (
        <ul className="risk-list">
          {data.signals.map((signal) => (
            <li key={signal.signal}>{signalText(signal.signal, signal.value, signal.threshold)}</li>
          ))}
        </ul>
      )}
      <p>
        <a href={triggeringTransactionsPath(data.merchantId, new Date())}>Triggering transactions (last 7 days)</a>
      </p>
      <h2>Notes</h2>
      {data.notes.length === 0 ? (
        <p>No notes yet.</p>
      ) : (
        <ul className="risk-list">
          {data.notes.map((item) => (
            <li key={item.noteId}>
              <strong>{item.author}</strong>, {formatDateTime(item.createdUtc)}: {item.text}
            </li>
          ))}
        </ul>
      )}
      <Modal
        open={noteOpen}
        title="Add a note"
        onClose={() => setNoteOpen(false)}
        closeActionLabel="Cancel"
        initialFocus={noteField}
        footer={
          <button type="submit" form="watch-note-form" className="button button-primary" disabled={note.isPending || noteText.trim() === ''}>
            Add note
          </button>
        }
      >
        <form
          id="watch-note-form"
          className="risk-form"
          onSubmit={(event) => {
            event.preventDefault();
            if (noteText.trim()) note.mutate(noteText.trim());
          }}
        >
          <label>
            Note
            <textarea ref={noteField} value={noteText} maxLength={2000} rows={4} onChange={(event) => setNoteText(event.target.value)} />
          </label>
        </form>
      </Modal>
      <Modal
        open={escalateOpen}
        title="Escalate to a ticket"
        onClose={() => setEscalateOpen(false)}
        closeActionLabel="Cancel"
        initialFocus={priorityField}
        footer={
          <button type="submit" form="watch-escalate-form" className="button button-primary" disabled={escalation.isPending}>
            Create ticket
          </button>
        }
      >
        <form
          id="watch-escalate-form"
          className="risk-form"
          onSubmit={(event) => {
            event.preventDefault();
            escalation.mutate();
          }}
        >
          <p>
            An information request ticket is opened in {data.businessName} about {data.merchantName}, with the score ({data.score}) and its signals. The
            merchant's users see it.
          </p>
          <label>
            Priority
            <select ref={priorityField} value={priority} onChange={(event) => setPriority(event.target.value as TicketPriority)}>
              {ticketPriorities.map((value) => (
                <option key={value} value={value}>
                  {value}
                </option>
              ))}
            </select>
          </label>
        </form>
      </Modal>
    </section>
  );
}
