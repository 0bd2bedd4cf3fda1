// One email of the outbox: who it went to, its state and attempts, and its two bodies. The HTML body is shown in a
// sandboxed frame (no scripts, no forms, no navigation of the portal, and the portal's CSP still applies to it), the
// plain text as text; neither is ever inserted into the portal's own document.
import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { isApiError } from '../../src/api/api-error.ts';
import { outboundEmailStatusLabels } from '../../src/contract/outbox.ts';
import { formatDateTime } from '../../src/format/dates.ts';
import type { PaneProps } from '../../src/state/pane-scope.tsx';
import { Skeleton } from '../../src/ui/skeleton.tsx';
import { outboxQueries } from './outbox-queries.ts';
import '../notifications/notifications.css';

export function OutboxMessagePane({ params }: PaneProps) {
  const id = params.emailId ?? '';
  const detail = useQuery(outboxQueries.detail(id));
  const titleId = useId();
  const [body, setBody] = useState<'html' | 'text'>('html');

  if (detail.isPending)
    return (
      <div className="notification-detail">
        <Skeleton lines={4} label="Loading the email" />
      </div>
    );
  if (detail.isError) {
    const notFound = isApiError(detail.error) && detail.error.status === 404;
    return (
      <div className="notification-detail">
        <h1>Email {id}</h1>
        <p role="alert">{notFound ? 'The requested record was not found.' : 'The email could not be loaded.'}</p>
      </div>
    );
  }
  const message = detail.data;
  return (
    <article className="notification-detail" aria-labelledby={titleId}>
      <h1 id={titleId}>{message.subject}</h1>
      <dl className="notification-dates">
        <div>
          <dt>From</dt>
          <dd>{message.fromName ?? 'Payments portal'}</dd>
        </div>
        <div>
          <dt>To</dt>
          <dd>{message.recipient}</dd>
        </div>
        {message.replyTo ? (
          <div>
            <dt>Reply to</dt>
            <dd>{message.replyTo}</dd>
          </div>
        ) : null}
        <div>
          <dt>Status</dt>
          <dd>{outboundEmailStatusLabels[message.status]}</dd>
        </div>
        <div>
          <dt>Template</dt>
          <dd>{message.template}</dd>
        </div>
        <div>
          <dt>Created</dt>
          <dd>{formatDateTime(message.createdAt)}</dd>
        </div>
        <div>
          <dt>Sent</dt>
          <dd>{formatDateTime(message.sentAt)}</dd>
        </div>
        <div>
          <dt>Attempts</dt>
          <dd>{message.attempts}</dd>
        </div>
        {message.status === 'queued' && message.attempts > 0 ? (
          <div>
            <dt>Next attempt</dt>
            <dd>{formatDateTime(message.nextAttemptAt)}</dd>
          </div>
        ) : null}
        {message.providerMessageId ? (
          <div>
            <dt>Message ID</dt>
            <dd>{message.providerMessageId}</dd>
          </div>
        ) : null}
      </dl>
      {message.lastError ? (
        <p role="note" className="report-error">
          Last error: {message.lastError}
        </p>
      ) : null}
      <div role="group" aria-label="Body" className="outbox-body-switch">
        <button type="button" className="button" aria-pressed={body === 'html'} onClick={() => setBody('html')}>
          HTML
        </button>{' '}
        <button type="button" className="button" aria-pressed={body === 'text'} onClick={() => setBody('text')}>
          Plain text
        </button>
      </div>
      {body === 'html' ? (
        <iframe className="outbox-html" title={`HTML body of ${message.subject}`} sandbox="" srcDoc={message.html} referrerPolicy="no-referrer" />
      ) : (
        // biome-ignore lint/a11y/noNoninteractiveTabindex lint/a11y/useAriaPropsSupportedByRole: a scrolling body is reached by keyboard (axe's scrollable-region-focusable); its label is what tests and screen readers that honour it find
        <pre className="outbox-text" tabIndex={0} aria-label={`Plain text body of ${message.subject}`}>
          {message.text}
        </pre>
      )}
      <p>
        <a href="/outbox">All emails</a>
      </p>
    </article>
  );
}
