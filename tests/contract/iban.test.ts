// The IBAN check (ISO 13616 mod-97) and BIC format: known good and bad IBANs, and properties over generated ones.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bicProblem, formatIban, ibanCheckDigits, ibanLengths, ibanProblem, ibanRemainder, normaliseIban } from '../../src/contract/iban.ts';

/** The remainder by BigInt, independently of the piecewise computation under test. */
const bigRemainder = (iban: string) => {
  const rearranged = iban.slice(4) + iban.slice(0, 4);
  const digits = [...rearranged].map((char) => (/[A-Z]/.test(char) ? String(char.charCodeAt(0) - 55) : char)).join('');
  return Number(BigInt(digits) % 97n);
};

const countryAndBban = fc
  .constantFrom(...Object.entries(ibanLengths))
  .chain(([country, length]) =>
    fc
      .array(fc.constantFrom(...'0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ'), { minLength: length - 4, maxLength: length - 4 })
      .map((chars) => ({ country, bban: chars.join('') })),
  );

describe('IBAN', () => {
  it.each(['GB82 WEST 1234 5698 7654 32', 'DE89 3704 0044 0532 0130 00', 'FR14 2004 1010 0505 0001 3M02 606', 'NL91ABNA0417164300', 'gb29nwbk60161331926819'])(
    'accepts %s',
    (iban) => {
      expect(ibanProblem(iban)).toBeNull();
    },
  );

  it.each([
    ['GB82 WEST 1234 5698 7654 33', 'check digits'],
    ['GB82 WEST 1234 5698 7654', 'has 22 characters'],
    ['XX82 WEST 1234 5698 7654 32', 'not accepted'],
    ['GB82-WEST', 'two letters'],
  ])('refuses %s (%s)', (iban, why) => {
    expect(ibanProblem(iban)).toContain(why);
  });

  it('makes valid IBANs from any BBAN with the computed check digits, and the remainder agrees with BigInt arithmetic', () => {
    fc.assert(
      fc.property(countryAndBban, ({ country, bban }) => {
        const iban = `${country}${ibanCheckDigits(country, bban)}${bban}`;
        expect(ibanProblem(iban)).toBeNull();
        expect(ibanRemainder(iban)).toBe(bigRemainder(iban));
        expect(ibanProblem(formatIban(iban).toLowerCase())).toBeNull();
        expect(normaliseIban(formatIban(iban))).toBe(iban);
      }),
      { numRuns: 500 },
    );
  });

  it('catches every single-character substitution and every adjacent transposition of different characters', () => {
    fc.assert(
      fc.property(countryAndBban, fc.nat(), fc.constantFrom(...'0123456789'), ({ country, bban }, at, replacement) => {
        const iban = `${country}${ibanCheckDigits(country, bban)}${bban}`;
        const position = 2 + (at % (iban.length - 2));
        if (iban[position] !== replacement && /[0-9]/.test(iban[position] ?? '')) {
          const substituted = iban.slice(0, position) + replacement + iban.slice(position + 1);
          expect(ibanProblem(substituted)).not.toBeNull();
        }
        const swap = 4 + (at % (iban.length - 5));
        const left = iban[swap] ?? '';
        const right = iban[swap + 1] ?? '';
        if (left !== right && /[0-9]/.test(left) && /[0-9]/.test(right)) {
          expect(ibanProblem(iban.slice(0, swap) + right + left + iban.slice(swap + 2))).not.toBeNull();
        }
      }),
      { numRuns: 500 },
    );
  });
});

describe('BIC', () => {
  it.each(['NWBKGB2L', 'COBADEFFXXX', 'deutdeff500'])('accepts %s', (bic) => expect(bicProblem(bic)).toBeNull());
  it.each(['NWBKGB2', 'NWBK1B2L', 'COBADEFFXX', 'COBA DE FF'])('refuses %s', (bic) => expect(bicProblem(bic)).not.toBeNull());
});
