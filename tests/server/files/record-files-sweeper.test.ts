// Files of records that are gone: the images of a deleted configuration (rows, then files) and any file under images/
// or tickets/ that no row names, once past the grace period; everything a row still names stays. PGlite, folder store.
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../../server/db/client.ts';
import * as schema from '../../../server/db/schema.ts';
import type { FileStore } from '../../../server/files/file-store.ts';
import { createFolderStore } from '../../../server/files/folder-store.ts';
import { sweepRecordFiles } from '../../../server/files/record-files-sweeper.ts';
import { createTestDatabase, fixture, insertFixtureWorld } from '../support.ts';

const keysUnder = async (files: FileStore, prefix: string) => {
  const keys: string[] = [];
  for await (const file of files.list(prefix)) keys.push(file.key);
  return keys.sort();
};

describe('the record files sweeper', () => {
  let database: Database;
  let files: FileStore;
  beforeAll(async () => {
    database = await createTestDatabase('pglite');
    await insertFixtureWorld(database);
    files = createFolderStore(await mkdtemp(join(tmpdir(), 'record-files-')));
  });
  afterAll(async () => database?.close());

  const put = (key: string) => files.put(key, Readable.from([Buffer.from(`bytes of ${key}`)]), { contentType: 'application/octet-stream' });
  const image = (reference: string, configurationId: string | null) => ({
    reference,
    businessId: 'B1',
    merchantId: 'M1a',
    configurationId,
    mimeType: 'image/png',
    width: 1,
    height: 1,
    byteSize: 1,
    filePath: `images/${reference}`,
    createdBy: fixture.users.admin,
  });

  it('removes what no record names any more, past the grace period, and keeps the rest', async () => {
    await database.db.insert(schema.images).values([image('IMGKEPT', 'C-M1a'), image('IMGBUSINESS', null), image('IMGGONECONFIG', 'C-DELETED')]);
    await database.db.insert(schema.tickets).values({
      id: 'TCKSWEEP',
      businessId: 'B1',
      merchantId: 'M1a',
      createdBy: fixture.users.admin,
      type: 'general',
      status: 'Open',
      priority: 'Low',
      subject: 's',
      description: 'd',
    });
    await database.db.insert(schema.ticketAttachments).values({
      id: 'TCAKEPT',
      ticketId: 'TCKSWEEP',
      fileName: 'a.pdf',
      mimeType: 'application/pdf',
      size: 10,
      storageKey: 'tickets/TCKSWEEP/TCAKEPT',
      uploadedBy: fixture.users.admin,
    });
    for (const key of [
      'images/IMGKEPT',
      'images/IMGBUSINESS',
      'images/IMGGONECONFIG',
      'images/IMGNOROW',
      'tickets/TCKSWEEP/TCAKEPT',
      'tickets/TCKDELETED/TCAGONE',
    ])
      await put(key);

    // Within the grace period nothing unnamed is touched (a node may be between its put and its commit).
    const early = await sweepRecordFiles({ database, files, graceMs: 60_000 });
    expect(early).toEqual({ imageRows: 1, images: 0, attachments: 0 });
    expect(await keysUnder(files, 'images/')).toHaveLength(4);

    const later = new Date(Date.now() + 3_600_000);
    const swept = await sweepRecordFiles({ database, files, graceMs: 60_000, now: later });
    expect(swept).toEqual({ imageRows: 0, images: 2, attachments: 1 });
    expect(await keysUnder(files, 'images/')).toEqual(['images/IMGBUSINESS', 'images/IMGKEPT']);
    expect(await keysUnder(files, 'tickets/')).toEqual(['tickets/TCKSWEEP/TCAKEPT']);
    expect((await database.db.select().from(schema.images)).map((row) => row.reference).sort()).toEqual(['IMGBUSINESS', 'IMGKEPT']);
    // Again: nothing more to do.
    expect(await sweepRecordFiles({ database, files, graceMs: 60_000, now: later })).toEqual({ imageRows: 0, images: 0, attachments: 0 });
  });
});
