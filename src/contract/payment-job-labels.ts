// One label per state of the payment area, per kind of thing that has the state: the overview's chips and filters,
// the detail's chips and steps, the trace, the activity log, the palette, exports and emails all read these, so a
// state reads the same everywhere ('Waiting for the shopper' in the list is 'Waiting for the shopper' in the filter).
// Only words: no component imports, so the server (exports, mail) and the client share them.
import { paymentStatuses, type PaymentStatus } from './enumerations.ts';
import { paymentJobTabs, type PaymentJobTab, type RefundStatus } from './payment-jobs.ts';

/** A payment job's status, and a payment's (they share the enumeration). */
export const paymentStatusLabels: Record<PaymentStatus, string> = {
  pending: 'Waiting for the shopper',
  verified: 'Shopper verified',
  reserved: 'Authorised, not captured',
  paid: 'Paid',
  cancelled: 'Cancelled',
  expired: 'Expired',
  declined: 'Declined',
  failed: 'Failed',
  rejected: 'Rejected',
  blocked: 'Blocked',
  commissioned: 'Commissioned',
};

/** A refund's status, as the job's refunds table, the activity log and the refund's own steps show it. */
export const refundStatusLabels: Record<RefundStatus, string> = {
  requested: 'Refund requested',
  processing: 'Refund processing',
  completed: 'Refunded',
  failed: 'Refund failed',
  cancelled: 'Refund cancelled',
};

export const captureStatuses = ['completed', 'failed', 'pending'] as const;
export const captureStatusLabels: Record<(typeof captureStatuses)[number], string> = {
  completed: 'Captured',
  failed: 'Capture failed',
  pending: 'Capture pending',
};

/** A chargeback is a transaction of its own: 'paid' means the shopper's bank took the money back. */
export const chargebackStatuses = ['paid', 'pending', 'failed', 'cancelled'] as const;
export const chargebackStatusLabels: Record<(typeof chargebackStatuses)[number], string> = {
  paid: 'Charged back',
  pending: 'Chargeback pending',
  failed: 'Chargeback failed',
  cancelled: 'Chargeback withdrawn',
};

export const invoiceStatuses = ['open', 'paid', 'credited'] as const;
export const invoiceStatusLabels: Record<(typeof invoiceStatuses)[number], string> = { open: 'Open', paid: 'Paid', credited: 'Credited' };

/** The steps of a payment's life (the detail's step list and the trace). */
export const paymentSteps = [
  'created',
  'pending',
  'authorised',
  'declined',
  'failed',
  'captured',
  'partiallyCaptured',
  'voided',
  'chargedBack',
  'expired',
  'cancelled',
] as const;
export type PaymentStep = (typeof paymentSteps)[number];
export const paymentStepLabels: Record<PaymentStep, string> = {
  created: 'Created',
  pending: 'Waiting for the shopper',
  authorised: 'Authorised',
  declined: 'Declined',
  failed: 'Failed',
  captured: 'Captured',
  partiallyCaptured: 'Partly captured',
  voided: 'Authorisation voided',
  chargedBack: 'Charged back',
  expired: 'Expired',
  cancelled: 'Cancelled',
};

export const paymentJobTabLabels: Record<PaymentJobTab, string> = {
  open: 'Open',
  authorised: 'Authorised, not captured',
  paid: 'Paid',
  refunded: 'Refunded',
  failed: 'Failed',
};

export type StatusKind = 'payment' | 'refund' | 'capture' | 'chargeback' | 'invoice' | 'step';

const tables: Record<StatusKind, Readonly<Record<string, string>>> = {
  payment: paymentStatusLabels,
  refund: refundStatusLabels,
  capture: captureStatusLabels,
  chargeback: chargebackStatusLabels,
  invoice: invoiceStatusLabels,
  step: paymentStepLabels,
};

/** Words of an unknown name (a state added later): 'partlyRefunded' → 'Partly refunded'. Never the raw name. */
export function wordsOf(name: string): string {
  const words = name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[_-]+/g, ' ')
    .trim()
    .toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** The one label of a state of a kind of thing. */
export function statusLabelOf(kind: StatusKind, status: string): string {
  return Object.hasOwn(tables[kind], status) ? (tables[kind][status] as string) : wordsOf(status);
}

/**
 * A row of the transactions table: a refund's transaction status stands for its refund status ('paid' is a completed
 * refund: 'Refunded'; 'pending' is requested or processing: 'Refund in progress'), a chargeback's for the chargeback's,
 * a payment's or capture's for the payment's.
 */
export function transactionStatusLabel(kind: string, status: string): string {
  if (kind === 'refund') {
    if (status === 'pending') return 'Refund in progress';
    return statusLabelOf('refund', status === 'paid' ? 'completed' : status === 'declined' ? 'failed' : status);
  }
  if (kind === 'chargeback') return statusLabelOf('chargeback', status);
  return statusLabelOf('payment', status);
}

/** The status filter's choices: the same words as the chips. */
export const paymentStatusOptions = paymentStatuses.map((value) => ({ value, label: paymentStatusLabels[value] }));
export const paymentJobTabOptions = paymentJobTabs.map((value) => ({ value, label: paymentJobTabLabels[value] }));

const auditEventLabels: Record<string, string> = {
  CaptureSuccessful: 'Captured',
  CaptureFailed: 'Capture refused',
  VoidSuccessful: 'Authorisation voided',
  VoidFailed: 'Void refused',
  RefundCancellationSuccessful: 'Refund cancelled',
  RefundCancellationFailed: 'Refund cancellation refused',
  PaymentJobCancellationSuccessful: 'Payment job cancelled',
  PaymentJobCancellationFailed: 'Payment job cancellation refused',
  PaymentLinkMailed: 'Payment link mailed',
  PaymentLinkMailFailed: 'Payment link not mailed',
  PaymentLinkExpired: 'Payment link expired',
  PaymentLinkExpiryFailed: 'Payment link expiry refused',
  ChargebackReceived: 'Chargeback received',
  CardNumberRevealed: 'Card number revealed',
  VirtualTerminalOrderSuccessful: 'Virtual terminal order placed',
  VirtualTerminalOrderFailed: 'Virtual terminal order failed',
};

/**
 * An audit event in words. A refund is logged at each of its steps under one event name with the step as its
 * outcome (requested when asked, processing and completed or failed as the acquirer answers): the label is the
 * step's, so the log reads 'Refund requested' when the refund was asked for, 'Refunded' when it completed.
 */
export function auditEventLabel(event: string, metaData: Readonly<Record<string, unknown>> = {}): string {
  const outcome = typeof metaData.outcome === 'string' ? metaData.outcome : null;
  if (event === 'RefundSuccessful')
    return outcome && Object.hasOwn(refundStatusLabels, outcome) ? statusLabelOf('refund', outcome) : refundStatusLabels.requested;
  if (event === 'RefundFailed') return outcome === 'failed' ? refundStatusLabels.failed : 'Refund refused';
  return auditEventLabels[event] ?? wordsOf(event);
}
