// Data directories from before the FileStore: report files in ${DATA_DIR}/reports named by a bare file_path move
// into the store at start, and their downloads keep working.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../../server/db/client.ts';
import * as schema from '../../../server/db/schema.ts';
import { moveLegacyReportFiles } from '../../../server/reports/file-sweeper.ts';
import { createTestApp, createTestDatabase, fixture, insertFixtureWorld } from '../support.ts';
import { fileBackends, newFilesDir, openTestFileStore, queueExport, reportRow, storedBytes, type Caller, type TestFileStore } from './report-support.ts';

const { users } = fixture;

describe.each(fileBackends)('report files of an older data directory, moved into the %s store', (backend) => {
  let database: Database;
  let call: Caller;
  let store: TestFileStore;
  beforeAll(async () => {
    database = await createTestDatabase('pglite');
    await insertFixtureWorld(database);
    store = await openTestFileStore(backend);
    ({ call } = createTestApp(database, { files: store.files }));
  });
  afterAll(async () => {
    await database?.close();
    await store?.close();
  });

  it('moves each file once, points its row at the new key and keeps its download', async () => {
    const legacyDir = join(newFilesDir(), 'reports');
    mkdirSync(legacyDir, { recursive: true });
    const { reportId } = await queueExport(call, users.owner, '/businesses/B3/transactions/full/reports', {});
    const { reportId: missingId } = await queueExport(call, users.owner, '/businesses/B3/transactions/full/reports', {});
    const content = '\uFEFFReference\r\nTX3A0001\r\n';
    writeFileSync(join(legacyDir, `${reportId}-1.csv`), content);
    for (const id of [reportId, missingId]) {
      await database.db
        .update(schema.queuedReports)
        .set({
          status: 'generated',
          attempts: 1,
          generatedAt: new Date(),
          expirationDateTime: new Date(Date.now() + 86_400_000),
          filePath: `${id}-1.csv`,
          fileSize: Buffer.byteLength(content),
        })
        .where(eq(schema.queuedReports.id, id));
    }

    expect(await moveLegacyReportFiles({ database, files: store.files, legacyDir })).toBe(1);
    expect((await reportRow(database, reportId)).filePath).toBe(`reports/${reportId}-1.csv`);
    expect((await storedBytes(store.files, `reports/${reportId}-1.csv`)).toString('utf8')).toBe(content);
    expect(existsSync(join(legacyDir, `${reportId}-1.csv`))).toBe(false);
    // A row whose old file is gone keeps its name: its download says the file is no longer available.
    expect((await reportRow(database, missingId)).filePath).toBe(`${missingId}-1.csv`);
    expect(await moveLegacyReportFiles({ database, files: store.files, legacyDir })).toBe(0);

    const download = await call(users.owner, 'GET', `/reports/${reportId}/download`);
    expect(download.status).toBe(200);
    expect(download.headers.get('content-length')).toBe(String(Buffer.byteLength(content)));
    expect(Buffer.from(await download.arrayBuffer()).toString('utf8')).toBe(content);
    expect((await call(users.owner, 'GET', `/reports/${missingId}/download`)).status).toBe(410);
  });
});
