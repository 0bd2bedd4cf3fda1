// The breakdown of a period by merchant, payment method or status (the dashboard's table under the chart).
// The statistics store keeps measures per merchant and quarter hour, not per payment method or status, so this reads
// the period's payments of the scope and currency (the (scope, created_at) indexes) with their paid refunds, and
// applies the rules of definition.ts in SQL: a paid payment adds one sale and what was captured of it (its amount, or
// its paid captures when captured in parts) to volume and revenue; a declined or failed one its amount to both
// unsuccessful measures; a paid refund or chargeback takes its amount off its payment's revenue, in its payment's
// row, whenever it was made (the breakdown is by payment date). The rows therefore add up to sumPerBucket's totals for the same
// period (the dashboard API test holds them together).
import { sql } from 'drizzle-orm';
import type { BreakdownDimension, BreakdownRow } from '../../src/contract/dashboard.ts';
import { moneyBackKindsSql } from '../../src/contract/transactions.ts';
import { merchants, transactions } from '../db/schema.ts';
import { paidStatus, unsuccessfulStatuses } from './definition.ts';
import { scopeCondition, type StatsScope } from './read-stats.ts';
import type { DbWriter } from '../db/client.ts';

const timestamp = (date: Date) => sql`${date.toISOString()}::timestamptz`;

export async function breakdownOf(
  reader: DbWriter,
  scope: StatsScope,
  currency: string,
  start: Date,
  end: Date,
  by: BreakdownDimension,
): Promise<BreakdownRow[]> {
  const t = transactions;
  const dimension = by === 'merchant' ? sql`p.merchant_id` : by === 'paymentMethod' ? sql`p.payment_method` : sql`p.status`;
  const unsuccessful = sql.join(
    unsuccessfulStatuses.map((status) => sql`${status}`),
    sql`, `,
  );
  const query = sql`WITH p AS (
      SELECT ${t.reference} AS reference, ${t.merchantId} AS merchant_id, ${t.paymentMethod} AS payment_method, ${t.status} AS status, ${t.amountMinor} AS amount
      FROM ${t}
      WHERE ${scopeCondition(t, scope)} AND ${t.currency} = ${currency} AND ${t.kind} = 'payment'
        AND ${t.createdAt} >= ${timestamp(start)} AND ${t.createdAt} < ${timestamp(end)}
    ), r AS (
      SELECT ${t.parentReference} AS reference, sum(${t.amountMinor}) AS refunded
      FROM ${t}
      WHERE ${t.kind} IN (${sql.raw(moneyBackKindsSql)}) AND ${t.status} = ${paidStatus} AND ${t.parentReference} IN (SELECT reference FROM p)
      GROUP BY 1
    ), c AS (
      SELECT ${t.parentReference} AS reference, coalesce(sum(${t.amountMinor}) FILTER (WHERE ${t.status} = ${paidStatus}), 0) AS captured
      FROM ${t}
      WHERE ${t.kind} = 'capture' AND ${t.parentReference} IN (SELECT reference FROM p)
      GROUP BY 1
    )
    SELECT ${dimension} AS key,
      coalesce(sum(CASE WHEN c.reference IS NOT NULL THEN c.captured WHEN p.status = ${paidStatus} THEN p.amount END), 0) AS volume,
      coalesce(sum(CASE WHEN c.reference IS NOT NULL THEN c.captured WHEN p.status = ${paidStatus} THEN p.amount END), 0) - coalesce(sum(r.refunded), 0) AS revenue,
      coalesce(sum(CASE WHEN p.status IN (${unsuccessful}) THEN p.amount END), 0) AS unsuccessful,
      count(*) FILTER (WHERE p.status = ${paidStatus}) AS sales,
      count(*) AS n
    FROM p LEFT JOIN r ON r.reference = p.reference LEFT JOIN c ON c.reference = p.reference
    GROUP BY 1`;
  const rows = ((await reader.execute(query)) as unknown as { rows: Record<string, unknown>[] }).rows;
  const names = new Map<string, string>();
  if (by === 'merchant' && rows.length > 0) {
    const ids = rows.map((row) => String(row.key));
    const found = (await reader.execute(sql`SELECT ${merchants.id} AS id, ${merchants.name} AS name FROM ${merchants}
      WHERE ${merchants.id} IN (${sql.join(
        ids.map((id) => sql`${id}`),
        sql`, `,
      )})`)) as unknown as { rows: { id: string; name: string }[] };
    for (const row of found.rows) names.set(String(row.id), String(row.name));
  }
  return rows
    .map((row): BreakdownRow => {
      const key = String(row.key);
      const unsuccessfulAmount = Number(row.unsuccessful ?? 0);
      return {
        key,
        label: names.get(key) ?? key,
        volume: Number(row.volume ?? 0),
        revenue: Number(row.revenue ?? 0),
        unsuccessfulVolume: unsuccessfulAmount,
        unsuccessfulRevenue: unsuccessfulAmount,
        salesCount: Number(row.sales ?? 0),
        count: Number(row.n ?? 0),
      };
    })
    .sort((a, b) => b.volume - a.volume || b.count - a.count || a.label.localeCompare(b.label, 'en-GB'));
}
