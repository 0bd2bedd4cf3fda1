import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addMonths } from '../../src/contract/calendar-date.ts';
import {
  datePresetIds,
  datePresetRange,
  dateRangeProblem,
  decodeDateRange,
  encodeDateRange,
  pickerBounds,
  presetOfRange,
  singleDateValue,
} from '../../src/contract/date-range-filter.ts';

describe('date presets', () => {
  // Thursday 19 November 2026.
  const today = '2026-11-19';
  it.each([
    ['today', '2026-11-19', '2026-11-19'],
    ['yesterday', '2026-11-18', '2026-11-18'],
    ['thisWeek', '2026-11-16', '2026-11-19'],
    ['lastWeek', '2026-11-09', '2026-11-15'],
    ['thisMonth', '2026-11-01', '2026-11-19'],
    ['lastMonth', '2026-10-01', '2026-10-31'],
    ['thisYear', '2026-01-01', '2026-11-19'],
    ['lastYear', '2025-01-01', '2025-12-31'],
  ] as const)('%s runs from %s to %s', (preset, start, end) => {
    expect(datePresetRange(preset, today)).toEqual({ start, end });
  });

  it.each([
    ['a Monday', '2026-11-16', 'thisWeek', '2026-11-16', '2026-11-16'],
    ['a Sunday (weeks start on Monday)', '2026-11-22', 'thisWeek', '2026-11-16', '2026-11-22'],
    ['a Sunday, last week', '2026-11-22', 'lastWeek', '2026-11-09', '2026-11-15'],
    ['1 January, yesterday', '2027-01-01', 'yesterday', '2026-12-31', '2026-12-31'],
    ['1 January, last week across the year', '2027-01-01', 'lastWeek', '2026-12-21', '2026-12-27'],
    ['1 January, last month', '2027-01-01', 'lastMonth', '2026-12-01', '2026-12-31'],
    ['1 March of a leap year, last month', '2024-03-01', 'lastMonth', '2024-02-01', '2024-02-29'],
  ] as const)('on %s', (_name, day, preset, start, end) => {
    expect(datePresetRange(preset, day)).toEqual({ start, end });
  });

  it('always gives a range inside the picker, ending no later than today', () => {
    fc.assert(
      fc.property(
        fc.date({ min: new Date('2000-01-01'), max: new Date('2100-12-31'), noInvalidDate: true }),
        fc.constantFrom(...datePresetIds),
        (date, preset) => {
          const day = date.toISOString().slice(0, 10);
          const range = datePresetRange(preset, day);
          expect(range.start <= range.end).toBe(true);
          expect(range.end <= day).toBe(true);
          expect(range.start >= pickerBounds(day).min).toBe(true);
        },
      ),
    );
  });

  it('recognises a range that is exactly a preset', () => {
    expect(presetOfRange({ start: '2026-11-01', end: '2026-11-19' }, '2026-11-19')).toBe('thisMonth');
    expect(presetOfRange({ start: '2026-11-02', end: '2026-11-19' }, '2026-11-19')).toBeNull();
    expect(presetOfRange({ start: '2026-11-02', end: null }, '2026-11-19')).toBeNull();
  });

  it('lets the picker reach back five years', () => {
    expect(pickerBounds('2026-11-19')).toEqual({ min: '2021-11-19', max: '2026-11-19' });
    expect(pickerBounds('2028-02-29')).toEqual({ min: '2023-02-28', max: '2028-02-29' });
    expect(addMonths('2026-03-31', -1)).toBe('2026-02-28');
  });
});

describe('a date range to a filter value and back', () => {
  it('encodes a date range from 00:00:00 to 23:59:59 and ignores an empty one', () => {
    expect(encodeDateRange({ start: '2026-11-01', end: '2026-11-30' })).toBe('[gte]2026-11-01T00:00:00[and][lte]2026-11-30T23:59:59');
    expect(encodeDateRange({ start: '2026-11-01', end: null })).toBe('[gte]2026-11-01T00:00:00');
    expect(encodeDateRange({ start: null, end: '2026-11-30' })).toBe('[lte]2026-11-30T23:59:59');
    expect(encodeDateRange({ start: null, end: null })).toBeUndefined();
    expect(singleDateValue('2026-11-01')).toBe('2026-11-01T12:00:00');
  });

  it('decodes what it encodes, and tolerates junk', () => {
    expect(decodeDateRange('[gte]2026-11-01T00:00:00[and][lte]2026-11-30T23:59:59')).toEqual({ start: '2026-11-01', end: '2026-11-30' });
    expect(decodeDateRange('nonsense')).toEqual({ start: null, end: null });
    expect(decodeDateRange('[gte]2026-02-30T00:00:00')).toEqual({ start: null, end: null });
    expect(decodeDateRange(undefined)).toEqual({ start: null, end: null });
  });

  it('checks a date range', () => {
    expect(dateRangeProblem({ start: '2026-11-02', end: '2026-11-01' })).toBe('End date should be after the start date');
    expect(dateRangeProblem({ start: '2026-11-01', end: '2026-11-01' })).toBeUndefined();
  });
});
