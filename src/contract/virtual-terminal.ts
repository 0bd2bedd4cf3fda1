// The virtual terminal: MOTO order entry and its settings. Pure rules both the
// server (enforcement) and the order form (live totals, messages) read; the arktype schemas are in
// virtual-terminal-schemas.ts so a screen that needs only these does not build them.
import { currencyExponent } from './transactions.ts';

export const maxMerchantReferenceLength = 80;
/** A merchant reference used again within this window asks before charging again. */
export const duplicateReferenceWindowMs = 24 * 60 * 60 * 1000;
export const maxOrderLines = 50;
export const maxQuantity = 9999;
export const maxSavedCardLimit = 20;
/** A payment link sent instead of taking the card: valid 24 hours by default, at most 30 days. */
export const defaultPaymentLinkValidityHours = 24;
export const maxPaymentLinkValidityHours = 720;
export const savedCardLimitMessage = 'Sorry! You have reached your Saved Card Limit. Delete an older card to make room for a new card.';
export const emailRequiredMessage = 'With order confirmation emails on, every order needs a valid email address.';

/** Line types that lower the order total (entered as positive prices). */
export const negativeLineTypes: readonly string[] = ['discount', 'giftCard', 'shopCredit'];

export type VirtualTerminalSettings = {
  configurationId: string;
  defaultCurrency: string | null;
  orderConfirmationEmails: boolean;
  savedCardsAllowed: boolean;
  savedCardLimit: number;
  defaultOrderLineType: string;
  askShippingAddress: boolean;
  /** the configuration's shared version */
  version: number;
  /** currencies the configuration offers for cards */
  currencies: string[];
  /** the configuration's switch: off, the terminal takes no orders (the settings stay editable) */
  virtualTerminalMenuEnabled: boolean;
};

export const defaultVirtualTerminalSettings = {
  defaultCurrency: null,
  orderConfirmationEmails: false,
  savedCardsAllowed: true,
  savedCardLimit: 5,
  defaultOrderLineType: 'physicalItem',
  askShippingAddress: true,
} as const;

// ---------------------------------------------------------------------------------------------------
// Money: VAT and totals in minor units

export const toMinor = (amount: number, currency: string) => Math.round(amount * 10 ** currencyExponent(currency));

/** Whether a typed amount has at most the currency's decimals ('12.5' GBP yes, '12.5' JPY no). */
export function amountTextProblem(text: string, currency: string): string | null {
  const trimmed = text.trim();
  if (trimmed === '') return 'Enter a price';
  const exponent = currencyExponent(currency);
  const pattern = exponent === 0 ? /^\d{1,9}$/ : new RegExp(`^\\d{1,9}(\\.\\d{1,${exponent}})?$`);
  if (!pattern.test(trimmed)) return exponent === 0 ? `${currency} prices are whole numbers` : `Enter a price with at most ${exponent} decimals`;
  return null;
}

export type LineInput = { type: string; quantity: number; unitPrice: number; priceIncludesVat: boolean; vatPercentage: number };
export type LineAmounts = { unitInclMinor: number; unitExclMinor: number; totalInclMinor: number; totalExclMinor: number; totalVatMinor: number; sign: 1 | -1 };

/** One line's unit prices (the entered one exact, the other computed) and totals; discounts count negatively. */
export function lineAmounts(line: LineInput, currency: string): LineAmounts {
  const entered = toMinor(line.unitPrice, currency);
  const factor = 1 + line.vatPercentage / 100;
  const unitInclMinor = line.priceIncludesVat ? entered : Math.round(entered * factor);
  const unitExclMinor = line.priceIncludesVat ? Math.round(entered / factor) : entered;
  const sign = negativeLineTypes.includes(line.type) ? -1 : 1;
  const totalInclMinor = sign * unitInclMinor * line.quantity;
  const totalExclMinor = sign * unitExclMinor * line.quantity;
  return { unitInclMinor, unitExclMinor, totalInclMinor, totalExclMinor, totalVatMinor: totalInclMinor - totalExclMinor, sign };
}

export type OrderTotals = { exclMinor: number; vatMinor: number; inclMinor: number };

/** The order's totals: the sum of the lines, so excl + VAT = incl exactly. */
export function orderTotals(lines: readonly LineInput[], currency: string): OrderTotals {
  let exclMinor = 0;
  let inclMinor = 0;
  for (const line of lines) {
    const amounts = lineAmounts(line, currency);
    exclMinor += amounts.totalExclMinor;
    inclMinor += amounts.totalInclMinor;
  }
  return { exclMinor, vatMinor: inclMinor - exclMinor, inclMinor };
}

// ---------------------------------------------------------------------------------------------------
// Cards

export function luhnValid(digits: string): boolean {
  if (!/^[0-9]+$/.test(digits)) return false;
  let sum = 0;
  for (let index = 0; index < digits.length; index += 1) {
    let digit = Number(digits[digits.length - 1 - index]);
    if (index % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

export const cardDigits = (typed: string) => typed.replace(/[\s-]/g, '');

export type CardBrand = 'Visa' | 'Mastercard' | 'American Express' | 'Discover' | 'JCB' | 'Maestro' | null;
export function cardBrand(digits: string): CardBrand {
  if (/^4/.test(digits)) return 'Visa';
  if (/^(5[1-5]|2(2[2-9][1-9]|2[3-9]|[3-6]|7[01]|720))/.test(digits)) return 'Mastercard';
  if (/^3[47]/.test(digits)) return 'American Express';
  if (/^(6011|65|64[4-9])/.test(digits)) return 'Discover';
  if (/^35(2[89]|[3-8])/.test(digits)) return 'JCB';
  if (/^(50|5[6-9]|6[0-9])/.test(digits)) return 'Maestro';
  return null;
}

/** '4111111111111111' → '4111 1111 1111 1111' (Amex 4-6-5), as the agent types. */
export function formatCardNumber(typed: string): string {
  const digits = cardDigits(typed).replace(/\D/g, '').slice(0, 19);
  if (/^3[47]/.test(digits)) return [digits.slice(0, 4), digits.slice(4, 10), digits.slice(10, 15)].filter(Boolean).join(' ');
  return digits.replace(/(.{4})/g, '$1 ').trim();
}

export type ExpiryProblem = 'Expiry date is required' | 'Expiry date must be MM/YY' | 'The card has expired' | null;
export function expiryOf(text: string): { month: number; year: number } | null {
  const match = /^(0[1-9]|1[0-2])\s*\/?\s*([0-9]{2})$/.exec(text.trim());
  return match ? { month: Number(match[1]), year: 2000 + Number(match[2]) } : null;
}
export function expiryProblem(text: string, now: Date): ExpiryProblem {
  if (text.trim() === '') return 'Expiry date is required';
  const expiry = expiryOf(text);
  if (!expiry) return 'Expiry date must be MM/YY';
  return Date.UTC(expiry.year, expiry.month, 1) <= now.getTime() ? 'The card has expired' : null;
}

/** The demo acquirer's answer for a number it does not know (server/payments/demo-acquirer.ts decides every test card). */
export const unknownCardDeclineReason = 'Card not accepted: this demo acquirer approves only the published test cards';

export type DateOfBirthParts = { day: string; month: string; year: string };
/**
 * The spec's date input: day required 1–31, month required (1–12), year required, exactly four digits. The first
 * problem per part, worded as the spec's messages; a date is emitted only when valid and real.
 */
export function dateInputProblems(parts: DateOfBirthParts, label = 'Date of birth'): { day?: string; month?: string; year?: string; date?: string } {
  const problems: { day?: string; month?: string; year?: string; date?: string } = {};
  const part = (value: string, name: 'day' | 'month', min: number, max: number) => {
    if (value.trim() === '') problems[name] = `${label}: ${name} is required`;
    else if (!/^\d{1,2}$/.test(value.trim()) || Number(value) < min || Number(value) > max)
      problems[name] = `${label}: ${name} must be between ${min} and ${max}`;
  };
  part(parts.day, 'day', 1, 31);
  part(parts.month, 'month', 1, 12);
  if (parts.year.trim() === '') problems.year = `${label}: year is required`;
  else if (!/^\d+$/.test(parts.year.trim())) problems.year = `${label}: year must be digits`;
  else if (parts.year.trim().length < 4) problems.year = `${label}: year must have at least 4 digits`;
  else if (parts.year.trim().length > 4) problems.year = `${label}: year must have at most 4 digits`;
  if (!problems.day && !problems.month && !problems.year && !isoDateOf(parts)) problems.date = `${label} is not a real date`;
  return problems;
}
export function isoDateOf(parts: DateOfBirthParts): string | null {
  const day = Number(parts.day);
  const month = Number(parts.month);
  const year = Number(parts.year);
  if (!/^\d{4}$/.test(parts.year.trim())) return null;
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return null;
  return date.toISOString().slice(0, 10);
}
