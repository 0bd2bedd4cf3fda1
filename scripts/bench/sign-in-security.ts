// Sign-in under a flood and revocation across nodes. Run on its own:
//
//   node scripts/bench/sign-in-security.ts [--port 3118] [--before-root DIR] [--skip-postgres] [--rounds 5]
//
// 1. A real user's sign-in (authorize, the sign-in form, code exchange) alone, then while 150 sign-in posts with
//    unknown emails hit one sign-in page at once from another client address; the burst's outcome (answers by
//    status). The server is a real `server/main.ts` on PGlite with TRUSTED_PROXIES=loopback, so each side has its own
//    address through X-Forwarded-For, as behind a load balancer. --before-root runs the same against another checkout
//    (e.g. `git archive` of a commit before the hardening, with node_modules linked) for a before/after.
// 2. Two nodes on one PostgreSQL (TEST_DATABASE_URL): sign in, call node B (it now trusts the grant), revoke the
//    refresh token on node A (the inactivity sign-out), and poll node B every 50 ms until it refuses the access token.
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { CookieJar, signIn } from '../oidc-sign-in.ts';
import { startRoundRobinProxy } from '../round-robin-proxy.ts';
import { startServer, type ServerProcess } from '../server-process.ts';

const args = process.argv.slice(2);
const option = (name: string) => {
  const index = args.indexOf(name);
  return index >= 0 ? args[index + 1] : undefined;
};
const port = Number(option('--port') ?? 3118);
const rounds = Number(option('--rounds') ?? 5);
const floodSize = 150;
const user = 'admin@demo.test';
const realUserAddress = { 'x-forwarded-for': '198.51.100.20' };
const attackerAddress = '203.0.113.5';

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length ? sorted[Math.floor((sorted.length - 1) / 2)]! : NaN;
};
const fmt = (value: number) => `${Math.round(value)} ms`;

async function timedSignIn(url: string): Promise<number> {
  const started = performance.now();
  await signIn(url, user, 'portal-demo', { headers: realUserAddress });
  return performance.now() - started;
}

/** One sign-in page of the attacker's (its interaction cookie and form address). */
async function attackerPage(url: string) {
  const jar = new CookieJar({ 'x-forwarded-for': attackerAddress });
  const authorize = new URL(`${url}/connect/authorize`);
  for (const [name, value] of Object.entries({
    client_id: 'portal',
    redirect_uri: `${url}/sign-in`,
    response_type: 'code',
    scope: 'openid portal',
    state: 'flood',
    code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
    code_challenge_method: 'S256',
  }))
    authorize.searchParams.set(name, value);
  let current = authorize.href;
  let response = await jar.fetch(current);
  for (let hops = 0; hops < 10 && response.status >= 300 && response.status < 400; hops += 1) {
    current = new URL(response.headers.get('location') ?? '', current).href;
    response = await jar.fetch(current);
  }
  await response.arrayBuffer();
  return { jar, action: current };
}

async function flood(url: string) {
  // Warm up: the first sign-in of a fresh server pays for compiling and caching.
  await timedSignIn(url);
  const alone: number[] = [];
  for (let round = 0; round < rounds; round += 1) alone.push(await timedSignIn(url));

  const page = await attackerPage(url);
  const statuses = new Map<number, number>();
  const started = performance.now();
  const burst = Promise.all(
    Array.from({ length: floodSize }, async (_, index) => {
      const response = await page.jar.fetch(page.action, {
        method: 'POST',
        body: new URLSearchParams({ email: `nobody-${index}-${randomBytes(3).toString('hex')}@example.com`, password: 'guess' }),
      });
      await response.arrayBuffer();
      statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
    }),
  ).then(() => performance.now() - started);
  // The real user signs in while the burst is in flight (the first attempt starts with it).
  const during: number[] = [];
  const real = (async () => {
    for (let round = 0; round < rounds; round += 1) during.push(await timedSignIn(url));
  })();
  const [burstMs] = await Promise.all([burst, real]);
  return { alone, during, burstMs, statuses: [...statuses].sort(([a], [b]) => a - b) };
}

async function floodSection(label: string, root: string | undefined) {
  const server = await startServer({
    port,
    root,
    dataDir: mkdtempSync(join(tmpdir(), 'portal-bench-signin-')),
    env: { SEED_TRANSACTIONS: '2000', TRUSTED_PROXIES: 'loopback', LOG_LEVEL: 'warn' },
  });
  try {
    const result = await flood(server.url);
    console.log(`\n## ${label}`);
    console.log(`real user's sign-in alone: median ${fmt(median(result.alone))} (${result.alone.map(fmt).join(', ')})`);
    // Only the first of these starts with the burst; the later ones show how soon things are back to normal.
    console.log(
      `real user's sign-in started with the ${floodSize}-post flood: ${fmt(result.during[0] ?? NaN)}; the next ${rounds - 1} right after it: ${result.during.slice(1).map(fmt).join(', ')}`,
    );
    console.log(`the flood: ${result.statuses.map(([status, count]) => `${count} × ${status}`).join(', ')}, all answered in ${fmt(result.burstMs)}`);
  } finally {
    await server.stop();
  }
}

async function revocationSection() {
  const adminUrl = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const database = `portal_bench_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 2000 });
  try {
    await admin.connect();
    await admin.query(`CREATE DATABASE ${database}`);
  } catch {
    console.log(`\nNo PostgreSQL at ${adminUrl}: the two-node revocation figure is skipped.`);
    await admin.end().catch(() => undefined);
    return;
  }
  const nodes: ServerProcess[] = [];
  const proxy = await startRoundRobinProxy({ port: port + 28_062, nodes: [`http://localhost:${port + 28_063}`, `http://localhost:${port + 28_064}`] });
  try {
    const url = new URL(adminUrl);
    url.pathname = `/${database}`;
    const env = {
      DATABASE_URL: url.toString(),
      PUBLIC_URL: proxy.url,
      SEED_TRANSACTIONS: '2000',
      CARD_DATA_KEY: randomBytes(32).toString('base64'),
      LOG_LEVEL: 'warn',
    };
    nodes.push(
      ...(await Promise.all(
        [port + 28_063, port + 28_064].map((nodePort) =>
          startServer({ port: nodePort, dataDir: mkdtempSync(join(tmpdir(), `portal-bench-node-${nodePort}-`)), env }),
        ),
      )),
    );
    const [nodeA, nodeB] = nodes as [ServerProcess, ServerProcess];
    const times: number[] = [];
    for (let round = 0; round < rounds; round += 1) {
      const tokens = await signIn(proxy.url, user);
      const call = () => fetch(`${nodeB.url}/api/portal/user/permissions`, { headers: { authorization: `Bearer ${tokens.accessToken}` } });
      if ((await call()).status !== 200) throw new Error('node B refused a fresh token');
      const revoked = await fetch(`${nodeA.url}/connect/revocation`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ token: tokens.refreshToken ?? '', token_type_hint: 'refresh_token', client_id: 'portal' }).toString(),
      });
      if (revoked.status !== 200) throw new Error(`revocation answered ${revoked.status}`);
      const started = performance.now();
      for (;;) {
        if ((await call()).status === 401) break;
        if (performance.now() - started > 30_000) throw new Error('node B still accepted the token after 30 s');
        await new Promise((done) => setTimeout(done, 50));
      }
      times.push(performance.now() - started);
    }
    console.log('\n## A revoked session on a second node (PostgreSQL, two nodes)');
    console.log(`node B refused the access token after: median ${fmt(median(times))}, max ${fmt(Math.max(...times))} (${times.map(fmt).join(', ')})`);
  } finally {
    await Promise.all(nodes.map((node) => node.stop()));
    await proxy.close();
    await admin.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`).catch(() => undefined);
    await admin.end();
  }
}

const beforeRoot = option('--before-root');
if (beforeRoot) await floodSection(`before (${beforeRoot})`, beforeRoot);
await floodSection('after (this checkout)', undefined);
if (!args.includes('--skip-postgres')) await revocationSection();
