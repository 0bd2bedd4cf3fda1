import { Readable } from 'node:stream';
import { eq } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../../server/db/client.ts';
import * as schema from '../../../server/db/schema.ts';
import type { FileStore } from '../../../server/files/file-store.ts';
import { acquirePresence } from '../../../server/reports/presence.ts';
import { sweepReportFiles } from '../../../server/reports/file-sweeper.ts';
import { reportHousekeeping, runNextReport, startReportWorker } from '../../../server/reports/worker.ts';
import { createTestApp, createTestDatabase, databaseKinds, fixture, insertFixtureWorld } from '../support.ts';
import { insertExtraTransactions } from '../api/transaction-fixtures.ts';
import {
  csvRows,
  fileBackends,
  incompletePuts,
  openTestFileStore,
  queueExport,
  reportRow,
  rowsOnceGenerated,
  storedBytes,
  storedReportKeys,
  type Caller,
  type TestFileStore,
} from './report-support.ts';

const { users } = fixture;

const combinations = databaseKinds.flatMap((kind) => fileBackends.map((backend) => ({ kind, backend })));

describe.each(combinations)('the report worker on $kind with files in $backend', ({ kind, backend }) => {
  let database: Database;
  let call: Caller;
  let store: TestFileStore;
  const run = (options: Partial<Parameters<typeof runNextReport>[0]> = {}) =>
    runNextReport({ database, files: store.files, nodeId: 'node-a', batchSize: 2, log: () => undefined, ...options });

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    await insertFixtureWorld(database);
    await insertExtraTransactions(database);
    ({ call } = createTestApp(database));
    store = await openTestFileStore(backend);
  });
  afterAll(async () => {
    await database?.close();
    await store?.close();
  });

  it('is idle with nothing queued', async () => {
    expect(await run()).toBe('idle');
  });

  it('writes the filtered rows in keyset batches, with the zone in the date header and formulas neutralised', async () => {
    const { reportId, totalRows } = await queueExport(
      call,
      users.partner,
      '/businesses/B1/transactions/full/reports',
      {
        columns: ['date', 'reference', 'merchant', 'amount', 'currency', 'customerEmail'],
        filters: { kind: '[eq]payment' },
        ordering: { OrderingField: 'date', OrderingDirection: 'Ascending' },
      },
      { 'time-zone': 'Europe/London' },
    );
    expect(totalRows).toBe(4);
    expect(await run()).toBe('generated');
    const row = await reportRow(database, reportId);
    expect(row).toMatchObject({ status: 'generated', attempts: 1, processedRows: 4, totalRows: 4, lockedBy: null, filePath: `reports/${reportId}-1.csv` });
    expect(await store.files.head(row.filePath!)).toMatchObject({
      size: row.fileSize,
      contentType: 'text/csv; charset=utf-8',
      metadata: { 'report-id': reportId, attempt: '1' },
    });
    expect(row.expirationDateTime!.getTime() - row.generatedAt!.getTime()).toBe(14 * 24 * 3600 * 1000);
    expect(await csvRows(store.files, row.filePath!)).toEqual([
      ['Date (Europe/London)', 'Reference', 'Merchant', 'Amount', 'Currency', 'Customer email'],
      ['2026-11-01 10:00:00', 'TX1A0001', 'Alpha Online', '12.50', 'GBP', 'first@alpha.test'],
      ['2026-11-02 09:00:00', 'TX1A0002', 'Alpha Online', '99.99', 'GBP', 'ann@shop.test'],
      ['2026-11-03 23:30:00', 'TX1A0003', 'Alpha Online', '500.00', 'EUR', 'Bob@Shop.test'],
      ['2026-11-04 10:00:00', 'TX1B0001', 'Alpha Stores', '10.50', 'GBP', `"'=HYPERLINK(""http://x.test"")@evil.test"`],
    ]);
    expect(incompletePuts(store)).toEqual([]);
  });

  it.each(['date', 'amount', 'status', 'reference', 'merchant'])('keeps the list’s %s ordering, both ways, across batches', async (field) => {
    for (const direction of ['Ascending', 'Descending']) {
      const ordering = { OrderingField: field, OrderingDirection: direction };
      const { reportId } = await queueExport(call, users.admin, '/transactions/full/reports', { ordering });
      expect(await run({ batchSize: 3 })).toBe('generated');
      const row = await reportRow(database, reportId);
      const exported = (await csvRows(store.files, row.filePath!)).slice(1).map(([reference]) => reference);
      const listed = (await (await call(users.admin, 'GET', `/transactions?${new URLSearchParams({ ...ordering, pagesize: '100' })}`)).json()) as {
        results: { reference: string }[];
      };
      expect(exported).toEqual(listed.results.map((result) => result.reference));
    }
  });

  it('keeps microsecond timestamps apart across batch boundaries', async () => {
    await database.query(`INSERT INTO transactions (reference, kind, business_id, merchant_id, partner_id, configuration_id, payment_job_reference, created_at,
      amount_minor, currency, status, payment_method, channel)
      SELECT 'TXMICRO' || i, 'payment', 'B2', 'M2a', 'P1', 'C-M2a', 'PJMICRO', timestamptz '2026-10-01 12:00:00.000001+00' + i * interval '1 microsecond',
        100, 'EUR', 'paid', 'card', 'Gateway' FROM generate_series(1, 5) AS i`);
    const { reportId, totalRows } = await queueExport(call, users.finance, '/businesses/B2/transactions/full/reports', {
      filters: { searchterm: '[eq]TXMICRO' },
    });
    expect(await run({ batchSize: 2 })).toBe('generated');
    const references = (await csvRows(store.files, (await reportRow(database, reportId)).filePath!)).slice(1).map(([reference]) => reference);
    expect(references).toEqual(['TXMICRO5', 'TXMICRO4', 'TXMICRO3', 'TXMICRO2', 'TXMICRO1']);
    expect(totalRows).toBe(5);
  });

  it('writes an XLSX workbook', async () => {
    const { reportId } = await queueExport(call, users.owner, '/businesses/B3/transactions/full/reports', {
      fileType: 'xlsx',
      columns: ['reference', 'amount', 'currency'],
      ordering: { OrderingField: 'reference', OrderingDirection: 'Ascending' },
    });
    expect(await run()).toBe('generated');
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load((await storedBytes(store.files, (await reportRow(database, reportId)).filePath!)) as unknown as ArrayBuffer);
    const values = workbook
      .getWorksheet('Transactions')!
      .getSheetValues()
      .slice(1)
      .map((cells) => (cells as unknown[]).slice(1));
    expect(values).toEqual([
      ['Reference', 'Amount', 'Currency'],
      ['TX3A0001', 12.5, 'GBP'],
      ['TX3B0001', 1250, 'JPY'],
      ['TX3B0002', 125, 'JPY'],
    ]);
  });

  it('leaves out rows created after the report was queued', async () => {
    const { reportId, totalRows } = await queueExport(call, users.owner, '/businesses/B3/transactions/full/reports', {});
    await database.db.insert(schema.transactions).values({
      reference: 'TX3LATE01',
      kind: 'payment',
      businessId: 'B3',
      merchantId: 'M3a',
      configurationId: 'C-M3a',
      paymentJobReference: 'PJ-LATE',
      createdAt: new Date(Date.now() + 60_000),
      amountMinor: 100,
      currency: 'GBP',
      status: 'paid',
      paymentMethod: 'card',
      channel: 'Gateway',
    });
    expect(await run()).toBe('generated');
    const row = await reportRow(database, reportId);
    expect(row.processedRows).toBe(totalRows);
    expect((await csvRows(store.files, row.filePath!)).flat()).not.toContain('TX3LATE01');
  });

  it('fails a report whose user lost access, without a file', async () => {
    const { reportId } = await queueExport(call, users.finance, '/businesses/B2/transactions/full/reports', {});
    await database.db.delete(schema.userRoles).where(eq(schema.userRoles.userId, users.finance));
    try {
      expect(await run()).toBe('failed');
    } finally {
      await database.db.insert(schema.userRoles).values({ userId: users.finance, role: 'Finance', level: 'business', businessId: 'B2' });
    }
    expect(await reportRow(database, reportId)).toMatchObject({ status: 'failed', error: 'You do not have the correct permissions.', filePath: null });
    expect(incompletePuts(store)).toEqual([]);
  });

  it('stops at the next batch when its report is deleted, and leaves nothing behind', async () => {
    const { reportId } = await queueExport(call, users.admin, '/transactions/full/reports', {});
    const before = await storedReportKeys(store.files);
    const outcome = await run({
      batchSize: 1,
      afterBatch: async () => {
        await call(users.admin, 'DELETE', `/reports/${reportId}`);
      },
    });
    expect(outcome).toBe('lost');
    expect(await storedReportKeys(store.files)).toEqual(before);
    expect(incompletePuts(store)).toEqual([]);
    expect((await reportRow(database, reportId)).deletedAt).not.toBeNull();
  });

  it('hands a job back without spending an attempt when stopped', async () => {
    const { reportId } = await queueExport(call, users.admin, '/transactions/full/reports', {});
    expect(await runNextReport({ database, files: store.files, nodeId: 'node-a', batchSize: 1, log: () => undefined }, () => true)).toBe('released');
    expect(await reportRow(database, reportId)).toMatchObject({ status: 'queued', attempts: 0, lockedBy: null, processedRows: 0 });
    expect(incompletePuts(store)).toEqual([]);
    expect(await run()).toBe('generated');
  });

  it('sends a job back to the queue when the store refuses its file, leaving nothing stored', async () => {
    const { reportId } = await queueExport(call, users.admin, '/transactions/full/reports', {});
    const before = await storedReportKeys(store.files);
    const refusing: FileStore = {
      ...store.files,
      put: async () => {
        throw new Error('the store is unreachable');
      },
    };
    expect(await run({ files: refusing, batchSize: 1 })).toBe('retrying');
    expect(await reportRow(database, reportId)).toMatchObject({
      status: 'queued',
      attempts: 1,
      filePath: null,
      error: 'The report could not be generated; it will be tried again.',
    });
    expect(await storedReportKeys(store.files)).toEqual(before);
    expect(await run()).toBe('generated');
    expect(await reportRow(database, reportId)).toMatchObject({ status: 'generated', attempts: 2, filePath: `reports/${reportId}-2.csv` });
  });

  it('gives up on a job whose lease lapsed after its last attempt', async () => {
    const { reportId } = await queueExport(call, users.admin, '/transactions/full/reports', {});
    await database.db
      .update(schema.queuedReports)
      .set({ status: 'generating', attempts: 3, lockedBy: 'dead-node', lockedUntil: new Date(Date.now() - 60_000) })
      .where(eq(schema.queuedReports.id, reportId));
    expect(await run()).toBe('gaveUp');
    expect(await reportRow(database, reportId)).toMatchObject({ status: 'failed', error: 'The report could not be generated after 3 attempts.' });
  });

  it('does not take a job whose lease a live node still holds', async () => {
    const { reportId } = await queueExport(call, users.admin, '/transactions/full/reports', {});
    const busy = await acquirePresence(database, 'busy-node', () => undefined);
    try {
      await database.db
        .update(schema.queuedReports)
        .set({ status: 'generating', attempts: 1, lockedBy: busy.nodeId, lockedUntil: new Date(Date.now() + 60_000) })
        .where(eq(schema.queuedReports.id, reportId));
      expect(await run()).toBe('idle');
    } finally {
      await busy.release();
    }
    await database.db.update(schema.queuedReports).set({ status: 'cancelled', lockedBy: null, lockedUntil: null }).where(eq(schema.queuedReports.id, reportId));
  });

  it('takes a job at once, lease or not, when the node holding it is gone, and clears what the dead attempt stored', async () => {
    const { reportId, totalRows } = await queueExport(call, users.admin, '/transactions/full/reports', {});
    // The dead node stored its file but died before its commit.
    await store.files.put(`reports/${reportId}-1.csv`, Readable.from(['half a report']), { contentType: 'text/csv' });
    await database.db
      .update(schema.queuedReports)
      .set({ status: 'generating', attempts: 1, lockedBy: 'dead-node', lockedUntil: new Date(Date.now() + 60_000) })
      .where(eq(schema.queuedReports.id, reportId));
    expect(await run()).toBe('generated');
    expect(await reportRow(database, reportId)).toMatchObject({
      status: 'generated',
      attempts: 2,
      processedRows: totalRows,
      filePath: `reports/${reportId}-2.csv`,
    });
    expect((await storedReportKeys(store.files)).filter((key) => key.includes(reportId))).toEqual([`reports/${reportId}-2.csv`]);
    expect(incompletePuts(store)).toEqual([]);
  });

  it('keeps house: files of expired and deleted reports and old orphans go, young orphans and live files stay', async () => {
    const { reportId } = await queueExport(call, users.admin, '/transactions/full/reports', {});
    expect(await run()).toBe('generated');
    const { reportId: keptId } = await queueExport(call, users.admin, '/transactions/full/reports', {});
    expect(await run()).toBe('generated');
    const key = (await reportRow(database, reportId)).filePath!;
    const kept = (await reportRow(database, keptId)).filePath!;
    await database.db
      .update(schema.queuedReports)
      .set({ expirationDateTime: new Date(Date.now() - 1000) })
      .where(eq(schema.queuedReports.id, reportId));
    await store.files.put('reports/RPT00000000000000AA-1.csv', Readable.from(['orphan']), { contentType: 'text/csv' });
    // A file's age is told by the clock that stamped it (a folder's mtime, S3's LastModified), which TEST_CLOCK does
    // not move: the rounds below judge files at times counted from the orphan's stamp.
    const stamped = (await store.files.head('reports/RPT00000000000000AA-1.csv'))!.lastModified.getTime();
    // Orphans are judged by age: 'now' an hour ahead makes the one above old, and a grace of two hours keeps it.
    expect(await reportHousekeeping({ database, files: store.files, orphanGraceMs: 2 * 3_600_000, filesNow: new Date(stamped) })).toEqual({
      expired: expect.any(Number),
      orphans: 0,
      incomplete: 0,
    });
    expect(await store.files.head(key)).toBeNull();
    expect((await reportRow(database, reportId)).filePath).toBeNull();
    expect(await store.files.head('reports/RPT00000000000000AA-1.csv')).not.toBeNull();
    const removed = await sweepReportFiles({ database, files: store.files, orphanGraceMs: 1_800_000, filesNow: new Date(stamped + 3_600_000) });
    expect(removed).toEqual({ expired: 0, orphans: 1, incomplete: 0 });
    expect(await store.files.head('reports/RPT00000000000000AA-1.csv')).toBeNull();
    expect(await store.files.head(kept)).not.toBeNull();
    // Again, and from two nodes at once: nothing more to do, nothing broken.
    expect(await Promise.all([1, 2].map(() => sweepReportFiles({ database, files: store.files, filesNow: new Date(stamped + 3_600_000) })))).toEqual([
      { expired: 0, orphans: 0, incomplete: 0 },
      { expired: 0, orphans: 0, incomplete: 0 },
    ]);
    expect(await store.files.head(kept)).not.toBeNull();
  });

  // The worker polls once an hour here: only the wake of a report queued on its node can start the second export.
  it('starts a report queued on its own node at once, not at its next poll', async () => {
    const worker = startReportWorker({ database, files: store.files, nodeId: 'node-wake', pollMs: 3_600_000, batchSize: 50, log: () => undefined });
    const generated = async (reportId: string) => (await rowsOnceGenerated(database, [reportId]))[0]?.status;
    try {
      const first = (await queueExport(call, users.admin, '/transactions/full/reports', {})).reportId;
      expect(await generated(first)).toBe('generated');
      // The loop has found the queue empty and sleeps (or is about to): the next export wakes it.
      const second = (await queueExport(call, users.admin, '/transactions/full/reports', {})).reportId;
      expect(await generated(second)).toBe('generated');
    } finally {
      await worker.stop();
    }
  });

  it('shares the queue between workers: every job generated exactly once', async () => {
    const ids = [];
    for (let i = 0; i < 4; i += 1) ids.push((await queueExport(call, users.admin, '/transactions/full/reports', {})).reportId);
    const workers = [1, 2].map((n) => startReportWorker({ database, files: store.files, nodeId: `node-${n}`, pollMs: 10, batchSize: 1, log: () => undefined }));
    await rowsOnceGenerated(database, ids);
    await Promise.all(workers.map((worker) => worker.stop()));
    const rows = await Promise.all(ids.map((id) => reportRow(database, id)));
    expect(rows.map((row) => [row.status, row.attempts])).toEqual(ids.map(() => ['generated', 1]));
    const keys = await storedReportKeys(store.files);
    for (const row of rows) expect(keys.filter((key) => key.includes(row.id))).toEqual([row.filePath]);
  });
});
