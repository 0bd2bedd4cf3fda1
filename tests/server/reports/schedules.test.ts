// Scheduled statements: the API (create, list, pause/resume with the version, delete; permissions, tenants, the
// spec's message), the runner (a due schedule queues the period that just ended into the owner's report queue; a
// generated report emails a link, never the file; a failed run is queued once more and then reported) and the timing
// rules (time zones, weekdays, month ends).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../../server/db/client.ts';
import { runSchedules } from '../../../server/reports/schedules.ts';
import { runNextReport } from '../../../server/reports/worker.ts';
import { describeTiming, nextRunAfter, runPeriod, type ScheduleTiming } from '../../../src/contract/report-schedules.ts';
import { reportSchedule, reportScheduleList } from '../../../src/contract/report-schedule-schemas.ts';
import { createTestApp, createTestDatabase, databaseKinds, fixture, insertFixtureWorld } from '../support.ts';
import { b2Eur, insertLedgerFixture, m1aGbp, m1bGbp } from '../ledger/ledger-fixtures.ts';
import { openTestFileStore, reportRow, type TestFileStore } from './report-support.ts';

const { users } = fixture;
const messages = async (response: Response) =>
  ((await response.json()) as { errorReport: { errors: { message: string }[] } }).errorReport.errors.map((error) => error.message);
const monthly = { frequency: 'monthly', dayOfMonth: 1, hour: 6, timeZone: 'Europe/London', emailWhenReady: true } as const;
const trading = { reportType: 'tradingAccount', fileType: 'csv', businessId: 'B1', merchantId: 'M1a', accountNumber: m1aGbp, ...monthly } as const;

describe('schedule timing', () => {
  const timing = (extra: Partial<ScheduleTiming>): ScheduleTiming => ({
    frequency: 'daily',
    weekday: null,
    dayOfMonth: null,
    hour: 6,
    timeZone: 'Europe/London',
    ...extra,
  });

  it('daily: the next 06:00 of the zone, in summer and winter time, and the day before', () => {
    expect(nextRunAfter(timing({}), new Date('2026-07-10T04:59:00Z')).toISOString()).toBe('2026-07-10T05:00:00.000Z');
    expect(nextRunAfter(timing({}), new Date('2026-07-10T05:00:00Z')).toISOString()).toBe('2026-07-11T05:00:00.000Z');
    expect(nextRunAfter(timing({}), new Date('2026-12-10T07:00:00Z')).toISOString()).toBe('2026-12-11T06:00:00.000Z');
    const period = runPeriod(timing({}), new Date('2026-07-11T05:00:00Z'));
    expect([period.firstDay, period.lastDay, period.start.toISOString(), period.end.toISOString()]).toEqual([
      '2026-07-10',
      '2026-07-10',
      '2026-07-09T23:00:00.000Z',
      '2026-07-10T22:59:59.999Z',
    ]);
  });

  it('weekly on a weekday covers the seven days before; other zones have their own midnight', () => {
    const friday = timing({ frequency: 'weekly', weekday: 5, timeZone: 'Asia/Tokyo', hour: 9 });
    const at = nextRunAfter(friday, new Date('2026-11-23T00:00:00Z'));
    expect(at.toISOString()).toBe('2026-11-27T00:00:00.000Z');
    const period = runPeriod(friday, at);
    expect([period.firstDay, period.lastDay, period.start.toISOString()]).toEqual(['2026-11-20', '2026-11-26', '2026-11-19T15:00:00.000Z']);
    expect(describeTiming(friday)).toBe('Weekly on Friday at 09:00 (Asia/Tokyo)');
  });

  it("monthly on day 31 runs on a shorter month's last day, and covers the month before", () => {
    const last = timing({ frequency: 'monthly', dayOfMonth: 31, timeZone: 'UTC', hour: 0 });
    expect(nextRunAfter(last, new Date('2027-02-01T00:00:00Z')).toISOString()).toBe('2027-02-28T00:00:00.000Z');
    const first = runPeriod(timing({ frequency: 'monthly', dayOfMonth: 1, timeZone: 'UTC' }), new Date('2027-03-01T06:00:00Z'));
    expect([first.firstDay, first.lastDay]).toEqual(['2027-02-01', '2027-02-28']);
  });
});

describe.each(databaseKinds)('scheduled statements on %s', (kind) => {
  let database: Database;
  let call: ReturnType<typeof createTestApp>['call'];
  let store: TestFileStore;
  const publicUrl = 'https://portal.example.test';
  beforeAll(async () => {
    database = await createTestDatabase(kind);
    await insertFixtureWorld(database);
    await insertLedgerFixture(database);
    store = await openTestFileStore('folder');
    ({ call } = createTestApp(database, { files: store.files }));
  });
  afterAll(async () => {
    await database?.close();
    await store?.close();
  });
  const create = async (userId: string, body: Record<string, unknown>) => call(userId, 'POST', '/report-schedules', body);

  it('creates, lists, pauses with the version (409 when stale), resumes and deletes a schedule; audited', async () => {
    const created = await create(users.partner, trading);
    expect(created.status, await created.clone().text()).toBe(201);
    const schedule = reportSchedule.assert(await created.json());
    expect(schedule).toMatchObject({
      reportType: 'tradingAccount',
      accountNumber: m1aGbp,
      description: 'Monthly on day 1 at 06:00 (Europe/London)',
      paused: false,
      version: 1,
      lastOutcome: null,
    });
    expect(Date.parse(schedule.nextRunAt ?? '')).toBeGreaterThan(Date.now());
    const list = reportScheduleList.assert(await (await call(users.partner, 'GET', '/report-schedules')).json());
    expect(list.results.map((row) => row.id)).toContain(schedule.id);
    expect(reportScheduleList.assert(await (await call(users.finance, 'GET', '/report-schedules')).json()).results.map((row) => row.id)).not.toContain(
      schedule.id,
    );

    const paused = await call(users.partner, 'PATCH', `/report-schedules/${schedule.id}`, { paused: true, version: 1 });
    expect(paused.status).toBe(200);
    expect(reportSchedule.assert(await paused.json())).toMatchObject({ paused: true, nextRunAt: null, version: 2 });
    expect((await call(users.partner, 'PATCH', `/report-schedules/${schedule.id}`, { paused: false, version: 1 })).status).toBe(409);
    const resumed = reportSchedule.assert(await (await call(users.partner, 'PATCH', `/report-schedules/${schedule.id}`, { paused: false, version: 2 })).json());
    expect(resumed).toMatchObject({ paused: false, version: 3 });
    // Another user's schedule is not there for them.
    expect((await call(users.finance, 'PATCH', `/report-schedules/${schedule.id}`, { paused: true, version: 3 })).status).toBe(404);
    expect((await call(users.finance, 'DELETE', `/report-schedules/${schedule.id}`)).status).toBe(404);
    expect((await call(users.partner, 'DELETE', `/report-schedules/${schedule.id}`)).status).toBe(204);
    expect((await call(users.partner, 'DELETE', `/report-schedules/${schedule.id}`)).status).toBe(404);
    const events = await database.query<{ event: string }>("SELECT event FROM audit_events WHERE meta_data->>'scheduleId' = $1 ORDER BY id", [schedule.id]);
    expect(events.map((row) => row.event)).toEqual(['ReportScheduleCreated', 'ReportSchedulePaused', 'ReportScheduleResumed', 'ReportScheduleDeleted']);
  });

  it('refuses what queueing the statement would refuse: other tenants 404, missing permissions 403, malformed 400', async () => {
    expect((await create(users.finance, trading)).status).toBe(404);
    expect((await create(users.partner, { ...trading, accountNumber: b2Eur })).status).toBe(404);
    expect((await create(users.merchantOnly, { ...trading, merchantId: 'M1b', accountNumber: m1bGbp, reportType: 'costs' })).status).toBe(403);
    // An invoice account only with gross settlement (M1a settles net).
    expect((await create(users.partner, { ...trading, reportType: 'invoice' })).status).toBe(404);
    const noMerchant = await create(users.partner, { ...trading, merchantId: undefined });
    expect(noMerchant.status).toBe(400);
    expect(await messages(noMerchant)).toEqual(['Invalid parameters: businessId and merchantId are required.']);
    expect(await messages(await create(users.partner, { ...trading, reportType: 'transfers', fileType: 'xml' }))).toEqual([
      'camt.053 XML is offered for account statements only.',
    ]);
    expect((await create(users.partner, { ...trading, frequency: 'weekly', dayOfMonth: undefined })).status).toBe(400);
    expect((await create(users.partner, { ...trading, timeZone: 'Mars/Olympus' })).status).toBe(400);
    expect((await create(users.partner, { ...trading, hour: 24 })).status).toBe(400);
    expect((await create(users.partner, { ...trading, extra: true })).status).toBe(400);
    expect((await call(users.partner, 'PATCH', '/report-schedules/SCH0000000000000000', { paused: true, version: 1 })).status).toBe(404);
    // The business account: only for a business with automatic remittance off (B2).
    const business = await create(users.finance, { reportType: 'businessAccount', fileType: 'xml', businessId: 'B2', accountNumber: b2Eur, ...monthly });
    expect(business.status, await business.clone().text()).toBe(201);
  });

  it("a due run queues the month that ended into the owner's queue; when generated, an email links to it (never the file)", async () => {
    const schedule = reportSchedule.assert(await (await create(users.partner, trading)).json());
    const due = new Date('2026-11-01T06:00:00Z');
    await database.query('UPDATE report_schedules SET next_run_at = $1 WHERE id = $2', [due, schedule.id]);
    const round = await runSchedules(database, { publicUrl, now: new Date('2026-11-01T06:00:30Z') });
    expect(round.queued).toBe(1);
    const [run] = await database.query<{ report_id: string; attempt: number }>('SELECT report_id, attempt FROM report_schedule_runs WHERE schedule_id = $1', [
      schedule.id,
    ]);
    const report = await reportRow(database, run?.report_id ?? '');
    expect(report).toMatchObject({ userId: users.partner, reportType: 'tradingAccount', fileType: 'csv', status: 'queued' });
    expect([report.startDate?.toISOString(), report.endDate?.toISOString()]).toEqual(['2026-09-30T23:00:00.000Z', '2026-10-31T23:59:59.999Z']); // London: summer time until 25 October
    // Run again at once: nothing more is due, and the next run is December's.
    expect((await runSchedules(database, { publicUrl, now: new Date('2026-11-01T06:01:00Z') })).queued).toBe(0);
    const [next] = await database.query<{ next_run_at: Date }>('SELECT next_run_at FROM report_schedules WHERE id = $1', [schedule.id]);
    expect(new Date(next?.next_run_at as Date).toISOString()).toBe('2026-12-01T06:00:00.000Z');

    expect(await runNextReport({ database, files: store.files, nodeId: 'node-s', log: () => undefined })).toBe('generated');
    // Followed up later that morning: December's run is not due yet, whatever day the suite runs on.
    const later = new Date('2026-11-01T09:00:00Z');
    expect((await runSchedules(database, { publicUrl, now: later })).notified).toBe(1);
    const mails = await database.query<{ recipient: string; subject: string; text: string; html: string }>(
      "SELECT recipient, subject, text, html FROM outbound_emails WHERE template = 'scheduledReportReady'",
    );
    expect(mails).toHaveLength(1);
    expect(mails[0]?.subject).toBe(`Your scheduled report is ready: Trading account ${m1aGbp}`);
    expect(mails[0]?.text).toContain(`${publicUrl}/reporting-overview?report=${run?.report_id}`);
    expect(mails[0]?.text).toContain('2026-10-01 to 2026-10-31');
    expect(`${mails[0]?.text}${mails[0]?.html}`).not.toMatch(/\/download|reports\/RPT[0-9A-F]+-/);
    const listed = reportScheduleList
      .assert(await (await call(users.partner, 'GET', '/report-schedules')).json())
      .results.find((row) => row.id === schedule.id);
    expect(listed).toMatchObject({ lastOutcome: 'generated', lastReportId: run?.report_id, lastRunAt: due.toISOString() });
    // Followed once: a second round sends nothing.
    expect((await runSchedules(database, { publicUrl, now: later })).notified).toBe(0);
  });

  it('a run that fails is queued once more, then reported on the schedule and by email', async () => {
    const schedule = reportSchedule.assert(await (await create(users.partner, { ...trading, frequency: 'daily', dayOfMonth: undefined })).json());
    const now = new Date('2026-11-10T06:00:30Z');
    await database.query('UPDATE report_schedules SET next_run_at = $1 WHERE id = $2', [new Date('2026-11-10T06:00:00Z'), schedule.id]);
    expect((await runSchedules(database, { publicUrl, now })).queued).toBe(1);
    const fail = async () => {
      const [open] = await database.query<{ report_id: string }>("SELECT report_id FROM report_schedule_runs WHERE schedule_id = $1 AND status = 'queued'", [
        schedule.id,
      ]);
      // As the worker leaves a report whose three attempts failed.
      await database.query("UPDATE queued_reports SET status = 'failed', attempts = 3, error = 'The store is unreachable.' WHERE id = $1", [open?.report_id]);
      return open?.report_id;
    };
    const first = await fail();
    expect((await runSchedules(database, { publicUrl, now })).retried).toBe(1);
    const second = await fail();
    expect(second).not.toBe(first);
    expect((await runSchedules(database, { publicUrl, now })).failed).toBe(1);
    const runs = await database.query<{ attempt: number; status: string }>(
      'SELECT attempt, status FROM report_schedule_runs WHERE schedule_id = $1 ORDER BY attempt',
      [schedule.id],
    );
    expect(runs.map((row) => [row.attempt, row.status])).toEqual([
      [1, 'retried'],
      [2, 'failed'],
    ]);
    const listed = reportScheduleList
      .assert(await (await call(users.partner, 'GET', '/report-schedules')).json())
      .results.find((row) => row.id === schedule.id);
    expect(listed).toMatchObject({ lastOutcome: 'failed', lastError: 'The store is unreachable.' });
    const mails = await database.query<{ text: string }>("SELECT text FROM outbound_emails WHERE template = 'scheduledReportFailed'");
    expect(mails).toHaveLength(1);
    expect(mails[0]?.text).toContain('could not be generated after 2 tries: The store is unreachable.');
  });
});
