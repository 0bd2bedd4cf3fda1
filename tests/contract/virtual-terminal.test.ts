// The virtual terminal's pure rules: VAT and totals (property tests: incl/excl round trip within one
// minor unit, excl + VAT = incl exactly, JPY whole units), the Luhn check, card brands and formatting, expiry, the
// amount-as-typed check and the spec's date input messages.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  amountTextProblem,
  cardBrand,
  dateInputProblems,
  expiryProblem,
  formatCardNumber,
  isoDateOf,
  lineAmounts,
  luhnValid,
  orderTotals,
  type LineInput,
} from '../../src/contract/virtual-terminal.ts';

const currencies = ['GBP', 'EUR', 'JPY', 'BHD'] as const;
const exponent = { GBP: 2, EUR: 2, JPY: 0, BHD: 3 } as const;

describe('VAT maths', () => {
  it('entering incl or excl gives back the other within one minor unit', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...currencies),
        fc.integer({ min: 1, max: 10_000_000 }),
        fc.integer({ min: 0, max: 2700 }),
        (currency, minor, rateHundredths) => {
          const vatPercentage = rateHundredths / 100;
          const unitPrice = minor / 10 ** exponent[currency];
          const fromIncl = lineAmounts({ type: 'physicalItem', quantity: 1, unitPrice, priceIncludesVat: true, vatPercentage }, currency);
          expect(fromIncl.unitInclMinor).toBe(minor);
          const back = lineAmounts(
            { type: 'physicalItem', quantity: 1, unitPrice: fromIncl.unitExclMinor / 10 ** exponent[currency], priceIncludesVat: false, vatPercentage },
            currency,
          );
          expect(Math.abs(back.unitInclMinor - minor)).toBeLessThanOrEqual(1);
        },
      ),
    );
  });

  it('totals add up: excl + VAT = incl, the sum of the lines, whole minor units; discounts subtract', () => {
    const line = fc.record({
      type: fc.constantFrom('physicalItem', 'digitalItem', 'shippingCost', 'discount'),
      quantity: fc.integer({ min: 1, max: 99 }),
      unitMinor: fc.integer({ min: 0, max: 1_000_000 }),
      priceIncludesVat: fc.boolean(),
      vatPercentage: fc.constantFrom(0, 5, 7.7, 20, 21),
    });
    fc.assert(
      fc.property(fc.constantFrom(...currencies), fc.array(line, { minLength: 1, maxLength: 8 }), (currency, raw) => {
        const lines: LineInput[] = raw.map(({ unitMinor, ...rest }) => ({ ...rest, unitPrice: unitMinor / 10 ** exponent[currency] }));
        const totals = orderTotals(lines, currency);
        expect(totals.exclMinor + totals.vatMinor).toBe(totals.inclMinor);
        expect(Number.isInteger(totals.inclMinor) && Number.isInteger(totals.exclMinor)).toBe(true);
        const sum = lines.map((l) => lineAmounts(l, currency)).reduce((acc, a) => acc + a.totalInclMinor, 0);
        expect(totals.inclMinor).toBe(sum);
        for (const l of lines) if (l.type === 'discount') expect(lineAmounts(l, currency).totalInclMinor).toBeLessThanOrEqual(0);
      }),
    );
  });

  it('JPY has no decimals: 1000 incl 10 % is 909 excl', () => {
    expect(lineAmounts({ type: 'physicalItem', quantity: 3, unitPrice: 1000, priceIncludesVat: true, vatPercentage: 10 }, 'JPY')).toMatchObject({
      unitInclMinor: 1000,
      unitExclMinor: 909,
      totalInclMinor: 3000,
      totalExclMinor: 2727,
      totalVatMinor: 273,
    });
    expect(amountTextProblem('12.5', 'JPY')).toBe('JPY prices are whole numbers');
    expect(amountTextProblem('1250', 'JPY')).toBeNull();
    expect(amountTextProblem('12.505', 'GBP')).toBe('Enter a price with at most 2 decimals');
    expect(amountTextProblem('12.5', 'GBP')).toBeNull();
    expect(amountTextProblem('abc', 'GBP')).toBe('Enter a price with at most 2 decimals');
    expect(amountTextProblem('', 'GBP')).toBe('Enter a price');
  });
});

describe('cards', () => {
  it('Luhn accepts the published test cards and refuses a changed digit', () => {
    for (const number of ['4111111111111111', '5555555555554444', '4000000000009995', '4000000000003220', '378282246310005'])
      expect(luhnValid(number)).toBe(true);
    expect(luhnValid('4111111111111112')).toBe(false);
    expect(luhnValid('4111 1111')).toBe(false);
    fc.assert(
      fc.property(fc.stringMatching(/^[0-9]{15}$/), fc.integer({ min: 0, max: 14 }), fc.integer({ min: 1, max: 9 }), (body, position, delta) => {
        const check = [...Array(10).keys()].find((digit) => luhnValid(`${body}${digit}`));
        expect(check).toBeDefined();
        const valid = `${body}${check}`;
        const changed = `${valid.slice(0, position)}${(Number(valid[position]) + delta) % 10}${valid.slice(position + 1)}`;
        expect(luhnValid(changed)).toBe(false);
      }),
    );
  });

  it('shows the brand and spaces the number as typed', () => {
    expect(cardBrand('4111')).toBe('Visa');
    expect(cardBrand('5555555555554444')).toBe('Mastercard');
    expect(cardBrand('2223003122003222')).toBe('Mastercard');
    expect(cardBrand('378282246310005')).toBe('American Express');
    expect(cardBrand('9999')).toBeNull();
    expect(formatCardNumber('41111111111')).toBe('4111 1111 111');
    expect(formatCardNumber('378282246310005')).toBe('3782 822463 10005');
    expect(formatCardNumber('4111-1111 1111x1111')).toBe('4111 1111 1111 1111');
  });

  it('checks the expiry against the month', () => {
    const now = new Date('2026-11-25T12:00:00Z');
    expect(expiryProblem('', now)).toBe('Expiry date is required');
    expect(expiryProblem('13/27', now)).toBe('Expiry date must be MM/YY');
    expect(expiryProblem('10/26', now)).toBe('The card has expired');
    expect(expiryProblem('11/26', now)).toBeNull();
    expect(expiryProblem('0130', now)).toBeNull();
  });
});

describe('date input (spec)', () => {
  it('gives the spec messages per part and a date only when real', () => {
    expect(dateInputProblems({ day: '', month: '', year: '' })).toEqual({
      day: 'Date of birth: day is required',
      month: 'Date of birth: month is required',
      year: 'Date of birth: year is required',
    });
    expect(dateInputProblems({ day: '32', month: '13', year: '199' })).toEqual({
      day: 'Date of birth: day must be between 1 and 31',
      month: 'Date of birth: month must be between 1 and 12',
      year: 'Date of birth: year must have at least 4 digits',
    });
    expect(dateInputProblems({ day: '1', month: '1', year: '19845' }).year).toBe('Date of birth: year must have at most 4 digits');
    expect(dateInputProblems({ day: '31', month: '2', year: '1984' })).toEqual({ date: 'Date of birth is not a real date' });
    expect(dateInputProblems({ day: '29', month: '2', year: '1984' })).toEqual({});
    expect(isoDateOf({ day: '9', month: '3', year: '1984' })).toBe('1984-03-09');
    expect(isoDateOf({ day: '29', month: '2', year: '1985' })).toBeNull();
  });
});
