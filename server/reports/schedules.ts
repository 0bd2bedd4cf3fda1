// Scheduled statements (issue 18): report_schedules hold what a user receives and when; the runner, on any node,
// every minute:
//
// due      each schedule whose next run has come (not paused) is locked FOR UPDATE SKIP LOCKED (nodes never queue a
//          run twice); in one transaction a report for the period that just ended is queued in the owner's report
//          queue (as the statement's own POST …/reports would: same report type, context, filters and file type),
//          a run row records it, and the next run is set (runs missed while no node ran are not made up: one run,
//          then the next after now).
// follow   runs whose report has finished: generated → the run is done and, if the owner opted in, an email says it
//          is ready with a link into the portal's report queue (never the file, never a public URL); failed (the
//          queue's own three attempts spent) → the run is queued once more, and when that fails too the schedule
//          shows the failure and the owner is emailed (if opted in). A report the owner cancelled or deleted ends the
//          run without a retry.
//
// Access is checked when the schedule is made (as queueing the statement would) and again by the report worker at
// every run (ledger-export.ts): a user who lost access gets failed runs, never rows.
import { randomBytes } from 'node:crypto';
import { and, asc, eq, inArray, lte, sql } from 'drizzle-orm';
import {
  accountNumberPattern, camtOnlyForStatementsMessage, statementReportTypes, type LedgerReportType, type StatementAccountKind,
} from '../../src/contract/ledger.ts';
import type { PermissionName } from '../../src/contract/permissions.ts';
import {
  describeTiming, isKnownTimeZone, maxRunAttempts, nextRunAfter, runPeriod, scheduleReportLabel, type ScheduleTiming,
} from '../../src/contract/report-schedules.ts';
import type { ReportSchedule, ReportScheduleBody } from '../../src/contract/report-schedule-schemas.ts';
import type { Database, Db } from '../db/client.ts';
import { businessAccountGroups, merchantAccountGroups, queuedReports, reportScheduleRuns, reportSchedules, users } from '../db/schema.ts';
import { recordEvent } from '../events/event-bus.ts';
import { portalLink } from '../mail/compose.ts';
import { isPlausibleEmailAddress, queueEmail } from '../mail/outbox.ts';
import { resolveContext, type Principal } from '../policy/principal.ts';
import { ApiError, badRequest, forbidden, notFound } from '../api/errors.ts';

export type ScheduleRow = typeof reportSchedules.$inferSelect;
type ScheduleContext = { level: 'business' | 'merchant'; businessId: string; merchantId?: string; title: string };

const kindOfReport: Partial<Record<LedgerReportType, StatementAccountKind>> = {
  tradingAccount: 'trading', reserve: 'reserve', security: 'security', remittance: 'remittance', invoice: 'invoice', costs: 'costs', businessAccount: 'business',
};

export const timingOf = (row: Pick<ScheduleRow, 'frequency' | 'weekday' | 'dayOfMonth' | 'hour' | 'timeZone'>): ScheduleTiming => ({
  frequency: row.frequency, weekday: row.weekday, dayOfMonth: row.dayOfMonth, hour: row.hour, timeZone: row.timeZone,
});

/**
 * What a new schedule reports on, checked as queueing that report now would be: the context is the caller's (else
 * 404), they hold the report's permissions and Portal.Reports.Create (else 403), the account group is the context's
 * (else 404), an invoice account needs gross settlement and a business account automatic remittance off.
 */
export async function scheduleTarget(database: Database, principal: Principal, body: ReportScheduleBody): Promise<{ context: ScheduleContext; filters: Record<string, string> }> {
  const { db } = database;
  const kind = kindOfReport[body.reportType];
  if (body.fileType === 'xml' && !(statementReportTypes as readonly string[]).includes(body.reportType)) throw badRequest(camtOnlyForStatementsMessage);
  if (!isKnownTimeZone(body.timeZone)) throw badRequest(`'${body.timeZone}' is not a time zone this portal knows; choose one such as Europe/London.`);
  if (body.frequency === 'weekly' && body.weekday === undefined) throw badRequest('A weekly schedule needs the weekday it runs on.');
  if (body.frequency === 'monthly' && body.dayOfMonth === undefined) throw badRequest('A monthly schedule needs the day of the month it runs on.');
  if (!accountNumberPattern.test(body.accountNumber)) throw notFound();
  const business = kind === 'business';
  if (!business && !body.merchantId) throw badRequest('Invalid parameters: businessId and merchantId are required.');
  const resolved = await resolveContext(database, principal, body.businessId, business ? undefined : body.merchantId);
  if (!resolved || (!business && !resolved.merchant)) throw notFound();
  const needed: PermissionName[] = [business ? 'Mapi.BagsExternal.Read' : 'Mapi.MerchantAccountGroups.Read', 'Portal.Reports.Create'];
  if (kind === 'costs') needed.push('Mapi.GatewayFees.Read');
  if (needed.some((permission) => !resolved.permissions.has(permission))) throw forbidden();
  if (business) {
    if (resolved.business.camAutoRemittance) throw notFound();
    const [group] = await db.select({ accountNumber: businessAccountGroups.accountNumber }).from(businessAccountGroups)
      .where(and(eq(businessAccountGroups.accountNumber, body.accountNumber), eq(businessAccountGroups.businessId, resolved.business.id)));
    if (!group) throw notFound();
    return { context: { level: 'business', businessId: resolved.business.id, title: resolved.business.name }, filters: { accountNumber: group.accountNumber } };
  }
  const merchant = resolved.merchant as NonNullable<typeof resolved.merchant>;
  if (kind === 'invoice' && !merchant.grossSettlement) throw notFound();
  const [group] = await db.select({ accountNumber: merchantAccountGroups.accountNumber }).from(merchantAccountGroups)
    .where(and(eq(merchantAccountGroups.accountNumber, body.accountNumber), eq(merchantAccountGroups.merchantId, merchant.id)));
  if (!group) throw notFound();
  return {
    context: { level: 'merchant', businessId: resolved.business.id, merchantId: merchant.id, title: `${merchant.name} (${resolved.business.name})` },
    filters: { accountNumber: group.accountNumber, ...(kind ? { kind } : {}) },
  };
}

export function toReportSchedule(row: ScheduleRow, lastReportId: string | null): ReportSchedule {
  const context = row.context as ScheduleContext;
  return {
    id: row.id, reportType: row.reportType, fileType: row.fileType, context, accountNumber: row.filters.accountNumber ?? '',
    frequency: row.frequency, weekday: row.weekday, dayOfMonth: row.dayOfMonth, hour: row.hour, timeZone: row.timeZone,
    description: describeTiming(timingOf(row)), emailWhenReady: row.emailWhenReady, paused: row.paused,
    nextRunAt: row.paused ? null : row.nextRunAt.toISOString(), lastRunAt: row.lastRunAt?.toISOString() ?? null,
    lastOutcome: row.lastOutcome, lastError: row.lastError, lastReportId, version: row.version, createdAt: row.createdAt.toISOString(),
  };
}

const newReportId = () => `RPT${randomBytes(8).toString('hex').toUpperCase()}`;

/** Queues the report of one run (attempt n) of a schedule, and its run row. Inside the caller's transaction. */
async function queueRun(tx: Db, schedule: ScheduleRow, dueAt: Date, attempt: number): Promise<string> {
  const period = runPeriod(timingOf(schedule), dueAt);
  const reportId = newReportId();
  await tx.insert(queuedReports).values({
    id: reportId, userId: schedule.userId, reportType: schedule.reportType, fileType: schedule.fileType, status: 'queued',
    context: { ...(schedule.context as ScheduleContext), timeZone: schedule.timeZone }, filters: { ...schedule.filters, scheduleId: schedule.id },
    ordering: null, columns: [], startDate: period.start, endDate: period.end, totalRows: null, queuedAt: new Date(),
  });
  await tx.insert(reportScheduleRuns).values({ reportId, scheduleId: schedule.id, dueAt, attempt });
  await recordEvent(tx, 'record', { resource: 'report', resourceId: reportId, userId: schedule.userId });
  return reportId;
}

export type ScheduleRound = { queued: number; notified: number; retried: number; failed: number };

/** One round: due schedules queue their runs, finished runs are followed up. Safe on several nodes at once. */
export async function runSchedules(database: Database, options: { publicUrl: string; now?: Date; batch?: number }): Promise<ScheduleRound> {
  const { db } = database;
  const now = options.now ?? new Date();
  const batch = options.batch ?? 50;
  const round: ScheduleRound = { queued: 0, notified: 0, retried: 0, failed: 0 };
  for (;;) {
    const queued = await db.transaction(async (tx) => {
      const due = await tx.select().from(reportSchedules)
        .where(and(eq(reportSchedules.paused, false), lte(reportSchedules.nextRunAt, now)))
        .orderBy(asc(reportSchedules.nextRunAt)).limit(batch).for('update', { skipLocked: true });
      for (const schedule of due) {
        // The latest run that has come (runs missed while nothing ran are not made up), then the next after now.
        let dueAt = schedule.nextRunAt;
        for (let next = nextRunAfter(timingOf(schedule), dueAt); next.getTime() <= now.getTime(); next = nextRunAfter(timingOf(schedule), next)) dueAt = next;
        await queueRun(tx, schedule, dueAt, 1);
        await tx.update(reportSchedules).set({ nextRunAt: nextRunAfter(timingOf(schedule), now), lastRunAt: dueAt, lastOutcome: 'queued', lastError: null })
          .where(eq(reportSchedules.id, schedule.id));
      }
      return due.length;
    });
    round.queued += queued;
    if (queued < batch) break;
  }
  for (;;) {
    const followed = await db.transaction(async (tx) => {
      const finished = await tx.select({ run: reportScheduleRuns, report: queuedReports, schedule: reportSchedules, email: users.email, givenName: users.givenName })
        .from(reportScheduleRuns)
        .innerJoin(queuedReports, eq(queuedReports.id, reportScheduleRuns.reportId))
        .innerJoin(reportSchedules, eq(reportSchedules.id, reportScheduleRuns.scheduleId))
        .innerJoin(users, eq(users.id, reportSchedules.userId))
        .where(and(eq(reportScheduleRuns.status, 'queued'), sql`(${queuedReports.status} IN ('generated', 'failed', 'cancelled') OR ${queuedReports.deletedAt} IS NOT NULL)`))
        .orderBy(asc(reportScheduleRuns.createdAt)).limit(batch).for('update', { of: [reportScheduleRuns], skipLocked: true });
      for (const { run, report, schedule, email, givenName } of finished) {
        const name = `${scheduleReportLabel(schedule.reportType)} ${(schedule.filters as Record<string, string>).accountNumber ?? ''}`.trim();
        const mail = schedule.emailWhenReady && isPlausibleEmailAddress(email);
        const link = portalLink(options.publicUrl, '/reporting-overview', { report: report.id });
        const period = runPeriod(timingOf(schedule), run.dueAt);
        const periodText = period.firstDay === period.lastDay ? period.firstDay : `${period.firstDay} to ${period.lastDay}`;
        if (report.status === 'generated' && !report.deletedAt) {
          await tx.update(reportScheduleRuns).set({ status: 'generated', notifiedAt: mail ? now : null }).where(eq(reportScheduleRuns.reportId, run.reportId));
          await tx.update(reportSchedules).set({ lastOutcome: 'generated', lastError: null }).where(and(eq(reportSchedules.id, schedule.id), eq(reportSchedules.lastRunAt, run.dueAt)));
          if (mail) {
            await queueEmail(tx, email, {
              template: 'scheduledReportReady',
              subject: `Your scheduled report is ready: ${name}`,
              heading: 'Your scheduled report is ready',
              paragraphs: [
                `Hello ${givenName || 'there'},`,
                `${name} (${(schedule.context as ScheduleContext).title}) for ${periodText} (${schedule.timeZone}) is ready in your report queue. Sign in to the portal to download it; it is kept for 14 days.`,
              ],
              action: { label: 'Open my report queue', url: link },
              footer: `You receive this email because you asked to be told when this scheduled report (${describeTiming(timingOf(schedule))}) is ready. Change it in My report queue.`,
            });
            round.notified += 1;
          }
          continue;
        }
        const retry = report.status === 'failed' && !report.deletedAt && run.attempt < maxRunAttempts && !schedule.paused;
        if (retry) {
          await tx.update(reportScheduleRuns).set({ status: 'retried' }).where(eq(reportScheduleRuns.reportId, run.reportId));
          await queueRun(tx, schedule, run.dueAt, run.attempt + 1);
          round.retried += 1;
          continue;
        }
        const error = report.status === 'failed' ? (report.error ?? 'The report could not be generated.') : 'The report was cancelled.';
        await tx.update(reportScheduleRuns).set({ status: 'failed', notifiedAt: mail && report.status === 'failed' ? now : null }).where(eq(reportScheduleRuns.reportId, run.reportId));
        await tx.update(reportSchedules).set({ lastOutcome: 'failed', lastError: error }).where(and(eq(reportSchedules.id, schedule.id), eq(reportSchedules.lastRunAt, run.dueAt)));
        round.failed += 1;
        if (mail && report.status === 'failed') {
          await queueEmail(tx, email, {
            template: 'scheduledReportFailed',
            subject: `Your scheduled report could not be generated: ${name}`,
            heading: 'Your scheduled report could not be generated',
            paragraphs: [
              `Hello ${givenName || 'there'},`,
              `${name} (${(schedule.context as ScheduleContext).title}) for ${periodText} (${schedule.timeZone}) could not be generated after ${run.attempt} tries: ${error}`,
              'The schedule stays in place and runs again at its next time. You can also queue the report yourself from the statement.',
            ],
            action: { label: 'Open my report queue', url: link },
            footer: `You receive this email because you asked to be told about this scheduled report (${describeTiming(timingOf(schedule))}).`,
          });
        }
      }
      return finished.length;
    });
    if (followed < batch) break;
  }
  return round;
}

export type ScheduleRunner = { stop: () => Promise<void>; runOnce: () => Promise<ScheduleRound | null> };

/** Runs a round every minute (the first 20 s after start). */
export function startScheduleRunner(database: Database, options: { publicUrl: string; everyMs?: number; log?: (line: string) => void }): ScheduleRunner {
  const log = options.log ?? (() => undefined);
  let running: Promise<ScheduleRound | null> | null = null;
  const runOnce = () => {
    running ??= runSchedules(database, { publicUrl: options.publicUrl })
      .then((round) => {
        if (round.queued + round.notified + round.retried + round.failed > 0) log(`schedules: ${JSON.stringify(round)}`);
        return round;
      })
      .catch((error: unknown) => {
        log(`schedules failed: ${error instanceof Error ? error.message : String(error)}`);
        return null;
      })
      .finally(() => { running = null; });
    return running;
  };
  const timer = setInterval(() => void runOnce(), options.everyMs ?? 60_000);
  timer.unref();
  setTimeout(() => void runOnce(), 20_000).unref();
  return {
    runOnce,
    stop: async () => {
      clearInterval(timer);
      await running;
    },
  };
}

/** The most recent report each of these schedules queued. */
export async function lastReportsOf(db: Db, scheduleIds: string[]): Promise<Map<string, string>> {
  if (scheduleIds.length === 0) return new Map();
  const rows = await db.selectDistinctOn([reportScheduleRuns.scheduleId], { scheduleId: reportScheduleRuns.scheduleId, reportId: reportScheduleRuns.reportId })
    .from(reportScheduleRuns).where(inArray(reportScheduleRuns.scheduleId, scheduleIds))
    .orderBy(reportScheduleRuns.scheduleId, sql`${reportScheduleRuns.createdAt} DESC`);
  return new Map(rows.map((row) => [row.scheduleId, row.reportId]));
}

export { ApiError };
