// API overhead and load on the large data set: the API over HTTP against every statement it sent, run
// directly through the same driver; then autocannon at 50 and 200 connections on list, detail and dashboard, each
// beside its raw twin (the call's statements replayed by as many workers on a pool of the server's size); then, on
// PostgreSQL, one node against several behind the round-robin proxy (api-nodes.ts).
// autocannon runs in a child process: in the server's process it would take the server's event loop for itself.
import { readFileSync } from 'node:fs';
import { Agent, createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getRequestListener } from '@hono/node-server';
import { createApp, defaultPerUserInFlight } from '../../server/app.ts';
import { openDatabase, type Database, type QueryOptions } from '../../server/db/client.ts';
import { ensureBenchData } from './bench-data.ts';
import { createIdentity } from '../../server/sign-in/router.ts';
import { signIn } from '../oidc-sign-in.ts';
import { benchNodes } from './api-nodes.ts';
import { failures, loadAverage, loadTest } from './load-test.ts';
import { markdownTable, ms, percentile, timeAlternately } from './stats.ts';

/**
 * cases: only the API/raw cases whose name contains it (--cases 'payment job': the payment jobs overview and detail);
 * loadSeconds 0 skips the load rows; rawLoad: each load row beside its raw twin; nodes (PostgreSQL, with load rows):
 * 1 node against this many behind the proxy, fewer than 2 skips; nodesPort: the proxy's port, the nodes' next.
 */
export type ApiBenchOptions = {
  kind: 'pglite' | 'postgres';
  url?: string;
  dataDir?: string;
  transactions: number;
  loadSeconds: number;
  iterations: number;
  cases?: string | undefined;
  rawLoad: boolean;
  nodes: number;
  nodesPort: number;
};

/** server/db/client.ts's default pool, which `npm start` runs with: the API here and its raw twin both use it. */
const serverPoolSize = 20;

/**
 * The load's callers: the server caps one user's Portal API calls in progress on a node (server/app.ts, 429 beyond),
 * so a load of N connections takes N / cap users, copies of admin@demo.test (its roles and password) kept in the
 * bench's database. Their emails, for signIn.
 */
async function loadUsers(database: Database, connections: number): Promise<string[]> {
  const count = Math.ceil(connections / defaultPerUserInFlight);
  await database.query(
    `INSERT INTO users (id, email, given_name, family_name, password_hash, internal, password_expires_utc, status, language)
     SELECT 'USRLOAD' || lpad(n::text, 4, '0'), 'load-' || lpad(n::text, 4, '0') || '@bench.test', 'Load', 'Caller ' || n,
            u.password_hash, u.internal, u.password_expires_utc, u.status, u.language
       FROM users u, generate_series(1, $1::int) AS n WHERE u.email = 'admin@demo.test'
     ON CONFLICT DO NOTHING`,
    [count],
  );
  await database.query(
    `INSERT INTO user_roles (user_id, role, level, partner_id, business_id, merchant_id)
     SELECT l.id, r.role, r.level, r.partner_id, r.business_id, r.merchant_id
       FROM users l CROSS JOIN user_roles r JOIN users a ON a.id = r.user_id AND a.email = 'admin@demo.test'
      WHERE l.id LIKE 'USRLOAD%' AND NOT EXISTS (SELECT 1 FROM user_roles x WHERE x.user_id = l.id)`,
  );
  return Array.from({ length: count }, (_, index) => `load-${String(index + 1).padStart(4, '0')}@bench.test`);
}

type Captured = { text: string; params: unknown[]; options: QueryOptions };

/** A statement cancelled by its budget (SQLSTATE 57014): the API call met the same cancellation and went on. */
const cancelledByBudget = (error: unknown) => (error as { code?: string } | null)?.code === '57014';

/**
 * One HTTP/1.1 call on a kept-alive socket of node:http, the leanest client Node has: the time measured is the
 * server's plus a round trip on the loopback, not the cost of a heavier client (fetch) in the same process.
 */
function httpCall(
  agent: Agent,
  url: URL,
  method: string,
  headers: Record<string, string>,
  body: string | undefined,
): Promise<{ status: number; text: string }> {
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
    url: options.url,
    dataDir: options.dataDir,
    poolSize: serverPoolSize,
    onQuery: (text, params, queryOptions) => capture?.push({ text, params, options: queryOptions }),
  });
  // Statements sent through the raw query, outside the ORM (the dashboard's sums, among others), are a call's too.
  const rawQuery = database.query;
  database.query = ((text: string, params?: unknown[], queryOptions?: QueryOptions) => {
    capture?.push({ text, params: params ?? [], options: queryOptions ?? {} });
    return rawQuery(text, params, queryOptions);
  }) as Database['query'];
  const { cardKeys, keyPath, described } = await ensureBenchData(database, options);

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
    `SELECT business_id, min(merchant_id) AS merchant_id, max(reference) AS reference FROM transactions GROUP BY business_id ORDER BY count(*) DESC LIMIT 1`,
  );
  if (!busiest) throw new Error('no transactions to measure');
  const business = `/businesses/${busiest.business_id}`;
  const year = new Date().getUTCFullYear();
  const cases: { name: string; method: string; path: string; body?: string }[] = [
    { name: 'list, newest first', method: 'GET', path: `${business}/transactions?pagenumber=1&pagesize=25` },
    { name: 'list, amount descending', method: 'GET', path: `${business}/transactions?pagesize=25&OrderingField=amount&OrderingDirection=Descending` },
    {
      name: 'list, status=paid, last 30 days',
      method: 'GET',
      path: `${business}/transactions?pagesize=25&status=${encodeURIComponent('[eq]paid')}&date=${encodeURIComponent(`[gte]${new Date(Date.now() - 30 * 86_400_000).toISOString()}`)}`,
    },
    {
      name: 'list, amount 10–50, card',
      method: 'GET',
      path: `${business}/transactions?pagesize=25&amount=${encodeURIComponent('[gte]10[and][lte]50')}&paymentmethod=${encodeURIComponent('[eq]card')}`,
    },
    { name: 'list, all tenants (internal)', method: 'GET', path: '/transactions?pagesize=25' },
  ];
  // Payment jobs: the overview of the busiest business and the detail of one of its jobs with a refund.
  const [refunded] = await database.query<{ reference: string }>(
    `SELECT payment_job_reference AS reference FROM transactions WHERE business_id = $1 AND kind = 'refund' ORDER BY reference LIMIT 1`,
    [busiest.business_id],
  );
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
    const [api, raw] = await timeAlternately(
      call,
      async () => {
        // Each statement as the call ran it: a budgeted one under the same statement timeout, on the same kind of connection.
        for (const statement of statements) {
          await database.query(statement.text, statement.params, statement.options).catch((error: unknown) => {
            if (!cancelledByBudget(error)) throw error;
          });
        }
      },
      options.iterations,
    );
    const ratio = percentile(api, 50) / percentile(raw, 50);
    rows.push([
      benchCase.name,
      statements.length,
      ms(percentile(raw, 50)),
      ms(percentile(raw, 99)),
      ms(percentile(api, 50)),
      ms(percentile(api, 99)),
      `${ratio.toFixed(2)}×`,
      ratio <= 1.5 ? 'yes' : 'no',
    ]);
  }
  const overhead = markdownTable(
    ['transactions list (page 1, 25 rows)', 'statements', 'raw p50', 'raw p99', 'API p50', 'API p99', 'API/raw p50', '≤ 1.5×'],
    rows,
  );

  const loadRows: (string | number)[][] = [];
  const loadCases = [
    { name: 'list', method: 'GET', path: `${business}/transactions?pagesize=25` },
    {
      name: 'detail',
      method: 'GET',
      path: `${business}/merchants/${busiest.merchant_id}/transactions/${(await database.query<{ reference: string }>('SELECT reference FROM transactions WHERE merchant_id = $1 LIMIT 1', [busiest.merchant_id]))[0]?.reference}`,
    },
    {
      name: 'dashboard (year)',
      method: 'POST',
      path: `${business}/dashboard`,
      body: JSON.stringify({ interval: 'year', dateRange: { startDate: `${year}-01-01`, endDate: `${year}-12-31` } }),
    },
  ];
  // The statements one call of each load case sends (after a first call that warms it up), for its raw twin.
  const loadStatements = new Map<string, Captured[]>();
  for (const loadCase of loadCases) {
    const response = await fetch(`${publicUrl}/api/portal${loadCase.path}`, { method: loadCase.method, headers, body: loadCase.body });
    if (!response.ok) throw new Error(`load case ${loadCase.name} answers ${response.status}: ${await response.text()}`);
    capture = [];
    const captured = await httpCall(agent, new URL(`${publicUrl}/api/portal${loadCase.path}`), loadCase.method, headers, loadCase.body);
    loadStatements.set(loadCase.name, capture);
    capture = null;
    if (captured.status !== 200) throw new Error(`load case ${loadCase.name} answers ${captured.status}: ${captured.text}`);
  }
  const withRaw = options.rawLoad;
  const loadConnections = options.loadSeconds > 0 ? [50, 200] : [];
  const loadEmails = loadConnections.length ? await loadUsers(database, Math.max(...loadConnections)) : [];
  // One after another: sign-ins at once from one address are throttled.
  const loadHeaders: Record<string, string>[] = [];
  for (const email of loadEmails) loadHeaders.push({ ...headers, authorization: `Bearer ${(await signIn(publicUrl, email)).accessToken}` });
  const loadBefore = loadAverage();
  for (const connections of loadConnections) {
    for (const loadCase of loadCases) {
      const result = await loadTest({
        url: `${publicUrl}/api/portal${loadCase.path}`,
        method: loadCase.method,
        headers: loadHeaders,
        body: loadCase.body,
        connections,
        seconds: options.loadSeconds,
      });
      const row: (string | number)[] = [
        loadCase.name,
        connections,
        Math.round(result.requests.average),
        `${result.latency.p50} ms`,
        `${result.latency.p99} ms`,
        failures(result),
      ];
      if (withRaw) {
        const statements = loadStatements.get(loadCase.name) ?? [];
        const raw = await rawLoad(database, statements, connections, options.loadSeconds);
        const ratio = result.requests.average / raw.perSecond;
        row.push(statements.length, Math.round(raw.perSecond), ms(raw.p50), ms(raw.p99), raw.errors, `${ratio.toFixed(2)}×`, ratio >= 0.7 ? 'yes' : 'no');
      }
      loadRows.push(row);
    }
  }
  const pool = options.kind === 'postgres' ? `pool ${serverPoolSize}` : 'PGlite';
  const load = markdownTable(
    [
      'call',
      'connections',
      'API requests/s',
      'API p50',
      'API p99',
      'errors + non-2xx',
      ...(withRaw ? ['statements', `raw calls/s (${pool})`, 'raw p50', 'raw p99', 'raw errors', 'API/raw', '≥ 0.7×'] : []),
    ],
    loadRows,
  );
  const callers = `${loadEmails.length} users sharing the connections (a user may have ${defaultPerUserInFlight} calls in progress on a node)`;
  const loadNote = withRaw
    ? `Load, ${options.loadSeconds} s per row, autocannon in its own process, ${callers}; beside each row its raw twin: as many workers as connections, ` +
      "each replaying the statements of one call back to back for as long, each statement on a connection of the same pool as the API's " +
      `(${options.kind === 'postgres' ? `${serverPoolSize} connections, the server's default; budgeted statements on the budget's own pool, as the API runs them` : 'PGlite: one connection, on its own thread'}). ` +
      `API/raw is requests/s over raw calls/s (goal ≥ 0.7×). Load average ${loadBefore} → ${loadAverage()}:`
    : `Load, ${options.loadSeconds} s per row, autocannon in its own process, ${callers}:`;

  agent.destroy();
  server.closeAllConnections();
  server.close();
  await Promise.allSettled([...running]);
  await database.close();
  let nodes = '';
  const listCase = loadCases[0];
  if (options.kind === 'postgres' && options.url && options.loadSeconds > 0 && options.nodes >= 2 && listCase) {
    const cardDataKey = process.env.CARD_DATA_KEY || (keyPath ? readFileSync(keyPath, 'utf8').trim() : '');
    nodes = `\n\n${await benchNodes({
      databaseUrl: options.url,
      cardDataKey,
      emails: loadEmails,
      path: listCase.path,
      nodes: options.nodes,
      connections: 200,
      seconds: options.loadSeconds,
      port: options.nodesPort,
    })}`;
  }
  return `### API on ${options.kind} (${described})\n\n${overhead}\n\n${loadNote}\n\n${load}${nodes}`;
}

/**
 * The raw twin of a load row: `workers` callers (as many as the load's connections), each replaying a call's
 * statements back to back for `seconds`, each statement through the same driver and pool the API's handlers use.
 */
async function rawLoad(database: Database, statements: Captured[], workers: number, seconds: number) {
  const latencies: number[] = [];
  let errors = 0;
  const started = performance.now();
  const deadline = started + seconds * 1000;
  await Promise.all(
    Array.from({ length: workers }, async () => {
      while (performance.now() < deadline) {
        const callStarted = performance.now();
        try {
          for (const statement of statements) {
            await database.query(statement.text, statement.params, statement.options).catch((error: unknown) => {
              if (!cancelledByBudget(error)) throw error;
            });
          }
          latencies.push(performance.now() - callStarted);
        } catch {
          errors += 1;
        }
      }
    }),
  );
  // Calls under way at the deadline finish and count, over the time they took: a rate, as autocannon's.
  return { perSecond: latencies.length / ((performance.now() - started) / 1000), p50: percentile(latencies, 50), p99: percentile(latencies, 99), errors };
}
