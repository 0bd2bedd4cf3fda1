// A shopper paying a payment job on its hosted page (GET/POST /pay/{paymentJobReference}, issue 19). In one
// database transaction: the job is locked and re-checked (open, not expired), its payment is written paid (the
// pending payment row of the job when there is one, else a new one), the card is sealed in the card vault (only its
// masked form is kept beside the payment), the job is marked paid, the statistics move with it and an audit event
// records it. Test cards only: this portal has no acquirer, so the seed's published test cards are approved and
// every other number is declined with a clear message (nothing is written for a decline).
import { randomBytes } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import type { CardKeys } from '../cards/card-keys.ts';
import { maskCardNumber } from '../cards/card-seal.ts';
import { vaultCard } from '../cards/card-vault.ts';
import type { Database } from '../db/client.ts';
import { seedTestCards } from '../db/seed-bulk.ts';
import { auditEvents, paymentJobs, transactions } from '../db/schema.ts';
import { recordEvent } from '../events/event-bus.ts';
import { postTransactionChanges } from '../ledger/post-transactions.ts';
import { recordTransactionChanges, toStatsTransaction } from '../stats/record-transaction.ts';

export type PaymentJobRow = typeof paymentJobs.$inferSelect;
export type JobState = 'open' | 'paid' | 'cancelled' | 'expired';

/** Whether a shopper may still pay the job, and if not, why. */
export function jobState(job: Pick<PaymentJobRow, 'status' | 'expirationDateTimeUtc' | 'paidDateTimeUtc'>, now: Date): JobState {
  if (job.status === 'paid' || job.paidDateTimeUtc !== null) return 'paid';
  if (job.status === 'cancelled') return 'cancelled';
  if (job.status === 'expired' || (job.expirationDateTimeUtc !== null && job.expirationDateTimeUtc.getTime() <= now.getTime())) return 'expired';
  // A declined or failed attempt leaves the link usable: the shopper may try another card.
  return ['pending', 'declined', 'failed'].includes(job.status) ? 'open' : 'cancelled';
}

export function luhnValid(digits: string): boolean {
  let sum = 0;
  for (let index = 0; index < digits.length; index += 1) {
    let digit = Number(digits[digits.length - 1 - index]);
    if (index % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

export type CardInput = { cardholderName: string; cardNumber: string; expiry: string; cvc: string };
export type CardProblem = string | null;

/** The form's checks, worded for the shopper; null when the card may be charged. */
export function cardProblem(input: CardInput, now: Date): CardProblem {
  const digits = input.cardNumber.replace(/[\s-]/g, '');
  if (input.cardholderName.trim() === '') return 'Name on card is required';
  if (input.cardholderName.length > 100) return 'Name on card may have 100 characters maximum';
  if (!/^[0-9]{12,19}$/.test(digits) || !luhnValid(digits)) return 'Card number is invalid';
  const expiry = /^(0[1-9]|1[0-2])\/?([0-9]{2})$/.exec(input.expiry.trim());
  if (!expiry) return 'Expiry date is invalid';
  const endOfMonth = Date.UTC(2000 + Number(expiry[2]), Number(expiry[1]), 1);
  if (endOfMonth <= now.getTime()) return 'Expiry date is in the past';
  if (!/^[0-9]{3,4}$/.test(input.cvc.trim())) return 'Security code is invalid';
  if (!seedTestCards.includes(digits)) return 'The card was declined. This demo accepts the published test cards only (for example 4111 1111 1111 1111).';
  return null;
}

export type PayResult = { ok: true; transactionReference: string } | { ok: false; state: Exclude<JobState, 'open'> | 'notFound' };

export async function payShopperJob(database: Database, cardKeys: CardKeys, reference: string, card: CardInput, now = new Date()): Promise<PayResult> {
  const digits = card.cardNumber.replace(/[\s-]/g, '');
  return database.db.transaction(async (tx) => {
    const [job] = await tx.select().from(paymentJobs).where(eq(paymentJobs.reference, reference)).for('update');
    if (!job) return { ok: false, state: 'notFound' };
    const state = jobState(job, now);
    if (state !== 'open') return { ok: false, state };
    const cardToken = await vaultCard(tx, cardKeys, { merchantId: job.merchantId, cardNumber: digits });
    const paid = { status: 'paid', paymentMethod: 'card', cardMasked: maskCardNumber(digits), cardToken, channel: 'Gateway' };
    const [pending] = await tx.select().from(transactions)
      .where(and(eq(transactions.paymentJobReference, job.reference), eq(transactions.kind, 'payment'), eq(transactions.status, 'pending'))).limit(1).for('update');
    let before: ReturnType<typeof toStatsTransaction> | null = null;
    let after: typeof transactions.$inferSelect | undefined;
    if (pending) {
      before = toStatsTransaction(pending);
      [after] = await tx.update(transactions).set(paid).where(eq(transactions.reference, pending.reference)).returning();
    } else {
      [after] = await tx.insert(transactions).values({
        reference: `TX${randomBytes(5).toString('hex').toUpperCase()}`, kind: 'payment', partnerId: job.partnerId, businessId: job.businessId,
        merchantId: job.merchantId, configurationId: job.configurationId, paymentJobReference: job.reference, createdAt: now,
        amountMinor: job.amountMinor, currency: job.currency, ...paid,
      }).returning();
    }
    if (!after) throw new Error('the payment could not be written');
    await tx.update(paymentJobs).set({ status: 'paid', paidDateTimeUtc: now }).where(eq(paymentJobs.reference, job.reference));
    const changes = [{ before, after: toStatsTransaction(after) }];
    await recordTransactionChanges(tx, changes);
    // The settlement ledger moves in the same transaction as the statistics (issue 18).
    await postTransactionChanges(tx, changes);
    await tx.insert(auditEvents).values({
      userId: 'shopper', event: 'PaymentJobPaidByShopper', dateTimeUtc: now, businessId: job.businessId, merchantId: job.merchantId,
      metaData: { paymentJobReference: job.reference, transactionReference: after.reference, amountMinor: job.amountMinor, currency: job.currency, maskedCardNumber: paid.cardMasked },
    });
    await recordEvent(tx, 'record', { resource: 'paymentJob', resourceId: job.reference, businessId: job.businessId, merchantId: job.merchantId });
    return { ok: true, transactionReference: after.reference };
  });
}
