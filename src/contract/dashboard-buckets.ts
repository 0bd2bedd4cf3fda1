// A dashboard period's buckets as instants in a time zone: what the server sums in each. Apart from
// dashboard-intervals.ts (the client's too) because it needs the zone library (zoned-time.ts).
import { addDays, addMonths, type IsoDate } from './calendar-date.ts';
import { bucketUnitOf, type BucketUnit, customStep, type DashboardPeriod } from './dashboard-intervals.ts';
import { startOfLocalDate } from './zoned-time.ts';

export type Bucket = { start: Date; end: Date };
export type BucketPlan = { unit: BucketUnit; step: number; buckets: Bucket[] };

/**
 * The buckets of a period in a time zone. Hours are real hours from local midnight, so a day has 23 or 25 of them
 * when the clocks change; days and months start at local midnight; the last bucket ends with the period.
 */
export function bucketPlan(period: DashboardPeriod, timeZone: string): BucketPlan {
  const unit = bucketUnitOf[period.interval];
  const periodStart = startOfLocalDate(period.startDate, timeZone);
  const periodEnd = startOfLocalDate(addDays(period.endDate, 1), timeZone);
  const buckets: Bucket[] = [];
  if (unit === 'hour') {
    for (let start = periodStart.getTime(); start < periodEnd.getTime(); start += 3_600_000) {
      buckets.push({ start: new Date(start), end: new Date(Math.min(start + 3_600_000, periodEnd.getTime())) });
    }
    return { unit, step: 1, buckets };
  }
  const step = period.interval === 'custom' ? customStep(period.startDate, period.endDate) : 1;
  const next = unit === 'month' ? (date: IsoDate) => addMonths(date, step) : (date: IsoDate) => addDays(date, step);
  for (let date = period.startDate; date <= period.endDate; date = next(date)) {
    const start = startOfLocalDate(date, timeZone);
    const following = next(date);
    const end = following > period.endDate ? periodEnd : startOfLocalDate(following, timeZone);
    buckets.push({ start, end });
  }
  return { unit, step, buckets };
}
