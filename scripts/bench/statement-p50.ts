// The statement API's latency for a year of the busiest merchant account group of a seeded database (the
// figure docs/benchmarks.md reports): DATABASE_URL (else PGlite under DATA_DIR), in process through the app (a test verifier stands in
// for tokens), as an internal admin. Prints p50, p90 and p95 of the statement page (with its opening balance and
// totals) in each order, for a month, for a period cut mid-day, filtered by category and on its last page; of its
// balance chart; and the year's camt.053 file read whole, in entries per second.
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
  const timed = async (name: string, path: string) => {
    const started = performance.now();
    const response = await app.request(path, { headers: { authorization: `Bearer user.${admin.id}`, 'x-time-zone': 'Europe/London' } });
    if (response.status !== 200) throw new Error(`${name}: ${response.status} ${await response.text()}`);
    const body = await response.arrayBuffer();
    return { ms: performance.now() - started, body };
  };
  const measure = async (name: string, path: string, n: number) => {
    await timed(name, path);
    const times: number[] = [];
    for (let i = 0; i < n; i += 1) times.push((await timed(name, path)).ms);
    times.sort((a, b) => a - b);
    const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))]?.toFixed(0);
    console.log(`${name}: p50 ${at(0.5)} ms, p90 ${at(0.9)} ms, p95 ${at(0.95)} ms (${n} calls)`);
  };
  console.log(`busiest trading account ${busiest.account_number} (${busiest.merchant_id}): ${Number(busiest.entries).toLocaleString('en-GB')} movements in the last year`);
  const page = `${base}?date=${date}&pagesize=25`;
  const [first] = [JSON.parse(new TextDecoder().decode((await timed('count', page)).body)) as { numberOfResults: number }];
  const lastPage = Math.max(1, Math.ceil(first.numberOfResults / 25));
  const month = new Date(end.getTime() - 200 * 86_400_000).toISOString().slice(0, 7);
  const monthDate = encodeURIComponent(`[gte]${month}-01[and][lte]${month}-28`);
  const midDay = encodeURIComponent(`[gte]${start.toISOString().slice(0, 10)}T13:45:00[and][lte]${end.toISOString().slice(0, 10)}T09:15:00`);
  await measure('statement page of 25 with totals, by date', page, calls);
  await measure('the same, newest first', `${page}&OrderingField=date&OrderingDirection=Descending`, calls);
  await measure('the same, sorted by amount, largest first', `${page}&OrderingField=amount&OrderingDirection=Descending`, calls);
  await measure('the same, sorted by amount, smallest first', `${page}&OrderingField=amount&OrderingDirection=Ascending`, calls);
  await measure(`the same, last page (${lastPage})`, `${page}&pagenumber=${lastPage}`, calls);
  await measure('the same, refunds only', `${page}&category=refund`, calls);
  await measure('one month, by date', `${base}?date=${monthDate}&pagesize=25`, calls);
  await measure('a year cut mid-day (13:45 to 09:15)', `${base}?date=${midDay}&pagesize=25`, calls);
  await measure('balance chart (365 days)', `${base}/balances?date=${date}`, Math.max(5, Math.floor(calls / 3)));
  const files: number[] = [];
  for (let i = 0; i < 3; i += 1) files.push((await timed('camt', `${base}/camt053?date=${date}`)).ms);
  files.sort((a, b) => a - b);
  const median = files[1] as number;
  console.log(`camt.053 of the year, read whole: p50 ${median.toFixed(0)} ms, ${Math.round(first.numberOfResults / (median / 1000)).toLocaleString('en-GB')} entries/s (${first.numberOfResults.toLocaleString('en-GB')} entries, 3 files)`);
} finally {
  await database.close();
}
