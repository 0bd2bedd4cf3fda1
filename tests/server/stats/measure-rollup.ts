// Measures the statistics store on PostgreSQL with the demo seed (default 2,000,000 transactions over two years):
// builds the rollups, then times year, month and five-year views for a merchant, the business with the most
// merchants and the partner with the most, in London, Kolkata and UTC, against the quarter-hour table alone and a
// scan of the transactions. Not a test: run it by hand and read the table.
//
//   MEASURE_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx node tests/server/stats/measure-rollup.ts [transactions]
//
// It creates a scratch database and drops it at the end (MEASURE_KEEP=1 keeps it; MEASURE_REUSE=<name> measures a
// kept one again without seeding).
import { randomBytes } from 'node:crypto';
import { sql, type SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import pg from 'pg';
import { addLocalDays, bucketPlan, localDateOf, periodContaining, startOfLocalDate, type DashboardPeriod } from '../../../src/contract/dashboard-intervals.ts';
import { cardKeysFrom } from '../../../server/cards/card-keys.ts';
import { openDatabase } from '../../../server/db/client.ts';
import { statsAggregationSql, seedDatabase } from '../../../server/db/seed.ts';
import { transactionStats } from '../../../server/db/schema.ts';
import { rebuildStatsRollups, statsRollupTables } from '../../../server/stats/rebuild.ts';
import { declineReasons, perBucketQuery, sumPerBucket, type StatsScope } from '../../../server/stats/read-stats.ts';

const adminUrl = process.env.MEASURE_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const transactionCount = Number(process.argv[2] ?? 2_000_000);
const runs = 25;
const reuse = process.env.MEASURE_REUSE;
const name = reuse ?? `portal_measure_${randomBytes(4).toString('hex')}`;
if (!/^portal_measure_[0-9a-f]+$/.test(name)) throw new Error(`not a measurement database: ${name}`);

const admin = new pg.Client({ connectionString: adminUrl });
await admin.connect();
if (!reuse) await admin.query(`CREATE DATABASE ${name}`);
const url = new URL(adminUrl);
url.pathname = `/${name}`;
const database = await openDatabase({ url: url.toString(), poolSize: 2 });
const dialect = new PgDialect();

async function timed<T>(run: () => Promise<T>): Promise<{ median: number; p95: number; result: T }> {
  let result = await run(); // warm
  const times: number[] = [];
  for (let index = 0; index < runs; index += 1) {
    const started = performance.now();
    result = await run();
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return { median: times[Math.floor(times.length / 2)] ?? 0, p95: times[Math.floor(times.length * 0.95)] ?? 0, result };
}

type PlanNode = { 'Relation Name'?: string; 'Actual Rows': number; 'Actual Loops': number; 'Shared Hit Blocks': number; 'Shared Read Blocks': number; Plans?: PlanNode[] };

/** Rows fetched from tables (rows × loops of every scan node). */
function rowsScanned(node: PlanNode): number {
  const own = node['Relation Name'] ? node['Actual Rows'] * node['Actual Loops'] : 0;
  return own + (node.Plans ?? []).reduce((sum, child) => sum + rowsScanned(child), 0);
}

async function explain(query: SQL): Promise<{ executionMs: number; rows: number; buffers: number; text: string }> {
  const { sql: text, params } = dialect.sqlToQuery(query);
  const [row] = await database.query<{ 'QUERY PLAN': [{ 'Execution Time': number; Plan: PlanNode }] }>(`EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) ${text}`, params);
  const plan = row?.['QUERY PLAN'][0];
  if (!plan) throw new Error('no plan');
  const [textual] = [await database.query<{ 'QUERY PLAN': string }>(`EXPLAIN (ANALYZE, BUFFERS) ${text}`, params)];
  return {
    executionMs: plan['Execution Time'], rows: rowsScanned(plan.Plan), buffers: plan.Plan['Shared Hit Blocks'] + plan.Plan['Shared Read Blocks'],
    text: textual.map((line) => line['QUERY PLAN']).join('\n'),
  };
}

function scopeSql(scope: StatsScope, prefix = ''): string {
  if ('merchantId' in scope) return `${prefix}merchant_id = '${scope.merchantId}'`;
  if ('businessId' in scope) return `${prefix}business_id = '${scope.businessId}'`;
  return `${prefix}partner_id = '${scope.partnerId}'`;
}

/** The same sums from the quarter-hour table only: what the store would cost without rollups. */
function quarterOnlyQuery(scope: StatsScope, currency: string, period: DashboardPeriod, zone: string): SQL {
  const { buckets } = bucketPlan(period, zone);
  const values = sql.join(buckets.map((bucket, index) => sql`(${index}::int, ${bucket.start.toISOString()}::timestamptz, ${bucket.end.toISOString()}::timestamptz)`), sql`, `);
  return sql`SELECT r.idx, s.* FROM (VALUES ${values}) AS r(idx, lo, hi) CROSS JOIN LATERAL (
      SELECT sum(${transactionStats.volume}), sum(${transactionStats.revenue}), sum(${transactionStats.salesCount}) FROM ${transactionStats}
      WHERE ${sql.raw(scopeSql(scope, 'transaction_stats.'))} AND ${transactionStats.currency} = ${currency}
        AND ${transactionStats.bucketStart} >= r.lo AND ${transactionStats.bucketStart} < r.hi) s`;
}

/** The same sums by aggregating the transactions (the seed's definition), per bucket with width_bucket. */
function rawQuery(scope: StatsScope, currency: string, period: DashboardPeriod, zone: string): SQL {
  const { buckets } = bucketPlan(period, zone);
  const bounds = [...buckets.map((bucket) => bucket.start.toISOString()), buckets.at(-1)!.end.toISOString()];
  const filtered = statsAggregationSql.replace('WHERE p.kind = \'payment\'', `WHERE p.kind = 'payment' AND ${scopeSql(scope, 'p.')} AND p.currency = '${currency}'
    AND p.created_at >= '${bounds[0]}' AND p.created_at < '${bounds.at(-1)}'`);
  return sql`SELECT width_bucket(s.bucket_start, ${`{${bounds.join(',')}}`}::timestamptz[]) AS idx, sum(volume), sum(revenue), sum(sales_count)
    FROM (${sql.raw(filtered)}) s GROUP BY 1`;
}

try {
  if (!reuse) {
    console.log(`seeding ${transactionCount.toLocaleString('en-GB')} transactions into ${name}…`);
    const summary = await seedDatabase(database, { transactions: transactionCount, now: new Date('2026-11-21T00:00:00Z'), cardKeys: cardKeysFrom(randomBytes(32)) });
    console.log(`seeded in ${(summary.timings.totalMs / 1000).toFixed(1)} s (statistics ${summary.timings.statsMs} ms, ${summary.transactionStats.toLocaleString('en-GB')} quarter-hour rows)`);
    const started = performance.now();
    await database.db.transaction((tx) => rebuildStatsRollups(tx));
    console.log(`rollups rebuilt again in ${(performance.now() - started).toFixed(0)} ms`);
    await database.query(`VACUUM (ANALYZE) ${statsRollupTables.join(', ')}`);
  }
  const counts = await database.query<{ name: string; rows: string; size: string }>(`SELECT relname AS name, n_live_tup::text AS rows,
    pg_size_pretty(pg_total_relation_size(relid)) AS size FROM pg_stat_user_tables
    WHERE relname IN ('transactions', 'transaction_stats', ${statsRollupTables.map((table) => `'${table}'`).join(', ')}) ORDER BY relname`);
  console.log('\n| table | rows | size |\n|---|---|---|');
  for (const row of counts) console.log(`| ${row.name} | ${Number(row.rows).toLocaleString('en-GB')} | ${row.size} |`);

  const [business] = await database.query<{ id: string; merchants: string }>(`SELECT business_id AS id, count(*)::text AS merchants FROM merchants GROUP BY 1 ORDER BY 2 DESC, 1 LIMIT 1`);
  const [partner] = await database.query<{ id: string; merchants: string }>(`SELECT b.partner_id AS id, count(*)::text AS merchants FROM merchants m JOIN businesses b ON b.id = m.business_id WHERE b.partner_id IS NOT NULL GROUP BY 1 ORDER BY 2 DESC, 1 LIMIT 1`);
  const [merchant] = await database.query<{ id: string }>(`SELECT merchant_id AS id FROM transaction_stats_daily WHERE currency = 'GBP' GROUP BY 1 ORDER BY sum(volume) DESC LIMIT 1`);
  if (!business || !partner || !merchant) throw new Error('no data');
  const scopes: [string, StatsScope][] = [
    [`merchant ${merchant.id}`, { merchantId: merchant.id }],
    [`business ${business.id} (${business.merchants} merchants)`, { businessId: business.id }],
    [`partner ${partner.id} (${partner.merchants} merchants)`, { partnerId: partner.id }],
  ];
  const today = localDateOf(new Date('2026-11-20T12:00:00Z'), 'UTC');
  const views: [string, (zone: string) => DashboardPeriod][] = [
    ['year 2025', () => periodContaining('year', '2025-06-01')],
    ['month Jul 2026', () => periodContaining('month', '2026-07-15')],
    ['day 29 Mar 2026', () => periodContaining('day', '2026-03-29')],
    ['custom 2 years', () => ({ interval: 'custom', startDate: addLocalDays(today, -729), endDate: today })],
  ];
  const zones = ['Europe/London', 'Asia/Kolkata', 'UTC'];

  console.log('\n| view | zone | scope | rows read (quarter-hour only) | buffers (quarter-hour only) | EXPLAIN ms | API path median / p95 ms | quarter-hour only ms | raw transactions ms | declines median ms |');
  console.log('|---|---|---|---|---|---|---|---|---|---|');
  for (const [viewName, periodOf] of views) {
    for (const zone of zones) {
      if (viewName.startsWith('day') && zone === 'UTC') continue;
      for (const [scopeName, scope] of scopes) {
        const period = periodOf(zone);
        const { buckets } = bucketPlan(period, zone);
        const query = perBucketQuery(scope, 'GBP', buckets);
        if (!query) continue;
        const plan = await explain(query);
        const store = await timed(() => sumPerBucket(database.db, scope, 'GBP', buckets));
        const quarter = await explain(quarterOnlyQuery(scope, 'GBP', period, zone));
        const raw = viewName.startsWith('year') || viewName.startsWith('custom') ? await explain(rawQuery(scope, 'GBP', period, zone)) : null;
        const start = startOfLocalDate(period.startDate, zone);
        const end = startOfLocalDate(addLocalDays(period.endDate, 1), zone);
        const declines = await timed(() => declineReasons(database.db, scope, 'GBP', start, end));
        if (process.env.SHOW_PLANS && viewName.startsWith('year') && zone === 'Europe/London') console.log(`\n${plan.text}\n`);
        console.log(`| ${viewName} | ${zone} | ${scopeName} | ${plan.rows.toLocaleString('en-GB')} (${quarter.rows.toLocaleString('en-GB')}) | ${plan.buffers.toLocaleString('en-GB')} (${quarter.buffers.toLocaleString('en-GB')}) | ${plan.executionMs.toFixed(2)} | ${store.median.toFixed(2)} / ${store.p95.toFixed(2)} | ${quarter.executionMs.toFixed(2)} | ${raw ? raw.executionMs.toFixed(1) : '–'} | ${declines.median.toFixed(2)} |`);
      }
    }
  }
} finally {
  await database.close();
  if (process.env.MEASURE_KEEP !== '1') await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin.end();
}
