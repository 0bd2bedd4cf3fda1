// IBAN (ISO 13616) and BIC (ISO 9362) checks, pure: the server refuses what fails them and the form says so early.

/** IBAN lengths of the countries in the SEPA area and the usual payout corridors (ISO 13616 registry). */
export const ibanLengths: Readonly<Record<string, number>> = {
  AD: 24,
  AE: 23,
  AT: 20,
  BE: 16,
  BG: 22,
  CH: 21,
  CY: 28,
  CZ: 24,
  DE: 22,
  DK: 18,
  EE: 20,
  ES: 24,
  FI: 18,
  FO: 18,
  FR: 27,
  GB: 22,
  GI: 23,
  GL: 18,
  GR: 27,
  HR: 21,
  HU: 28,
  IE: 22,
  IL: 23,
  IS: 26,
  IT: 27,
  LI: 21,
  LT: 20,
  LU: 20,
  LV: 21,
  MC: 27,
  MT: 31,
  NL: 18,
  NO: 15,
  PL: 28,
  PT: 25,
  RO: 24,
  SA: 24,
  SE: 24,
  SI: 19,
  SK: 24,
  SM: 27,
  TR: 26,
  VA: 22,
};

/** Spaces removed, upper-cased: the form an IBAN is stored and compared in. */
export const normaliseIban = (value: string) => value.replace(/\s+/g, '').toUpperCase();

/** The ISO 7064 mod-97-10 remainder of an IBAN's rearranged digits (1 for a valid IBAN), computed piecewise. */
export function ibanRemainder(iban: string): number {
  const rearranged = iban.slice(4) + iban.slice(0, 4);
  let remainder = 0;
  for (const char of rearranged) {
    const code = char.charCodeAt(0);
    const digits = code >= 65 && code <= 90 ? String(code - 55) : char;
    for (const digit of digits) remainder = (remainder * 10 + Number(digit)) % 97;
  }
  return remainder;
}

/** null when valid, else why not (in words a form can show). */
export function ibanProblem(value: string): string | null {
  const iban = normaliseIban(value);
  if (!/^[A-Z]{2}[0-9]{2}[A-Z0-9]{11,30}$/.test(iban)) return 'The IBAN must be two letters, two check digits and up to 30 letters or digits.';
  const expected = ibanLengths[iban.slice(0, 2)];
  if (expected === undefined) return `IBANs of country ${iban.slice(0, 2)} are not accepted.`;
  if (iban.length !== expected) return `An IBAN of ${iban.slice(0, 2)} has ${expected} characters.`;
  if (ibanRemainder(iban) !== 1) return 'The IBAN check digits do not match: please check the IBAN.';
  return null;
}

/** The two check digits that make a country code and a BBAN a valid IBAN. */
export function ibanCheckDigits(country: string, bban: string): string {
  const remainder = ibanRemainder(`${country}00${bban}`);
  return String(98 - remainder).padStart(2, '0');
}

export const bicPattern = /^[A-Z]{4}[A-Z]{2}[A-Z0-9]{2}([A-Z0-9]{3})?$/;

export function bicProblem(value: string): string | null {
  return bicPattern.test(value.trim().toUpperCase()) ? null : 'The BIC must be 8 or 11 characters: bank code, country, location and optional branch.';
}

/** GB33 BUKB 2020 1555 5555 55: groups of four, as printed. */
export const formatIban = (iban: string) =>
  normaliseIban(iban)
    .replace(/(.{4})/g, '$1 ')
    .trim();
