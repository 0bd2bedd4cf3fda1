// Scheduled transactions exports: the API (the export's filters without a date range, its columns and file type;
// permissions, tenants, malformed bodies) and the runner (each run exports exactly the period that just ended through
// the manual export's code; an owner who lost access gets a failed run with the reason, never rows).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../../server/db/client.ts';
import * as schema from '../../../server/db/schema.ts';
import { runSchedules } from '../../../server/reports/schedules.ts';
import { runNextReport } from '../../../server/reports/worker.ts';
import { reportSchedule, reportScheduleList } from '../../../src/contract/report-schedule-schemas.ts';
import { scheduledExportDateMessage, transactionsScheduleContextMessage } from '../../../src/contract/report-schedules.ts';
import { createTestApp, createTestDatabase, databaseKinds, fixture, insertFixtureWorld } from '../support.ts';
import { extraCardNumber, insertExtraTransactions } from '../api/transaction-fixtures.ts';
import { csvRows, openTestFileStore, reportRow, type TestFileStore } from './report-support.ts';

const { users } = fixture;
const messages = async (response: Response) =>
  ((await response.json()) as { errorReport: { errors: { message: string }[] } }).errorReport.errors.map((error) => error.message);
const daily = { frequency: 'daily', hour: 6, timeZone: 'Europe/London', emailWhenReady: true } as const;
const paidOfB1 = {
  reportType: 'transactions',
  fileType: 'csv',
  businessId: 'B1',
  columns: ['reference', 'amount', 'status', 'maskedCardNumber'],
  filters: { status: '[eq]paid' },
  ...daily,
} as const;

/** Rows around 3 November 2026 (London is on UTC then): inside and outside the day, the filters and the business. */
const periodRows: [reference: string, businessId: string, merchantId: string, createdAt: string, status: string][] = [
  ['TXS00001', 'B1', 'M1a', '2026-11-03T00:00:00Z', 'paid'], // the day's first instant
  ['TXS00002', 'B1', 'M1b', '2026-11-03T12:00:00Z', 'declined'], // the day, not the filter
  ['TXS00003', 'B1', 'M1a', '2026-11-04T00:00:00Z', 'paid'], // the next day, before the run
  ['TXS00004', 'B1', 'M1a', '2026-11-02T23:59:59Z', 'paid'], // the day before
  ['TXS00005', 'B2', 'M2a', '2026-11-03T12:00:00Z', 'paid'], // another business
];

describe.each(databaseKinds)('scheduled transactions exports on %s', (kind) => {
  let database: Database;
  let call: ReturnType<typeof createTestApp>['call'];
  let store: TestFileStore;
  const publicUrl = 'https://portal.example.test';
  beforeAll(async () => {
    database = await createTestDatabase(kind);
    await insertFixtureWorld(database);
    await insertExtraTransactions(database);
    await database.db.insert(schema.transactions).values(
      periodRows.map(([reference, businessId, merchantId, createdAt, status]) => ({
        reference,
        businessId,
        merchantId,
        partnerId: 'P1',
        createdAt: new Date(createdAt),
        amountMinor: 1234,
        currency: 'GBP',
        status,
        paymentMethod: 'card',
        channel: 'Gateway',
        kind: 'payment' as const,
        configurationId: `C-${merchantId}`,
        paymentJobReference: `PJ-${reference}`,
        cardMasked: '555555******4444',
      })),
    );
    store = await openTestFileStore('folder');
    ({ call } = createTestApp(database, { files: store.files }));
  });
  afterAll(async () => {
    await database?.close();
    await store?.close();
  });
  const create = async (userId: string, body: Record<string, unknown>) => call(userId, 'POST', '/report-schedules', body);
  const dueNow = async (id: string, due: Date) => database.query('UPDATE report_schedules SET next_run_at = $1 WHERE id = $2', [due, id]);

  it('creates a transactions schedule with its filters, columns and a readable description; listed; audited', async () => {
    const created = await create(users.partner, paidOfB1);
    expect(created.status, await created.clone().text()).toBe(201);
    const schedule = reportSchedule.assert(await created.json());
    expect(schedule).toMatchObject({
      reportType: 'transactions',
      fileType: 'csv',
      accountNumber: '',
      columns: paidOfB1.columns,
      filters: { status: '[eq]paid' },
      context: { level: 'business', businessId: 'B1', title: 'Alpha Trading Ltd' },
      description: 'Transactions, status paid, daily at 06:00 (Europe/London), previous day',
    });
    const merchant = reportSchedule.assert(
      await (
        await create(users.partner, {
          ...paidOfB1,
          merchantId: 'M1a',
          fileType: 'xlsx',
          filters: { currency: '[eq]GBP', amount: '[gte]10' },
          frequency: 'weekly',
          weekday: 1,
        })
      ).json(),
    );
    expect(merchant).toMatchObject({
      context: { level: 'merchant', merchantId: 'M1a' },
      description: 'Transactions, amount at least 10, currency GBP, weekly on Monday at 06:00 (Europe/London), previous 7 days',
    });
    const list = reportScheduleList.assert(await (await call(users.partner, 'GET', '/report-schedules')).json());
    expect(list.results.map((row) => row.id)).toEqual(expect.arrayContaining([schedule.id, merchant.id]));
    const [event] = await database.query<{ meta_data: Record<string, unknown> }>(
      "SELECT meta_data FROM audit_events WHERE event = 'ReportScheduleCreated' AND meta_data->>'scheduleId' = $1",
      [schedule.id],
    );
    expect(event?.meta_data).toMatchObject({ reportType: 'transactions', filters: { status: '[eq]paid' }, columns: paidOfB1.columns });
    for (const id of [schedule.id, merchant.id]) expect((await call(users.partner, 'DELETE', `/report-schedules/${id}`)).status).toBe(204);
  });

  it('refuses malformed bodies with 400 and an errorReport, never saving them', async () => {
    const count = async () => Number((await database.query<{ n: string }>('SELECT count(*) AS n FROM report_schedules'))[0]?.n);
    const before = await count();
    const dated = await create(users.partner, { ...paidOfB1, filters: { status: '[eq]paid', date: '[gte]2026-11-01T00:00:00' } });
    expect(dated.status).toBe(400);
    expect(await messages(dated)).toEqual([scheduledExportDateMessage]);
    for (const invalid of [
      { ...paidOfB1, fileType: 'pdf' },
      { ...paidOfB1, fileType: 'xml' },
      { ...paidOfB1, columns: [] },
      { ...paidOfB1, columns: ['cardNumber'] },
      { ...paidOfB1, filters: { colour: '[eq]red' } },
      { ...paidOfB1, filters: { status: '[eq]maybe' } },
      { ...paidOfB1, filters: { amount: '[gte]10' } }, // an amount needs one currency
      { ...paidOfB1, filters: { pagesize: '10' } },
      { ...paidOfB1, filters: { status: 5 } },
      { ...paidOfB1, accountNumber: '12345678' },
      { ...paidOfB1, frequency: 'monthly' },
      { ...paidOfB1, timeZone: 'Mars/Olympus' },
      { ...paidOfB1, extra: true },
      { ...paidOfB1, ordering: { OrderingField: 'colour', OrderingDirection: 'Ascending' } },
      { ...paidOfB1, ordering: { OrderingField: 'amount', OrderingDirection: 'Up' } },
      { ...paidOfB1, ordering: { OrderingField: 'amount', OrderingDirection: 'Ascending', extra: 1 } },
    ]) {
      const response = await create(users.partner, invalid);
      expect(response.status, JSON.stringify(invalid)).toBe(400);
      expect(await messages(response)).not.toHaveLength(0);
    }
    expect(await count()).toBe(before);
  });

  it("keeps the view's sort: described in words, and each run's file in that order", async () => {
    const byReference = { ...paidOfB1, ordering: { OrderingField: 'Reference', OrderingDirection: 'Descending' } };
    const schedule = reportSchedule.assert(await (await create(users.partner, byReference)).json());
    // Kept as the field's declared name, and said in the description.
    expect(schedule.ordering).toEqual({ OrderingField: 'reference', OrderingDirection: 'Descending' });
    expect(schedule.description).toBe('Transactions, status paid, sorted by reference, Z to A, daily at 06:00 (Europe/London), previous day');
    const [event] = await database.query<{ meta_data: Record<string, unknown> }>(
      "SELECT meta_data FROM audit_events WHERE event = 'ReportScheduleCreated' AND meta_data->>'scheduleId' = $1",
      [schedule.id],
    );
    expect(event?.meta_data).toMatchObject({ ordering: { OrderingField: 'reference', OrderingDirection: 'Descending' } });
    await dueNow(schedule.id, new Date('2026-11-04T06:00:00Z'));
    expect((await runSchedules(database, { publicUrl, now: new Date('2026-11-04T06:00:30Z') })).queued).toBe(1);
    const [run] = await database.query<{ report_id: string }>('SELECT report_id FROM report_schedule_runs WHERE schedule_id = $1', [schedule.id]);
    expect(await reportRow(database, run?.report_id ?? '')).toMatchObject({ ordering: { OrderingField: 'reference', OrderingDirection: 'Descending' } });
    expect(await runNextReport({ database, files: store.files, nodeId: 'node-t', log: () => undefined })).toBe('generated');
    const rows = await csvRows(store.files, (await reportRow(database, run?.report_id ?? '')).filePath ?? '');
    // Newest first would be TX1A0003 (23:30) then TXS00001 (midnight); by reference, Z to A, it is the other way round.
    expect(rows.slice(1).map((row) => row[0])).toEqual(['TXS00001', 'TX1A0003']);
    expect((await call(users.partner, 'DELETE', `/report-schedules/${schedule.id}`)).status).toBe(204);
  });

  it("schedules a partner's export over all its businesses; refuses a body that names no context or two, and another partner", async () => {
    const ofP1 = { ...paidOfB1, businessId: undefined, partnerId: 'P1', ordering: { OrderingField: 'reference', OrderingDirection: 'Ascending' } };
    const created = await create(users.partner, ofP1);
    expect(created.status, await created.clone().text()).toBe(201);
    const schedule = reportSchedule.assert(await created.json());
    expect(schedule.context).toEqual({ level: 'partner', partnerId: 'P1', title: 'Northwind Partners' });
    const [event] = await database.query<{ business_id: string | null; meta_data: Record<string, unknown> }>(
      "SELECT business_id, meta_data FROM audit_events WHERE event = 'ReportScheduleCreated' AND meta_data->>'scheduleId' = $1",
      [schedule.id],
    );
    expect(event).toMatchObject({ business_id: null, meta_data: { context: { level: 'partner', partnerId: 'P1' } } });
    await dueNow(schedule.id, new Date('2026-11-04T06:00:00Z'));
    expect((await runSchedules(database, { publicUrl, now: new Date('2026-11-04T06:00:30Z') })).queued).toBe(1);
    const [run] = await database.query<{ report_id: string }>('SELECT report_id FROM report_schedule_runs WHERE schedule_id = $1', [schedule.id]);
    expect(await reportRow(database, run?.report_id ?? '')).toMatchObject({ status: 'queued', context: { level: 'partner', partnerId: 'P1' } });
    expect(await runNextReport({ database, files: store.files, nodeId: 'node-t', log: () => undefined })).toBe('generated');
    const rows = await csvRows(store.files, (await reportRow(database, run?.report_id ?? '')).filePath ?? '');
    // The day's paid rows of both of P1's businesses (B1 and B2), by reference.
    expect(rows.slice(1).map((row) => row[0])).toEqual(['TX1A0003', 'TXS00001', 'TXS00005']);
    expect((await call(users.partner, 'DELETE', `/report-schedules/${schedule.id}`)).status).toBe(204);

    const count = async () => Number((await database.query<{ n: string }>('SELECT count(*) AS n FROM report_schedules'))[0]?.n);
    const before = await count();
    for (const invalid of [
      { ...paidOfB1, partnerId: 'P1' }, // two contexts
      { ...paidOfB1, businessId: undefined }, // none
      { ...paidOfB1, businessId: undefined, merchantId: 'M1a' }, // a merchant without its business
    ]) {
      const response = await create(users.partner, invalid);
      expect(response.status, JSON.stringify(invalid)).toBe(400);
      expect(await messages(response)).toEqual([transactionsScheduleContextMessage]);
    }
    expect((await create(users.partner, { ...ofP1, partnerId: 'P2' })).status).toBe(404);
    expect((await create(users.owner, ofP1)).status).toBe(404);
    expect((await create(users.partner, { ...ofP1, partnerId: 'P9' })).status).toBe(404);
    expect(await count()).toBe(before);
  });

  it("refuses another tenant's business or merchant with 404 and a caller without the export's permissions with 403", async () => {
    expect((await create(users.owner, paidOfB1)).status).toBe(404);
    expect((await create(users.finance, { ...paidOfB1, merchantId: 'M1a' })).status).toBe(404);
    expect((await create(users.partner, { ...paidOfB1, businessId: 'B3' })).status).toBe(404);
    expect((await create(users.partner, { ...paidOfB1, merchantId: 'M3a' })).status).toBe(404);
    expect((await create(users.merchantOnly, { ...paidOfB1, merchantId: 'M1b' })).status).toBe(403);
    expect((await create(users.nobody, paidOfB1)).status).toBe(404);
  });

  it("a due run exports exactly the previous local day's matching rows, masked, through the export's code; emailed as a link", async () => {
    const schedule = reportSchedule.assert(await (await create(users.partner, paidOfB1)).json());
    const due = new Date('2026-11-04T06:00:00Z');
    await dueNow(schedule.id, due);
    expect((await runSchedules(database, { publicUrl, now: new Date('2026-11-04T06:00:30Z') })).queued).toBe(1);
    const [run] = await database.query<{ report_id: string }>('SELECT report_id FROM report_schedule_runs WHERE schedule_id = $1', [schedule.id]);
    const report = await reportRow(database, run?.report_id ?? '');
    expect(report).toMatchObject({
      userId: users.partner,
      reportType: 'transactions',
      fileType: 'csv',
      status: 'queued',
      columns: paidOfB1.columns,
      filters: { status: '[eq]paid', date: '[gte]2026-11-03T00:00:00[and][lte]2026-11-03T23:59:59' },
      context: { level: 'business', businessId: 'B1', timeZone: 'Europe/London' },
    });
    expect([report.startDate?.toISOString(), report.endDate?.toISOString()]).toEqual(['2026-11-03T00:00:00.000Z', '2026-11-03T23:59:59.999Z']);
    expect(await runNextReport({ database, files: store.files, nodeId: 'node-t', log: () => undefined })).toBe('generated');
    const generated = await reportRow(database, report.id);
    const rows = await csvRows(store.files, generated.filePath ?? '');
    // TX1A0003 (23:30 UTC, paid, EUR) and TXS00001 (midnight); not the declined, the next day's, the day before's or B2's.
    expect(rows.slice(1).map((row) => row[0])).toEqual(['TX1A0003', 'TXS00001']);
    expect(rows[2]).toEqual(['TXS00001', '12.34', 'paid', '555555******4444']);
    expect(JSON.stringify(rows)).not.toContain(extraCardNumber);
    expect((await runSchedules(database, { publicUrl, now: new Date('2026-11-04T06:10:00Z') })).notified).toBe(1);
    const [mail] = await database.query<{ subject: string; text: string }>(
      "SELECT subject, text FROM outbound_emails WHERE template = 'scheduledReportReady' ORDER BY id DESC LIMIT 1",
    );
    expect(mail?.subject).toBe('Your scheduled report is ready: Transactions');
    expect(mail?.text).toContain('for 2026-11-03 (Europe/London)');
    expect(mail?.text).toContain(`${publicUrl}/reporting-overview?report=${report.id}`);
    expect((await call(users.partner, 'DELETE', `/report-schedules/${schedule.id}`)).status).toBe(204);
  });

  it('an owner who lost access by the run gets a failed run with the reason, no export and no retry', async () => {
    const schedule = reportSchedule.assert(await (await create(users.finance, { ...paidOfB1, businessId: 'B2' })).json());
    const roles = await database.db.select().from(schema.userRoles);
    await database.query('DELETE FROM user_roles WHERE user_id = $1', [users.finance]);
    try {
      await dueNow(schedule.id, new Date('2026-11-04T06:00:00Z'));
      const round = await runSchedules(database, { publicUrl, now: new Date('2026-11-04T06:00:30Z') });
      expect(round).toMatchObject({ queued: 1, retried: 0, failed: 1 });
      const runs = await database.query<{ report_id: string; status: string }>('SELECT report_id, status FROM report_schedule_runs WHERE schedule_id = $1', [
        schedule.id,
      ]);
      expect(runs.map((row) => row.status)).toEqual(['failed']);
      const report = await reportRow(database, runs[0]?.report_id ?? '');
      expect(report).toMatchObject({ status: 'failed', filePath: null });
      expect(report.error).toContain('You no longer have access to the transactions of Beta Retail Ltd');
      expect(await runNextReport({ database, files: store.files, nodeId: 'node-t', log: () => undefined })).toBe('idle');
      const listed = reportScheduleList
        .assert(await (await call(users.finance, 'GET', '/report-schedules')).json())
        .results.find((row) => row.id === schedule.id);
      expect(listed).toMatchObject({ lastOutcome: 'failed', lastError: report.error });
      // The email says the run was refused, not tried: no 'after N tries', and what to do about it.
      const [mail] = await database.query<{ text: string }>(
        "SELECT text FROM outbound_emails WHERE template = 'scheduledReportFailed' ORDER BY id DESC LIMIT 1",
      );
      expect(mail?.text).toContain('Transactions (Beta Retail Ltd) for 2026-11-03 (Europe/London) was not run: You no longer have access');
      expect(mail?.text).not.toContain('tries');
      expect(mail?.text).toContain('each run checks your access again');
    } finally {
      await database.db
        .insert(schema.userRoles)
        .values(roles.filter((role) => role.userId === users.finance))
        .onConflictDoNothing();
    }
  });
});
