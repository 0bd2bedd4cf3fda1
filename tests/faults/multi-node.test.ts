// Several stateless nodes on one PostgreSQL and one S3-compatible store, behind a round-robin proxy (the issue's
// "several nodes behind a load balancer"): three server processes with their own DATA_DIRs start together on an
// empty database (migrated and seeded once), a user signs in through the proxy with the real provider (authorize,
// the sign-in form, the code exchange and the refresh each land on another node), one token is accepted by every
// node, an export queued on one node is produced by any node's worker and downloads byte-identical through each,
// and when the node whose worker holds a job mid-file is killed with -9, another node finishes it exactly once.
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { refresh, signIn } from '../../scripts/oidc-sign-in.ts';
import { startRoundRobinProxy, type RoundRobinProxy } from '../../scripts/round-robin-proxy.ts';
import { startServer, type ServerProcess } from '../../scripts/server-process.ts';
import { createS3Store } from '../../server/files/s3-store.ts';
import { startS3TestServer, type S3TestServer } from '../server/files/s3-test-server.ts';
import { api, everyColumn, exportBatchSize, pause, until, type Report } from './export-check.ts';

const adminUrl = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const proxyPort = 3450;
const nodePorts = [3451, 3452, 3453];

async function adminQuery<Row extends Record<string, unknown>>(text: string, params: unknown[] = [], database?: string): Promise<Row[]> {
  const url = new URL(adminUrl);
  if (database) url.pathname = `/${database}`;
  const client = new pg.Client({ connectionString: url.toString(), connectionTimeoutMillis: 2000 });
  await client.connect();
  try {
    return (await client.query<Row>(text, params)).rows;
  } finally {
    await client.end();
  }
}

const sha256 = (bytes: ArrayBuffer) => createHash('sha256').update(Buffer.from(bytes)).digest('hex');

describe('several nodes behind a load balancer (PostgreSQL, S3-compatible store)', () => {
  const database = `portal_nodes_${randomBytes(4).toString('hex')}`;
  let created = false;
  const nodes: ServerProcess[] = [];
  let proxy: RoundRobinProxy | undefined;
  let store: S3TestServer | undefined;
  afterAll(async () => {
    await Promise.all(nodes.map((node) => node.kill9()));
    await proxy?.close();
    await store?.close();
    if (created) await adminQuery(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`).catch(() => undefined);
  });

  it('sign in, API, exports and a node killed mid-file', async (context) => {
    const started = Date.now();
    try {
      await adminQuery(`CREATE DATABASE ${database}`);
      created = true;
    } catch {
      console.warn(`No PostgreSQL server at ${adminUrl}: skipped.`);
      context.skip();
      return;
    }
    const url = new URL(adminUrl);
    url.pathname = `/${database}`;
    store = await startS3TestServer();
    proxy = await startRoundRobinProxy({ port: proxyPort, nodes: nodePorts.map((port) => `http://localhost:${port}`) });
    const env = {
      DATABASE_URL: url.toString(),
      PUBLIC_URL: proxy.url,
      SEED_TRANSACTIONS: '3000',
      REPORT_BATCH_SIZE: String(exportBatchSize),
      CARD_DATA_KEY: randomBytes(32).toString('base64'),
      ...store.env,
    };
    // All three at once on the empty database: one migrates and seeds, the others wait for it.
    nodes.push(
      ...(await Promise.all(
        nodePorts.map((port) =>
          startServer({
            port,
            dataDir: mkdtempSync(join(tmpdir(), `portal-node-${port}-`)),
            env,
          }),
        ),
      )),
    );
    const [seeded] = await adminQuery<{ n: string }>('SELECT count(*) AS n FROM transactions', [], database);
    expect(Number(seeded?.n), 'seeded once').toBe(3000);
    for (const node of nodes) expect((await fetch(`${node.url}/readyz`)).status).toBe(200);

    // Sign-in through the proxy: every step goes to the next node.
    const signedIn = await signIn(proxy.url, 'admin@demo.test');
    const identitySteps = proxy.served.filter((step) => step.path.startsWith('/connect'));
    expect(new Set(identitySteps.map((step) => step.node)), 'the sign-in crossed every node').toEqual(new Set([0, 1, 2]));
    expect(identitySteps.every((step) => step.status < 500)).toBe(true);
    const renewed = await refresh(proxy.url, signedIn.refreshToken ?? '');
    expect(renewed.accessToken).not.toBe(signedIn.accessToken);

    // One token, every node (and the renewed one too).
    const calls = nodes.map((node) => api(node, renewed.accessToken));
    const answers = await Promise.all(
      calls.map(async (call) => {
        const response = await call('GET', '/transactions?pagesize=10');
        expect(response.status).toBe(200);
        return response.text();
      }),
    );
    expect(new Set(answers).size, 'every node answers alike').toBe(1);
    expect((await api(nodes[0] as ServerProcess, signedIn.accessToken)('GET', '/user/permissions')).status).toBe(200);

    // An export queued on node 1, produced by whichever worker takes it, downloaded through each node.
    const [first, second, third] = calls as [(typeof calls)[0], (typeof calls)[0], (typeof calls)[0]];
    const small = await second('POST', '/transactions/full/reports', {
      fileType: 'csv',
      columns: ['reference', 'amount', 'currency'],
      filters: { status: '[eq]declined' },
    });
    expect(small.status).toBe(202);
    const smallId = ((await small.json()) as { reportId: string }).reportId;
    await until(
      async () => ((await (await third('GET', `/reports/${smallId}`)).json()) as Report).status === 'generated',
      60_000,
      () => 'the small export',
    );
    const digests = await Promise.all(
      calls.map(async (call) => {
        const download = await call('GET', `/reports/${smallId}/download`);
        expect(download.status).toBe(200);
        return sha256(await download.arrayBuffer());
      }),
    );
    expect(new Set(digests).size, 'byte-identical through every node').toBe(1);

    // A big one, and kill -9 the node whose worker holds it mid-file.
    const big = await first('POST', '/transactions/full/reports', { fileType: 'xlsx', columns: everyColumn });
    expect(big.status).toBe(202);
    const { reportId: bigId, totalRows } = (await big.json()) as { reportId: string; totalRows: number };
    const holding = await until(
      async () => {
        const [row] = await adminQuery<{ status: string; locked_by: string | null; processed_rows: number }>(
          'SELECT status, locked_by, processed_rows FROM queued_reports WHERE id = $1',
          [bigId],
          database,
        );
        return row?.status === 'generating' && row.locked_by && row.processed_rows >= 2 * exportBatchSize ? row : null;
      },
      60_000,
      () => 'the big export to be mid-file',
    );
    const holderPid = Number((holding.locked_by ?? '').split(':')[1]);
    const holder = nodes.findIndex((node) => node.child.pid === holderPid);
    expect(holder, `the lease holder ${holding.locked_by} is one of the nodes`).toBeGreaterThanOrEqual(0);
    await (nodes[holder] as ServerProcess).kill9();
    const survivors = calls.filter((_, index) => index !== holder);
    const survivor = survivors[0] as (typeof calls)[0];
    const finished = await until(
      async () => {
        const view = (await (await survivor('GET', `/reports/${bigId}`)).json()) as Report;
        expect(view.status, view.error ?? '').not.toBe('failed');
        return view.status === 'generated' ? view : null;
      },
      60_000,
      () => 'another node to finish the export',
    );
    await pause(2500);
    const [after] = await adminQuery<{ attempts: number; status: string }>('SELECT attempts, status FROM queued_reports WHERE id = $1', [bigId], database);
    expect(after, 'finished once, by a second attempt').toEqual({ attempts: 2, status: 'generated' });
    expect(finished.processedRows).toBe(totalRows);
    const completions = nodes.filter((node) => node.output().includes(`${bigId}: generated`));
    expect(completions, 'one node completed it').toHaveLength(1);
    expect(completions[0]).not.toBe(nodes[holder]);
    const bigDigests = await Promise.all(
      survivors.map(async (call) => {
        const download = await call('GET', `/reports/${bigId}/download`);
        expect(download.status).toBe(200);
        return sha256(await download.arrayBuffer());
      }),
    );
    expect(new Set(bigDigests).size).toBe(1);
    const bucket = createS3Store({
      bucket: store.bucket,
      clientConfig: {
        endpoint: store.endpoint,
        region: store.env.AWS_REGION,
        credentials: { accessKeyId: store.env.AWS_ACCESS_KEY_ID, secretAccessKey: store.env.AWS_SECRET_ACCESS_KEY },
      },
    });
    const stored: string[] = [];
    for await (const file of bucket.list('reports/')) stored.push(file.key);
    expect(
      stored.filter((key) => key.includes(bigId)),
      "one stored file of the big export, the second attempt's",
    ).toEqual([`reports/${bigId}-2.xlsx`]);
    console.log(`multi-node: ${totalRows} rows finished by another node after kill -9; whole test ${((Date.now() - started) / 1000).toFixed(1)} s`);
  });
});
