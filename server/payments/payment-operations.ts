// The one door for money (docs/architecture.md, "Money moves through one door"): capture, refund, cancelling a refund
// still requested, void, cancelling a job, mailing a payment link, and a refund's later steps. Each runs in ONE
// database transaction that locks the job and its payments, checks what the state allows, and commits through
// commitPaymentChange: the transactions rows, the statistics, the payment's steps, the job's version and the audit
// event together. A refused action (over-refund, wrong state) is not an exception: its failed audit event commits and
// the caller answers 400 with a message that says why and what is possible.
import { createHash, randomBytes } from 'node:crypto';
import { and, eq, sql, type SQL } from 'drizzle-orm';
import {
  capturableMinor,
  formatMoney,
  isCancellableJob,
  isOpenJob,
  maxActionAmountMinor,
  maxRefundsPerPayment,
  refundableMinor,
  refundReasonLabels,
  toMinorUnits,
  amountProblemOf,
  type PaymentAuditEvent,
  type RefundReason,
  type RefundStatus,
} from '../../src/contract/payment-jobs.ts';
import { currencyExponent } from '../../src/contract/transactions.ts';
import { recordAudit } from '../audit/record.ts';
import type { Database, DbWriter } from '../db/client.ts';
import { paymentIdempotencyKeys, paymentJobs, paymentRefunds, paymentSteps, transactions, type PaymentStepRecord } from '../db/schema.ts';
import { portalLink } from '../mail/compose.ts';
import { merchantSenderOf } from '../mail/merchant-sender.ts';
import { isPlausibleEmailAddress, queueEmail } from '../mail/outbox.ts';
import { recordEvent } from '../events/event-bus.ts';
import { postTransactionChanges } from '../ledger/post-transactions.ts';
import { recordTransactionChanges, toStatsTransaction, type NewTransactionRow, type TransactionChange } from '../stats/record-transaction.ts';
import { loadJobState, transactionStatusOfRefund, type JobState, type PaymentState } from './payment-state.ts';
import { orderSummaryParagraphs } from './order-email.ts';
import { assertPaymentLinkMailAllowed } from './payment-link-limits.ts';

export type Actor = { userId: string };
/** What an action answers: the HTTP status and body (kept for its Idempotency-Key). */
export type ActionOutcome = { status: 200 | 201 | 400 | 404 | 409 | 422; body: Record<string, unknown> };

export class PaymentActionError extends Error {
  readonly status: 404 | 409 | 422;
  constructor(status: 404 | 409 | 422, message: string) {
    super(message);
    this.status = status;
  }
}

export const staleMessage = 'Someone updated this view';
export const notFoundMessage = 'The requested record was not found.';

// ---------------------------------------------------------------------------------------------------
// The one function every change commits through

export type PaymentChange = {
  job: JobState['job'];
  actor: Actor;
  /** new transactions rows: captures and refunds (kind, parentReference = the payment) */
  insert?: NewTransactionRow[];
  /**
   * status changes of existing rows (payments, refunds); the rows are locked already. A pending payment that the
   * shopper pays also gets the card it was paid with (`card`).
   */
  update?: { reference: string; status: string; card?: Pick<NewTransactionRow, 'paymentMethod' | 'cardMasked' | 'cardToken' | 'channel'> }[];
  /** the job's own fields that change */
  jobPatch?: Partial<Pick<JobState['job'], 'status' | 'paidDateTimeUtc' | 'expirationDateTimeUtc'>>;
  refundRows?: (typeof paymentRefunds.$inferInsert)[];
  steps?: (typeof paymentSteps.$inferInsert)[];
  audit: { event: DoorAuditEvent; metaData: Record<string, unknown> };
  at: Date;
};
/** The virtual terminal's orders (server/payments/virtual-terminal.ts) commit through this door too. */
export type VirtualTerminalAuditEvent = 'VirtualTerminalOrderSuccessful' | 'VirtualTerminalOrderFailed';
/** … and the gateway's new jobs and the shopper's payments (server/payments/payment-job-opening.ts, shopper-payment.ts). */
export type DoorAuditEvent = PaymentAuditEvent | VirtualTerminalAuditEvent | 'GatewayPaymentJobCreated' | 'PaymentJobPaidByShopper';

export async function commitPaymentChange(tx: DbWriter, change: PaymentChange): Promise<number> {
  const changes: TransactionChange[] = [];
  for (const { reference, status, card } of change.update ?? []) {
    const [before] = await tx.select().from(transactions).where(eq(transactions.reference, reference)).for('update');
    if (!before) throw new Error(`commitPaymentChange: no transaction ${reference}`);
    const [after] = await tx
      .update(transactions)
      .set({ ...card, status })
      .where(eq(transactions.reference, reference))
      .returning();
    if (!after) throw new Error(`commitPaymentChange: transaction ${reference} vanished`);
    changes.push({ before: toStatsTransaction(before), after: toStatsTransaction(after) });
  }
  if (change.insert && change.insert.length > 0) {
    await tx.insert(transactions).values(change.insert);
    for (const row of change.insert) changes.push({ before: null, after: toStatsTransaction(row) });
  }
  await recordTransactionChanges(tx, changes);
  // The settlement ledger moves in the same transaction as the statistics, at the change's time (one clock).
  await postTransactionChanges(tx, changes, { now: change.at });
  for (const row of change.refundRows ?? []) {
    await tx
      .insert(paymentRefunds)
      .values(row)
      .onConflictDoUpdate({
        target: paymentRefunds.refundId,
        set: { status: row.status, steps: row.steps, updatedAt: row.updatedAt },
      });
  }
  if (change.steps && change.steps.length > 0) await tx.insert(paymentSteps).values(change.steps);
  const [job] = await tx
    .update(paymentJobs)
    .set({ ...change.jobPatch, version: sql`${paymentJobs.version} + 1` })
    .where(eq(paymentJobs.reference, change.job.reference))
    .returning({ version: paymentJobs.version });
  await audit(tx, change.job, change.actor, change.audit.event, change.audit.metaData, change.at);
  // Panes that show this job (and lists of jobs and transactions) refresh, in every tab that may read it.
  await recordEvent(tx, 'record', {
    resource: 'paymentJob',
    resourceId: change.job.reference,
    businessId: change.job.businessId,
    merchantId: change.job.merchantId,
  });
  return job?.version ?? change.job.version + 1;
}

async function audit(tx: DbWriter, job: JobState['job'], actor: Actor, event: DoorAuditEvent, metaData: Record<string, unknown>, at: Date): Promise<void> {
  await recordAudit(tx, actor, event, { businessId: job.businessId, merchantId: job.merchantId }, { paymentJobReference: job.reference, ...metaData }, { at });
}

/** A refused action: its failed audit event (committed with the transaction) and a 400 that says why. */
async function refuse(
  tx: DbWriter,
  job: JobState['job'],
  actor: Actor,
  event: PaymentAuditEvent,
  message: string,
  metaData: Record<string, unknown>,
  at: Date,
): Promise<ActionOutcome> {
  await audit(tx, job, actor, event, { ...metaData, outcome: 'refused', message }, at);
  return { status: 400, body: { errorReport: { errors: [{ message, translatedMessage: message }] } } };
}

// ---------------------------------------------------------------------------------------------------
// Idempotency and the transaction around every action

export type ActionRequest = {
  actor: Actor;
  /** the Idempotency-Key header, if any */
  idempotencyKey?: string | null;
  /** what identifies the request's meaning: the path and the body */
  fingerprint: unknown;
};

const fingerprintOf = (value: unknown) => createHash('sha256').update(JSON.stringify(value)).digest('hex');

/**
 * Runs an action in one database transaction. With an Idempotency-Key, a key already answered returns that answer
 * (the same request) or a 422 (another request), without acting again; concurrent requests with one key wait on an
 * advisory lock of the key, so the second sees the first's answer.
 */
export async function runPaymentAction(
  database: Database,
  request: ActionRequest,
  action: (tx: DbWriter, at: Date) => Promise<ActionOutcome>,
): Promise<ActionOutcome> {
  const fingerprint = fingerprintOf(request.fingerprint);
  const key = request.idempotencyKey ?? null;
  return database.db.transaction(async (tx) => {
    if (key !== null) {
      await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtextextended(${`${request.actor.userId}:${key}`}, 1616))`);
      const [previous] = await tx
        .select()
        .from(paymentIdempotencyKeys)
        .where(and(eq(paymentIdempotencyKeys.userId, request.actor.userId), eq(paymentIdempotencyKeys.idempotencyKey, key)));
      if (previous) {
        if (previous.requestFingerprint !== fingerprint) {
          const message = 'This Idempotency-Key was used for another request; use a new key for a new request.';
          return { status: 422, body: { errorReport: { errors: [{ message, translatedMessage: message }] } } } satisfies ActionOutcome;
        }
        return { status: previous.responseStatus as ActionOutcome['status'], body: previous.responseBody as Record<string, unknown> };
      }
    }
    const outcome = await action(tx, new Date());
    if (key !== null && (outcome.status < 300 || outcome.status === 400)) {
      await tx.insert(paymentIdempotencyKeys).values({
        userId: request.actor.userId,
        idempotencyKey: key,
        requestFingerprint: fingerprint,
        responseStatus: outcome.status,
        responseBody: outcome.body,
      });
    }
    return outcome;
  });
}

// ---------------------------------------------------------------------------------------------------
// Actions

export type JobAddress = { reference: string; where?: SQL | undefined };

async function lockedJob(tx: DbWriter, address: JobAddress, version: number | null): Promise<JobState> {
  const state = await loadJobState(tx, address.reference, { lock: true, where: address.where });
  if (!state) throw new PaymentActionError(404, notFoundMessage);
  if (version !== null && state.job.version !== version) throw new PaymentActionError(409, staleMessage);
  return state;
}

function paymentOf(state: JobState, paymentId: string): PaymentState {
  const payment = state.payments.find((candidate) => candidate.transaction.reference === paymentId);
  if (!payment) throw new PaymentActionError(404, notFoundMessage);
  return payment;
}

const newReference = () => `TX${randomBytes(5).toString('hex').toUpperCase()}`;

/** A child row (capture or refund) of a payment, as the seed models them. */
function childOf(payment: PaymentState, kind: 'capture' | 'refund' | 'chargeback', amountMinor: number, status: string, at: Date): NewTransactionRow {
  const p = payment.transaction;
  return {
    reference: newReference(),
    kind,
    parentReference: p.reference,
    partnerId: p.partnerId,
    businessId: p.businessId,
    merchantId: p.merchantId,
    configurationId: p.configurationId,
    paymentJobReference: p.paymentJobReference,
    createdAt: at,
    amountMinor,
    currency: p.currency,
    status,
    paymentMethod: p.paymentMethod,
    channel: p.channel,
    ewalletType: p.ewalletType,
    cardMasked: p.cardMasked,
    cardToken: p.cardToken,
    declineReason: null,
    customerEmail: p.customerEmail,
    originatingIpAddress: null,
  };
}

/** Why an action's amount is not acceptable (below one minor unit, too many decimals, too large), or null. */
function amountProblem(amount: number, currency: string): string | null {
  const problem = amountProblemOf(amount, currency);
  if (problem) return problem;
  if (toMinorUnits(amount, currency) > maxActionAmountMinor) return `The amount may be at most ${formatMoney(maxActionAmountMinor, currency)}.`;
  return null;
}

const ok = (status: 200 | 201, message: string, state: JobState, version: number, extra: Record<string, unknown> = {}): ActionOutcome => ({
  status,
  body: { message, paymentJobReference: state.job.reference, version, ...extra },
});

export type CaptureInput = { paymentId: string; amount: number; version: number | null };

export async function capturePayment(tx: DbWriter, actor: Actor, address: JobAddress, input: CaptureInput, at: Date): Promise<ActionOutcome> {
  const state = await lockedJob(tx, address, input.version);
  const payment = paymentOf(state, input.paymentId);
  const { currency } = payment.transaction;
  const meta = { paymentId: input.paymentId, amount: input.amount, currency };
  const problem = amountProblem(input.amount, currency);
  if (problem) return refuse(tx, state.job, actor, 'CaptureFailed', problem, meta, at);
  const amountMinor = toMinorUnits(input.amount, currency);
  // A partial capture leaves the rest of the authorisation open: it can be captured (each capture is its own sale in
  // the ledger) or voided later. The payment is paid from its first capture on.
  const capturable = capturableMinor(payment.money);
  if (capturable === 0) {
    const why =
      payment.money.releasedMinor > 0 ? ' and the rest of its authorisation was released' : payment.money.capturedMinor > 0 ? ' and already captured' : '';
    return refuse(tx, state.job, actor, 'CaptureFailed', `This payment cannot be captured: it is ${payment.transaction.status}${why}.`, meta, at);
  }
  if (amountMinor > capturable)
    return refuse(tx, state.job, actor, 'CaptureFailed', `At most ${formatMoney(capturable, currency)} can still be captured.`, meta, at);
  const capture = childOf(payment, 'capture', amountMinor, 'paid', at);
  const version = await commitPaymentChange(tx, {
    job: state.job,
    actor,
    at,
    insert: [capture],
    update: payment.transaction.status === 'paid' ? [] : [{ reference: payment.transaction.reference, status: 'paid' }],
    jobPatch: { status: 'paid', paidDateTimeUtc: state.job.paidDateTimeUtc ?? at },
    steps: [
      {
        paymentId: input.paymentId,
        paymentJobReference: state.job.reference,
        step: amountMinor < capturable ? 'partiallyCaptured' : 'captured',
        amountMinor,
        dateTimeUtc: at,
      },
    ],
    audit: { event: 'CaptureSuccessful', metaData: { ...meta, captureId: capture.reference, outcome: 'captured' } },
  });
  return ok(201, `${formatMoney(amountMinor, currency)} captured.`, state, version, { captureId: capture.reference });
}

export type RefundInput = { paymentId: string; amount: number; reason: RefundReason; note?: string | null; notifyCustomer?: boolean; version: number | null };

export async function refundPayment(tx: DbWriter, actor: Actor, address: JobAddress, input: RefundInput, at: Date): Promise<ActionOutcome> {
  const state = await lockedJob(tx, address, input.version);
  const payment = paymentOf(state, input.paymentId);
  const { currency } = payment.transaction;
  const note = input.note?.trim() || null;
  const meta = { paymentId: input.paymentId, amount: input.amount, currency, reason: input.reason, note };
  const problem = amountProblem(input.amount, currency);
  if (problem) return refuse(tx, state.job, actor, 'RefundFailed', problem, meta, at);
  if (input.reason === 'other' && !note) return refuse(tx, state.job, actor, 'RefundFailed', "A refund for the reason 'Other' needs a note.", meta, at);
  if (payment.money.refundCount >= maxRefundsPerPayment) {
    return refuse(
      tx,
      state.job,
      actor,
      'RefundFailed',
      `A payment can have at most ${maxRefundsPerPayment} refunds; this one has ${payment.money.refundCount}.`,
      meta,
      at,
    );
  }
  const amountMinor = toMinorUnits(input.amount, currency);
  const refundable = refundableMinor(payment.money);
  if (refundable === 0) {
    const why =
      payment.money.capturedMinor === 0
        ? `nothing of it is captured (it is ${payment.transaction.status})`
        : payment.money.refundPendingMinor > 0
          ? `the rest is held by refunds still in progress (${formatMoney(payment.money.refundPendingMinor, currency)})`
          : payment.money.chargedBackMinor > 0
            ? `the rest was charged back by the shopper's bank (${formatMoney(payment.money.chargedBackMinor, currency)})`
            : 'it is refunded in full';
    return refuse(tx, state.job, actor, 'RefundFailed', `This payment cannot be refunded: ${why}.`, meta, at);
  }
  if (amountMinor > refundable) {
    const held =
      payment.money.refundPendingMinor > 0
        ? ` (${formatMoney(payment.money.refundPendingMinor, currency)} is held by refunds in progress)`
        : payment.money.chargedBackMinor > 0
          ? ` (${formatMoney(payment.money.chargedBackMinor, currency)} was charged back)`
          : '';
    return refuse(tx, state.job, actor, 'RefundFailed', `At most ${formatMoney(refundable, currency)} can still be refunded${held}.`, meta, at);
  }
  const refund = childOf(payment, 'refund', amountMinor, transactionStatusOfRefund('requested'), at);
  const steps: PaymentStepRecord[] = [{ step: 'requested', dateTimeUtc: at.toISOString(), amountMinor }];
  const version = await commitPaymentChange(tx, {
    job: state.job,
    actor,
    at,
    insert: [refund],
    refundRows: [
      {
        refundId: refund.reference,
        paymentId: input.paymentId,
        paymentJobReference: state.job.reference,
        status: 'requested',
        reason: input.reason,
        note,
        notifyCustomer: input.notifyCustomer ?? false,
        steps,
        requestedBy: actor.userId,
        createdAt: at,
        updatedAt: at,
      },
    ],
    audit: { event: 'RefundSuccessful', metaData: { ...meta, refundId: refund.reference, outcome: 'requested' } },
  });
  const recipient = customerEmailOf(state, payment);
  if (input.notifyCustomer && recipient) {
    const sender = await merchantSenderOf(tx, state.job.merchantId, state.job.configurationId);
    await queueEmail(tx, recipient, {
      template: 'refundConfirmation',
      subject: `${sender.name}: your refund of ${formatMoney(amountMinor, currency)} for order ${state.job.orderNumber}`,
      heading: 'Your refund is on its way',
      paragraphs: [
        `${sender.name} has started a refund of ${formatMoney(amountMinor, currency)} for order ${state.job.orderNumber}.`,
        'It is returned to the payment method you used; depending on your bank it may take a few working days to appear.',
      ],
      footer: `You receive this message because ${sender.name} made a refund for your order ${state.job.orderNumber}.`,
      sender,
    });
  }
  return ok(201, `Refund of ${formatMoney(amountMinor, currency)} requested (${refundReasonLabels[input.reason]}).`, state, version, {
    refundId: refund.reference,
  });
}

function customerEmailOf(state: JobState, payment: PaymentState): string | null {
  const order = state.job.order as { billingIdentity?: { emailAddress?: unknown } } | null;
  const fromOrder = typeof order?.billingIdentity?.emailAddress === 'string' ? order.billingIdentity.emailAddress : null;
  const email = fromOrder ?? payment.transaction.customerEmail;
  return email && isPlausibleEmailAddress(email) ? email : null;
}

export async function cancelRefund(
  tx: DbWriter,
  actor: Actor,
  address: JobAddress,
  input: { paymentId: string; refundId: string; version: number | null },
  at: Date,
): Promise<ActionOutcome> {
  const state = await lockedJob(tx, address, input.version);
  const payment = paymentOf(state, input.paymentId);
  const refund = payment.refunds.find((candidate) => candidate.transaction.reference === input.refundId);
  if (!refund) throw new PaymentActionError(404, notFoundMessage);
  const { currency, amountMinor } = refund.transaction;
  const meta = { paymentId: input.paymentId, refundId: input.refundId, amount: amountMinor / 10 ** currencyExponent(currency), currency };
  if (refund.status !== 'requested') {
    const why = refund.status === 'processing' ? 'it is already being processed by the acquirer' : `it is ${refund.status}`;
    return refuse(
      tx,
      state.job,
      actor,
      'RefundCancellationFailed',
      `This refund can no longer be cancelled: ${why}. Only a refund still requested can be.`,
      meta,
      at,
    );
  }
  const version = await commitPaymentChange(tx, {
    job: state.job,
    actor,
    at,
    update: [{ reference: input.refundId, status: transactionStatusOfRefund('cancelled') }],
    refundRows: [refundRowWith(refund, payment, state, 'cancelled', at)],
    audit: { event: 'RefundCancellationSuccessful', metaData: { ...meta, outcome: 'cancelled' } },
  });
  return ok(200, `Refund of ${formatMoney(amountMinor, currency)} cancelled.`, state, version);
}

function refundRowWith(
  refund: PaymentState['refunds'][number],
  payment: PaymentState,
  state: JobState,
  status: RefundStatus,
  at: Date,
  detail?: string,
): typeof paymentRefunds.$inferInsert {
  return {
    refundId: refund.transaction.reference,
    paymentId: payment.transaction.reference,
    paymentJobReference: state.job.reference,
    status,
    reason: refund.row?.reason ?? 'requestedByCustomer',
    note: refund.row?.note ?? null,
    notifyCustomer: refund.row?.notifyCustomer ?? false,
    steps: [...refund.steps, { step: status, dateTimeUtc: at.toISOString(), ...(detail ? { detail } : {}) }],
    requestedBy: refund.row?.requestedBy ?? null,
    createdAt: refund.row?.createdAt ?? refund.transaction.createdAt,
    updatedAt: at,
  };
}

export async function voidPayment(
  tx: DbWriter,
  actor: Actor,
  address: JobAddress,
  input: { paymentId: string; reason?: string | null; version: number | null },
  at: Date,
): Promise<ActionOutcome> {
  const state = await lockedJob(tx, address, input.version);
  const payment = paymentOf(state, input.paymentId);
  const { currency, amountMinor } = payment.transaction;
  const reason = input.reason?.trim() || null;
  const meta = { paymentId: input.paymentId, amount: amountMinor / 10 ** currencyExponent(currency), currency, reason };
  const capturable = capturableMinor(payment.money);
  if (capturable === 0) {
    const why =
      payment.money.capturedMinor > 0
        ? 'nothing of its authorisation is left open (what is captured can be refunded instead)'
        : `it is ${payment.transaction.status}, not an open authorisation`;
    return refuse(tx, state.job, actor, 'VoidFailed', `This payment cannot be voided: ${why}.`, meta, at);
  }
  if (payment.money.capturedMinor > 0) {
    // After a partial capture, voiding releases the rest of the authorisation; what was captured stays (and stays
    // refundable). The payment stays paid: the 'voided' step carries the amount released.
    const released = {
      ...meta,
      amount: capturable / 10 ** currencyExponent(currency),
      capturedAmount: payment.money.capturedMinor / 10 ** currencyExponent(currency),
    };
    const version = await commitPaymentChange(tx, {
      job: state.job,
      actor,
      at,
      steps: [
        { paymentId: input.paymentId, paymentJobReference: state.job.reference, step: 'voided', amountMinor: capturable, detail: reason, dateTimeUtc: at },
      ],
      audit: { event: 'VoidSuccessful', metaData: { ...released, outcome: 'released' } },
    });
    return ok(
      200,
      `The rest of the authorisation (${formatMoney(capturable, currency)}) voided; ${formatMoney(payment.money.capturedMinor, currency)} captured stays.`,
      state,
      version,
    );
  }
  const othersOpen = state.payments.some((other) => other !== payment && ['reserved', 'paid', 'pending'].includes(other.transaction.status));
  const version = await commitPaymentChange(tx, {
    job: state.job,
    actor,
    at,
    update: [{ reference: input.paymentId, status: 'cancelled' }],
    jobPatch: othersOpen ? undefined : { status: 'cancelled' },
    steps: [{ paymentId: input.paymentId, paymentJobReference: state.job.reference, step: 'voided', amountMinor, detail: reason, dateTimeUtc: at }],
    audit: { event: 'VoidSuccessful', metaData: { ...meta, outcome: 'voided' } },
  });
  return ok(200, `Authorisation of ${formatMoney(amountMinor, currency)} voided.`, state, version);
}

export async function cancelJob(
  tx: DbWriter,
  actor: Actor,
  address: JobAddress,
  input: { confirmed: boolean; version: number | null },
  at: Date,
): Promise<ActionOutcome> {
  const state = await lockedJob(tx, address, input.version);
  const meta = { amount: state.job.amountMinor / 10 ** currencyExponent(state.job.currency), currency: state.job.currency };
  if (!input.confirmed)
    return refuse(tx, state.job, actor, 'PaymentJobCancellationFailed', 'Tick the confirmation to cancel this payment job: cancelling is permanent.', meta, at);
  if (!isCancellableJob(state.job.status)) {
    return refuse(
      tx,
      state.job,
      actor,
      'PaymentJobCancellationFailed',
      `This payment job cannot be cancelled: it is ${state.job.status}. Only a job with nothing paid (pending, reserved or verified) can be.`,
      meta,
      at,
    );
  }
  const open = state.payments.filter((payment) => ['pending', 'reserved', 'verified'].includes(payment.transaction.status));
  const version = await commitPaymentChange(tx, {
    job: state.job,
    actor,
    at,
    update: open.map((payment) => ({ reference: payment.transaction.reference, status: 'cancelled' })),
    jobPatch: { status: 'cancelled' },
    steps: open.map((payment) => ({ paymentId: payment.transaction.reference, paymentJobReference: state.job.reference, step: 'cancelled', dateTimeUtc: at })),
    audit: {
      event: 'PaymentJobCancellationSuccessful',
      metaData: { ...meta, outcome: 'cancelled', payments: open.map((payment) => payment.transaction.reference) },
    },
  });
  return ok(200, `Payment job ${state.job.reference} cancelled.`, state, version);
}

/**
 * 'Expire now': an open job's payment link stops working at once (an agent sent it to the wrong address,
 * the customer changed their mind). The job and its open payment become expired; nothing was paid, so no money moves.
 */
export async function expirePaymentLink(tx: DbWriter, actor: Actor, address: JobAddress, input: { version: number | null }, at: Date): Promise<ActionOutcome> {
  const state = await lockedJob(tx, address, input.version);
  const meta = { amount: state.job.amountMinor / 10 ** currencyExponent(state.job.currency), currency: state.job.currency };
  if (!isOpenJob(state.job.status, state.job.expirationDateTimeUtc?.toISOString() ?? null, at) || state.job.expirationDateTimeUtc === null) {
    const expired = state.job.expirationDateTimeUtc !== null && state.job.expirationDateTimeUtc <= at;
    return refuse(
      tx,
      state.job,
      actor,
      'PaymentLinkExpiryFailed',
      `Only an open payment link can be expired; this job is ${expired && state.job.status === 'pending' ? 'expired' : state.job.status} already.`,
      meta,
      at,
    );
  }
  const open = state.payments.filter((payment) => payment.transaction.status === 'pending');
  const version = await commitPaymentChange(tx, {
    job: state.job,
    actor,
    at,
    update: open.map((payment) => ({ reference: payment.transaction.reference, status: 'expired' })),
    jobPatch: { status: 'expired', expirationDateTimeUtc: at },
    steps: open.map((payment) => ({ paymentId: payment.transaction.reference, paymentJobReference: state.job.reference, step: 'expired', dateTimeUtc: at })),
    audit: { event: 'PaymentLinkExpired', metaData: { ...meta, outcome: 'expired', previousExpiry: state.job.expirationDateTimeUtc.toISOString() } },
  });
  return ok(200, `The payment link of ${state.job.reference} has expired: it can no longer be paid.`, state, version);
}

export async function mailPaymentLink(
  tx: DbWriter,
  actor: Actor,
  address: JobAddress,
  input: { paymentId: string; emailAddress: string },
  at: Date,
  publicUrl: string,
): Promise<ActionOutcome> {
  const state = await lockedJob(tx, address, null);
  paymentOf(state, input.paymentId);
  const emailAddress = input.emailAddress.trim();
  const meta = { paymentId: input.paymentId, emailAddress };
  if (!isPlausibleEmailAddress(emailAddress)) return refuse(tx, state.job, actor, 'PaymentLinkMailFailed', 'Enter a valid email address.', meta, at);
  if (!isOpenJob(state.job.status, state.job.expirationDateTimeUtc?.toISOString() ?? null, at)) {
    const expired = state.job.expirationDateTimeUtc !== null && state.job.expirationDateTimeUtc <= at;
    return refuse(
      tx,
      state.job,
      actor,
      'PaymentLinkMailFailed',
      `A payment link can only be sent for an open job; this one is ${expired && state.job.status === 'pending' ? 'expired' : state.job.status}.`,
      meta,
      at,
    );
  }
  // At most so many per user and per address (payment-link-limits.ts); past either it throws, and nothing is written.
  await assertPaymentLinkMailAllowed(tx, actor.userId, emailAddress, at);
  const url = portalLink(publicUrl, `/pay/${encodeURIComponent(state.job.reference)}`);
  const amount = formatMoney(state.job.amountMinor, state.job.currency);
  const sender = await merchantSenderOf(tx, state.job.merchantId, state.job.configurationId);
  const { id } = await queueEmail(tx, emailAddress, {
    template: 'paymentLink',
    subject: `${sender.name}: payment request of ${amount} for order ${state.job.orderNumber}`,
    heading: `${sender.name} asks you to pay ${amount}`,
    paragraphs: [
      `${sender.name} sent you a payment request of ${amount} for order ${state.job.orderNumber}.`,
      ...orderSummaryParagraphs(state.job.order, state.job.currency),
      'Use the button below to pay securely. You receive a receipt by email once it is paid.',
    ],
    action: { label: `Pay ${amount}`, url },
    footer: state.job.expirationDateTimeUtc
      ? `The link is valid until ${state.job.expirationDateTimeUtc.toISOString().slice(0, 16).replace('T', ' ')} UTC.`
      : undefined,
    sender,
  });
  await audit(tx, state.job, actor, 'PaymentLinkMailed', { ...meta, outcome: 'queued', emailId: id }, at);
  await recordEvent(tx, 'record', {
    resource: 'paymentJob',
    resourceId: state.job.reference,
    businessId: state.job.businessId,
    merchantId: state.job.merchantId,
  });
  return ok(200, `Payment link sent to ${emailAddress}.`, state, state.job.version);
}

/**
 * A refund's later steps (the acquirer's answers): requested → processing → completed or failed. Completing one
 * is what takes its amount off the revenue in the statistics. Used by the refund processor and by tests.
 */
export async function advanceRefund(tx: DbWriter, refundId: string, to: 'processing' | 'completed' | 'failed', at: Date, detail?: string): Promise<boolean> {
  const [refundTransaction] = await tx
    .select()
    .from(transactions)
    .where(and(eq(transactions.reference, refundId), eq(transactions.kind, 'refund')));
  if (!refundTransaction) return false;
  const state = await loadJobState(tx, refundTransaction.paymentJobReference, { lock: true });
  if (!state) return false;
  const payment = state.payments.find((candidate) => candidate.transaction.reference === refundTransaction.parentReference);
  const refund = payment?.refunds.find((candidate) => candidate.transaction.reference === refundId);
  if (!payment || !refund) return false;
  const allowed = to === 'processing' ? refund.status === 'requested' : refund.status === 'processing';
  if (!allowed) return false;
  const { currency, amountMinor } = refund.transaction;
  await commitPaymentChange(tx, {
    job: state.job,
    actor: { userId: 'system' },
    at,
    update: to === 'processing' ? [] : [{ reference: refundId, status: transactionStatusOfRefund(to) }],
    refundRows: [refundRowWith(refund, payment, state, to, at, detail)],
    audit: {
      event: to === 'failed' ? 'RefundFailed' : 'RefundSuccessful',
      metaData: {
        paymentId: payment.transaction.reference,
        refundId,
        amount: amountMinor / 10 ** currencyExponent(currency),
        currency,
        outcome: to,
        ...(detail ? { message: detail } : {}),
      },
    },
  });
  return true;
}

/**
 * A chargeback: the shopper's bank reverses a captured card payment. The acquirer reports it; it becomes a
 * transaction of kind 'chargeback' (paid: the money has left the merchant) under the payment, through the one door,
 * so the statistics take it off the payment's revenue, the ledger posts a reversal and the overview lists it. Its
 * amount defaults to what the merchant still holds of the payment (captured, less what is refunded, held by refunds
 * in progress or charged back already) and can never exceed it. The scheme's reason is
 * the detail of the payment's 'chargedBack' step (at the chargeback's time). Null when there is no such payment or
 * nothing of it left to reverse.
 */
export async function recordChargeback(tx: DbWriter, paymentId: string, input: { amountMinor?: number; reason: string }, at: Date): Promise<string | null> {
  const [paymentRow] = await tx
    .select({ job: transactions.paymentJobReference })
    .from(transactions)
    .where(and(eq(transactions.reference, paymentId), eq(transactions.kind, 'payment')));
  if (!paymentRow) return null;
  const state = await loadJobState(tx, paymentRow.job, { lock: true });
  const payment = state?.payments.find((candidate) => candidate.transaction.reference === paymentId);
  if (!state || !payment) return null;
  const held = refundableMinor(payment.money);
  const amountMinor = input.amountMinor ?? held;
  if (held <= 0 || amountMinor <= 0 || amountMinor > held) return null;
  const chargeback = childOf(payment, 'chargeback', amountMinor, 'paid', at);
  const { currency } = payment.transaction;
  await commitPaymentChange(tx, {
    job: state.job,
    actor: { userId: 'system' },
    at,
    insert: [chargeback],
    steps: [{ paymentId, paymentJobReference: state.job.reference, step: 'chargedBack', amountMinor, detail: input.reason, dateTimeUtc: at }],
    audit: {
      event: 'ChargebackReceived',
      metaData: {
        paymentId,
        chargebackId: chargeback.reference,
        amount: amountMinor / 10 ** currencyExponent(currency),
        currency,
        reason: input.reason,
        outcome: 'chargedBack',
      },
    },
  });
  return chargeback.reference;
}
