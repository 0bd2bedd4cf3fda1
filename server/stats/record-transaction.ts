// The write path of the statistics store. Whoever inserts a transaction or changes one (a payment paid, declined
// or cancelled, a refund made) calls these inside the same database transaction as the write, so the dashboard
// never disagrees with the transactions. Each change becomes per-bucket deltas (after minus before) upserted into
// every granularity with `INSERT … ON CONFLICT DO UPDATE SET m = m + excluded.m`; rows are written in key order so
// concurrent writers lock them in the same order and cannot deadlock on each other.
import { inArray, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { takesMoneyBack } from '../../src/contract/transactions.ts';
import type { Db } from '../db/client.ts';
import { transactionDeclinesDaily, transactions } from '../db/schema.ts';
import { contributionOf, declineOf, type StatsKey, type StatsMeasures, type StatsTransaction } from './definition.ts';
import { bucketStartOf, granularities, statsTables, type StatsTable } from './granularity.ts';

type DbTransaction = Parameters<Parameters<Db['transaction']>[0]>[0];
/** The database or, as it should be, the transaction the write happens in. */
export type StatsWriter = Db | DbTransaction;

export type TransactionChange = { before: StatsTransaction | null; after: StatsTransaction | null };
export type TransactionRow = typeof transactions.$inferSelect;
export type NewTransactionRow = typeof transactions.$inferInsert;

const measureNames = ['volume', 'revenue', 'unsuccessfulVolume', 'unsuccessfulRevenue', 'salesCount'] as const satisfies readonly (keyof StatsMeasures)[];

type StatsDelta = StatsKey & { measures: StatsMeasures; ensureRow: boolean };
type DeclineDelta = Omit<StatsKey, 'at'> & { day: Date; reason: string; count: number; amount: number };

export function toStatsTransaction(row: NewTransactionRow | TransactionRow): StatsTransaction {
  return {
    reference: row.reference,
    kind: row.kind,
    parentReference: row.parentReference ?? null,
    status: row.status,
    amountMinor: row.amountMinor,
    currency: row.currency,
    createdAt: row.createdAt,
    merchantId: row.merchantId,
    businessId: row.businessId,
    partnerId: row.partnerId ?? null,
    declineReason: row.declineReason ?? null,
  };
}

const keyString = (key: Omit<StatsKey, 'at'>, at: Date, extra = '') => `${key.merchantId}\u0000${key.currency}\u0000${at.toISOString()}\u0000${extra}`;

/** Applies inserts, changes and deletions of transactions to every statistics table. */
export async function recordTransactionChanges(writer: StatsWriter, changes: readonly TransactionChange[]): Promise<void> {
  // A refund or chargeback counts in its payment's bucket: find the payments of those that count.
  const parentReferences = new Set<string>();
  for (const { before, after } of changes) {
    for (const side of [before, after]) if (side && takesMoneyBack(side.kind) && side.parentReference && contributionOf(side)) parentReferences.add(side.parentReference);
  }
  const parents = new Map<string, StatsKey>();
  if (parentReferences.size > 0) {
    const rows = await writer.select({
      reference: transactions.reference, merchantId: transactions.merchantId, businessId: transactions.businessId,
      partnerId: transactions.partnerId, currency: transactions.currency, at: transactions.createdAt,
    }).from(transactions).where(sql`${inArray(transactions.reference, [...parentReferences])} AND ${transactions.kind} = 'payment'`);
    for (const { reference, ...key } of rows) parents.set(reference, key);
  }

  const deltas = new Map<string, StatsDelta>();
  const declines = new Map<string, DeclineDelta>();
  for (const { before, after } of changes) {
    for (const [side, sign] of [[before, -1], [after, 1]] as const) {
      if (!side) continue;
      const contribution = contributionOf(side);
      const key: StatsKey | undefined = side.kind === 'payment' ? { merchantId: side.merchantId, businessId: side.businessId, partnerId: side.partnerId, currency: side.currency, at: side.createdAt }
        : side.parentReference ? parents.get(side.parentReference) : undefined;
      if (contribution && key) {
        const at = bucketStartOf(key.at, 'quarterHour');
        const id = keyString(key, at);
        const delta = deltas.get(id) ?? { ...key, at, measures: { volume: 0, revenue: 0, unsuccessfulVolume: 0, unsuccessfulRevenue: 0, salesCount: 0 }, ensureRow: false };
        for (const name of measureNames) delta.measures[name] += sign * contribution[name];
        // A new payment makes its bucket exist even when it adds nothing yet (as the bulk aggregation does).
        if (sign === 1 && side.kind === 'payment' && before === null) delta.ensureRow = true;
        deltas.set(id, delta);
      }
      const decline = declineOf(side);
      if (decline) {
        const day = bucketStartOf(side.createdAt, 'day');
        const id = keyString(side, day, decline.reason);
        const delta = declines.get(id) ?? { merchantId: side.merchantId, businessId: side.businessId, partnerId: side.partnerId, currency: side.currency, day, reason: decline.reason, count: 0, amount: 0 };
        delta.count += sign;
        delta.amount += sign * decline.amount;
        declines.set(id, delta);
      }
    }
  }

  const changed = [...deltas.values()].filter((delta) => delta.ensureRow || measureNames.some((name) => delta.measures[name] !== 0));
  for (const granularity of granularities) {
    const rows = new Map<string, StatsDelta>();
    for (const delta of changed) {
      const at = bucketStartOf(delta.at, granularity);
      const id = keyString(delta, at);
      const row = rows.get(id) ?? { ...delta, at, measures: { volume: 0, revenue: 0, unsuccessfulVolume: 0, unsuccessfulRevenue: 0, salesCount: 0 } };
      for (const name of measureNames) row.measures[name] += delta.measures[name];
      rows.set(id, row);
    }
    await upsertMeasures(writer, statsTables[granularity], [...rows.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, row]) => row));
  }

  const declineRows = [...declines.entries()].filter(([, delta]) => delta.count !== 0 || delta.amount !== 0).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  if (declineRows.length > 0) {
    const table = transactionDeclinesDaily;
    await writer.insert(table).values(declineRows.map(([, delta]) => ({
      merchantId: delta.merchantId, businessId: delta.businessId, partnerId: delta.partnerId, currency: delta.currency,
      bucketStart: delta.day, reason: delta.reason, declineCount: delta.count, amount: delta.amount,
    }))).onConflictDoUpdate({
      target: [table.merchantId, table.currency, table.bucketStart, table.reason],
      set: { declineCount: accumulate(table.declineCount), amount: accumulate(table.amount) },
    });
  }
}

/** `column + excluded.column`: the stored value plus the delta that conflicted with it. */
function accumulate(column: AnyPgColumn): SQL {
  return sql`${column} + excluded.${sql.identifier(column.name)}`;
}

async function upsertMeasures(writer: StatsWriter, table: StatsTable, rows: readonly StatsDelta[]): Promise<void> {
  if (rows.length === 0) return;
  await writer.insert(table).values(rows.map((row) => ({
    merchantId: row.merchantId, businessId: row.businessId, partnerId: row.partnerId, currency: row.currency, bucketStart: row.at, ...row.measures,
  }))).onConflictDoUpdate({
    target: [table.merchantId, table.currency, table.bucketStart],
    set: {
      volume: accumulate(table.volume),
      revenue: accumulate(table.revenue),
      unsuccessfulVolume: accumulate(table.unsuccessfulVolume),
      unsuccessfulRevenue: accumulate(table.unsuccessfulRevenue),
      salesCount: accumulate(table.salesCount),
    },
  });
}
