// The payment jobs contract's schemas (arktype): action bodies the server validates, answers the client checks.
// Constants and rules are in payment-jobs.ts.
import { type } from 'arktype';
import { maxRefundNoteLength, maxVoidReasonLength, refundReasons, refundStatuses } from './payment-jobs.ts';

const isoDateTime = 'string.date.iso';
/** Major units; the largest any request may carry is 999,999,999 minor units (checked per currency by the server). */
const amount = 'number > 0';

export const captureBody = type({ '+': 'reject', amount, version: 'number.integer >= 1' });
export type CaptureBody = typeof captureBody.infer;

export const refundBody = type({
  '+': 'reject',
  amount,
  reason: type.enumerated(...refundReasons),
  'note?': `string <= ${maxRefundNoteLength} | null`,
  'notifyCustomer?': 'boolean',
  version: 'number.integer >= 1',
});
export type RefundBody = typeof refundBody.infer;

export const voidBody = type({ '+': 'reject', 'reason?': `string <= ${maxVoidReasonLength} | null`, version: 'number.integer >= 1' });
export type VoidBody = typeof voidBody.infer;

export const cancelRefundBody = type({ '+': 'reject', version: 'number.integer >= 1' });

export const cancelJobBody = type({ '+': 'reject', confirmed: 'boolean', version: 'number.integer >= 1' });
export type CancelJobBody = typeof cancelJobBody.infer;
/** 'Expire now': an open job's link stops working at once; nothing was paid, so nothing moves. */
export const expireLinkBody = type({ '+': 'reject', version: 'number.integer >= 1' });
export type ExpireLinkBody = typeof expireLinkBody.infer;

export const mailPaymentLinkBody = type({ '+': 'reject', emailAddress: 'string <= 254' });
export type MailPaymentLinkBody = typeof mailPaymentLinkBody.infer;

const step = type({ step: 'string', dateTimeUtc: isoDateTime, 'amount?': 'number | null', 'detail?': 'string | null' });

export const paymentJobListItem = type({
  reference: 'string',
  orderNumber: 'string',
  createDateTimeUtc: isoDateTime,
  expirationDateTimeUtc: 'string | null',
  paidDateTimeUtc: 'string | null',
  status: 'string',
  amount: 'number',
  currency: 'string',
  configurationId: 'string',
  businessId: 'string',
  merchantId: 'string',
  merchantName: 'string',
  customer: 'string | null',
  emailAddress: 'string | null',
  paymentMethod: 'string | null',
});
export type PaymentJobListItem = typeof paymentJobListItem.infer;
/**
 * numberOfResultsIsEstimate: above 10,000 matching jobs the total is the planner's estimate (shown as 'about'), as in
 * the transactions overview; absent or false, the total is exact.
 */
export const paymentJobList = type({ results: paymentJobListItem.array(), numberOfResults: 'number', 'numberOfResultsIsEstimate?': 'boolean' });
export type PaymentJobList = typeof paymentJobList.infer;

export const refundDetail = type({
  refundId: 'string',
  amount: 'number',
  currency: 'string',
  status: type.enumerated(...refundStatuses),
  reason: 'string',
  note: 'string | null',
  createDateTimeUtc: isoDateTime,
  steps: step.array(),
  cancellable: 'boolean',
});
export type RefundDetail = typeof refundDetail.infer;

export const paymentDetail = type({
  paymentId: 'string',
  status: 'string',
  paymentMethod: 'string',
  channel: 'string',
  maskedCardNumber: 'string | null',
  currency: 'string',
  amount: 'number',
  authorised: 'number',
  captured: 'number',
  refunded: 'number',
  refundPending: 'number',
  /** paid chargebacks of this payment (major units) */
  chargedBack: 'number',
  refundable: 'number',
  capturable: 'number',
  createDateTimeUtc: isoDateTime,
  originatingIpAddress: 'string | null',
  declineReason: 'string | null',
  traceReference: 'string',
  steps: step.array(),
  captures: type({ captureId: 'string', amount: 'number', currency: 'string', status: 'string', createDateTimeUtc: isoDateTime, steps: step.array() }).array(),
  refunds: refundDetail.array(),
  attributes: 'Record<string, unknown>',
  actions: type({ capture: 'boolean', refund: 'boolean', void: 'boolean' }),
});
export type PaymentDetail = typeof paymentDetail.infer;

const address = type({ '[string]': 'string | null' });
const orderLine = type({
  type: 'string',
  description: 'string',
  quantity: 'number',
  unitPriceExclVat: 'number',
  unitPriceInclVat: 'number',
  vatPercentage: 'number',
  totalExclVat: 'number',
  totalInclVat: 'number',
  totalVat: 'number',
});

export const paymentJobDetail = paymentJobListItem.merge({
  version: 'number',
  businessName: 'string',
  partnerId: 'string | null',
  phoneNumber: 'string | null',
  order: type({
    billingIdentity: type({ emailAddress: 'string | null', dateOfBirth: 'string | null' }),
    billingAddress: address.or('null'),
    shippingAddress: address.or('null'),
    orderLines: orderLine.array(),
    totals: type({ exclVat: 'number', vat: 'number', inclVat: 'number' }),
  }),
  amounts: type({ authorised: 'number', captured: 'number', refunded: 'number', chargedBack: 'number', remaining: 'number' }),
  payments: paymentDetail.array(),
  invoices: type({
    invoiceNumber: 'string',
    amount: 'number',
    currency: 'string',
    issueDateTimeUtc: isoDateTime,
    dueDateTimeUtc: isoDateTime,
    status: 'string',
  }).array(),
  /** chargebacks: each a transaction of kind 'chargeback' (reversalId = its reference), its amount negative */
  reversals: type({
    reversalId: 'string',
    paymentId: 'string',
    amount: 'number',
    currency: 'string',
    reason: 'string',
    status: 'string',
    dateTimeUtc: isoDateTime,
  }).array(),
  splitOutpayment: type({
    createDateTimeUtc: isoDateTime,
    outpayments: type({
      amount: 'number',
      currency: 'string',
      scheduledDateTimeUtc: isoDateTime,
      outPaidDateTimeUtc: 'string | null',
      beneficiary: type({ customerId: 'string', nameOnBankAccount: 'string', iban: 'string', bic: 'string' }),
    }).array(),
  }).or('null'),
  actions: type({ cancel: 'boolean', mailPaymentLink: 'boolean', expireLink: 'boolean' }),
});
export type PaymentJobDetail = typeof paymentJobDetail.infer;

export const paymentActionAnswer = type({ message: 'string', paymentJobReference: 'string', version: 'number', 'refundId?': 'string', 'captureId?': 'string' });
export type PaymentActionAnswer = typeof paymentActionAnswer.infer;

export const paymentTrace = type({
  traceReference: 'string',
  paymentJobReference: 'string',
  paymentId: 'string',
  advanced: 'boolean',
  traceSequences: type({
    sequence: 'number',
    timestampUtc: isoDateTime,
    direction: "'inbound' | 'outbound'",
    message: 'string',
    'durationMs?': 'number | null',
    'rawRequest?': 'string | null',
    'rawResponse?': 'string | null',
  }).array(),
});
export type PaymentTrace = typeof paymentTrace.infer;

export const auditEventItem = type({
  id: 'string',
  event: 'string',
  dateTimeUtc: isoDateTime,
  userId: 'string',
  userEmail: 'string | null',
  businessId: 'string | null',
  merchantId: 'string | null',
  metaData: 'Record<string, unknown>',
});
export type AuditEventItem = typeof auditEventItem.infer;
export const auditEventList = type({ data: auditEventItem.array(), totalCount: 'number' });
export type AuditEventList = typeof auditEventList.infer;
