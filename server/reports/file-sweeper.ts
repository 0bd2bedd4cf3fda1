// Report files in the FileStore that no report needs any more, removed by any node at any time (the worker's
// housekeeping runs it at start and every few minutes on every node; two nodes at once do no harm):
//
// expired, deleted   rows past their expiry or deleted whose file_path is still set: the file is deleted, then
//                    file_path cleared only if it still names that file (a conditional update: idempotent)
// orphans            reports/ files no row names, older than the grace period (a node died between its put and its
//                    commit, or a delete's removal failed)
// incomplete         puts a dead node never finished, untouched for a day (FileStore.removeIncomplete)
//
// And once at start: report files of a data directory from before the FileStore (rows whose file_path is a bare
// name in ${DATA_DIR}/reports) are moved into the store, so existing downloads keep working.
import { createReadStream } from 'node:fs';
import { stat, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { and, eq, inArray, isNotNull, lt, notLike, or } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import { queuedReports } from '../db/schema.ts';
import { InvalidFileKey, type FileStore } from '../files/file-store.ts';
import { sweepOrphanFiles } from '../files/sweeper.ts';
import { reportContentTypes, reportFilePrefix } from './queue.ts';
import { now as clockNow, systemNow } from '../clock.ts';

const r = queuedReports;
const reportKeyPattern = /^reports\/RPT[0-9A-F]+-\d+\.(csv|xlsx|pdf)$/;
const legacyNamePattern = /^RPT[0-9A-F]+-\d+\.(csv|xlsx|pdf)$/;

export const defaultOrphanGraceMs = 10 * 60_000;
export const defaultIncompleteGraceMs = 24 * 3_600_000;

export type ReportSweep = { expired: number; orphans: number; incomplete: number };

export async function sweepReportFiles(options: {
  database: Database;
  files: FileStore;
  orphanGraceMs?: number;
  incompleteGraceMs?: number;
  /** the application's time, for reports' expiry */
  now?: Date;
  /** the time by the clock that stamps stored files, for their age (clock.ts) */
  filesNow?: Date;
}): Promise<ReportSweep> {
  const { db } = options.database;
  const { files } = options;
  const now = options.now ?? clockNow();
  const filesNow = options.filesNow ?? systemNow();
  const removed: ReportSweep = { expired: 0, orphans: 0, incomplete: 0 };

  const stale = await db
    .select({ id: r.id, filePath: r.filePath })
    .from(r)
    .where(and(isNotNull(r.filePath), or(isNotNull(r.deletedAt), and(eq(r.status, 'generated'), lt(r.expirationDateTime, now)))));
  for (const row of stale) {
    if (!row.filePath) continue;
    await files.delete(row.filePath).catch((error: unknown) => {
      // A file_path that is no key (never written by this code) has nothing in the store to delete.
      if (!(error instanceof InvalidFileKey)) throw error;
    });
    await db
      .update(r)
      .set({ filePath: null })
      .where(and(eq(r.id, row.id), eq(r.filePath, row.filePath)));
    removed.expired += 1;
  }

  removed.orphans = await sweepOrphanFiles(
    files,
    {
      prefix: reportFilePrefix,
      graceMs: options.orphanGraceMs ?? defaultOrphanGraceMs,
      owns: (key) => reportKeyPattern.test(key),
      referenced: async (keys) =>
        new Set(
          (
            await db
              .select({ filePath: r.filePath })
              .from(r)
              .where(inArray(r.filePath, [...keys]))
          )
            .map((row) => row.filePath)
            .filter((path): path is string => path !== null),
        ),
    },
    filesNow,
  );

  removed.incomplete = await files.removeIncomplete(new Date(filesNow.getTime() - (options.incompleteGraceMs ?? defaultIncompleteGraceMs)));
  return removed;
}

/**
 * Moves the files of reports generated before the FileStore (file_path a bare name in legacyDir) into the store under
 * reports/, then points their rows at the new key and removes the old file. Safe to run on several nodes at once: two
 * puts of the same file under the same key store the same bytes, and only a row still naming the old file is changed.
 * A row whose old file is missing keeps its name (its download answers 410, and the sweeper clears it on expiry).
 */
export async function moveLegacyReportFiles(options: {
  database: Database;
  files: FileStore;
  legacyDir: string;
  log?: (line: string) => void;
}): Promise<number> {
  const { db } = options.database;
  const rows = await db
    .select({ id: r.id, filePath: r.filePath, fileType: r.fileType })
    .from(r)
    .where(and(isNotNull(r.filePath), notLike(r.filePath, '%/%')));
  let moved = 0;
  for (const row of rows) {
    const name = row.filePath;
    if (!name || !legacyNamePattern.test(name)) continue;
    const path = join(options.legacyDir, name);
    if (!(await stat(path).catch(() => null))?.isFile()) continue;
    const key = `${reportFilePrefix}${name}`;
    await options.files.put(key, createReadStream(path), {
      contentType: reportContentTypes[row.fileType] ?? 'application/octet-stream',
      metadata: { 'report-id': row.id },
    });
    await db
      .update(r)
      .set({ filePath: key })
      .where(and(eq(r.id, row.id), eq(r.filePath, name)));
    await unlink(path).catch(() => undefined);
    moved += 1;
  }
  if (moved > 0) options.log?.(`moved ${moved} report files from ${options.legacyDir} into the file store`);
  return moved;
}
