// The report worker: any node runs one; each claims one job at a time from the queue in the database.
//
// presence   a worker holds an advisory lock keyed on its node id for as long as it lives (presence.ts); a
//            node that dies loses it with its connection.
// claim      one short transaction: SELECT … FOR UPDATE SKIP LOCKED, status generating, attempts + 1, a lease
//            (locked_by = this node, locked_until = now + lease). A job whose holder's presence is gone (its node
//            died: claimable at once, e.g. by the same server restarted) or whose lease lapsed (its node stalled)
//            is claimable again; after 3 attempts it is failed instead. Files of earlier attempts go.
// generate   outside any transaction: keyset batches from the database are written by the CSV or XLSX writer into
//            a stream that the FileStore's put reads as it goes (reports/{id}-{attempt}.{ext}: a folder's temporary
//            name, an S3 multipart upload), so no file is ever whole in memory or on a local disk; after every
//            batch a heartbeat extends the lease and records progress, and stops the work if the lease is no longer
//            ours (reclaimed or deleted): the stream is destroyed and the store keeps nothing.
// complete   the put has stored the file whole; then one short transaction locks the row while the lease is still
//            ours and marks it generated with the file's key and expiry. A crash before the put completes leaves no
//            object (only an incomplete upload); a crash between put and commit leaves an unreferenced object;
//            either way the job is reclaimed and housekeeping removes the leftovers. Never generated without a
//            file, never completed twice.
// housekeep  at start and every few minutes, from any node at any time: files of expired and deleted reports,
//            unreferenced files older than a grace period and incomplete uploads older than a day are removed
//            (file-sweeper.ts).
import { once } from 'node:events';
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { PassThrough } from 'node:stream';
import { parseListQuery } from '../../src/contract/list-query.ts';
import type { ReportContext } from '../../src/contract/report-schemas.ts';
import { transactionColumns, transactionListSpec, type TransactionColumn } from '../../src/contract/transactions.ts';
import type { Database } from '../db/client.ts';
import { loadPrincipal } from '../policy/principal.ts';
import { noPermissionMessage } from '../http/errors.ts';
import { scopeOfReportContext } from '../transactions/scope.ts';
import type { FileStore } from '../files/file-store.ts';
import {
  claimNextReport,
  completeReport,
  failReport,
  heartbeat,
  releaseAfterError,
  releaseOnStop,
  reportContentTypes,
  reportFileKey,
  type Lease,
  type ReportRow,
} from './queue.ts';
import { sweepReportFiles } from './file-sweeper.ts';
import { acquirePresence, type Presence } from './presence.ts';
import { exportCellsOf, exportColumnSpecs, transactionExportBatches } from './transaction-export.ts';
import { databaseTimeZone, transactionCellBatches, transactionCsvBatches, type TextBatch } from './transaction-csv.ts';
import { openCsvWriter, type ReportRow as FileRow, type ReportWriter } from './writers.ts';
import { onReportQueued } from './wake.ts';
import { openXlsxThreadWriter } from './xlsx-remote.ts';
import { isLedgerReportType, openCamtReport, openLedgerReport } from './ledger-export.ts';
import { camt053Errors, camtValidationLimitBytes } from '../ledger/camt053-validate.ts';
import { paymentJobColumns, type PaymentJobColumn } from '../../src/contract/payment-jobs.ts';
import { scopeOf, SelectionRefused, ticketScopeOf } from './selection.ts';
import { chosenColumns, splitReportFilters, ticketExportBatches, ticketExportSpecs, userExportBatches, userExportSpecs } from './area-exports.ts';
import { ticketExportColumns } from '../../src/contract/tickets.ts';
import { userExportColumns } from '../../src/contract/users.ts';
import { ApiError } from '../http/errors.ts';
import { paymentJobExportBatches, paymentJobExportSpecs } from './area-exports.ts';
import { openPdfWriter, type PdfReportWriter, type PdfSummary } from './pdf-statement.ts';

export type ReportWorkerOptions = {
  database: Database;
  /** where report files live: the process's FileStore (every node of a deployment shares it) */
  files: FileStore;
  nodeId?: string;
  pollMs?: number;
  leaseMs?: number;
  batchSize?: number;
  housekeepingMs?: number;
  /** unreferenced files younger than this are left alone (another node may be between its put and its commit) */
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
    files: options.files,
    nodeId: options.nodeId ?? `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`,
    pollMs: options.pollMs ?? 1000,
    leaseMs: options.leaseMs ?? defaultLeaseMs,
    batchSize: options.batchSize ?? 10_000,
    housekeepingMs: options.housekeepingMs ?? 5 * 60_000,
    orphanGraceMs: options.orphanGraceMs ?? 10 * 60_000,
    log: options.log ?? ((line) => console.log(`[reports] ${line}`)),
    afterBatch: options.afterBatch,
  };
}

/** A job that cannot succeed however often it is tried: failed at once. */
class ReportRefused extends Error {}

/** A refusal met while reading rows (the user may read no users any more, a filter gone invalid) fails the report at once. */
async function* refusalsAsReport<T>(batches: AsyncGenerator<T>): AsyncGenerator<T> {
  try {
    yield* batches;
  } catch (error) {
    if (error instanceof ApiError || error instanceof SelectionRefused) throw new ReportRefused(error.message);
    throw error;
  }
}

/**
 * camt.053 XML as it comes; a file up to camtValidationLimitBytes is also kept and validated against the ISO 20022
 * schema before the stream ends, so an invalid file is never stored (the job fails, no retry cures a generator bug).
 */
function openCamtWriter(output: PassThrough): ReportWriter {
  let kept: string[] | null = [];
  let size = 0;
  return {
    write: async (row) => {
      const piece = row[0] ?? '';
      size += Buffer.byteLength(piece);
      if (kept && size <= camtValidationLimitBytes) kept.push(piece);
      else kept = null;
      if (!output.write(piece)) await once(output, 'drain');
    },
    finish: async () => {
      if (kept) {
        const errors = await camt053Errors(kept.join(''));
        kept = null;
        if (errors.length > 0) throw new ReportRefused(`The camt.053 file did not validate against the ISO 20022 schema: ${errors.slice(0, 3).join('; ')}`);
      }
      const finished = once(output, 'finish');
      output.end();
      await finished;
    },
    abort: async () => {
      kept = null;
      output.destroy(new Error('aborted'));
    },
  };
}

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
  if (claim.reclaimedFrom !== null)
    settings.log(`${claim.report.id}: reclaimed from ${claim.reclaimedFrom} (gone or stalled) as attempt ${claim.lease.attempt}`);
  return generate(settings, presence, claim.report, claim.lease, shouldStop);
}

/** Rows are written batch by batch; the put reads them as they come, and a batch waits while the store is behind. */
const streamBufferBytes = 1024 * 1024;

async function generate(settings: Settings, presence: Presence, report: ReportRow, lease: Lease, shouldStop: () => boolean): Promise<RunOutcome> {
  const { database, files } = settings;
  const { db } = database;
  // Earlier attempts are over (their node died, or stalled and is fenced off by the lease): a file one of them stored
  // without getting to commit goes now.
  for (let earlier = 1; earlier < lease.attempt; earlier += 1) await files.delete(reportFileKey(report.id, earlier, report.fileType));
  const key = reportFileKey(report.id, lease.attempt, report.fileType);
  let writer: ReportWriter | null = null;
  let body: PassThrough | null = null;
  let stored: Promise<{ size: number }> | null = null;
  /** Ends this attempt's put without a file: the stream is destroyed and the store keeps nothing of it. */
  const discard = async () => {
    await writer?.abort().catch(() => undefined);
    writer = null;
    body?.destroy(new Error('discarded'));
    await stored?.catch(() => undefined);
    stored = null;
  };
  try {
    const ledger = isLedgerReportType(report.reportType);
    const areaExport = report.reportType === 'payment-jobs' || report.reportType === 'tickets' || report.reportType === 'users';
    if (
      (!ledger && report.fileType === 'xml') ||
      (!ledger && ((report.reportType !== 'transactions' && !areaExport) || (report.fileType !== 'csv' && report.fileType !== 'xlsx')))
    ) {
      throw new ReportRefused(`Reports of type ${report.reportType} as ${report.fileType} are not generated by this portal.`);
    }
    const principal = await loadPrincipal(database, report.userId);
    if (!principal) throw new ReportRefused('The user who queued the report no longer exists.');
    const context = report.context as ReportContext;
    let rowBatches: AsyncIterable<FileRow[] | TextBatch>;
    let openWriter: (output: PassThrough) => Promise<ReportWriter>;
    let ledgerSummary: (() => PdfSummary | null) | null = null;
    if (ledger && report.fileType === 'xml') {
      // An account statement as ISO 20022 camt.053 (ledger-export.ts, ledger/camt053.ts): pieces of XML, one per entry.
      const opened = await openCamtReport(database, principal, report);
      if (typeof opened === 'string') throw new ReportRefused(opened);
      rowBatches = (async function* pieces() {
        for await (const chunk of opened) yield chunk.split(/(?=<Ntry>)/).map((piece) => [piece]);
      })();
      openWriter = async (output) => openCamtWriter(output);
    } else if (ledger) {
      // The settlement ledger's statements and reports (ledger-export.ts), as CSV, XLSX or PDF.
      const opened = await openLedgerReport(database, principal, report, settings.batchSize);
      if (typeof opened === 'string') throw new ReportRefused(opened);
      rowBatches = opened.batches;
      ledgerSummary = opened.summary;
      openWriter = (output) =>
        report.fileType === 'pdf'
          ? openPdfWriter(output, opened.columns, opened.heading, new Date())
          : report.fileType === 'csv'
            ? openCsvWriter(output, opened.columns)
            : openXlsxThreadWriter(output, opened.columns, opened.sheetName);
    } else if (report.reportType === 'tickets' || report.reportType === 'users') {
      // Tickets and users selected in their overviews and exported as a bulk action (area-exports.ts):
      // the context re-resolved with the user's access now, each row checked as the list call checks it.
      const contextNow = { level: context.level, partnerId: context.partnerId, businessId: context.businessId, merchantId: context.merchantId };
      const tickets = report.reportType === 'tickets';
      const scoped = await scopeOf(database, principal, contextNow, tickets ? 'Portal.Tickets.Read' : 'Mapi.Users.Read');
      if (!scoped?.reachable) throw new ReportRefused(noPermissionMessage);
      const filters = report.filters as Record<string, string>;
      const common = { principal, filters, timeZone: context.timeZone, asOf: report.queuedAt, batchSize: settings.batchSize };
      if (tickets) {
        if (scoped.scope.level === 'all') throw new ReportRefused(noPermissionMessage);
        const columns = chosenColumns(ticketExportColumns, report.columns);
        const specs = ticketExportSpecs(columns, context.timeZone);
        openWriter = (output) => (report.fileType === 'csv' ? openCsvWriter(output, specs) : openXlsxThreadWriter(output, specs, 'Tickets'));
        rowBatches = refusalsAsReport(ticketExportBatches(db, { ...common, scope: ticketScopeOf(scoped.scope), columns }));
      } else {
        if (scoped.scope.level !== 'all' && scoped.scope.level !== 'partner') throw new ReportRefused(noPermissionMessage);
        const columns = chosenColumns(userExportColumns, report.columns);
        const specs = userExportSpecs(columns, context.timeZone);
        openWriter = (output) => (report.fileType === 'csv' ? openCsvWriter(output, specs) : openXlsxThreadWriter(output, specs, 'Users'));
        rowBatches = refusalsAsReport(
          userExportBatches(db, { ...common, partnerId: scoped.scope.level === 'partner' ? scoped.scope.partnerId : undefined, columns }),
        );
      }
    } else if (report.reportType === 'payment-jobs') {
      // Payment jobs selected in their overview and exported as a bulk action (area-exports.ts).
      const scoped = await scopeOf(
        database,
        principal,
        { level: context.level, partnerId: context.partnerId, businessId: context.businessId, merchantId: context.merchantId },
        'Portal.PaymentJobs.Read',
      );
      if (!scoped?.reachable || scoped.scope.level === 'all') throw new ReportRefused(noPermissionMessage);
      const columns = report.columns.filter((column): column is PaymentJobColumn => (paymentJobColumns as readonly string[]).includes(column));
      if (columns.length === 0) throw new ReportRefused('The report has no columns.');
      const specs = paymentJobExportSpecs(columns, context.timeZone);
      openWriter = (output) => (report.fileType === 'csv' ? openCsvWriter(output, specs) : openXlsxThreadWriter(output, specs, 'Payment jobs'));
      rowBatches = paymentJobExportBatches(db, {
        scope: scoped.scope,
        filters: report.filters as Record<string, string>,
        columns,
        timeZone: context.timeZone,
        asOf: report.queuedAt,
        batchSize: settings.batchSize,
      });
    } else {
      const scope = await scopeOfReportContext(database, principal, context, 'Mapi.Transactions.Read');
      if (!scope) throw new ReportRefused(noPermissionMessage);
      // A bulk export of picked transactions keeps its picks beside the filters (area-exports.ts).
      const { filters: listFilters, picks } = (() => {
        try {
          return splitReportFilters(report.filters as Record<string, string>);
        } catch (error) {
          throw error instanceof SelectionRefused ? new ReportRefused(error.message) : error;
        }
      })();
      const parsed = parseListQuery({ ...listFilters, ...((report.ordering ?? {}) as Record<string, string>) }, transactionListSpec);
      if (!parsed.ok) throw new ReportRefused(`The report's filters are no longer valid: ${parsed.errors.join('; ')}`);
      const columns = report.columns.filter((column): column is TransactionColumn => (transactionColumns as readonly string[]).includes(column));
      if (columns.length === 0) throw new ReportRefused('The report has no columns.');
      const specs = exportColumnSpecs(columns, context.timeZone);
      openWriter = (output) => (report.fileType === 'csv' ? openCsvWriter(output, specs) : openXlsxThreadWriter(output, specs, 'Transactions'));
      const exportQuery = {
        scope,
        filters: parsed.query.filters,
        sort: parsed.query.sort[0] ?? { field: 'date', descending: true },
        timeZone: context.timeZone,
        asOf: report.queuedAt,
        batchSize: settings.batchSize,
        picks,
      };
      // In a zone the database writes as we do, the database formats the CSV lines, or the XLSX cells as text for the
      // workbook's thread (transaction-csv.ts).
      const zone = await databaseTimeZone(database, context.timeZone);
      if (zone) {
        rowBatches = (report.fileType === 'csv' ? transactionCsvBatches : transactionCellBatches)(database, exportQuery, columns, zone);
      } else {
        const cellsOf = exportCellsOf(columns, context.timeZone);
        rowBatches = (async function* cells() {
          for await (const batch of transactionExportBatches(database, exportQuery, { refunds: columns.includes('status') })) yield batch.map(cellsOf);
        })();
      }
    }

    const stream = new PassThrough({ highWaterMark: streamBufferBytes });
    body = stream;
    stored = files.put(key, stream, {
      contentType: reportContentTypes[report.fileType] ?? 'application/octet-stream',
      metadata: { 'report-id': report.id, attempt: String(lease.attempt) },
    });
    // A put that fails (the store is unreachable) fails the writer's next write instead of leaving it waiting.
    stored.catch((error: unknown) => stream.destroy(error instanceof Error ? error : new Error(String(error))));
    writer = await openWriter(stream);
    let processedRows = 0;
    for await (const batch of rowBatches) {
      if (!Array.isArray(batch)) {
        if (batch.format === 'cells') {
          if (!writer.writeCells) throw new Error('Cell text for a writer that takes rows');
          await writer.writeCells(batch.chunks);
        } else {
          if (!writer.writeText) throw new Error('CSV text for a writer that takes rows');
          for (const chunk of batch.chunks) await writer.writeText(chunk);
        }
        processedRows += batch.rows;
      } else {
        if (writer.writeBatch) await writer.writeBatch(batch);
        else for (const row of batch) await writer.write(row);
        processedRows += batch.length;
      }
      // The XLSX writer's zip does not wait for the stream: the next batch does, so a slow store never piles up rows.
      if (stream.writableNeedDrain) await once(stream, 'drain');
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
    const summary = ledgerSummary?.() ?? null;
    if (summary && 'setSummary' in writer) (writer as PdfReportWriter).setSummary(summary);
    await writer.finish();
    writer = null;
    const { size: fileSize } = await stored;
    stored = null;
    const completed = await completeReport(db, lease, { key, fileSize }, processedRows);
    if (!completed) {
      await files.delete(key);
      settings.log(`${report.id}: attempt ${lease.attempt} finished after losing its lease; discarded`);
      return 'lost';
    }
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
      // Its lease had gone (the job was reclaimed elsewhere): nothing of this attempt counts.
      settings.log(`${report.id}: attempt ${lease.attempt} lost its lease and broke (${message}); discarded`);
      return 'lost';
    }
    settings.log(`${report.id}: attempt ${lease.attempt} broke: ${message}`);
    return 'retrying';
  }
}

/** Deletes what no report needs any more; returns what it removed (file-sweeper.ts). */
export async function reportHousekeeping(options: Pick<ReportWorkerOptions, 'database' | 'files' | 'orphanGraceMs'> & { filesNow?: Date }) {
  return sweepReportFiles({
    database: options.database,
    files: options.files,
    orphanGraceMs: options.orphanGraceMs,
    ...(options.filesNow ? { filesNow: options.filesNow } : {}),
  });
}

/**
 * Starts the polling loop. stop() lets a running job hand itself back to the queue (no attempt spent) and resolves
 * when the loop has ended.
 */
export function startReportWorker(options: ReportWorkerOptions): ReportWorker {
  const settings = settingsOf(options);
  let stopping = false;
  let wake: (() => void) | null = null;
  // A report queued on this node while the loop was busy: it looks again at once instead of sleeping.
  let queuedMeanwhile = false;
  const sleep = (ms: number) =>
    new Promise<void>((done) => {
      if (queuedMeanwhile) {
        queuedMeanwhile = false;
        done();
        return;
      }
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
  const stopListening = onReportQueued(() => {
    if (wake) wake();
    else queuedMeanwhile = true;
  });
  const housekeeping = async () => {
    try {
      const removed = await reportHousekeeping(settings);
      if (removed.expired + removed.orphans + removed.incomplete > 0) settings.log(`housekeeping removed ${JSON.stringify(removed)}`);
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
      queuedMeanwhile = false;
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
    stopListening();
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
