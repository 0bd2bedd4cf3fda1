// Transactions: the list's declared filters and orderings, the list, detail and export shapes.
// The server parses with transactionListSpec and the client encodes against the same names, so they cannot drift.
import { channels, paymentMethods, paymentStatuses } from './enumerations.ts';
import type { FilterDeclaration, ListQuerySpec } from './list-query.ts';

export const transactionKinds = ['payment', 'refund', 'capture'] as const;
export type TransactionKind = (typeof transactionKinds)[number];

export const maxSearchTermLength = 100;

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
  searchterm: {
    // Printable text only: control characters have no place in a reference or an email address.
    kind: { pattern: new RegExp(`^[^\\u0000-\\u001f\\u007f]{1,${maxSearchTermLength}}$`), description: `1 to ${maxSearchTermLength} printable characters` },
    operators: ['eq'],
  },
} as const satisfies Record<string, FilterDeclaration>;
export type TransactionFilterField = keyof typeof transactionFilters;
export const transactionFilterFields = Object.keys(transactionFilters) as TransactionFilterField[];

/** OrderingField values; every one is served by an index per scope (see server/api/transactions.ts). */
export const transactionSortFields = ['date', 'amount', 'status', 'reference', 'merchant'] as const;
export type TransactionSortField = (typeof transactionSortFields)[number];

export const transactionListSpec: ListQuerySpec = {
  filters: transactionFilters,
  sortable: transactionSortFields,
  defaultSort: [{ field: 'date', descending: true }],
  sortStyle: 'ordering',
};

/** Minor-unit exponents that are not 2 (ISO 4217); amounts travel in major units and are stored in minor units. */
const currencyExponents: Record<string, number> = {
  BIF: 0, CLP: 0, DJF: 0, GNF: 0, ISK: 0, JPY: 0, KMF: 0, KRW: 0, PYG: 0, RWF: 0, UGX: 0, UYI: 0, VND: 0, VUV: 0, XAF: 0, XOF: 0, XPF: 0,
  BHD: 3, IQD: 3, JOD: 3, KWD: 3, LYD: 3, OMR: 3, TND: 3,
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
  'date', 'reference', 'merchant', 'amount', 'currency', 'status', 'paymentMethod', 'channel', 'ewalletType',
  'kind', 'paymentJobReference', 'parentReference', 'business', 'merchantId', 'customerEmail', 'maskedCardNumber', 'declineReason',
] as const;
export type TransactionColumn = (typeof transactionColumns)[number];
export const defaultTransactionColumns: readonly TransactionColumn[] = transactionColumns.slice(0, 9);

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

export const exportFileTypes = ['csv', 'xlsx'] as const;
export type ExportFileType = (typeof exportFileTypes)[number];
export const maxExportFilters = 20;

// The answers' and the export body's schemas (arktype) live in transaction-schemas.ts, so a screen that needs only
// the constants above does not build them on the main thread (answers are checked in the validation worker).
export type { LinkedTransaction, QueuedExportResponse, TransactionDetail, TransactionExportBody, TransactionList, TransactionListItem } from './transaction-schemas.ts';
