// Page 1 of the transactions overview for every documented sort (both directions) and filter, in every kind of
// scope, against a seeded PostgreSQL database (2,000,000 transactions: `SEED_TRANSACTIONS=2000000 npm run seed`
// against DATABASE_URL). Each case runs the real route (page and count) three times; the median is reported.
//   node scripts/bench/transactions-overview.ts postgres://postgres@127.0.0.1:5432/portal_bench [label filter]
// Read-only; no migration is run (the database must be at the current schema).
import { randomBytes } from 'node:crypto';
import { Hono } from 'hono';
import type { AppEnv } from '../../server/http/env.ts';
import { transactionRoutes } from '../../server/api/transactions.ts';
import { cardKeysFrom } from '../../server/cards/card-keys.ts';
import { createFolderStore } from '../../server/files/folder-store.ts';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase, type Database } from '../../server/db/client.ts';
import { loadPrincipal } from '../../server/policy/principal.ts';
import { markdownTable, ms, percentile } from './stats.ts';

const url = process.argv[2] ?? process.env.DATABASE_URL;
if (!url) throw new Error('usage: node scripts/bench/transactions-overview.ts <postgres url> [label filter]');
const only = process.argv[3];

// The server's own handle (with its budgeted pools), without migrating: the database is read, never changed.
const database: Database = await openDatabase({ url, poolSize: 5, migrate: false });

const [admin] = await database.query<{ id: string }>(`SELECT id FROM users WHERE email = 'admin@demo.test'`);
if (!admin) throw new Error('no admin@demo.test: seed the database first');
const principal = await loadPrincipal(database, admin.id);
if (!principal) throw new Error('admin@demo.test has no principal');
const app = new Hono<AppEnv>();
app.use('*', async (c, next) => {
  c.set('principal', principal);
  c.set('timeZone', 'Europe/London');
  await next();
});
// The overview never opens a card: a throwaway key will do.
app.route(
  '/',
  transactionRoutes({
    database,
    cardKeys: cardKeysFrom(randomBytes(32)),
    files: createFolderStore(join(tmpdir(), 'bench-files')),
    publicUrl: 'http://localhost:3000',
  }),
);

/** The largest and smallest business and merchant, and the largest partner, by transactions. */
async function extreme(column: 'business_id' | 'merchant_id' | 'partner_id', order: 'DESC' | 'ASC') {
  const [row] = await database.query<{ id: string; business: string }>(
    `SELECT ${column} AS id, min(business_id) AS business FROM transactions WHERE ${column} IS NOT NULL GROUP BY ${column} ORDER BY count(*) ${order} LIMIT 1`,
  );
  if (!row) throw new Error(`no ${column}`);
  return row;
}
const [bigBusiness, smallBusiness, bigMerchant, smallMerchant, bigPartner] = await Promise.all([
  extreme('business_id', 'DESC'),
  extreme('business_id', 'ASC'),
  extreme('merchant_id', 'DESC'),
  extreme('merchant_id', 'ASC'),
  extreme('partner_id', 'DESC'),
]);
const [newest] = await database.query<{ day: string }>(`SELECT to_char(max(created_at) AT TIME ZONE 'Europe/London', 'YYYY-MM-DD') AS day FROM transactions`);
const [sample] = await database.query<{ reference: string; email: string }>(
  `SELECT reference, customer_email AS email FROM transactions WHERE customer_email IS NOT NULL LIMIT 1 OFFSET 1000`,
);
const day = newest?.day ?? '2026-11-20';
const month = day.slice(0, 7);

const scopes: Record<string, string> = {
  all: '/transactions',
  partner: `/partners/${bigPartner.id}/transactions`,
  bizBig: `/businesses/${bigBusiness.id}/transactions`,
  bizSmall: `/businesses/${smallBusiness.id}/transactions`,
  merBig: `/businesses/${bigMerchant.business}/merchants/${bigMerchant.id}/transactions`,
  merSmall: `/businesses/${smallMerchant.business}/merchants/${smallMerchant.id}/transactions`,
};
const filter = (name: string, value: string) => `${name}=${encodeURIComponent(value)}`;
const filters: Record<string, string> = {
  none: '',
  month: filter('date', `[gte]${month}-01T00:00:00[and][lte]${day}T23:59:59`),
  day: filter('date', `[gte]${day}T00:00:00[and][lte]${day}T23:59:59`),
  amountGte: filter('amount', '[gte]500'),
  amountRange: filter('amount', '[gte]10[and][lte]10.5'),
  pending: filter('status', '[eq]pending'),
  declined: filter('status', '[eq]declined'),
  chp: filter('channel', '[eq]chp'),
  bancontact: filter('paymentmethod', '[eq]bancontact'),
  jpy: filter('currency', '[eq]JPY'),
  refund: filter('kind', '[eq]refund'),
  searchRef: filter('searchterm', `[eq]${sample?.reference.slice(0, 9) ?? 'TX00'}`),
  searchEmail: filter('searchterm', `[eq]${sample?.email.slice(0, 10) ?? 'a'}`),
  combo: [filter('status', '[eq]declined'), filter('paymentmethod', '[eq]applepay'), filter('date', `[gte]${month}-01T00:00:00`)].join('&'),
};
const sorts = ['date', 'amount', 'status', 'reference', 'merchant'];

const results: { label: string; ms: number; total: string }[] = [];
for (const [scopeName, prefix] of Object.entries(scopes)) {
  for (const [filterName, query] of Object.entries(filters)) {
    for (const sort of sorts) {
      for (const direction of ['Descending', 'Ascending']) {
        const label = `${scopeName} ${filterName} ${sort} ${direction}`;
        if (only && !label.includes(only)) continue;
        const path = `${prefix}?OrderingField=${sort}&OrderingDirection=${direction}${query ? `&${query}` : ''}`;
        const warm = await app.request(path);
        if (warm.status !== 200) throw new Error(`${label}: ${warm.status} ${await warm.text()}`);
        const samples: number[] = [];
        let body: { numberOfResults: number; numberOfResultsIsEstimate: boolean } = { numberOfResults: 0, numberOfResultsIsEstimate: false };
        for (let run = 0; run < 3; run += 1) {
          const started = performance.now();
          body = (await (await app.request(path)).json()) as typeof body;
          samples.push(performance.now() - started);
        }
        const median = percentile(samples, 50);
        results.push({ label, ms: median, total: `${body.numberOfResults}${body.numberOfResultsIsEstimate ? '~' : ''}` });
        console.log(`${label}\t${median.toFixed(1)}\t${results.at(-1)?.total}`);
      }
    }
  }
}

const times = results.map((result) => result.ms);
const within = (limit: number) => `${results.filter((result) => result.ms <= limit).length} / ${results.length}`;
console.log(
  `\n${markdownTable(
    ['cases', 'p50', 'p90', 'p95', 'p99', 'max', '≤ 25 ms', '≤ 50 ms', '≤ 100 ms', '≤ 200 ms'],
    [
      [
        results.length,
        ms(percentile(times, 50)),
        ms(percentile(times, 90)),
        ms(percentile(times, 95)),
        ms(percentile(times, 99)),
        ms(Math.max(...times)),
        within(25),
        within(50),
        within(100),
        within(200),
      ],
    ],
  )}`,
);
console.log(
  `\nslowest:\n${markdownTable(
    ['case', 'median', 'total'],
    [...results]
      .sort((a, b) => b.ms - a.ms)
      .slice(0, 15)
      .map((result) => [result.label, ms(result.ms), result.total]),
  )}`,
);
await database.close();
