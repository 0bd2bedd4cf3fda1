// Shared by the worker, queue-endpoint and crash suites: a database with the fixture world and extra
// transactions, a reports folder, and helpers to queue an export through the API and read a generated CSV.
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { expect } from 'vitest';
import type { Database } from '../../../server/db/client.ts';
import * as schema from '../../../server/db/schema.ts';
import { createTestApp } from '../support.ts';

export const newFilesDir = () => mkdtempSync(join(tmpdir(), 'portal-reports-'));

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

/** Rows of a CSV the writer made (no quoted newlines in these fixtures), without the byte-order mark. */
export function csvRows(path: string): string[][] {
  const text = readFileSync(path, 'utf8');
  expect(text.charCodeAt(0)).toBe(0xfeff);
  return text.slice(1).split('\r\n').filter((line) => line !== '').map((line) => line.split(','));
}

/** Finished files in the reports folder (partial files live in .partial). */
export const finishedFiles = (filesDir: string) => readdirSync(filesDir).filter((name) => !name.startsWith('.'));
export const partialFiles = (filesDir: string) => {
  try {
    return readdirSync(join(filesDir, '.partial'));
  } catch {
    return [];
  }
};
