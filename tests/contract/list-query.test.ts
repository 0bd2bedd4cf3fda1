import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { encodeFilter, encodeOrdering, parseFilter, parseListQuery, type FilterClause, type ListQuerySpec } from '../../src/contract/list-query.ts';
import { transactionListSpec } from '../../src/contract/transactions.ts';

const parse = (params: Record<string, string>) => parseListQuery(params, transactionListSpec);
const errorsOf = (params: Record<string, string>) => {
  const result = parse(params);
  return result.ok ? [] : result.errors;
};

describe('the filter syntax', () => {
  it.each<[string, FilterClause[]]>([
    ['[eq]paid', [{ operator: 'eq', value: 'paid' }]],
    [
      '[gte]10[and][lte]20.5',
      [
        { operator: 'gte', value: '10' },
        { operator: 'lte', value: '20.5' },
      ],
    ],
    ['[eq][eq]x', [{ operator: 'eq', value: '[eq]x' }]],
    ['[eq]', [{ operator: 'eq', value: '' }]],
  ])('parses %s', (raw, clauses) => {
    expect(parseFilter(raw)).toEqual(clauses);
  });

  it.each(['paid', '[lt]5', '[EQ]paid', '[eq]a[and]b', '[and]', '', 'x'.repeat(513)])('refuses %j', (raw) => {
    expect(typeof parseFilter(raw)).toBe('string');
  });

  it('round-trips any clauses whose values do not contain the separator', () => {
    const clause = fc.record({
      operator: fc.constantFrom<'eq' | 'gte' | 'lte'>('eq', 'gte', 'lte'),
      value: fc.string({ maxLength: 30 }).filter((value) => !value.includes('[and]')),
    });
    fc.assert(
      fc.property(fc.array(clause, { minLength: 1, maxLength: 5 }), (clauses) => {
        expect(parseFilter(encodeFilter(clauses))).toEqual(clauses);
      }),
    );
  });

  it('never throws on hostile input, and answers clauses or a reason', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 600 }), (raw) => {
        const parsed = parseFilter(raw);
        expect(typeof parsed === 'string' || Array.isArray(parsed)).toBe(true);
      }),
    );
    fc.assert(
      fc.property(fc.dictionary(fc.string({ maxLength: 20 }), fc.string({ maxLength: 80 })), (params) => {
        const result = parse(params);
        expect(typeof result.ok).toBe('boolean');
      }),
    );
  });
});

describe('the transactions list query', () => {
  it('reads paging, ordering and declared filters, with values in their declared spelling', () => {
    const result = parse({
      pagenumber: '3',
      PageSize: '50',
      OrderingField: 'Amount',
      OrderingDirection: 'Descending',
      status: '[eq]PAID[and][eq]declined',
      channel: '[eq]chp',
      paymentmethod: '[eq]applepay',
      date: '[gte]2026-11-01T00:00:00',
    });
    expect(result).toEqual({
      ok: true,
      query: {
        pageNumber: 3,
        pageSize: 50,
        sort: [{ field: 'amount', descending: true }],
        filters: {
          status: [
            { operator: 'eq', value: 'paid' },
            { operator: 'eq', value: 'declined' },
          ],
          channel: [{ operator: 'eq', value: 'Chp' }],
          paymentmethod: [{ operator: 'eq', value: 'applePay' }],
          date: [{ operator: 'gte', value: '2026-11-01T00:00:00' }],
        },
      },
    });
  });

  it('defaults to page 1 of 25, newest first', () => {
    expect(parse({})).toEqual({ ok: true, query: { pageNumber: 1, pageSize: 25, sort: [{ field: 'date', descending: true }], filters: {} } });
  });

  it.each([
    [{ colour: '[eq]red' }, "'colour' is not a filter of this list"],
    [{ constructor: '[eq]x' }, "'constructor' is not a filter of this list"],
    [{ status: '[gte]paid' }, 'filter status does not accept [gte]; use [eq]'],
    [{ status: '[eq]lost' }, "filter status 'lost' is not one of"],
    [{ amount: '[eq]12,50' }, "filter amount '12,50' is not a number"],
    [{ date: '[gte]yesterday' }, "filter date 'yesterday' is not an ISO date"],
    [{ date: '[eq]2026-11-01' }, 'filter date does not accept [eq]'],
    [{ currency: '[eq]POUNDS' }, 'not a three-letter currency code'],
    [{ searchterm: '[eq]a\u0000b' }, 'printable characters'],
    [{ searchterm: `[eq]${'x'.repeat(101)}` }, 'printable characters'],
    [{ OrderingField: 'customerEmail' }, "OrderingField 'customerEmail' is not sortable"],
    [{ OrderingField: 'date', OrderingDirection: 'down' }, "OrderingDirection 'down' must be Ascending or Descending"],
    [{ OrderingDirection: 'Ascending' }, 'OrderingDirection needs an OrderingField'],
    [{ sort: '-date' }, "'sort' is not a parameter of this list; use OrderingField and OrderingDirection"],
    [{ pagesize: '1000' }, "pagesize '1000' must be one of 10, 25, 50, 100"],
    [{ pagenumber: '0' }, "pagenumber '0' must be a whole number of at least 1"],
  ])('refuses %j naming the problem', (params, message) => {
    expect(errorsOf(params).join(' | ')).toContain(message);
  });

  it('treats prototype names as the undeclared filters they are', () => {
    for (const name of ['__proto__', 'hasOwnProperty', 'toString']) {
      expect(errorsOf(Object.fromEntries([[name, '[eq]x']]))).toEqual([`'${name}' is not a filter of this list`]);
    }
  });

  it('names every problem at once', () => {
    expect(errorsOf({ colour: '[eq]red', status: '[eq]lost', pagesize: '7' })).toHaveLength(3);
  });

  it('keeps the sort= convention for lists that use it', () => {
    const spec: ListQuerySpec = { filters: { name: 'string' }, sortable: ['name', 'date'], defaultSort: [{ field: 'name', descending: false }] };
    expect(parseListQuery({ sort: '-date,name' }, spec)).toMatchObject({
      ok: true,
      query: {
        sort: [
          { field: 'date', descending: true },
          { field: 'name', descending: false },
        ],
      },
    });
    expect(parseListQuery({ OrderingField: 'date' }, spec)).toMatchObject({ ok: false });
  });

  it('encodes an ordering as the data layer names it', () => {
    expect(encodeOrdering({ field: 'amount', descending: true })).toEqual({ OrderingField: 'amount', OrderingDirection: 'Descending' });
  });
});
