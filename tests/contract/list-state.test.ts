import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { encodeAmount } from '../../src/contract/amount-filter.ts';
import { encodeDateRange } from '../../src/contract/date-range-filter.ts';
import { channels, paymentStatuses } from '../../src/contract/enumerations.ts';
import { parseListQuery } from '../../src/contract/list-query.ts';
import {
  changeListState,
  compactFilters,
  decodeAnyOf,
  decodeSearchTerm,
  encodeAnyOf,
  encodeSearchTerm,
  listRequestParams,
  listStateFromParams,
  listStateToParams,
} from '../../src/contract/list-state.ts';
import { transactionListSpec } from '../../src/contract/transactions.ts';

describe('form values to filter values and back', () => {
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
