// The transactions contract's schemas (arktype): the answers of the list, count, detail, card number and export
// calls, and the export request body. The constants they use are in transactions.ts.
import { type } from 'arktype';
import { exportFileTypes, transactionColumns, transactionKinds } from './transactions.ts';

const isoDateTime = 'string.date.iso';

export const transactionListItem = type({
  reference: 'string',
  kind: type.enumerated(...transactionKinds),
  date: isoDateTime,
  businessId: 'string',
  merchantId: 'string',
  merchantName: 'string',
  /** major units */
  amount: 'number',
  currency: 'string',
  status: 'string',
  paymentMethod: 'string',
  channel: 'string',
  ewalletType: 'string | null',
  paymentJobReference: 'string',
  /** a payment's paid refunds, in its major units (0 when none); absent on refunds and captures */
  'refundedAmount?': 'number',
  /** the card's masked number (first six and last four digits), null without a card */
  'maskedCardNumber?': 'string | null',
});
export type TransactionListItem = typeof transactionListItem.infer;

/**
 * numberOfResultsIsEstimate: above the exact-count threshold the total is the planner's estimate (shown as
 * 'about'), so a page of a two-million-row list never waits for a full count. GET …/transactions/count is exact.
 */
export const transactionList = type({
  results: transactionListItem.array(),
  numberOfResults: 'number',
  numberOfResultsIsEstimate: 'boolean',
});
export type TransactionList = typeof transactionList.infer;

export const transactionCount = type({ numberOfResults: 'number' });

export const transactionTotals = type({
  currency: 'string',
  volume: 'number',
  salesCount: 'number',
  refunds: 'number',
  refundsCount: 'number',
  chargebacks: 'number',
  chargebacksCount: 'number',
  revenue: 'number',
  unsuccessfulVolume: 'number',
  unsuccessfulCount: 'number',
});

export const linkedTransaction = type({
  reference: 'string',
  kind: type.enumerated(...transactionKinds),
  relation: "'parent' | 'child' | 'sibling'",
  date: isoDateTime,
  amount: 'number',
  currency: 'string',
  status: 'string',
});
export type LinkedTransaction = typeof linkedTransaction.infer;

export const transactionDetail = transactionListItem.merge({
  businessName: 'string',
  partnerId: 'string | null',
  configurationId: 'string',
  parentReference: 'string | null',
  maskedCardNumber: 'string | null',
  declineReason: 'string | null',
  customerEmail: 'string | null',
  originatingIpAddress: 'string | null',
  paymentMethods: type({ paymentMethod: 'string', ewalletType: 'string | null', maskedCardNumber: 'string | null' }).array(),
  paymentJob: type({
    reference: 'string',
    orderNumber: 'string',
    status: 'string',
    createDateTimeUtc: isoDateTime,
    amount: 'number',
    currency: 'string',
    configurationId: 'string',
  }).or('null'),
  linkedTransactions: linkedTransaction.array(),
  /** the caller holds Mapi.Transaction.CardNumber.Read here and a card number is on file */
  cardNumberRevealable: 'boolean',
  /**
   * What may still be refunded of this payment, in its major units, when the caller may refund it here (they hold
   * Portal.Payments.Refund and Portal.PaymentJobs.Read where it lives, and the payment allows a refund); absent otherwise.
   */
  'refundable?': 'number',
});
export type TransactionDetail = typeof transactionDetail.infer;

export const maskedCardNumberResponse = type({ maskedCardNumber: 'string | null' });
export const cardNumberResponse = type({ cardNumber: 'string' });

/** POST {context}/transactions/full/reports */
export const transactionExportBody = type({
  fileType: type.enumerated(...exportFileTypes),
  columns: type
    .enumerated(...transactionColumns)
    .array()
    .atLeastLength(1)
    .atMostLength(transactionColumns.length),
  'filters?': type({ '[string]': 'string <= 512' }),
  'ordering?': { OrderingField: 'string <= 32', OrderingDirection: "'Ascending' | 'Descending'" },
  '+': 'reject',
});
export type TransactionExportBody = typeof transactionExportBody.infer;

export const queuedExportResponse = type({ reportId: 'string', totalRows: 'number' });
export type QueuedExportResponse = typeof queuedExportResponse.infer;
