// Exports of the tickets and users overviews as bulk jobs on PGlite and PostgreSQL: the job queues
// a report in My report queue; the report worker writes the file with the overview's filters (and picks), scoped and
// checked as the list calls are: another tenant's rows never, internal notes only for staff, a user's roles only
// where the caller reads them; refused without the read permission (403) or in an unreachable context (404).
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../../server/db/client.ts';
import * as schema from '../../../server/db/schema.ts';
import { runNextBulkJob } from '../../../server/bulk/worker.ts';
import { runNextReport } from '../../../server/reports/worker.ts';
import { createTestApp, createTestDatabase, databaseKinds, fixture, insertFixtureWorld } from '../support.ts';
import { openTestFileStore, storedBytes, type TestFileStore } from '../reports/report-support.ts';

const { users } = fixture;

/** A CSV the report writer made, as rows of cells (RFC 4180 quotes; no line breaks inside these fixtures' cells). */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  for (const line of text
    .replace(/^\uFEFF/, '')
    .split('\r\n')
    .filter((entry) => entry !== '')) {
    const cells: string[] = [];
    let cell = '';
    let quoted = false;
    for (let index = 0; index < line.length; index += 1) {
      const char = line[index] as string;
      if (quoted) {
        if (char === '"' && line[index + 1] === '"') {
          cell += '"';
          index += 1;
        } else if (char === '"') quoted = false;
        else cell += char;
      } else if (char === '"') quoted = true;
      else if (char === ',') {
        cells.push(cell);
        cell = '';
      } else cell += char;
    }
    cells.push(cell);
    rows.push(cells);
  }
  return rows;
}

describe.each(databaseKinds)('exports of tickets and users on %s', (kind) => {
  let database: Database;
  let store: TestFileStore;
  let call: ReturnType<typeof createTestApp>['call'];
  const bulkWork = () => runNextBulkJob({ database, files: store.files, publicUrl: 'https://portal.test', nodeId: 'node-b', log: () => undefined });
  const reportWork = () => runNextReport({ database, files: store.files, nodeId: 'node-r', log: () => undefined });

  /** Starts an export, runs the job and the report; the report's row and its file's rows as objects by header. */
  async function exported(userId: string, request: Record<string, unknown>) {
    const created = await call(userId, 'POST', '/bulk-jobs', { action: 'export', params: { fileType: 'csv' }, ...request });
    expect(created.status, await created.clone().text()).toBe(202);
    const { job } = (await created.json()) as { job: { id: string; totalItems: number } };
    expect(await bulkWork()).toBe('completed');
    const done = (await (await call(userId, 'GET', `/bulk-jobs/${job.id}`)).json()) as { reportId: string; status: string };
    expect(done.reportId).toMatch(/^RPT/);
    const outcome = await reportWork();
    const [report] = await database.db.select().from(schema.queuedReports).where(eq(schema.queuedReports.id, done.reportId));
    if (outcome !== 'generated') return { job, report, header: [] as string[], rows: [] as Record<string, string>[], text: '' };
    const text = (await storedBytes(store.files, report?.filePath as string)).toString('utf8');
    const [header = [], ...lines] = parseCsv(text);
    const rows = lines.map((cells) => Object.fromEntries(header.map((name, index) => [name, cells[index] ?? ''])));
    return { job, report, header, rows, text };
  }

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    await insertFixtureWorld(database);
    store = await openTestFileStore('folder');
    ({ call } = createTestApp(database, { files: store.files }));
    const at = new Date('2026-11-12T09:00:00Z');
    const ticket = (id: string, businessId: string, merchantId: string | null, status = 'Open') => ({
      id,
      businessId,
      merchantId,
      createdBy: users.owner,
      type: 'dispute',
      status,
      priority: 'High',
      subject: `Export ${id}, "quoted"`,
      description: '=SUM(A1)',
      createdUtc: at,
      lastUpdatedUtc: at,
      version: 1,
      assigneeId: null,
    });
    await database.db
      .insert(schema.tickets)
      .values([
        ticket('TCKEXP3A01', 'B3', 'M3a'),
        ticket('TCKEXP3A02', 'B3', 'M3a', 'Closed'),
        ticket('TCKEXP3B01', 'B3', 'M3b'),
        ticket('TCKEXP1A01', 'B1', 'M1a'),
      ]);
    const comment = (id: string, ticketId: string, text: string, internal: boolean, minute: number) => ({
      id,
      ticketId,
      authorId: users.admin,
      text,
      internal,
      createdUtc: new Date(at.getTime() + minute * 60_000),
      lastUpdatedUtc: at,
    });
    await database.db
      .insert(schema.ticketComments)
      .values([
        comment('CMEXP1', 'TCKEXP3A01', 'Public reply to the merchant', false, 1),
        comment('CMEXP2', 'TCKEXP3A01', 'Internal: chargeback looks fraudulent', true, 2),
        comment('CMEXP3', 'TCKEXP1A01', 'Alpha secret reply', false, 1),
      ]);
    const payment = (reference: string, merchantId: string) => ({
      reference,
      kind: 'payment' as const,
      businessId: 'B3',
      merchantId,
      partnerId: null,
      configurationId: `C-${merchantId}`,
      paymentJobReference: `PJ-${reference}`,
      createdAt: new Date('2026-11-02T10:00:00Z'),
      amountMinor: 990,
      currency: 'GBP',
      status: 'paid',
      paymentMethod: 'ideal',
      channel: 'Gateway',
    });
    await database.db.insert(schema.transactions).values([payment('TXEXP3A02', 'M3a'), payment('TXEXP3B01', 'M3b')]);
    const person = (id: string) => ({
      id,
      email: `${id}@userexport.test`,
      givenName: id,
      familyName: 'Export',
      passwordHash: 'scrypt$1$1$1$x$y',
      passwordExpiresUtc: new Date(Date.now() + 86_400_000 * 30),
    });
    await database.db.insert(schema.users).values(['u-exp-b3', 'u-exp-split', 'u-exp-b1', 'u-exp-leaver'].map(person));
    await database.db.insert(schema.userRoles).values([
      { userId: 'u-exp-b3', role: 'Sales', level: 'merchant', businessId: 'B3', merchantId: 'M3a' },
      { userId: 'u-exp-split', role: 'Finance', level: 'business', businessId: 'B3' },
      { userId: 'u-exp-split', role: 'ExternalDeveloper', level: 'business', businessId: 'B2' },
      { userId: 'u-exp-b1', role: 'Finance', level: 'business', businessId: 'B1' },
      { userId: 'u-exp-leaver', role: 'Owner', level: 'business', businessId: 'B3' },
    ]);
  });
  afterAll(async () => {
    await database?.close();
    await store?.close();
  });

  const ticketsOf = (context: Record<string, unknown>, selection: Record<string, unknown> = {}, params: Record<string, unknown> = { fileType: 'csv' }) => ({
    area: 'tickets',
    context,
    params,
    selection: { allMatching: true, filters: { searchterm: '[eq]tckexp' }, includedIds: [], excludedIds: [], ...selection },
  });
  const usersOf = (selection: Record<string, unknown> = {}, context: Record<string, unknown> = { level: 'all' }) => ({
    area: 'users',
    context,
    params: { fileType: 'csv' },
    selection: { allMatching: true, filters: { email: '[eq]userexport' }, includedIds: [], excludedIds: [], ...selection },
  });

  describe('tickets', () => {
    it("exports the filtered tickets of the context into My report queue: no other tenant's, no internal note for a merchant", async () => {
      const { job, report, header, rows, text } = await exported(users.owner, ticketsOf({ level: 'business', businessId: 'B3' }));
      expect(job.totalItems).toBe(3);
      expect(report).toMatchObject({ reportType: 'tickets', status: 'generated', totalRows: 3, processedRows: 3 });
      expect(header).toEqual([
        'Ticket',
        'Created (UTC)',
        'Last updated (UTC)',
        'Type',
        'Status',
        'Priority',
        'Subject',
        'Description',
        'Business',
        'Merchant',
        'Requester',
        'Assignee',
        'Comments',
        'Latest comment',
      ]);
      expect(rows.map((row) => row.Ticket)).toEqual(['TCKEXP3A01', 'TCKEXP3A02', 'TCKEXP3B01']);
      expect(rows[0]).toMatchObject({
        Type: 'Dispute',
        Status: 'Open',
        Priority: 'High',
        Subject: 'Export TCKEXP3A01, "quoted"',
        Description: "'=SUM(A1)",
        Business: 'Gamma Foods plc',
        Comments: '1',
        'Latest comment': 'Public reply to the merchant',
      });
      expect(rows[1]).toMatchObject({ Status: 'Closed', 'Created (UTC)': '2026-11-12 09:00:00', Requester: 'u-owner Test' });
      expect(text).not.toContain('Internal: chargeback');
      expect(text).not.toContain('TCKEXP1A01');
      expect(text).not.toContain('Alpha secret');
      const download = await call(users.owner, 'GET', `/reports/${report?.id}/download`);
      expect(download.status).toBe(200);
      expect(Buffer.from(await download.arrayBuffer()).toString('utf8')).toBe(text);
      const [audit] = (await database.db.select().from(schema.auditEvents).where(eq(schema.auditEvents.event, 'RecordsExported'))).filter(
        (row) => (row.metaData as { reportId?: string }).reportId === report?.id,
      );
      expect(audit).toMatchObject({ userId: users.owner, businessId: 'B3', metaData: expect.objectContaining({ area: 'tickets', rows: 3 }) });
      const listed = (await (await call(users.owner, 'GET', '/reports')).json()) as { results: { id: string; reportType: string }[] };
      expect(listed.results.find((entry) => entry.id === report?.id)?.reportType).toBe('tickets');
    });

    it('shows internal notes to support staff, who hold Portal.Tickets.Read.Internal', async () => {
      const { rows } = await exported(
        users.readonly,
        ticketsOf({ level: 'business', businessId: 'B3' }, {}, { fileType: 'csv', columns: ['ticketId', 'comments', 'lastComment', 'nonsense'] }),
      );
      expect(rows[0]).toEqual({ Ticket: 'TCKEXP3A01', Comments: '2', 'Latest comment': 'Internal: chargeback looks fraudulent' });
    });

    it("exports only the picked tickets, never a pick of another tenant, and honours the overview's filters", async () => {
      const picked = await exported(
        users.owner,
        ticketsOf({ level: 'business', businessId: 'B3' }, { allMatching: false, includedIds: ['TCKEXP3B01', 'TCKEXP1A01'] }),
      );
      expect(picked.job.totalItems).toBe(1);
      expect(picked.rows.map((row) => row.Ticket)).toEqual(['TCKEXP3B01']);
      const open = await exported(
        users.owner,
        ticketsOf({ level: 'merchant', businessId: 'B3', merchantId: 'M3a' }, { filters: { searchterm: '[eq]tckexp', status: '[eq]Open' } }),
      );
      expect(open.rows.map((row) => row.Ticket)).toEqual(['TCKEXP3A01']);
      const allBut = await exported(users.owner, ticketsOf({ level: 'business', businessId: 'B3' }, { excludedIds: ['TCKEXP3A01'] }));
      expect(allBut.rows.map((row) => row.Ticket)).toEqual(['TCKEXP3A02', 'TCKEXP3B01']);
    });

    it("refuses another tenant's context (404), a context without the read permission (403) and the staff queue without a context", async () => {
      expect((await call(users.owner, 'POST', '/bulk-jobs', { action: 'export', ...ticketsOf({ level: 'business', businessId: 'B1' }) })).status).toBe(404);
      expect(
        (await call(users.merchantOnly, 'POST', '/bulk-jobs', { action: 'export', ...ticketsOf({ level: 'merchant', businessId: 'B1', merchantId: 'M1b' }) }))
          .status,
      ).toBe(403);
      expect((await call(users.admin, 'POST', '/bulk-jobs', { action: 'export', ...ticketsOf({ level: 'all' }) })).status).toBe(404);
      expect(
        (
          await call(users.owner, 'POST', '/bulk-jobs', {
            action: 'export',
            ...ticketsOf({ level: 'business', businessId: 'B3' }, { filters: { status: '[eq]Lost' } }),
          })
        ).status,
      ).toBe(400);
    });
  });

  describe('transactions', () => {
    const transactionsOfB3 = (selection: Record<string, unknown>) => ({
      area: 'transactions',
      context: { level: 'business', businessId: 'B3' },
      params: { fileType: 'csv', columns: ['reference', 'amount'] },
      selection: { allMatching: true, filters: {}, includedIds: [], excludedIds: [], ...selection },
    });
    it("exports the picked transactions of the overview, never another tenant's pick, or every match but the excluded", async () => {
      const picked = await exported(users.owner, transactionsOfB3({ allMatching: false, includedIds: ['TXEXP3B01', 'TX1A0001'] }));
      expect(picked.report).toMatchObject({ reportType: 'transactions', status: 'generated' });
      expect(picked.rows.map((row) => row.Reference)).toEqual(['TXEXP3B01']);
      const allBut = await exported(users.owner, transactionsOfB3({ excludedIds: ['TXEXP3A02'] }));
      expect(allBut.rows.map((row) => row.Reference).sort()).toEqual(['TX3A0001', 'TXEXP3B01']);
      expect((await call(users.owner, 'GET', `/reports/${allBut.report?.id}/download`)).status).toBe(200);
    });
  });

  describe('users', () => {
    it('exports whom GET /user/users lets the caller read, with only the roles and businesses the caller reads', async () => {
      const { job, report, header, rows, text } = await exported(users.owner, usersOf());
      expect(job.totalItems).toBe(3);
      expect(report).toMatchObject({ reportType: 'users', status: 'generated', totalRows: 3 });
      expect(header).toEqual(['User ID', 'Name', 'Email', 'Status', 'Roles', 'Businesses', 'Last sign-in (UTC)', 'Created (UTC)', 'Locked until (UTC)']);
      expect(rows.map((row) => row['User ID'])).toEqual(['u-exp-b3', 'u-exp-leaver', 'u-exp-split']);
      expect(rows[2]).toMatchObject({ Email: 'u-exp-split@userexport.test', Status: 'active', Roles: 'Finance', Businesses: 'Gamma Foods plc' });
      expect(text).not.toContain('Beta Retail');
      expect(text).not.toContain('u-exp-b1');
      expect((await call(users.owner, 'GET', `/reports/${report?.id}/download`)).status).toBe(200);
    });

    it('exports every user to a technical admin, and only the picked ones when rows are picked', async () => {
      const all = await exported(users.admin, usersOf());
      expect(all.rows.map((row) => row['User ID'])).toEqual(['u-exp-b1', 'u-exp-b3', 'u-exp-leaver', 'u-exp-split']);
      expect(all.rows.find((row) => row['User ID'] === 'u-exp-split')?.Businesses).toBe('Gamma Foods plc; Beta Retail Ltd');
      const picked = await exported(users.owner, usersOf({ allMatching: false, filters: {}, includedIds: ['u-exp-b3', 'u-exp-b1'] }));
      expect(picked.job.totalItems).toBe(1);
      expect(picked.rows.map((row) => row['User ID'])).toEqual(['u-exp-b3']);
    });

    it("refuses callers who read no users (403) and another partner's users (404)", async () => {
      expect((await call(users.finance, 'POST', '/bulk-jobs', { action: 'export', ...usersOf() })).status).toBe(403);
      expect((await call(users.merchantOnly, 'POST', '/bulk-jobs', { action: 'export', ...usersOf() })).status).toBe(403);
      expect((await call(users.owner, 'POST', '/bulk-jobs', { action: 'export', ...usersOf({}, { level: 'partner', partnerId: 'P1' }) })).status).toBe(404);
    });

    it('fails the report, and refuses its download, once the caller no longer reads users', async () => {
      const created = await call('u-exp-leaver', 'POST', '/bulk-jobs', { action: 'export', ...usersOf() });
      expect(created.status, await created.clone().text()).toBe(202);
      const { job } = (await created.json()) as { job: { id: string } };
      expect(await bulkWork()).toBe('completed');
      const { reportId } = (await (await call('u-exp-leaver', 'GET', `/bulk-jobs/${job.id}`)).json()) as { reportId: string };
      await database.db.delete(schema.userRoles).where(eq(schema.userRoles.userId, 'u-exp-leaver'));
      expect(await reportWork()).toBe('failed');
      const [report] = await database.db.select().from(schema.queuedReports).where(eq(schema.queuedReports.id, reportId));
      expect(report?.status).toBe('failed');
      expect((await call('u-exp-leaver', 'GET', `/reports/${reportId}/download`)).status).toBe(403);
    });
  });
});
