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
import { randomBytes } from 'node:crypto';
import { and, count, desc, eq, sql } from 'drizzle-orm';
import { Hono } from 'hono';
import { maxSchedulesPerUser, nextRunAfter, scheduleLimitMessage } from '../../src/contract/report-schedules.ts';
import { reportScheduleBody, reportScheduleChange } from '../../src/contract/report-schedule-schemas.ts';
import { reportSchedules } from '../db/schema.ts';
import { lastReportsOf, scheduleTarget, timingOf, toReportSchedule, type ScheduleRow } from '../reports/schedules.ts';
import { recordAudit } from './audit-trail.ts';
import type { AppEnv, Deps } from './env.ts';
import { readBody } from './env.ts';
import { ApiError, conflict, notFound } from './errors.ts';

const s = reportSchedules;
const scheduleIdPattern = /^SCH[0-9A-F]{16}$/;

export function reportScheduleRoutes({ database }: Deps) {
  const { db } = database;
  const routes = new Hono<AppEnv>();

  async function ownSchedule(userId: string, id: string): Promise<ScheduleRow> {
    if (!scheduleIdPattern.test(id)) throw notFound();
    const [row] = await db.select().from(s).where(and(eq(s.id, id), eq(s.userId, userId)));
    if (!row) throw notFound();
    return row;
  }
  const answer = async (row: ScheduleRow) => toReportSchedule(row, (await lastReportsOf(db, [row.id])).get(row.id) ?? null);
  // A partner's schedule has no business: its audit rows name the partner in their metadata (the context).
  const place = (row: ScheduleRow) => {
    const context = row.context as { businessId?: string; merchantId?: string };
    return { businessId: context.businessId ?? null, merchantId: context.merchantId ?? null };
  };

  routes.get('/report-schedules', async (c) => {
    const rows = await db.select().from(s).where(eq(s.userId, c.get('principal').userId)).orderBy(desc(s.createdAt), desc(s.id));
    const last = await lastReportsOf(db, rows.map((row) => row.id));
    return c.json({ results: rows.map((row) => toReportSchedule(row, last.get(row.id) ?? null)), numberOfResults: rows.length });
  });

  routes.post('/report-schedules', async (c) => {
    const principal = c.get('principal');
    const body = await readBody(c, reportScheduleBody);
    const { context, filters, columns, ordering } = await scheduleTarget(database, principal, body);
    const timing = {
      frequency: body.frequency, weekday: body.frequency === 'weekly' ? body.weekday ?? null : null,
      dayOfMonth: body.frequency === 'monthly' ? body.dayOfMonth ?? null : null, hour: body.hour, timeZone: body.timeZone,
    };
    const id = `SCH${randomBytes(8).toString('hex').toUpperCase()}`;
    const created = await db.transaction(async (tx) => {
      const [held] = await tx.select({ value: count() }).from(s).where(eq(s.userId, principal.userId));
      if (Number(held?.value ?? 0) >= maxSchedulesPerUser) throw new ApiError(422, scheduleLimitMessage);
      const [row] = await tx.insert(s).values({
        id, userId: principal.userId, reportType: body.reportType, fileType: body.fileType, context, filters, columns, ordering, ...timing,
        emailWhenReady: body.emailWhenReady, nextRunAt: nextRunAfter(timing, new Date()),
      }).returning();
      const inserted = row as ScheduleRow;
      await recordAudit(tx, principal, 'ReportScheduleCreated', place(inserted), { scheduleId: id, reportType: body.reportType, fileType: body.fileType, context, ...(body.reportType === 'transactions' ? { filters, columns, ordering } : { accountNumber: filters.accountNumber }), ...timing, emailWhenReady: body.emailWhenReady });
      return inserted;
    });
    return c.json(toReportSchedule(created, null), 201);
  });

  routes.patch('/report-schedules/:id', async (c) => {
    const principal = c.get('principal');
    const row = await ownSchedule(principal.userId, c.req.param('id'));
    const body = await readBody(c, reportScheduleChange);
    const updated = await db.transaction(async (tx) => {
      const [changed] = await tx.update(s).set({
        paused: body.paused, version: sql`${s.version} + 1`,
        // Resumed: the next run is the first after now (runs missed while paused are not made up).
        ...(body.paused ? {} : { nextRunAt: nextRunAfter(timingOf(row), new Date()) }),
      }).where(and(eq(s.id, row.id), eq(s.userId, principal.userId), eq(s.version, body.version))).returning();
      if (!changed) throw conflict();
      await recordAudit(tx, principal, body.paused ? 'ReportSchedulePaused' : 'ReportScheduleResumed', place(row), { scheduleId: row.id, version: changed.version });
      return changed;
    });
    return c.json(await answer(updated));
  });

  routes.delete('/report-schedules/:id', async (c) => {
    const principal = c.get('principal');
    const row = await ownSchedule(principal.userId, c.req.param('id'));
    await db.transaction(async (tx) => {
      const deleted = await tx.delete(s).where(and(eq(s.id, row.id), eq(s.userId, principal.userId))).returning({ id: s.id });
      if (deleted.length > 0) await recordAudit(tx, principal, 'ReportScheduleDeleted', place(row), { scheduleId: row.id, reportType: row.reportType });
    });
    return c.body(null, 204);
  });

  return routes;
}
