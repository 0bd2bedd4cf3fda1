import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { TZDate } from '@date-fns/tz';
import { addDays as dateFnsAddDays, addMonths as dateFnsAddMonths, addWeeks, addYears, endOfMonth, endOfWeek, startOfMonth, startOfWeek } from 'date-fns';
import { addDays, calendarDate } from '../../src/contract/calendar-date.ts';
import { formatInstant, startOfLocalDate } from '../../src/contract/zoned-time.ts';
import {
  canStepForward,
  changeDashboardPath,
  dashboardSearch,
  readDashboardSearch,
  comparePeriod,
  comparedPeriod,
  customStep,
  initialView,
  maxCustomRangeDays,
  maxDashboardBuckets,
  normalisePeriod,
  periodContaining,
  periodsToPrefetch,
  selectCustomRange,
  selectInterval,
  setCompare,
  shiftPeriod,
  stepView,
  type DashboardPeriod,
  type FixedInterval,
} from '../../src/contract/dashboard-intervals.ts';
import { bucketPlan } from '../../src/contract/dashboard-buckets.ts';

const iso = (date: Date) => date.toISOString();
const hours = (bucket: { start: Date; end: Date }) => (bucket.end.getTime() - bucket.start.getTime()) / 3_600_000;

describe('periods', () => {
  it.each([
    ['2026-03-23', '2026-03-23', '2026-03-29'], // Monday
    ['2026-03-29', '2026-03-23', '2026-03-29'], // Sunday ends the week
    ['2026-03-30', '2026-03-30', '2026-04-05'],
    ['2026-01-01', '2025-12-29', '2026-01-04'], // a week across the year end
  ])('the week of %s runs Monday %s to Sunday %s', (date, start, end) => {
    expect(periodContaining('week', date)).toEqual({ interval: 'week', startDate: start, endDate: end });
  });

  it('agrees with the date-fns periods it was first written with, over 1970–2199', () => {
    // The reference: periodContaining, shiftPeriod and comparePeriod as they were on date-fns and a TZDate in UTC.
    const utc = (date: string) => new TZDate(Number(date.slice(0, 4)), Number(date.slice(5, 7)) - 1, Number(date.slice(8, 10)), 'UTC');
    const text = (date: Date) => new TZDate(date.getTime(), 'UTC').toISOString().slice(0, 10);
    const containing = (interval: FixedInterval, date: string): DashboardPeriod => {
      const day = utc(date);
      if (interval === 'week') return { interval, startDate: text(startOfWeek(day, { weekStartsOn: 1 })), endDate: text(endOfWeek(day, { weekStartsOn: 1 })) };
      if (interval === 'month') return { interval, startDate: text(startOfMonth(day)), endDate: text(endOfMonth(day)) };
      if (interval === 'year') return { interval, startDate: `${date.slice(0, 4)}-01-01`, endDate: `${date.slice(0, 4)}-12-31` };
      return { interval, startDate: date, endDate: date };
    };
    const step = { day: dateFnsAddDays, week: addWeeks, month: dateFnsAddMonths, year: addYears } as const;
    const anyDate = fc
      .date({ min: new Date('1970-01-01T00:00:00Z'), max: new Date('2199-12-31T00:00:00Z'), noInvalidDate: true })
      .map((date) => date.toISOString().slice(0, 10));
    const anyInterval = fc.constantFrom<FixedInterval>('day', 'week', 'month', 'year');
    fc.assert(
      fc.property(anyDate, anyInterval, fc.integer({ min: -60, max: 60 }), (date, interval, steps) => {
        const period = periodContaining(interval, date);
        expect(period).toEqual(containing(interval, date));
        expect(shiftPeriod(period, steps)).toEqual(containing(interval, text(step[interval](utc(period.startDate), steps))));
        if (interval !== 'week') expect(comparePeriod(period)).toEqual(containing(interval, text(addYears(utc(period.startDate), -1))));
      }),
      { numRuns: 2000 },
    );
  });

  it('gives whole days, months and years', () => {
    expect(periodContaining('day', '2026-05-17')).toEqual({ interval: 'day', startDate: '2026-05-17', endDate: '2026-05-17' });
    expect(periodContaining('month', '2024-02-10')).toEqual({ interval: 'month', startDate: '2024-02-01', endDate: '2024-02-29' });
    expect(periodContaining('year', '2026-05-17')).toEqual({ interval: 'year', startDate: '2026-01-01', endDate: '2026-12-31' });
  });

  it.each<[DashboardPeriod, number, DashboardPeriod]>([
    [{ interval: 'day', startDate: '2026-03-01', endDate: '2026-03-01' }, -1, { interval: 'day', startDate: '2026-02-28', endDate: '2026-02-28' }],
    [{ interval: 'week', startDate: '2025-12-29', endDate: '2026-01-04' }, 1, { interval: 'week', startDate: '2026-01-05', endDate: '2026-01-11' }],
    [{ interval: 'month', startDate: '2026-01-01', endDate: '2026-01-31' }, 1, { interval: 'month', startDate: '2026-02-01', endDate: '2026-02-28' }],
    [{ interval: 'month', startDate: '2026-03-01', endDate: '2026-03-31' }, -14, { interval: 'month', startDate: '2025-01-01', endDate: '2025-01-31' }],
    [{ interval: 'year', startDate: '2026-01-01', endDate: '2026-12-31' }, -1, { interval: 'year', startDate: '2025-01-01', endDate: '2025-12-31' }],
    [{ interval: 'custom', startDate: '2026-03-10', endDate: '2026-03-19' }, -1, { interval: 'custom', startDate: '2026-02-28', endDate: '2026-03-09' }],
  ])('shifts %o by %i', (period, steps, expected) => {
    expect(shiftPeriod(period, steps)).toEqual(expected);
  });

  it.each<[DashboardPeriod, DashboardPeriod]>([
    [
      { interval: 'day', startDate: '2024-02-29', endDate: '2024-02-29' },
      { interval: 'day', startDate: '2023-02-28', endDate: '2023-02-28' },
    ],
    [
      { interval: 'day', startDate: '2026-06-15', endDate: '2026-06-15' },
      { interval: 'day', startDate: '2025-06-15', endDate: '2025-06-15' },
    ],
    // 52 weeks back: still a Monday-to-Sunday week, the weekdays line up.
    [
      { interval: 'week', startDate: '2026-03-23', endDate: '2026-03-29' },
      { interval: 'week', startDate: '2025-03-24', endDate: '2025-03-30' },
    ],
    [
      { interval: 'month', startDate: '2024-02-01', endDate: '2024-02-29' },
      { interval: 'month', startDate: '2023-02-01', endDate: '2023-02-28' },
    ],
    [
      { interval: 'year', startDate: '2026-01-01', endDate: '2026-12-31' },
      { interval: 'year', startDate: '2025-01-01', endDate: '2025-12-31' },
    ],
    [
      { interval: 'custom', startDate: '2024-02-10', endDate: '2024-02-29' },
      { interval: 'custom', startDate: '2023-02-10', endDate: '2023-02-28' },
    ],
  ])('compares %o with %o', (period, expected) => {
    expect(comparePeriod(period)).toEqual(expected);
  });
});

describe('buckets', () => {
  it('a day in London has 24 hours, 23 when the clocks go forward and 25 when they go back', () => {
    const ordinary = bucketPlan(periodContaining('day', '2026-06-10'), 'Europe/London');
    expect(ordinary).toMatchObject({ unit: 'hour', step: 1 });
    expect(ordinary.buckets).toHaveLength(24);
    expect(iso(ordinary.buckets[0]!.start)).toBe('2026-06-09T23:00:00.000Z');

    const spring = bucketPlan(periodContaining('day', '2026-03-29'), 'Europe/London');
    expect(spring.buckets).toHaveLength(23);
    expect(spring.buckets.map((bucket) => formatInstant(bucket.start, 'Europe/London')).slice(0, 3)).toEqual([
      '2026-03-29T00:00:00+00:00',
      '2026-03-29T02:00:00+01:00',
      '2026-03-29T03:00:00+01:00',
    ]);
    expect(iso(spring.buckets.at(-1)!.end)).toBe('2026-03-29T23:00:00.000Z');

    const autumn = bucketPlan(periodContaining('day', '2026-10-25'), 'Europe/London');
    expect(autumn.buckets).toHaveLength(25);
    expect(autumn.buckets.map((bucket) => formatInstant(bucket.start, 'Europe/London')).slice(1, 3)).toEqual([
      '2026-10-25T01:00:00+01:00',
      '2026-10-25T01:00:00+00:00',
    ]);
  });

  it('a day in Kolkata and Kathmandu starts off the hour in UTC', () => {
    const kolkata = bucketPlan(periodContaining('day', '2026-03-29'), 'Asia/Kolkata');
    expect(kolkata.buckets).toHaveLength(24);
    expect(iso(kolkata.buckets[0]!.start)).toBe('2026-03-28T18:30:00.000Z');
    expect(iso(kolkata.buckets[1]!.start)).toBe('2026-03-28T19:30:00.000Z');
    const kathmandu = bucketPlan(periodContaining('day', '2026-03-29'), 'Asia/Kathmandu');
    expect(iso(kathmandu.buckets[0]!.start)).toBe('2026-03-28T18:15:00.000Z');
    expect(kathmandu.buckets.every((bucket) => hours(bucket) === 1)).toBe(true);
  });

  it('a week is seven local days from Monday, one of them short across the change to summer time', () => {
    const plan = bucketPlan(periodContaining('week', '2026-03-25'), 'Europe/London');
    expect(plan).toMatchObject({ unit: 'day', step: 1 });
    expect(plan.buckets.map(hours)).toEqual([24, 24, 24, 24, 24, 24, 23]);
    expect(plan.buckets.map((bucket) => calendarDate(bucket.start, 'Europe/London'))).toEqual([
      '2026-03-23',
      '2026-03-24',
      '2026-03-25',
      '2026-03-26',
      '2026-03-27',
      '2026-03-28',
      '2026-03-29',
    ]);
  });

  it('a month has a bucket per day and a year one per month, each starting at local midnight', () => {
    const month = bucketPlan(periodContaining('month', '2026-10-01'), 'Europe/London');
    expect(month.buckets).toHaveLength(31);
    expect(month.buckets.filter((bucket) => hours(bucket) === 25)).toHaveLength(1);
    const year = bucketPlan(periodContaining('year', '2026-10-01'), 'Asia/Kolkata');
    expect(year).toMatchObject({ unit: 'month', step: 1 });
    expect(year.buckets).toHaveLength(12);
    expect(year.buckets.map((bucket) => formatInstant(bucket.start, 'Asia/Kolkata').slice(0, 10))).toEqual([
      '2026-01-01',
      '2026-02-01',
      '2026-03-01',
      '2026-04-01',
      '2026-05-01',
      '2026-06-01',
      '2026-07-01',
      '2026-08-01',
      '2026-09-01',
      '2026-10-01',
      '2026-11-01',
      '2026-12-01',
    ]);
    expect(iso(year.buckets[0]!.start)).toBe('2025-12-31T18:30:00.000Z');
  });

  it.each([
    [1, 1, 1],
    [31, 1, 31],
    [32, 2, 16],
    [62, 2, 31],
    [63, 3, 21],
    [365, 12, 31],
    [366, 12, 31],
    [1830, 60, 31],
  ])('a custom range of %i days has a step of %i days and %i buckets', (days, step, count) => {
    const period: DashboardPeriod = { interval: 'custom', startDate: '2024-01-01', endDate: addDays('2024-01-01', days - 1) };
    expect(customStep(period.startDate, period.endDate)).toBe(step);
    const plan = bucketPlan(period, 'Europe/London');
    expect(plan).toMatchObject({ unit: 'day', step });
    expect(plan.buckets).toHaveLength(count);
  });

  it('custom buckets never exceed 31 and tile the range exactly, in any zone', () => {
    const zones = ['UTC', 'Europe/London', 'Asia/Kolkata', 'America/Santiago', 'Australia/Lord_Howe', 'Pacific/Chatham'];
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 365 * 20 }), fc.integer({ min: 1, max: maxCustomRangeDays }), fc.constantFrom(...zones), (offset, days, zone) => {
        const startDate = addDays('2004-01-01', offset);
        const period: DashboardPeriod = { interval: 'custom', startDate, endDate: addDays(startDate, days - 1) };
        const { buckets, step } = bucketPlan(period, zone);
        expect(buckets.length).toBeLessThanOrEqual(maxDashboardBuckets);
        expect(buckets.length).toBe(Math.ceil(days / step));
        expect(buckets[0]!.start.getTime()).toBe(startOfLocalDate(startDate, zone).getTime());
        expect(buckets.at(-1)!.end.getTime()).toBe(startOfLocalDate(addDays(period.endDate, 1), zone).getTime());
        buckets.slice(1).forEach((bucket, index) => {
          expect(bucket.start.getTime()).toBe(buckets[index]!.end.getTime());
        });
      }),
      { numRuns: 300 },
    );
  });
});

describe('normalisePeriod', () => {
  it('widens a fixed interval to the whole period holding startDate', () => {
    expect(normalisePeriod('month', '2026-03-15', '2026-03-20')).toEqual({ period: { interval: 'month', startDate: '2026-03-01', endDate: '2026-03-31' } });
    expect(normalisePeriod('week', '2026-03-29', '2026-03-29')).toEqual({ period: { interval: 'week', startDate: '2026-03-23', endDate: '2026-03-29' } });
  });

  it.each([
    ['day', '2026-02-30', '2026-02-30', /startDate '2026-02-30' is not a date/],
    ['custom', '2026-03-02', '2026-03-01', /endDate is before/],
    ['week', '2026-03-23', '2026-03-30', /same week/],
    ['custom', '2020-01-01', '2026-01-01', /1830 days maximum/],
    ['year', '1999-01-01', '1999-12-31', /between 2000-01-01 and 2099-12-31/],
  ] as const)('refuses %s %s to %s', (interval, start, end, message) => {
    const result = normalisePeriod(interval, start, end);
    expect('problems' in result && result.problems.join(' ')).toMatch(message);
  });
});

describe('interval transitions', () => {
  const today = '2026-03-18';

  it('starts on the current month as a bar chart without compare', () => {
    expect(initialView(today)).toEqual({ interval: 'month', period: periodContaining('month', today), compare: false, chartType: 'bar' });
  });

  it('changing the interval resets compare, sets bar and clears custom dates', () => {
    const custom = setCompare(selectCustomRange(initialView(today), '2026-01-10', '2026-02-20'), true);
    expect(custom).toMatchObject({ interval: 'custom', chartType: 'line', compare: true });
    expect(selectInterval(custom, 'week', today)).toEqual({ interval: 'week', period: periodContaining('week', today), compare: false, chartType: 'bar' });
    expect(selectInterval(custom, 'custom', today)).toEqual({ interval: 'custom', period: null, compare: false, chartType: 'bar' });
  });

  it('keeps the view when the same fixed interval is chosen again', () => {
    const view = stepView(setCompare(initialView(today), true), -1);
    expect(selectInterval(view, 'month', today)).toBe(view);
  });

  it('a custom range switches to a line chart, in date order', () => {
    expect(selectCustomRange(initialView(today), '2026-03-10', '2026-03-01')).toMatchObject({
      interval: 'custom',
      chartType: 'line',
      period: { interval: 'custom', startDate: '2026-03-01', endDate: '2026-03-10' },
    });
  });

  it('steps back and forward, never past the current period', () => {
    const view = initialView(today, 'week');
    expect(canStepForward(view, today)).toBe(false);
    const back = stepView(view, -1);
    expect(back.period).toEqual({ interval: 'week', startDate: '2026-03-09', endDate: '2026-03-15' });
    expect(canStepForward(back, today)).toBe(true);
    expect(stepView(back, 1)).toEqual(view);
    expect(stepView(selectInterval(view, 'custom', today), -1).period).toBeNull();
  });

  it('compare overlays the same period a year earlier', () => {
    const view = initialView(today, 'year');
    expect(comparedPeriod(view)).toBeNull();
    expect(comparedPeriod(setCompare(view, true))).toEqual({ interval: 'year', startDate: '2025-01-01', endDate: '2025-12-31' });
    expect(setCompare(view, false)).toBe(view);
  });

  it('pre-fetches the shown period and the fourteen before it', () => {
    const periods = periodsToPrefetch(periodContaining('month', today));
    expect(periods).toHaveLength(15);
    expect(periods[0]!.startDate).toBe('2026-03-01');
    expect(periods.at(-1)!.startDate).toBe('2025-01-01');
  });
});

describe('the dashboard address', () => {
  const today = '2026-03-18';

  it('defaults to the current month of volume, in the context default currency', () => {
    expect(readDashboardSearch('', today)).toEqual({ view: initialView(today), measure: 'volume', currency: null });
  });

  it('round-trips every setting', () => {
    const settings = {
      view: setCompare(selectCustomRange(initialView(today), '2026-01-05', '2026-03-10'), true),
      measure: 'unsuccessfulVolume' as const,
      currency: 'EUR',
    };
    const search = dashboardSearch(settings);
    expect(search).toBe('?interval=custom&from=2026-01-05&to=2026-03-10&compare=1&measure=unsuccessfulVolume&currency=EUR');
    // Unsuccessful revenue is no longer shown (it counted what unsuccessful volume counts): a link to it shows volume.
    expect(readDashboardSearch('?measure=unsuccessfulRevenue', today).measure).toBe('volume');
    const previous = { ...settings, view: { ...settings.view, compareWith: 'previous' as const } };
    expect(dashboardSearch(previous)).toContain('&compare=previous');
    expect(readDashboardSearch(dashboardSearch(previous), today)).toEqual(previous);
    expect(readDashboardSearch(search, today)).toEqual(settings);
    const bars = { ...settings, view: { ...settings.view, chartType: 'bar' as const } };
    expect(dashboardSearch(bars)).toContain('&chart=bar');
    expect(readDashboardSearch(dashboardSearch(bars), today)).toEqual(bars);
    // The view by activity date is said in the address (basis=activity); the default, by payment date, is not.
    const byActivity = { ...settings, dateBasis: 'activityDate' as const };
    expect(dashboardSearch(byActivity)).toBe(`${search}&basis=activity`);
    expect(readDashboardSearch(dashboardSearch(byActivity), today)).toEqual(byActivity);
    expect(dashboardSearch({ ...settings, dateBasis: 'paymentDate' })).toBe(search);
    expect(readDashboardSearch('?basis=payment', today)).toEqual(readDashboardSearch('', today));
  });

  it('normalises a fixed interval to the period holding its date', () => {
    expect(readDashboardSearch('?interval=week&from=2026-03-18', today).view.period).toEqual({
      interval: 'week',
      startDate: '2026-03-16',
      endDate: '2026-03-22',
    });
  });

  it.each([
    ['?interval=hour', { interval: 'month', period: periodContaining('month', today) }],
    ['?interval=day&from=2026-02-30', { interval: 'day', period: periodContaining('day', today) }],
    ['?interval=custom&from=2026-03-10&to=2026-03-01', { interval: 'custom', period: null }],
    ['?interval=custom&from=2010-01-01&to=2026-03-01', { interval: 'custom', period: null }],
  ])('falls back on junk: %s', (search, expected) => {
    expect(readDashboardSearch(search, today).view).toMatchObject(expected);
  });

  it('ignores a malformed measure, currency or chart type', () => {
    expect(readDashboardSearch('?measure=profit&currency=pounds&chart=pie&compare=yes', today)).toEqual({
      view: initialView(today),
      measure: 'volume',
      currency: null,
    });
  });

  it('changes a pane path through a transition', () => {
    expect(
      changeDashboardPath('/dashboard?interval=year&from=2025-01-01&compare=1', today, (settings) => ({ ...settings, view: stepView(settings.view, 1) })),
    ).toBe('/dashboard?interval=year&from=2026-01-01&compare=1');
  });
});
