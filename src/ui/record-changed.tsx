// A record's edit form under the version rule, shared by the detail panes. The form edits from the version it
// started with (its base); a live refresh that brings a newer version never overwrites the edits: the form says
// 'This record changed' and offers to reload (discarding the edits) or keep them (a save then replaces the other
// version knowingly, as after a 409 the user chose to stay). A save always sends the base's version, so a refresh
// can never turn a stale save into a silent overwrite. An always-open form (an editor screen, no Edit button) starts
// with the record and, while unedited, follows its newer versions.
import { type ReactNode, type Ref, useState } from 'react';

export type VersionedDraft<T, D> = {
  draft: D | null;
  setDraft: (draft: D) => void;
  editing: boolean;
  /** the draft differs from the record it started from */
  dirty: boolean;
  /** the other side's record after a 409 the user chose to stay on (shown for comparison) */
  theirs: T | null;
  /** a newer record arrived while editing (a live refresh): the notice shows */
  changed: T | null;
  /** the form was submitted once: show every field's problem */
  tried: boolean;
  setTried: (tried: boolean) => void;
  start: () => void;
  stop: () => void;
  /** the version a save sends */
  version: () => number;
  conflictKept: (fresh: T) => void;
  reload: () => void;
  keep: () => void;
};

export function useVersionedDraft<T extends { version: number }, D>(
  current: T | undefined,
  draftOf: (record: T) => D,
  options: { alwaysOpen?: boolean } = {},
): VersionedDraft<T, D> {
  const [draft, setDraft] = useState<D | null>(null);
  const [base, setBase] = useState<T | null>(null);
  const [theirs, setTheirs] = useState<T | null>(null);
  const [tried, setTried] = useState(false);
  const editing = draft !== null;
  const editedFrom = base ?? current;
  const dirty = editing && editedFrom !== undefined && JSON.stringify(draft) !== JSON.stringify(draftOf(editedFrom));
  // Adjusted while rendering rather than in an effect: the form never shows a frame without its record.
  if (options.alwaysOpen && current && (draft === null || (!dirty && base !== null && current.version !== base.version))) {
    setDraft(draftOf(current));
    setBase(current);
  }
  const changed = editing && base && current && current.version !== base.version ? current : null;
  return {
    draft,
    setDraft,
    editing,
    theirs,
    changed,
    tried,
    setTried,
    dirty,
    start: () => {
      if (!current) return;
      setDraft(draftOf(current));
      setBase(current);
      setTried(false);
      setTheirs(null);
    },
    stop: () => {
      setDraft(null);
      setBase(null);
      setTheirs(null);
    },
    version: () => (base ?? current)?.version ?? 0,
    conflictKept: (fresh) => {
      setTheirs(fresh);
      setBase(fresh);
    },
    reload: () => {
      if (!changed) return;
      setDraft(draftOf(changed));
      setBase(changed);
      setTheirs(null);
    },
    keep: () => {
      if (!changed) return;
      setTheirs(changed);
      setBase(changed);
    },
  };
}

export function RecordChangedNotice({ what, editor }: { what: string; editor: Pick<VersionedDraft<unknown, unknown>, 'changed' | 'reload' | 'keep'> }) {
  if (!editor.changed) return null;
  return (
    <div className="form-warning record-changed" role="alert">
      <p>
        <strong>This record changed.</strong> Someone saved this {what} while you were editing it.
      </p>
      <div className="form-actions">
        <button type="button" className="button" onClick={editor.reload}>
          Reload and discard my edits
        </button>
        <button type="button" className="button" onClick={editor.keep}>
          Keep my edits
        </button>
      </div>
    </div>
  );
}

/**
 * The edit form of a versioned record: a submit marks the draft tried and saves, with the version the edit started
 * from, only when the form has no problems; 'This record changed' and, after a 409 the user stayed on, what the other
 * version holds ('Saving again replaces their version with yours').
 */
export function VersionedEditForm({
  editor,
  formRef,
  heading,
  headingId,
  what,
  theirs,
  hasProblems,
  onSave,
  children,
}: {
  editor: Pick<VersionedDraft<unknown, unknown>, 'changed' | 'reload' | 'keep' | 'setTried' | 'version'>;
  formRef: Ref<HTMLFormElement>;
  heading: string;
  headingId: string;
  /** the record's kind in the notice: 'business', 'commission plan' */
  what: string;
  /** what the other version holds, shown after a 409 the user stayed on; null otherwise */
  theirs: ReactNode;
  hasProblems: () => boolean;
  onSave: (version: number) => void;
  children: ReactNode;
}) {
  return (
    <form
      ref={formRef}
      className="record-section"
      aria-labelledby={headingId}
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        editor.setTried(true);
        if (hasProblems()) return;
        onSave(editor.version());
      }}
    >
      <h2 id={headingId}>{heading}</h2>
      <RecordChangedNotice what={what} editor={editor} />
      {theirs ? (
        <p className="form-warning" role="status">
          {theirs} Saving again replaces their version with yours.
        </p>
      ) : null}
      {children}
    </form>
  );
}
