import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  amountClauseBounds,
  type Clause,
  completionsFor,
  dateClauseRange,
  fieldQueryWords,
  fieldValueSets,
  formatQuery,
  parseQuery,
  relativeDates,
  type SearchQuery,
  unusedWordsMessage,
} from '../../src/contract/search-query.ts';
import { cardFilterOf } from '../../src/contract/transactions.ts';

const fields = (text: string) => parseQuery(text).query.clauses;

describe('the search query parser', () => {
  it('reads the issue’s example', () => {
    const parsed = parseQuery('status:paid amount:>100 currency:eur merchant:"Little Wren" email:jo@ method:CARD date:last-week is:refunded');
    expect(parsed.problems).toEqual([]);
    expect(parsed.query.clauses).toEqual([
      { kind: 'field', field: 'status', op: '=', value: 'paid' },
      { kind: 'field', field: 'amount', op: '>', value: '100' },
      { kind: 'field', field: 'currency', op: '=', value: 'EUR' },
      { kind: 'field', field: 'merchant', op: '=', value: 'Little Wren' },
      { kind: 'field', field: 'email', op: '=', value: 'jo@' },
      { kind: 'field', field: 'method', op: '=', value: 'card' },
      { kind: 'field', field: 'date', op: '=', value: 'last-week' },
      { kind: 'field', field: 'is', op: '=', value: 'refunded' },
    ]);
  });
  it('keeps free words, quoted phrases and escapes', () => {
    expect(fields('TX6DE23E "Little \\"Wren\\"" 10:30')).toEqual([
      { kind: 'word', text: 'TX6DE23E' },
      { kind: 'word', text: 'Little "Wren"' },
      { kind: 'word', text: '10:30' },
    ]);
  });
  it('reads comparisons and ranges on amounts and dates', () => {
    expect(fields('amount:50..100 amount:<=20.5 date:2026-01-01..2026-01-31 date:>=2026-02-01')).toEqual([
      { kind: 'field', field: 'amount', op: '..', value: '50', to: '100' },
      { kind: 'field', field: 'amount', op: '<=', value: '20.5' },
      { kind: 'field', field: 'date', op: '..', value: '2026-01-01', to: '2026-01-31' },
      { kind: 'field', field: 'date', op: '>=', value: '2026-02-01' },
    ]);
  });
  it.each([
    ['colour:red', 0, 10, "'colour' is not a field"],
    ['status:payed', 0, 12, "status: 'payed' is not one of"],
    ['amount:>ten', 0, 11, "amount: 'ten' is not an amount"],
    ['currency:EURO', 0, 13, 'three-letter'],
    ['date:2026-02-30', 0, 15, 'is not a date'],
    ['date:>today', 0, 11, 'is a period'],
    ['status:>paid', 0, 12, 'takes no comparison'],
    ['amount:10..', 0, 11, 'a range is written from..to'],
    ['x merchant:"Little', 2, 18, 'A quote is not closed'],
    ['status:', 0, 7, 'needs a value'],
  ])('explains %s where it is', (text, start, end, message) => {
    const [problem] = parseQuery(text).problems;
    expect(problem).toMatchObject({ start, end });
    expect(problem?.message).toContain(message);
  });
  it('keeps the valid clauses around a problem', () => {
    const parsed = parseQuery('status:paid colour:red TX6D');
    expect(parsed.query.clauses).toEqual([
      { kind: 'field', field: 'status', op: '=', value: 'paid' },
      { kind: 'word', text: 'TX6D' },
    ]);
    expect(parsed.problems).toHaveLength(1);
  });
});

describe('a card as a caller reads it out', () => {
  it('reads 4 digits alone as the last four and 6 as the first six, with other fields', () => {
    expect(fields('5100 date:yesterday')).toEqual([
      { kind: 'field', field: 'last4', op: '=', value: '5100' },
      { kind: 'field', field: 'date', op: '=', value: 'yesterday' },
    ]);
    expect(fields('510510')).toEqual([{ kind: 'field', field: 'bin', op: '=', value: '510510' }]);
    expect(parseQuery('5100 date:yesterday').problems).toEqual([]);
  });
  it('leaves other digits, and quoted ones, as words', () => {
    expect(fields('510 51051 5105105 "5100"')).toEqual([
      { kind: 'word', text: '510' },
      { kind: 'word', text: '51051' },
      { kind: 'word', text: '5105105' },
      { kind: 'word', text: '5100' },
    ]);
  });
  it('takes last4:, bin: and card: in the field syntax', () => {
    expect(fields('last4:4242 bin:424242')).toEqual([
      { kind: 'field', field: 'last4', op: '=', value: '4242' },
      { kind: 'field', field: 'bin', op: '=', value: '424242' },
    ]);
    for (const text of ['card:4242', 'card:…4242', 'card:...4242', 'card:******4242'])
      expect(fields(text)).toEqual([{ kind: 'field', field: 'last4', op: '=', value: '4242' }]);
    expect(fields('card:424242…')).toEqual([{ kind: 'field', field: 'bin', op: '=', value: '424242' }]);
    expect(fields('card:424242******4242')).toEqual([
      { kind: 'field', field: 'bin', op: '=', value: '424242' },
      { kind: 'field', field: 'last4', op: '=', value: '4242' },
    ]);
    // The canonical spelling is last4: and bin:, and it reads back the same.
    expect(formatQuery(parseQuery('card:424242…4242 5100').query)).toBe('bin:424242 last4:4242 last4:5100');
  });
  it.each([
    ['last4:42', "last4: '42' is not the card’s last four digits"],
    ['last4:4242424242424242', 'is not the card’s last four digits'],
    ['bin:4242', "bin: '4242' is not the card’s first six digits"],
    ['card:4242424242424242', "card: '4242424242424242' is not a card as masked"],
    ['card:>4242', 'is not a card as masked'],
    ['last4:>4242', 'takes no comparison'],
  ])('explains %s', (text, message) => {
    const parsed = parseQuery(text);
    expect(parsed.query.clauses).toEqual([]);
    expect(parsed.problems[0]?.message).toContain(message);
  });
  it('completes last4: and bin:', () => {
    expect(completionsFor('las').map((c) => c.label)).toEqual(['last4:']);
    expect(completionsFor('status:paid bi').map((c) => c.text)).toEqual(['status:paid bin:']);
  });
  it('reads the overview’s Card field the same way', () => {
    expect(cardFilterOf('4242')).toEqual({ last4: '4242' });
    expect(cardFilterOf('424242')).toEqual({ bin: '424242' });
    expect(cardFilterOf('424242******4242')).toEqual({ bin: '424242', last4: '4242' });
    expect(cardFilterOf(' …4242 ')).toEqual({ last4: '4242' });
    expect(cardFilterOf('')).toBeNull();
    expect(cardFilterOf('42')).toHaveProperty('problem');
    expect(cardFilterOf('4242424242424242')).toHaveProperty('problem');
  });
});

describe('what a field query cannot use is reported, not dropped', () => {
  it('reports an unknown field where it is and keeps the rest', () => {
    const parsed = parseQuery('status:paid colour:red 5100');
    expect(parsed.problems).toEqual([expect.objectContaining({ start: 12, end: 22, message: expect.stringContaining("'colour' is not a field") })]);
    expect(parsed.query.clauses).toEqual([
      { kind: 'field', field: 'status', op: '=', value: 'paid' },
      { kind: 'field', field: 'last4', op: '=', value: '5100' },
    ]);
  });
  it('uses one reference-like word (else one email) beside fields and names the other words', () => {
    expect(fieldQueryWords(parseQuery('status:paid TX6D hello jo@x.test').query)).toEqual({ term: 'TX6D', unused: ['hello', 'jo@x.test'] });
    expect(fieldQueryWords(parseQuery('status:paid hi jo@x.test').query)).toEqual({ term: 'jo@x.test', unused: ['hi'] });
    expect(fieldQueryWords(parseQuery('status:paid').query)).toEqual({ term: null, unused: [] });
    expect(unusedWordsMessage(['hi'])).toMatch(/^'hi' is not used/);
    expect(unusedWordsMessage(['hi', 'yo'])).toMatch(/^'hi', 'yo' are not used/);
  });
});

describe('relative dates and amount bounds', () => {
  const range = (text: string, today = '2026-11-25') => {
    const [clause] = fields(text);
    if (clause?.kind !== 'field') throw new Error(text);
    return dateClauseRange(clause, today);
  };
  it.each([
    ['date:today', '2026-11-25', '2026-11-25'],
    ['date:yesterday', '2026-11-24', '2026-11-24'],
    ['date:this-week', '2026-11-23', '2026-11-25'],
    ['date:last-week', '2026-11-16', '2026-11-22'],
    ['date:this-month', '2026-11-01', '2026-11-25'],
    ['date:last-month', '2026-10-01', '2026-10-31'],
    ['date:last-year', '2025-01-01', '2025-12-31'],
    ['date:last-7-days', '2026-11-19', '2026-11-25'],
    ['date:>2026-11-01', '2026-11-02', null],
    ['date:<2026-11-01', null, '2026-10-31'],
  ])('%s covers %s to %s', (text, start, end) => {
    expect(range(text)).toEqual({ start, end });
  });
  it('last-month in March spans February', () => {
    expect(range('date:last-month', '2028-03-31')).toEqual({ start: '2028-02-01', end: '2028-02-29' });
  });
  it('turns strict amount comparisons into inclusive bounds on the thousandths scale', () => {
    const bounds = (text: string) => amountClauseBounds(fields(text)[0] as Extract<Clause, { kind: 'field' }>);
    expect(bounds('amount:>100')).toEqual({ min: '100.001', max: null });
    expect(bounds('amount:<50')).toEqual({ min: null, max: '49.999' });
    expect(bounds('amount:12.5')).toEqual({ min: '12.5', max: '12.5' });
  });
});

describe('completion', () => {
  it('completes field names, then values', () => {
    expect(completionsFor('paid sta').map((c) => c.text)).toEqual(['paid status:']);
    expect(completionsFor('status:pa').map((c) => c.label)).toEqual(['status:paid']);
    expect(completionsFor('date:last-').map((c) => c.label)).toContain('date:last-month');
    expect(completionsFor('merchant:li', { merchants: ['Little Wren', 'Big Oak'] }).map((c) => c.text)).toEqual(['merchant:"Little Wren" ']);
    expect(completionsFor('currency:e', { currencies: ['EUR', 'GBP'] }).map((c) => c.label)).toEqual(['currency:EUR']);
  });
});

// ---------------------------------------------------------------------------------------------------
// Property: every formatted query parses back to itself

const printable = fc.string({ unit: fc.constantFrom(...'abcXYZ019 -_.@:"\\<>=é'.split('')), minLength: 1, maxLength: 12 });
const amount = fc
  .tuple(fc.integer({ min: 0, max: 999_999 }), fc.option(fc.integer({ min: 0, max: 999 }), { nil: undefined }))
  .map(([whole, fraction]) => (fraction === undefined ? String(whole) : `${whole}.${String(fraction).padStart(3, '0').replace(/0+$/, '') || '5'}`));
const isoDate = fc
  .date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2099-12-31T00:00:00Z'), noInvalidDate: true })
  .map((date) => date.toISOString().slice(0, 10));
const relative = fc.oneof(
  fc.constantFrom(...relativeDates),
  fc.integer({ min: 1, max: 366 }).map((days) => `last-${days}-days`),
);
const compare = fc.constantFrom('=', '>', '>=', '<', '<=' as const);
const oneOf = (field: 'status' | 'method' | 'channel' | 'is' | 'in') =>
  fc.constantFrom(...(fieldValueSets[field] ?? [])).map((value): Clause => ({ kind: 'field', field, op: '=', value }));

const clause: fc.Arbitrary<Clause> = fc.oneof(
  printable.filter((text) => text.trim() !== '').map((text): Clause => ({ kind: 'word', text })),
  oneOf('status'),
  oneOf('method'),
  oneOf('channel'),
  oneOf('is'),
  oneOf('in'),
  fc.tuple(compare, amount).map(([op, value]): Clause => ({ kind: 'field', field: 'amount', op, value })),
  fc.tuple(amount, amount).map(([value, to]): Clause => ({ kind: 'field', field: 'amount', op: '..', value, to })),
  fc.tuple(compare, isoDate).map(([op, value]): Clause => ({ kind: 'field', field: 'date', op, value })),
  fc.tuple(isoDate, isoDate).map(([value, to]): Clause => ({ kind: 'field', field: 'date', op: '..', value, to })),
  relative.map((value): Clause => ({ kind: 'field', field: 'date', op: '=', value })),
  fc.stringMatching(/^[A-Z]{3}$/).map((value): Clause => ({ kind: 'field', field: 'currency', op: '=', value })),
  fc.constantFrom('merchant', 'email', 'order' as const).chain((field) => printable.map((value): Clause => ({ kind: 'field', field, op: '=', value }))),
  fc.stringMatching(/^\d{4}$/).map((value): Clause => ({ kind: 'field', field: 'last4', op: '=', value })),
  fc.stringMatching(/^\d{6}$/).map((value): Clause => ({ kind: 'field', field: 'bin', op: '=', value })),
  // Words of digits alone read as a card unless quoted: formatting must quote them.
  fc.stringMatching(/^(\d{4}|\d{6})$/).map((text): Clause => ({ kind: 'word', text })),
);

describe('format and parse (property)', () => {
  it('every formatted query parses back to itself, without problems', () => {
    fc.assert(
      fc.property(fc.array(clause, { maxLength: 8 }), (clauses) => {
        const query: SearchQuery = { clauses };
        const parsed = parseQuery(formatQuery(query));
        expect(parsed.problems).toEqual([]);
        expect(parsed.query).toEqual(query);
      }),
      { numRuns: 2000, seed: 23 },
    );
  });
  it('formatting is canonical: format ∘ parse is idempotent on any text', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 40 }), (text) => {
        const once = formatQuery(parseQuery(text).query);
        expect(formatQuery(parseQuery(once).query)).toBe(once);
      }),
      { numRuns: 2000, seed: 25 },
    );
  });
});
