// en-GB labels for the dashboard: periods, buckets (in the zone the server bucketed in), amounts and counts.
import { type BucketUnit, type DashboardMeasure, type DashboardPeriod, measureKinds } from '../../src/contract/dashboard-intervals.ts';
import { currencyDecimals, formatMoney } from '../../src/format/money.ts';

const formatters = new Map<string, Intl.DateTimeFormat>();
function dateFormat(timeZone: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `${timeZone}|${JSON.stringify(options)}`;
  let formatter = formatters.get(key);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-GB', { ...options, timeZone });
    formatters.set(key, formatter);
  }
  return formatter;
}

/** A calendar date 'YYYY-MM-DD' as '5 March 2026' (no zone can move it). */
export function formatLocalDate(date: string, style: 'long' | 'short' = 'long'): string {
  return dateFormat('UTC', { day: 'numeric', month: style, year: 'numeric' }).format(new Date(`${date}T12:00:00Z`));
}

/** 'Sunday 29 March 2026', 'Week of 23 March 2026', 'March 2026', '2026', '1 January 2026 to 31 March 2026'. */
export function formatPeriod(period: DashboardPeriod): string {
  switch (period.interval) {
    case 'day':
      return dateFormat('UTC', { weekday: 'long', day: 'numeric', month: 'long', year: 'numeric' }).format(new Date(`${period.startDate}T12:00:00Z`));
    case 'week':
      return `${formatLocalDate(period.startDate, 'short')} to ${formatLocalDate(period.endDate, 'short')}`;
    case 'month':
      return dateFormat('UTC', { month: 'long', year: 'numeric' }).format(new Date(`${period.startDate}T12:00:00Z`));
    case 'year':
      return period.startDate.slice(0, 4);
    case 'custom':
      return `${formatLocalDate(period.startDate)} to ${formatLocalDate(period.endDate)}`;
  }
}

export type BucketLabelStyle = 'axis' | 'full';

/** A bucket's start as the axis shows it ('14:00', '29 Mar', 'Mar') or in full for tooltips and the table. */
export function formatBucket(start: Date, end: Date, unit: BucketUnit, step: number, timeZone: string, style: BucketLabelStyle): string {
  if (unit === 'hour') {
    const time = dateFormat(timeZone, { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(start);
    // On the day the clocks go back an hour repeats: say which one.
    const zoneName = dateFormat(timeZone, { timeZoneName: 'short' })
      .formatToParts(start)
      .find((part) => part.type === 'timeZoneName')?.value;
    return style === 'axis'
      ? time
      : `${dateFormat(timeZone, { day: 'numeric', month: 'short', year: 'numeric' }).format(start)}, ${time}${zoneName ? ` ${zoneName}` : ''}`;
  }
  if (unit === 'month') {
    return dateFormat(timeZone, style === 'axis' ? { month: 'short' } : { month: 'long', year: 'numeric' }).format(start);
  }
  const day = dateFormat(timeZone, style === 'axis' ? { day: 'numeric', month: 'short' } : { day: 'numeric', month: 'long', year: 'numeric' });
  if (step === 1 || style === 'axis') return day.format(start);
  const last = new Date(end.getTime() - 1);
  return `${day.format(start)} to ${day.format(last)}`;
}

const countFormat = new Intl.NumberFormat('en-GB', { maximumFractionDigits: 0 });
const percentFormat = new Intl.NumberFormat('en-GB', { maximumFractionDigits: 1, signDisplay: 'exceptZero' });

/** A measure's value in display units: major units of money, a plain number for counts. */
export function displayValue(value: number, measure: DashboardMeasure, currency: string): number {
  return measureKinds[measure] === 'money' ? value / 10 ** currencyDecimals(currency) : value;
}

/** '£1,234.50' or '1,234'. */
export function formatMeasure(value: number, measure: DashboardMeasure, currency: string): string {
  return measureKinds[measure] === 'money' ? formatMoney(displayValue(value, measure, currency), currency) : countFormat.format(value);
}

/** A value already in display units (the chart's scale). */
export function formatDisplayValue(value: number, measure: DashboardMeasure, currency: string): string {
  return measureKinds[measure] === 'money' ? formatMoney(value, currency) : countFormat.format(value);
}

/** '+12.5%', '−3%', '0%'; 'new' when there was nothing to compare with. */
export function formatChange(change: number | null): string {
  return change === null ? 'new' : `${percentFormat.format(change)}%`;
}
