// The mail outbox: a message is queued by inserting its row in the database transaction of the request that sends
// it (commit = the mail will go; rollback = it never existed), and any node's mail worker (worker.ts) sends it.
import { randomUUID } from 'node:crypto';
import type { Db } from '../db/client.ts';
import { outboundEmails } from '../db/schema.ts';
import { composeEmail, escapeHtml, type ComposedEmail, type EmailContent } from './compose.ts';

export type QueuedEmail = { id: string };

/** What a secret link becomes in the outbox once its message is sent. */
export const removedLinkText = '[link removed after sending]';

/** Both bodies with every occurrence of the link removed (as written in each: escaped in the HTML). */
export function withoutLink(composed: Pick<ComposedEmail, 'html' | 'text'>, url: string): { html: string; text: string } {
  return { html: composed.html.split(escapeHtml(url)).join(removedLinkText), text: composed.text.split(url).join(removedLinkText) };
}

/** Longest recipient address we accept (RFC 5321: 254 in practice). */
export const maxRecipientLength = 254;
const plausibleAddress = /^[^\s@<>()[\]\\,;:"]+@[^\s@<>()[\]\\,;:"]+\.[^\s@<>()[\]\\,;:"]+$/;

export function isPlausibleEmailAddress(value: string): boolean {
  return value.length <= maxRecipientLength && plausibleAddress.test(value);
}

/**
 * Queues one message to one recipient inside `tx` (pass the request's transaction so the mail and the change it
 * reports commit together). The recipient must already be validated; a bad one throws (a programming error).
 */
export async function queueEmail(tx: Db, recipient: string, content: EmailContent): Promise<QueuedEmail> {
  if (!isPlausibleEmailAddress(recipient)) throw new Error('queueEmail: the recipient is not an email address (validate it first)');
  const composed = composeEmail(content);
  const id = `EM${randomUUID().replace(/-/g, '').slice(0, 20).toUpperCase()}`;
  // A secret link waits with its message; the worker swaps in these bodies once the message is sent (worker.ts).
  const redacted = content.action?.secret ? withoutLink(composed, content.action.url) : null;
  await tx.insert(outboundEmails).values({
    id,
    recipient,
    subject: composed.subject,
    template: composed.template,
    html: composed.html,
    text: composed.text,
    redactedHtml: redacted?.html ?? null,
    redactedText: redacted?.text ?? null,
    senderName: composed.senderName,
    replyTo: composed.replyTo,
  });
  return { id };
}
