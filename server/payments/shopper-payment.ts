// A shopper paying a payment job on its hosted page (GET/POST /pay/{paymentJobReference}). In one
// database transaction: the job is locked and re-checked (open, not expired), the card is sealed in the card vault
// (only its masked form is kept beside the payment), and the payment commits through the one door for money
// (commitPaymentChange): the job's pending payment row paid when there is one, else a new one; the job paid and its
// version moved on; the payment's step; the statistics, the ledger, the audit event and the live event of open panes.
// The demo acquirer (server/payments/demo-acquirer.ts) decides the card, as it does in the virtual terminal; a
// declined card writes nothing here: the shopper sees why and may try another.
import { randomBytes } from 'node:crypto';
import { and, desc, eq, sql } from 'drizzle-orm';
import { formatMoney } from '../../src/contract/payment-jobs.ts';
import { unknownCardDeclineReason } from '../../src/contract/virtual-terminal.ts';
import type { CardKeys } from '../cards/card-keys.ts';
import { maskCardNumber } from '../cards/card-seal.ts';
import { vaultCard } from '../cards/card-vault.ts';
import type { Database, Db } from '../db/client.ts';
import { auditEvents, paymentJobs, transactions } from '../db/schema.ts';
import { merchantSenderOf } from '../mail/merchant-sender.ts';
import { isPlausibleEmailAddress, queueEmail } from '../mail/outbox.ts';
import { declineReasonOf } from './demo-acquirer.ts';
import { orderSummaryParagraphs } from './order-email.ts';
import { commitPaymentChange } from './payment-operations.ts';

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
  const declined = declineReasonOf(digits, 'hostedPage');
  if (declined === unknownCardDeclineReason) return 'The card was declined. This demo accepts the published test cards only (for example 4111 1111 1111 1111).';
  if (declined !== null) return `The card was declined: ${declined}.`;
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
    const card = { paymentMethod: 'card', cardMasked: maskCardNumber(digits), cardToken, channel: 'Gateway' };
    const [pending] = await tx
      .select({ reference: transactions.reference })
      .from(transactions)
      .where(and(eq(transactions.paymentJobReference, job.reference), eq(transactions.kind, 'payment'), eq(transactions.status, 'pending')))
      .limit(1)
      .for('update');
    const paymentReference = pending?.reference ?? `TX${randomBytes(5).toString('hex').toUpperCase()}`;
    await commitPaymentChange(tx, {
      job,
      actor: { userId: 'shopper' },
      at: now,
      ...(pending
        ? { update: [{ reference: pending.reference, status: 'paid', card }] }
        : {
            insert: [
              {
                reference: paymentReference,
                kind: 'payment',
                parentReference: null,
                partnerId: job.partnerId,
                businessId: job.businessId,
                merchantId: job.merchantId,
                configurationId: job.configurationId,
                paymentJobReference: job.reference,
                createdAt: now,
                amountMinor: job.amountMinor,
                currency: job.currency,
                status: 'paid',
                ...card,
              },
            ],
          }),
      jobPatch: { status: 'paid', paidDateTimeUtc: now },
      steps: [
        { paymentId: paymentReference, paymentJobReference: job.reference, step: 'authorisedAndCaptured', amountMinor: job.amountMinor, dateTimeUtc: now },
      ],
      audit: {
        event: 'PaymentJobPaidByShopper',
        metaData: {
          paymentJobReference: job.reference,
          transactionReference: paymentReference,
          amountMinor: job.amountMinor,
          currency: job.currency,
          maskedCardNumber: card.cardMasked,
        },
      },
    });
    await queueShopperReceipt(tx, job, paymentReference, card.cardMasked, now);
    return { ok: true, transactionReference: paymentReference };
  });
}

/**
 * The shopper's receipt, queued with the payment: to the order's email, else to the address the payment link was
 * last mailed to. From the merchant (its trade name, its support address as the Reply-To), with the order and its VAT.
 */
async function queueShopperReceipt(tx: Db, job: PaymentJobRow, paymentReference: string, cardMasked: string, now: Date): Promise<void> {
  const order = job.order as { billingIdentity?: { emailAddress?: unknown } } | null;
  let recipient = typeof order?.billingIdentity?.emailAddress === 'string' ? order.billingIdentity.emailAddress : null;
  if (!recipient || !isPlausibleEmailAddress(recipient)) {
    const [mailed] = await tx
      .select({ address: sql<string | null>`${auditEvents.metaData}->>'emailAddress'` })
      .from(auditEvents)
      .where(
        and(
          eq(auditEvents.merchantId, job.merchantId),
          eq(auditEvents.event, 'PaymentLinkMailed'),
          sql`${auditEvents.metaData}->>'paymentJobReference' = ${job.reference}`,
        ),
      )
      .orderBy(desc(auditEvents.id))
      .limit(1);
    recipient = mailed?.address ?? null;
  }
  if (!recipient || !isPlausibleEmailAddress(recipient)) return;
  const sender = await merchantSenderOf(tx, job.merchantId, job.configurationId);
  const total = formatMoney(job.amountMinor, job.currency);
  await queueEmail(tx, recipient, {
    template: 'shopperReceipt',
    subject: `${sender.name}: receipt for order ${job.orderNumber}`,
    heading: `Thank you for your payment`,
    paragraphs: [
      `${sender.name} has received your payment of ${total} for order ${job.orderNumber} on ${now.toISOString().slice(0, 16).replace('T', ' ')} UTC.`,
      ...orderSummaryParagraphs(job.order, job.currency),
      `Paid with card ${cardMasked.slice(-4).padStart(8, '•')}. Payment reference ${paymentReference}.`,
    ],
    footer: `You receive this email because you paid ${sender.name}'s payment request for order ${job.orderNumber}.`,
    sender,
  });
}
