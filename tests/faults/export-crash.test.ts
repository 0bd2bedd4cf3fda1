// Faults against the real server process on PostgreSQL: kill -9 the whole server while a transactions export is
// being written, restart it (same DATA_DIR, same database), and find the export finished exactly once — one XLSX
// holding every row the queue counted, no partial file left — with the job queued behind it and every acknowledged
// write intact. The embedded-database counterpart runs with the write burst in faults.test.ts.
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { signIn } from '../../scripts/oidc-sign-in.ts';
import { startServer, type ServerProcess } from '../../scripts/server-process.ts';
import { api, expectExportsFinishedOnce, expectKilledMidFile, exportBatchSize, missingWrites, pause, queueExports, waitUntilMidFile } from './export-check.ts';

const serverUrl = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

async function adminQuery(text: string): Promise<void> {
  const client = new pg.Client({ connectionString: serverUrl, connectionTimeoutMillis: 2000 });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

describe('kill -9 during an export (PostgreSQL)', () => {
  const started: ServerProcess[] = [];
  const database = `portal_fault_${randomBytes(4).toString('hex')}`;
  let created = false;
  afterAll(async () => {
    for (const server of started) await server.kill9();
    if (created) await adminQuery(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`).catch(() => undefined);
  });

  it('finishes the export exactly once after a restart, and loses nothing else', async (context) => {
    try {
      await adminQuery(`CREATE DATABASE ${database}`);
      created = true;
    } catch {
      console.warn(`No PostgreSQL server at ${serverUrl}: skipped.`);
      context.skip();
      return;
    }
    const url = new URL(serverUrl);
    url.pathname = `/${database}`;
    const dataDir = mkdtempSync(join(tmpdir(), 'portal-export-fault-'));
    const filesDir = join(dataDir, 'files');
    const env = { DATABASE_URL: url.toString(), SEED_TRANSACTIONS: '2000', REPORT_BATCH_SIZE: String(exportBatchSize) };
    const first = await startServer({ port: 3304, dataDir, env });
    started.push(first);
    const { accessToken } = await signIn(first.url, 'admin@demo.test');
    const call = api(first, accessToken);
    const exports = await queueExports(call, 'xlsx');

    const acknowledged = new Map<string, string>();
    let killed = false;
    const writes = (async () => {
      for (let index = 0; !killed; index += 1) {
        const key = `ExportFault${index}`;
        const value = JSON.stringify({ index });
        try {
          if ((await call('PUT', `/user-settings/${key}`, { value })).status === 200) acknowledged.set(key, value);
        } catch {
          /* the connection died with the server: not acknowledged */
        }
        await pause(10);
      }
    })();
    const atKill = await waitUntilMidFile(call, exports, first);
    await first.kill9();
    killed = true;
    await writes;
    console.log(`postgres: killed at ${atKill.processedRows} of ${exports.big.totalRows} rows, ${acknowledged.size} writes acknowledged`);
    expectKilledMidFile(filesDir, atKill);

    const second = await startServer({ port: 3304, dataDir, env });
    started.push(second);
    const recall = api(second, accessToken);
    const recoveryMs = await expectExportsFinishedOnce({ call: recall, exports, filesDir, first, second });
    console.log(`postgres: xlsx of ${exports.big.totalRows} rows finished ${recoveryMs} ms after the restarted server answered`);

    expect(await missingWrites(recall, acknowledged), 'acknowledged writes missing after restart').toEqual([]);
    await second.stop();
  });
});
