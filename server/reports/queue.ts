// The report queue in the database: claiming with FOR UPDATE SKIP LOCKED and a lease, heartbeats, completion that
// is conditional on the lease still being ours, and the view the API returns. A generating job is reclaimable when
// its lease lapsed or its holder's presence lock is gone (the node died: see presence.ts). Every statement is short: nothing
// holds a transaction open while a file is written (PGlite has one connection, shared with the API).
import { and, asc, count, eq, isNull, lt, or, sql } from 'drizzle-orm';
import { maxReportAttempts, reportExpiryMs, reportState } from '../../src/contract/reports.ts';
import type { QueuedReport, ReportContext } from '../../src/contract/report-schemas.ts';
import type { PermissionName } from '../../src/contract/permissions.ts';
import type { Db } from '../db/client.ts';
import { queuedReports, users } from '../db/schema.ts';
import { recordEvent } from '../events/event-bus.ts';
import { ApiError } from '../http/errors.ts';
import { reportDownloadName } from './naming.ts';
import { presenceLockClass } from './presence.ts';
import { now, sqlNow } from '../clock.ts';
import { claimNext } from '../jobs/claim.ts';
import { reportQueued } from './wake.ts';

export type ReportRow = typeof queuedReports.$inferSelect;
export type Lease = { id: string; nodeId: string; attempt: number };

const r = queuedReports;

/** The lease columns that say a job is still this node's current attempt. */
const leaseHeld = (lease: Lease) =>
  and(eq(r.id, lease.id), eq(r.lockedBy, lease.nodeId), eq(r.attempts, lease.attempt), eq(r.status, 'generating'), isNull(r.deletedAt));

const leaseUntil = (leaseMs: number) => sqlNow(leaseMs);

/** No session of this database holds the presence lock of the job's lease holder: that node is gone. */
const holderGone = sql`NOT EXISTS (SELECT 1 FROM pg_locks l WHERE l.locktype = 'advisory' AND l.granted
  AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
  AND l.classid = ${presenceLockClass}::oid AND l.objid = hashtext(${r.lockedBy})::oid AND l.objsubid = 2)`;

export type ClaimResult =
  | { kind: 'claimed'; report: ReportRow; lease: Lease; reclaimedFrom: string | null }
  | { kind: 'gaveUp'; id: string }
  | { kind: 'none' };

/**
 * Takes the oldest queued job, or a generating one whose node died (its presence lock is gone) or whose lease
 * lapsed (its node stalled). Such a job that has used all its attempts is marked failed instead. One short
 * transaction; rows another node holds are skipped. The caller must hold its own presence lock (presence.ts), or
 * others would take its job from it at once.
 */
export async function claimNextReport(db: Db, nodeId: string, leaseMs: number): Promise<ClaimResult> {
  const claim = await claimNext({
    db,
    table: r,
    columns: { id: r.id, status: r.status, attempts: r.attempts, lockedBy: r.lockedBy },
    where: and(isNull(r.deletedAt), or(eq(r.status, 'queued'), and(eq(r.status, 'generating'), or(lt(r.lockedUntil, sqlNow()), holderGone)))),
    // Fair between users: the user served least recently goes first (a user with a job generating now
    // was served now), then the oldest job. One user's 20 queued exports no longer hold another's single one.
    order: [
      sql`coalesce((SELECT max(CASE WHEN g.status = 'generating' THEN ${sqlNow()} ELSE g.generated_at END) FROM queued_reports g WHERE g.user_id = ${r.userId}), '-infinity'::timestamptz)`,
      asc(r.queuedAt),
      asc(r.id),
    ],
    giveUp: (candidate) =>
      candidate.status === 'generating' && candidate.attempts >= maxReportAttempts
        ? { status: 'failed', lockedBy: null, lockedUntil: null, error: `The report could not be generated after ${maxReportAttempts} attempts.` }
        : null,
    status: 'generating',
    lease: { owner: nodeId, until: () => leaseUntil(leaseMs) },
    reset: { processedRows: 0, error: null },
    claimed: (tx, report) => recordEvent(tx, 'record', { resource: 'report', resourceId: String(report.id), userId: report.userId }),
  });
  if (claim.kind === 'none') return { kind: 'none' };
  if (claim.kind === 'gaveUp') return { kind: 'gaveUp', id: claim.candidate.id };
  const { row: report, candidate } = claim;
  const reclaimedFrom = candidate.status === 'generating' ? candidate.lockedBy : null;
  return { kind: 'claimed', report, lease: { id: report.id, nodeId, attempt: report.attempts }, reclaimedFrom };
}

/** Extends the lease and records progress; false when the job is no longer ours (reclaimed, deleted). */
export async function heartbeat(db: Db, lease: Lease, processedRows: number, leaseMs: number): Promise<boolean> {
  const rows = await db
    .update(r)
    .set({ lockedUntil: leaseUntil(leaseMs), processedRows })
    .where(leaseHeld(lease))
    .returning({ id: r.id });
  return rows.length > 0;
}

/**
 * Marks the job generated with its stored file, under a row lock that proves the lease is still ours: a reclaimed job
 * can never be completed twice, and a job is never generated without its file (the file is stored whole first; if
 * this then fails or the node dies, the file is an orphan that housekeeping removes). False when the lease is gone:
 * the caller deletes its file.
 */
export async function completeReport(db: Db, lease: Lease, file: { key: string; fileSize: number }, processedRows: number): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [held] = await tx.select({ id: r.id }).from(r).where(leaseHeld(lease)).for('update');
    if (!held) return false;
    const generatedAt = now();
    const [done] = await tx
      .update(r)
      .set({
        status: 'generated',
        generatedAt,
        expirationDateTime: new Date(generatedAt.getTime() + reportExpiryMs),
        filePath: file.key,
        fileSize: file.fileSize,
        processedRows,
        lockedBy: null,
        lockedUntil: null,
        error: null,
      })
      .where(eq(r.id, lease.id))
      .returning({ userId: r.userId });
    if (done) await recordEvent(tx, 'record', { resource: 'report', resourceId: String(lease.id), userId: done.userId });
    return true;
  });
}

/** A job that cannot succeed (the user lost access, the query is refused): failed now, no further attempts. */
export async function failReport(db: Db, lease: Lease, error: string): Promise<void> {
  await db.transaction(async (tx) => {
    const [failed] = await tx
      .update(r)
      .set({ status: 'failed', lockedBy: null, lockedUntil: null, error })
      .where(leaseHeld(lease))
      .returning({ userId: r.userId });
    if (failed) await recordEvent(tx, 'record', { resource: 'report', resourceId: String(lease.id), userId: failed.userId });
  });
}

/**
 * An attempt that broke on something that may pass (a lost connection, a full disk): back to the queue while
 * attempts remain, failed after the last one. False when the lease was no longer ours (the job went on elsewhere).
 */
export async function releaseAfterError(db: Db, lease: Lease, error: string): Promise<boolean> {
  const rows = await db
    .update(r)
    .set({
      status: sql`CASE WHEN ${r.attempts} >= ${maxReportAttempts} THEN 'failed' ELSE 'queued' END`,
      lockedBy: null,
      lockedUntil: null,
      error,
    })
    .where(leaseHeld(lease))
    .returning({ id: r.id });
  return rows.length > 0;
}

/** A graceful stop hands the job back without spending an attempt. */
export async function releaseOnStop(db: Db, lease: Lease): Promise<void> {
  await db
    .update(r)
    .set({ status: 'queued', attempts: sql`greatest(${r.attempts} - 1, 0)`, lockedBy: null, lockedUntil: null, processedRows: 0 })
    .where(leaseHeld(lease));
}

type ReportFilters = Record<string, string>;
type Ordering = { OrderingField: string; OrderingDirection: 'Ascending' | 'Descending' };

export function toQueuedReport(row: ReportRow, now: Date): QueuedReport {
  const iso = (value: Date | null) => (value ? value.toISOString() : null);
  const view = {
    status: row.status,
    generatedAt: iso(row.generatedAt),
    expirationDateTime: iso(row.expirationDateTime ?? (row.generatedAt ? new Date(row.generatedAt.getTime() + reportExpiryMs) : null)),
  };
  return {
    id: row.id,
    reportType: row.reportType,
    fileType: row.fileType,
    status: row.status,
    state: reportState(view, now),
    context: row.context as ReportContext,
    filters: row.filters as ReportFilters,
    ordering: (row.ordering ?? null) as Ordering | null,
    columns: row.columns,
    startDate: iso(row.startDate),
    endDate: iso(row.endDate),
    totalRows: row.totalRows,
    processedRows: row.processedRows,
    attempts: row.attempts,
    queuedAt: row.queuedAt.toISOString(),
    generatedAt: view.generatedAt,
    expirationDateTime: view.expirationDateTime,
    deletedAt: iso(row.deletedAt),
    fileName: row.filePath ? downloadName(row) : null,
    fileSize: row.fileSize,
    error: row.error,
  };
}

/** The name a report downloads under: a ledger report's account and period, else its type, day and id (naming.ts). */
export function downloadName(row: Pick<ReportRow, 'id' | 'reportType' | 'fileType' | 'queuedAt' | 'context' | 'filters' | 'startDate' | 'endDate'>): string {
  return reportDownloadName(row);
}

/** File names of reports, derived from job id and attempt so two attempts never share a file. */
export const reportFileName = (id: string, attempt: number, fileType: string) => `${id}-${attempt}.${fileType}`;
/** Report files in the FileStore: reports/{id}-{attempt}.{ext}; file_path holds this key. */
export const reportFilePrefix = 'reports/';
export const reportFileKey = (id: string, attempt: number, fileType: string) => `${reportFilePrefix}${reportFileName(id, attempt, fileType)}`;

export const reportContentTypes: Record<string, string> = {
  csv: 'text/csv; charset=utf-8',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  pdf: 'application/pdf',
  xml: 'application/xml; charset=utf-8',
};

/**
 * The permission a report's rows need in its context, checked when it is generated and again at every download.
 * Transaction exports need Mapi.Transactions.Read; every other report type (account statements, batches…) holds
 * account-group data.
 */
export function reportReadPermission(reportType: string): PermissionName {
  if (reportType === 'payment-jobs') return 'Portal.PaymentJobs.Read';
  if (reportType === 'tickets') return 'Portal.Tickets.Read';
  if (reportType === 'users') return 'Mapi.Users.Read';
  return reportType === 'transactions' ? 'Mapi.Transactions.Read' : 'Mapi.MerchantAccountGroups.Read';
}

/** Reports one user may have waiting (queued or generating) at once; more are refused with 429. */
export const maxWaitingReportsPerUser = 20;

/**
 * Queues a report unless the user already has maxWaitingReportsPerUser waiting: the user's row is locked for the
 * count, so a burst of requests is counted one after another and no burst slips past the cap.
 */
export async function insertQueuedReport(db: Db, report: typeof queuedReports.$inferInsert): Promise<void> {
  await db.transaction(async (tx) => {
    await assertReportQueueRoom(tx, report.userId);
    await tx.insert(r).values(report);
  });
  reportQueued();
}

/** Inside the caller's transaction: 429 when the user already has maxWaitingReportsPerUser waiting (their row stays locked till it ends). */
export async function assertReportQueueRoom(tx: Db, userId: string): Promise<void> {
  await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for('update');
  const [waiting] = await tx
    .select({ count: count() })
    .from(r)
    .where(and(eq(r.userId, userId), isNull(r.deletedAt), or(eq(r.status, 'queued'), eq(r.status, 'generating'))));
  const already = Number(waiting?.count ?? 0);
  if (already >= maxWaitingReportsPerUser) {
    throw new ApiError(
      429,
      `You have ${already} reports waiting in your report queue, the most there may be. Wait for one to finish, or cancel one, before queueing another.`,
    );
  }
}
