// Dashboard periods (their buckets as instants: dashboard-buckets.ts, the server's): pure calendar maths shared by the server (what to sum) and the client (what to ask
// for, what to pre-fetch, how the interval selector moves). Periods are calendar dates in the caller's time zone
// ('YYYY-MM-DD', both ends inclusive; the date arithmetic is calendar-date.ts); buckets are instants [start, end) so
// a day is the user's day, DST included. No schema library here: the client loads this eagerly.
import { addDays, addMonths, daysInRange, endOfMonth, isIsoDate, type IsoDate, startOfMonth, startOfWeek } from './calendar-date.ts';

export const dashboardIntervals = ['day', 'week', 'month', 'year', 'custom'] as const;
export type DashboardInterval = (typeof dashboardIntervals)[number];
export type FixedInterval = Exclude<DashboardInterval, 'custom'>;

/**
 * The dashboard's two views of its figures: by payment date (everything on its payment's day: a refund lowers the day
 * the payment was made) and by activity date (money on the day it moved: a capture when captured, a refund or
 * chargeback when made). The first is the default.
 */
export const dashboardDateBases = ['paymentDate', 'activityDate'] as const;
export type DashboardDateBasis = (typeof dashboardDateBases)[number];
export const defaultDateBasis: DashboardDateBasis = 'paymentDate';

export type BucketUnit = 'hour' | 'day' | 'month';
/** Bucket sizes of the spec: day-hour, week-day, month-day, year-month, custom-day. */
export const bucketUnitOf: Record<DashboardInterval, BucketUnit> = { day: 'hour', week: 'day', month: 'day', year: 'month', custom: 'day' };

export const maxDashboardBuckets = 31;
/** Periods fetched ahead (the shown one and those before it) so stepping back is instant. */
export const prefetchedPeriods = 15;
/** The date picker offers five years back; a custom range may span that and a little more. */
export const maxCustomRangeDays = 1830;
export const earliestDashboardDate = '2000-01-01';
export const latestDashboardDate = '2099-12-31';

export type DashboardPeriod = { interval: DashboardInterval; startDate: IsoDate; endDate: IsoDate };

/** The day, week (Monday to Sunday), month or year that holds a date. */
export function periodContaining(interval: FixedInterval, date: IsoDate): DashboardPeriod {
  switch (interval) {
    case 'day':
      return { interval, startDate: date, endDate: date };
    case 'week': {
      const startDate = startOfWeek(date);
      return { interval, startDate, endDate: addDays(startDate, 6) };
    }
    case 'month':
      return { interval, startDate: startOfMonth(date), endDate: endOfMonth(date) };
    case 'year':
      return { interval, startDate: `${date.slice(0, 4)}-01-01`, endDate: `${date.slice(0, 4)}-12-31` };
  }
}

/** The period `steps` periods later (negative: earlier). A custom range moves by its own length. */
export function shiftPeriod(period: DashboardPeriod, steps: number): DashboardPeriod {
  const start = period.startDate;
  switch (period.interval) {
    case 'day':
      return periodContaining('day', addDays(start, steps));
    case 'week':
      return periodContaining('week', addDays(start, 7 * steps));
    case 'month':
      return periodContaining('month', addMonths(start, steps));
    case 'year':
      return periodContaining('year', addMonths(start, 12 * steps));
    case 'custom': {
      const length = daysInRange(period.startDate, period.endDate);
      return { interval: 'custom', startDate: addDays(period.startDate, steps * length), endDate: addDays(period.endDate, steps * length) };
    }
  }
}

/**
 * The same period one year earlier. A week is compared with the week 52 weeks before, so Mondays meet Mondays;
 * a day, month, year or custom range with the same calendar dates a year before (29 February becomes the 28th).
 */
export function comparePeriod(period: DashboardPeriod): DashboardPeriod {
  if (period.interval === 'week') return shiftPeriod(period, -52);
  if (period.interval === 'custom') {
    return {
      interval: 'custom',
      startDate: addMonths(period.startDate, -12),
      endDate: addMonths(period.endDate, -12),
    };
  }
  return periodContaining(period.interval, addMonths(period.startDate, -12));
}

/** Days per bucket of a custom range: 1, growing so that no more than 31 buckets are needed. */
export function customStep(startDate: IsoDate, endDate: IsoDate): number {
  return Math.max(1, Math.ceil(daysInRange(startDate, endDate) / maxDashboardBuckets));
}

export type PeriodProblem = string;

/**
 * Checks a requested period and gives it in its canonical form: a day, week, month or year is the whole period
 * holding startDate (endDate must lie in it); a custom range is taken as given.
 */
export function normalisePeriod(
  interval: DashboardInterval,
  startDate: IsoDate,
  endDate: IsoDate,
): { period: DashboardPeriod } | { problems: PeriodProblem[] } {
  const problems: PeriodProblem[] = [];
  for (const [name, value] of [
    ['startDate', startDate],
    ['endDate', endDate],
  ] as const) {
    if (!isIsoDate(value)) problems.push(`dateRange.${name} '${value.slice(0, 40)}' is not a date`);
    else if (value < earliestDashboardDate || value > latestDashboardDate)
      problems.push(`dateRange.${name} should be between ${earliestDashboardDate} and ${latestDashboardDate}`);
  }
  if (problems.length > 0) return { problems };
  if (endDate < startDate) return { problems: ['dateRange.endDate is before dateRange.startDate'] };
  if (interval === 'custom') {
    if (daysInRange(startDate, endDate) > maxCustomRangeDays) return { problems: [`dateRange may span ${maxCustomRangeDays} days maximum`] };
    return { period: { interval, startDate, endDate } };
  }
  const period = periodContaining(interval, startDate);
  if (endDate > period.endDate)
    return { problems: [`dateRange.endDate should be in the same ${interval} as dateRange.startDate (${period.startDate} to ${period.endDate})`] };
  return { period };
}

// ── The dashboard's view state and its transitions (the interval selector, compare, chart type) ──

export type ChartType = 'bar' | 'line';
export type DashboardView = {
  interval: DashboardInterval;
  /** the shown period; null while a custom interval has no dates chosen yet */
  period: DashboardPeriod | null;
  compare: boolean;
  /** what compare compares with (absent: a year earlier) */
  compareWith?: CompareWith;
  chartType: ChartType;
};

/**
 * Compare with a year earlier, the previous period, or (a day or a week) the same weekday a week earlier: the ways
 * to tell a drop from a season, a trend or a weekly rhythm.
 */
export const compareModes = ['year', 'previous', 'week'] as const;
export type CompareWith = (typeof compareModes)[number];
export const compareLabels: Record<CompareWith, string> = { year: 'a year earlier', previous: 'the previous period', week: 'a week earlier' };
/** The modes a view offers: a week earlier only where a period lines up with one (a day, a week). */
export const compareModesOf = (interval: DashboardInterval): CompareWith[] =>
  interval === 'day' || interval === 'week' ? [...compareModes] : ['year', 'previous'];

export const defaultInterval: FixedInterval = 'month';

export function initialView(today: IsoDate, interval: FixedInterval = defaultInterval): DashboardView {
  return { interval, period: periodContaining(interval, today), compare: false, chartType: 'bar' };
}

/** Changing the interval resets compare, sets the chart to bar and clears custom dates; fixed intervals show the current period. */
export function selectInterval(view: DashboardView, interval: DashboardInterval, today: IsoDate): DashboardView {
  if (interval === view.interval && interval !== 'custom') return view;
  return { interval, period: interval === 'custom' ? null : periodContaining(interval, today), compare: false, chartType: 'bar' };
}

/** Choosing a custom range switches to the custom interval and a line chart. */
export function selectCustomRange(view: DashboardView, startDate: IsoDate, endDate: IsoDate): DashboardView {
  const [from, to] = startDate <= endDate ? [startDate, endDate] : [endDate, startDate];
  return { ...view, interval: 'custom', period: { interval: 'custom', startDate: from, endDate: to }, chartType: 'line' };
}

/** Previous (-1) or next (+1) period; compare and chart type stay. */
export function stepView(view: DashboardView, direction: -1 | 1): DashboardView {
  if (!view.period) return view;
  return { ...view, period: shiftPeriod(view.period, direction) };
}

/** The next period starts after today: there is nothing to show there yet. */
export function canStepForward(view: DashboardView, today: IsoDate): boolean {
  return view.period !== null && shiftPeriod(view.period, 1).startDate <= today;
}

export function setCompare(view: DashboardView, compare: boolean): DashboardView {
  return view.compare === compare ? view : { ...view, compare };
}

/** The period shown and, with compare on, the one it is compared with. */
export function comparedPeriod(view: DashboardView): DashboardPeriod | null {
  if (!view.compare || !view.period) return null;
  const mode = view.compareWith ?? 'year';
  if (mode === 'previous') return shiftPeriod(view.period, -1);
  if (mode === 'week' && view.period.interval === 'day') return periodContaining('day', addDays(view.period.startDate, -7));
  if (mode === 'week' && view.period.interval === 'week') return shiftPeriod(view.period, -1);
  return comparePeriod(view.period);
}

/** The shown period and the 14 before it, nearest first: what is fetched ahead so stepping back is instant. */
export function periodsToPrefetch(period: DashboardPeriod, count: number = prefetchedPeriods): DashboardPeriod[] {
  return Array.from({ length: count }, (_, index) => shiftPeriod(period, -index));
}

// ── The statistics: names, kinds and totals (the arktype schemas of the responses are in dashboard.ts) ──

/** What each statistic is (server/stats/definition.ts says how each is counted). */
export const dashboardMeasures = ['volume', 'revenue', 'unsuccessfulVolume', 'unsuccessfulRevenue', 'salesCount'] as const;
export type DashboardMeasure = (typeof dashboardMeasures)[number];
export type MeasureKind = 'count' | 'money';
export const measureKinds: Record<DashboardMeasure, MeasureKind> = {
  volume: 'money',
  revenue: 'money',
  unsuccessfulVolume: 'money',
  unsuccessfulRevenue: 'money',
  salesCount: 'count',
};
export const measureLabels: Record<DashboardMeasure, string> = {
  volume: 'Volume',
  revenue: 'Revenue',
  unsuccessfulVolume: 'Unsuccessful volume',
  unsuccessfulRevenue: 'Unsuccessful revenue',
  salesCount: 'Sales',
};
/**
 * What each measure counts, shown beside each total and in the table. The transactions overview's
 * totals (GET {context}/transactions/totals) count the same way, so both agree for one period and currency.
 */
export const measureDescriptions: Record<DashboardMeasure, string> = {
  volume: 'Paid payments, on the payment’s date; refunds not taken off',
  revenue: 'Volume less the paid refunds and chargebacks of those payments, netted on the payment’s date',
  unsuccessfulVolume: 'Declined and failed payments, on the payment’s date',
  unsuccessfulRevenue: 'Declined and failed payments, on the payment’s date',
  salesCount: 'Number of paid payments',
};

/**
 * The measures the dashboard shows. Unsuccessful revenue counted exactly what unsuccessful volume counts (a declined
 * payment has no refunds to net), so it went; the API still answers it for older callers.
 */
export const shownMeasures = ['volume', 'revenue', 'unsuccessfulVolume', 'salesCount'] as const satisfies readonly DashboardMeasure[];

/**
 * The transactions a bucket's figure counts, as the overview's filters: the period's instants (end exclusive), the
 * currency, and the payments the measure is made of (refunds are found from their payment).
 */
export function bucketTransactionFilters(measure: DashboardMeasure, bucket: { startDate: string; endDate: string }, currency: string): Record<string, string> {
  const lastInstant = new Date(Date.parse(bucket.endDate) - 1).toISOString();
  const status = measure === 'unsuccessfulVolume' || measure === 'unsuccessfulRevenue' ? '[eq]declined[and][eq]failed' : '[eq]paid';
  return {
    date: `[gte]${new Date(Date.parse(bucket.startDate)).toISOString()}[and][lte]${lastInstant}`,
    currency: `[eq]${currency.toLowerCase()}`,
    kind: '[eq]payment',
    status,
  };
}

export type DashboardTotals = Record<DashboardMeasure, number>;

export const emptyTotals = (): DashboardTotals => ({ volume: 0, revenue: 0, unsuccessfulVolume: 0, unsuccessfulRevenue: 0, salesCount: 0 });

export function totalsOf(datapoints: readonly DashboardTotals[]): DashboardTotals {
  const totals = emptyTotals();
  for (const point of datapoints) for (const measure of dashboardMeasures) totals[measure] += point[measure];
  return totals;
}

/** Change in percent against the compared value; null when there is nothing to compare with. */
export function changeAgainst(current: number, compared: number): number | null {
  if (compared === 0) return current === 0 ? 0 : null;
  return ((current - compared) / Math.abs(compared)) * 100;
}

// ── The dashboard's address: the view lives in the pane's query string, so every view is a link ──
//   /dashboard?interval=week&from=2026-03-16&compare=1&measure=revenue&currency=EUR&basis=activity
// (custom ranges add &to=; chart=bar|line only when it differs from the interval's default; basis=activity for the
// activity view, absent for the default view by payment date).

export const dashboardPath = '/dashboard';

/** Currencies the portal settles in: each gets a palette command. */
export const dashboardCurrencies = ['GBP', 'EUR', 'USD', 'JPY'] as const;

/** dateBasis absent: by payment date (the default view). */
export type DashboardSettings = { view: DashboardView; measure: DashboardMeasure; currency: string | null; dateBasis?: DashboardDateBasis };

/** What each view is called on the chart, its control and its commands. */
export const dateBasisLabels: Record<DashboardDateBasis, string> = { paymentDate: 'By payment date', activityDate: 'By activity date' };
/** What each view counts, said under the chart. */
export const dateBasisDescriptions: Record<DashboardDateBasis, string> = {
  paymentDate: 'Everything on its payment’s date: a refund or chargeback lowers the day the payment was made.',
  activityDate: 'Money on the day it moved: captures when captured, refunds and chargebacks when they happened.',
};

const defaultChartType = (view: Pick<DashboardView, 'interval' | 'period'>): ChartType => (view.interval === 'custom' && view.period ? 'line' : 'bar');
const isInterval = (value: string | null): value is DashboardInterval => (dashboardIntervals as readonly (string | null)[]).includes(value);
const isMeasure = (value: string | null): value is DashboardMeasure => (shownMeasures as readonly (string | null)[]).includes(value);

/** compare=1 (a year earlier), compare=previous, compare=week (a day or a week only). */
function compareOf(value: string | null, interval: DashboardInterval): { compare: boolean; compareWith?: CompareWith } {
  if (value === '1') return { compare: true };
  if (value === 'previous' || (value === 'week' && compareModesOf(interval).includes('week'))) return { compare: true, compareWith: value };
  return { compare: false };
}

/** Reads a dashboard query string; anything missing or malformed falls back to the current period. */
export function readDashboardSearch(search: string, today: IsoDate): DashboardSettings {
  const params = new URLSearchParams(search.startsWith('?') ? search.slice(1) : search);
  const intervalParam = params.get('interval');
  const interval: DashboardInterval = isInterval(intervalParam) ? intervalParam : defaultInterval;
  const from = params.get('from');
  const to = params.get('to');
  let period: DashboardPeriod | null;
  if (interval === 'custom') {
    const valid = from !== null && to !== null && isIsoDate(from) && isIsoDate(to) && from <= to && daysInRange(from, to) <= maxCustomRangeDays;
    period = valid ? { interval, startDate: from, endDate: to } : null;
  } else {
    period = periodContaining(interval, from !== null && isIsoDate(from) ? from : today);
  }
  const chartParam = params.get('chart');
  const base = { interval, period };
  const measureParam = params.get('measure');
  const currencyParam = params.get('currency');
  return {
    view: {
      ...base,
      ...compareOf(params.get('compare'), interval),
      chartType: chartParam === 'bar' || chartParam === 'line' ? chartParam : defaultChartType(base),
    },
    measure: isMeasure(measureParam) ? measureParam : 'volume',
    currency: currencyParam !== null && /^[A-Z]{3}$/.test(currencyParam) ? currencyParam : null,
    // The default view (by payment date) is left unsaid, as in the address.
    ...(params.get('basis') === 'activity' ? { dateBasis: 'activityDate' as const } : {}),
  };
}

/** The query string of a dashboard view ('' for the default view of today). */
export function dashboardSearch(settings: DashboardSettings): string {
  const { view, measure, currency } = settings;
  const params = new URLSearchParams();
  params.set('interval', view.interval);
  if (view.period) {
    params.set('from', view.period.startDate);
    if (view.interval === 'custom') params.set('to', view.period.endDate);
  }
  if (view.compare) params.set('compare', !view.compareWith || view.compareWith === 'year' ? '1' : view.compareWith);
  if (view.chartType !== defaultChartType(view)) params.set('chart', view.chartType);
  if (measure !== 'volume') params.set('measure', measure);
  if (currency) params.set('currency', currency);
  if (settings.dateBasis === 'activityDate') params.set('basis', 'activity');
  return `?${params.toString()}`;
}

/** The dashboard path after a change, from the path it is at now (a pane path with its query). */
export function changeDashboardPath(path: string, today: IsoDate, change: (settings: DashboardSettings) => DashboardSettings): string {
  const index = path.indexOf('?');
  const settings = readDashboardSearch(index === -1 ? '' : path.slice(index), today);
  return `${dashboardPath}${dashboardSearch(change(settings))}`;
}

/** The browser's own zone: the one the HTTP client sends as Time-Zone, so 'today' here is the server's today too. */
export function browserTimeZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  } catch {
    return 'UTC';
  }
}
