// One month's commission of a plan, transaction by transaction: the fees the plan's monthly row is computed from
// (commissionByMonth, commission-ledger.ts), each with its share of the month's figure (allocateCommission,
// commission.ts), so the shares of a month and currency add up to the monthly row to the minor unit. The month is cut
// to the plan's commission window exactly as the monthly rows are (a plan that starts mid-month earns from its first
// day, the month in progress up to now), each entry placed by its business's local time (partnerFeeEntries), and the volume
// bands read the same volume.
import { sql } from 'drizzle-orm';
import { cardTypeOf } from '../../src/contract/partners.ts';
import { allocateCommission, type CommissionRuleTerms, type TransactionFee } from './commission.ts';
import { factColumns, monthlyVolumes, partnerFeeEntries } from './commission-ledger.ts';
import type { DbWriter } from '../db/client.ts';

type Row = Record<string, unknown>;

export type CommissionTransactionRow = TransactionFee & {
  businessId: string;
  businessName: string;
  merchantId: string;
  valueAt: Date;
  ruleId: string | null;
  commissionMinor: number;
};
export type CommissionMonthTotal = { currency: string; volumeMinor: number; feesMinor: number; transactionCount: number; commissionMinor: number };

/** The month ('YYYY-MM') within the window [from, to), or null when they do not meet. */
export function monthWithin(month: string, window: { from: Date; to: Date }): { from: Date; to: Date } | null {
  const start = new Date(`${month}-01T00:00:00Z`);
  const end = new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + 1, 1));
  const from = new Date(Math.max(start.getTime(), window.from.getTime()));
  const to = new Date(Math.min(end.getTime(), window.to.getTime()));
  return from < to ? { from, to } : null;
}

/** Every fee-bearing transaction of the month (in one currency, or every currency), by currency and reference, with its share. */
export async function commissionTransactionsOfMonth(
  reader: DbWriter,
  partnerId: string,
  rules: readonly CommissionRuleTerms[],
  month: string,
  window: { from: Date; to: Date },
  currency: string | null,
): Promise<{ rows: CommissionTransactionRow[]; totals: CommissionMonthTotal[] }> {
  const span = monthWithin(month, window);
  if (!span) return { rows: [], totals: [] };
  const result =
    await reader.execute(sql`SELECT e.transaction_reference AS reference, e.currency, min(e.value_at) AS value_at, b.id AS business_id, b.name AS business_name,
      t.merchant_id, ${factColumns}, sum(e.amount_minor) AS fee
    ${partnerFeeEntries(partnerId, span.from, span.to)}${currency ? sql` AND e.currency = ${currency}` : sql``}
    GROUP BY 1, 2, 4, 5, 6, 7, 8, 9 ORDER BY 2, 1`);
  const fetched = (result as unknown as { rows: Row[] }).rows;
  const volumes = await monthlyVolumes(reader, partnerId, span.from, span.to);
  const byCurrency = new Map<string, Row[]>();
  for (const row of fetched) byCurrency.set(String(row.currency), [...(byCurrency.get(String(row.currency)) ?? []), row]);
  const rows: CommissionTransactionRow[] = [];
  const totals: CommissionMonthTotal[] = [];
  for (const [code, group] of [...byCurrency.entries()].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const volumeMinor = volumes.get(`${month}|${code}`) ?? 0;
    const fees: TransactionFee[] = group.map((row) => ({
      reference: String(row.reference),
      currency: code,
      channel: String(row.channel),
      paymentMethod: String(row.payment_method),
      cardType: cardTypeOf(row.card_prefix as string | null),
      feeMinor: Number(row.fee),
    }));
    const shares = allocateCommission(rules, fees, volumeMinor);
    group.forEach((row, index) => {
      const fee = fees[index] as TransactionFee;
      const share = shares[index];
      rows.push({
        ...fee,
        businessId: String(row.business_id),
        businessName: String(row.business_name),
        merchantId: String(row.merchant_id),
        valueAt: new Date(row.value_at as string | Date),
        ruleId: share?.ruleId ?? null,
        commissionMinor: share?.commissionMinor ?? 0,
      });
    });
    totals.push({
      currency: code,
      volumeMinor,
      feesMinor: fees.reduce((sum, fee) => sum + fee.feeMinor, 0),
      transactionCount: fees.length,
      commissionMinor: shares.reduce((sum, share) => sum + share.commissionMinor, 0),
    });
  }
  return { rows, totals };
}
