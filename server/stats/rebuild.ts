// Bulk (re)building of the rollups: after a bulk load has filled transaction_stats (the seed's one
// INSERT … SELECT), the hourly and daily tables are summed from it, the declines and the activity view's quarter
// hours from the transactions (activityAggregationSql) and the activity view's hours and days from those. Run it in
// the same transaction as the load; the write path keeps everything current after.
import { sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import {
  transactionActivityStats,
  transactionActivityStatsDaily,
  transactionActivityStatsHourly,
  transactionDeclinesDaily,
  transactionStats,
  transactionStatsDaily,
  transactionStatsHourly,
  transactions,
} from '../db/schema.ts';
import { unsuccessfulStatuses } from './definition.ts';
import type { StatsTable } from './granularity.ts';
import type { DbWriter } from '../db/client.ts';

const names = (columns: readonly AnyPgColumn[]) =>
  sql.join(
    columns.map((column) => sql.identifier(column.name)),
    sql`, `,
  );
const measureColumns = (table: StatsTable) => [table.volume, table.revenue, table.unsuccessfulVolume, table.unsuccessfulRevenue, table.salesCount];

/** INSERT INTO target SELECT … FROM source, grouped by merchant, currency and the bucket truncated to `unit` (UTC). */
function rollUp(target: StatsTable, source: StatsTable, unit: 'hour' | 'day'): SQL {
  const bucket = sql`date_trunc(${unit}, ${source.bucketStart}, 'UTC')`;
  return sql`INSERT INTO ${target} (${names([target.merchantId, target.businessId, target.partnerId, target.currency, target.bucketStart, ...measureColumns(target)])})
    SELECT ${source.merchantId}, min(${source.businessId}), min(${source.partnerId}), ${source.currency}, ${bucket},
      ${sql.join(
        measureColumns(source).map((column) => sql`sum(${column})`),
        sql`, `,
      )}
    FROM ${source}
    GROUP BY 1, 4, 5`;
}

function declinesFromTransactions(): SQL {
  const t = transactions;
  const target = transactionDeclinesDaily;
  const day = sql`date_trunc('day', ${t.createdAt}, 'UTC')`;
  return sql`INSERT INTO ${target} (${names([target.merchantId, target.businessId, target.partnerId, target.currency, target.bucketStart, target.reason, target.declineCount, target.amount])})
    SELECT ${t.merchantId}, min(${t.businessId}), min(${t.partnerId}), ${t.currency}, ${day}, ${t.declineReason}, count(*), sum(${t.amountMinor})
    FROM ${t}
    WHERE ${t.kind} = 'payment' AND ${t.status} IN (${sql.join(
      unsuccessfulStatuses.map((status) => sql`${status}`),
      sql`, `,
    )}) AND ${t.declineReason} IS NOT NULL
    GROUP BY ${t.merchantId}, ${t.currency}, ${day}, ${t.declineReason}`;
}

/**
 * The activity view (definition.ts) of every (merchant, currency, 15-minute UTC bucket), in the column order of the
 * statistics tables: each transaction counts at its own time. A paid payment without capture rows adds its amount
 * and a sale, one captured in parts only the sale; a paid capture adds what it took; a paid refund or chargeback
 * takes its amount off revenue; declined and failed payments are the unsuccessful measures. Children count only under
 * a payment, as in the payment-date view. Buckets whose measures are all zero are left out (the write path makes
 * none either, but may leave some behind when changes cancel out).
 *
 * The parent is a join, not an EXISTS: an EXISTS under OR stays a correlated sub-plan run once per child, and during
 * the seed's bulk load the references have no index yet, so each run scanned the whole table (at 300,000 transactions
 * the statement had not finished after a minute; at 2,000,000, not after 15). A reference is unique, so the join adds
 * no rows.
 */
export const activityAggregationSql = `
SELECT t.merchant_id, min(t.business_id) AS business_id, min(t.partner_id) AS partner_id, t.currency,
  date_bin('15 minutes', t.created_at, TIMESTAMPTZ '2000-01-01T00:00:00Z') AS bucket_start,
  coalesce(sum(t.amount_minor) FILTER (WHERE t.status = 'paid' AND (t.kind = 'capture' OR (t.kind = 'payment' AND c.parent_reference IS NULL))), 0)::bigint AS volume,
  coalesce(sum(CASE WHEN t.status <> 'paid' THEN 0 WHEN t.kind = 'capture' OR (t.kind = 'payment' AND c.parent_reference IS NULL) THEN t.amount_minor
    WHEN t.kind IN ('refund', 'chargeback') THEN -t.amount_minor ELSE 0 END), 0)::bigint AS revenue,
  coalesce(sum(t.amount_minor) FILTER (WHERE t.kind = 'payment' AND t.status IN ('declined', 'failed')), 0)::bigint AS unsuccessful_volume,
  coalesce(sum(t.amount_minor) FILTER (WHERE t.kind = 'payment' AND t.status IN ('declined', 'failed')), 0)::bigint AS unsuccessful_revenue,
  count(*) FILTER (WHERE t.kind = 'payment' AND t.status = 'paid')::bigint AS sales_count
FROM transactions t
LEFT JOIN (SELECT DISTINCT parent_reference FROM transactions WHERE kind = 'capture') c ON t.kind = 'payment' AND c.parent_reference = t.reference
LEFT JOIN transactions p ON p.reference = t.parent_reference AND p.kind = 'payment'
WHERE t.kind = 'payment' OR (t.status = 'paid' AND t.kind IN ('capture', 'refund', 'chargeback') AND p.reference IS NOT NULL)
GROUP BY t.merchant_id, t.currency, 5
HAVING count(*) FILTER (WHERE t.status = 'paid' OR t.status IN ('declined', 'failed')) > 0`;

/** Empties and refills the hourly, daily, declines and activity tables from transaction_stats and transactions. */
export async function rebuildStatsRollups(writer: DbWriter): Promise<void> {
  await writer.execute(sql`TRUNCATE ${transactionStatsHourly}, ${transactionStatsDaily}, ${transactionDeclinesDaily}`);
  await writer.execute(rollUp(transactionStatsHourly, transactionStats, 'hour'));
  await writer.execute(rollUp(transactionStatsDaily, transactionStatsHourly, 'day'));
  await writer.execute(declinesFromTransactions());
  await writer.execute(sql`TRUNCATE ${transactionActivityStats}, ${transactionActivityStatsHourly}, ${transactionActivityStatsDaily}`);
  const activity = transactionActivityStats;
  await writer.execute(sql`INSERT INTO ${activity} (${names([activity.merchantId, activity.businessId, activity.partnerId, activity.currency, activity.bucketStart, ...measureColumns(activity)])})
    ${sql.raw(activityAggregationSql)}`);
  await writer.execute(rollUp(transactionActivityStatsHourly, transactionActivityStats, 'hour'));
  await writer.execute(rollUp(transactionActivityStatsDaily, transactionActivityStatsHourly, 'day'));
}

/** The tables the store keeps besides transaction_stats (for VACUUM ANALYZE after a bulk load). */
export const statsRollupTables = [
  'transaction_stats_hourly',
  'transaction_stats_daily',
  'transaction_declines_daily',
  'transaction_activity_stats',
  'transaction_activity_stats_hourly',
  'transaction_activity_stats_daily',
] as const;
