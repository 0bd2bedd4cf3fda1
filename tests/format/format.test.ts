// en-GB display helpers as tables of cases.
import { describe, expect, it } from 'vitest';
import { formatDate, formatDateTime, formatNumericDate, formatShortDate, formatTime, formatTimeWithSeconds } from '../../src/format/dates.ts';
import { formatFileSize } from '../../src/format/file-size.ts';
import { formatMinorUnits, formatMoney, formatPercent } from '../../src/format/money.ts';
import { formatPaymentMethod } from '../../src/format/payment-method.ts';

describe('formatMoney', () => {
  it.each([
    [1234.5, 'GBP', '£1,234.50'],
    [0, 'GBP', '£0.00'],
    [-12.345, 'GBP', '-£12.35'],
    [1234.5, 'EUR', '€1,234.50'],
    [1234.5, 'USD', 'US$1,234.50'],
    [1234.5, 'JPY', 'JP¥1,235'],
    [1000000, 'JPY', 'JP¥1,000,000'],
    [null, 'GBP', 'N/A'],
    [undefined, 'GBP', 'N/A'],
  ] as const)('%s %s → %s', (amount, currency, expected) => {
    expect(formatMoney(amount, currency)).toBe(expected);
  });

  it('defaults to GBP and takes lower-case codes', () => {
    expect(formatMoney(5)).toBe('£5.00');
    expect(formatMoney(5, 'eur')).toBe('€5.00');
  });

  it.each([
    [12345, 'GBP', '£123.45'],
    [500, 'JPY', 'JP¥500'],
    [null, 'EUR', 'N/A'],
  ] as const)('minor units %s %s → %s', (amount, currency, expected) => {
    expect(formatMinorUnits(amount, currency)).toBe(expected);
  });

  it.each([
    [0.125, '12.5%'],
    [1, '100%'],
    [null, 'N/A'],
  ] as const)('percent %s → %s', (ratio, expected) => {
    expect(formatPercent(ratio)).toBe(expected);
  });
});

describe('dates and times', () => {
  const afternoon = new Date(2026, 2, 5, 14, 5, 9);
  it.each([
    [afternoon, '5 March 2026'],
    ['2026-12-31', '31 December 2026'],
    ['2026-01-09T23:59:59', '9 January 2026'],
    [null, 'N/A'],
    [undefined, 'N/A'],
    ['', 'N/A'],
    ['not a date', 'N/A'],
  ] as const)('formatDate(%s) → %s', (value, expected) => {
    expect(formatDate(value)).toBe(expected);
  });

  it.each([
    [formatShortDate, '5 Mar 2026'],
    [formatNumericDate, '05/03/2026'],
    [formatTime, '14:05'],
    [formatTimeWithSeconds, '14:05:09'],
    [formatDateTime, '5 March 2026, 14:05'],
  ] as const)('%o → %s (24-hour)', (format, expected) => {
    expect(format(afternoon)).toBe(expected);
  });

  it('writes midnight and late evening in 24-hour time', () => {
    expect(formatTime(new Date(2026, 0, 1, 0, 0))).toBe('00:00');
    expect(formatTime(new Date(2026, 0, 1, 23, 30))).toBe('23:30');
  });
});

describe('formatFileSize (1024-based)', () => {
  it.each([
    [0, '0 B'],
    [1023, '1,023 B'],
    [1024, '1 KB'],
    [1536, '1.5 KB'],
    [5242880, '5 MB'],
    [1073741824, '1 GB'],
    [1099511627776, '1 TB'],
    [-1, 'N/A'],
    [null, 'N/A'],
    [Number.NaN, 'N/A'],
  ] as const)('%s → %s', (bytes, expected) => {
    expect(formatFileSize(bytes)).toBe(expected);
  });
});

describe('formatPaymentMethod', () => {
  it.each([
    ['Other', 'Wallet'],
    ['other', 'Wallet'],
    ['card', 'Card'],
    ['payPal', 'PayPal'],
    ['ApplePay', 'Apple Pay'],
    ['sepaBanktransfer', 'SEPA bank transfer'],
    ['someNewMethod', 'Some new method'],
    [null, 'N/A'],
  ] as const)('%s → %s', (method, expected) => {
    expect(formatPaymentMethod(method)).toBe(expected);
  });
});
