// The outbox answers (arktype), checked in the validation worker.
import { type } from 'arktype';
import { outboundEmailStatuses } from './outbox.ts';
import { pagedResults } from './paged.ts';

const status = type.enumerated(...outboundEmailStatuses);

export const outboxMessageSummary = type({
  id: 'string',
  recipient: 'string',
  subject: 'string',
  template: 'string',
  status,
  attempts: 'number',
  createdAt: 'string',
  sentAt: 'string | null',
});

export const outboxMessageList = pagedResults(outboxMessageSummary);

export const outboxMessageDetail = outboxMessageSummary.and({
  html: 'string',
  text: 'string',
  providerMessageId: 'string | null',
  lastError: 'string | null',
  nextAttemptAt: 'string',
  /** a merchant's message: its From name and Reply-To; null for the portal's own */
  fromName: 'string | null',
  replyTo: 'string | null',
});
