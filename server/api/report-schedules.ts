// Scheduled statements and transactions exports: the caller's own schedules, context-free like My report queue. Another user's
// schedule answers 404. Runs: server/reports/schedules.ts.
//
// | method | path                         | answer                                                                        |
// |--------|------------------------------|-------------------------------------------------------------------------------|
// | GET    | /report-schedules            | { results, numberOfResults }: the caller's schedules, newest first            |
// | POST   | /report-schedules            | 201 the schedule; the report's permissions + Portal.Reports.Create in its      |
// |        |                              | context (403), another tenant's business, merchant or account 404; audited.   |
// |        |                              | reportType 'transactions': the export's filters (no date: each run has its    |
// |        |                              | period) and columns; Mapi.Transactions.Read + Portal.Reports.Create (403)     |
// | PATCH  | /report-schedules/{id}       | { paused, version }: pause or resume (the next run is then the first after    |
// |        |                              | now); 409 on a stale version; audited                                         |
// | DELETE | /report-schedules/{id}       | 204; reports already queued stay in the queue; audited                        |
// | POST   | /report-schedules/{id}/runs  | 202 { scheduleId, reportId, periodFirstDay, periodLastDay, schedule }: 'Run     |
// |        |                              | now', one run queued as a timed run is (the period just ended, delivered and   |
// |        |                              | emailed alike), the next run unchanged; the access making it would need (403,  |
// |        |                              | a context out of reach 404); Idempotency-Key: a retry answers 200 the same run; |
// |        |                              | 429 with a full report queue; audited ReportScheduleRunRequested              |
// Each schedule says whether the caller may run it now (mayRunNow), so 'Run now' is offered only where allowed.
import { randomBytes } from 'node:crypto';
import { and, count, desc, eq, sql } from 'drizzle-orm';
import { Hono } from 'hono';
import { maxSchedulesPerUser, nextRunAfter, scheduleLimitMessage } from '../../src/contract/report-schedules.ts';
import { reportScheduleBody, reportScheduleChange, type ReportScheduleRun } from '../../src/contract/report-schedule-schemas.ts';
import { reportSchedules } from '../db/schema.ts';
import { runPeriod } from '../../src/contract/report-schedules.ts';
import { now } from '../clock.ts';
import type { Principal } from '../policy/principal.ts';
import { lastReportsOf, runScheduleNow, scheduleBodyOf, scheduleTarget, timingOf, toReportSchedule, type ScheduleRow } from '../reports/schedules.ts';
import { recordAudit } from '../audit/record.ts';
import type { AppEnv, Deps } from '../http/env.ts';
import { readBody } from '../http/env.ts';
import { idempotencyKeyOf } from '../http/idempotency-key.ts';
import { ApiError, conflict, notFound } from '../http/errors.ts';

const s = reportSchedules;
const scheduleIdPattern = /^SCH[0-9A-F]{16}$/;

export function reportScheduleRoutes({ database }: Deps) {
  const { db } = database;
  const routes = new Hono<AppEnv>();

  async function ownSchedule(userId: string, id: string): Promise<ScheduleRow> {
    if (!scheduleIdPattern.test(id)) throw notFound();
    const [row] = await db
      .select()
      .from(s)
      .where(and(eq(s.id, id), eq(s.userId, userId)));
    if (!row) throw notFound();
    return row;
  }
  /** Whether the caller may queue this schedule's report now: what making the schedule checks, asked again. */
  const mayRun = async (principal: Principal, row: ScheduleRow): Promise<boolean> => {
    try {
      await scheduleTarget(database, principal, scheduleBodyOf(row));
      return true;
    } catch (error) {
      if (error instanceof ApiError) return false;
      throw error;
    }
  };
  const answer = async (principal: Principal, row: ScheduleRow) =>
    toReportSchedule(row, (await lastReportsOf(db, [row.id])).get(row.id) ?? null, await mayRun(principal, row));
  // A partner's schedule has no business: its audit rows name the partner in their metadata (the context).
  const place = (row: ScheduleRow) => {
    const context = row.context as { businessId?: string; merchantId?: string };
    return { businessId: context.businessId ?? null, merchantId: context.merchantId ?? null };
  };

  routes.get('/report-schedules', async (c) => {
    const principal = c.get('principal');
    const rows = await db.select().from(s).where(eq(s.userId, principal.userId)).orderBy(desc(s.createdAt), desc(s.id));
    const last = await lastReportsOf(
      db,
      rows.map((row) => row.id),
    );
    // One context look-up per schedule (at most maxSchedulesPerUser), one after another: PGlite has one connection.
    const results = [];
    for (const row of rows) results.push(toReportSchedule(row, last.get(row.id) ?? null, await mayRun(principal, row)));
    return c.json({ results, numberOfResults: rows.length });
  });

  routes.post('/report-schedules', async (c) => {
    const principal = c.get('principal');
    const body = await readBody(c, reportScheduleBody);
    const { context, filters, columns, ordering } = await scheduleTarget(database, principal, body);
    const timing = {
      frequency: body.frequency,
      weekday: body.frequency === 'weekly' ? (body.weekday ?? null) : null,
      dayOfMonth: body.frequency === 'monthly' ? (body.dayOfMonth ?? null) : null,
      hour: body.hour,
      timeZone: body.timeZone,
    };
    const id = `SCH${randomBytes(8).toString('hex').toUpperCase()}`;
    const created = await db.transaction(async (tx) => {
      const [held] = await tx.select({ value: count() }).from(s).where(eq(s.userId, principal.userId));
      if (Number(held?.value ?? 0) >= maxSchedulesPerUser) throw new ApiError(422, scheduleLimitMessage);
      const [row] = await tx
        .insert(s)
        .values({
          id,
          userId: principal.userId,
          reportType: body.reportType,
          fileType: body.fileType,
          context,
          filters,
          columns,
          ordering,
          ...timing,
          emailWhenReady: body.emailWhenReady,
          nextRunAt: nextRunAfter(timing, new Date()),
        })
        .returning();
      const inserted = row as ScheduleRow;
      await recordAudit(tx, principal, 'ReportScheduleCreated', place(inserted), {
        scheduleId: id,
        reportType: body.reportType,
        fileType: body.fileType,
        context,
        ...(body.reportType === 'transactions' ? { filters, columns, ordering } : { accountNumber: filters.accountNumber }),
        ...timing,
        emailWhenReady: body.emailWhenReady,
      });
      return inserted;
    });
    // Made just now with the same checks a run needs.
    return c.json(toReportSchedule(created, null, true), 201);
  });

  routes.patch('/report-schedules/:id', async (c) => {
    const principal = c.get('principal');
    const row = await ownSchedule(principal.userId, c.req.param('id'));
    const body = await readBody(c, reportScheduleChange);
    const updated = await db.transaction(async (tx) => {
      const [changed] = await tx
        .update(s)
        .set({
          paused: body.paused,
          version: sql`${s.version} + 1`,
          // Resumed: the next run is the first after now (runs missed while paused are not made up).
          ...(body.paused ? {} : { nextRunAt: nextRunAfter(timingOf(row), new Date()) }),
        })
        .where(and(eq(s.id, row.id), eq(s.userId, principal.userId), eq(s.version, body.version)))
        .returning();
      if (!changed) throw conflict();
      await recordAudit(tx, principal, body.paused ? 'ReportSchedulePaused' : 'ReportScheduleResumed', place(row), {
        scheduleId: row.id,
        version: changed.version,
      });
      return changed;
    });
    return c.json(await answer(principal, updated));
  });

  routes.post('/report-schedules/:id/runs', async (c) => {
    const principal = c.get('principal');
    const requestKey = idempotencyKeyOf(c);
    const row = await ownSchedule(principal.userId, c.req.param('id'));
    // As making the schedule now would be checked: a context out of reach 404, without the report's permissions 403.
    await scheduleTarget(database, principal, scheduleBodyOf(row));
    const run = await runScheduleNow(database, row.id, principal.userId, {
      at: now(),
      requestKey,
      audit: async (tx, schedule, reportId) => {
        await recordAudit(tx, principal, 'ReportScheduleRunRequested', place(schedule), { scheduleId: schedule.id, reportId, reportType: schedule.reportType });
      },
    });
    if (!run) throw notFound();
    const [current] = await db.select().from(s).where(eq(s.id, row.id));
    const schedule = current ?? row;
    const period = runPeriod(timingOf(schedule), run.dueAt);
    const body: ReportScheduleRun = {
      scheduleId: schedule.id,
      reportId: run.reportId,
      periodFirstDay: period.firstDay,
      periodLastDay: period.lastDay,
      schedule: toReportSchedule(schedule, (await lastReportsOf(db, [schedule.id])).get(schedule.id) ?? null, true),
    };
    return c.json(body, run.repeated ? 200 : 202);
  });

  routes.delete('/report-schedules/:id', async (c) => {
    const principal = c.get('principal');
    const row = await ownSchedule(principal.userId, c.req.param('id'));
    await db.transaction(async (tx) => {
      const deleted = await tx
        .delete(s)
        .where(and(eq(s.id, row.id), eq(s.userId, principal.userId)))
        .returning({ id: s.id });
      if (deleted.length > 0) await recordAudit(tx, principal, 'ReportScheduleDeleted', place(row), { scheduleId: row.id, reportType: row.reportType });
    });
    return c.body(null, 204);
  });

  return routes;
}
