// The mail outbox: a message is queued by inserting its row in the database transaction of the request that sends
// it (commit = the mail will go; rollback = it never existed), and any node's mail worker (worker.ts) sends it.
import { randomUUID } from 'node:crypto';
import type { Db } from '../db/client.ts';
import { outboundEmails } from '../db/schema.ts';
import { composeEmail, type EmailContent } from './compose.ts';

export type QueuedEmail = { id: string };

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
  await tx.insert(outboundEmails).values({
    id, recipient, subject: composed.subject, template: composed.template, html: composed.html, text: composed.text,
  });
  return { id };
}
