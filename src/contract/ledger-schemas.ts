// The settlement ledger's schemas (arktype): answers of the account-group, statement, batch, transfer, remittance
// and pricing-plan calls, and the bodies of report and remittance requests. Constants: ledger.ts.
import { type } from 'arktype';
import { entryCategories, ledgerReportFileTypes, statementAccountKinds } from './ledger.ts';

const isoDateTime = 'string.date.iso';
const calendarDay = /^\d{4}-\d{2}-\d{2}$/;

export const accountBalance = type({ kind: type.enumerated(...statementAccountKinds), balance: 'number' });

export const merchantAccountGroup = type({
  accountNumber: 'string',
  businessId: 'string',
  merchantId: 'string',
  merchantName: 'string',
  currency: 'string',
  grossSettlement: 'boolean',
  /** percent of each day's net sales held in reserve */
  reservePercentage: 'number',
  reserveDays: 'number',
  balances: accountBalance.array(),
});
export type MerchantAccountGroup = typeof merchantAccountGroup.infer;
export const merchantAccountGroupList = type({ results: merchantAccountGroup.array(), numberOfResults: 'number' });

export const businessAccountGroup = type({
  accountNumber: 'string',
  businessId: 'string',
  businessName: 'string',
  currency: 'string',
  balance: 'number',
  merchantAccounts: type({ accountNumber: 'string', merchantId: 'string', merchantName: 'string' }).array(),
});
export type BusinessAccountGroup = typeof businessAccountGroup.infer;
export const businessAccountGroupList = type({ results: businessAccountGroup.array(), numberOfResults: 'number' });

export const statementMovement = type({
  id: 'number',
  date: isoDateTime,
  category: type.enumerated(...entryCategories),
  amount: 'number',
  runningBalance: 'number',
  transactionReference: 'string | null',
  batchId: 'string | null',
  postingId: 'string',
});
export type StatementMovement = typeof statementMovement.infer;

export const accountStatement = type({
  accountNumber: 'string',
  kind: type.enumerated(...statementAccountKinds),
  currency: 'string',
  /** the business's time zone (IANA), in which the period's days are cut and its dates are shown */
  'timeZone?': 'string',
  /** the period's bounds as instants (null: from the first entry / up to the last) */
  periodStart: 'string | null',
  periodEnd: 'string | null',
  openingBalance: 'number',
  closingBalance: 'number',
  totals: type({ category: type.enumerated(...entryCategories), amount: 'number', count: 'number' }).array(),
  results: statementMovement.array(),
  numberOfResults: 'number',
});
export type AccountStatement = typeof accountStatement.infer;

export const settlementBatch = type({
  batchId: 'string',
  accountNumber: 'string',
  date: isoDateTime,
  status: "'Open' | 'Closed'",
  currency: 'string',
  salesCount: 'number',
  salesAmount: 'number',
  refundsAmount: 'number',
  reversalsAmount: 'number',
  feesAmount: 'number',
  reserveAmount: 'number',
  netAmount: 'number',
  closedAt: 'string | null',
});
export type SettlementBatch = typeof settlementBatch.infer;
export const settlementBatchList = type({ results: settlementBatch.array(), numberOfResults: 'number' });
export const settlementBatchDetail = settlementBatch.merge({ results: statementMovement.array(), numberOfResults: 'number' });
export type SettlementBatchDetail = typeof settlementBatchDetail.infer;

export const ledgerTransfer = type({
  id: 'string',
  accountNumber: 'string',
  transferDate: isoDateTime,
  maturityDate: isoDateTime,
  amount: 'number',
  saleAmount: 'number',
  currency: 'string',
  batchId: 'string | null',
});
export type LedgerTransfer = typeof ledgerTransfer.infer;
export const ledgerTransferList = type({ results: ledgerTransfer.array(), numberOfResults: 'number' });

export const remittanceBeneficiary = type({
  'companyName?': '0 < string <= 140',
  'givenName?': '0 < string <= 70',
  'familyName?': '0 < string <= 70',
  'dateOfBirth?': calendarDay,
});

export const remittance = type({
  accountNumber: 'string',
  frequency: "'daily' | 'weekly' | 'monthly'",
  dayOfPeriod: 'number',
  startDate: 'string',
  nextPaymentDate: 'string',
  nextScheduleDate: 'string',
  beneficiary: remittanceBeneficiary,
  ibanMasked: 'string',
  version: 'number',
  merchantAccounts: 'string[]',
});
export type Remittance = typeof remittance.infer;

export const remittanceUpdateBody = type({
  '+': 'reject',
  frequency: "'daily' | 'weekly' | 'monthly'",
  dayOfPeriod: '1 <= number.integer <= 28',
  startDate: calendarDay,
  beneficiary: remittanceBeneficiary.onUndeclaredKey('reject'),
  version: 'number.integer >= 1',
});
export type RemittanceUpdateBody = typeof remittanceUpdateBody.infer;

export const pricingPlan = type({
  merchantId: 'string',
  merchantName: 'string',
  currency: 'string',
  name: 'string',
  monthlyMinimum: 'number',
  validFrom: isoDateTime,
  rates: type({ paymentMethod: 'string', percentage: 'number', fixedAmount: 'number' }).array(),
});
export type PricingPlan = typeof pricingPlan.infer;
export const pricingPlanList = type({ results: pricingPlan.array(), numberOfResults: 'number' });

/** POST …/reports: the file type, and the list's filters (date range, status, category) as the list takes them. */
export const ledgerReportBody = type({
  '+': 'reject',
  fileType: type.enumerated(...ledgerReportFileTypes),
  'filters?': type({ '[string]': '0 < string <= 512' }),
});
export type LedgerReportBody = typeof ledgerReportBody.infer;

export const ledgerReportQueued = type({ reportId: 'string', totalRows: 'number' });

/** The balance at the end of each day of a period (the balance chart and its table). */
export const dailyBalances = type({ currency: 'string', results: type({ date: 'string', balance: 'number' }).array() });
export type DailyBalances = typeof dailyBalances.infer;

/** The provider's own accounts per currency (internal staff): clearing (money between shoppers and merchants) and bank. */
export const internalAccountList = type({
  results: type({ accountId: 'string', kind: "'clearing' | 'bank'", currency: 'string', balance: 'number' }).array(),
  numberOfResults: 'number',
});
export type InternalAccountList = typeof internalAccountList.infer;

/**
 * GET …/business-accountgroups/{n}/transfers/{transferId}: the transfer, the remittance text the bank statement shows
 * (at most 140 characters, unique: it starts with the transfer's id), and the payouts it pays, each a merchant batch's
 * payout into the business account since the group's transfer before. The payouts and carriedOver (what the business
 * account held beyond them: zero when every earlier transfer paid the balance of its day) sum to the transfer's amount.
 */
export const transferPayout = type({
  postingId: 'string',
  category: 'string',
  batchId: 'string | null',
  merchantId: 'string | null',
  merchantName: 'string | null',
  merchantAccountNumber: 'string | null',
  batchDate: 'string.date.iso | null',
  valueDate: isoDateTime,
  amount: 'number',
});
export type TransferPayout = typeof transferPayout.infer;
export const transferDetail = ledgerTransfer.merge({
  businessId: 'string',
  remittanceText: '0 < string <= 140',
  periodStart: 'string.date.iso | null',
  payouts: transferPayout.array(),
  payoutsTotal: 'number',
  carriedOver: 'number',
});
export type TransferDetail = typeof transferDetail.infer;
