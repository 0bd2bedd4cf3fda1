// The read path of the statistics store: sums per bucket for a merchant, a business or a partner, and the decline
// reasons of a period. Each bucket is split into whole UTC days, hours and quarter hours (granularity.ts); one
// statement reads every piece from its table through the (scope, currency, bucket_start) indexes, so a year for
// a business costs a few thousand daily rows and a handful of hourly ones, whatever the caller's time zone.
import { sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Bucket } from '../../src/contract/dashboard-buckets.ts';
import type { DeclineReason } from '../../src/contract/dashboard.ts';
import { transactionDeclinesDaily, transactions } from '../db/schema.ts';
import { unsuccessfulStatuses, type DateBasis, type StatsMeasures } from './definition.ts';
import { ceilTo, decompose, floorTo, granularities, statsTablesOf, type Granularity, type Piece } from './granularity.ts';
import { PgDialect } from 'drizzle-orm/pg-core';
import type { Database, DbWriter } from '../db/client.ts';

export type StatsScope = { merchantId: string } | { businessId: string } | { partnerId: string };

type ScopedTable = { merchantId: AnyPgColumn; businessId: AnyPgColumn; partnerId: AnyPgColumn };

export function scopeCondition(table: ScopedTable, scope: StatsScope): SQL {
  if ('merchantId' in scope) return sql`${table.merchantId} = ${scope.merchantId}`;
  if ('businessId' in scope) return sql`${table.businessId} = ${scope.businessId}`;
  return sql`${table.partnerId} = ${scope.partnerId}`;
}

type Row = Record<string, unknown>;
async function rowsOf(reader: DbWriter, query: SQL): Promise<Row[]> {
  return ((await reader.execute(query)) as unknown as { rows: Row[] }).rows;
}

const timestamp = (date: Date) => sql`${date.toISOString()}::timestamptz`;
const emptyMeasures = (): StatsMeasures => ({ volume: 0, revenue: 0, unsuccessfulVolume: 0, unsuccessfulRevenue: 0, salesCount: 0 });

/**
 * The buckets' pieces (whole UTC days, hours and quarter hours), by granularity, as three array literals each: the
 * bucket's index and each piece's ends. Array parameters (text, so both drivers pass them as they are): a year's
 * dozens of pieces were three parameters and an SQL fragment each, and building that statement cost more than the
 * database took to run it.
 */
function piecesByGranularity(buckets: readonly Bucket[]): { granularity: Granularity; idx: string; lo: string; hi: string }[] {
  const pieces = buckets.flatMap((bucket, index) => decompose(bucket.start, bucket.end).map((piece) => ({ ...piece, index })));
  return granularities.flatMap((granularity) => {
    const ranges = pieces.filter((piece: Piece) => piece.granularity === granularity);
    if (ranges.length === 0) return [];
    return [
      {
        granularity,
        idx: `{${ranges.map((range) => range.index).join(',')}}`,
        lo: `{${ranges.map((range) => range.from.toISOString()).join(',')}}`,
        hi: `{${ranges.map((range) => range.to.toISOString()).join(',')}}`,
      },
    ];
  });
}

/** The statement that sums every bucket's pieces (exported for EXPLAIN in the measurements), from the view's tables. */
export function perBucketQuery(scope: StatsScope, currency: string, buckets: readonly Bucket[], basis: DateBasis = 'paymentDate'): SQL | null {
  const parts = piecesByGranularity(buckets).map(({ granularity, idx, lo, hi }) => {
    const table = statsTablesOf(basis)[granularity];
    // LATERAL: one index range scan per piece (scope, currency, bucket_start between its ends), nothing more read.
    return sql`SELECT r.idx, s.volume, s.revenue, s.unsuccessful_volume, s.unsuccessful_revenue, s.sales_count
      FROM unnest(${idx}::int[], ${lo}::timestamptz[], ${hi}::timestamptz[]) AS r(idx, lo, hi)
      CROSS JOIN LATERAL (
        SELECT sum(${table.volume}) AS volume, sum(${table.revenue}) AS revenue, sum(${table.unsuccessfulVolume}) AS unsuccessful_volume,
          sum(${table.unsuccessfulRevenue}) AS unsuccessful_revenue, sum(${table.salesCount}) AS sales_count
        FROM ${table}
        WHERE ${scopeCondition(table, scope)} AND ${table.currency} = ${currency} AND ${table.bucketStart} >= r.lo AND ${table.bucketStart} < r.hi
      ) AS s`;
  });
  return parts.length === 0 ? null : sql.join(parts, sql` UNION ALL `);
}

const dialect = new PgDialect();

/**
 * perBucketQuery's text by date basis, scope column and the granularities its pieces have: a handful of texts,
 * built by the ORM once each. Building the statement on every call was a tenth of the dashboard's time under load.
 */
const perBucketTexts = new Map<string, string>();

/** perBucketQuery as text and parameters, its text built once per shape; null when the buckets have no pieces. */
export function perBucketStatement(
  scope: StatsScope,
  currency: string,
  buckets: readonly Bucket[],
  basis: DateBasis = 'paymentDate',
): { text: string; params: unknown[] } | null {
  const pieces = piecesByGranularity(buckets);
  if (pieces.length === 0) return null;
  const scopeId = 'merchantId' in scope ? scope.merchantId : 'businessId' in scope ? scope.businessId : scope.partnerId;
  // The parameters in the order perBucketQuery writes them: each granularity's three arrays, its scope, its currency.
  const params = pieces.flatMap(({ idx, lo, hi }) => [idx, lo, hi, scopeId, currency]);
  const key = `${basis} ${Object.keys(scope)[0]} ${pieces.map((piece) => piece.granularity).join(',')}`;
  let text = perBucketTexts.get(key);
  if (text === undefined) {
    const built = dialect.sqlToQuery(perBucketQuery(scope, currency, buckets, basis) as SQL);
    // The parameters above must be the ORM's, in its order: checked once per shape, before the text is kept.
    if (JSON.stringify(built.params) !== JSON.stringify(params)) throw new Error(`perBucketStatement: parameters out of step with perBucketQuery (${key})`);
    text = built.sql;
    perBucketTexts.set(key, text);
  }
  return { text, params };
}

/** The five measures of every bucket, in bucket order, by payment date (default) or by activity date. */
export async function sumPerBucket(
  reader: Pick<Database, 'query'>,
  scope: StatsScope,
  currency: string,
  buckets: readonly Bucket[],
  basis: DateBasis = 'paymentDate',
): Promise<StatsMeasures[]> {
  const totals = buckets.map(emptyMeasures);
  const statement = perBucketStatement(scope, currency, buckets, basis);
  if (!statement) return totals;
  for (const row of await reader.query<Row>(statement.text, statement.params)) {
    const bucket = totals[Number(row.idx)];
    if (!bucket) continue;
    bucket.volume += Number(row.volume ?? 0);
    bucket.revenue += Number(row.revenue ?? 0);
    bucket.unsuccessfulVolume += Number(row.unsuccessful_volume ?? 0);
    bucket.unsuccessfulRevenue += Number(row.unsuccessful_revenue ?? 0);
    bucket.salesCount += Number(row.sales_count ?? 0);
  }
  return totals;
}

/**
 * Declines in [start, end) by reason, most frequent first: whole UTC days from the daily declines table, the
 * partial days at either end straight from the transactions (at most a day's rows of the scope each).
 */
export async function declineReasons(reader: DbWriter, scope: StatsScope, currency: string, start: Date, end: Date): Promise<DeclineReason[]> {
  const firstDay = ceilTo(start.getTime(), 'day');
  const lastDay = floorTo(end.getTime(), 'day');
  const raw: [Date, Date][] =
    firstDay < lastDay
      ? [
          [start, new Date(firstDay)],
          [new Date(lastDay), end],
        ]
      : [[start, end]];
  const t = transactions;
  const parts: SQL[] = raw
    .filter(([from, to]) => from < to)
    .map(
      ([from, to]) => sql`SELECT ${t.declineReason} AS reason, count(*) AS n, sum(${t.amountMinor}) AS amount
    FROM ${t}
    WHERE ${scopeCondition(t, scope)} AND ${t.currency} = ${currency} AND ${t.kind} = 'payment'
      AND ${t.status} IN (${sql.join(
        unsuccessfulStatuses.map((status) => sql`${status}`),
        sql`, `,
      )}) AND ${t.declineReason} IS NOT NULL
      AND ${t.createdAt} >= ${timestamp(from)} AND ${t.createdAt} < ${timestamp(to)}
    GROUP BY 1`,
    );
  if (firstDay < lastDay) {
    const d = transactionDeclinesDaily;
    parts.push(sql`SELECT ${d.reason} AS reason, sum(${d.declineCount}) AS n, sum(${d.amount}) AS amount
      FROM ${d}
      WHERE ${scopeCondition(d, scope)} AND ${d.currency} = ${currency}
        AND ${d.bucketStart} >= ${timestamp(new Date(firstDay))} AND ${d.bucketStart} < ${timestamp(new Date(lastDay))}
      GROUP BY 1`);
  }
  if (parts.length === 0) return [];
  const reasons = new Map<string, DeclineReason>();
  for (const row of await rowsOf(reader, sql.join(parts, sql` UNION ALL `))) {
    const reason = String(row.reason);
    const entry = reasons.get(reason) ?? { reason, count: 0, amount: 0 };
    entry.count += Number(row.n ?? 0);
    entry.amount += Number(row.amount ?? 0);
    reasons.set(reason, entry);
  }
  return [...reasons.values()]
    .filter((entry) => entry.count > 0)
    .sort((a, b) => b.count - a.count || b.amount - a.amount || a.reason.localeCompare(b.reason, 'en-GB'));
}
