import { TZDate } from '@date-fns/tz';
import { addDays as dateFnsAddDays, addMonths as dateFnsAddMonths, differenceInCalendarDays } from 'date-fns';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addDays, addMonths, calendarDate, daysInRange, isIsoDate, isoWeekday } from '../../src/contract/calendar-date.ts';
import { filterInstant, formatInstant } from '../../src/contract/zoned-time.ts';

describe('calendar arithmetic on UTC day numbers', () => {
  // The reference: date-fns on a TZDate in UTC, what these functions did before they went without TZDate.
  const utc = (date: string) => new TZDate(Number(date.slice(0, 4)), Number(date.slice(5, 7)) - 1, Number(date.slice(8, 10)), 'UTC');
  const text = (date: Date) => {
    const zoned = new TZDate(date.getTime(), 'UTC');
    return `${String(zoned.getFullYear()).padStart(4, '0')}-${String(zoned.getMonth() + 1).padStart(2, '0')}-${String(zoned.getDate()).padStart(2, '0')}`;
  };
  const anyDate = fc
    .date({ min: new Date('1970-01-01T00:00:00Z'), max: new Date('2199-12-31T00:00:00Z'), noInvalidDate: true })
    .map((date) => date.toISOString().slice(0, 10));

  it('keeps the day, or the last day of a shorter month, when adding months', () => {
    expect(addMonths('2026-01-31', 1)).toBe('2026-02-28');
    expect(addMonths('2024-01-31', 1)).toBe('2024-02-29');
    expect(addMonths('2026-03-31', -1)).toBe('2026-02-28');
    expect(addMonths('2026-11-15', 3)).toBe('2027-02-15');
    expect(addMonths('2026-01-01', -13)).toBe('2024-12-01');
  });

  it('agrees with date-fns for days, months and day counts over 1970–2199', () => {
    fc.assert(
      fc.property(anyDate, anyDate, fc.integer({ min: -800, max: 800 }), fc.integer({ min: -40, max: 40 }), (start, end, days, months) => {
        expect(addDays(start, days)).toBe(text(dateFnsAddDays(utc(start), days)));
        expect(addMonths(start, months)).toBe(text(dateFnsAddMonths(utc(start), months)));
        expect(daysInRange(start, end)).toBe(differenceInCalendarDays(utc(end), utc(start)) + 1);
        expect(isIsoDate(start)).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });
});

describe('local dates', () => {
  it.each([
    ['2026-02-28', true],
    ['2024-02-29', true],
    ['2026-02-29', false],
    ['2026-13-01', false],
    ['2026-1-01', false],
    ['26-01-01', false],
  ])('%s is a date: %s', (value, valid) => {
    expect(isIsoDate(value)).toBe(valid);
  });

  it('counts days and moves across month and year ends', () => {
    expect(daysInRange('2026-01-01', '2026-12-31')).toBe(365);
    expect(daysInRange('2024-01-01', '2024-12-31')).toBe(366);
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
    expect(addDays('2024-03-01', -1)).toBe('2024-02-29');
  });

  it('gives the local date of an instant in a zone', () => {
    expect(calendarDate(new Date('2026-06-30T23:30:00Z'), 'Europe/London')).toBe('2026-07-01');
    expect(calendarDate(new Date('2026-06-30T23:30:00Z'), 'UTC')).toBe('2026-06-30');
    expect(calendarDate(new Date('2026-06-30T18:29:00Z'), 'Asia/Kolkata')).toBe('2026-06-30');
    expect(calendarDate(new Date('2026-06-30T18:30:00Z'), 'Asia/Kolkata')).toBe('2026-07-01');
  });

  it('gives the same date as the zone library did, in any zone at any instant (Intl, no library)', () => {
    const zones = [
      'UTC',
      'Europe/London',
      'America/New_York',
      'Asia/Kolkata',
      'Asia/Kathmandu',
      'Pacific/Chatham',
      'Pacific/Kiritimati',
      'America/St_Johns',
      'Australia/Lord_Howe',
    ];
    fc.assert(
      fc.property(fc.integer({ min: Date.UTC(1900, 0, 1), max: Date.UTC(2200, 0, 1) }), fc.constantFrom(...zones), (time, zone) => {
        const zoned = new TZDate(time, zone);
        const expected = `${String(zoned.getFullYear()).padStart(4, '0')}-${String(zoned.getMonth() + 1).padStart(2, '0')}-${String(zoned.getDate()).padStart(2, '0')}`;
        expect(calendarDate(time, zone)).toBe(expected);
      }),
      { numRuns: 3000 },
    );
  });

  it('formats instants with the offset of their zone', () => {
    expect(formatInstant(new Date('2026-03-29T01:00:00Z'), 'Europe/London')).toBe('2026-03-29T02:00:00+01:00');
    expect(formatInstant(new Date('2026-01-01T00:00:00Z'), 'Europe/London')).toBe('2026-01-01T00:00:00+00:00');
    expect(formatInstant(new Date('2025-12-31T18:15:00Z'), 'Asia/Kathmandu')).toBe('2026-01-01T00:00:00+05:45');
    expect(formatInstant(new Date('2026-01-01T05:00:00Z'), 'America/New_York')).toBe('2026-01-01T00:00:00-05:00');
  });
});

describe('weeks and zones', () => {
  it('weeks start on Monday', () => {
    expect(isoWeekday('2026-11-16')).toBe(1);
    expect(isoWeekday('2026-11-22')).toBe(7);
  });

  it('takes today from the zone the user is in', () => {
    const instant = new Date('2026-11-19T23:30:00Z');
    expect(calendarDate(instant, 'Europe/London')).toBe('2026-11-19');
    expect(calendarDate(instant, 'Asia/Tokyo')).toBe('2026-11-20');
    expect(calendarDate(instant, 'America/New_York')).toBe('2026-11-19');
  });
});

describe('what a date value means on the server', () => {
  it.each([
    ['2026-11-01T00:00:00', 'start', 'Europe/London', '2026-11-01T00:00:00.000Z'],
    ['2026-07-01T00:00:00', 'start', 'Europe/London', '2026-06-30T23:00:00.000Z'],
    ['2026-07-01T23:59:59', 'end', 'Europe/London', '2026-07-01T22:59:59.999Z'],
    ['2026-07-01', 'start', 'Asia/Kolkata', '2026-06-30T18:30:00.000Z'],
    ['2026-07-01', 'end', 'Asia/Kolkata', '2026-07-01T18:29:59.999Z'],
    ['2026-07-01T12:30', 'end', 'UTC', '2026-07-01T12:30:59.999Z'],
    ['2026-07-01T12:30:15.25', 'end', 'UTC', '2026-07-01T12:30:15.250Z'],
    ['2026-07-01T12:00:00Z', 'end', 'Asia/Tokyo', '2026-07-01T12:00:00.000Z'],
    ['2026-07-01T12:00:00+02:00', 'start', 'UTC', '2026-07-01T10:00:00.000Z'],
  ] as const)('%s as the %s bound in %s is %s', (value, bound, zone, instant) => {
    expect(filterInstant(value, bound, zone).toISOString()).toBe(instant);
  });

  it('refuses what is not a date', () => {
    expect(() => filterInstant('yesterday', 'start', 'UTC')).toThrow(RangeError);
  });
});
