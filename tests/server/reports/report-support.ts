// Shared by the worker, queue-endpoint and crash suites: a database with the fixture world and extra
// transactions, a FileStore of either back end, and helpers to queue an export through the API and read a generated CSV.
import { existsSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { expect } from 'vitest';
import type { Database } from '../../../server/db/client.ts';
import * as schema from '../../../server/db/schema.ts';
import type { FileStore } from '../../../server/files/file-store.ts';
import { createFolderStore } from '../../../server/files/folder-store.ts';
import { createS3Store } from '../../../server/files/s3-store.ts';
import type { createTestApp } from '../support.ts';
import { startS3TestServer, type S3TestServer } from '../files/s3-test-server.ts';

export const newFilesDir = () => mkdtempSync(join(tmpdir(), 'portal-reports-'));

export type FileBackend = 'folder' | 's3';
/** s3rver runs in the test's own process and costs little: the report suites run on both back ends. */
export const fileBackends: FileBackend[] = ['folder', 's3'];

/** A store of the back end; root is the folder store's folder (null on S3). */
export type TestFileStore = { files: FileStore; root: string | null; s3: S3TestServer | null; close: () => Promise<void> };

export async function openTestFileStore(backend: FileBackend): Promise<TestFileStore> {
  if (backend === 'folder') {
    const root = join(newFilesDir(), 'files');
    return { files: createFolderStore(root), root, s3: null, close: async () => undefined };
  }
  const s3 = await startS3TestServer();
  const files = createS3Store({
    bucket: s3.bucket,
    clientConfig: {
      endpoint: s3.endpoint,
      region: s3.env.AWS_REGION,
      credentials: { accessKeyId: s3.env.AWS_ACCESS_KEY_ID, secretAccessKey: s3.env.AWS_SECRET_ACCESS_KEY },
    },
  });
  return { files, root: null, s3, close: s3.close };
}

export type Caller = ReturnType<typeof createTestApp>['call'];

export async function queueExport(call: Caller, userId: string, path: string, body: Record<string, unknown>, headers: Record<string, string> = {}) {
  const response = await call(userId, 'POST', path, { fileType: 'csv', columns: ['reference'], ...body }, headers);
  expect(response.status, await response.clone().text()).toBe(202);
  return (await response.json()) as { reportId: string; totalRows: number };
}

export async function reportRow(database: Database, id: string) {
  const [row] = await database.db.select().from(schema.queuedReports).where(eq(schema.queuedReports.id, id));
  if (!row) throw new Error(`no report ${id}`);
  return row;
}

/**
 * The reports' rows once every one is generated, or after `looks` looks 20 ms apart (about 30 s) if not: counted,
 * not read off the clock.
 */
export async function rowsOnceGenerated(database: Database, ids: readonly string[], looks = 1500) {
  for (let look = 0; ; look += 1) {
    const rows = await Promise.all(ids.map((id) => reportRow(database, id)));
    if (look >= looks || rows.every((row) => row.status === 'generated')) return rows;
    await new Promise((done) => setTimeout(done, 20));
  }
}

export async function storedBytes(files: FileStore, key: string): Promise<Buffer> {
  const file = await files.get(key);
  if (!file) throw new Error(`no stored file ${key}`);
  const chunks: Buffer[] = [];
  for await (const chunk of file.stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** Rows of a stored CSV the writer made (no quoted newlines in these fixtures), without the byte-order mark. */
export async function csvRows(files: FileStore, key: string): Promise<string[][]> {
  const text = (await storedBytes(files, key)).toString('utf8');
  expect(text.charCodeAt(0)).toBe(0xfeff);
  return text
    .slice(1)
    .split('\r\n')
    .filter((line) => line !== '')
    .map((line) => line.split(','));
}

/** Report files in the store (keys under reports/), sorted. */
export async function storedReportKeys(files: FileStore): Promise<string[]> {
  const keys: string[] = [];
  for await (const file of files.list('reports/')) keys.push(file.key);
  return keys.sort();
}

/**
 * Unfinished puts the folder store holds (.incoming). S3 shows none until a multipart upload starts, and s3rver cannot
 * list them, so on S3 the suites check the stored objects alone.
 */
export function incompletePuts(store: TestFileStore): string[] {
  if (!store.root) return [];
  const folder = join(store.root, '.incoming');
  return existsSync(folder) ? readdirSync(folder) : [];
}
