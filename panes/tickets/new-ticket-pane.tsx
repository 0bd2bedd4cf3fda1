// A new support ticket in the applied context: type (preset by ?type= from the help menu's 'Report bug' and 'Give
// feedback'), priority, subject, description and files (picked or dropped), and the payment it is about when opened
// from one (?transaction= or ?paymentJob=). Ctrl+Enter sends; files go up once the ticket exists.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type DragEvent, type FormEvent, type KeyboardEvent, useEffect, useId, useRef, useState } from 'react';
import { useSnapshot } from 'valtio';
import { useLocation } from 'wouter';
import type { ContextSelections } from '../../src/contract/context.ts';
import {
  attachmentAccept,
  attachmentProblem,
  maxDescriptionLength,
  maxSubjectLength,
  ticketPriorities,
  ticketTypeLabels,
  ticketTypes,
  uploadMessages,
  type TicketPriority,
  type TicketType,
} from '../../src/contract/tickets.ts';
import { contextPath, contextStore } from '../../src/state/context-store.ts';
import { type PaneProps, useLeaveFormGuard } from '../../src/state/pane-scope.tsx';
import { showToast } from '../../src/state/toast-store.ts';
import { AttachmentName } from './ticket-columns.tsx';
import { createTicket, ticketQueries, uploadAttachment } from './ticket-queries.ts';
import './tickets.css';

const referencePattern = /^[A-Za-z0-9_-]{1,64}$/;

/** The type a link asks for ('?type=bug'), if it is one. */
export function typeFromSearch(search: string): TicketType {
  const asked = new URLSearchParams(search).get('type') ?? '';
  return (ticketTypes as readonly string[]).includes(asked) ? (asked as TicketType) : 'general';
}

export function NewTicketPane({ search }: PaneProps) {
  const [, navigate] = useLocation();
  const queryClient = useQueryClient();
  const { applied } = useSnapshot(contextStore);
  const params = new URLSearchParams(search);
  // Opened from a transaction or payment job: the ticket belongs to its business and merchant, whatever is applied.
  const recordBusiness = referencePattern.test(params.get('business') ?? '') ? params.get('business') : null;
  const recordMerchant = recordBusiness && referencePattern.test(params.get('merchant') ?? '') ? params.get('merchant') : null;
  const contextPrefix = recordBusiness
    ? `/businesses/${encodeURIComponent(recordBusiness)}${recordMerchant ? `/merchants/${encodeURIComponent(recordMerchant)}` : ''}`
    : contextPath(applied as ContextSelections);
  const businessChosen = recordBusiness !== null || Boolean((applied as ContextSelections).business?.id);
  const forLabel = recordBusiness
    ? recordMerchant
      ? `merchant ${recordMerchant} of business ${recordBusiness}`
      : `business ${recordBusiness}`
    : ((applied as ContextSelections).merchant?.title ?? (applied as ContextSelections).business?.title);
  const [type, setType] = useState<TicketType>(() => typeFromSearch(search));
  const [priority, setPriority] = useState<TicketPriority>(type === 'bug' ? 'Medium' : 'Unknown');
  const [subject, setSubject] = useState('');
  const [description, setDescription] = useState('');
  const [files, setFiles] = useState<File[]>([]);
  const [dragging, setDragging] = useState(false);
  const [touched, setTouched] = useState(false);
  const linkedTransaction = referencePattern.test(params.get('transaction') ?? '') ? params.get('transaction') : null;
  const linkedPaymentJob = referencePattern.test(params.get('paymentJob') ?? '') ? params.get('paymentJob') : null;
  const [keepLink, setKeepLink] = useState(true);
  const fileInput = useRef<HTMLInputElement>(null);
  const ids = { title: useId(), subject: useId(), description: useId(), files: useId() };
  const [createdId, setCreatedId] = useState<string | null>(null);
  const dirty = createdId === null && (subject !== '' || description !== '' || files.length > 0);
  useLeaveFormGuard(dirty);
  // Once the guard has been lifted (the effect above ran with dirty false), open the new ticket in this pane.
  useEffect(() => {
    if (createdId && !dirty) navigate(`/tickets/${encodeURIComponent(createdId)}`, { replace: true });
  }, [createdId, dirty, navigate]);

  const subjectProblem =
    subject.trim() === '' ? 'Subject is required' : subject.trim().length > maxSubjectLength ? `Subject may have ${maxSubjectLength} characters maximum` : null;
  const descriptionProblem =
    description.trim() === ''
      ? 'Description is required'
      : description.trim().length > maxDescriptionLength
        ? `Description may have ${maxDescriptionLength} characters maximum`
        : null;

  const addFiles = (chosen: readonly File[]) => {
    const accepted: File[] = [];
    for (const file of chosen) {
      const problem = attachmentProblem(file, type);
      if (problem) showToast({ kind: 'danger', message: `${file.name}: ${problem}`, durationMs: 5000 });
      else accepted.push(file);
    }
    setFiles((current) => [...current, ...accepted]);
  };

  const create = useMutation({
    mutationFn: async () => {
      if (!contextPrefix) throw new Error('no context');
      const { ticketId } = await createTicket(contextPrefix, {
        type,
        priority,
        subject: subject.trim(),
        description: description.trim(),
        ...(keepLink && linkedTransaction ? { linkedTransactionReference: linkedTransaction } : {}),
        ...(keepLink && linkedPaymentJob ? { linkedPaymentJobReference: linkedPaymentJob } : {}),
      });
      let failedUploads = 0;
      for (const file of files) {
        try {
          await uploadAttachment(ticketId, null, file);
        } catch {
          failedUploads += 1;
        }
      }
      return { ticketId, failedUploads };
    },
    onSuccess: ({ ticketId, failedUploads }) => {
      void queryClient.invalidateQueries({ queryKey: ticketQueries.all });
      showToast({ kind: 'success', message: `Ticket ${ticketId} created.` });
      if (failedUploads > 0) showToast({ kind: 'danger', message: uploadMessages.uploadFailed, durationMs: 5000 });
      setCreatedId(ticketId);
    },
  });

  const submit = (event?: FormEvent) => {
    event?.preventDefault();
    setTouched(true);
    if (subjectProblem || descriptionProblem || create.isPending) return;
    create.mutate();
  };
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      submit();
    }
  };
  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setDragging(false);
    addFiles([...event.dataTransfer.files]);
  };

  if (!businessChosen) {
    return (
      <div className="ticket-form">
        <h1>New ticket</h1>
        <p role="alert">Business ID is required. Choose a business (or one of its merchants) as your context to raise a ticket for it.</p>
        <p>
          <a href="/context">Choose a context</a>
        </p>
      </div>
    );
  }

  return (
    <form
      className="ticket-form"
      aria-labelledby={ids.title}
      onSubmit={submit}
      onKeyDown={onKeyDown}
      noValidate
      onDragOver={(event) => {
        event.preventDefault();
        setDragging(true);
      }}
      onDragLeave={() => setDragging(false)}
      onDrop={onDrop}
      data-dragging={dragging}
    >
      <h1 id={ids.title}>New ticket</h1>
      <p className="ticket-hint">For {forLabel}. Ctrl+Enter sends the ticket.</p>
      <label>
        Type
        <select value={type} onChange={(event) => setType(event.target.value as TicketType)}>
          {ticketTypes.map((value) => (
            <option key={value} value={value}>
              {ticketTypeLabels[value]}
            </option>
          ))}
        </select>
      </label>
      <label>
        Priority
        <select value={priority} onChange={(event) => setPriority(event.target.value as TicketPriority)}>
          {ticketPriorities.map((value) => (
            <option key={value} value={value}>
              {value === 'Unknown' ? 'No priority' : value}
            </option>
          ))}
        </select>
      </label>
      <label>
        Subject
        <input
          type="text"
          value={subject}
          maxLength={maxSubjectLength}
          onChange={(event) => setSubject(event.target.value)}
          aria-invalid={touched && subjectProblem !== null}
          aria-describedby={ids.subject}
          // biome-ignore lint/a11y/noAutofocus: a new ticket opens with the keyboard in its subject (decision 0132, focus on load)
          autoFocus
        />
        <span id={ids.subject} className="ticket-field-problem">
          {touched ? subjectProblem : null}
        </span>
      </label>
      <label>
        Description
        <textarea
          value={description}
          maxLength={maxDescriptionLength}
          onChange={(event) => setDescription(event.target.value)}
          aria-invalid={touched && descriptionProblem !== null}
          aria-describedby={ids.description}
        />
        <span id={ids.description} className="ticket-field-problem">
          {touched ? descriptionProblem : null}
        </span>
      </label>
      {linkedTransaction || linkedPaymentJob ? (
        <label className="dt-checkbox ticket-linked">
          <input type="checkbox" checked={keepLink} onChange={(event) => setKeepLink(event.target.checked)} />
          <span>About {linkedTransaction ? `transaction ${linkedTransaction}` : `payment job ${linkedPaymentJob}`}</span>
        </label>
      ) : null}
      <div className="ticket-field">
        <span id={ids.files}>Attachments</span>
        <div className="ticket-composer-tools">
          <button type="button" className="button" onClick={() => fileInput.current?.click()} aria-describedby={ids.files}>
            Attach files…
          </button>
          <span className="ticket-hint">Images or PDF{type === 'dispute' ? ' (CSV for disputes)' : ''}, up to 5 MB each. You can also drop files here.</span>
        </div>
        <input
          ref={fileInput}
          type="file"
          multiple
          hidden
          accept={attachmentAccept(type)}
          onChange={(event) => {
            addFiles([...(event.target.files ?? [])]);
            event.target.value = '';
          }}
        />
        {files.length > 0 ? (
          <ul className="ticket-pending" aria-label="Files to attach">
            {files.map((file, index) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: two chosen files may share a name; the items hold no state, so a key that shifts on removal costs nothing
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
      </div>
      <div className="ticket-form-actions">
        <a className="button" href="/tickets">
          Cancel
        </a>
        <button type="submit" className="button button-primary" disabled={create.isPending}>
          {create.isPending ? 'Sending…' : 'Send ticket'}
        </button>
      </div>
    </form>
  );
}
