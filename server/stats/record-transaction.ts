// The write path of the statistics store. Whoever inserts a transaction or changes one (a payment paid, declined
// or cancelled, a refund made) calls these inside the same database transaction as the write, so the dashboard
// never disagrees with the transactions. Each change becomes per-bucket deltas (after minus before) upserted into
// every granularity of both views (by payment date, by activity date: definition.ts) with
// `INSERT … ON CONFLICT DO UPDATE SET m = m + excluded.m`; rows are written in key order so concurrent writers lock
// them in the same order and cannot deadlock on each other.
//
// A paid payment's amount counts only while it has no capture rows: the first capture inserted under it takes over
// (its payment's row is locked first, so two first captures at once cannot both take the amount off).
import { inArray, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { transactionDeclinesDaily, transactions } from '../db/schema.ts';
import { contributionOf, dateBases, declineOf, type DateBasis, type StatsKey, type StatsMeasures, type StatsTransaction } from './definition.ts';
import { bucketStartOf, granularities, statsTablesOf, type StatsTable } from './granularity.ts';
import type { DbWriter } from '../db/client.ts';

/** The database or, as it should be, the transaction the write happens in. */

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

type Side = StatsTransaction & { capturedInParts: boolean };
type ParentRow = StatsKey & { reference: string; status: string; amountMinor: number; kind: 'payment'; parentReference: null; declineReason: string | null };
const zeroMeasures = (): StatsMeasures => ({ volume: 0, revenue: 0, unsuccessfulVolume: 0, unsuccessfulRevenue: 0, salesCount: 0 });

/** Applies inserts, changes and deletions of transactions to every statistics table. */
export async function recordTransactionChanges(writer: DbWriter, changes: readonly TransactionChange[]): Promise<void> {
  // Captures inserted here: their payments are locked (in key order) before anything of them is read.
  const insertedCaptures = changes.flatMap(({ before, after }) => (before === null && after?.kind === 'capture' && after.parentReference ? [after] : []));
  const capturedPayments = [...new Set(insertedCaptures.map((capture) => capture.parentReference as string))].sort();
  // A refund, chargeback or capture counts in its payment's bucket (by payment date): find the payments of those that count.
  const parentReferences = new Set<string>(capturedPayments);
  for (const { before, after } of changes) {
    for (const side of [before, after])
      if (side && side.kind !== 'payment' && side.parentReference && contributionOf(side)) parentReferences.add(side.parentReference);
  }
  const parents = new Map<string, ParentRow>();
  if (parentReferences.size > 0) {
    const query = writer
      .select({
        reference: transactions.reference,
        merchantId: transactions.merchantId,
        businessId: transactions.businessId,
        partnerId: transactions.partnerId,
        currency: transactions.currency,
        at: transactions.createdAt,
        status: transactions.status,
        amountMinor: transactions.amountMinor,
        declineReason: transactions.declineReason,
      })
      .from(transactions)
      .where(sql`${inArray(transactions.reference, [...parentReferences].sort())} AND ${transactions.kind} = 'payment'`)
      .orderBy(transactions.reference);
    const rows = capturedPayments.length > 0 ? await query.for('update') : await query;
    for (const row of rows) parents.set(row.reference, { ...row, kind: 'payment', parentReference: null });
  }
  // Which payments had capture rows before these changes (those inserted here left out): a paid payment's amount
  // counts only without them. Asked only of payments whose amount may count (paid on either side) or just captured.
  const paymentsAsked = new Set<string>(capturedPayments);
  for (const { before, after } of changes)
    for (const side of [before, after]) if (side?.kind === 'payment' && side.status === 'paid') paymentsAsked.add(side.reference);
  const hadCaptures = new Set<string>();
  if (paymentsAsked.size > 0) {
    const inserted = insertedCaptures.map((capture) => capture.reference);
    const rows = await writer
      .selectDistinct({ reference: transactions.parentReference })
      .from(transactions)
      .where(sql`${inArray(transactions.parentReference, [...paymentsAsked])}
      AND ${transactions.kind} = 'capture'${
        inserted.length > 0
          ? sql` AND ${transactions.reference} NOT IN (${sql.join(
              inserted.map((reference) => sql`${reference}`),
              sql`, `,
            )})`
          : sql``
      }`);
    for (const row of rows) if (row.reference) hadCaptures.add(row.reference);
  }
  const hasCaptures = (reference: string) => hadCaptures.has(reference) || capturedPayments.includes(reference);
  const sides: [Side | null, Side | null][] = changes.map(({ before, after }) => [
    before && { ...before, capturedInParts: before.kind === 'payment' && hadCaptures.has(before.reference) },
    after && { ...after, capturedInParts: after.kind === 'payment' && hasCaptures(after.reference) },
  ]);
  // A paid payment not changed here that gets its first capture: its amount stops counting (the captures count instead).
  const changedPayments = new Set(
    changes.flatMap(({ before, after }) => [before, after].flatMap((side) => (side?.kind === 'payment' ? [side.reference] : []))),
  );
  for (const reference of capturedPayments) {
    const parent = parents.get(reference);
    if (!parent || changedPayments.has(reference) || hadCaptures.has(reference)) continue;
    const payment: StatsTransaction = { ...parent, createdAt: parent.at };
    sides.push([
      { ...payment, capturedInParts: false },
      { ...payment, capturedInParts: true },
    ]);
  }

  const deltas: Record<DateBasis, Map<string, StatsDelta>> = { paymentDate: new Map(), activityDate: new Map() };
  const declines = new Map<string, DeclineDelta>();
  for (const [before, after] of sides) {
    for (const [side, sign] of [
      [before, -1],
      [after, 1],
    ] as const) {
      if (!side) continue;
      const contribution = contributionOf(side, side.capturedInParts);
      const parent = side.kind === 'payment' ? undefined : side.parentReference ? parents.get(side.parentReference) : undefined;
      const own: StatsKey = {
        merchantId: side.merchantId,
        businessId: side.businessId,
        partnerId: side.partnerId,
        currency: side.currency,
        at: side.createdAt,
      };
      // Both views count a child only under a payment it belongs to, so they always hold the same totals.
      const keys: Record<DateBasis, StatsKey | undefined> =
        side.kind === 'payment' ? { paymentDate: own, activityDate: own } : { paymentDate: parent, activityDate: parent ? own : undefined };
      for (const basis of dateBases) {
        const key = keys[basis];
        if (!contribution || !key) continue;
        const at = bucketStartOf(key.at, 'quarterHour');
        const id = keyString(key, at);
        const delta = deltas[basis].get(id) ?? {
          merchantId: key.merchantId,
          businessId: key.businessId,
          partnerId: key.partnerId,
          currency: key.currency,
          at,
          measures: zeroMeasures(),
          ensureRow: false,
        };
        for (const name of measureNames) delta.measures[name] += sign * contribution[name];
        // A new payment makes its bucket exist even when it adds nothing yet (as the bulk aggregation does).
        if (basis === 'paymentDate' && sign === 1 && side.kind === 'payment' && before === null) delta.ensureRow = true;
        deltas[basis].set(id, delta);
      }
      const decline = declineOf(side);
      if (decline) {
        const day = bucketStartOf(side.createdAt, 'day');
        const id = keyString(side, day, decline.reason);
        const delta = declines.get(id) ?? {
          merchantId: side.merchantId,
          businessId: side.businessId,
          partnerId: side.partnerId,
          currency: side.currency,
          day,
          reason: decline.reason,
          count: 0,
          amount: 0,
        };
        delta.count += sign;
        delta.amount += sign * decline.amount;
        declines.set(id, delta);
      }
    }
  }

  for (const basis of dateBases) {
    const tables = statsTablesOf(basis);
    const changed = [...deltas[basis].values()].filter((delta) => delta.ensureRow || measureNames.some((name) => delta.measures[name] !== 0));
    for (const granularity of granularities) {
      const rows = new Map<string, StatsDelta>();
      for (const delta of changed) {
        const at = bucketStartOf(delta.at, granularity);
        const id = keyString(delta, at);
        const row = rows.get(id) ?? { ...delta, at, measures: zeroMeasures() };
        for (const name of measureNames) row.measures[name] += delta.measures[name];
        rows.set(id, row);
      }
      await upsertMeasures(
        writer,
        tables[granularity],
        [...rows.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, row]) => row),
      );
    }
  }

  const declineRows = [...declines.entries()].filter(([, delta]) => delta.count !== 0 || delta.amount !== 0).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  if (declineRows.length > 0) {
    const table = transactionDeclinesDaily;
    await writer
      .insert(table)
      .values(
        declineRows.map(([, delta]) => ({
          merchantId: delta.merchantId,
          businessId: delta.businessId,
          partnerId: delta.partnerId,
          currency: delta.currency,
          bucketStart: delta.day,
          reason: delta.reason,
          declineCount: delta.count,
          amount: delta.amount,
        })),
      )
      .onConflictDoUpdate({
        target: [table.merchantId, table.currency, table.bucketStart, table.reason],
        set: { declineCount: accumulate(table.declineCount), amount: accumulate(table.amount) },
      });
  }
}

/** `column + excluded.column`: the stored value plus the delta that conflicted with it. */
function accumulate(column: AnyPgColumn): SQL {
  return sql`${column} + excluded.${sql.identifier(column.name)}`;
}

async function upsertMeasures(writer: DbWriter, table: StatsTable, rows: readonly StatsDelta[]): Promise<void> {
  if (rows.length === 0) return;
  await writer
    .insert(table)
    .values(
      rows.map((row) => ({
        merchantId: row.merchantId,
        businessId: row.businessId,
        partnerId: row.partnerId,
        currency: row.currency,
        bucketStart: row.at,
        ...row.measures,
      })),
    )
    .onConflictDoUpdate({
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
