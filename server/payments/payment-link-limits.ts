// How often the portal mails payment links: a payment link is an email from the provider's domain to an address the
// user types, so without a limit a signed-in user (or a borrowed session) could send the provider's mail to anyone,
// as often as it likes. Two limits, both counted from what every node shares (the audit trail and the outbox) inside
// the transaction that sends: per user (paymentLinkMailsPerUserPerMinute) and per recipient address, whoever sends
// (paymentLinkMailsPerRecipientPerHour). Transaction-scoped advisory locks, always the user's before the address's,
// make concurrent sends of one user or to one address count one after another. Both the 'Mail payment link' action
// and the virtual terminal's 'Send a payment link instead' check here; the time is the action's (`at`), never the
// database's clock.
import { and, desc, eq, gt, or, sql } from 'drizzle-orm';
import { auditEvents, outboundEmails } from '../db/schema.ts';
import type { DbWriter } from '../db/client.ts';

export const paymentLinkMailsPerUserPerMinute = 10;
export const paymentLinkMailsPerRecipientPerHour = 3;

const userWindowMs = 60_000;
const recipientWindowMs = 3_600_000;

/** A refused send: the caller answers 429 with Retry-After (seconds) and the message; nothing was written. */
export class PaymentLinkMailLimited extends Error {
  readonly retryAfterSeconds: number;
  constructor(message: string, retryAfterSeconds: number) {
    super(message);
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

export type PaymentLinkMailLimit = { retryAt: Date; message: string } | null;

/** The address as the limit counts it: one address however it is capitalised or padded. */
export const recipientKeyOf = (emailAddress: string) => emailAddress.trim().toLowerCase();

/**
 * Whether `userId` may mail one more payment link to `emailAddress` at `at`: null when it may, else when it may again
 * and why not. Takes the two locks first (held to the end of `tx`), so call it in the transaction that sends.
 */
export async function paymentLinkMailLimit(tx: DbWriter, userId: string, emailAddress: string, at: Date): Promise<PaymentLinkMailLimit> {
  const recipient = recipientKeyOf(emailAddress);
  await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtextextended(${`payment-link-mail:user:${userId}`}, 3303))`);
  await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtextextended(${`payment-link-mail:to:${recipient}`}, 3303))`);

  // The user's links mailed within the last minute: the mail action's and the virtual terminal's.
  const sentByUser = await tx
    .select({ at: auditEvents.dateTimeUtc })
    .from(auditEvents)
    .where(
      and(
        eq(auditEvents.userId, userId),
        gt(auditEvents.dateTimeUtc, new Date(at.getTime() - userWindowMs)),
        or(
          eq(auditEvents.event, 'PaymentLinkMailed'),
          and(eq(auditEvents.event, 'VirtualTerminalOrderSuccessful'), sql`${auditEvents.metaData}->>'outcome' = 'paymentLinkSent'`),
        ),
      ),
    )
    .orderBy(desc(auditEvents.dateTimeUtc))
    .limit(paymentLinkMailsPerUserPerMinute);
  if (sentByUser.length >= paymentLinkMailsPerUserPerMinute) {
    // When the oldest of the last ones leaves the window, one more may go.
    const retryAt = new Date(sentByUser[sentByUser.length - 1]!.at.getTime() + userWindowMs);
    return {
      retryAt,
      message: `You have mailed ${paymentLinkMailsPerUserPerMinute} payment links in the last minute, the most allowed. Please wait ${secondsUntil(retryAt, at)} seconds and try again.`,
    };
  }

  // Payment links to this address within the last hour, whoever sent them (the outbox keeps every message).
  const sentToRecipient = await tx
    .select({ at: outboundEmails.createdAt })
    .from(outboundEmails)
    .where(
      and(
        eq(outboundEmails.template, 'paymentLink'),
        gt(outboundEmails.createdAt, new Date(at.getTime() - recipientWindowMs)),
        sql`lower(btrim(${outboundEmails.recipient})) = ${recipient}`,
      ),
    )
    .orderBy(desc(outboundEmails.createdAt))
    .limit(paymentLinkMailsPerRecipientPerHour);
  if (sentToRecipient.length >= paymentLinkMailsPerRecipientPerHour) {
    const retryAt = new Date(sentToRecipient[sentToRecipient.length - 1]!.at.getTime() + recipientWindowMs);
    const minutes = Math.max(1, Math.ceil(secondsUntil(retryAt, at) / 60));
    return {
      retryAt,
      message: `This email address has been sent ${paymentLinkMailsPerRecipientPerHour} payment links in the last hour, the most allowed. Please try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
    };
  }
  return null;
}

/** The same check, throwing PaymentLinkMailLimited when the send must wait (which rolls back the transaction). */
export async function assertPaymentLinkMailAllowed(tx: DbWriter, userId: string, emailAddress: string, at: Date): Promise<void> {
  const limit = await paymentLinkMailLimit(tx, userId, emailAddress, at);
  if (limit) throw new PaymentLinkMailLimited(limit.message, secondsUntil(limit.retryAt, at));
}

function secondsUntil(retryAt: Date, at: Date): number {
  return Math.max(1, Math.ceil((retryAt.getTime() - at.getTime()) / 1000));
}
