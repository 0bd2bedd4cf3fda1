import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../../server/db/client.ts';
import * as schema from '../../../server/db/schema.ts';
import { maxWaitingReportsPerUser } from '../../../server/reports/queue.ts';
import { runNextReport } from '../../../server/reports/worker.ts';
import { queuedReport, queuedReportList } from '../../../src/contract/report-schemas.ts';
import { createTestApp, createTestDatabase, databaseKinds, fixture, insertFixtureWorld, snapshot } from '../support.ts';
import { insertExtraTransactions } from './transaction-fixtures.ts';
import { fileBackends, openTestFileStore, queueExport, reportRow, storedBytes, type Caller, type TestFileStore } from '../reports/report-support.ts';

const { users } = fixture;

const combinations = databaseKinds.flatMap((kind) => fileBackends.map((backend) => ({ kind, backend })));

describe.each(combinations)('my report queue on $kind with files in $backend', ({ kind, backend }) => {
  let database: Database;
  let call: Caller;
  let store: TestFileStore;
  const generateNext = () => runNextReport({ database, files: store.files, nodeId: 'node-a', log: () => undefined });

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    await insertFixtureWorld(database);
    await insertExtraTransactions(database);
    store = await openTestFileStore(backend);
    // The app serves downloads from the store the worker writes to.
    ({ call } = createTestApp(database, { files: store.files }));
  });
  afterAll(async () => {
    await database?.close();
    await store?.close();
  });

  const get = async (userId: string, path: string) => {
    const response = await call(userId, 'GET', path);
    return { status: response.status, body: (await response.json()) as unknown };
  };

  it('lists only the caller’s own reports, newest first, paged', async () => {
    const first = await queueExport(call, users.partner, '/businesses/B1/transactions/full/reports', { filters: { status: '[eq]paid' } });
    const second = await queueExport(call, users.partner, '/partners/P1/transactions/full/reports', { fileType: 'xlsx' });
    await queueExport(call, users.owner, '/businesses/B3/transactions/full/reports', {});
    const { status, body } = await get(users.partner, '/reports');
    expect(status).toBe(200);
    const list = queuedReportList.assert(body);
    expect(list.numberOfResults).toBe(2);
    expect(list.results.map((report) => report.id)).toEqual([second.reportId, first.reportId]);
    expect(list.results[1]).toMatchObject({
      status: 'queued',
      state: 'queued',
      reportType: 'transactions',
      fileType: 'csv',
      totalRows: 5,
      processedRows: 0,
      filters: { status: '[eq]paid' },
      columns: ['reference'],
      ordering: { OrderingField: 'date', OrderingDirection: 'Descending' },
      context: { level: 'business', businessId: 'B1', title: 'Alpha Trading Ltd' },
      generatedAt: null,
      fileName: null,
    });
    const paged = queuedReportList.assert((await get(users.partner, '/reports?pagesize=10&pagenumber=2')).body);
    expect(paged).toEqual({ results: [], numberOfResults: 2 });
    expect((await get(users.partner, '/reports?status=queued')).status).toBe(400);
  });

  it('answers 404 for another user’s report, on every path, changing nothing', async () => {
    const { reportId } = await queueExport(call, users.owner, '/businesses/B3/transactions/full/reports', {});
    const before = await snapshot(database);
    for (const [method, path] of [
      ['GET', ''],
      ['GET', '/download'],
      ['DELETE', ''],
      ['POST', '/retry'],
      ['POST', '/cancel'],
    ] as const) {
      expect((await call(users.partner, method, `/reports/${reportId}${path}`)).status).toBe(404);
    }
    expect((await call(users.partner, 'GET', '/reports/RPT0000')).status).toBe(404);
    expect((await call(users.partner, 'GET', '/reports/..%2Fsecrets')).status).toBe(404);
    expect(await snapshot(database)).toBe(before);
  });

  it('shows progress, then downloads the generated file with its name', async () => {
    const { reportId } = await queueExport(call, users.finance, '/businesses/B2/transactions/full/reports', { columns: ['reference', 'amount'] });
    expect((await call(users.finance, 'GET', `/reports/${reportId}/download`)).status).toBe(400);
    expect(await generateNext()).toBe('generated');
    // Other users' jobs queued earlier are generated too; keep going until this one is.
    while ((await reportRow(database, reportId)).status !== 'generated') await generateNext();
    const report = queuedReport.assert((await get(users.finance, `/reports/${reportId}`)).body);
    expect(report).toMatchObject({ status: 'generated', state: 'generated', processedRows: 1, totalRows: 1, attempts: 1 });
    expect(Date.parse(report.expirationDateTime!) - Date.parse(report.generatedAt!)).toBe(14 * 86_400_000);
    const response = await call(users.finance, 'GET', `/reports/${reportId}/download`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(response.headers.get('content-disposition')).toBe(`attachment; filename="${report.fileName}"`);
    expect(report.fileName).toMatch(new RegExp(`^transactions-\\d{4}-\\d{2}-\\d{2}-${reportId}\\.csv$`));
    const bytes = Buffer.from(await response.arrayBuffer());
    expect(bytes.toString('utf8')).toBe('\uFEFFReference,Amount\r\nTX2A0001,20.00\r\n');
    expect(Number(response.headers.get('content-length'))).toBe(bytes.length);
  });

  it('refuses the download (403) once the caller has lost access to the report’s context, and allows it again with access back', async () => {
    const leaver = `u-leaver-${kind}-${backend}`;
    await database.db
      .insert(schema.users)
      .values({ id: leaver, email: `${leaver}@example.com`, givenName: 'Lee', familyName: 'Ver', passwordHash: 'scrypt$1$1$1$x$y' });
    const [role] = await database.db.insert(schema.userRoles).values({ userId: leaver, role: 'Finance', level: 'business', businessId: 'B2' }).returning();
    const { reportId } = await queueExport(call, leaver, '/businesses/B2/transactions/full/reports', { columns: ['reference'] });
    while ((await reportRow(database, reportId)).status !== 'generated') await generateNext();
    expect((await call(leaver, 'GET', `/reports/${reportId}/download`)).status).toBe(200);
    await database.db.delete(schema.userRoles).where(eq(schema.userRoles.id, role?.id ?? -1));
    const refused = await call(leaver, 'GET', `/reports/${reportId}/download`);
    expect(refused.status).toBe(403);
    expect(await refused.text()).not.toContain('TX2A0001');
    // The report itself is still theirs to see and delete.
    expect((await call(leaver, 'GET', `/reports/${reportId}`)).status).toBe(200);
    await database.db.insert(schema.userRoles).values({ userId: leaver, role: 'Finance', level: 'business', businessId: 'B2' });
    expect((await call(leaver, 'GET', `/reports/${reportId}/download`)).status).toBe(200);
  });

  it('caps one user’s waiting reports: a burst of 25 queues 20 and refuses 5 with 429 saying how many wait', async () => {
    const flooder = `u-flood-${kind}-${backend}`;
    await database.db
      .insert(schema.users)
      .values({ id: flooder, email: `${flooder}@example.com`, givenName: 'Flo', familyName: 'Od', passwordHash: 'scrypt$1$1$1$x$y' });
    await database.db.insert(schema.userRoles).values({ userId: flooder, role: 'Finance', level: 'business', businessId: 'B2' });
    // In bursts of 5 at once (more would meet the per-user limit of requests in progress first).
    const answers: Response[] = [];
    for (let burst = 0; burst < (maxWaitingReportsPerUser + 5) / 5; burst += 1) {
      answers.push(
        ...(await Promise.all(
          Array.from({ length: 5 }, () => call(flooder, 'POST', '/businesses/B2/transactions/full/reports', { fileType: 'csv', columns: ['reference'] })),
        )),
      );
    }
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 202)).toHaveLength(maxWaitingReportsPerUser);
    expect(statuses.filter((status) => status === 429)).toHaveLength(5);
    const refused = answers.find((answer) => answer.status === 429);
    expect(JSON.stringify(await refused?.json())).toContain(`You have ${maxWaitingReportsPerUser} reports waiting in your report queue`);
    const [waiting] = await database.query<{ count: number }>('SELECT count(*)::int AS count FROM queued_reports WHERE user_id = $1', [flooder]);
    expect(waiting?.count).toBe(maxWaitingReportsPerUser);

    // Fair between users: another user's one export, queued after the flood, is generated second, not 21st.
    const other = await queueExport(call, users.finance, '/businesses/B2/transactions/full/reports', {});
    await database.query("UPDATE queued_reports SET status = 'cancelled' WHERE status = 'queued' AND user_id NOT IN ($1, $2)", [flooder, users.finance]);
    await database.query("UPDATE queued_reports SET status = 'cancelled' WHERE status = 'queued' AND user_id = $1 AND id <> $2", [
      users.finance,
      other.reportId,
    ]);
    const order: string[] = [];
    for (let step = 0; step < 3; step += 1) {
      const before = await database.query<{ id: string }>("SELECT id FROM queued_reports WHERE status = 'generated'");
      expect(await generateNext()).toBe('generated');
      const after = await database.query<{ id: string; user_id: string }>("SELECT id, user_id FROM queued_reports WHERE status = 'generated'");
      const made = after.find((row) => !before.some((earlier) => earlier.id === row.id));
      order.push(made?.user_id === flooder ? 'flood' : made?.id === other.reportId ? 'other' : 'unexpected');
    }
    expect(order).toEqual(['flood', 'other', 'flood']);
  });

  it('answers 410 once a report has expired, and Expired shows', async () => {
    const { reportId } = await queueExport(call, users.finance, '/businesses/B2/transactions/full/reports', {});
    while ((await reportRow(database, reportId)).status !== 'generated') await generateNext();
    await database.db
      .update(schema.queuedReports)
      .set({ expirationDateTime: new Date(Date.now() - 60_000) })
      .where(eq(schema.queuedReports.id, reportId));
    expect(queuedReport.assert((await get(users.finance, `/reports/${reportId}`)).body).state).toBe('expired');
    const response = await call(users.finance, 'GET', `/reports/${reportId}/download`);
    expect(response.status).toBe(410);
    expect(JSON.stringify(await response.json())).toContain('The report has expired.');
  });

  it('deletes a report: gone from the list, its file removed, download 410', async () => {
    const { reportId } = await queueExport(call, users.finance, '/businesses/B2/transactions/full/reports', {});
    while ((await reportRow(database, reportId)).status !== 'generated') await generateNext();
    const key = (await reportRow(database, reportId)).filePath!;
    expect((await storedBytes(store.files, key)).toString('utf8')).toContain('TX2A0001');
    expect((await call(users.finance, 'DELETE', `/reports/${reportId}`)).status).toBe(204);
    expect(await store.files.head(key)).toBeNull();
    expect((await call(users.finance, 'GET', `/reports/${reportId}/download`)).status).toBe(410);
    const list = queuedReportList.assert((await get(users.finance, '/reports')).body);
    expect(list.results.map((report) => report.id)).not.toContain(reportId);
    expect(queuedReport.assert((await get(users.finance, `/reports/${reportId}`)).body).deletedAt).not.toBeNull();
    expect((await call(users.finance, 'DELETE', `/reports/${reportId}`)).status).toBe(204);
  });

  it('cancels a queued report, and only a queued one', async () => {
    const { reportId } = await queueExport(call, users.owner, '/businesses/B3/transactions/full/reports', {});
    const response = await call(users.owner, 'POST', `/reports/${reportId}/cancel`);
    expect(response.status).toBe(200);
    expect(queuedReport.assert(await response.json())).toMatchObject({ status: 'cancelled', state: 'cancelled' });
    const again = await call(users.owner, 'POST', `/reports/${reportId}/cancel`);
    expect(again.status).toBe(400);
    expect(JSON.stringify(await again.json())).toContain('Only a queued report can be cancelled; this one is cancelled.');
  });

  it('retries a failed report, and only a failed one', async () => {
    const { reportId } = await queueExport(call, users.owner, '/businesses/B3/transactions/full/reports', {});
    expect((await call(users.owner, 'POST', `/reports/${reportId}/retry`)).status).toBe(400);
    await database.db
      .update(schema.queuedReports)
      .set({ status: 'failed', attempts: 3, error: 'The report could not be generated after 3 attempts.' })
      .where(eq(schema.queuedReports.id, reportId));
    const response = await call(users.owner, 'POST', `/reports/${reportId}/retry`);
    expect(response.status).toBe(200);
    expect(queuedReport.assert(await response.json())).toMatchObject({ status: 'queued', attempts: 0, error: null });
    while ((await reportRow(database, reportId)).status === 'queued') await generateNext();
    expect((await reportRow(database, reportId)).status).toBe('generated');
  });
});
