// How a payment job reads in the API: the detail (payments with steps, captures, refunds, attributes; order with
// VAT totals; invoices, reversals, split outpayments) and the trace. The acquiring attributes, invoices, reversals,
// split outpayments and traces are derived deterministically from the payment itself (a hash of its reference), as
// a gateway's records of it would be: they need no bulk rows, cannot drift from the transactions, and are the same on
// every node. Card data in them is the masked number only.
import { createHash } from 'node:crypto';
import { capturableMinor, isCancellableJob, isOpenJob, paymentActionsOf, refundableMinor, traceReferenceOf } from '../../src/contract/payment-jobs.ts';
import type { PaymentDetail, PaymentJobDetail, PaymentTrace } from '../../src/contract/payment-job-schemas.ts';
import { statusLabelOf } from '../../src/contract/payment-job-labels.ts';
import { toMajorUnits } from '../../src/contract/transactions.ts';
import { jobMoney, type JobState, type PaymentState, type TransactionRow } from './payment-state.ts';

const hashOf = (text: string, salt: string) => createHash('sha256').update(`${salt}:${text}`).digest().readUInt32BE(0);
const pick = <T>(values: readonly T[], hash: number): T => values[hash % values.length] as T;
const addMinutes = (date: Date, minutes: number) => new Date(date.getTime() + minutes * 60_000);
const iso = (date: Date) => date.toISOString();

type Step = { step: string; dateTimeUtc: string; amount?: number | null; detail?: string | null };

const captureSteps = new Set(['captured', 'partiallyCaptured']);

/** The payment's steps: created, the authorisation's outcome, captures, later steps, and expiry or cancellation. */
export function stepsOf(state: JobState, payment: PaymentState): Step[] {
  const p = payment.transaction;
  const major = (minor: number) => toMajorUnits(minor, p.currency);
  const recorded = payment.steps.map((row) => row.step);
  const steps: Step[] = [
    // biome-ignore lint/complexity/useMathMinMax: the earlier of two dates (Math.min would answer a number)
    { step: 'created', dateTimeUtc: iso(state.job.createDateTimeUtc < p.createdAt ? state.job.createDateTimeUtc : p.createdAt), amount: major(p.amountMinor) },
  ];
  const wasAuthorised = p.status === 'paid' || p.status === 'reserved' || recorded.includes('voided') || payment.captures.length > 0;
  if (wasAuthorised) steps.push({ step: 'authorised', dateTimeUtc: iso(p.createdAt), amount: major(p.amountMinor) });
  else if (p.status === 'declined' || p.status === 'failed') steps.push({ step: p.status, dateTimeUtc: iso(p.createdAt), detail: p.declineReason });
  else if (p.status === 'pending' || p.status === 'expired' || p.status === 'cancelled') steps.push({ step: 'pending', dateTimeUtc: iso(p.createdAt) });
  if (p.status === 'paid' && payment.captures.length === 0)
    steps.push({ step: 'captured', dateTimeUtc: iso(p.createdAt), amount: major(p.amountMinor), detail: 'Captured with the authorisation' });
  for (const capture of payment.captures) steps.push({ step: 'captured', dateTimeUtc: iso(capture.createdAt), amount: major(capture.amountMinor) });
  for (const row of payment.steps) {
    if (captureSteps.has(row.step)) continue;
    // A chargeback takes money back: its step reads negative, as the chargeback itself does.
    const sign = row.step === 'chargedBack' ? -1 : 1;
    steps.push({
      step: row.step,
      dateTimeUtc: iso(row.dateTimeUtc),
      amount: row.amountMinor === null ? null : sign * major(row.amountMinor),
      detail: row.detail,
    });
  }
  if (p.status === 'expired' && state.job.expirationDateTimeUtc) steps.push({ step: 'expired', dateTimeUtc: iso(state.job.expirationDateTimeUtc) });
  if (p.status === 'cancelled' && !recorded.includes('voided') && !recorded.includes('cancelled'))
    steps.push({ step: 'cancelled', dateTimeUtc: iso(addMinutes(p.createdAt, 3)), detail: 'Cancelled by the shopper' });
  return steps.sort((a, b) => (a.dateTimeUtc < b.dateTimeUtc ? -1 : a.dateTimeUtc > b.dateTimeUtc ? 1 : 0));
}

const acquirers = ['Worldline', 'Adyen', 'Elavon', 'Global Payments'] as const;
const schemes: Record<string, string> = { '4': 'visa', '5': 'mastercard', '2': 'mastercard', '3': 'amex', '6': 'discover' };

/** Acquiring details as the acquirer reports them (JSON shown collapsible in the detail). */
export function attributesOf(payment: TransactionRow): Record<string, unknown> {
  const h = hashOf(payment.reference, 'attributes');
  if (payment.paymentMethod !== 'card' && !payment.ewalletType) {
    return {
      provider: payment.paymentMethod,
      providerReference: `${payment.paymentMethod.toUpperCase().slice(0, 3)}-${(h % 1_000_000_000).toString().padStart(9, '0')}`,
    };
  }
  const authorised = ['paid', 'reserved', 'cancelled'].includes(payment.status);
  return {
    acquirer: pick(acquirers, h),
    acquirerReference: `${(h % 100_000_000).toString().padStart(8, '0')}${payment.reference.slice(-6)}`,
    scheme: payment.cardMasked ? (schemes[payment.cardMasked[0] ?? ''] ?? 'card') : payment.ewalletType,
    maskedCardNumber: payment.cardMasked,
    authorisationCode: authorised ? (h % 1_000_000).toString().padStart(6, '0') : null,
    responseCode: authorised ? '00' : payment.status === 'declined' ? pick(['05', '51', '54', '59'], h) : payment.status === 'failed' ? '91' : null,
    threeDSecure: { version: '2.2.0', transactionStatus: authorised ? 'Y' : pick(['N', 'R', 'U'], h), eci: authorised ? '05' : '07' },
    avsResult: pick(['Y', 'A', 'Z', 'N'], h >> 3),
    cvcResult: authorised ? 'M' : pick(['M', 'N'], h >> 5),
    ...(payment.ewalletType ? { walletType: payment.ewalletType } : {}),
  };
}

function paymentDetail(state: JobState, payment: PaymentState): PaymentDetail {
  const p = payment.transaction;
  const major = (minor: number) => toMajorUnits(minor, p.currency);
  return {
    paymentId: p.reference,
    status: p.status,
    paymentMethod: p.paymentMethod,
    channel: p.channel,
    maskedCardNumber: p.cardMasked,
    currency: p.currency,
    amount: major(p.amountMinor),
    authorised: major(payment.money.authorisedMinor),
    captured: major(payment.money.capturedMinor),
    refunded: major(payment.money.refundedMinor),
    refundPending: major(payment.money.refundPendingMinor),
    chargedBack: major(payment.money.chargedBackMinor),
    refundable: major(refundableMinor(payment.money)),
    capturable: major(capturableMinor(payment.money)),
    createDateTimeUtc: iso(p.createdAt),
    originatingIpAddress: p.originatingIpAddress,
    declineReason: p.declineReason,
    traceReference: traceReferenceOf(p.reference),
    steps: stepsOf(state, payment),
    captures: payment.captures.map((capture) => ({
      captureId: capture.reference,
      amount: major(capture.amountMinor),
      currency: capture.currency,
      status: capture.status === 'paid' ? 'completed' : capture.status,
      createDateTimeUtc: iso(capture.createdAt),
      steps: [
        { step: 'requested', dateTimeUtc: iso(capture.createdAt) },
        { step: capture.status === 'paid' ? 'completed' : capture.status, dateTimeUtc: iso(capture.createdAt) },
      ],
    })),
    refunds: payment.refunds.map((refund) => ({
      refundId: refund.transaction.reference,
      amount: major(refund.transaction.amountMinor),
      currency: refund.transaction.currency,
      status: refund.status,
      reason: refund.row?.reason ?? 'requestedByCustomer',
      note: refund.row?.note ?? null,
      createDateTimeUtc: iso(refund.transaction.createdAt),
      steps: refund.steps.map((step) => ({
        step: step.step,
        dateTimeUtc: step.dateTimeUtc,
        amount: step.amountMinor === undefined ? null : major(step.amountMinor),
        detail: step.detail ?? null,
      })),
      cancellable: refund.status === 'requested',
    })),
    attributes: attributesOf(p),
    actions: paymentActionsOf(payment.money),
  };
}

type AddressJson = Record<string, unknown> | null | undefined;
type OrderJson = {
  billingIdentity?: { emailAddress?: string; dateOfBirth?: string };
  billingAddress?: AddressJson;
  shippingAddress?: AddressJson;
  orderLines?: { type?: string; description?: string; quantity?: number; unitPriceExclVat?: number; unitPriceInclVat?: number; vatPercentage?: number }[];
};

const addressFields = [
  'title',
  'firstName',
  'middleName',
  'lastName',
  'organisation',
  'department',
  'addressLine1',
  'addressLine2',
  'zipCode',
  'city',
  'stateProvince',
  'countryIso3166Alpha2',
  'phoneNumber1',
  'phoneNumber1Type',
  'phoneNumber2',
  'phoneNumber2Type',
] as const;

function addressOf(address: AddressJson): Record<string, string | null> | null {
  if (!address || typeof address !== 'object') return null;
  return Object.fromEntries(addressFields.map((field) => [field, typeof address[field] === 'string' ? (address[field] as string) : null]));
}

export function customerOf(order: OrderJson): string | null {
  const address = order.billingAddress ?? order.shippingAddress;
  if (!address) return null;
  const name = [address.firstName, address.middleName, address.lastName].filter((part) => typeof part === 'string' && part).join(' ');
  return name || (typeof address.organisation === 'string' ? address.organisation : null);
}

/** Order lines in major units with their totals; the VAT of each line is incl − excl, so the totals add up. */
function orderOf(order: OrderJson, currency: string) {
  const major = (minor: number) => toMajorUnits(minor, currency);
  const lines = (order.orderLines ?? []).map((line) => {
    const quantity = line.quantity ?? 1;
    const inclMinor = Math.round((line.unitPriceInclVat ?? 0) * quantity);
    const exclMinor = Math.round((line.unitPriceExclVat ?? 0) * quantity);
    return {
      type: line.type ?? 'physicalItem',
      description: line.description ?? '',
      quantity,
      unitPriceExclVat: major(line.unitPriceExclVat ?? 0),
      unitPriceInclVat: major(line.unitPriceInclVat ?? 0),
      vatPercentage: line.vatPercentage ?? 0,
      totalExclVat: major(exclMinor),
      totalInclVat: major(inclMinor),
      totalVat: major(inclMinor - exclMinor),
      inclMinor,
      exclMinor,
    };
  });
  const inclMinor = lines.reduce((sum, line) => sum + line.inclMinor, 0);
  const exclMinor = lines.reduce((sum, line) => sum + line.exclMinor, 0);
  return {
    billingIdentity: { emailAddress: order.billingIdentity?.emailAddress ?? null, dateOfBirth: order.billingIdentity?.dateOfBirth ?? null },
    billingAddress: addressOf(order.billingAddress),
    shippingAddress: addressOf(order.shippingAddress),
    orderLines: lines.map(({ inclMinor: _i, exclMinor: _e, ...line }) => line),
    totals: { exclVat: major(exclMinor), vat: major(inclMinor - exclMinor), inclVat: major(inclMinor) },
  };
}

const invoiceMethods: Record<string, number> = { afterPay: 14, klarnaPayLater: 30, klarnaSliceIt: 30, klarnaPayNow: 0 };
export const chargebackReasons = [
  'Fraud: card not present',
  'Goods or services not provided',
  'Duplicate processing',
  'Credit not processed',
  'Not as described',
] as const;
/** The scheme's reason of a chargeback that carries none of its own (the seed's). */
export const chargebackReasonOf = (reference: string) => pick(chargebackReasons, hashOf(reference, 'reason'));
const beneficiaries = [
  { nameOnBankAccount: 'Harbour Market Sellers Ltd', iban: 'GB33BUKB20201555555555', bic: 'BUKBGB22' },
  { nameOnBankAccount: 'Atelier Noord BV', iban: 'NL91ABNA0417164300', bic: 'ABNANL2A' },
  { nameOnBankAccount: 'Werkstatt Berlin GmbH', iban: 'DE89370400440532013000', bic: 'COBADEFFXXX' },
] as const;

export function paymentJobDetailOf(state: JobState, names: { merchantName: string; businessName: string }, now = new Date()): PaymentJobDetail {
  const { job } = state;
  const order = (job.order ?? {}) as OrderJson;
  const major = (minor: number) => toMajorUnits(minor, job.currency);
  const money = jobMoney(state);
  const latest = state.payments[state.payments.length - 1];
  const billing = order.billingAddress ?? order.shippingAddress;
  const phone = billing && typeof billing.phoneNumber1 === 'string' ? billing.phoneNumber1 : null;
  const h = hashOf(job.reference, 'job');
  const paid = state.payments.filter((payment) => payment.money.capturedMinor > 0);
  const invoiceDays = latest ? invoiceMethods[latest.transaction.paymentMethod] : undefined;
  const invoices =
    invoiceDays !== undefined && latest && latest.money.capturedMinor > 0
      ? [
          {
            invoiceNumber: `INV-${job.orderNumber.replace(/^ORD-/, '')}`,
            amount: major(latest.money.capturedMinor),
            currency: job.currency,
            issueDateTimeUtc: iso(latest.transaction.createdAt),
            dueDateTimeUtc: iso(addMinutes(latest.transaction.createdAt, invoiceDays * 1440)),
            status:
              latest.money.refundedMinor >= latest.money.capturedMinor
                ? 'credited'
                : addMinutes(latest.transaction.createdAt, invoiceDays * 1440) < now
                  ? 'paid'
                  : 'open',
          },
        ]
      : [];
  // Chargebacks are transactions of their own (kind 'chargeback', parentReference = the payment): the statistics, the
  // ledger and the transactions overview count them; they read negative. The scheme's reason is the detail of the
  // payment's 'chargedBack' step made with it (derived from the reference if there is none).
  const reversals = state.payments.flatMap((payment) =>
    payment.chargebacks.map((chargeback) => ({
      reversalId: chargeback.reference,
      paymentId: payment.transaction.reference,
      amount: -major(chargeback.amountMinor),
      currency: chargeback.currency,
      reason:
        payment.steps.find((step) => step.step === 'chargedBack' && step.dateTimeUtc.getTime() === chargeback.createdAt.getTime())?.detail ??
        chargebackReasonOf(chargeback.reference),
      status: chargeback.status,
      dateTimeUtc: iso(chargeback.createdAt),
    })),
  );
  const split =
    paid.length > 0 && h % 19 === 0
      ? (() => {
          const total = paid.reduce((sum, payment) => sum + payment.money.capturedMinor, 0);
          const seller = Math.round(total * 0.85);
          const created = paid[0]?.transaction.createdAt ?? job.createDateTimeUtc;
          const scheduled = addMinutes(created, 2 * 1440);
          const beneficiary = pick(beneficiaries, h >> 4);
          return {
            createDateTimeUtc: iso(created),
            outpayments: [
              {
                amount: major(seller),
                currency: job.currency,
                scheduledDateTimeUtc: iso(scheduled),
                outPaidDateTimeUtc: scheduled < now ? iso(scheduled) : null,
                beneficiary: { customerId: `CU${(h % 1_000_000).toString().padStart(6, '0')}`, ...beneficiary },
              },
              {
                amount: major(total - seller),
                currency: job.currency,
                scheduledDateTimeUtc: iso(scheduled),
                outPaidDateTimeUtc: scheduled < now ? iso(scheduled) : null,
                beneficiary: {
                  customerId: `CU${job.merchantId.slice(-6)}`,
                  nameOnBankAccount: names.merchantName,
                  iban: 'GB94BARC10201530093459',
                  bic: 'BARCGB22',
                },
              },
            ],
          };
        })()
      : null;
  return {
    reference: job.reference,
    orderNumber: job.orderNumber,
    createDateTimeUtc: iso(job.createDateTimeUtc),
    expirationDateTimeUtc: job.expirationDateTimeUtc ? iso(job.expirationDateTimeUtc) : null,
    paidDateTimeUtc: job.paidDateTimeUtc ? iso(job.paidDateTimeUtc) : null,
    status: job.status,
    amount: major(job.amountMinor),
    currency: job.currency,
    configurationId: job.configurationId,
    businessId: job.businessId,
    merchantId: job.merchantId,
    merchantName: names.merchantName,
    businessName: names.businessName,
    partnerId: job.partnerId,
    customer: customerOf(order),
    emailAddress: order.billingIdentity?.emailAddress ?? latest?.transaction.customerEmail ?? null,
    phoneNumber: phone,
    paymentMethod: latest?.transaction.paymentMethod ?? null,
    version: job.version,
    order: orderOf(order, job.currency),
    amounts: {
      authorised: major(money.authorised),
      captured: major(money.captured),
      refunded: major(money.refunded),
      chargedBack: major(money.chargedBack),
      remaining: major(money.remaining),
    },
    payments: state.payments.map((payment) => paymentDetail(state, payment)),
    invoices,
    reversals,
    splitOutpayment: split,
    actions: {
      cancel: isCancellableJob(job.status),
      mailPaymentLink: isOpenJob(job.status, job.expirationDateTimeUtc ? iso(job.expirationDateTimeUtc) : null, now) && state.payments.length > 0,
      expireLink: isOpenJob(job.status, job.expirationDateTimeUtc ? iso(job.expirationDateTimeUtc) : null, now) && job.expirationDateTimeUtc !== null,
    },
  };
}

/**
 * The gateway conversation of one payment over its whole life: the authorisation, captures, voids, each refund's
 * steps (requested, processing, completed or failed, or cancelled), chargebacks, expiry or cancellation. Each step
 * is a request to the acquirer (outbound) and its answer (inbound). A request is never sent before the previous
 * answer arrived (steps recorded close together get a shorter latency), so no duration is negative. With advanced,
 * the raw bodies: the card number masked, never more.
 */
export function traceOf(state: JobState, payment: PaymentState, advanced: boolean): PaymentTrace {
  const p = payment.transaction;
  const paymentSteps: TraceStep[] = stepsOf(state, payment)
    .filter((step) => step.step !== 'created')
    .map((step) => ({ ...step, operation: operationOf(step.step), label: statusLabelOf('step', step.step) }));
  const refundSteps: TraceStep[] = payment.refunds.flatMap((refund) =>
    refund.steps.map((step) => ({
      step: step.step,
      dateTimeUtc: new Date(step.dateTimeUtc).toISOString(),
      amount: toMajorUnits(step.amountMinor ?? refund.transaction.amountMinor, refund.transaction.currency),
      detail: step.detail ?? null,
      operation: step.step === 'cancelled' ? 'Refund cancellation' : 'Refund',
      label: statusLabelOf('refund', step.step),
      refundId: refund.transaction.reference,
    })),
  );
  // Stable by time: a refund's steps after the payment's steps of the same instant.
  const steps = [...paymentSteps, ...refundSteps]
    .map((step, index) => ({ step, index }))
    .sort((a, b) => (a.step.dateTimeUtc < b.step.dateTimeUtc ? -1 : a.step.dateTimeUtc > b.step.dateTimeUtc ? 1 : a.index - b.index))
    .map(({ step }) => step);
  const sequences: PaymentTrace['traceSequences'] = [];
  const acquirerReference = attributesOf(p).acquirerReference ?? null;
  let sequence = 0;
  let previous: Date | null = null;
  for (const step of steps) {
    const answeredAt = new Date(step.dateTimeUtc);
    const wanted = 180 + (hashOf(`${p.reference}:${step.step}:${sequence}`, 'latency') % 1400);
    const sentAt = new Date(previous ? Math.max(answeredAt.getTime() - wanted, previous.getTime()) : answeredAt.getTime() - wanted);
    const latency = answeredAt.getTime() - sentAt.getTime();
    const { operation } = step;
    const request = {
      operation,
      paymentId: p.reference,
      ...(step.refundId ? { refundId: step.refundId } : {}),
      paymentJobReference: p.paymentJobReference,
      amount: step.amount ?? toMajorUnits(p.amountMinor, p.currency),
      currency: p.currency,
      paymentMethod: p.paymentMethod,
      ...(p.cardMasked ? { card: { number: p.cardMasked, expiry: '**/**', cvc: '***' } } : {}),
    };
    const response = { operation, result: step.step, ...(step.detail ? { message: step.detail } : {}), acquirerReference };
    sequence += 1;
    sequences.push({
      sequence,
      timestampUtc: iso(sentAt),
      direction: 'outbound',
      message: `${operation} request sent${step.refundId ? ` (${step.refundId})` : ''}`,
      durationMs: previous ? Math.max(0, sentAt.getTime() - previous.getTime()) : null,
      ...(advanced ? { rawRequest: JSON.stringify(request, null, 2), rawResponse: null } : {}),
    });
    sequence += 1;
    sequences.push({
      sequence,
      timestampUtc: iso(answeredAt),
      direction: 'inbound',
      message: `${operation} answered: ${step.label}${step.detail ? ` (${step.detail})` : ''}`,
      durationMs: Math.max(0, latency),
      ...(advanced ? { rawRequest: null, rawResponse: JSON.stringify(response, null, 2) } : {}),
    });
    previous = answeredAt;
  }
  return {
    traceReference: traceReferenceOf(p.reference),
    paymentJobReference: state.job.reference,
    paymentId: p.reference,
    advanced,
    traceSequences: sequences,
  };
}

type TraceStep = Step & { operation: string; label: string; refundId?: string };

function operationOf(step: string): string {
  if (step === 'authorised' || step === 'declined' || step === 'failed' || step === 'pending') return 'Authorisation';
  if (captureSteps.has(step)) return 'Capture';
  if (step === 'voided') return 'Void';
  if (step === 'chargedBack') return 'Chargeback';
  if (step === 'expired') return 'Expiry';
  return step === 'cancelled' ? 'Cancellation' : step.charAt(0).toUpperCase() + step.slice(1);
}
