// One ticket as a conversation: the request and its files at the top, the comments newest last ('Show older
// comments' loads the 20 before), and the composer at the bottom (Ctrl+Enter sends; staff may write an internal
// note the requester never sees; files by the picker button or dropped on the composer). Status, priority and the
// assignee change through commands (and the selects here); removing a file or the ticket asks first.
import { useMutation, useQueries, useQuery, useQueryClient } from '@tanstack/react-query';
import { type DragEvent, type KeyboardEvent, useEffect, useId, useRef, useState } from 'react';
import { subscribe, useSnapshot } from 'valtio';
import { useLocation } from 'wouter';
import { isApiError } from '../../src/api/api-error.ts';
import {
  attachmentAccept,
  attachmentProblem,
  maxCommentLength,
  ticketPriorities,
  ticketStatuses,
  ticketStatusLabels,
  ticketTypeLabels,
  uploadMessages,
  type TicketPriority,
  type TicketStatus,
} from '../../src/contract/tickets.ts';
import type { TicketAttachment, TicketComment, TicketDetail } from '../../src/contract/ticket-schemas.ts';
import { formatFileSize } from '../../src/format/file-size.ts';
import type { PaneProps } from '../../src/state/pane-scope.tsx';
import { sessionStore } from '../../src/state/session-store.ts';
import { ticketRequestStore } from '../../src/state/ticket-requests.ts';
import { showToast } from '../../src/state/toast-store.ts';
import { ConfirmDialog } from '../../src/ui/confirm-dialog.tsx';
import { Skeleton } from '../../src/ui/skeleton.tsx';
import { formatShortDateTime } from '../../src/format/dates.ts';
import { AttachmentName, TicketPriorityChip, TicketStatusChip } from './ticket-columns.tsx';
import {
  deleteComment,
  deleteTicket,
  downloadAttachment,
  postComment,
  removeAttachment,
  ticketQueries,
  ticketUpdateOf,
  updateComment,
  updateTicket,
  uploadAttachment,
} from './ticket-queries.ts';
import { useGrantedHere } from './granted.ts';
import '../../src/ui/data-table/data-table.css';
import './tickets.css';

type Removal = { kind: 'attachment'; attachment: TicketAttachment } | { kind: 'ticket' } | { kind: 'comment'; comment: TicketComment };

type CommentActions = {
  /** the comment being edited, and its text so far */
  editing: { id: string; text: string } | null;
  mayEdit: (comment: TicketComment) => boolean;
  mayDelete: (comment: TicketComment) => boolean;
  startEdit: (comment: TicketComment) => void;
  changeEdit: (text: string) => void;
  saveEdit: (comment: TicketComment) => void;
  cancelEdit: () => void;
  askDelete: (comment: TicketComment) => void;
  saving: boolean;
};

function Attachments({
  ticketId,
  attachments,
  onRemove,
}: {
  ticketId: string;
  attachments: readonly TicketAttachment[];
  onRemove: (attachment: TicketAttachment) => void;
}) {
  if (attachments.length === 0) return null;
  return (
    <ul className="ticket-attachments" aria-label="Attachments">
      {attachments.map((attachment) => (
        <li key={attachment.ticketAttachmentId} className="ticket-attachment">
          {/* The name comes from the content (the visible, cut name is part of it), so speech matches what is seen. */}
          <button
            type="button"
            className="button button-ghost"
            onClick={() =>
              void downloadAttachment(ticketId, attachment.ticketCommentId, attachment.ticketAttachmentId, attachment.filename).catch(() => undefined)
            }
          >
            <span className="visually-hidden">Download</span> <AttachmentName name={attachment.filename} />{' '}
            <span className="visually-hidden">({formatFileSize(attachment.size)})</span>
          </button>
          {attachment.removable ? (
            <button type="button" className="button button-ghost" aria-label={`Remove ${attachment.filename}`} onClick={() => onRemove(attachment)}>
              ×
            </button>
          ) : null}
        </li>
      ))}
    </ul>
  );
}

function Message({
  ticketId,
  comment,
  onRemove,
  actions,
}: {
  ticketId: string;
  comment: TicketComment;
  onRemove: (attachment: TicketAttachment) => void;
  actions: CommentActions;
}) {
  const editing = actions.editing?.id === comment.ticketCommentId ? actions.editing : null;
  const what = comment.internal ? 'internal note' : 'comment';
  return (
    <article
      className="ticket-message"
      data-staff={comment.author.staff}
      data-internal={comment.internal}
      aria-label={`${comment.internal ? 'Internal note' : 'Comment'} by ${comment.author.name}`}
    >
      <header className="ticket-message-head">
        <span className="ticket-message-author">{comment.author.name}</span>
        {comment.author.staff ? <span>Support</span> : null}
        {comment.internal ? (
          <span className="status-chip" data-tone="warning">
            Internal note
          </span>
        ) : null}
        <time dateTime={comment.createdUtc}>{formatShortDateTime(comment.createdUtc)}</time>
        {comment.version > 1 ? <span>(edited)</span> : null}
        {!editing && actions.mayEdit(comment) ? (
          <button type="button" className="button button-ghost" aria-label={`Edit this ${what}`} onClick={() => actions.startEdit(comment)}>
            Edit
          </button>
        ) : null}
        {!editing && actions.mayDelete(comment) ? (
          <button type="button" className="button button-ghost" aria-label={`Delete this ${what}`} onClick={() => actions.askDelete(comment)}>
            Delete
          </button>
        ) : null}
      </header>
      {editing ? (
        <form
          className="ticket-comment-edit"
          onSubmit={(event) => {
            event.preventDefault();
            actions.saveEdit(comment);
          }}
        >
          <textarea
            aria-label={`Edit ${what}`}
            value={editing.text}
            maxLength={maxCommentLength}
            rows={Math.min(10, Math.max(3, editing.text.split('\n').length + 1))}
            // biome-ignore lint/a11y/noAutofocus: the user asked to edit this comment: the keyboard goes to its text
            autoFocus
            onChange={(event) => actions.changeEdit(event.target.value)}
            onKeyDown={(event) => {
              if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
                event.preventDefault();
                actions.saveEdit(comment);
              }
              if (event.key === 'Escape') {
                event.preventDefault();
                event.stopPropagation();
                actions.cancelEdit();
              }
            }}
          />
          <div className="form-actions">
            <button type="submit" className="button button-primary" disabled={actions.saving || editing.text.trim() === ''}>
              {actions.saving ? 'Saving…' : 'Save'}
            </button>
            <button type="button" className="button" onClick={actions.cancelEdit}>
              Cancel
            </button>
            <span className="ticket-hint">Ctrl+Enter saves, Escape cancels.</span>
          </div>
        </form>
      ) : (
        <p className="ticket-message-text">{comment.text}</p>
      )}
      <Attachments ticketId={ticketId} attachments={comment.attachments} onRemove={onRemove} />
    </article>
  );
}

export function TicketDetailPane({ params }: PaneProps) {
  const ticketId = params.ticketId ?? '';
  const [, navigate] = useLocation();
  const queryClient = useQueryClient();
  const granted = useGrantedHere();
  const userId = useSnapshot(sessionStore).userInfo?.sub ?? null;
  const detail = useQuery(ticketQueries.detail(ticketId));
  const [olderAnchors, setOlderAnchors] = useState<string[]>([]);
  const latest = useQuery(ticketQueries.comments(ticketId, null));
  const older = useQueries({ queries: olderAnchors.map((before) => ticketQueries.comments(ticketId, before)) });
  const [text, setText] = useState('');
  const [internal, setInternal] = useState(false);
  const [files, setFiles] = useState<File[]>([]);
  const [dragging, setDragging] = useState(false);
  const [removal, setRemoval] = useState<Removal | null>(null);
  const [editingComment, setEditingComment] = useState<{ id: string; text: string } | null>(null);
  const composer = useRef<HTMLTextAreaElement>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const conversation = useRef<HTMLDivElement>(null);
  const ids = { title: useId(), composer: useId(), hint: useId() };

  const ticket = detail.data;
  const canWrite = granted.includes('Portal.Tickets.Create');
  // Staff who work the ticket (workflow, notes, deleting others' words): the server asks for both (the
  // internal read-only role reads internal notes and is offered no write).
  const staff = canWrite && granted.includes('Portal.Tickets.Read.Internal');
  const refresh = () => queryClient.invalidateQueries({ queryKey: [...ticketQueries.all, 'detail', ticketId] });

  // Batches oldest first: each older batch was asked for before the first comment of the batch after it.
  const batches = [...older.map((query) => query.data).reverse(), latest.data];
  const comments = batches.flatMap((batch) => batch?.results ?? []);
  const oldestBatch = olderAnchors.length === 0 ? latest.data : older[older.length - 1]?.data;
  const hasOlder = oldestBatch?.hasOlder === true;
  const showOlder = () => {
    const first = oldestBatch?.results[0]?.ticketCommentId;
    if (hasOlder && first) setOlderAnchors((anchors) => [...anchors, first]);
  };

  const addFiles = (chosen: readonly File[]) => {
    const accepted: File[] = [];
    for (const file of chosen) {
      const problem = attachmentProblem(file, ticket?.type ?? null);
      if (problem) showToast({ kind: 'danger', message: `${file.name}: ${problem}`, durationMs: 5000 });
      else accepted.push(file);
    }
    setFiles((current) => [...current, ...accepted]);
  };

  const send = useMutation({
    mutationFn: async () => {
      const body = text.trim();
      let commentId: string | null = null;
      if (body !== '') commentId = (await postComment(ticketId, { text: body, internal: staff && internal })).ticketCommentId;
      let failed = 0;
      for (const file of files) {
        try {
          await uploadAttachment(ticketId, commentId, file);
        } catch {
          failed += 1;
        }
      }
      return failed;
    },
    onSuccess: (failed) => {
      setText('');
      setFiles([]);
      if (failed > 0) showToast({ kind: 'danger', message: uploadMessages.uploadFailed, durationMs: 5000 });
      setOlderAnchors([]);
      void refresh();
      requestAnimationFrame(() => conversation.current?.scrollTo?.({ top: conversation.current.scrollHeight }));
    },
  });
  const submit = () => {
    if (send.isPending || (text.trim() === '' && files.length === 0)) return;
    send.mutate();
  };

  const update = useMutation({
    mutationFn: (change: Parameters<typeof ticketUpdateOf>[1]) => {
      if (!ticket) throw new Error('no ticket');
      return updateTicket(ticketId, ticketUpdateOf(ticket, change));
    },
    onSuccess: (updated: TicketDetail) => {
      queryClient.setQueryData(ticketQueries.detail(ticketId).queryKey, updated);
      void queryClient.invalidateQueries({ queryKey: [...ticketQueries.all] });
    },
  });
  const assignees = useQuery({ ...ticketQueries.assignees(), enabled: staff });

  const refreshComments = () => queryClient.invalidateQueries({ queryKey: [...ticketQueries.all, 'detail', ticketId] });
  const editComment = useMutation({
    mutationFn: (values: { comment: TicketComment; text: string }) =>
      updateComment(ticketId, values.comment.ticketCommentId, { text: values.text.trim(), version: values.comment.version }),
    onSuccess: () => {
      setEditingComment(null);
      showToast({ kind: 'success', message: 'Comment updated.' });
      void refreshComments();
    },
    // A 409 (edited elsewhere meanwhile): the shell asks; the edit stays open on the newer comment.
    onError: () => void refreshComments(),
  });
  const commentActions: CommentActions = {
    editing: editingComment,
    // The server says which comments the caller may edit (their own, with Portal.Tickets.Create); staff delete any.
    mayEdit: (comment) => comment.editable,
    mayDelete: (comment) => staff || comment.editable,
    startEdit: (comment) => setEditingComment({ id: comment.ticketCommentId, text: comment.text }),
    changeEdit: (text) => setEditingComment((current) => (current ? { ...current, text } : current)),
    saveEdit: (comment) => {
      if (!editingComment || editComment.isPending || editingComment.text.trim() === '') return;
      if (editingComment.text.trim() === comment.text) {
        setEditingComment(null);
        return;
      }
      editComment.mutate({ comment, text: editingComment.text });
    },
    cancelEdit: () => setEditingComment(null),
    askDelete: (comment) => setRemoval({ kind: 'comment', comment }),
    saving: editComment.isPending,
  };

  const remove = useMutation({
    mutationFn: async (what: Removal) => {
      if (what.kind === 'ticket') return deleteTicket(ticketId);
      if (what.kind === 'comment') return deleteComment(ticketId, what.comment.ticketCommentId);
      return removeAttachment(ticketId, what.attachment.ticketCommentId, what.attachment.ticketAttachmentId);
    },
    onSuccess: (_result, what) => {
      setRemoval(null);
      if (what.kind === 'ticket') {
        void queryClient.invalidateQueries({ queryKey: ticketQueries.all });
        showToast({ kind: 'success', message: `Ticket ${ticketId} deleted.` });
        navigate('/tickets', { replace: true });
        return;
      }
      showToast({ kind: 'success', message: what.kind === 'comment' ? 'Comment deleted.' : `${what.attachment.filename} removed.` });
      void (what.kind === 'comment' ? refreshComments() : refresh());
    },
    onError: () => setRemoval(null),
  });

  // Commands (reply, internal note, attach, older comments, assign) ask this screen through the ticket request store.
  const assignSelect = useRef<HTMLSelectElement>(null);
  const ownLatest = [...comments].reverse().find((comment) => comment.editable);
  const latestHandlers = useRef({ showOlder, staff, ownLatest, canWrite });
  latestHandlers.current = { showOlder, staff, ownLatest, canWrite };
  useEffect(() => {
    let lastSeq = ticketRequestStore.request?.seq ?? 0;
    return subscribe(ticketRequestStore, () => {
      const request = ticketRequestStore.request;
      if (!request || request.seq === lastSeq || request.ticketId !== ticketId) return;
      lastSeq = request.seq;
      switch (request.kind) {
        case 'reply':
          setInternal(false);
          composer.current?.focus();
          break;
        case 'internalNote':
          if (latestHandlers.current.staff) {
            setInternal(true);
            composer.current?.focus();
          }
          break;
        case 'attach':
          fileInput.current?.click();
          break;
        case 'showOlder':
          latestHandlers.current.showOlder();
          break;
        case 'assign':
          assignSelect.current?.focus();
          break;
        case 'editLastComment': {
          const { ownLatest: mine, canWrite: writable } = latestHandlers.current;
          if (mine && writable) setEditingComment({ id: mine.ticketCommentId, text: mine.text });
          else showToast({ kind: 'info', message: 'You have not written a comment on this ticket yet.' });
          break;
        }
      }
    });
  }, [ticketId]);

  if (detail.isPending)
    return (
      <div className="ticket-form">
        <Skeleton lines={6} label="Loading the ticket" />
      </div>
    );
  if (detail.isError || !ticket) {
    const notFound = isApiError(detail.error) && detail.error.status === 404;
    return (
      <div className="ticket-form">
        <h1>Ticket {ticketId}</h1>
        <p role="alert">{notFound ? 'The requested record was not found.' : 'The ticket could not be loaded.'}</p>
      </div>
    );
  }

  const requester = ticket.createdBy.userId === userId;
  const onComposerKey = (event: KeyboardEvent) => {
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      submit();
    }
  };
  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setDragging(false);
    if (canWrite) addFiles([...event.dataTransfer.files]);
  };
  const askRemoval = (attachment: TicketAttachment) => setRemoval({ kind: 'attachment', attachment });

  return (
    <article className="ticket-detail" aria-labelledby={ids.title}>
      <header className="ticket-detail-head">
        <div className="ticket-detail-title">
          <h1 id={ids.title}>{ticket.subject}</h1>
          <TicketStatusChip status={ticket.status} />
          <TicketPriorityChip priority={ticket.priority} />
        </div>
        <dl className="ticket-detail-meta">
          <div>
            <dt>Ticket</dt>
            <dd>{ticket.ticketId}</dd>
          </div>
          <div>
            <dt>Type</dt>
            <dd>{ticketTypeLabels[ticket.type]}</dd>
          </div>
          <div>
            <dt>For</dt>
            <dd>{ticket.merchantName ? `${ticket.merchantName} (${ticket.businessName})` : ticket.businessName}</dd>
          </div>
          <div>
            <dt>Requester</dt>
            <dd>{ticket.createdBy.name}</dd>
          </div>
          <div>
            <dt>Assignee</dt>
            <dd>{ticket.assignee?.name ?? 'Unassigned'}</dd>
          </div>
          <div>
            <dt>Created</dt>
            <dd>
              <time dateTime={ticket.createdUtc}>{formatShortDateTime(ticket.createdUtc)}</time>
            </dd>
          </div>
          <div>
            <dt>Last updated</dt>
            <dd>
              <time dateTime={ticket.lastUpdatedUtc}>{formatShortDateTime(ticket.lastUpdatedUtc)}</time>
            </dd>
          </div>
          {ticket.linkedTransactionReference ? (
            <div>
              <dt>About</dt>
              <dd>
                <a href={`/transactions/${encodeURIComponent(ticket.linkedTransactionReference)}`}>Transaction {ticket.linkedTransactionReference}</a>
              </dd>
            </div>
          ) : null}
          {ticket.linkedPaymentJobReference ? (
            <div>
              <dt>Payment job</dt>
              <dd>{ticket.linkedPaymentJobReference}</dd>
            </div>
          ) : null}
        </dl>
        <div className="ticket-composer-tools">
          {staff ? (
            <>
              <label className="ticket-field">
                Status
                <select
                  value={ticket.status}
                  aria-busy={update.isPending || undefined}
                  onChange={(event) => {
                    if (!update.isPending) update.mutate({ status: event.target.value as TicketStatus });
                  }}
                >
                  {ticketStatuses.map((value) => (
                    <option key={value} value={value}>
                      {ticketStatusLabels[value]}
                    </option>
                  ))}
                </select>
              </label>
              <label className="ticket-field">
                Assignee
                <select
                  ref={assignSelect}
                  value={ticket.assignee?.userId ?? ''}
                  aria-busy={update.isPending || undefined}
                  onChange={(event) => {
                    if (!update.isPending) update.mutate({ assigneeId: event.target.value === '' ? null : event.target.value });
                  }}
                >
                  <option value="">Unassigned</option>
                  {ticket.assignee && !(assignees.data?.results ?? []).some((person) => person.userId === ticket.assignee?.userId) ? (
                    <option value={ticket.assignee.userId}>{ticket.assignee.name}</option>
                  ) : null}
                  {(assignees.data?.results ?? []).map((person) => (
                    <option key={person.userId} value={person.userId}>
                      {person.name}
                    </option>
                  ))}
                </select>
              </label>
            </>
          ) : null}
          {canWrite ? (
            <label className="ticket-field">
              Priority
              <select
                value={ticket.priority}
                aria-busy={update.isPending || undefined}
                onChange={(event) => {
                  if (!update.isPending) update.mutate({ priority: event.target.value as TicketPriority });
                }}
              >
                {ticketPriorities.map((value) => (
                  <option key={value} value={value}>
                    {value === 'Unknown' ? 'No priority' : value}
                  </option>
                ))}
              </select>
            </label>
          ) : null}
          {!staff && requester && canWrite && ticket.status !== 'Closed' ? (
            <button type="button" className="button" disabled={update.isPending} onClick={() => update.mutate({ status: 'Closed' })}>
              Close ticket
            </button>
          ) : null}
          {staff || (requester && canWrite) ? (
            <button type="button" className="button button-ghost" onClick={() => setRemoval({ kind: 'ticket' })}>
              Delete ticket
            </button>
          ) : null}
        </div>
      </header>

      <div ref={conversation} className="ticket-conversation" aria-label="Conversation" role="region">
        <article className="ticket-message" aria-label={`Request by ${ticket.createdBy.name}`}>
          <header className="ticket-message-head">
            <span className="ticket-message-author">{ticket.createdBy.name}</span>
            <time dateTime={ticket.createdUtc}>{formatShortDateTime(ticket.createdUtc)}</time>
          </header>
          <p className="ticket-message-text">{ticket.description}</p>
          <Attachments ticketId={ticketId} attachments={ticket.attachments} onRemove={askRemoval} />
        </article>
        {hasOlder ? (
          <button type="button" className="button" onClick={showOlder}>
            Show older comments
          </button>
        ) : null}
        {latest.isPending ? <Skeleton lines={2} label="Loading the comments" /> : null}
        {latest.isError ? <p role="alert">The comments could not be loaded.</p> : null}
        {comments.map((comment) => (
          <Message key={comment.ticketCommentId} ticketId={ticketId} comment={comment} onRemove={askRemoval} actions={commentActions} />
        ))}
      </div>

      {canWrite ? (
        // biome-ignore lint/a11y/noStaticElementInteractions: a drop zone for files dragged by pointer; the keyboard attaches through 'Attach files…'
        <div
          className="ticket-composer"
          data-internal={internal}
          data-dragging={dragging}
          onDragOver={(event) => {
            event.preventDefault();
            setDragging(true);
          }}
          onDragLeave={() => setDragging(false)}
          onDrop={onDrop}
        >
          <label htmlFor={ids.composer} className="visually-hidden">
            {internal ? 'Internal note' : 'Reply'}
          </label>
          <textarea
            id={ids.composer}
            ref={composer}
            value={text}
            maxLength={maxCommentLength}
            onChange={(event) => setText(event.target.value)}
            onKeyDown={onComposerKey}
            placeholder={internal ? 'Internal note: only support staff see it' : 'Write a reply'}
            aria-describedby={ids.hint}
          />
          {files.length > 0 ? (
            <ul className="ticket-pending" aria-label="Files to attach">
              {files.map((file, index) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: picked files have no id; two of the same name are told apart by their place (Remove goes by it too)
                <li key={`${file.name}-${index}`} className="ticket-attachment">
                  <AttachmentName name={file.name} />
                  <button
                    type="button"
                    className="button button-ghost"
                    aria-label={`Remove ${file.name}`}
                    onClick={() => setFiles((current) => current.filter((_, at) => at !== index))}
                  >
                    ×
                  </button>
                </li>
              ))}
            </ul>
          ) : null}
          <div className="ticket-composer-row">
            <div className="ticket-composer-tools">
              <button type="button" className="button" onClick={() => fileInput.current?.click()}>
                Attach files…
              </button>
              <input
                ref={fileInput}
                type="file"
                multiple
                hidden
                accept={attachmentAccept(ticket.type)}
                onChange={(event) => {
                  addFiles([...(event.target.files ?? [])]);
                  event.target.value = '';
                }}
              />
              {staff ? (
                <label className="dt-checkbox">
                  <input type="checkbox" checked={internal} onChange={(event) => setInternal(event.target.checked)} />
                  <span>Internal note</span>
                </label>
              ) : null}
              <span id={ids.hint} className="ticket-hint">
                Ctrl+Enter sends. Images or PDF{ticket.type === 'dispute' ? ' (or CSV)' : ''}, up to 5 MB; drop files here.
              </span>
            </div>
            <button type="button" className="button button-primary" disabled={send.isPending || (text.trim() === '' && files.length === 0)} onClick={submit}>
              {send.isPending ? 'Sending…' : internal ? 'Add internal note' : 'Send reply'}
            </button>
          </div>
        </div>
      ) : null}

      <ConfirmDialog
        open={removal !== null}
        title={removal?.kind === 'ticket' ? 'Delete this ticket?' : removal?.kind === 'comment' ? 'Delete this comment?' : 'Remove this file?'}
        text={
          removal?.kind === 'ticket'
            ? `Ticket ${ticket.ticketId}, its comments and its files will be deleted for everyone.`
            : removal?.kind === 'comment'
              ? `The ${removal.comment.internal ? 'internal note' : 'comment'} by ${removal.comment.author.name}${removal.comment.attachments.length > 0 ? ' and its files' : ''} will be deleted for everyone.`
              : `${removal?.kind === 'attachment' ? removal.attachment.filename : ''} will be removed from the ticket for everyone.`
        }
        confirmLabel={removal?.kind === 'ticket' ? 'Delete ticket' : removal?.kind === 'comment' ? 'Delete comment' : 'Remove file'}
        cancelLabel="Keep it"
        onConfirm={() => {
          if (removal) remove.mutate(removal);
        }}
        onCancel={() => setRemoval(null)}
      />
    </article>
  );
}
