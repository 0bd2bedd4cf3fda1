// Transactions: the list's declared filters and orderings, the list, detail and export shapes.
// The server parses with transactionListSpec and the client encodes against the same names, so they cannot drift.
import { channels, paymentMethods, paymentStatuses } from './enumerations.ts';
import type { FilterDeclaration, ListQuerySpec } from './list-query.ts';

export const transactionKinds = ['payment', 'refund', 'capture', 'chargeback'] as const;
export type TransactionKind = (typeof transactionKinds)[number];
/**
 * Kinds that take a payment's money back once paid: a refund (the merchant's) and a chargeback (the shopper's bank
 * reversing a card payment). Both read negative and both come off the revenue of their payment's bucket.
 */
export const moneyBackKinds = ['refund', 'chargeback'] as const;
export const takesMoneyBack = (kind: string) => (moneyBackKinds as readonly string[]).includes(kind);
/** moneyBackKinds as an SQL list literal (`'refund', 'chargeback'`), for the aggregations that must agree. */
export const moneyBackKindsSql = moneyBackKinds.map((kind) => `'${kind}'`).join(', ');

export const maxSearchTermLength = 100;

/** What a card filter reads as, from its last four and first six: '424242…4242', '…4242', '424242…'. */
export const maskedCardFilter = (bin: string | undefined, last4: string | undefined) => `${bin ?? ''}…${last4 ?? ''}`;

/**
 * The overview's own parameters beside its filters, written by the palette's record search: scope=all lists everything
 * the user may see whatever context is applied (what the search's preview looked through), and unused carries what
 * the query could not use, as typed, for the overview to say so.
 */
export const searchScopeParameter = { name: 'scope', all: 'all' } as const;
export const unusedSearchParameter = 'unused';

export const cardFilterProblem = 'Type the card’s last four digits, its first six, or both as 424242…4242.';

/**
 * The overview's Card field as typed: 4 digits are the last four, 6 the first six, and a masked number
 * (424242…4242, 424242******4242, …4242) either or both; null when empty. Spaces are ignored.
 */
export function cardFilterOf(text: string): { last4?: string; bin?: string } | { problem: string } | null {
  const compact = text.replace(/\s+/g, '');
  if (compact === '') return null;
  if (/^\d{4}$/.test(compact)) return { last4: compact };
  if (/^\d{6}$/.test(compact)) return { bin: compact };
  const masked = /^(\d{6})?[.…*xX•]+(\d{4})?$/.exec(compact);
  if (!masked || (!masked[1] && !masked[2])) return { problem: cardFilterProblem };
  return { ...(masked[1] ? { bin: masked[1] } : {}), ...(masked[2] ? { last4: masked[2] } : {}) };
}

/** The currencies the overview's Currency filter offers (the server takes any three-letter code). */
export const overviewCurrencies = ['EUR', 'GBP', 'USD', 'JPY', 'CHF', 'DKK', 'NOK', 'SEK', 'PLN'] as const;

/**
 * Filters of GET {context}/transactions, by lower-cased name. Dates are ISO: a value without an offset is a
 * wall-clock time in the request's Time-Zone; amounts are in major units of each row's currency. Several [eq]
 * clauses on one field mean any of them (a field cannot equal two values at once, so [and] reads as a set).
 */
export const transactionFilters = {
  date: { kind: 'date', operators: ['gte', 'lte'] },
  amount: { kind: 'number', operators: ['eq', 'gte', 'lte'] },
  status: { kind: { oneOf: paymentStatuses }, operators: ['eq'] },
  channel: { kind: { oneOf: channels }, operators: ['eq'] },
  paymentmethod: { kind: { oneOf: paymentMethods }, operators: ['eq'] },
  kind: { kind: { oneOf: transactionKinds }, operators: ['eq'] },
  currency: { kind: { pattern: /^[A-Za-z]{3}$/, description: 'a three-letter currency code' }, operators: ['eq'] },
  merchantid: { kind: { pattern: /^[A-Za-z0-9_-]{1,64}$/, description: 'a merchant id' }, operators: ['eq'] },
  // The card by what its masked number keeps (never the full number): its last four digits, its first six (BIN).
  last4: { kind: { pattern: /^\d{4}$/, description: 'the card’s last four digits' }, operators: ['eq'] },
  bin: { kind: { pattern: /^\d{6}$/, description: 'the card’s first six digits' }, operators: ['eq'] },
  searchterm: {
    // Printable text only: control characters have no place in a reference or an email address.
    kind: { pattern: new RegExp(`^[^\\u0000-\\u001f\\u007f]{1,${maxSearchTermLength}}$`), description: `1 to ${maxSearchTermLength} printable characters` },
    operators: ['eq'],
  },
} as const satisfies Record<string, FilterDeclaration>;

/** OrderingField values; every one is served by an index per scope (see server/api/transactions.ts). */
export const transactionSortFields = ['date', 'amount', 'status', 'reference', 'merchant'] as const;

export const transactionListSpec: ListQuerySpec = {
  filters: transactionFilters,
  sortable: transactionSortFields,
  defaultSort: [{ field: 'date', descending: true }],
  sortStyle: 'ordering',
};

/** Minor-unit exponents that are not 2 (ISO 4217); amounts travel in major units and are stored in minor units. */
const currencyExponents: Record<string, number> = {
  BIF: 0,
  CLP: 0,
  DJF: 0,
  GNF: 0,
  ISK: 0,
  JPY: 0,
  KMF: 0,
  KRW: 0,
  PYG: 0,
  RWF: 0,
  UGX: 0,
  UYI: 0,
  VND: 0,
  VUV: 0,
  XAF: 0,
  XOF: 0,
  XPF: 0,
  BHD: 3,
  IQD: 3,
  JOD: 3,
  KWD: 3,
  LYD: 3,
  OMR: 3,
  TND: 3,
};
export const zeroDecimalCurrencies = Object.keys(currencyExponents).filter((code) => currencyExponents[code] === 0);
export const threeDecimalCurrencies = Object.keys(currencyExponents).filter((code) => currencyExponents[code] === 3);
/**
 * Amounts are compared and sorted in thousandths of the major unit (the finest exponent in use), so ¥1,250, £12.50
 * and KWD 1.234 are on one scale: the database keeps this as the generated column amount_milli.
 */
export const amountScale = 3;
export const amountMilliOf = (amountMinor: number, currency: string) => amountMinor * 10 ** (amountScale - currencyExponent(currency));
export function currencyExponent(currency: string): 0 | 2 | 3 {
  return (currencyExponents[currency.toUpperCase()] ?? 2) as 0 | 2 | 3;
}
export const toMajorUnits = (amountMinor: number, currency: string) => amountMinor / 10 ** currencyExponent(currency);

/** Columns a transactions export can hold, in their default order; the overview shows the first nine by default. */
export const transactionColumns = [
  'date',
  'reference',
  'merchant',
  'amount',
  'currency',
  'status',
  'paymentMethod',
  'channel',
  'ewalletType',
  'kind',
  'paymentJobReference',
  'parentReference',
  'business',
  'merchantId',
  'customerEmail',
  'maskedCardNumber',
  'declineReason',
] as const;
export type TransactionColumn = (typeof transactionColumns)[number];
/** The first nine and the Type (payment, refund, capture): a refund must read as one at a glance. */
export const defaultTransactionColumns: readonly TransactionColumn[] = [...transactionColumns.slice(0, 9), 'kind'];

export const transactionColumnLabels: Record<TransactionColumn, string> = {
  date: 'Date',
  reference: 'Reference',
  merchant: 'Merchant',
  amount: 'Amount',
  currency: 'Currency',
  status: 'Status',
  paymentMethod: 'Payment method',
  channel: 'Channel',
  ewalletType: 'E-wallet',
  kind: 'Type',
  paymentJobReference: 'Payment job',
  parentReference: 'Parent transaction',
  business: 'Business',
  merchantId: 'Merchant ID',
  customerEmail: 'Customer email',
  maskedCardNumber: 'Card number (masked)',
  declineReason: 'Decline reason',
};

// ---------------------------------------------------------------------------------------------------
// Money that reads right: refunds are negative, refunded payments say so, amounts compare within one currency

/** A refund or a chargeback takes money back: it reads negative everywhere it is shown (list, detail, palette, exports). */
export const signedAmount = (kind: string, amount: number): number => (takesMoneyBack(kind) ? -Math.abs(amount) : amount);

/**
 * What a transaction's status reads as: a paid payment with paid refunds is 'refunded' (all of it) or
 * 'partiallyRefunded'; a refund itself keeps its own status. refundedAmount is in the payment's major units.
 */
export function displayStatusOf(item: { kind: string; status: string; amount: number; refundedAmount?: number | undefined }): string {
  if (item.kind !== 'payment' || item.status !== 'paid' || !item.refundedAmount || item.refundedAmount <= 0) return item.status;
  return item.refundedAmount >= Math.abs(item.amount) ? 'refunded' : 'partiallyRefunded';
}

export const displayStatusLabels: Record<string, string> = { refunded: 'Refunded', partiallyRefunded: 'Partially refunded' };
export const displayStatusLabel = (status: string) => displayStatusLabels[status] ?? status.charAt(0).toUpperCase() + status.slice(1);

/**
 * The overview's note when an amount is filtered without exactly one currency: each row is compared in its own
 * currency (as the palette's preview compares them), never converted.
 */
export const amountInOwnCurrencyMessage =
  'Amounts are compared in each transaction’s own currency: 100 matches €100, £100 and ¥100 alike. Choose one currency to compare one.';

/** A scheduled export's refusal when an amount filter would compare amounts of different currencies. */
export const amountNeedsCurrencyMessage = 'Choose one currency to filter by amount: amounts in different currencies cannot be compared.';

/** The amount filter needs exactly one currency among the filters (its [eq] clauses, any case). */
export function amountFilterCurrencyProblem(filters: Readonly<Record<string, readonly { operator: string; value: string }[] | undefined>>): string | undefined {
  if (!filters.amount || filters.amount.length === 0) return undefined;
  const currencies = new Set((filters.currency ?? []).filter((clause) => clause.operator === 'eq').map((clause) => clause.value.toUpperCase()));
  return currencies.size === 1 ? undefined : amountNeedsCurrencyMessage;
}

/**
 * GET {context}/transactions/totals: the dashboard's measures over the overview's filters (minor units of the one
 * currency filtered): volume and salesCount of the paid payments, refunds = the paid refunds of those payments
 * (whenever made), chargebacks = their paid chargebacks, revenue = volume − refunds − chargebacks,
 * unsuccessfulVolume of the declined and failed payments.
 */
export type TransactionTotals = {
  currency: string;
  volume: number;
  salesCount: number;
  refunds: number;
  refundsCount: number;
  chargebacks: number;
  chargebacksCount: number;
  revenue: number;
  unsuccessfulVolume: number;
  unsuccessfulCount: number;
};

export const exportFileTypes = ['csv', 'xlsx'] as const;
export const maxExportFilters = 20;

// The answers' and the export body's schemas (arktype) live in transaction-schemas.ts, so a screen that needs only
// the constants above does not build them on the main thread (answers are checked in the validation worker).
