// en-GB money: currency symbol, 2 decimals (0 for currencies without minor units such as JPY).

const zeroDecimalCurrencies = new Set(['JPY', 'KRW', 'ISK', 'CLP', 'VND', 'XAF', 'XOF', 'UGX']);
const formatters = new Map<string, Intl.NumberFormat>();

export function currencyDecimals(currency: string): number {
  return zeroDecimalCurrencies.has(currency.toUpperCase()) ? 0 : 2;
}

function formatterFor(currency: string): Intl.NumberFormat {
  const code = currency.toUpperCase();
  let formatter = formatters.get(code);
  if (!formatter) {
    const decimals = currencyDecimals(code);
    formatter = new Intl.NumberFormat('en-GB', {
      style: 'currency',
      currency: code,
      currencyDisplay: 'symbol',
      minimumFractionDigits: decimals,
      maximumFractionDigits: decimals,
    });
    formatters.set(code, formatter);
  }
  return formatter;
}

/** formatMoney(1234.5, 'EUR') → '€1,234.50'; null or undefined → 'N/A'. */
export function formatMoney(amount: number | null | undefined, currency = 'GBP'): string {
  if (amount === null || amount === undefined || Number.isNaN(amount)) return 'N/A';
  return formatterFor(currency).format(amount);
}

/** Amounts the API sends in minor units (pence, cents; yen as is). */
export function formatMinorUnits(amountMinor: number | null | undefined, currency = 'GBP'): string {
  if (amountMinor === null || amountMinor === undefined) return 'N/A';
  return formatMoney(amountMinor / 10 ** currencyDecimals(currency), currency);
}

const percentFormatter = new Intl.NumberFormat('en-GB', { style: 'percent', maximumFractionDigits: 2 });

/** formatPercent(0.125) → '12.5%'. */
export function formatPercent(ratio: number | null | undefined): string {
  if (ratio === null || ratio === undefined || Number.isNaN(ratio)) return 'N/A';
  return percentFormatter.format(ratio);
}
