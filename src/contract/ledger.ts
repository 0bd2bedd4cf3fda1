// The settlement ledger's names shared by server and client: account groups and their numbers, account kinds,
// statement kinds and their routes, batch statuses, report types, default rates. Schemas: ledger-schemas.ts.
import type { ListQuerySpec } from './list-query.ts';

/** Accounts of a merchant account group; 'business' lives in a business account group. */
export const merchantAccountKinds = ['trading', 'reserve', 'security', 'remittance', 'invoice', 'costs'] as const;
export type MerchantAccountKind = (typeof merchantAccountKinds)[number];
export type StatementAccountKind = MerchantAccountKind | 'business';
export const statementAccountKinds: readonly StatementAccountKind[] = [...merchantAccountKinds, 'business'];

export const accountKindLabels: Record<StatementAccountKind, string> = {
  trading: 'Trading account',
  reserve: 'Reserve account',
  security: 'Security account',
  remittance: 'Remittance account',
  invoice: 'Invoice account',
  costs: 'Cost statement',
  business: 'Business account',
};

/** Categories of entries (what a movement is), in the order the totals per category are shown. */
export const entryCategories = [
  'sale',
  'fee',
  'refund',
  'reversal',
  'reserveHold',
  'reserveRelease',
  'minimumFee',
  'securityDeposit',
  'payout',
  'transfer',
  'invoicePayment',
  'creditNote',
] as const;
export type EntryCategory = (typeof entryCategories)[number];
export const entryCategoryLabels: Record<EntryCategory, string> = {
  sale: 'Sale',
  fee: 'Transaction fee',
  refund: 'Refund',
  reversal: 'Reversal',
  reserveHold: 'Reserve hold',
  reserveRelease: 'Reserve release',
  minimumFee: 'Monthly minimum top-up',
  securityDeposit: 'Security deposit',
  payout: 'Settlement payout',
  transfer: 'Transfer to bank',
  invoicePayment: 'Invoice paid',
  creditNote: 'Credit note',
};

export const batchStatuses = ['Any', 'Open', 'Closed'] as const;

/** Spec report types (context-ui-data.md) as ids, with their labels. */
export const ledgerReportTypes = {
  batchDetail: 'Batch detail',
  settlementBatchOverview: 'Settlement batch overview',
  businessAccount: 'Business account',
  costs: 'Costs',
  invoice: 'Invoice',
  remittance: 'Remittance',
  reserve: 'Reserve',
  security: 'Security',
  tradingAccount: 'Trading account',
  transfers: 'Transfers',
  settlementDetails: 'Settlement details',
} as const;
export type LedgerReportType = keyof typeof ledgerReportTypes;
/** The account kind each statement report type reads (the other report types are not one account's statement). */
export const statementAccountKindOfReport: Partial<Record<LedgerReportType, StatementAccountKind>> = {
  tradingAccount: 'trading',
  reserve: 'reserve',
  security: 'security',
  remittance: 'remittance',
  invoice: 'invoice',
  costs: 'costs',
  businessAccount: 'business',
};
export const ledgerReportFileTypes = ['csv', 'xlsx', 'pdf', 'xml'] as const;
/** Report types that are an account statement: only these are also offered as ISO 20022 camt.053 XML ('xml'). */
export const statementReportTypes = [
  'tradingAccount',
  'reserve',
  'security',
  'remittance',
  'invoice',
  'costs',
  'businessAccount',
] as const satisfies readonly LedgerReportType[];
export const camtOnlyForStatementsMessage = 'camt.053 XML is offered for account statements only.';
/** The settlement details report (one row per transaction of a batch or a period's batches): CSV and XLSX only. */
export const settlementDetailsFileTypes = ['csv', 'xlsx'] as const;
export const settlementDetailsFileTypeMessage = 'Settlement details are offered as CSV or XLSX.';
/** The longest period one settlement details report covers: a month in any zone, with a day's slack either side. */
export const maxSettlementDetailsDays = 33;

export const statementReportTypeOf: Record<StatementAccountKind, LedgerReportType> = {
  trading: 'tradingAccount',
  reserve: 'reserve',
  security: 'security',
  remittance: 'remittance',
  invoice: 'invoice',
  costs: 'costs',
  business: 'businessAccount',
};

/** Letters A–Z as 01–26: a currency code as six digits, so account numbers stay numeric and unique per currency. */
export function currencyDigits(currency: string): string {
  return [...currency.toUpperCase()].map((letter) => String(letter.charCodeAt(0) - 64).padStart(2, '0')).join('');
}
export const merchantAccountNumber = (merchantId: string, currency: string) => `3${merchantId}${currencyDigits(currency)}`;
export const businessAccountNumber = (businessId: string, currency: string) => `5${businessId}${currencyDigits(currency)}`;
/** Seeded and live account numbers are digits; the pattern also admits the letters of test merchant ids. */
export const accountNumberPattern = /^[A-Za-z0-9]{6,40}$/;
export const batchIdPattern = /^B[A-Za-z0-9]{6,40}-[0-9]{8}$/;

/** Rates for a payment method a merchant's plan does not list (basis points, fixed minor units of a 2-decimal currency). */
export const defaultRate = { percentageBasisPoints: 190, fixedMinor: 25 };

export const maxStatementDays = 732;

/** Movements list: paged by the list convention, filtered by date (value date) and category. */
export const movementListSpec: ListQuerySpec = {
  filters: {
    date: 'date',
    category: { kind: { oneOf: entryCategories }, operators: ['eq'] },
  },
  sortable: ['date', 'amount'],
  defaultSort: [{ field: 'date', descending: false }],
  sortStyle: 'ordering',
};

export const batchListSpec: ListQuerySpec = {
  filters: {
    date: 'date',
    status: { kind: { oneOf: ['Open', 'Closed'] }, operators: ['eq'] },
  },
  sortable: ['date', 'net', 'sales'],
  defaultSort: [{ field: 'date', descending: true }],
  sortStyle: 'ordering',
};

export const transferListSpec: ListQuerySpec = {
  filters: { date: 'date' },
  sortable: ['date', 'amount'],
  defaultSort: [{ field: 'date', descending: true }],
  sortStyle: 'ordering',
};

/** The fee of a payment: percentage (rounded half up) plus the fixed part. Integers only. */
export function feeOf(amountMinor: number, rate: { percentageBasisPoints: number; fixedMinor: number }): number {
  if (amountMinor <= 0) return 0;
  return Math.floor((amountMinor * rate.percentageBasisPoints + 5000) / 10000) + rate.fixedMinor;
}

/** The /reporting/{slug}/{accountNumber?} route of each statement. */
export const statementRouteSlugs: Record<StatementAccountKind, string> = {
  trading: 'trading-account',
  reserve: 'reserve-account',
  security: 'security-account',
  remittance: 'remittance-account',
  invoice: 'invoice-account',
  costs: 'cost-statement',
  business: 'business-account',
};
export const statementKindOfSlug = (slug: string): StatementAccountKind | null =>
  (Object.entries(statementRouteSlugs).find(([, candidate]) => candidate === slug)?.[0] as StatementAccountKind | undefined) ?? null;
