// The statement API's latency for a year of the busiest merchant account group of a seeded database (the
// figure docs/benchmarks.md reports): DATABASE_URL (else PGlite under DATA_DIR), in process through the app (a test verifier stands in
// for tokens), as an internal admin. Prints p50, p90 and p95 of the statement page (with its opening balance and
// totals) in each order, for a month, for a period cut mid-day, filtered by category and on its last page; of its
// balance chart; and the year's camt.053 file read whole, in entries per second. The bench's ledger section
// (scripts/bench/ledger.ts) calls statementFigures.
//   DATABASE_URL=postgres://… node scripts/bench/statement-p50.ts [--calls 30]
import { createApp } from '../../server/app.ts';
import { cardKeysFrom } from '../../server/cards/card-keys.ts';
import { type Database, openDatabase } from '../../server/db/client.ts';

export type StatementMeasure = { name: string; calls: number; p50: number; p90: number; p95: number };

export type StatementFigures = {
  /** the busiest trading account of the last year and its movements in it */
  accountNumber: string;
  merchantId: string;
  movements: number;
  measures: StatementMeasure[];
  /** the year's camt.053 read whole, 3 files: the median time and the entries written per second */
  camt: { ms: number; entries: number; entriesPerSecond: number; bytes: number };
};

/** Measures the statement page, the balance chart and the camt.053 of the busiest trading account's last year. */
export async function statementFigures(database: Database, options: { calls?: number; log?: (line: string) => void } = {}): Promise<StatementFigures> {
  const calls = options.calls ?? 30;
  const log = options.log ?? (() => undefined);
  const [admin] = await database.query<{ id: string }>("SELECT id FROM users WHERE email = 'admin@demo.test'");
  const [busiest] = await database.query<{
    account_number: string;
    business_id: string;
    merchant_id: string;
    entries: string;
  }>(`SELECT a.account_number, a.business_id, a.merchant_id, count(*) AS entries
    FROM ledger_entries e JOIN ledger_accounts a ON a.id = e.account_id
    WHERE a.kind = 'trading' AND e.value_at >= now() - interval '1 year' GROUP BY 1, 2, 3 ORDER BY 4 DESC LIMIT 1`);
  if (!admin || !busiest) throw new Error('seed the database first, with the ledger (npm run seed)');
  const app = createApp({
    database,
    cardKeys: cardKeysFrom(Buffer.alloc(32, 0x5a)),
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
  const measures: StatementMeasure[] = [];
  const measure = async (name: string, path: string, n: number) => {
    await timed(name, path);
    const times: number[] = [];
    for (let i = 0; i < n; i += 1) times.push((await timed(name, path)).ms);
    times.sort((a, b) => a - b);
    const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))] ?? Number.NaN;
    const result = { name, calls: n, p50: at(0.5), p90: at(0.9), p95: at(0.95) };
    measures.push(result);
    log(`${name}: p50 ${result.p50.toFixed(0)} ms, p90 ${result.p90.toFixed(0)} ms, p95 ${result.p95.toFixed(0)} ms (${n} calls)`);
  };
  log(
    `busiest trading account ${busiest.account_number} (${busiest.merchant_id}): ${Number(busiest.entries).toLocaleString('en-GB')} movements in the last year`,
  );
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
  await measure('the same, refunds only', `${page}&category=${encodeURIComponent('[eq]refund')}`, calls);
  await measure('one month, by date', `${base}?date=${monthDate}&pagesize=25`, calls);
  await measure('a year cut mid-day (13:45 to 09:15)', `${base}?date=${midDay}&pagesize=25`, calls);
  await measure('balance chart (365 days)', `${base}/balances?date=${date}`, Math.max(5, Math.floor(calls / 3)));
  const files: { ms: number; bytes: number }[] = [];
  for (let i = 0; i < 3; i += 1) {
    const file = await timed('camt', `${base}/camt053?date=${date}`);
    files.push({ ms: file.ms, bytes: file.body.byteLength });
  }
  files.sort((a, b) => a.ms - b.ms);
  const median = files[1] as { ms: number; bytes: number };
  const camt = { ms: median.ms, entries: first.numberOfResults, entriesPerSecond: Math.round(first.numberOfResults / (median.ms / 1000)), bytes: median.bytes };
  log(
    `camt.053 of the year, read whole: p50 ${camt.ms.toFixed(0)} ms, ${camt.entriesPerSecond.toLocaleString('en-GB')} entries/s (${camt.entries.toLocaleString('en-GB')} entries, 3 files)`,
  );
  return { accountNumber: busiest.account_number, merchantId: busiest.merchant_id, movements: Number(busiest.entries), measures, camt };
}

if (import.meta.main) {
  const calls = Number(process.argv[process.argv.indexOf('--calls') + 1]) || 30;
  const database = await openDatabase({ url: process.env.DATABASE_URL, dataDir: process.env.DATABASE_URL ? undefined : (process.env.DATA_DIR ?? './data') });
  try {
    await statementFigures(database, { calls, log: (line) => console.log(line) });
  } finally {
    await database.close();
  }
}
