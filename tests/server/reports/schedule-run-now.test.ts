// 'Run now' on a scheduled report (POST /report-schedules/{id}/runs): one run of the period that just ended, queued by
// the runner's own code (same filters, context, columns and file type; followed up and emailed as a timed run), the
// next run untouched; an Idempotency-Key retry answers the same run; the owner only (404 for anyone else), with the
// access making the schedule needs now (403), never past a full report queue (429); audited.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../../server/db/client.ts';
import * as schema from '../../../server/db/schema.ts';
import { maxWaitingReportsPerUser } from '../../../server/reports/queue.ts';
import { runSchedules } from '../../../server/reports/schedules.ts';
import { runNextReport } from '../../../server/reports/worker.ts';
import { reportSchedule, reportScheduleList, reportScheduleRun } from '../../../src/contract/report-schedule-schemas.ts';
import { runDateFilter, runPeriod } from '../../../src/contract/report-schedules.ts';
import { createTestApp, createTestDatabase, databaseKinds, fixture, insertFixtureWorld } from '../support.ts';
import { insertLedgerFixture, m1aGbp } from '../ledger/ledger-fixtures.ts';
import { openTestFileStore, reportRow, type TestFileStore } from './report-support.ts';

const { users } = fixture;
const daily = { frequency: 'daily', hour: 6, timeZone: 'Europe/London', emailWhenReady: true } as const;
const paidOfB1 = {
  reportType: 'transactions',
  fileType: 'xlsx',
  businessId: 'B1',
  columns: ['reference', 'amount'],
  filters: { status: '[eq]paid' },
  ...daily,
} as const;
const tradingOfM1a = {
  reportType: 'tradingAccount',
  fileType: 'csv',
  businessId: 'B1',
  merchantId: 'M1a',
  accountNumber: m1aGbp,
  frequency: 'monthly',
  dayOfMonth: 1,
  hour: 6,
  timeZone: 'Europe/London',
  emailWhenReady: false,
} as const;
const timingOf = (schedule: {
  frequency: 'daily' | 'weekly' | 'monthly';
  weekday: number | null;
  dayOfMonth: number | null;
  hour: number;
  timeZone: string;
}) => ({
  frequency: schedule.frequency,
  weekday: schedule.weekday,
  dayOfMonth: schedule.dayOfMonth,
  hour: schedule.hour,
  timeZone: schedule.timeZone,
});

describe.each(databaseKinds)('running a schedule now on %s', (kind) => {
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
  const create = async (userId: string, body: Record<string, unknown>) => {
    const response = await call(userId, 'POST', '/report-schedules', body);
    expect(response.status, await response.clone().text()).toBe(201);
    return reportSchedule.assert(await response.json());
  };
  const runNow = (userId: string, id: string, key?: string) =>
    call(userId, 'POST', `/report-schedules/${id}/runs`, undefined, key === undefined ? {} : { 'Idempotency-Key': key });
  const runsOf = (id: string) =>
    database.query<{ report_id: string; due_at: Date; attempt: number; request_key: string | null; status: string }>(
      'SELECT report_id, due_at, attempt, request_key, status FROM report_schedule_runs WHERE schedule_id = $1 ORDER BY created_at, report_id',
      [id],
    );
  const clearQueue = () => database.query("UPDATE queued_reports SET status = 'cancelled' WHERE status IN ('queued', 'generating')");

  it("queues one run of the period just ended with the schedule's filters, columns and file type; the next run stays; audited", async () => {
    const schedule = await create(users.partner, paidOfB1);
    const response = await runNow(users.partner, schedule.id, 'run-now-1');
    expect(response.status, await response.clone().text()).toBe(202);
    const run = reportScheduleRun.assert(await response.json());
    const [row] = await runsOf(schedule.id);
    expect(row).toMatchObject({ report_id: run.reportId, attempt: 1, request_key: 'run-now-1', status: 'queued' });
    // The period is the one a timed run due at that instant covers (the day before, in the schedule's zone).
    const period = runPeriod(timingOf(schedule), new Date(row?.due_at ?? 0));
    expect([run.periodFirstDay, run.periodLastDay]).toEqual([period.firstDay, period.lastDay]);
    const report = await reportRow(database, run.reportId);
    expect(report).toMatchObject({
      userId: users.partner,
      reportType: 'transactions',
      fileType: 'xlsx',
      status: 'queued',
      columns: ['reference', 'amount'],
      filters: { status: '[eq]paid', date: runDateFilter(period) },
      context: { level: 'business', businessId: 'B1', timeZone: 'Europe/London' },
    });
    expect([report.startDate?.toISOString(), report.endDate?.toISOString()]).toEqual([period.start.toISOString(), period.end.toISOString()]);
    // The schedule's own timing is untouched; its last run is this one.
    expect(run.schedule).toMatchObject({
      id: schedule.id,
      nextRunAt: schedule.nextRunAt,
      lastOutcome: 'queued',
      lastReportId: run.reportId,
      mayRunNow: true,
      version: schedule.version,
    });
    expect(run.schedule.lastRunAt).toBe(new Date(row?.due_at ?? 0).toISOString());
    const [event] = await database.query<{ business_id: string | null; meta_data: Record<string, unknown> }>(
      "SELECT business_id, meta_data FROM audit_events WHERE event = 'ReportScheduleRunRequested' AND meta_data->>'scheduleId' = $1",
      [schedule.id],
    );
    expect(event).toEqual({ business_id: 'B1', meta_data: { scheduleId: schedule.id, reportId: run.reportId, reportType: 'transactions' } });
    // Delivered as a timed run: generated by the worker, then the follow-up emails the link into the report queue.
    expect(await runNextReport({ database, files: store.files, nodeId: 'node-r', log: () => undefined })).toBe('generated');
    expect((await runSchedules(database, { publicUrl, now: new Date(new Date(row?.due_at ?? 0).getTime() + 60_000) })).notified).toBe(1);
    const [mail] = await database.query<{ text: string }>("SELECT text FROM outbound_emails WHERE template = 'scheduledReportReady' ORDER BY id DESC LIMIT 1");
    expect(mail?.text).toContain(`${publicUrl}/reporting-overview?report=${run.reportId}`);
    expect(mail?.text).toContain(period.firstDay);
    expect((await runsOf(schedule.id)).map((one) => one.status)).toEqual(['generated']);
    expect(
      reportScheduleList.assert(await (await call(users.partner, 'GET', '/report-schedules')).json()).results.find((one) => one.id === schedule.id),
    ).toMatchObject({ lastOutcome: 'generated', mayRunNow: true });
    expect((await call(users.partner, 'DELETE', `/report-schedules/${schedule.id}`)).status).toBe(204);
  });

  it('a retry with the same Idempotency-Key answers the same run; another key or none queues another', async () => {
    const schedule = await create(users.partner, paidOfB1);
    const first = reportScheduleRun.assert(await (await runNow(users.partner, schedule.id, 'double-click')).json());
    const [again, atOnce] = await Promise.all([runNow(users.partner, schedule.id, 'double-click'), runNow(users.partner, schedule.id, 'double-click')]);
    expect([again.status, atOnce.status]).toEqual([200, 200]);
    expect(reportScheduleRun.assert(await again.json()).reportId).toBe(first.reportId);
    expect(reportScheduleRun.assert(await atOnce.json()).reportId).toBe(first.reportId);
    expect(await runsOf(schedule.id)).toHaveLength(1);
    const other = await runNow(users.partner, schedule.id, 'another-click');
    expect(other.status).toBe(202);
    const none = await runNow(users.partner, schedule.id);
    expect(none.status).toBe(202);
    const ids = [first.reportId, reportScheduleRun.assert(await other.json()).reportId, reportScheduleRun.assert(await none.json()).reportId];
    expect(new Set(ids).size).toBe(3);
    expect((await runsOf(schedule.id)).map((row) => row.request_key)).toEqual(expect.arrayContaining(['double-click', 'another-click', null]));
    // A key of another schedule is that schedule's own: it does not answer this one's run.
    const second = await create(users.partner, { ...paidOfB1, fileType: 'csv' });
    const elsewhere = await runNow(users.partner, second.id, 'double-click');
    expect(elsewhere.status).toBe(202);
    expect(reportScheduleRun.assert(await elsewhere.json()).reportId).not.toBe(first.reportId);
    for (const bad of [' ', 'x'.repeat(256), 'with space', 'é']) {
      const response = await runNow(users.partner, schedule.id, bad);
      expect(response.status, bad).toBe(400);
    }
    expect(await runsOf(schedule.id)).toHaveLength(3);
    for (const id of [schedule.id, second.id]) expect((await call(users.partner, 'DELETE', `/report-schedules/${id}`)).status).toBe(204);
    await clearQueue();
  });

  it('runs a statement schedule too: its account group, file type and the month before', async () => {
    const owner = users.partner;
    const schedule = await create(owner, tradingOfM1a);
    const response = await runNow(owner, schedule.id, 'statement-now');
    expect(response.status, await response.clone().text()).toBe(202);
    const run = reportScheduleRun.assert(await response.json());
    const [row] = await runsOf(schedule.id);
    const period = runPeriod(timingOf(schedule), new Date(row?.due_at ?? 0));
    expect(run.periodFirstDay.slice(8)).toBe('01');
    expect(await reportRow(database, run.reportId)).toMatchObject({
      reportType: 'tradingAccount',
      fileType: 'csv',
      status: 'queued',
      filters: { accountNumber: m1aGbp, kind: 'trading', scheduleId: schedule.id },
      context: { level: 'merchant', businessId: 'B1', merchantId: 'M1a' },
    });
    expect(run.periodLastDay).toBe(period.lastDay);
    expect((await call(owner, 'DELETE', `/report-schedules/${schedule.id}`)).status).toBe(204);
    await clearQueue();
  });

  it("answers 404 to anyone but the owner and for unknown ids; 403 once the owner lost the report's permissions, then not offered", async () => {
    const schedule = await create(users.partner, paidOfB1);
    for (const other of [users.owner, users.finance, users.merchantOnly, users.nobody]) {
      const response = await runNow(other, schedule.id, `intruder-${other}`);
      expect(response.status, other).toBe(404);
    }
    for (const id of ['SCH0000000000000000', 'nope', schedule.id.toLowerCase(), `${schedule.id}0`])
      expect((await runNow(users.partner, id)).status, id).toBe(404);
    expect(await runsOf(schedule.id)).toHaveLength(0);

    const roles = await database.db.select().from(schema.userRoles);
    await database.query('DELETE FROM user_roles WHERE user_id = $1', [users.partner]);
    try {
      const refused = await runNow(users.partner, schedule.id, 'after-loss');
      expect([403, 404]).toContain(refused.status);
      expect(await runsOf(schedule.id)).toHaveLength(0);
      const listed = reportScheduleList
        .assert(await (await call(users.partner, 'GET', '/report-schedules')).json())
        .results.find((one) => one.id === schedule.id);
      expect(listed?.mayRunNow).toBe(false);
    } finally {
      await database.db
        .insert(schema.userRoles)
        .values(roles.filter((role) => role.userId === users.partner))
        .onConflictDoNothing();
    }
    const listed = reportScheduleList
      .assert(await (await call(users.partner, 'GET', '/report-schedules')).json())
      .results.find((one) => one.id === schedule.id);
    expect(listed?.mayRunNow).toBe(true);
    const [count] = await database.query<{ n: string }>(
      "SELECT count(*) AS n FROM audit_events WHERE event = 'ReportScheduleRunRequested' AND meta_data->>'scheduleId' = $1",
      [schedule.id],
    );
    expect(Number(count?.n)).toBe(0);
    expect((await call(users.partner, 'DELETE', `/report-schedules/${schedule.id}`)).status).toBe(204);
  });

  it("refuses with 429 while the owner's report queue is full, queueing nothing", async () => {
    const schedule = await create(users.partner, paidOfB1);
    await clearQueue();
    for (let index = 0; index < maxWaitingReportsPerUser; index += 1) expect((await runNow(users.partner, schedule.id)).status).toBe(202);
    const full = await runNow(users.partner, schedule.id, 'one-too-many');
    expect(full.status).toBe(429);
    expect(await runsOf(schedule.id)).toHaveLength(maxWaitingReportsPerUser);
    expect((await call(users.partner, 'DELETE', `/report-schedules/${schedule.id}`)).status).toBe(204);
    await clearQueue();
  });
});
