// One node against three: real server processes (server/main.ts) on the api section's PostgreSQL database, the
// round-robin proxy in front (scripts/round-robin-proxy.ts, as a load balancer), autocannon in its own process.
// Every node starts first; rows: one node called directly, the same node through the proxy (the others idle), then
// all nodes through the proxy; the ratio is all nodes over one, both through the proxy, so the proxy's own cost is on
// both sides.
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { signIn } from '../oidc-sign-in.ts';
import { startRoundRobinProxy, type RoundRobinProxy } from '../round-robin-proxy.ts';
import { startServer, type ServerProcess } from '../server-process.ts';
import { failures, loadAverage, loadTest } from './load-test.ts';
import { markdownTable } from './stats.ts';

export type NodesBenchOptions = {
  /** the seeded database of the api section */
  databaseUrl: string;
  /** the card data key the database was sealed with (base64), handed to every node */
  cardDataKey: string;
  /** the load's callers (api.ts loadUsers), signed in through the proxy, their connections in turn */
  emails: string[];
  /** the call under load, below /api/portal (GET) */
  path: string;
  nodes: number;
  connections: number;
  seconds: number;
  /** the proxy's port; the nodes take the next ones */
  port: number;
};

const goal = 2.5;

/** Nodes on one machine share its cores with PostgreSQL, the proxy and the load generator: say so where too few. */
function caveat(nodes: number): string {
  const cores = cpus().length;
  if (cores >= 2 * nodes) return '';
  return (
    ` Caveat: this machine has ${cores} cores, shared by the ${nodes} nodes, PostgreSQL, the proxy and autocannon, so more nodes` +
    ` bring no more CPU here and the goal cannot show; it needs each node on cores of its own. The ratio is reported all the same.`
  );
}

export async function benchNodes(options: NodesBenchOptions): Promise<string> {
  const dataRoot = mkdtempSync(join(tmpdir(), 'portal-bench-nodes-'));
  const nodePorts = Array.from({ length: options.nodes }, (_, index) => options.port + 1 + index);
  const proxyUrl = `http://localhost:${options.port}`;
  // Every node answers as the proxy's address (its tokens' issuer and audience), as behind a load balancer. Request
  // lines are logged at info: LOG_LEVEL=warn keeps a line per request out of the measure (and out of memory).
  const env = { DATABASE_URL: options.databaseUrl, PUBLIC_URL: proxyUrl, CARD_DATA_KEY: options.cardDataKey, LOG_LEVEL: 'warn' };
  const start = (port: number) => startServer({ port, dataDir: mkdtempSync(join(dataRoot, `node-${port}-`)), env });
  const nodes: ServerProcess[] = [];
  let proxy: RoundRobinProxy | undefined;
  const rows: (string | number)[][] = [];
  const loadBefore = loadAverage();
  try {
    // Every node from the start, so that the rows of one node and of all run on nodes of the same age (a node's first
    // minute holds its start-up work); the others sit idle during the rows of one node.
    nodes.push(...(await Promise.all(nodePorts.map(start))));
    proxy = await startRoundRobinProxy({ port: options.port, nodes: [nodes[0]?.url as string] });
    // One after another: sign-ins at once from one address are throttled.
    const headers: Record<string, string>[] = [];
    for (const email of options.emails) headers.push({ authorization: `Bearer ${(await signIn(proxyUrl, email)).accessToken}`, 'time-zone': 'Europe/London' });
    // A fresh process compiles as it goes: a few calls on each node before its first row, so no row times a cold node.
    const warm = async (node: ServerProcess) => {
      for (let call = 0; call < 10; call += 1)
        await (await fetch(`${node.url}/api/portal${options.path}`, { headers: headers[call % headers.length] })).arrayBuffer();
    };
    const measure = async (label: string, baseUrl: string) => {
      const url = `${baseUrl}/api/portal${options.path}`;
      const check = await fetch(url, { headers: headers[0] });
      if (!check.ok) throw new Error(`${label}: the list answers ${check.status}: ${await check.text()}`);
      const result = await loadTest({ url, method: 'GET', headers, connections: options.connections, seconds: options.seconds });
      rows.push([label, options.connections, Math.round(result.requests.average), `${result.latency.p50} ms`, `${result.latency.p99} ms`, failures(result)]);
      return result.requests.average;
    };
    for (const node of nodes) await warm(node);
    await measure('1 node, direct', nodes[0]?.url as string);
    const one = await measure('1 node, through the proxy', proxyUrl);
    await proxy.close();
    proxy = await startRoundRobinProxy({ port: options.port, nodes: nodes.map((node) => node.url) });
    const many = await measure(`${options.nodes} nodes, through the proxy`, proxyUrl);
    const ratio = many / one;
    const table = markdownTable(['list (25 rows)', 'connections', 'requests/s', 'p50', 'p99', 'errors + non-2xx'], rows);
    return [
      `Nodes: real server processes on this database (pool of 20 connections each, the server's default), the round-robin proxy in front, ${options.seconds} s per row, autocannon in its own process, ${options.emails.length} users sharing the connections; load average ${loadBefore} → ${loadAverage()}:`,
      table,
      `${options.nodes} nodes / 1 node, both through the proxy: ${ratio.toFixed(2)}× (goal ≥ ${goal}×: ${ratio >= goal ? 'met' : 'not met'}).${caveat(options.nodes)}`,
    ].join('\n\n');
  } catch (error) {
    // What the nodes said (their errors are logged at warn and above) is the first thing to read.
    const said = nodes.map((node, index) => `node ${index + 1}:\n${node.output().slice(-4000)}`).join('\n');
    throw new Error(`${(error as Error).message}\n${said}`, { cause: error });
  } finally {
    await Promise.all(nodes.map((node) => node.stop()));
    await proxy?.close();
    rmSync(dataRoot, { recursive: true, force: true });
  }
}
