// API overhead and load on the large data set: the API over HTTP against every statement it sent, run
// directly through the same driver; then autocannon at 50 and 200 connections on list, detail and dashboard.
// autocannon runs in a child process: in the server's process it would take the server's event loop for itself.
import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { Agent, createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { promisify } from 'node:util';
import { resolve } from 'node:path';
import { getRequestListener } from '@hono/node-server';
import type autocannon from 'autocannon';
import { createApp } from '../../server/app.ts';
import { loadCardKeys } from '../../server/cards/card-keys.ts';
import { openDatabase, type Database, type QueryOptions } from '../../server/db/client.ts';
import { isSeeded, seedDatabase } from '../../server/seed/seed.ts';
import { createIdentity } from '../../server/sign-in/router.ts';
import { signIn } from '../oidc-sign-in.ts';
import { markdownTable, ms, percentile, timeAlternately } from './stats.ts';

/**
 * cases: only the API/raw cases whose name contains it (--cases 'payment job': the payment jobs overview and detail);
 * loadSeconds 0 skips the load rows.
 */
export type ApiBenchOptions = { kind: 'pglite' | 'postgres'; url?: string; dataDir?: string; transactions: number; loadSeconds: number; iterations: number; cases?: string | undefined };

type Captured = { text: string; params: unknown[]; options: QueryOptions };

/** A statement cancelled by its budget (SQLSTATE 57014): the API call met the same cancellation and went on. */
const cancelledByBudget = (error: unknown) => (error as { code?: string } | null)?.code === '57014';

type AutocannonResult = Awaited<ReturnType<typeof autocannon>>;
const autocannonCli = createRequire(import.meta.url).resolve('autocannon/autocannon.js');

/** autocannon's command line in its own Node process; its JSON summary is the result. */
async function loadTest(options: { url: string; method: string; headers: Record<string, string>; body?: string | undefined; connections: number; seconds: number }): Promise<AutocannonResult> {
  const args = [autocannonCli, '--json', '--no-progress', '-c', String(options.connections), '-d', String(options.seconds), '-m', options.method];
  for (const [name, value] of Object.entries(options.headers)) args.push('-H', `${name}=${value}`);
  if (options.body !== undefined) args.push('-b', options.body);
  args.push(options.url);
  const { stdout } = await promisify(execFile)(process.execPath, args, { maxBuffer: 16 * 1024 * 1024 });
  return JSON.parse(stdout) as AutocannonResult;
}

/** Errors (autocannon counts its 10 s timeouts among them) and non-2xx answers, with the timeouts named. */
function failures(result: AutocannonResult): string {
  const total = result.errors + result.non2xx;
  return result.timeouts > 0 ? `${total} (${result.timeouts} timeouts)` : String(total);
}

/**
 * One HTTP/1.1 call on a kept-alive socket of node:http, the leanest client Node has: the time measured is the
 * server's plus a round trip on the loopback, not the cost of a heavier client (fetch) in the same process.
 */
function httpCall(agent: Agent, url: URL, method: string, headers: Record<string, string>, body: string | undefined): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest({ host: url.hostname, port: url.port, path: `${url.pathname}${url.search}`, method, headers, agent }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
      response.on('error', reject);
    });
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

export async function benchApi(options: ApiBenchOptions): Promise<string> {
  let capture: Captured[] | null = null;
  const database: Database = await openDatabase({
    url: options.url, dataDir: options.dataDir, poolSize: 30,
    onQuery: (text, params, queryOptions) => capture?.push({ text, params, options: queryOptions }),
  });
  // The bench's data set outlives a run, so its card key does too: the server's key for the PGlite folder, else .bench's.
  const { keys: cardKeys } = loadCardKeys({ cardDataKey: process.env.CARD_DATA_KEY, dataDir: options.dataDir ?? resolve(import.meta.dirname, '../../.bench') });
  if (!(await isSeeded(database))) {
    console.log(`[bench] seeding ${options.kind} with ${options.transactions.toLocaleString('en-GB')} transactions (once)…`);
    await seedDatabase(database, { transactions: options.transactions, ledger: options.transactions < 1_000_000, log: (line) => console.log(`[seed] ${line}`), cardKeys });
  }
  const [{ count } = { count: 0 }] = await database.query<{ count: number }>('SELECT count(*)::int AS count FROM transactions');

  // A real server: identity provider, verifier, HTTP. Only the port differs from npm start.
  const server = createServer();
  // Longer than the client's keep-alive, so the load generator never reuses a socket the server is closing.
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const publicUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const identity = await createIdentity({ database, publicUrl, clientId: 'portal', issuer: `${publicUrl}/connect`, apiAudience: `${publicUrl}/api/portal` });
  const listener = getRequestListener(createApp({ database, cardKeys, verifyAccessToken: identity.verifyAccessToken }).fetch);
  // Calls still running when the load generator stops (their clients gone) finish before the database closes.
  const running = new Set<Promise<unknown>>();
  server.on('request', (request, response) => {
    if ((request.url ?? '').startsWith('/connect')) return identity.handle(request, response);
    const call = Promise.resolve(listener(request, response)).finally(() => running.delete(call));
    running.add(call);
  });
  const { accessToken } = await signIn(publicUrl, 'admin@demo.test');
  const headers = { authorization: `Bearer ${accessToken}`, 'time-zone': 'Europe/London', 'content-type': 'application/json' };

  // The busiest business: the realistic worst case for a business-level overview.
  const [busiest] = await database.query<{ business_id: string; merchant_id: string; reference: string }>(
    `SELECT business_id, min(merchant_id) AS merchant_id, max(reference) AS reference FROM transactions GROUP BY business_id ORDER BY count(*) DESC LIMIT 1`);
  if (!busiest) throw new Error('no transactions to measure');
  const business = `/businesses/${busiest.business_id}`;
  const year = new Date().getUTCFullYear();
  const cases: { name: string; method: string; path: string; body?: string }[] = [
    { name: 'list, newest first', method: 'GET', path: `${business}/transactions?pagenumber=1&pagesize=25` },
    { name: 'list, amount descending', method: 'GET', path: `${business}/transactions?pagesize=25&OrderingField=amount&OrderingDirection=Descending` },
    { name: 'list, status=paid, last 30 days', method: 'GET', path: `${business}/transactions?pagesize=25&status=${encodeURIComponent('[eq]paid')}&date=${encodeURIComponent(`[gte]${new Date(Date.now() - 30 * 86_400_000).toISOString()}`)}` },
    { name: 'list, amount 10–50, card', method: 'GET', path: `${business}/transactions?pagesize=25&amount=${encodeURIComponent('[gte]10[and][lte]50')}&paymentmethod=${encodeURIComponent('[eq]card')}` },
    { name: 'list, all tenants (internal)', method: 'GET', path: '/transactions?pagesize=25' },
  ];
  // Payment jobs: the overview of the busiest business and the detail of one of its jobs with a refund.
  const [refunded] = await database.query<{ reference: string }>(
    `SELECT payment_job_reference AS reference FROM transactions WHERE business_id = $1 AND kind = 'refund' ORDER BY reference LIMIT 1`, [busiest.business_id]);
  cases.push({ name: 'payment jobs overview, newest first', method: 'GET', path: `${business}/payment-jobs?pagesize=25` });
  if (refunded) cases.push({ name: 'payment job detail', method: 'GET', path: `${business}/payment-jobs/${refunded.reference}` });

  const rows: (string | number)[][] = [];
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  for (const benchCase of cases.filter((candidate) => !options.cases || candidate.name.includes(options.cases))) {
    const url = new URL(`${publicUrl}/api/portal${benchCase.path}`);
    const call = async () => {
      const response = await httpCall(agent, url, benchCase.method, headers, benchCase.body);
      if (response.status !== 200) throw new Error(`${benchCase.name}: ${response.status} ${response.text}`);
    };
    await call();
    capture = [];
    await call();
    const statements = capture;
    capture = null;
    const [api, raw] = await timeAlternately(call, async () => {
      // Each statement as the call ran it: a budgeted one under the same statement timeout, on the same kind of connection.
      for (const statement of statements) {
        await database.query(statement.text, statement.params, statement.options).catch((error: unknown) => {
          if (!cancelledByBudget(error)) throw error;
        });
      }
    }, options.iterations);
    const ratio = percentile(api, 50) / percentile(raw, 50);
    rows.push([benchCase.name, statements.length, ms(percentile(raw, 50)), ms(percentile(raw, 99)), ms(percentile(api, 50)), ms(percentile(api, 99)), `${ratio.toFixed(2)}×`, ratio <= 1.5 ? 'yes' : 'no']);
  }
  const overhead = markdownTable(['transactions list (page 1, 25 rows)', 'statements', 'raw p50', 'raw p99', 'API p50', 'API p99', 'API/raw p50', '≤ 1.5×'], rows);

  const loadRows: (string | number)[][] = [];
  const loadCases = [
    { name: 'list', method: 'GET', path: `${business}/transactions?pagesize=25` },
    { name: 'detail', method: 'GET', path: `${business}/merchants/${busiest.merchant_id}/transactions/${(await database.query<{ reference: string }>('SELECT reference FROM transactions WHERE merchant_id = $1 LIMIT 1', [busiest.merchant_id]))[0]?.reference}` },
    { name: 'dashboard (year)', method: 'POST', path: `${business}/dashboard`, body: JSON.stringify({ interval: 'year', dateRange: { startDate: `${year}-01-01`, endDate: `${year}-12-31` } }) },
  ];
  for (const loadCase of loadCases) {
    const response = await fetch(`${publicUrl}/api/portal${loadCase.path}`, { method: loadCase.method, headers, body: loadCase.body });
    if (!response.ok) throw new Error(`load case ${loadCase.name} answers ${response.status}: ${await response.text()}`);
  }
  for (const connections of options.loadSeconds > 0 ? [50, 200] : []) {
    for (const loadCase of loadCases) {
      const result = await loadTest({
        url: `${publicUrl}/api/portal${loadCase.path}`, method: loadCase.method, headers, body: loadCase.body,
        connections, seconds: options.loadSeconds,
      });
      loadRows.push([loadCase.name, connections, Math.round(result.requests.average), `${result.latency.p50} ms`, `${result.latency.p99} ms`, failures(result)]);
    }
  }
  const load = markdownTable(['call', 'connections', 'requests/s', 'p50', 'p99', 'errors + non-2xx'], loadRows);

  agent.destroy();
  server.closeAllConnections();
  server.close();
  await Promise.allSettled([...running]);
  await database.close();
  return `### API on ${options.kind} (${count.toLocaleString('en-GB')} transactions)\n\n${overhead}\n\nLoad, ${options.loadSeconds} s per row, autocannon in its own process:\n\n${load}`;
}
