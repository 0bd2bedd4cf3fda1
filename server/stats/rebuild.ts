// Bulk (re)building of the rollups: after a bulk load has filled transaction_stats (the seed's one
// INSERT … SELECT), the hourly and daily tables are summed from it and the declines from the transactions, in
// three statements. Run it in the same transaction as the load; the write path keeps everything current after.
import { sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { transactionDeclinesDaily, transactionStats, transactionStatsDaily, transactionStatsHourly, transactions } from '../db/schema.ts';
import { unsuccessfulStatuses } from './definition.ts';
import type { StatsTable } from './granularity.ts';
import type { StatsWriter } from './record-transaction.ts';

const names = (columns: readonly AnyPgColumn[]) => sql.join(columns.map((column) => sql.identifier(column.name)), sql`, `);
const measureColumns = (table: StatsTable) => [table.volume, table.revenue, table.unsuccessfulVolume, table.unsuccessfulRevenue, table.salesCount];

/** INSERT INTO target SELECT … FROM source, grouped by merchant, currency and the bucket truncated to `unit` (UTC). */
function rollUp(target: StatsTable, source: StatsTable, unit: 'hour' | 'day'): SQL {
  const bucket = sql`date_trunc(${unit}, ${source.bucketStart}, 'UTC')`;
  return sql`INSERT INTO ${target} (${names([target.merchantId, target.businessId, target.partnerId, target.currency, target.bucketStart, ...measureColumns(target)])})
    SELECT ${source.merchantId}, min(${source.businessId}), min(${source.partnerId}), ${source.currency}, ${bucket},
      ${sql.join(measureColumns(source).map((column) => sql`sum(${column})`), sql`, `)}
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
    WHERE ${t.kind} = 'payment' AND ${t.status} IN (${sql.join(unsuccessfulStatuses.map((status) => sql`${status}`), sql`, `)}) AND ${t.declineReason} IS NOT NULL
    GROUP BY ${t.merchantId}, ${t.currency}, ${day}, ${t.declineReason}`;
}

/** Empties and refills the hourly, daily and declines tables from transaction_stats and transactions. */
export async function rebuildStatsRollups(writer: StatsWriter): Promise<void> {
  await writer.execute(sql`TRUNCATE ${transactionStatsHourly}, ${transactionStatsDaily}, ${transactionDeclinesDaily}`);
  await writer.execute(rollUp(transactionStatsHourly, transactionStats, 'hour'));
  await writer.execute(rollUp(transactionStatsDaily, transactionStatsHourly, 'day'));
  await writer.execute(declinesFromTransactions());
}

/** The tables the store keeps besides transaction_stats (for VACUUM ANALYZE after a bulk load). */
export const statsRollupTables = ['transaction_stats_hourly', 'transaction_stats_daily', 'transaction_declines_daily'] as const;
