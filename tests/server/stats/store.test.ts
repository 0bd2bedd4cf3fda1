// The statistics store against the truth: after random payment traffic through the write path, every table
// equals a raw aggregation of the transactions, and the read path's sums for random periods, zones and scopes
// equal the same sums taken straight from the transactions.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays } from '../../../src/contract/calendar-date.ts';
import { startOfLocalDate } from '../../../src/contract/zoned-time.ts';
import { periodContaining, type DashboardInterval, type DashboardPeriod } from '../../../src/contract/dashboard-intervals.ts';
import { bucketPlan } from '../../../src/contract/dashboard-buckets.ts';
import type { Database } from '../../../server/db/client.ts';
import { statsAggregationSql, statsInsertSql } from '../../../server/seed/seed.ts';
import { createRandom } from '../../../server/seed/seed-random.ts';
import { activityAggregationSql, rebuildStatsRollups } from '../../../server/stats/rebuild.ts';
import { declineReasons, sumPerBucket, type StatsScope } from '../../../server/stats/read-stats.ts';
import { createTestDatabase, databaseKinds, insertFixtureWorld } from '../support.ts';
import { fixtureMerchants, runWorkload } from './workload.ts';

const measures = 'volume, revenue, unsuccessful_volume, unsuccessful_revenue, sales_count';
const keyed = `merchant_id, business_id, coalesce(partner_id, '-') AS partner_id, currency, bucket_start, ${measures}`;

async function difference(database: Database, left: string, right: string): Promise<unknown[]> {
  return [...(await database.query(`(${left}) EXCEPT ALL (${right})`)), ...(await database.query(`(${right}) EXCEPT ALL (${left})`))];
}

const rollUpSql = (unit: 'hour' | 'day') => `SELECT merchant_id, min(business_id) AS business_id, coalesce(min(partner_id), '-') AS partner_id, currency,
  date_trunc('${unit}', bucket_start, 'UTC') AS bucket_start, sum(volume)::bigint, sum(revenue)::bigint, sum(unsuccessful_volume)::bigint,
  sum(unsuccessful_revenue)::bigint, sum(sales_count)::bigint
  FROM transaction_stats GROUP BY 1, 4, 5`;

const rawDeclinesSql = `SELECT merchant_id, currency, date_trunc('day', created_at, 'UTC') AS day, decline_reason, count(*)::bigint AS n, sum(amount_minor)::bigint AS amount
  FROM transactions WHERE kind = 'payment' AND status IN ('declined', 'failed') AND decline_reason IS NOT NULL GROUP BY 1, 2, 3, 4`;
const storedDeclinesSql = `SELECT merchant_id, currency, bucket_start, reason, decline_count, amount FROM transaction_declines_daily WHERE decline_count <> 0 OR amount <> 0`;

const scopeColumn = (scope: StatsScope) =>
  'merchantId' in scope ? ['merchant_id', scope.merchantId] : 'businessId' in scope ? ['business_id', scope.businessId] : ['partner_id', scope.partnerId];

/** The measures of [start, end) straight from the transactions, by the seed's own aggregation. */
async function rawSums(database: Database, scope: StatsScope, currency: string, start: Date, end: Date) {
  const [column, id] = scopeColumn(scope);
  const [row] = await database.query<Record<string, string | number | null>>(
    `SELECT coalesce(sum(volume), 0) AS volume, coalesce(sum(revenue), 0) AS revenue, coalesce(sum(unsuccessful_volume), 0) AS unsuccessful_volume,
       coalesce(sum(unsuccessful_revenue), 0) AS unsuccessful_revenue, coalesce(sum(sales_count), 0) AS sales_count
     FROM (${statsAggregationSql}) s WHERE ${column} = $1 AND currency = $2 AND bucket_start >= $3 AND bucket_start < $4`,
    [id, currency, start.toISOString(), end.toISOString()],
  );
  return {
    volume: Number(row?.volume),
    revenue: Number(row?.revenue),
    unsuccessfulVolume: Number(row?.unsuccessful_volume),
    unsuccessfulRevenue: Number(row?.unsuccessful_revenue),
    salesCount: Number(row?.sales_count),
  };
}

async function rawDeclines(database: Database, scope: StatsScope, currency: string, start: Date, end: Date) {
  const [column, id] = scopeColumn(scope);
  const rows = await database.query<{ reason: string; n: string | number; amount: string | number }>(
    `SELECT decline_reason AS reason, count(*) AS n, sum(amount_minor) AS amount FROM transactions
     WHERE ${column} = $1 AND currency = $2 AND created_at >= $3 AND created_at < $4
       AND kind = 'payment' AND status IN ('declined', 'failed') AND decline_reason IS NOT NULL
     GROUP BY 1`,
    [id, currency, start.toISOString(), end.toISOString()],
  );
  return rows
    .map((row) => ({ reason: row.reason, count: Number(row.n), amount: Number(row.amount) }))
    .sort((a, b) => b.count - a.count || b.amount - a.amount || a.reason.localeCompare(b.reason, 'en-GB'));
}

describe.each(databaseKinds)('statistics store on %s', (kind) => {
  let database: Database;
  const from = new Date('2025-12-20T00:00:00Z');
  const to = new Date('2027-01-10T00:00:00Z');

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    await insertFixtureWorld(database);
    // The fixture's transactions were inserted without the store: build it in bulk as the seed does.
    await database.db.transaction(async (tx) => {
      await tx.execute(sql.raw(statsInsertSql));
      await rebuildStatsRollups(tx);
    });
    await runWorkload(database, { seed: 6, batches: 40, operationsPerBatch: 12, from, to });
    await runWorkload(database, { seed: 66, batches: 120, operationsPerBatch: 1, from, to, concurrency: kind === 'postgres' ? 8 : 1 });
  });
  afterAll(async () => database?.close());

  it('writes traffic of every kind', async () => {
    const [counts] = await database.query<Record<string, string | number>>(`SELECT count(*) FILTER (WHERE kind = 'payment') AS payments,
      count(*) FILTER (WHERE kind = 'refund') AS refunds, count(*) FILTER (WHERE kind = 'capture') AS captures,
      count(DISTINCT status) AS statuses FROM transactions`);
    expect(Number(counts?.payments)).toBeGreaterThan(250);
    expect(Number(counts?.refunds)).toBeGreaterThan(20);
    expect(Number(counts?.captures)).toBeGreaterThan(3);
    expect(Number(counts?.statuses)).toBeGreaterThanOrEqual(6);
  });

  it('keeps quarter hours equal to the raw aggregation of the transactions', async () => {
    expect(await difference(database, `SELECT ${keyed} FROM transaction_stats`, `SELECT ${keyed} FROM (${statsAggregationSql}) s`)).toEqual([]);
  });

  it('keeps hours and days equal to the quarter hours rolled up', async () => {
    expect(await difference(database, `SELECT ${keyed} FROM transaction_stats_hourly`, rollUpSql('hour'))).toEqual([]);
    expect(await difference(database, `SELECT ${keyed} FROM transaction_stats_daily`, rollUpSql('day'))).toEqual([]);
  });

  it('keeps the activity view (each transaction at its own time) equal to its raw aggregation, and its hours and days rolled up', async () => {
    // Buckets whose measures all cancelled out are left out of both sides (the bulk build makes none).
    const nonZero = `(volume <> 0 OR revenue <> 0 OR unsuccessful_volume <> 0 OR unsuccessful_revenue <> 0 OR sales_count <> 0)`;
    expect(
      await difference(
        database,
        `SELECT ${keyed} FROM transaction_activity_stats WHERE ${nonZero}`,
        `SELECT ${keyed} FROM (${activityAggregationSql}) s WHERE ${nonZero}`,
      ),
    ).toEqual([]);
    const rolledColumns = `merchant_id, business_id, partner_id, currency, bucket_start, ${measures}`;
    const activityRollUp = (unit: 'hour' | 'day') => rollUpSql(unit).replace('FROM transaction_stats', 'FROM transaction_activity_stats');
    expect(
      await difference(
        database,
        `SELECT ${keyed} FROM transaction_activity_stats_hourly WHERE ${nonZero}`,
        `SELECT * FROM (${activityRollUp('hour')}) r(${rolledColumns}) WHERE ${nonZero}`,
      ),
    ).toEqual([]);
    expect(
      await difference(
        database,
        `SELECT ${keyed} FROM transaction_activity_stats_daily WHERE ${nonZero}`,
        `SELECT * FROM (${activityRollUp('day')}) r(${rolledColumns}) WHERE ${nonZero}`,
      ),
    ).toEqual([]);
    // Both views count the same money, only on other days.
    const totals = async (table: string) =>
      database.query(`SELECT merchant_id, currency, sum(volume)::bigint AS volume, sum(revenue)::bigint AS revenue, sum(sales_count)::bigint AS sales
      FROM ${table} GROUP BY 1, 2 HAVING sum(volume) <> 0 OR sum(revenue) <> 0 OR sum(sales_count) <> 0 ORDER BY 1, 2`);
    expect(await totals('transaction_activity_stats_daily')).toEqual(await totals('transaction_stats_daily'));
  });

  it('keeps the declines equal to the raw declines', async () => {
    expect(await difference(database, storedDeclinesSql, rawDeclinesSql)).toEqual([]);
  });

  it('rebuilding the rollups in bulk gives the same tables', async () => {
    const before = await database.query(`SELECT ${keyed} FROM transaction_stats_daily ORDER BY 1, 4, 5`);
    const declines = await database.query(`${storedDeclinesSql} ORDER BY 1, 2, 3, 4`);
    await database.db.transaction((tx) => rebuildStatsRollups(tx));
    expect(await database.query(`SELECT ${keyed} FROM transaction_stats_daily ORDER BY 1, 4, 5`)).toEqual(before);
    expect(await database.query(`${storedDeclinesSql} ORDER BY 1, 2, 3, 4`)).toEqual(declines);
  });

  it('sums random periods in random zones exactly as the transactions do', async () => {
    const random = createRandom(2026);
    const zones = ['UTC', 'Europe/London', 'Asia/Kolkata', 'Asia/Kathmandu', 'America/New_York', 'Australia/Adelaide'];
    const intervals: DashboardInterval[] = ['day', 'week', 'month', 'year', 'custom'];
    const scopes: StatsScope[] = [
      ...fixtureMerchants.map(({ merchantId }) => ({ merchantId })),
      { businessId: 'B1' },
      { businessId: 'B3' },
      { partnerId: 'P1' },
    ];
    let checkedBuckets = 0;
    let nonEmpty = 0;
    for (let run = 0; run < 30; run += 1) {
      const zone = random.pick(zones);
      const interval = random.pick(intervals);
      const anchor = addDays('2026-01-01', random.int(-5, 370));
      const period: DashboardPeriod =
        interval === 'custom' ? { interval, startDate: anchor, endDate: addDays(anchor, random.int(0, 120)) } : periodContaining(interval, anchor);
      const scope = random.pick(scopes);
      const currency = random.pick(['GBP', 'EUR', 'JPY']);
      const { buckets } = bucketPlan(period, zone);
      const sums = await sumPerBucket(database, scope, currency, buckets);
      const expected = await Promise.all(buckets.map((bucket) => rawSums(database, scope, currency, bucket.start, bucket.end)));
      expect({ zone, period, scope, currency, sums }).toEqual({ zone, period, scope, currency, sums: expected });
      checkedBuckets += buckets.length;
      nonEmpty += sums.filter((sum) => sum.volume !== 0 || sum.unsuccessfulVolume !== 0).length;

      const start = startOfLocalDate(period.startDate, zone);
      const end = startOfLocalDate(addDays(period.endDate, 1), zone);
      expect(await declineReasons(database.db, scope, currency, start, end)).toEqual(await rawDeclines(database, scope, currency, start, end));
    }
    expect(checkedBuckets).toBeGreaterThan(300);
    expect(nonEmpty).toBeGreaterThan(20);
  });
});
