// The dashboard calls: statistics per bucket and the top decline reasons, for a merchant, business or partner.
//
//   POST {context}/dashboard            body dashboardRequestSchema  → dashboardResponseSchema
//   GET  /partners/{id}/dashboard?startDate&endDate&interval&currency&dateBasis  (the same, as query parameters)
//   POST {context}/dashboard/declines   body declinesRequestSchema   → declinesResponseSchema
//
// {context} is /businesses/{b}, /businesses/{b}/merchants/{m} or /partners/{p}. Dates are calendar dates in the
// caller's Time-Zone header; a datapoint's startDate and endDate are instants with that zone's offset, end exclusive.
import { type } from 'arktype';
import { dashboardDateBases, dashboardIntervals } from './dashboard-intervals.ts';

export const currencyCode = type(/^[A-Z]{3}$/).describe('a three-letter currency code such as GBP');
/** 'YYYY-MM-DD'; a local date-time ('2026-03-31T23:59:59', the spec's range ends) is read as its date. */
export const dashboardDate = type(/^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?)?$/)
  .describe('a date, YYYY-MM-DD')
  .pipe((value) => value.slice(0, 10));

export const dateRangeSchema = type({ startDate: dashboardDate, endDate: dashboardDate, '+': 'reject' });

export const dashboardRequestSchema = type({
  dateRange: dateRangeSchema,
  interval: type.enumerated(...dashboardIntervals),
  /** absent: GBP when the context has it, else its first currency */
  'currency?': currencyCode,
  /**
   * absent: 'paymentDate' (everything on its payment's day). 'activityDate': money on the day it moved (a capture
   * when captured, a refund or chargeback when made).
   */
  'dateBasis?': type.enumerated(...dashboardDateBases).describe("'paymentDate' or 'activityDate'"),
  '+': 'reject',
});
export type DashboardRequest = typeof dashboardRequestSchema.inferIn;

export const datapointSchema = type({
  startDate: 'string',
  endDate: 'string',
  volume: 'number',
  revenue: 'number',
  unsuccessfulVolume: 'number',
  unsuccessfulRevenue: 'number',
  salesCount: 'number',
});
export type Datapoint = typeof datapointSchema.infer;

export const dashboardResponseSchema = type({
  startDate: 'string',
  endDate: 'string',
  interval: type.enumerated(...dashboardIntervals),
  timeZone: 'string',
  currency: 'string',
  currencies: 'string[]',
  /** which view the datapoints are (always sent; optional for answers from before it existed) */
  'dateBasis?': type.enumerated(...dashboardDateBases),
  bucket: { unit: "'hour' | 'day' | 'month'", step: 'number' },
  datapoints: datapointSchema.array(),
});
export type DashboardResponse = typeof dashboardResponseSchema.infer;

export const declinesRequestSchema = type({ currency: currencyCode, dateRange: dateRangeSchema, '+': 'reject' });
export type DeclinesRequest = typeof declinesRequestSchema.inferIn;

export const maxDeclineReasons = 10;
export const declineReasonSchema = type({ reason: 'string', count: 'number', amount: 'number' });
export type DeclineReason = typeof declineReasonSchema.infer;
export const declinesResponseSchema = type({
  startDate: 'string',
  endDate: 'string',
  currency: 'string',
  totalCount: 'number',
  totalAmount: 'number',
  /** the most frequent reasons first, at most maxDeclineReasons */
  reasons: declineReasonSchema.array(),
});
export type DeclinesResponse = typeof declinesResponseSchema.infer;

// ── The breakdown of a period: the dashboard's measures per merchant, payment method or status ──
//   POST {context}/dashboard/breakdown  body breakdownRequestSchema → breakdownResponseSchema
// Each row's measures follow server/stats/definition.ts, so the rows add up to the dashboard's totals for the same
// period and currency. `count` is the number of payments of the row in the period, of any status.
export const breakdownDimensions = ['merchant', 'paymentMethod', 'status'] as const;
export type BreakdownDimension = (typeof breakdownDimensions)[number];
export const breakdownRequestSchema = type({
  dateRange: dateRangeSchema,
  by: type.enumerated(...breakdownDimensions),
  /** absent: GBP when the context has it, else its first currency */
  'currency?': currencyCode,
  '+': 'reject',
});
export type BreakdownRequest = typeof breakdownRequestSchema.inferIn;
export const breakdownRowSchema = type({
  /** the merchant id, payment method or status the row counts */
  key: 'string',
  /** what the row is called: the merchant's name, else the key */
  label: 'string',
  volume: 'number',
  revenue: 'number',
  unsuccessfulVolume: 'number',
  unsuccessfulRevenue: 'number',
  salesCount: 'number',
  count: 'number',
});
export type BreakdownRow = typeof breakdownRowSchema.infer;
export const breakdownResponseSchema = type({
  startDate: 'string',
  endDate: 'string',
  currency: 'string',
  by: type.enumerated(...breakdownDimensions),
  /** largest volume first */
  rows: breakdownRowSchema.array(),
});
export type BreakdownResponse = typeof breakdownResponseSchema.infer;
