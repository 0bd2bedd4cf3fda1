// The mail outbox as the API shows it (GET /outbox, /outbox/{id}): what the portal sent or will send, for Technical
// admins. Statuses, their labels and the list's declared filters and sorts.
import type { ListQuerySpec } from './list-query.ts';

export const outboundEmailStatuses = ['queued', 'sending', 'sent', 'deliveredLocally', 'failed'] as const;
export type OutboundEmailStatusName = (typeof outboundEmailStatuses)[number];

export const outboundEmailStatusLabels: Record<OutboundEmailStatusName, string> = {
  queued: 'Queued',
  sending: 'Sending',
  sent: 'Sent',
  deliveredLocally: 'Delivered locally',
  failed: 'Failed',
};

export const outboxListSpec: ListQuerySpec = {
  filters: {
    status: { kind: { oneOf: outboundEmailStatuses }, operators: ['eq'] },
    template: { kind: 'string', operators: ['eq'] },
    recipient: { kind: 'string', operators: ['eq'] },
    /** recipient or subject contains this, case-insensitively */
    searchterm: { kind: { pattern: /^[^\u0000-\u001f\u007f]{1,100}$/, description: '1 to 100 printable characters' }, operators: ['eq'] },
  },
  sortable: ['createdAt'],
  defaultSort: [{ field: 'createdAt', descending: true }],
};

export type OutboxMessageSummary = {
  id: string;
  recipient: string;
  subject: string;
  template: string;
  status: OutboundEmailStatusName;
  attempts: number;
  createdAt: string;
  sentAt: string | null;
};

export type OutboxMessage = OutboxMessageSummary & {
  html: string;
  text: string;
  providerMessageId: string | null;
  lastError: string | null;
  nextAttemptAt: string;
  /** a merchant's message: its From name ('Harbour & Finch via Payments portal') and Reply-To; null for the portal's own */
  fromName: string | null;
  replyTo: string | null;
};
