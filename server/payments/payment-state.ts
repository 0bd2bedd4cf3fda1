// A payment job as the domain sees it, read from the tables the money lives in. One source of truth: a payment is
// its transactions row (kind 'payment', paymentId = its reference), captures and refunds are its child rows
// (kind 'capture' / 'refund', parentReference = the payment), and the amounts authorised, captured and refunded are
// derived from them, so the overview, the dashboard statistics and this module can never disagree. What the
// transactions table has no column for (a refund's reason and steps, steps after the authorisation) lives in
// payment_refunds and payment_steps; rows made before those tables (the bulk seed) are read with defaults.
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { PaymentMoney, RefundStatus } from '../../src/contract/payment-jobs.ts';
import { paymentJobs, paymentRefunds, paymentSteps, transactions, type PaymentStepRecord } from '../db/schema.ts';
import type { DbWriter } from '../db/client.ts';

export type JobRow = typeof paymentJobs.$inferSelect;
export type TransactionRow = typeof transactions.$inferSelect;
export type RefundRow = typeof paymentRefunds.$inferSelect;
export type StepRow = typeof paymentSteps.$inferSelect;

export type RefundState = { transaction: TransactionRow; row: RefundRow | null; status: RefundStatus; steps: PaymentStepRecord[] };
export type PaymentState = {
  transaction: TransactionRow;
  captures: TransactionRow[];
  refunds: RefundState[];
  /** chargebacks (kind 'chargeback'): the scheme's reversals of the payment, posted like refunds */
  chargebacks: TransactionRow[];
  steps: StepRow[];
  money: PaymentMoney;
};
export type JobState = { job: JobRow; payments: PaymentState[] };

/** A refund made outside this module (the bulk seed) has only its transaction: its status is read from that. */
export function refundStatusOfTransaction(status: string): RefundStatus {
  switch (status) {
    case 'paid':
      return 'completed';
    case 'failed':
    case 'declined':
      return 'failed';
    case 'cancelled':
      return 'cancelled';
    default:
      return 'processing';
  }
}

/** The transactions status that stands for a refund status (only completed refunds count in the statistics). */
export function transactionStatusOfRefund(status: RefundStatus): string {
  switch (status) {
    case 'completed':
      return 'paid';
    case 'failed':
      return 'failed';
    case 'cancelled':
      return 'cancelled';
    default:
      return 'pending';
  }
}

const authorisedStatuses = new Set(['reserved', 'paid']);

/** Amounts of one payment from its row and its children (pure). */
export function moneyOf(
  payment: TransactionRow,
  captures: readonly TransactionRow[],
  refunds: readonly Pick<RefundState, 'transaction' | 'status'>[],
  chargebacks: readonly TransactionRow[] = [],
  steps: readonly Pick<StepRow, 'step' | 'amountMinor'>[] = [],
): PaymentMoney {
  const authorisedMinor = authorisedStatuses.has(payment.status) ? payment.amountMinor : 0;
  // A payment captured at authorisation (no capture rows) has its whole amount captured once paid.
  const capturedMinor =
    captures.length > 0
      ? captures.filter((capture) => capture.status === 'paid').reduce((sum, capture) => sum + capture.amountMinor, 0)
      : payment.status === 'paid'
        ? payment.amountMinor
        : 0;
  let refundedMinor = 0;
  let refundPendingMinor = 0;
  for (const refund of refunds) {
    if (refund.status === 'completed') refundedMinor += refund.transaction.amountMinor;
    else if (refund.status === 'requested' || refund.status === 'processing') refundPendingMinor += refund.transaction.amountMinor;
  }
  const refundCount = refunds.filter((refund) => refund.status !== 'cancelled' && refund.status !== 'failed').length;
  const chargedBackMinor = chargebacks.filter((chargeback) => chargeback.status === 'paid').reduce((sum, chargeback) => sum + chargeback.amountMinor, 0);
  // The rest of a partly captured authorisation, voided: the payment stays paid (its captures), the rest is released.
  const releasedMinor = payment.status === 'paid' ? steps.filter((step) => step.step === 'voided').reduce((sum, step) => sum + (step.amountMinor ?? 0), 0) : 0;
  return { status: payment.status, authorisedMinor, capturedMinor, refundedMinor, refundPendingMinor, refundCount, chargedBackMinor, releasedMinor };
}

/**
 * The reads of a job's payments outside a transaction (the detail and the trace), built once per database (and per
 * transaction, should one be passed) and prepared on each connection once: only the ids change between calls, so
 * neither the ORM's statement building (~0.1–0.2 ms a statement on this machine) nor PostgreSQL's parsing is paid
 * again. Lists of ids travel as one array parameter (= ANY), the same condition as IN.
 */
function paymentReads(tx: DbWriter) {
  const paymentIds = sql.placeholder('paymentIds');
  return {
    payments: tx
      .select()
      .from(transactions)
      .where(and(eq(transactions.paymentJobReference, sql.placeholder('reference')), eq(transactions.kind, 'payment')))
      .orderBy(asc(transactions.createdAt), asc(transactions.reference))
      .prepare('job_payments'),
    children: tx
      .select()
      .from(transactions)
      .where(sql`${transactions.parentReference} = ANY(${paymentIds})`)
      .orderBy(asc(transactions.createdAt), asc(transactions.reference))
      .prepare('payment_children'),
    refunds: tx.select().from(paymentRefunds).where(sql`${paymentRefunds.paymentId} = ANY(${paymentIds})`).prepare('payment_refund_rows'),
    steps: tx.select().from(paymentSteps).where(sql`${paymentSteps.paymentId} = ANY(${paymentIds})`).orderBy(asc(paymentSteps.id)).prepare('payment_step_rows'),
  };
}
const preparedReads = new WeakMap<DbWriter, ReturnType<typeof paymentReads>>();
function readsOf(tx: DbWriter): ReturnType<typeof paymentReads> {
  let reads = preparedReads.get(tx);
  if (!reads) {
    reads = paymentReads(tx);
    preparedReads.set(tx, reads);
  }
  return reads;
}

/**
 * Reads a job and its payments. With lock, the job row and its payments' rows are locked (FOR UPDATE) first, so
 * actions on one job run one after the other and two refunds can never both take the last of the money. Without
 * lock, the payments' reads are the prepared ones above.
 */
export async function loadJobState(
  tx: DbWriter,
  reference: string,
  options: { lock: boolean; where?: ReturnType<typeof sql> | undefined },
): Promise<JobState | null> {
  const jobQuery = tx
    .select()
    .from(paymentJobs)
    .where(and(eq(paymentJobs.reference, reference), options.where));
  const [job] = options.lock ? await jobQuery.for('update') : await jobQuery;
  if (!job) return null;
  const reads = options.lock ? null : readsOf(tx);
  const payments = reads
    ? await reads.payments.execute({ reference })
    : await tx
        .select()
        .from(transactions)
        .where(and(eq(transactions.paymentJobReference, reference), eq(transactions.kind, 'payment')))
        .orderBy(asc(transactions.createdAt), asc(transactions.reference))
        .for('update');
  const paymentIds = payments.map((payment) => payment.reference);
  const children =
    paymentIds.length === 0
      ? []
      : reads
        ? await reads.children.execute({ paymentIds })
        : await tx
            .select()
            .from(transactions)
            .where(inArray(transactions.parentReference, paymentIds))
            .orderBy(asc(transactions.createdAt), asc(transactions.reference));
  const refundRows =
    paymentIds.length === 0
      ? []
      : reads
        ? await reads.refunds.execute({ paymentIds })
        : await tx.select().from(paymentRefunds).where(inArray(paymentRefunds.paymentId, paymentIds));
  const stepRows =
    paymentIds.length === 0
      ? []
      : reads
        ? await reads.steps.execute({ paymentIds })
        : await tx.select().from(paymentSteps).where(inArray(paymentSteps.paymentId, paymentIds)).orderBy(asc(paymentSteps.id));
  const refundRowById = new Map(refundRows.map((row) => [row.refundId, row]));
  return {
    job,
    payments: payments.map((payment) => {
      const captures = children.filter((child) => child.parentReference === payment.reference && child.kind === 'capture');
      const refunds: RefundState[] = children
        .filter((child) => child.parentReference === payment.reference && child.kind === 'refund')
        .map((transaction) => {
          const row = refundRowById.get(transaction.reference) ?? null;
          const status = row?.status ?? refundStatusOfTransaction(transaction.status);
          const steps: PaymentStepRecord[] = row?.steps ?? seededRefundSteps(transaction, status);
          return { transaction, row, status, steps };
        });
      const chargebacks = children.filter((child) => child.parentReference === payment.reference && child.kind === 'chargeback');
      const steps = stepRows.filter((step) => step.paymentId === payment.reference);
      return { transaction: payment, captures, refunds, chargebacks, steps, money: moneyOf(payment, captures, refunds, chargebacks, steps) };
    }),
  };
}

/** Steps of a refund the seed made: requested at its time, then processing, then its outcome. */
function seededRefundSteps(transaction: TransactionRow, status: RefundStatus): PaymentStepRecord[] {
  const at = (minutes: number) => new Date(transaction.createdAt.getTime() + minutes * 60_000).toISOString();
  const steps: PaymentStepRecord[] = [{ step: 'requested', dateTimeUtc: at(0), amountMinor: transaction.amountMinor }];
  if (status === 'requested' || status === 'cancelled') return status === 'cancelled' ? [...steps, { step: 'cancelled', dateTimeUtc: at(1) }] : steps;
  steps.push({ step: 'processing', dateTimeUtc: at(2) });
  if (status === 'completed') steps.push({ step: 'completed', dateTimeUtc: at(95) });
  if (status === 'failed') steps.push({ step: 'failed', dateTimeUtc: at(95), detail: transaction.declineReason ?? 'Refused by the acquirer' });
  return steps;
}

/** Totals of a job over its payments (minor units). */
export function jobMoney(state: JobState) {
  let authorised = 0;
  let captured = 0;
  let refunded = 0;
  let pending = 0;
  let chargedBack = 0;
  for (const { money } of state.payments) {
    authorised += money.authorisedMinor;
    captured += money.capturedMinor;
    refunded += money.refundedMinor;
    pending += money.refundPendingMinor;
    chargedBack += money.chargedBackMinor;
  }
  return { authorised, captured, refunded, chargedBack, remaining: Math.max(0, captured - refunded - pending - chargedBack) };
}
