// A worker dies mid-export; another finishes the job exactly once. On PostgreSQL a real worker process is killed
// with SIGKILL and its job is taken at once (its presence lock went with its connection), long before its lease
// lapses; on both databases a frozen worker (a node that stalls past its lease) is overtaken deterministically.
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../../server/db/client.ts';
import * as schema from '../../../server/db/schema.ts';
import { runNextReport, startReportWorker } from '../../../server/reports/worker.ts';
import { createTestApp, createTestDatabase, databaseKinds, fixture, insertFixtureWorld } from '../support.ts';
import {
  csvRows,
  fileBackends,
  incompletePuts,
  openTestFileStore,
  queueExport,
  reportRow,
  storedReportKeys,
  type Caller,
  type TestFileStore,
} from './report-support.ts';

const { users } = fixture;
const bulkRows = 3000;

async function insertBulk(database: Database): Promise<void> {
  await database.query(`
    INSERT INTO transactions (reference, kind, business_id, merchant_id, partner_id, configuration_id, payment_job_reference, created_at,
      amount_minor, currency, status, payment_method, channel, customer_email)
    SELECT 'TXCRASH' || lpad(i::text, 6, '0'), 'payment', 'B4', 'M4a', NULL, 'C-M4a', 'PJCRASH', timestamptz '2026-06-01' + i * interval '1 minute',
      100 + i, 'USD', CASE WHEN i % 10 = 0 THEN 'declined' ELSE 'paid' END, 'card', 'Gateway', 'buyer' || i || '@crash.test'
    FROM generate_series(1, ${bulkRows}) AS i`);
}

async function until<T>(probe: () => Promise<T | null | undefined | false>, timeoutMs: number, what: string): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((done) => setTimeout(done, 20));
  }
}

/** The report's rows in the order the export must hold them, from the database itself. */
async function expectedReferences(database: Database, where: string): Promise<string[]> {
  return (await database.query<{ reference: string }>(`SELECT reference FROM transactions WHERE ${where} ORDER BY created_at DESC, reference ASC`)).map(
    (row) => row.reference,
  );
}

const combinations = databaseKinds.flatMap((kind) => fileBackends.map((backend) => ({ kind, backend })));

describe.each(combinations)('a worker overtaken mid-export on $kind with files in $backend', ({ kind, backend }) => {
  let database: Database;
  let call: Caller;
  let store: TestFileStore;
  beforeAll(async () => {
    database = await createTestDatabase(kind);
    await insertFixtureWorld(database);
    await insertBulk(database);
    ({ call } = createTestApp(database));
  });
  afterAll(async () => database?.close());
  afterEach(async () => store?.close());

  it.each([
    ['while writing', 100],
    ['after its last row, before completing', bulkRows],
  ])('stalls %s past its lease: the job is finished once, by the node that holds the lease', async (_moment, batchSize) => {
    store = await openTestFileStore(backend);
    const { reportId, totalRows } = await queueExport(call, users.admin, '/businesses/B4/transactions/full/reports', { filters: { status: '[eq]paid' } });
    let thaw: () => void = () => undefined;
    const frozen = new Promise<void>((done) => {
      thaw = done;
    });
    let firstBatch = true;
    const stalled = runNextReport({
      database,
      files: store.files,
      nodeId: 'stalled-node',
      batchSize,
      log: () => undefined,
      afterBatch: async () => {
        if (firstBatch) {
          firstBatch = false;
          await frozen;
        }
      },
    });
    await until(async () => (await reportRow(database, reportId)).processedRows > 0, 10_000, 'the first batch');
    // Its put is under way: a temporary file in the folder (on S3 the part is still buffered), nothing stored yet. The
    // folder's write stream opens its file asynchronously, so the first batch's commit can come before the file does.
    if (store.root) await until(async () => incompletePuts(store).length > 0, 10_000, 'the put to open its temporary file');
    if (store.root) expect(incompletePuts(store)).toHaveLength(1);
    expect(await storedReportKeys(store.files)).toEqual([]);

    // Its lease lapses (as if the node were paused by the operating system for a minute).
    await database.db
      .update(schema.queuedReports)
      .set({ lockedUntil: new Date(Date.now() - 1000) })
      .where(eq(schema.queuedReports.id, reportId));
    expect(await runNextReport({ database, files: store.files, nodeId: 'rescuer', batchSize: 500, log: () => undefined })).toBe('generated');

    thaw();
    expect(await stalled).toBe('lost');
    const row = await reportRow(database, reportId);
    expect(row).toMatchObject({ status: 'generated', attempts: 2, processedRows: totalRows, filePath: `reports/${reportId}-2.csv` });
    expect(await storedReportKeys(store.files)).toEqual([`reports/${reportId}-2.csv`]);
    expect(incompletePuts(store)).toEqual([]);
    const references = (await csvRows(store.files, row.filePath!)).slice(1).map(([reference]) => reference);
    expect(references).toEqual(await expectedReferences(database, "merchant_id = 'M4a' AND status = 'paid'"));
    expect(new Set(references).size).toBe(totalRows);
  });
});

describe.skipIf(!databaseKinds.includes('postgres')).each(fileBackends)(
  'a worker process killed with SIGKILL mid-export on postgres with files in %s',
  (backend) => {
    let database: Database;
    let call: Caller;
    let child: ChildProcess | null = null;
    let store: TestFileStore;
    beforeAll(async () => {
      database = await createTestDatabase('postgres');
      await insertFixtureWorld(database);
      await insertBulk(database);
      ({ call } = createTestApp(database));
    });
    afterAll(async () => {
      if (child && child.exitCode === null) child.kill('SIGKILL');
      await database?.close();
      await store?.close();
    });

    it('is reclaimed at once, lease or not, and finished exactly once by another worker', async () => {
      store = await openTestFileStore(backend);
      const [{ name }] = (await database.query<{ name: string }>('SELECT current_database() AS name')) as [{ name: string }];
      const url = new URL(process.env.TEST_DATABASE_URL ?? '');
      url.pathname = `/${name}`;
      const { reportId, totalRows } = await queueExport(call, users.admin, '/businesses/B4/transactions/full/reports', {});
      expect(totalRows).toBe(bulkRows);

      let output = '';
      child = spawn(process.execPath, [fileURLToPath(new URL('./crash-worker.ts', import.meta.url))], {
        env: {
          ...process.env,
          DATABASE_URL: url.toString(),
          ...(store.s3 ? store.s3.env : { FILES_DIR: store.root ?? '' }),
          LEASE_MS: '120000',
          BATCH_SIZE: '100',
          BATCH_DELAY_MS: '40',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      child.stdout?.on('data', (chunk: Buffer) => {
        output += chunk.toString();
      });
      child.stderr?.on('data', (chunk: Buffer) => {
        output += chunk.toString();
      });
      const exited = new Promise<NodeJS.Signals | null>((done) => child?.once('exit', (_code, signal) => done(signal)));

      // Killed once the 500th row is committed and the worker has said so (its line is printed after the commit, so
      // waiting on the database alone could kill it between the two).
      await until(
        async () => (await reportRow(database, reportId)).processedRows >= 500 && output.includes('progress 500'),
        30_000,
        `the doomed worker's progress\n${output}`,
      );
      child.kill('SIGKILL');
      expect(await exited).toBe('SIGKILL');

      const orphaned = await reportRow(database, reportId);
      expect(orphaned).toMatchObject({ status: 'generating', lockedBy: 'doomed-node', attempts: 1 });
      expect(orphaned.processedRows).toBeGreaterThanOrEqual(500);
      expect(orphaned.processedRows).toBeLessThan(bulkRows);
      // Its put is under way: a temporary file in the folder (on S3 the part is still buffered), nothing stored yet.
      if (store.root) expect(incompletePuts(store)).toHaveLength(1);
      expect(await storedReportKeys(store.files)).toEqual([]);
      expect(output).toContain('progress 500');

      // The dead node's lease runs for two more minutes; its presence is gone, so a healthy node takes the job now.
      expect(orphaned.lockedUntil!.getTime()).toBeGreaterThan(Date.now() + 60_000);
      const rescuer = startReportWorker({ database, files: store.files, nodeId: 'rescuer', pollMs: 50, batchSize: 250, log: () => undefined });
      try {
        await until(async () => (await reportRow(database, reportId)).status === 'generated', 30_000, 'the rescue');
      } finally {
        await rescuer.stop();
      }
      const row = await reportRow(database, reportId);
      expect(row).toMatchObject({
        status: 'generated',
        attempts: 2,
        lockedBy: null,
        processedRows: bulkRows,
        totalRows: bulkRows,
        filePath: `reports/${reportId}-2.csv`,
      });
      expect(await storedReportKeys(store.files)).toEqual([`reports/${reportId}-2.csv`]);
      // The dead attempt's temporary file went when the rescuer started attempt 2.
      expect(incompletePuts(store)).toEqual([]);
      const references = (await csvRows(store.files, row.filePath!)).slice(1).map(([reference]) => reference);
      expect(references).toHaveLength(bulkRows);
      expect(new Set(references).size).toBe(bulkRows);
      expect(references).toEqual(await expectedReferences(database, "merchant_id = 'M4a'"));
    });
  },
);
