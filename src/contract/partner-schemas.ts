// The partners contract's schemas (arktype): partners, their businesses, commission plans with their rules and the
// commission earned per month, and the declines broken down by business.
import { type } from 'arktype';
import { currencyCode, dateRangeSchema, declineReasonSchema } from './dashboard.ts';
import { commissionCardTypes, commissionChannels } from './partners.ts';

const isoDateTime = 'string.date.iso';
const isoDate = type(/^\d{4}-\d{2}-\d{2}$/);

export const partnerListItem = type({
  partnerId: 'string',
  partnerName: 'string',
  businessCount: 'number',
  liveBusinessCount: 'number',
  commissionPlanCount: 'number',
  createDateTimeUtc: isoDateTime,
});
export type PartnerListItem = typeof partnerListItem.infer;
export const partnerList = type({ results: partnerListItem.array(), numberOfResults: 'number' });

export const commissionPlanListItem = type({
  commissionPlanId: 'string',
  partnerId: 'string',
  name: 'string',
  validFrom: isoDate,
  validTo: isoDate.or('null'),
  status: "'Scheduled' | 'Active' | 'Ended'",
  ruleCount: 'number',
});
export type CommissionPlanListItem = typeof commissionPlanListItem.infer;
export const commissionPlanList = type({ results: commissionPlanListItem.array(), numberOfResults: 'number' });

export const partnerDetail = type({
  partnerId: 'string',
  partnerName: 'string',
  createDateTimeUtc: isoDateTime,
  businessCount: 'number',
  liveBusinessCount: 'number',
  merchantCount: 'number',
  currencies: 'string[]',
  commissionPlans: commissionPlanListItem.array(),
});
export type PartnerDetail = typeof partnerDetail.infer;

export const commissionRule = type({
  ruleId: 'string',
  priority: 'number.integer',
  description: 'string',
  /** the month's volume (the partner's paid sales in the fee's currency, minor units) this rule starts at, inclusive */
  volumeFromMinor: 'number.integer >= 0',
  /** exclusive; null: no upper bound */
  volumeToMinor: 'number.integer | null',
  /** share of each fee, in basis points (1/100 of a per cent) */
  percentageBasisPoints: 'number.integer >= 0',
  /** per fee-bearing transaction, in minor units of the transaction's currency */
  fixedMinor: 'number.integer >= 0',
  channel: type.enumerated(...commissionChannels).or('null'),
  currency: 'string | null',
  paymentMethod: 'string | null',
  cardType: type.enumerated(...commissionCardTypes).or('null'),
});
export type CommissionRule = typeof commissionRule.infer;

export const commissionMonth = type({
  /** 'YYYY-MM', a UTC calendar month */
  month: 'string',
  currency: 'string',
  /** the partner's paid sales that month in the currency: what the volume bands are read against */
  volumeMinor: 'number',
  feesMinor: 'number',
  /** fee-bearing transactions */
  transactionCount: 'number',
  /** of those, transactions no rule matched (they earn nothing) */
  unmatchedCount: 'number',
  commissionMinor: 'number',
});
export type CommissionMonth = typeof commissionMonth.infer;

export const commissionPlanDetail = type({
  commissionPlanId: 'string',
  partnerId: 'string',
  partnerName: 'string',
  name: 'string',
  validFrom: isoDate,
  validTo: isoDate.or('null'),
  status: "'Scheduled' | 'Active' | 'Ended'",
  version: 'number',
  /** the caller may change this plan (Mapi.CommissionPlans.Update, and the plan has not ended) */
  editable: 'boolean',
  rules: commissionRule.array(),
  /** newest month first */
  months: commissionMonth.array(),
  totals: type({ currency: 'string', feesMinor: 'number', commissionMinor: 'number' }).array(),
});
export type CommissionPlanDetail = typeof commissionPlanDetail.infer;

/** A rule as PUT sends it: the plan's rules are replaced by these (ids are the server's). */
export const commissionRuleBody = type({
  priority: 'number.integer',
  description: 'string <= 1000',
  volumeFromMinor: 'number.integer',
  volumeToMinor: 'number.integer | null',
  percentageBasisPoints: 'number.integer',
  fixedMinor: 'number.integer',
  channel: 'string <= 40 | null',
  currency: 'string <= 3 | null',
  paymentMethod: 'string <= 40 | null',
  cardType: 'string <= 40 | null',
  '+': 'reject',
});
export type CommissionRuleBody = typeof commissionRuleBody.infer;

/** The plan's own fields as POST and PUT send them (the checks of checkCommissionPlanEdit come after these). */
const commissionPlanFields = {
  name: 'string <= 1000',
  validFrom: 'string <= 10',
  validTo: 'string <= 10 | null',
  rules: commissionRuleBody.array().atMostLength(200),
  '+': 'reject',
} as const;

/** POST /partners/{id}/commission-plans: a new plan (its id is the server's). */
export const commissionPlanCreateBody = type(commissionPlanFields);
export type CommissionPlanCreateBody = typeof commissionPlanCreateBody.infer;

/** PUT /partners/{id}/commission-plans/{planId}: the whole plan with the version it was read at (409 when stale). */
export const commissionPlanUpdateBody = type({ version: 'number.integer >= 1', ...commissionPlanFields });
export type CommissionPlanUpdateBody = typeof commissionPlanUpdateBody.infer;

/** POST /partners/{id}/declines: the dashboard's declines body; the answer adds the breakdown by business. */
export const partnerDeclinesRequest = type({ currency: currencyCode, dateRange: dateRangeSchema, '+': 'reject' });
export const partnerDeclineBusiness = type({
  businessId: 'string',
  businessName: 'string',
  totalCount: 'number',
  totalAmount: 'number',
  topReason: 'string | null',
});
export type PartnerDeclineBusiness = typeof partnerDeclineBusiness.infer;
export const partnerDeclines = type({
  startDate: 'string',
  endDate: 'string',
  currency: 'string',
  totalCount: 'number',
  totalAmount: 'number',
  reasons: declineReasonSchema.array(),
  businesses: partnerDeclineBusiness.array(),
});
export type PartnerDeclines = typeof partnerDeclines.infer;

/**
 * GET /partners/{partnerId}/commission-plans/{planId}/transactions?month=YYYY-MM[&currency=XXX][&pagenumber&pagesize]:
 * one month's commission transaction by transaction (by reference), each its share of the month's figure
 * (server/partners/commission.ts allocateCommission), with the month's totals per currency: the shares of every
 * page add up to the plan's monthly row to the minor unit.
 */
export const commissionTransaction = type({
  reference: 'string',
  businessId: 'string',
  businessName: 'string',
  merchantId: 'string',
  dateTimeUtc: 'string.date.iso',
  currency: 'string',
  channel: 'string',
  paymentMethod: 'string',
  cardType: 'string | null',
  feeMinor: 'number',
  /** the rule it earned under, null when none matched (it earns nothing) */
  ruleId: 'string | null',
  ruleDescription: 'string | null',
  commissionMinor: 'number',
});
export type CommissionTransaction = typeof commissionTransaction.infer;
export const commissionTransactionList = type({
  commissionPlanId: 'string',
  month: 'string',
  totals: type({ currency: 'string', volumeMinor: 'number', feesMinor: 'number', transactionCount: 'number', commissionMinor: 'number' }).array(),
  results: commissionTransaction.array(),
  numberOfResults: 'number',
});
export type CommissionTransactionList = typeof commissionTransactionList.infer;
