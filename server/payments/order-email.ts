// What a shopper's email says about the order: each line with its total, then the order's totals excluding VAT,
// the VAT per rate and the total paid. Stored orders keep their lines' unit prices in minor units (signed: a discount
// is negative), so the email adds the same numbers the payment job's detail shows.
import { formatMoney } from '../../src/contract/payment-jobs.ts';

type StoredLine = { description?: string; quantity?: number; unitPriceExclVat?: number; unitPriceInclVat?: number; vatPercentage?: number };

const whole = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) ? Math.round(value) : 0);

/** The order's lines and totals as paragraphs; empty when the order has no lines. */
export function orderSummaryParagraphs(order: unknown, currency: string): string[] {
  const lines = ((order as { orderLines?: unknown } | null)?.orderLines ?? []) as readonly StoredLine[];
  if (!Array.isArray(lines) || lines.length === 0) return [];
  let exclMinor = 0;
  let inclMinor = 0;
  const vatByRate = new Map<number, number>();
  const lineTexts = lines.map((line) => {
    const quantity = whole(line.quantity) || 1;
    const lineIncl = whole(line.unitPriceInclVat) * quantity;
    const lineExcl = whole(line.unitPriceExclVat ?? line.unitPriceInclVat) * quantity;
    exclMinor += lineExcl;
    inclMinor += lineIncl;
    const rate = typeof line.vatPercentage === 'number' ? line.vatPercentage : 0;
    vatByRate.set(rate, (vatByRate.get(rate) ?? 0) + lineIncl - lineExcl);
    return `${quantity} × ${line.description ?? 'Item'}: ${formatMoney(lineIncl, currency)}`;
  });
  const vatTexts = [...vatByRate]
    .filter(([, vat]) => vat !== 0)
    .sort(([a], [b]) => a - b)
    .map(([rate, vat]) => `VAT ${rate}%: ${formatMoney(vat, currency)}`);
  return [lineTexts.join('\n'), [`Total excl. VAT: ${formatMoney(exclMinor, currency)}`, ...vatTexts, `Total: ${formatMoney(inclMinor, currency)}`].join('\n')];
}
