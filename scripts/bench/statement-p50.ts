// The statement API's latency for a year of the busiest merchant account group of a seeded database (the
// figure docs/benchmarks.md reports): DATABASE_URL (else PGlite under DATA_DIR), in process through the app (a test verifier stands in
// for tokens), as an internal admin. Prints p50 and p90 of the statement page, its balance chart and the year's
// camt.053 file read whole.
//   DATABASE_URL=postgres://… node scripts/bench/statement-p50.ts [--calls 30]
import { createApp } from '../../server/app.ts';
import { cardKeysFrom } from '../../server/cards/card-keys.ts';
import { openDatabase } from '../../server/db/client.ts';

const calls = Number(process.argv[process.argv.indexOf('--calls') + 1]) || 30;
const database = await openDatabase({ url: process.env.DATABASE_URL, dataDir: process.env.DATABASE_URL ? undefined : process.env.DATA_DIR ?? './data' });
try {
  const [admin] = await database.query<{ id: string }>("SELECT id FROM users WHERE email = 'admin@demo.test'");
  const [busiest] = await database.query<{ account_number: string; business_id: string; merchant_id: string; entries: string }>(`SELECT a.account_number, a.business_id, a.merchant_id, count(*) AS entries
    FROM ledger_entries e JOIN ledger_accounts a ON a.id = e.account_id
    WHERE a.kind = 'trading' AND e.value_at >= now() - interval '1 year' GROUP BY 1, 2, 3 ORDER BY 4 DESC LIMIT 1`);
  if (!admin || !busiest) throw new Error('seed the database first (npm run seed)');
  const app = createApp({
    database, cardKeys: cardKeysFrom(Buffer.alloc(32, 0x5a)),
    verifyAccessToken: async (token) => ({ userId: token.slice(5), scopes: ['portal'] }),
  });
  const end = new Date();
  const start = new Date(end.getTime() - 365 * 86_400_000);
  const date = encodeURIComponent(`[gte]${start.toISOString().slice(0, 10)}[and][lte]${end.toISOString().slice(0, 10)}`);
  const base = `/api/portal/businesses/${busiest.business_id}/merchants/${busiest.merchant_id}/merchant-accountgroups/${busiest.account_number}/statements/trading`;
  const measure = async (name: string, path: string, n: number) => {
    const times: number[] = [];
    for (let i = 0; i < n; i += 1) {
      const started = performance.now();
      const response = await app.request(path, { headers: { authorization: `Bearer user.${admin.id}`, 'x-time-zone': 'Europe/London' } });
      if (response.status !== 200) throw new Error(`${name}: ${response.status} ${await response.text()}`);
      await response.arrayBuffer();
      times.push(performance.now() - started);
    }
    times.sort((a, b) => a - b);
    const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))]?.toFixed(0);
    console.log(`${name}: p50 ${at(0.5)} ms, p90 ${at(0.9)} ms (${n} calls)`);
  };
  console.log(`busiest trading account ${busiest.account_number} (${busiest.merchant_id}): ${Number(busiest.entries).toLocaleString('en-GB')} movements in the last year`);
  await measure('statement page of 25 with totals', `${base}?date=${date}&pagesize=25`, calls);
  await measure('statement page of 25, sorted by amount', `${base}?date=${date}&pagesize=25&OrderingField=amount&OrderingDirection=Descending`, calls);
  await measure('balance chart (365 days)', `${base}/balances?date=${date}`, Math.max(5, Math.floor(calls / 3)));
  await measure('camt.053 of the year, read whole', `${base}/camt053?date=${date}`, 5);
} finally {
  await database.close();
}
