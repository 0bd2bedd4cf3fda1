// Bulk jobs on PGlite and PostgreSQL: a selection of the payment jobs overview (its filters, plus or minus
// picks) cancelled or mailed as a server job: every item checked against the user's permission where it lives and
// its state; a filter never reaches another tenant; a retried create returns the first job; a cancel stops it
// between items; the result file lists every failed item and why; an export lands in My report queue.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../../server/db/client.ts';
import * as schema from '../../../server/db/schema.ts';
import { runNextBulkJob } from '../../../server/bulk/worker.ts';
import { runNextReport } from '../../../server/reports/worker.ts';
import { noPermissionMessage } from '../../../server/http/errors.ts';
import { createTestApp, createTestDatabase, databaseKinds, fixture, insertFixtureWorld } from '../support.ts';
import { bulkMixedUser, insertBulkFixtures } from './bulk-fixtures.ts';
import { openTestFileStore, storedBytes, type TestFileStore } from '../reports/report-support.ts';

const { users } = fixture;
const mixed = bulkMixedUser;

const pendingOfB3 = (overrides: Record<string, unknown> = {}) => ({
  area: 'payment-jobs',
  action: 'cancel',
  context: { level: 'business', businessId: 'B3' },
  selection: { allMatching: true, filters: { status: '[eq]pending' }, includedIds: [], excludedIds: [] },
  ...overrides,
});

describe.each(databaseKinds)('bulk jobs on %s', (kind) => {
  let database: Database;
  let store: TestFileStore;
  let call: ReturnType<typeof createTestApp>['call'];
  const work = (batchSize = 5) =>
    runNextBulkJob({ database, files: store.files, publicUrl: 'https://portal.test', nodeId: 'node-a', batchSize, log: () => undefined });
  const job = async (userId: string, id: string) => (await call(userId, 'GET', `/bulk-jobs/${id}`)).json() as Promise<Record<string, unknown>>;
  const resultOf = async (userId: string, id: string) => (await call(userId, 'GET', `/bulk-jobs/${id}/result`)).text();

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    await insertFixtureWorld(database);
    await insertBulkFixtures(database);
    store = await openTestFileStore('folder');
    ({ call } = createTestApp(database, { files: store.files }));
  });
  afterAll(async () => {
    await database?.close();
    await store?.close();
  });

  it('refuses malformed selections, unknown contexts (404) and contexts without the read permission (403)', async () => {
    expect((await call(users.owner, 'POST', '/bulk-jobs', { ...pendingOfB3(), action: 'lock' })).status).toBe(400);
    expect(
      (
        await call(
          users.owner,
          'POST',
          '/bulk-jobs',
          pendingOfB3({ selection: { allMatching: true, filters: { pagenumber: '2' }, includedIds: [], excludedIds: [] } }),
        )
      ).status,
    ).toBe(400);
    expect(
      (
        await call(
          users.owner,
          'POST',
          '/bulk-jobs',
          pendingOfB3({ selection: { allMatching: true, filters: { status: '[eq]nonsense' }, includedIds: [], excludedIds: [] } }),
        )
      ).status,
    ).toBe(400);
    expect(
      (await call(users.owner, 'POST', '/bulk-jobs', pendingOfB3({ selection: { allMatching: false, filters: {}, includedIds: [], excludedIds: [] } }))).status,
    ).toBe(400);
    expect((await call(users.owner, 'POST', '/bulk-jobs', pendingOfB3({ context: { level: 'business', businessId: 'B1' } }))).status).toBe(404);
    expect((await call(users.merchantOnly, 'POST', '/bulk-jobs', pendingOfB3({ context: { level: 'business', businessId: 'B1' } }))).status).toBe(403);
    expect((await call(users.owner, 'GET', '/bulk-jobs/BLK0000000000000000')).status).toBe(404);
  });

  it('checks each item: cancels where the user may, reports the rest with why, and never leaves the tenant', async () => {
    // Picks of another tenant's jobs are not in the scope: they are never items at all.
    const created = await call(
      mixed,
      'POST',
      '/bulk-jobs',
      pendingOfB3({ selection: { allMatching: true, filters: { status: '[eq]pending' }, includedIds: [], excludedIds: ['BK3A0011'] } }),
    );
    expect(created.status).toBe(202);
    const { job: first } = (await created.json()) as { job: { id: string; totalItems: number; status: string } };
    expect(first).toMatchObject({ status: 'queued', totalItems: 13 });
    expect(await work()).toBe('completed');
    const done = await job(mixed, first.id);
    expect(done).toMatchObject({ status: 'completed', processedItems: 13, succeededItems: 11, failedItems: 2 });
    const statuses = Object.fromEntries(
      (await database.db.select({ reference: schema.paymentJobs.reference, status: schema.paymentJobs.status }).from(schema.paymentJobs)).map((row) => [
        row.reference,
        row.status,
      ]),
    );
    expect(statuses.BK3A0000).toBe('cancelled');
    expect(statuses.BK3A0011).toBe('pending'); // excluded
    expect(statuses.BK3B0001).toBe('pending'); // no permission at M3b
    expect(statuses.BK1A0001).toBe('pending'); // another tenant
    const csv = await resultOf(mixed, first.id);
    expect(csv.split('\r\n')[0]).toBe('item,outcome,reason');
    expect(csv).toContain(`BK3B0001,failed,${noPermissionMessage}`);
    expect(csv).not.toContain('BK3A0000');
    // Another user cannot see the job.
    expect((await call(users.owner, 'GET', `/bulk-jobs/${first.id}`)).status).toBe(404);
    expect((await call(users.owner, 'GET', `/bulk-jobs/${first.id}/result`)).status).toBe(404);
    // Audit events were written per cancelled job.
    const audits = await database.db.select().from(schema.auditEvents).where(eq(schema.auditEvents.event, 'PaymentJobCancellationSuccessful'));
    expect(audits.length).toBeGreaterThanOrEqual(11);
    // Progress went out on the events stream after each batch and at the end (13 items in batches of 5: 3 + 1).
    const events = await database.db.select().from(schema.portalEvents).where(eq(schema.portalEvents.kind, 'bulk-jobs'));
    expect(events.length).toBeGreaterThanOrEqual(4);
  });

  it('refuses items whose state does not allow the action, with the reason', async () => {
    const created = await call(
      users.owner,
      'POST',
      '/bulk-jobs',
      pendingOfB3({ selection: { allMatching: false, filters: {}, includedIds: ['BK3P0001', 'BK3B0001', 'BK1A0002'], excludedIds: [] } }),
    );
    const { job: started } = (await created.json()) as { job: { id: string; totalItems: number } };
    expect(started.totalItems).toBe(2); // BK1A0002 is another tenant's: not in the selection
    expect(await work()).toBe('completed');
    expect(await job(users.owner, started.id)).toMatchObject({ succeededItems: 1, failedItems: 1 });
    expect(await resultOf(users.owner, started.id)).toMatch(/BK3P0001,failed,"This payment job cannot be cancelled: it is paid/);
  });

  it('returns the first job for a retried create (Idempotency-Key) and 422 for another request with that key', async () => {
    const body = pendingOfB3({
      action: 'resend-links',
      selection: { allMatching: true, filters: { status: '[eq]cancelled' }, includedIds: [], excludedIds: [] },
    });
    const headers = { 'Idempotency-Key': 'bulk-retry-1' };
    const first = await call(users.owner, 'POST', '/bulk-jobs', body, headers);
    const again = await call(users.owner, 'POST', '/bulk-jobs', body, headers);
    expect(first.status).toBe(202);
    expect(again.status).toBe(200);
    const a = ((await first.json()) as { job: { id: string } }).job.id;
    expect(((await again.json()) as { job: { id: string } }).job.id).toBe(a);
    expect((await call(users.owner, 'POST', '/bulk-jobs', pendingOfB3(), headers)).status).toBe(422);
    // A body clientKey works the same.
    const k1 = await call(users.owner, 'POST', '/bulk-jobs', { ...body, clientKey: 'client-1' });
    const k2 = await call(users.owner, 'POST', '/bulk-jobs', { ...body, clientKey: 'client-1' });
    expect(((await k1.json()) as { job: { id: string } }).job.id).toBe(((await k2.json()) as { job: { id: string } }).job.id);
    // Cancelled jobs cannot be mailed: each fails with the reason; nothing is queued twice.
    while ((await work()) !== 'idle') {
      /* drain */
    }
    const finished = await job(users.owner, a);
    expect(finished).toMatchObject({ status: 'completed', succeededItems: 0 });
    expect(await resultOf(users.owner, a)).toMatch(/A payment link can only be sent for an open job; this one is cancelled/);
  });

  it('stops a running job between items when cancelled, and a queued one at once', async () => {
    await database.db.update(schema.paymentJobs).set({ status: 'pending' }).where(eq(schema.paymentJobs.businessId, 'B3'));
    const queued = ((await (await call(users.owner, 'POST', '/bulk-jobs', pendingOfB3())).json()) as { job: { id: string } }).job.id;
    const cancelled = await call(users.owner, 'POST', `/bulk-jobs/${queued}/cancel`);
    expect(await cancelled.json()).toMatchObject({ status: 'cancelled', cancelRequested: true });
    expect(await work()).toBe('idle');
    expect(await resultOf(users.owner, queued)).toBe('item,outcome,reason\r\n');

    const running = ((await (await call(users.owner, 'POST', '/bulk-jobs', pendingOfB3())).json()) as { job: { id: string; totalItems: number } }).job;
    expect(running.totalItems).toBe(16); // B3's 15 and the fixture world's PJ3A0001
    const outcome = await runNextBulkJob({
      database,
      files: store.files,
      publicUrl: 'https://portal.test',
      nodeId: 'node-a',
      batchSize: 5,
      log: () => undefined,
      afterBatch: async ({ processedItems }) => {
        if (processedItems === 5) expect((await call(users.owner, 'POST', `/bulk-jobs/${running.id}/cancel`)).status).toBe(200);
      },
    });
    expect(outcome).toBe('cancelled');
    expect(await job(users.owner, running.id)).toMatchObject({ status: 'cancelled', processedItems: 5 });
    const stillPending = await database.db.select().from(schema.paymentJobs).where(eq(schema.paymentJobs.status, 'pending'));
    expect(stillPending.filter((row) => row.businessId === 'B3')).toHaveLength(11);
  });

  it('exports every matching payment job through My report queue, without card data', async () => {
    // One export of B3's pending jobs, from the bulk job to the generated file: its report id and the file's text.
    const exported = async (selection?: { allMatching: boolean; includedIds: string[]; excludedIds: string[] }) => {
      const created = await call(
        users.owner,
        'POST',
        '/bulk-jobs',
        pendingOfB3({ action: 'export', params: { fileType: 'csv' }, ...(selection ? { selection: { filters: {}, ...selection } } : {}) }),
      );
      expect(created.status).toBe(202);
      const id = ((await created.json()) as { job: { id: string } }).job.id;
      expect(await work()).toBe('completed');
      const { reportId } = (await job(users.owner, id)) as { reportId: string };
      expect(reportId).toMatch(/^RPT/);
      expect(await runNextReport({ database, files: store.files, nodeId: 'node-r', log: () => undefined })).toBe('generated');
      const [report] = await database.db.select().from(schema.queuedReports).where(eq(schema.queuedReports.id, reportId));
      expect(report?.status).toBe('generated');
      return { reportId, csv: (await storedBytes(store.files, report?.filePath as string)).toString('utf8') };
    };
    const references = (csv: string) =>
      csv
        .trim()
        .split(/\r?\n/)
        .slice(1)
        .map((line) => /BK3A\d{4}/.exec(line)?.[0])
        .filter(Boolean)
        .sort();

    const every = await exported();
    expect(every.csv).toContain('BK3A0010');
    expect(every.csv).not.toContain('BK1A0001');
    expect(every.csv).not.toMatch(/4111/);
    const download = await call(users.owner, 'GET', `/reports/${every.reportId}/download`);
    expect(download.status).toBe(200);

    // Picked jobs: the export holds those and no other; all matching but some left out: all but those.
    expect(references((await exported({ allMatching: false, includedIds: ['BK3A0002', 'BK3A0007'], excludedIds: [] })).csv)).toEqual(['BK3A0002', 'BK3A0007']);
    const allBut = references((await exported({ allMatching: true, includedIds: [], excludedIds: ['BK3A0002'] })).csv);
    expect(allBut).toContain('BK3A0010');
    expect(allBut).not.toContain('BK3A0002');
  });
  it('exports transactions of a filtered view through the existing transactions report', async () => {
    const created = await call(users.owner, 'POST', '/bulk-jobs', {
      area: 'transactions',
      action: 'export',
      context: { level: 'business', businessId: 'B3' },
      selection: { allMatching: true, filters: {}, includedIds: [], excludedIds: [] },
      params: { fileType: 'csv', columns: ['reference', 'amount'] },
    });
    expect(created.status).toBe(202);
    const id = ((await created.json()) as { job: { id: string } }).job.id;
    expect(await work()).toBe('completed');
    const { reportId } = (await job(users.owner, id)) as { reportId: string };
    expect(await runNextReport({ database, files: store.files, nodeId: 'node-r', log: () => undefined })).toBe('generated');
    const [report] = await database.db.select().from(schema.queuedReports).where(eq(schema.queuedReports.id, reportId));
    expect(report).toMatchObject({ reportType: 'transactions', status: 'generated', columns: ['reference', 'amount'] });
    const csv = (await storedBytes(store.files, report?.filePath as string)).toString('utf8');
    expect(csv).toContain('TXBK3A0001');
    expect(csv).not.toContain('TXBK1A0001');
  });

  describe('tickets', () => {
    const ticketIds = ['TCKBULK3A01', 'TCKBULK3A02', 'TCKBULK3B01', 'TCKBULK1A01'];
    beforeAll(async () => {
      const at = new Date('2026-11-12T09:00:00Z');
      const ticket = (id: string, businessId: string, merchantId: string | null, createdBy: string) => ({
        id,
        businessId,
        merchantId,
        createdBy,
        type: 'general',
        status: 'Open',
        priority: 'Medium',
        subject: `Subject ${id}`,
        description: 'Bulk',
        createdUtc: at,
        lastUpdatedUtc: at,
        version: 1,
        assigneeId: null,
      });
      await database.db
        .insert(schema.tickets)
        .values([
          ticket('TCKBULK3A01', 'B3', 'M3a', users.owner),
          ticket('TCKBULK3A02', 'B3', 'M3a', users.admin),
          ticket('TCKBULK3B01', 'B3', 'M3b', users.owner),
          ticket('TCKBULK1A01', 'B1', 'M1a', users.partner),
        ]);
    });
    const ticketsOfB3 = (action: string, params: Record<string, unknown>, selection: Record<string, unknown> = {}) => ({
      area: 'tickets',
      action,
      context: { level: 'business', businessId: 'B3' },
      params,
      selection: { allMatching: true, filters: { searchterm: '[eq]tckbulk' }, includedIds: [], excludedIds: [], ...selection },
    });
    const ticketRows = async () =>
      Object.fromEntries((await database.db.select().from(schema.tickets)).filter((row) => ticketIds.includes(row.id)).map((row) => [row.id, row]));

    it("refuses a status or assignee action without a valid value, and another tenant's context", async () => {
      expect((await call(users.admin, 'POST', '/bulk-jobs', ticketsOfB3('status', { status: 'Lost' }))).status).toBe(400);
      expect((await call(users.admin, 'POST', '/bulk-jobs', ticketsOfB3('status', {}))).status).toBe(400);
      expect((await call(users.admin, 'POST', '/bulk-jobs', ticketsOfB3('assignee', {}))).status).toBe(400);
      expect(
        (await call(users.owner, 'POST', '/bulk-jobs', { ...ticketsOfB3('status', { status: 'Closed' }), context: { level: 'business', businessId: 'B1' } }))
          .status,
      ).toBe(404);
    });

    it('lets a requester close only their own tickets: each item checked as the single update checks it, audited per item', async () => {
      const created = await call(users.owner, 'POST', '/bulk-jobs', ticketsOfB3('status', { status: 'Closed' }, { includedIds: [] }));
      expect(created.status, await created.clone().text()).toBe(202);
      const { job: made } = (await created.json()) as { job: { id: string; totalItems: number } };
      expect(made.totalItems).toBe(3); // B1's ticket matches the search but is another tenant's
      expect(await work()).toBe('completed');
      expect(await job(users.owner, made.id)).toMatchObject({ status: 'completed', processedItems: 3, succeededItems: 2, failedItems: 1 });
      const rows = await ticketRows();
      expect([rows.TCKBULK3A01?.status, rows.TCKBULK3B01?.status, rows.TCKBULK3A02?.status, rows.TCKBULK1A01?.status]).toEqual([
        'Closed',
        'Closed',
        'Open',
        'Open',
      ]);
      expect(await resultOf(users.owner, made.id)).toContain(`TCKBULK3A02,failed,${noPermissionMessage}`);
      const audits = (await database.db.select().from(schema.auditEvents).where(eq(schema.auditEvents.event, 'TicketUpdated'))).filter((row) =>
        ticketIds.includes(String((row.metaData as { ticketId?: string }).ticketId)),
      );
      expect(audits.map((row) => (row.metaData as { ticketId: string }).ticketId).sort()).toEqual(['TCKBULK3A01', 'TCKBULK3B01']);
      expect(audits[0]).toMatchObject({
        userId: users.owner,
        businessId: 'B3',
        metaData: expect.objectContaining({ changes: { status: { from: 'Open', to: 'Closed' } } }),
      });
    });

    it('lets staff reopen and assign picked tickets; a pick of another tenant is never an item; a non-staff assignee fails per item', async () => {
      const reopen = await call(
        users.admin,
        'POST',
        '/bulk-jobs',
        ticketsOfB3('status', { status: 'InProgress' }, { allMatching: false, includedIds: ['TCKBULK3A01', 'TCKBULK1A01'] }),
      );
      expect(((await reopen.json()) as { job: { totalItems: number } }).job.totalItems).toBe(1);
      expect(await work()).toBe('completed');
      // A staff member who writes (the read-only role is no assignee).
      const assign = await call(users.admin, 'POST', '/bulk-jobs', ticketsOfB3('assignee', { assigneeId: users.admin }));
      const assignId = ((await assign.json()) as { job: { id: string } }).job.id;
      expect(await work()).toBe('completed');
      expect(await job(users.admin, assignId)).toMatchObject({ processedItems: 3, succeededItems: 3, failedItems: 0 });
      let rows = await ticketRows();
      expect(rows.TCKBULK3A01).toMatchObject({ status: 'InProgress', assigneeId: users.admin, version: 4 });
      expect(rows.TCKBULK1A01).toMatchObject({ status: 'Open', assigneeId: null, version: 1 });
      const wrong = await call(users.admin, 'POST', '/bulk-jobs', ticketsOfB3('assignee', { assigneeId: users.owner }));
      const wrongId = ((await wrong.json()) as { job: { id: string } }).job.id;
      expect(await work()).toBe('completed');
      expect(await job(users.admin, wrongId)).toMatchObject({ processedItems: 3, failedItems: 3 });
      expect(await resultOf(users.admin, wrongId)).toContain('TCKBULK3A02,failed,assigneeId must be a member of the support staff');
      rows = await ticketRows();
      expect(rows.TCKBULK3A02?.assigneeId).toBe(users.admin);
    });
  });

  describe('users', () => {
    const people = ['u-bulk-b3a', 'u-bulk-b3b', 'u-bulk-split', 'u-bulk-b1'];
    beforeAll(async () => {
      await database.db.insert(schema.users).values(
        people.map((id) => ({
          id,
          email: `${id}@bulklock.test`,
          givenName: id,
          familyName: 'Bulk',
          passwordHash: 'scrypt$1$1$1$x$y',
          passwordExpiresUtc: new Date(Date.now() + 86_400_000 * 30),
        })),
      );
      await database.db.insert(schema.userRoles).values([
        { userId: 'u-bulk-b3a', role: 'Finance', level: 'business', businessId: 'B3' },
        { userId: 'u-bulk-b3b', role: 'Sales', level: 'merchant', businessId: 'B3', merchantId: 'M3a' },
        { userId: 'u-bulk-split', role: 'Finance', level: 'business', businessId: 'B3' },
        { userId: 'u-bulk-split', role: 'Finance', level: 'business', businessId: 'B2' },
        { userId: 'u-bulk-b1', role: 'Finance', level: 'business', businessId: 'B1' },
      ]);
    });
    const lockRequest = (selection: Record<string, unknown>, context: Record<string, unknown> = { level: 'all' }) => ({
      area: 'users',
      action: 'lock',
      context,
      selection: { allMatching: true, filters: { email: '[eq]bulklock' }, includedIds: [], excludedIds: [], ...selection },
    });
    const lockedOf = async () =>
      Object.fromEntries(
        (await database.db.select({ id: schema.users.id, until: schema.users.lockoutEndDateUtc }).from(schema.users)).map((row) => [
          row.id,
          row.until !== null && row.until > new Date(),
        ]),
      );

    it("locks the users of a filtered view the caller may manage whole, refusing (and auditing) the rest per user, never another tenant's", async () => {
      expect((await call(users.owner, 'POST', '/bulk-jobs', lockRequest({}, { level: 'partner', partnerId: 'P1' }))).status).toBe(404);
      expect((await call(users.owner, 'POST', '/bulk-jobs', lockRequest({ filters: { colour: '[eq]red' } }))).status).toBe(400);
      const created = await call(users.owner, 'POST', '/bulk-jobs', lockRequest({}));
      expect(created.status, await created.clone().text()).toBe(202);
      const { job: made } = (await created.json()) as { job: { id: string; totalItems: number } };
      expect(made.totalItems).toBe(3); // u-bulk-b1 is B1's: the owner of B3 does not read them
      expect(await work()).toBe('completed');
      expect(await job(users.owner, made.id)).toMatchObject({ status: 'completed', processedItems: 3, succeededItems: 2, failedItems: 1 });
      const locked = await lockedOf();
      expect(people.map((id) => locked[id])).toEqual([true, true, false, false]);
      expect(await resultOf(users.owner, made.id)).toContain(`u-bulk-split,failed,${noPermissionMessage}`);
      const audits = await database.db.select().from(schema.auditEvents);
      const about = (event: string) =>
        audits
          .filter((row) => row.event === event && people.includes(String((row.metaData as { targetUserId?: string }).targetUserId)))
          .map((row) => (row.metaData as { targetUserId: string }).targetUserId)
          .sort();
      expect(about('UserLocked')).toEqual(['u-bulk-b3a', 'u-bulk-b3b']);
      expect(about('UserAdministrationRefused')).toEqual(['u-bulk-split']);
    });

    it('never locks the caller themself, and a pick out of sight is not an item', async () => {
      const created = await call(users.owner, 'POST', '/bulk-jobs', lockRequest({ allMatching: false, filters: {}, includedIds: [users.owner, 'u-bulk-b1'] }));
      const { job: made } = (await created.json()) as { job: { id: string; totalItems: number } };
      expect(made.totalItems).toBe(1);
      expect(await work()).toBe('completed');
      expect(await resultOf(users.owner, made.id)).toContain(`${users.owner},failed,You cannot lock your own account.`);
      expect((await lockedOf())[users.owner]).toBe(false);
    });
  });
});
