// Shared by the fault suites that kill the server during an export: queue one through the real API, wait until the
// worker is mid-file, and after a restart prove the job finished exactly once with a complete, parseable file.
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import { expect } from 'vitest';
import type { ServerProcess } from '../../scripts/server-process.ts';
import { parseCsv } from '../server/reports/csv-reader.ts';

export const everyColumn = [
  'date',
  'reference',
  'merchant',
  'amount',
  'currency',
  'status',
  'paymentMethod',
  'channel',
  'ewalletType',
  'kind',
  'paymentJobReference',
  'parentReference',
  'business',
  'merchantId',
  'customerEmail',
  'maskedCardNumber',
  'declineReason',
];
/** Rows per export batch for the servers these suites start: small, so an export lasts long enough to be killed. */
export const exportBatchSize = 10;
/** The lease is 60 s; a restarted server must not wait for it. */
const recoveryBudgetMs = 30_000;

export type Report = {
  id: string;
  status: string;
  attempts: number;
  processedRows: number;
  totalRows: number | null;
  fileName: string | null;
  error: string | null;
};

export function api(server: ServerProcess, token: string) {
  return (method: string, path: string, body?: unknown) =>
    fetch(`${server.url}/api/portal${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, 'time-zone': 'Europe/London', ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
}

export const pause = (ms: number) => new Promise((done) => setTimeout(done, ms));

/** The acknowledged user-setting writes (key → value) a restarted server no longer answers with. */
export async function missingWrites(call: ReturnType<typeof api>, acknowledged: ReadonlyMap<string, string>): Promise<string[]> {
  const missing: string[] = [];
  for (const [key, value] of acknowledged) {
    const response = await call('GET', `/user-settings/${key}`);
    if (response.status !== 200 || ((await response.json()) as { value: string }).value !== value) missing.push(key);
  }
  return missing;
}

export async function until<T>(probe: () => Promise<T | null | undefined | false>, timeoutMs: number, what: () => string): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what()}`);
    await pause(25);
  }
}

/** The data rows of a downloaded export (header left out), each as its cells' text. */
async function downloadedRows(response: Response, fileType: 'csv' | 'xlsx'): Promise<string[][]> {
  const bytes = Buffer.from(await response.arrayBuffer());
  if (fileType === 'csv') {
    const text = bytes.toString('utf8');
    expect(text.charCodeAt(0), 'byte-order mark').toBe(0xfeff);
    const [header, ...rows] = parseCsv(text.slice(1));
    expect(header).toHaveLength(everyColumn.length);
    return rows;
  }
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(bytes as unknown as ArrayBuffer);
  expect(workbook.worksheets).toHaveLength(1);
  const rows: string[][] = [];
  workbook.worksheets[0]?.eachRow((row, number) => {
    if (number <= 1) return;
    rows.push(
      everyColumn.map((_, index) => {
        const value = row.getCell(index + 1).value;
        return value instanceof Date ? value.toISOString() : String(value ?? '');
      }),
    );
  });
  return rows;
}

const occurrences = (text: string, needle: string) => text.split(needle).length - 1;

export type Call = ReturnType<typeof api>;
export type QueuedExports = { big: { reportId: string; totalRows: number }; small: { reportId: string; totalRows: number }; fileType: 'csv' | 'xlsx' };

/** A big export of every column (the one to kill) and a small one queued behind it, as an internal admin. */
export async function queueExports(call: Call, fileType: 'csv' | 'xlsx'): Promise<QueuedExports> {
  const queued = await call('POST', '/transactions/full/reports', { fileType, columns: everyColumn });
  expect(queued.status).toBe(202);
  const big = (await queued.json()) as { reportId: string; totalRows: number };
  expect(big.totalRows).toBeGreaterThan(20 * exportBatchSize);
  // The one worker takes it only after the big one.
  const smallQueued = await call('POST', '/transactions/full/reports', {
    fileType: 'csv',
    columns: ['reference', 'amount'],
    filters: { status: '[eq]declined' },
  });
  expect(smallQueued.status).toBe(202);
  return { big, small: (await smallQueued.json()) as { reportId: string; totalRows: number }, fileType };
}

/** Waits until the big export has written a few batches and is not finished: the moment to kill the server. */
export async function waitUntilMidFile(call: Call, exports: QueuedExports, server: ServerProcess): Promise<Report> {
  return until(
    async () => {
      const view = (await (await call('GET', `/reports/${exports.big.reportId}`)).json()) as Report;
      expect(view.status, `the export must still be running when the server is killed:\n${server.output()}`).not.toBe('generated');
      return view.status === 'generating' && view.processedRows >= 2 * exportBatchSize ? view : null;
    },
    90_000,
    () => `the export's progress\n${server.output()}`,
  );
}

/** Report files the server's folder store (${DATA_DIR}/files) holds, and its puts under way (.incoming). */
const listed = (folder: string) => (existsSync(folder) ? readdirSync(folder) : []);
export const finishedFiles = (filesDir: string) => listed(join(filesDir, 'reports')).sort();
export const partialFiles = (filesDir: string) => listed(join(filesDir, '.incoming'));

/**
 * What the file store holds right after the kill: no report file, and at most the killed attempt's unfinished put
 * (the put opens its temporary file while the first rows are already on their way, so a kill may come before it).
 */
export function expectKilledMidFile(filesDir: string, atKill: Report): void {
  expect(atKill.attempts).toBe(1);
  expect(partialFiles(filesDir).length).toBeLessThanOrEqual(1);
  expect(finishedFiles(filesDir)).toEqual([]);
}

/**
 * After the restart: both reports generated within the budget, the big one by a second attempt and only once (one
 * reclaim, one completion, one file, no partial file), its download holding every counted row exactly once.
 * Returns how long the recovery took from the restarted server's first answer.
 */
export async function expectExportsFinishedOnce(options: {
  call: Call;
  exports: QueuedExports;
  filesDir: string;
  first: ServerProcess;
  second: ServerProcess;
}): Promise<number> {
  const {
    call,
    exports: { big, small, fileType },
    filesDir,
    first,
    second,
  } = options;
  const restartedAt = Date.now();
  const reportNow = async (id: string) => (await (await call('GET', `/reports/${id}`)).json()) as Report;
  const ids = [big.reportId, small.reportId];
  await until(
    async () => {
      const views = await Promise.all(ids.map(reportNow));
      for (const view of views) expect(view.status, view.error ?? '').not.toBe('failed');
      return views.every((view) => view.status === 'generated');
    },
    recoveryBudgetMs,
    () => `the reports to be generated after the restart\n${second.output()}`,
  );
  const recoveryMs = Date.now() - restartedAt;

  // Time for the worker to run anything twice if it were going to (it polls every second).
  await pause(2500);
  expect(await reportNow(big.reportId)).toMatchObject({
    status: 'generated',
    attempts: 2,
    processedRows: big.totalRows,
    totalRows: big.totalRows,
    error: null,
  });
  expect(await reportNow(small.reportId)).toMatchObject({ status: 'generated', attempts: 1, processedRows: small.totalRows });
  const list = (await (await call('GET', '/reports?pagesize=100')).json()) as { results: Report[] };
  expect(list.results.map((row) => row.id).sort()).toEqual([...ids].sort());

  // One finished file per report, from the attempt that completed; no unfinished put of any attempt.
  expect(finishedFiles(filesDir)).toEqual([`${big.reportId}-2.${fileType}`, `${small.reportId}-1.csv`].sort());
  expect(partialFiles(filesDir)).toEqual([]);
  const output = second.output();
  expect(occurrences(output, `${big.reportId}: reclaimed from`)).toBe(1);
  expect(occurrences(output, `${big.reportId}: generated`)).toBe(1);
  expect(first.output()).not.toContain(`${big.reportId}: generated`);

  const download = await call('GET', `/reports/${big.reportId}/download`);
  expect(download.status).toBe(200);
  const rows = await downloadedRows(download, fileType);
  expect(rows).toHaveLength(big.totalRows);
  for (const row of rows) expect(row).toHaveLength(everyColumn.length);
  expect(new Set(rows.map((row) => row[1])).size, 'every transaction once').toBe(big.totalRows);
  const dates = rows.map((row) => row[0] ?? '');
  expect(dates, 'newest first, as the list').toEqual([...dates].sort().reverse());
  return recoveryMs;
}
