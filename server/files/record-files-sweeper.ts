// Files of records that are gone, removed by any node at any time (housekeeping, server/jobs/): the images of
// configurations deleted since (their rows go first, then their files), and any file under images/ or tickets/ that
// no row names any more (a ticket deleted with its attachments, an image replaced, a node that died between its put
// and its commit), once older than the grace period. Report files have their own sweeper (server/reports/).
import { and, inArray, isNotNull, sql } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import { images, ticketAttachments } from '../db/schema.ts';
import type { FileStore } from './file-store.ts';
import { sweepOrphanFiles } from './sweeper.ts';

export type RecordFilesSweep = { imageRows: number; images: number; attachments: number };

export async function sweepRecordFiles(options: { database: Database; files: FileStore; graceMs?: number; now?: Date }): Promise<RecordFilesSweep> {
  const { db } = options.database;
  const graceMs = options.graceMs ?? 10 * 60_000;
  const gone = await db
    .delete(images)
    .where(and(isNotNull(images.configurationId), sql`NOT EXISTS (SELECT 1 FROM configurations c WHERE c.id = ${images.configurationId})`))
    .returning({ reference: images.reference });
  const imageFiles = await sweepOrphanFiles(
    options.files,
    {
      prefix: 'images/',
      graceMs,
      referenced: async (keys) =>
        new Set(
          (
            await db
              .select({ key: images.filePath })
              .from(images)
              .where(inArray(images.filePath, [...keys]))
          ).map((row) => row.key),
        ),
    },
    options.now,
  );
  const attachmentFiles = await sweepOrphanFiles(
    options.files,
    {
      prefix: 'tickets/',
      graceMs,
      referenced: async (keys) =>
        new Set(
          (
            await db
              .select({ key: ticketAttachments.storageKey })
              .from(ticketAttachments)
              .where(inArray(ticketAttachments.storageKey, [...keys]))
          ).map((row) => row.key),
        ),
    },
    options.now,
  );
  return { imageRows: gone.length, images: imageFiles, attachments: attachmentFiles };
}
