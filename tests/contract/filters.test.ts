import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  addMonths,
  amountProblems,
  applyColumnChoice,
  calendarDate,
  changeListState,
  compactFilters,
  datePresetIds,
  datePresetRange,
  dateRangeProblem,
  decodeAmount,
  decodeAnyOf,
  decodeDateRange,
  decodeSearchTerm,
  encodeAmount,
  encodeAnyOf,
  encodeDateRange,
  encodeSearchTerm,
  filterInstant,
  isoWeekday,
  listRequestParams,
  listStateFromParams,
  listStateToParams,
  pickerBounds,
  pickerColumns,
  presetOfRange,
  serialiseColumnChoice,
  singleDateValue,
  type AmountFilter,
} from '../../src/contract/filters.ts';
import { parseListQuery } from '../../src/contract/list-query.ts';
import { channels, paymentStatuses } from '../../src/contract/enumerations.ts';
import { transactionListSpec } from '../../src/contract/transactions.ts';

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

  it('weeks start on Monday', () => {
    expect(isoWeekday('2026-11-16')).toBe(1);
    expect(isoWeekday('2026-11-22')).toBe(7);
  });

  it('lets the picker reach back five years, and shows one column under 576 px', () => {
    expect(pickerBounds('2026-11-19')).toEqual({ min: '2021-11-19', max: '2026-11-19' });
    expect(pickerBounds('2028-02-29')).toEqual({ min: '2023-02-28', max: '2028-02-29' });
    expect(addMonths('2026-03-31', -1)).toBe('2026-02-28');
    expect(pickerColumns(575)).toBe(1);
    expect(pickerColumns(576)).toBe(2);
  });

  it('takes today from the zone the user is in', () => {
    const instant = new Date('2026-11-19T23:30:00Z');
    expect(calendarDate(instant, 'Europe/London')).toBe('2026-11-19');
    expect(calendarDate(instant, 'Asia/Tokyo')).toBe('2026-11-20');
    expect(calendarDate(instant, 'America/New_York')).toBe('2026-11-19');
  });
});

describe('form values to filter values and back', () => {
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

  it.each<[AmountFilter, string | undefined]>([
    [{ mode: 'exact', exact: '12.50', min: '1', max: '2' }, '[eq]12.50'],
    [{ mode: 'range', exact: '', min: '10', max: '' }, '[gte]10'],
    [{ mode: 'range', exact: '', min: '', max: ' 20 ' }, '[lte]20'],
    [{ mode: 'range', exact: '', min: '10', max: '20' }, '[gte]10[and][lte]20'],
    [{ mode: 'range', exact: '5', min: '', max: '' }, undefined],
    [{ mode: 'exact', exact: ' ', min: '', max: '' }, undefined],
  ])('encodes the amount %j as %s', (amount, encoded) => {
    expect(encodeAmount(amount)).toBe(encoded);
    if (encoded) expect(encodeAmount(decodeAmount(encoded))).toBe(encoded);
  });

  it('checks amounts', () => {
    expect(amountProblems({ mode: 'range', exact: '', min: '20', max: '10' })).toEqual({ max: 'Maximum amount should be above 20' });
    expect(amountProblems({ mode: 'range', exact: '', min: '1e3', max: '' })).toEqual({ min: 'Only decimal input is allowed' });
    expect(amountProblems({ mode: 'exact', exact: '-5', min: '', max: '' })).toEqual({ exact: 'Only decimal input is allowed' });
    expect(amountProblems({ mode: 'range', exact: 'x', min: '10', max: '10' })).toEqual({});
  });

  it('encodes choices lower-cased as any-of, and reads them back in their declared spelling', () => {
    expect(encodeAnyOf(['Chp', 'Gateway', 'chp'])).toBe('[eq]chp[and][eq]gateway');
    expect(encodeAnyOf([])).toBeUndefined();
    expect(decodeAnyOf('[eq]chp[and][eq]gateway[and][eq]moon', channels)).toEqual(['Chp', 'Gateway']);
  });

  it('cleans a search term so it always survives the syntax', () => {
    expect(encodeSearchTerm('  TX0057  ')).toBe('[eq]TX0057');
    expect(encodeSearchTerm('a[and]b')).toBe('[eq]a b');
    expect(encodeSearchTerm('a[an[and]d]b')).toBe('[eq]a[an d]b');
    expect(encodeSearchTerm('   ')).toBeUndefined();
    expect(decodeSearchTerm('[eq]emily')).toBe('emily');
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), (term) => {
        const encoded = encodeSearchTerm(term);
        if (encoded === undefined) return;
        const parsed = parseListQuery({ searchterm: encoded }, transactionListSpec);
        expect(parsed.ok).toBe(true);
        expect(decodeSearchTerm(encoded)).toBe(encoded.slice(4));
      }),
    );
  });

  it('produces values the server accepts, for any form', () => {
    const form = fc.record({
      start: fc.option(fc.constantFrom('2026-01-01', '2026-11-19', '2021-11-20')),
      end: fc.option(fc.constantFrom('2026-02-01', '2026-11-19')),
      min: fc.option(fc.stringMatching(/^\d{1,6}(\.\d{1,2})?$/)),
      max: fc.option(fc.stringMatching(/^\d{1,6}(\.\d{1,2})?$/)),
      status: fc.subarray([...paymentStatuses]),
      channel: fc.subarray([...channels]),
      term: fc.string({ maxLength: 120 }),
    });
    fc.assert(
      fc.property(form, (values) => {
        const filters = compactFilters({
          date: encodeDateRange({ start: values.start, end: values.end }),
          amount: encodeAmount({ mode: 'range', exact: '', min: values.min ?? '', max: values.max ?? '' }),
          status: encodeAnyOf(values.status),
          channel: encodeAnyOf(values.channel),
          searchterm: encodeSearchTerm(values.term),
        });
        const parsed = parseListQuery(filters, transactionListSpec);
        expect(parsed.ok ? [] : parsed.errors).toEqual([]);
        if (parsed.ok && values.status.length > 0) expect(parsed.query.filters.status?.map((clause) => clause.value)).toEqual([...new Set(values.status)]);
      }),
    );
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

describe('column choices', () => {
  const columns = ['date', 'reference', 'merchant', 'amount', 'kind'];
  const defaults = ['date', 'reference', 'merchant', 'amount'];

  it('starts from the defaults', () => {
    expect(applyColumnChoice(null, columns, defaults)).toEqual({ order: columns, visible: defaults });
  });

  it('applies a saved order and hidden set', () => {
    const saved = serialiseColumnChoice(['amount', 'date', 'reference', 'merchant', 'kind'], ['amount', 'date', 'kind']);
    expect(applyColumnChoice(saved, columns, defaults)).toEqual({
      order: ['amount', 'date', 'reference', 'merchant', 'kind'],
      visible: ['amount', 'date', 'kind'],
    });
  });

  it('places columns added since in their default position, and drops columns that are gone', () => {
    const saved = JSON.stringify({ order: ['amount', 'gone', 'date', 'merchant'], hidden: [] });
    expect(applyColumnChoice(saved, columns, defaults)).toEqual({
      order: ['amount', 'date', 'reference', 'merchant', 'kind'],
      visible: ['amount', 'date', 'reference', 'merchant'],
    });
  });

  it('never hides every column', () => {
    const saved = JSON.stringify({ order: columns, hidden: columns });
    expect(applyColumnChoice(saved, columns, defaults).visible).toEqual(defaults);
  });
});

describe('the table state in the URL', () => {
  it('reads what it writes, leaving defaults out', () => {
    const state = { pageNumber: 3, pageSize: 50, sort: { field: 'amount', descending: false }, filters: { status: '[eq]paid' } };
    const params = listStateToParams(state, transactionListSpec);
    expect(params).toEqual({ pagenumber: '3', pagesize: '50', OrderingField: 'amount', OrderingDirection: 'Ascending', status: '[eq]paid' });
    expect(listStateFromParams(params, transactionListSpec)).toEqual(state);
    expect(listStateToParams({ ...state, pageNumber: 1, pageSize: 25, sort: { field: 'date', descending: true }, filters: {} }, transactionListSpec)).toEqual(
      {},
    );
  });

  it('keeps the valid part of a hand-edited link', () => {
    expect(
      listStateFromParams({ pagenumber: 'x', pagesize: '7', OrderingField: 'nope', status: '[eq]paid', amount: '[eq]lots', evil: '1' }, transactionListSpec),
    ).toEqual({ pageNumber: 1, pageSize: 25, sort: { field: 'date', descending: true }, filters: { status: '[eq]paid' } });
  });

  it('asks the API with explicit paging and ordering', () => {
    expect(listRequestParams({ pageNumber: 1, pageSize: 25, sort: { field: 'date', descending: true }, filters: { channel: '[eq]chp' } })).toEqual({
      pagenumber: '1',
      pagesize: '25',
      OrderingField: 'date',
      OrderingDirection: 'Descending',
      channel: '[eq]chp',
    });
  });

  it('returns to page 1 when sort, size or filters change, not when the page does', () => {
    const state = { pageNumber: 4, pageSize: 25, sort: { field: 'date', descending: true }, filters: {} };
    expect(changeListState(state, { pageSize: 50 }).pageNumber).toBe(1);
    expect(changeListState(state, { sort: { field: 'amount', descending: false } }).pageNumber).toBe(1);
    expect(changeListState(state, { filters: { status: '[eq]paid' } }).pageNumber).toBe(1);
    expect(changeListState(state, { pageNumber: 5 }).pageNumber).toBe(5);
  });
});
