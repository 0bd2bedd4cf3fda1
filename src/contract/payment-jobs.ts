// Payment jobs and payment operations: the overview's filters and orderings, the action rules both the
// server (enforcement) and the client (what to offer) read, refund reasons and limits. Schemas of requests and
// answers are in payment-job-schemas.ts, so a screen that needs only these constants does not build them.
import { paymentMethods, paymentStatuses, type PaymentStatus } from './enumerations.ts';
import type { FilterDeclaration, ListQuerySpec } from './list-query.ts';
import { currencyExponent } from './transactions.ts';

const reference = { pattern: /^[A-Za-z0-9_-]{1,64}$/, description: 'a reference' };

/**
 * The overview's status tabs, as a merchant sorts payments: open (the shopper can still pay: waiting or verified and
 * not past its expiry), authorised and not captured (reserved), paid (nothing refunded), refunded (at least one
 * completed refund) and failed (declined, failed, rejected, blocked). No job is in two tabs; cancelled and expired
 * jobs are in none (the 'All' view lists them).
 */
export const paymentJobTabs = ['open', 'authorised', 'paid', 'refunded', 'failed'] as const;
export type PaymentJobTab = (typeof paymentJobTabs)[number];
/** The job statuses each tab covers (refunded and paid also look at the job's refunds, open at its expiry). */
export const paymentJobTabStatuses: Record<PaymentJobTab, readonly PaymentStatus[]> = {
  open: ['pending', 'verified'],
  authorised: ['reserved'],
  paid: ['paid'],
  refunded: ['paid'],
  failed: ['declined', 'failed', 'rejected', 'blocked'],
};

/** Filters of GET {context}/payment-jobs, by lower-cased name. Amounts are major units of each job's currency. */
export const paymentJobFilters = {
  reference: { kind: reference, operators: ['eq'] },
  ordernumber: { kind: { pattern: /^[^\u0000-\u001f\u007f]{1,64}$/, description: '1 to 64 printable characters' }, operators: ['eq'] },
  status: { kind: { oneOf: paymentStatuses }, operators: ['eq'] },
  email: { kind: { pattern: /^[^\s\u0000-\u001f\u007f]{1,254}$/, description: 'the start of an email address' }, operators: ['eq'] },
  amount: { kind: 'number', operators: ['eq', 'gte', 'lte'] },
  createdatetimeutc: { kind: 'date', operators: ['gte', 'lte'] },
  configurationid: { kind: reference, operators: ['eq'] },
  paymentmethod: { kind: { oneOf: paymentMethods }, operators: ['eq'] },
  /** The overview's status tabs (paymentJobTabs): each value any of its states, several values any of theirs. */
  tab: { kind: { oneOf: paymentJobTabs }, operators: ['eq'] },
} as const satisfies Record<string, FilterDeclaration>;

/** OrderingField values: the date is served by an index per scope; the others sort the scope's matches. */
export const paymentJobSortFields = ['createDateTimeUtc', 'amount', 'status', 'reference', 'orderNumber'] as const;

export const paymentJobListSpec: ListQuerySpec = {
  filters: paymentJobFilters,
  sortable: paymentJobSortFields,
  defaultSort: [{ field: 'createDateTimeUtc', descending: true }],
  sortStyle: 'ordering',
};

export const paymentJobColumns = [
  'createDateTimeUtc',
  'reference',
  'orderNumber',
  'customer',
  'emailAddress',
  'amount',
  'currency',
  'status',
  'paymentMethod',
  'merchant',
  'configurationId',
  'paidDateTimeUtc',
  'expirationDateTimeUtc',
] as const;
export type PaymentJobColumn = (typeof paymentJobColumns)[number];
export const paymentJobColumnLabels: Record<PaymentJobColumn, string> = {
  createDateTimeUtc: 'Created',
  reference: 'Reference',
  orderNumber: 'Order number',
  customer: 'Customer',
  emailAddress: 'Email',
  amount: 'Amount',
  currency: 'Currency',
  status: 'Status',
  paymentMethod: 'Payment method',
  merchant: 'Merchant',
  configurationId: 'Configuration',
  paidDateTimeUtc: 'Paid',
  expirationDateTimeUtc: 'Expires',
};

/** Refund reasons: a fixed list; 'other' needs a note. */
export const refundReasons = ['requestedByCustomer', 'duplicate', 'fraudulent', 'productNotReceived', 'productNotAsDescribed', 'goodwill', 'other'] as const;
export type RefundReason = (typeof refundReasons)[number];
export const refundReasonLabels: Record<RefundReason, string> = {
  requestedByCustomer: 'Requested by the customer',
  duplicate: 'Duplicate payment',
  fraudulent: 'Fraudulent payment',
  productNotReceived: 'Product not received',
  productNotAsDescribed: 'Product not as described',
  goodwill: 'Goodwill gesture',
  other: 'Other',
};

/** The largest amount any action may carry, in minor units. */
export const maxActionAmountMinor = 999_999_999;
export const maxRefundsPerPayment = 10;
export const maxVoidReasonLength = 255;
export const maxRefundNoteLength = 500;
export const maxIdempotencyKeyLength = 255;

export const refundStatuses = ['requested', 'processing', 'completed', 'failed', 'cancelled'] as const;
export type RefundStatus = (typeof refundStatuses)[number];

/** A payment's money in minor units, as the server derives it from the transactions. */
export type PaymentMoney = {
  status: string;
  authorisedMinor: number;
  capturedMinor: number;
  /** completed refunds */
  refundedMinor: number;
  /** refunds requested or processing: they hold their amount */
  refundPendingMinor: number;
  refundCount: number;
  /** paid chargebacks: the shopper's bank took this back, so it can no longer be refunded */
  chargedBackMinor: number;
  /** the rest of a partly captured authorisation, voided (released to the shopper): it can no longer be captured */
  releasedMinor: number;
};

/**
 * What of the authorisation can still be captured: a partial capture leaves the rest open (the payment is paid, its
 * captures are what the ledger credits) until it is captured or voided. A payment captured at authorisation (paid,
 * no capture rows) has nothing left.
 */
export const capturableMinor = (money: PaymentMoney) =>
  money.status === 'reserved' || money.status === 'paid' ? Math.max(0, money.authorisedMinor - money.capturedMinor - money.releasedMinor) : 0;
export const refundableMinor = (money: PaymentMoney) =>
  Math.max(0, money.capturedMinor - money.refundedMinor - money.refundPendingMinor - money.chargedBackMinor);

/** Which actions a payment allows by its state alone (permissions apart): the server enforces, the client offers. */
export function paymentActionsOf(money: PaymentMoney): { capture: boolean; refund: boolean; void: boolean } {
  return {
    capture: capturableMinor(money) > 0,
    refund: refundableMinor(money) > 0 && money.refundCount < maxRefundsPerPayment,
    // An open authorisation is voided whole; after a partial capture, voiding releases the rest.
    void: capturableMinor(money) > 0,
  };
}

/** Job statuses in which nothing is paid, so the job may still be cancelled (spec: cancelling is permanent). */
export const cancellableJobStatuses = ['pending', 'reserved', 'verified'] as const;
/** Job statuses in which a shopper may still pay, so a payment link may be sent. */
export const openJobStatuses = ['pending', 'verified'] as const;
export const isCancellableJob = (status: string) => (cancellableJobStatuses as readonly string[]).includes(status);
export const isOpenJob = (status: string, expirationDateTimeUtc: string | null, now = new Date()) =>
  (openJobStatuses as readonly string[]).includes(status) && (expirationDateTimeUtc === null || new Date(expirationDateTimeUtc) > now);

/** Whether a major-unit amount has at most the currency's decimals (0 for JPY) and is positive. */
export function isValidAmountFor(amount: number, currency: string): boolean {
  return amountProblemOf(amount, currency) === null;
}

/**
 * The decimals an amount is written with: those of the shortest decimal that reads back as the same number (what
 * JSON carried: 0.29 has 2, 1e-9 has 9), so a binary fraction's noise (0.29 × 100 = 28.999…) is not a decimal.
 */
export function decimalsOf(amount: number): number {
  if (!Number.isFinite(amount)) return Number.POSITIVE_INFINITY;
  const [mantissa = '', exponent = '0'] = String(Math.abs(amount)).toLowerCase().split('e');
  return Math.max(0, (mantissa.split('.')[1]?.length ?? 0) - Number(exponent));
}

/**
 * Why an amount (major units) is not one of the currency's: below one minor unit (it would become zero), or with more
 * decimals than the currency has (JPY none). Null when it is one. Every money amount a user or API client enters goes
 * through this.
 */
export function amountProblemOf(amount: number, currency: string): string | null {
  const exponent = currencyExponent(currency);
  if (!Number.isFinite(amount) || amount < 10 ** -exponent) return `Amount must be at least ${(10 ** -exponent).toFixed(exponent)} ${currency}.`;
  if (decimalsOf(amount) > exponent) return `Amount has more decimals than ${currency} allows (${exponent}).`;
  return null;
}
export const toMinorUnits = (amount: number, currency: string) => Math.round(amount * 10 ** currencyExponent(currency));

/** 'At most £12.50 can still be refunded.': amounts in messages, en-GB. */
export function formatMoney(amountMinor: number, currency: string): string {
  const exponent = currencyExponent(currency);
  return new Intl.NumberFormat('en-GB', { style: 'currency', currency, minimumFractionDigits: exponent, maximumFractionDigits: exponent }).format(
    amountMinor / 10 ** exponent,
  );
}

/** The trace of a payment has the payment's reference with TR for its prefix (TX0123456789 → TR0123456789). */
export const traceReferenceOf = (paymentId: string) => `TR${paymentId.replace(/^TX/, '')}`;
export const paymentIdOfTrace = (traceReference: string) => (traceReference.startsWith('TR') ? `TX${traceReference.slice(2)}` : null);

/** Audit events of the payment area: the spec's capture, refund and void kinds and ours for the other actions. */
export const paymentAuditEvents = [
  'CaptureSuccessful',
  'CaptureFailed',
  'RefundSuccessful',
  'RefundFailed',
  'VoidSuccessful',
  'VoidFailed',
  'RefundCancellationSuccessful',
  'RefundCancellationFailed',
  'PaymentJobCancellationSuccessful',
  'PaymentJobCancellationFailed',
  'PaymentLinkMailed',
  'PaymentLinkMailFailed',
  'PaymentLinkExpired',
  'PaymentLinkExpiryFailed',
  'ChargebackReceived',
] as const;
export type PaymentAuditEvent = (typeof paymentAuditEvents)[number];
