// The bulk job worker: any node runs one; each claims one job at a time (server/jobs/claim.ts: the same lease
// pattern as the report queue and the mail worker).
//
// claim      SELECT … FOR UPDATE SKIP LOCKED of the oldest queued job, or a running one whose node died (its presence
//            lock is gone: reports/presence.ts) or stalled (its lease lapsed): status running, attempts + 1, a lease.
// run        the user's access is loaded afresh and the job's context re-resolved: a filter only ever reaches what the
//            user may read now, in the context it was made in. Items are walked in id order after `cursor`; each is
//            checked (permission where it lives, its state) and acted on in its own transaction that also writes its
//            bulk_job_items row, so an item is done exactly once even when a retried attempt walks it again. After
//            each batch the lease is extended, progress recorded and an event sent (live progress); a cancel request
//            is honoured between items.
// finish     a CSV of every failed item and why is stored (bulk-results/{id}.csv), then the job is completed under
//            the lease (fenced: a job taken over elsewhere is never completed twice).
// export     does not walk items: it queues a report over the same filters in My report queue (server/reports/),
//            once (the report id derives from the job id), and completes.
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { Readable } from 'node:stream';
import { and, asc, eq, lt, or, sql } from 'drizzle-orm';
import type { BulkAction, BulkArea, BulkContext } from '../../src/contract/bulk-jobs.ts';
import type { Database, Db } from '../db/client.ts';
import { bulkJobItems, bulkJobs } from '../db/schema.ts';
import { eventBusOf } from '../events/event-bus.ts';
import type { FileStore } from '../files/file-store.ts';
import { noPermissionMessage } from '../http/errors.ts';
import { loadPrincipal } from '../policy/principal.ts';
import { acquirePresence, presenceLockClass, type Presence } from '../reports/presence.ts';
import { type ColumnKind, csvLine } from '../reports/writers.ts';
import { areaRunner, readPermission, type BulkParams } from './areas.ts';
import { scopeOf, SelectionRefused, type StoredSelection } from '../reports/selection.ts';
import { exportReportOf } from './exports.ts';
import { sqlNow } from '../clock.ts';
import { claimNext as claimNextJob } from '../jobs/claim.ts';

export type BulkJobRow = typeof bulkJobs.$inferSelect;
type Lease = { id: string; nodeId: string; attempt: number };
const b = bulkJobs;
export const maxBulkAttempts = 5;
export const bulkResultKey = (id: string) => `bulk-results/${id}.csv`;

const leaseHeld = (lease: Lease) => and(eq(b.id, lease.id), eq(b.lockedBy, lease.nodeId), eq(b.attempts, lease.attempt), eq(b.status, 'running'));
const leaseUntil = (leaseMs: number) => sqlNow(leaseMs);
const holderGone = sql`NOT EXISTS (SELECT 1 FROM pg_locks l WHERE l.locktype = 'advisory' AND l.granted
  AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
  AND l.classid = ${presenceLockClass}::oid AND l.objid = hashtext(${b.lockedBy})::oid AND l.objsubid = 2)`;

export type BulkWorkerOptions = {
  database: Database;
  files: FileStore;
  publicUrl: string;
  nodeId?: string;
  pollMs?: number;
  leaseMs?: number;
  batchSize?: number;
  log?: (line: string) => void;
  /** awaited after each batch (tests freeze or slow a worker here) */
  afterBatch?: (progress: { jobId: string; attempt: number; processedItems: number }) => Promise<void> | void;
  /** awaited after each item's transaction committed (the crash test kills a node between two items here) */
  afterItem?: (item: { jobId: string; itemId: string }) => Promise<void> | void;
};
type Settings = Required<Omit<BulkWorkerOptions, 'afterBatch' | 'afterItem'>> & Pick<BulkWorkerOptions, 'afterBatch' | 'afterItem'>;

function settingsOf(options: BulkWorkerOptions): Settings {
  return {
    database: options.database,
    files: options.files,
    publicUrl: options.publicUrl,
    nodeId: options.nodeId ?? `${hostname()}:${process.pid}:bulk:${randomBytes(3).toString('hex')}`,
    pollMs: options.pollMs ?? 1000,
    leaseMs: options.leaseMs ?? 60_000,
    batchSize: options.batchSize ?? 25,
    log: options.log ?? ((line) => console.log(`[bulk] ${line}`)),
    afterBatch: options.afterBatch,
    afterItem: options.afterItem,
  };
}

async function announce(database: Database): Promise<void> {
  const bus = eventBusOf(database);
  const event = await database.db.transaction((tx) => bus.record(tx, 'bulk-jobs'));
  bus.committed(event);
}

type Claim = { job: BulkJobRow; lease: Lease } | null;

async function claimNext(db: Db, nodeId: string, leaseMs: number): Promise<Claim> {
  const claim = await claimNextJob({
    db,
    table: b,
    columns: { id: b.id, status: b.status, attempts: b.attempts },
    where: or(eq(b.status, 'queued'), and(eq(b.status, 'running'), or(lt(b.lockedUntil, sqlNow()), holderGone))),
    order: [asc(b.createdAt), asc(b.id)],
    giveUp: (candidate) =>
      candidate.status === 'running' && candidate.attempts >= maxBulkAttempts
        ? {
            status: 'failed',
            lockedBy: null,
            lockedUntil: null,
            finishedAt: sqlNow(),
            error: `The job could not finish after ${maxBulkAttempts} attempts.`,
          }
        : null,
    status: 'running',
    lease: { owner: nodeId, until: () => leaseUntil(leaseMs) },
  });
  if (claim.kind !== 'claimed') return null;
  const job = claim.row;
  return { job, lease: { id: job.id, nodeId, attempt: job.attempts } };
}

/** Ends the job under its lease with the result file already stored; false when the lease is gone. */
async function finish(db: Db, lease: Lease, patch: Partial<typeof b.$inferInsert>): Promise<boolean> {
  const rows = await db
    .update(b)
    .set({ ...patch, lockedBy: null, lockedUntil: null, finishedAt: sqlNow() })
    .where(leaseHeld(lease))
    .returning({ id: b.id });
  return rows.length > 0;
}

/** The result file's three columns are all text: written by the report files' CSV rules (formulas neutralised). */
const resultKinds: ColumnKind[] = ['text', 'text', 'text'];

/** The result file's text: one line per failed item with its reason (formula-looking text neutralised for spreadsheets). */
export async function bulkResultCsv(db: Db, jobId: string): Promise<string> {
  const failed = await db
    .select({ itemId: bulkJobItems.itemId, reason: bulkJobItems.reason })
    .from(bulkJobItems)
    .where(and(eq(bulkJobItems.jobId, jobId), eq(bulkJobItems.outcome, 'failed')))
    .orderBy(asc(bulkJobItems.itemId));
  return `item,outcome,reason\r\n${failed.map((row) => csvLine([row.itemId, 'failed', row.reason ?? ''], resultKinds)).join('')}`;
}

async function storeResult(settings: Settings, job: BulkJobRow): Promise<string> {
  const key = bulkResultKey(job.id);
  await settings.files.put(key, Readable.from([await bulkResultCsv(settings.database.db, job.id)]), {
    contentType: 'text/csv; charset=utf-8',
    metadata: { 'bulk-job-id': job.id },
  });
  return key;
}

export type BulkRunOutcome = 'idle' | 'completed' | 'cancelled' | 'failed' | 'lost';

async function run(settings: Settings, presence: Presence): Promise<BulkRunOutcome> {
  const { database } = settings;
  const { db } = database;
  await presence.ensure();
  const claim = await claimNext(db, presence.nodeId, settings.leaseMs);
  if (!claim) return 'idle';
  let { job } = claim;
  const { lease } = claim;
  const fail = async (message: string): Promise<BulkRunOutcome> => {
    const key = await storeResult(settings, job);
    const done = await finish(db, lease, { status: 'failed', error: message, resultPath: key });
    await announce(database);
    return done ? 'failed' : 'lost';
  };
  try {
    const principal = await loadPrincipal(database, job.userId);
    if (!principal) return await fail('The user who started the job no longer has access.');
    const area = job.area as BulkArea;
    const action = job.action as BulkAction;
    const context = job.scope as BulkContext & { timeZone: string };
    const scoped = await scopeOf(database, principal, context, readPermission[area]);
    if (!scoped?.reachable) return await fail(noPermissionMessage);
    const selection: StoredSelection = {
      allMatching: job.allMatching,
      filters: job.filters as Record<string, string>,
      includedIds: job.includedIds,
      excludedIds: job.excludedIds,
    };
    if (action === 'export') {
      const reportId = await exportReportOf(database, principal, job, scoped.scope, context);
      const key = await storeResult(settings, job);
      const done = await finish(db, lease, { status: 'completed', reportId, resultPath: key, processedItems: job.totalItems, succeededItems: job.totalItems });
      await announce(database);
      return done ? 'completed' : 'lost';
    }
    const runner = areaRunner({
      area,
      action,
      scope: scoped.scope,
      selection,
      timeZone: context.timeZone,
      principal,
      publicUrl: settings.publicUrl,
      params: job.params as BulkParams,
    });
    let cursor = job.cursor;
    for (;;) {
      // A cancel asked for since the last batch (another node's API wrote it): read afresh before each batch.
      const [flag] = await db.select({ cancelRequested: b.cancelRequested }).from(b).where(eq(b.id, job.id));
      if (flag?.cancelRequested || job.cancelRequested) {
        const key = await storeResult(settings, job);
        const done = await finish(db, lease, { status: 'cancelled', resultPath: key });
        await announce(database);
        return done ? 'cancelled' : 'lost';
      }
      const items = await runner.batch(db, cursor, settings.batchSize);
      if (items.length === 0) break;
      for (const item of items) {
        const at = new Date();
        const recorded = await db.transaction(async (tx) => {
          // Done by an earlier attempt (the node died between this item and its batch's progress): not again.
          const [already] = await tx
            .select({ outcome: bulkJobItems.outcome })
            .from(bulkJobItems)
            .where(and(eq(bulkJobItems.jobId, job.id), eq(bulkJobItems.itemId, item.id)))
            .for('update');
          if (already) return null;
          const outcome = await runner.act(tx as unknown as Db, item, at);
          await tx
            .insert(bulkJobItems)
            .values({ jobId: job.id, itemId: item.id, outcome: outcome.ok ? 'succeeded' : 'failed', reason: outcome.ok ? null : outcome.reason, at });
          return outcome.ok;
        });
        if (recorded !== null) await settings.afterItem?.({ jobId: job.id, itemId: item.id });
      }
      cursor = items[items.length - 1]?.id ?? cursor;
      // Progress from the item rows themselves (exact after a takeover), the lease extended, the cursor saved.
      const [counts] = await db
        .select({
          processed: sql<number>`count(*)::int`,
          failed: sql<number>`count(*) FILTER (WHERE ${bulkJobItems.outcome} = 'failed')::int`,
        })
        .from(bulkJobItems)
        .where(eq(bulkJobItems.jobId, job.id));
      const processed = Number(counts?.processed ?? 0);
      const failedCount = Number(counts?.failed ?? 0);
      await presence.ensure().catch(() => undefined);
      const [updated] = await db
        .update(b)
        .set({
          cursor,
          lockedUntil: leaseUntil(settings.leaseMs),
          processedItems: processed,
          failedItems: failedCount,
          succeededItems: processed - failedCount,
          totalItems: sql`greatest(${b.totalItems}, ${processed})`,
        })
        .where(leaseHeld(lease))
        .returning();
      if (!updated) {
        settings.log(`${job.id}: attempt ${lease.attempt} lost its lease; stopped`);
        return 'lost';
      }
      job = updated;
      await announce(database);
      await settings.afterBatch?.({ jobId: job.id, attempt: lease.attempt, processedItems: processed });
    }
    const key = await storeResult(settings, job);
    const done = await finish(db, lease, { status: 'completed', resultPath: key, totalItems: sql`${b.processedItems}` as unknown as number });
    await announce(database);
    settings.log(`${job.id}: completed (${job.processedItems} items, ${job.failedItems} failed), attempt ${lease.attempt}`);
    return done ? 'completed' : 'lost';
  } catch (error) {
    if (error instanceof SelectionRefused) return fail(error.message);
    // Something that may pass (a lost connection): the lease lapses and the job is taken again from its cursor.
    settings.log(`${job.id}: attempt ${lease.attempt} broke: ${error instanceof Error ? error.message : String(error)}`);
    await db
      .update(b)
      .set({ lockedUntil: sqlNow() })
      .where(leaseHeld(lease))
      .catch(() => undefined);
    return 'lost';
  }
}

/** Claims and runs at most one job (tests). */
export async function runNextBulkJob(options: BulkWorkerOptions): Promise<BulkRunOutcome> {
  const settings = settingsOf(options);
  const presence = await acquirePresence(settings.database, settings.nodeId, settings.log);
  try {
    return await run(settings, presence);
  } finally {
    await presence.release();
  }
}

export function startBulkWorker(options: BulkWorkerOptions): { nodeId: string; stop: () => Promise<void> } {
  const settings = settingsOf(options);
  let stopping = false;
  let wake: (() => void) | null = null;
  const sleep = (ms: number) =>
    new Promise<void>((done) => {
      const timer = setTimeout(() => {
        wake = null;
        done();
      }, ms);
      wake = () => {
        clearTimeout(timer);
        wake = null;
        done();
      };
    });
  let presence: Presence | null = null;
  const loop = (async () => {
    while (!stopping) {
      let outcome: BulkRunOutcome = 'idle';
      try {
        presence ??= await acquirePresence(settings.database, settings.nodeId, settings.log);
        outcome = await run(settings, presence);
      } catch (error) {
        settings.log(`claim failed: ${error instanceof Error ? error.message : String(error)}`);
      }
      if (outcome === 'idle' && !stopping) await sleep(settings.pollMs);
    }
    await (presence as Presence | null)?.release();
  })();
  return {
    nodeId: settings.nodeId,
    stop: async () => {
      stopping = true;
      (wake as (() => void) | null)?.();
      await loop;
    },
  };
}
