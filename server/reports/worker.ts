// The report worker: any node runs one; each claims one job at a time from the queue in the database.
//
// presence   a worker holds an advisory lock keyed on its node id for as long as it lives (presence.ts); a
//            node that dies loses it with its connection.
// claim      one short transaction: SELECT … FOR UPDATE SKIP LOCKED, status generating, attempts + 1, a lease
//            (locked_by = this node, locked_until = now + lease). A job whose holder's presence is gone (its node
//            died: claimable at once, e.g. by the same server restarted) or whose lease lapsed (its node stalled)
//            is claimable again; after 3 attempts it is failed instead. Partial files of earlier attempts go.
// generate   outside any transaction: keyset batches from the database are written to
//            {filesDir}/.partial/{id}-{attempt}.{ext}.part; after every batch a heartbeat extends the lease and
//            records progress, and stops the work if the lease is no longer ours (reclaimed or deleted).
// complete   one short transaction: lock the row while the lease is still ours, fsync'd file renamed to
//            {filesDir}/{id}-{attempt}.{ext}, status generated with its expiry. A crash before the rename leaves
//            only a partial file; a crash between rename and commit leaves an unreferenced file; either way the job
//            is reclaimed and housekeeping deletes the leftovers. Never generated without a file,
//            never completed twice.
// housekeep  at start and every few minutes: files of expired and deleted reports, partial files of attempts
//            that are no longer current, and unreferenced files older than a grace period are removed.
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { mkdir, open, readdir, stat, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { and, eq, inArray, isNotNull, lt, or, sql } from 'drizzle-orm';
import { parseListQuery } from '../../src/contract/list-query.ts';
import type { ReportContext } from '../../src/contract/reports.ts';
import { transactionColumns, transactionListSpec, type TransactionColumn } from '../../src/contract/transactions.ts';
import type { Database } from '../db/client.ts';
import { queuedReports } from '../db/schema.ts';
import { loadPrincipal } from '../policy/principal.ts';
import { noPermissionMessage } from '../api/errors.ts';
import { scopeOfReportContext } from '../api/transactions.ts';
import {
  claimNextReport, completeReport, failReport, heartbeat, partialFileName, partialFolder, releaseAfterError, releaseOnStop,
  reportFileName, type Lease, type ReportRow,
} from './queue.ts';
import { acquirePresence, type Presence } from './presence.ts';
import { exportCells, exportColumnSpecs, transactionExportBatches } from './transaction-export.ts';
import { openCsvWriter, openXlsxWriter, type ReportWriter } from './writers.ts';

export type ReportWorkerOptions = {
  database: Database;
  /** where report files live: ${DATA_DIR}/reports; shared storage when several nodes serve downloads */
  filesDir: string;
  nodeId?: string;
  pollMs?: number;
  leaseMs?: number;
  batchSize?: number;
  housekeepingMs?: number;
  /** unreferenced finished files younger than this are left alone (another node may be between rename and commit) */
  orphanGraceMs?: number;
  log?: (line: string) => void;
  /** awaited after each batch is written and the lease extended; tests slow or freeze a worker here */
  afterBatch?: (progress: { reportId: string; attempt: number; processedRows: number }) => Promise<void> | void;
};

export type ReportWorker = { nodeId: string; stop: () => Promise<void> };

type Settings = Required<Omit<ReportWorkerOptions, 'afterBatch' | 'log'>> & Pick<ReportWorkerOptions, 'afterBatch'> & { log: (line: string) => void };

export const defaultLeaseMs = 60_000;

function settingsOf(options: ReportWorkerOptions): Settings {
  return {
    database: options.database,
    filesDir: options.filesDir,
    nodeId: options.nodeId ?? `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`,
    pollMs: options.pollMs ?? 1000,
    leaseMs: options.leaseMs ?? defaultLeaseMs,
    batchSize: options.batchSize ?? 2000,
    housekeepingMs: options.housekeepingMs ?? 5 * 60_000,
    orphanGraceMs: options.orphanGraceMs ?? 10 * 60_000,
    log: options.log ?? ((line) => console.log(`[reports] ${line}`)),
    afterBatch: options.afterBatch,
  };
}

/** A job that cannot succeed however often it is tried: failed at once. */
class ReportRefused extends Error {}

export type RunOutcome = 'idle' | 'generated' | 'failed' | 'lost' | 'released' | 'retrying' | 'gaveUp';

/** Claims and runs at most one job, present as its node for the run. */
export async function runNextReport(options: ReportWorkerOptions, shouldStop: () => boolean = () => false): Promise<RunOutcome> {
  const settings = settingsOf(options);
  const presence = await acquirePresence(settings.database, settings.nodeId, settings.log);
  try {
    return await runNextWith(settings, presence, shouldStop);
  } finally {
    await presence.release();
  }
}

async function runNextWith(settings: Settings, presence: Presence, shouldStop: () => boolean): Promise<RunOutcome> {
  await presence.ensure();
  const claim = await claimNextReport(settings.database.db, presence.nodeId, settings.leaseMs);
  if (claim.kind === 'none') return 'idle';
  if (claim.kind === 'gaveUp') {
    settings.log(`${claim.id}: given up after its attempts ran out`);
    return 'gaveUp';
  }
  if (claim.reclaimedFrom !== null) settings.log(`${claim.report.id}: reclaimed from ${claim.reclaimedFrom} (gone or stalled) as attempt ${claim.lease.attempt}`);
  return generate(settings, presence, claim.report, claim.lease, shouldStop);
}

async function removeQuietly(path: string): Promise<void> {
  await unlink(path).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== 'ENOENT') throw error;
  });
}

async function generate(settings: Settings, presence: Presence, report: ReportRow, lease: Lease, shouldStop: () => boolean): Promise<RunOutcome> {
  const { database, filesDir } = settings;
  const { db } = database;
  await mkdir(join(filesDir, partialFolder), { recursive: true });
  // Earlier attempts are over (their node died, or stalled and is fenced off by the lease): their files go now.
  for (let earlier = 1; earlier < lease.attempt; earlier += 1) {
    await removeQuietly(join(filesDir, partialFolder, partialFileName(report.id, earlier, report.fileType)));
  }
  const partialPath = join(filesDir, partialFolder, partialFileName(report.id, lease.attempt, report.fileType));
  const fileName = reportFileName(report.id, lease.attempt, report.fileType);
  let writer: ReportWriter | null = null;
  const discard = async () => {
    await writer?.abort().catch(() => undefined);
    writer = null;
    await removeQuietly(partialPath);
  };
  try {
    if (report.reportType !== 'transactions' || (report.fileType !== 'csv' && report.fileType !== 'xlsx')) {
      throw new ReportRefused(`Reports of type ${report.reportType} as ${report.fileType} are not generated by this portal.`);
    }
    const principal = await loadPrincipal(database, report.userId);
    if (!principal) throw new ReportRefused('The user who queued the report no longer exists.');
    const context = report.context as ReportContext;
    const scope = await scopeOfReportContext(database, principal, context, 'Mapi.Transactions.Read');
    if (!scope) throw new ReportRefused(noPermissionMessage);
    const parsed = parseListQuery({ ...(report.filters as Record<string, string>), ...((report.ordering ?? {}) as Record<string, string>) }, transactionListSpec);
    if (!parsed.ok) throw new ReportRefused(`The report's filters are no longer valid: ${parsed.errors.join('; ')}`);
    const columns = report.columns.filter((column): column is TransactionColumn => (transactionColumns as readonly string[]).includes(column));
    if (columns.length === 0) throw new ReportRefused('The report has no columns.');

    const specs = exportColumnSpecs(columns, context.timeZone);
    writer = report.fileType === 'csv' ? await openCsvWriter(partialPath, specs) : await openXlsxWriter(partialPath, specs, 'Transactions');
    let processedRows = 0;
    const batches = transactionExportBatches(db, {
      scope,
      filters: parsed.query.filters,
      sort: parsed.query.sort[0] ?? { field: 'date', descending: true },
      timeZone: context.timeZone,
      asOf: report.queuedAt,
      batchSize: settings.batchSize,
    });
    for await (const batch of batches) {
      for (const row of batch) await writer.write(exportCells(row, columns, context.timeZone));
      processedRows += batch.length;
      // Best effort: a lost presence lets others take this job, and the heartbeat below then says so.
      await presence.ensure().catch((error: unknown) => settings.log(`presence: ${error instanceof Error ? error.message : String(error)}`));
      if (!(await heartbeat(db, lease, processedRows, settings.leaseMs))) {
        await discard();
        settings.log(`${report.id}: attempt ${lease.attempt} lost its lease (reclaimed or deleted); discarded`);
        return 'lost';
      }
      if (shouldStop()) {
        await discard();
        await releaseOnStop(db, lease);
        return 'released';
      }
      await settings.afterBatch?.({ reportId: report.id, attempt: lease.attempt, processedRows });
    }
    if (processedRows === 0 && !(await heartbeat(db, lease, 0, settings.leaseMs))) {
      await discard();
      return 'lost';
    }
    const fileSize = await writer.finish();
    writer = null;
    const handle = await open(partialPath, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
    const completed = await completeReport(db, lease, { partialPath, finalPath: join(filesDir, fileName), fileName, fileSize }, processedRows);
    if (!completed) {
      await discard();
      settings.log(`${report.id}: attempt ${lease.attempt} finished after losing its lease; discarded`);
      return 'lost';
    }
    await syncFolder(filesDir);
    settings.log(`${report.id}: generated ${processedRows} rows (${fileSize} bytes), attempt ${lease.attempt}`);
    return 'generated';
  } catch (error) {
    await discard().catch(() => undefined);
    const message = error instanceof Error ? error.message : String(error);
    if (error instanceof ReportRefused) {
      await failReport(db, lease, message);
      settings.log(`${report.id}: failed: ${message}`);
      return 'failed';
    }
    const released = await releaseAfterError(db, lease, 'The report could not be generated; it will be tried again.').catch(() => true);
    if (!released) {
      // Its lease had gone (the job was reclaimed and its partial file with it): nothing of this attempt counts.
      settings.log(`${report.id}: attempt ${lease.attempt} lost its lease and broke (${message}); discarded`);
      return 'lost';
    }
    settings.log(`${report.id}: attempt ${lease.attempt} broke: ${message}`);
    return 'retrying';
  }
}

/** Makes a rename durable (the directory entry), where the platform allows it. */
async function syncFolder(path: string): Promise<void> {
  try {
    const handle = await open(path, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch {
    // Not every file system lets a directory be opened for sync; the rename itself is atomic either way.
  }
}

const finalFilePattern = /^(RPT[0-9A-F]+)-(\d+)\.(csv|xlsx|pdf)$/;
const partialFilePattern = /^(RPT[0-9A-F]+)-(\d+)\.(csv|xlsx|pdf)\.part$/;

/** Deletes what no report needs any more; returns what it removed. */
export async function reportHousekeeping(options: Pick<ReportWorkerOptions, 'database' | 'filesDir' | 'orphanGraceMs'>): Promise<{ expired: number; partial: number; orphans: number }> {
  const { db } = options.database;
  const graceMs = options.orphanGraceMs ?? 10 * 60_000;
  const r = queuedReports;
  const removed = { expired: 0, partial: 0, orphans: 0 };

  const stale = await db.select({ id: r.id, filePath: r.filePath }).from(r).where(and(isNotNull(r.filePath), or(
    isNotNull(r.deletedAt),
    and(eq(r.status, 'generated'), lt(r.expirationDateTime, sql`now()`)),
  )));
  for (const row of stale) {
    if (!row.filePath) continue;
    await removeQuietly(join(options.filesDir, row.filePath));
    await db.update(r).set({ filePath: null }).where(and(eq(r.id, row.id), eq(r.filePath, row.filePath)));
    removed.expired += 1;
  }

  const partialDir = join(options.filesDir, partialFolder);
  for (const name of await readdir(partialDir).catch(() => [] as string[])) {
    const match = partialFilePattern.exec(name);
    if (!match) continue;
    const [row] = await db.select({ status: r.status, attempts: r.attempts, deletedAt: r.deletedAt }).from(r).where(eq(r.id, match[1] ?? ''));
    const current = row && row.status === 'generating' && row.attempts === Number(match[2]) && row.deletedAt === null;
    if (!current) {
      await removeQuietly(join(partialDir, name));
      removed.partial += 1;
    }
  }

  const names = await readdir(options.filesDir).catch(() => [] as string[]);
  const candidates = names.filter((name) => finalFilePattern.test(name));
  if (candidates.length > 0) {
    const ids = [...new Set(candidates.map((name) => finalFilePattern.exec(name)?.[1] ?? ''))];
    const referenced = new Set((await db.select({ filePath: r.filePath }).from(r).where(inArray(r.id, ids)))
      .map((row) => row.filePath).filter((path): path is string => path !== null));
    for (const name of candidates) {
      if (referenced.has(name)) continue;
      const path = join(options.filesDir, name);
      const info = await stat(path).catch(() => null);
      if (info && Date.now() - info.mtimeMs >= graceMs) {
        await removeQuietly(path);
        removed.orphans += 1;
      }
    }
  }
  return removed;
}

/**
 * Starts the polling loop. stop() lets a running job hand itself back to the queue (no attempt spent) and resolves
 * when the loop has ended.
 */
export function startReportWorker(options: ReportWorkerOptions): ReportWorker {
  const settings = settingsOf(options);
  let stopping = false;
  let wake: (() => void) | null = null;
  const sleep = (ms: number) => new Promise<void>((done) => {
    const timer = setTimeout(() => { wake = null; done(); }, ms);
    wake = () => { clearTimeout(timer); wake = null; done(); };
  });
  const housekeeping = async () => {
    try {
      const removed = await reportHousekeeping(settings);
      if (removed.expired + removed.partial + removed.orphans > 0) settings.log(`housekeeping removed ${JSON.stringify(removed)}`);
    } catch (error) {
      settings.log(`housekeeping failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  };
  let presence: Presence | null = null;
  const loop = (async () => {
    await housekeeping();
    let lastHousekeeping = Date.now();
    while (!stopping) {
      let outcome: RunOutcome = 'idle';
      try {
        presence ??= await acquirePresence(settings.database, settings.nodeId, settings.log);
        outcome = await runNextWith(settings, presence, () => stopping);
      } catch (error) {
        settings.log(`claim failed: ${error instanceof Error ? error.message : String(error)}`);
      }
      if (outcome === 'generated' || Date.now() - lastHousekeeping >= settings.housekeepingMs) {
        await housekeeping();
        lastHousekeeping = Date.now();
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
