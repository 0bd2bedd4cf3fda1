// Writing a notification (/notifications/add) and editing one (/notifications/edit/{reference}): title, the rich
// text, who reads it (all users or internal users, optionally only some partners or businesses, picked by name, with
// a line saying who will see it), the publication status with an optional scheduled time (the portal's date and time
// entry: dd/mm/yyyy, 24-hour), and a preview exactly as readers will see it (the readers' renderer).
// Ctrl+Enter saves; deleting asks first; leaving with unsaved changes asks first.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type KeyboardEvent, useEffect, useId, useState } from 'react';
import { useLocation } from 'wouter';
import { isApiError } from '../../src/api/api-error.ts';
import {
  maxNotificationTitleLength,
  notificationStatusLabels,
  notificationStatusTransitions,
  parseNotificationContent,
  type NotificationBlock,
  type NotificationStatusValue,
} from '../../src/contract/notifications.ts';
import type { AuthoredNotification } from '../../src/contract/notification-schemas.ts';
import { type PaneProps, useLeaveFormGuard } from '../../src/state/pane-scope.tsx';
import { showToast } from '../../src/state/toast-store.ts';
import { ConfirmDialog } from '../../src/ui/confirm-dialog.tsx';
import { Skeleton } from '../../src/ui/skeleton.tsx';
import { authoringQueries, createNotification, deleteNotification, updateNotification } from './authoring-queries.ts';
import { contentText } from './lexical-content.ts';
import { NotificationContentView } from './notification-content.tsx';
import { RichTextEditor } from './rich-text-editor.tsx';
import { AudiencePicker, type AudienceIds, audienceSummary } from './audience-picker.tsx';
import { DateTimeField } from '../../src/ui/date-time-field.tsx';
import './notifications.css';

/** A wall-clock value ('2026-11-25T14:30') from an ISO instant, in the browser's zone, and back. */
export function localInputOf(iso: string | null): string {
  if (!iso) return '';
  const date = new Date(iso);
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}
const isoOfLocalInput = (value: string) => (value === '' ? null : new Date(value).toISOString());

function Editor({ existing }: { existing: AuthoredNotification | null }) {
  const [, navigate] = useLocation();
  const queryClient = useQueryClient();
  const [title, setTitle] = useState(existing?.title ?? '');
  const [blocks, setBlocks] = useState<NotificationBlock[]>(() => (existing ? parseNotificationContent(existing.content) : []));
  const [initialBlocks] = useState(blocks);
  const [viewRestriction, setViewRestriction] = useState<'allUsers' | 'internalUsers'>(existing?.viewRestriction ?? 'allUsers');
  const [status, setStatus] = useState<NotificationStatusValue>(existing?.status ?? 'draft');
  const [publishAt, setPublishAt] = useState(localInputOf(existing?.publishAtUtc ?? null));
  const [publishProblem, setPublishProblem] = useState<string | null>(null);
  const [audienceIds, setAudienceIds] = useState<AudienceIds>({
    partnerIds: existing?.audience?.partnerIds ?? [],
    businessIds: existing?.audience?.businessIds ?? [],
  });
  const [touched, setTouched] = useState(false);
  const [savedRef, setSavedRef] = useState<string | null>(null);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [edited, setEdited] = useState(false);
  const ids = { title: useId(), heading: useId(), preview: useId(), audience: useId(), summary: useId() };
  const dirty = edited && savedRef === null;
  useLeaveFormGuard(dirty);
  useEffect(() => {
    if (savedRef && !dirty) navigate(`/notifications/edit/${encodeURIComponent(savedRef)}`, { replace: true });
  }, [savedRef, dirty, navigate]);

  const statuses: readonly NotificationStatusValue[] = existing
    ? notificationStatusTransitions[existing.status]
    : ['draft', 'readyForPublication', 'published'];
  const problems = [
    title.trim() === '' ? 'Title is required' : null,
    title.trim().length > maxNotificationTitleLength ? `Title may have ${maxNotificationTitleLength} characters maximum` : null,
    blocks.length === 0 ? 'Write the notification’s text' : null,
    status === 'readyForPublication' && publishProblem ? `Publish at: ${publishProblem}` : null,
  ].filter((problem): problem is string => problem !== null);

  const body = () => ({
    title: title.trim(),
    content: contentText(blocks),
    viewRestriction,
    status,
    publishAtUtc: status === 'readyForPublication' ? isoOfLocalInput(publishAt) : null,
    audience: viewRestriction === 'allUsers' && audienceIds.partnerIds.length + audienceIds.businessIds.length > 0 ? audienceIds : null,
  });
  const save = useMutation({
    mutationFn: async () => {
      if (existing) return (await updateNotification(existing.reference, { ...body(), version: existing.version })).reference;
      return (await createNotification(body())).reference;
    },
    onSuccess: (reference) => {
      void queryClient.invalidateQueries({ queryKey: authoringQueries.all.slice(0, 1) });
      showToast({ kind: 'success', message: status === 'published' ? `'${title.trim()}' is published.` : `'${title.trim()}' is saved.` });
      setEdited(false);
      if (!existing) setSavedRef(reference);
    },
  });
  const remove = useMutation({
    mutationFn: () => deleteNotification(existing?.reference ?? ''),
    onSuccess: () => {
      setConfirmDelete(false);
      setEdited(false);
      void queryClient.invalidateQueries({ queryKey: authoringQueries.all.slice(0, 1) });
      showToast({ kind: 'success', message: `'${existing?.title ?? ''}' is deleted.` });
      navigate('/notifications?view=authored', { replace: true });
    },
  });
  const submit = () => {
    setTouched(true);
    if (problems.length === 0 && !save.isPending) save.mutate();
  };
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      submit();
    }
  };
  const change =
    <T,>(setter: (value: T) => void) =>
    (value: T) => {
      setter(value);
      setEdited(true);
    };

  return (
    <form
      className="notification-form notification-editor"
      aria-labelledby={ids.heading}
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
      onKeyDown={onKeyDown}
      noValidate
    >
      <h1 id={ids.heading}>{existing ? `Edit notification ${existing.reference}` : 'New notification'}</h1>
      <label>
        Title
        <input
          type="text"
          value={title}
          maxLength={maxNotificationTitleLength}
          onChange={(event) => change(setTitle)(event.target.value)}
          // biome-ignore lint/a11y/noAutofocus: a new notification opens with the keyboard in its title (decision 0132, focus on load)
          autoFocus={!existing}
        />
      </label>
      <div className="notification-field">
        <span>Text</span>
        <RichTextEditor
          label="Notification text"
          initialBlocks={initialBlocks}
          onChange={(next) => {
            setBlocks(next);
            if (JSON.stringify(next) !== JSON.stringify(initialBlocks)) setEdited(true);
          }}
        />
      </div>
      <label>
        Who reads it
        <select value={viewRestriction} onChange={(event) => change(setViewRestriction)(event.target.value as 'allUsers' | 'internalUsers')}>
          <option value="allUsers">All users</option>
          <option value="internalUsers">Internal users only</option>
        </select>
      </label>
      {viewRestriction === 'allUsers' ? (
        <fieldset className="notification-field">
          <legend>Only for (optional)</legend>
          <AudiencePicker value={audienceIds} onChange={change(setAudienceIds)} describedBy={`${ids.audience} ${ids.summary}`} />
          <span id={ids.audience} className="notification-hint">
            Leave it empty for every user.
          </span>
        </fieldset>
      ) : null}
      <p id={ids.summary} className="audience-summary" aria-live="polite">{`Who will see it: ${audienceSummary(viewRestriction, audienceIds)}`}</p>
      <label>
        Status
        <select value={status} onChange={(event) => change(setStatus)(event.target.value as NotificationStatusValue)}>
          {statuses.map((value) => (
            <option key={value} value={value}>
              {notificationStatusLabels[value]}
            </option>
          ))}
        </select>
      </label>
      {status === 'readyForPublication' ? (
        <DateTimeField
          label="Publish at (optional; your time zone)"
          value={publishAt}
          hint="dd/mm/yyyy and 24-hour hh:mm; ↑ ↓ step a day or 5 minutes."
          onChange={({ value, problem }) => {
            change(setPublishAt)(value ?? '');
            setPublishProblem(problem);
          }}
        />
      ) : null}
      {touched && problems.length > 0 ? (
        <ul role="alert" className="notification-field-problem">
          {problems.map((problem) => (
            <li key={problem}>{problem}</li>
          ))}
        </ul>
      ) : null}

      <section className="notification-preview" aria-labelledby={ids.preview}>
        <h2 id={ids.preview}>Preview, as readers will see it</h2>
        <article className="notification-detail">
          <h1>{title.trim() === '' ? 'Untitled' : title.trim()}</h1>
          <NotificationContentView blocks={blocks} />
        </article>
      </section>

      <div className="notification-form-actions">
        {existing ? (
          <button type="button" className="button button-ghost" onClick={() => setConfirmDelete(true)}>
            Delete notification
          </button>
        ) : null}
        <a className="button" href="/notifications?view=authored">
          Cancel
        </a>
        <button type="submit" className="button button-primary" disabled={save.isPending}>
          {save.isPending ? 'Saving…' : status === 'published' && existing?.status !== 'published' ? 'Publish' : 'Save'}
        </button>
      </div>
      <p className="notification-hint">Ctrl+Enter saves.</p>
      <ConfirmDialog
        open={confirmDelete}
        title="Delete this notification?"
        text="It disappears from every reader’s inbox. This cannot be undone."
        confirmLabel="Delete notification"
        cancelLabel="Keep it"
        onConfirm={() => remove.mutate()}
        onCancel={() => setConfirmDelete(false)}
      />
    </form>
  );
}

export function NewNotificationPane(_props: PaneProps) {
  return <Editor existing={null} />;
}

export function EditNotificationPane({ params }: PaneProps) {
  const reference = params.reference ?? '';
  const detail = useQuery(authoringQueries.detail(reference));
  if (detail.isPending)
    return (
      <div className="notification-form">
        <Skeleton lines={6} label="Loading the notification" />
      </div>
    );
  if (detail.isError) {
    const notFound = isApiError(detail.error) && detail.error.status === 404;
    return (
      <div className="notification-form">
        <h1>Edit notification {reference}</h1>
        <p role="alert">{notFound ? 'The requested record was not found.' : 'The notification could not be loaded.'}</p>
      </div>
    );
  }
  return <Editor key={`${detail.data.reference}-${detail.data.version}`} existing={detail.data} />;
}
