// Bench (not a timed test): a full CSV export of 1,000,000 transactions through each FileStore back end.
//
//   npx node scripts/bench/export-store.ts [--transactions 1000000] [--backends folder,s3] [--port 3310]
//
// Creates a scratch PostgreSQL database (TEST_DATABASE_URL or the local server), seeds it once with the demo world
// and N transactions (server/db/seed-cli.ts), then for each back end starts a real server process
// (scripts/server-process.ts) over it — the folder under a fresh DATA_DIR, or s3rver started here — queues one
// export of every transaction with every column as the internal admin, waits until it is generated, downloads it
// through the API, and reports rows per second, file size, download speed and the server process's peak resident
// memory (VmHWM in /proc/<pid>/status) before the export, after it, and after the download. The database is
// dropped at the end.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import pg from 'pg';
import { signIn } from '../oidc-sign-in.ts';
import { ensurePostgres } from '../postgres.ts';
import { startServer, type ServerProcess } from '../server-process.ts';
import { startS3TestServer, type S3TestServer } from '../../tests/server/files/s3-test-server.ts';
import { everyColumn } from '../../tests/faults/export-check.ts';

type Backend = 'folder' | 's3';

function option(name: string, fallback: string): string {
  const index = process.argv.indexOf(`--${name}`);
  return index >= 0 ? (process.argv[index + 1] ?? fallback) : fallback;
}

const transactions = Number(option('transactions', '1000000'));
const backends = option('backends', 'folder,s3').split(',') as Backend[];
const port = Number(option('port', '3310'));
const root = resolve(import.meta.dirname, '../..');

async function admin(url: string, text: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

/** kB of a /proc/<pid>/status field (VmHWM: peak resident set; VmRSS: now). */
function memoryKb(pid: number, field: 'VmHWM' | 'VmRSS'): number {
  const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return Number(match?.[1] ?? NaN);
}

const mb = (kb: number) => `${(kb / 1024).toFixed(0)} MB`;

async function seed(databaseUrl: string): Promise<void> {
  const started = Date.now();
  await new Promise<void>((done, fail) => {
    const child = spawn(process.execPath, [join(root, 'server/db/seed-cli.ts'), '--transactions', String(transactions), '--no-ledger'], {
      cwd: root, env: { ...process.env, DATABASE_URL: databaseUrl }, stdio: ['ignore', 'inherit', 'inherit'],
    });
    child.once('exit', (code) => (code === 0 ? done() : fail(new Error(`seed exited with ${code}`))));
  });
  console.log(`seeded ${transactions.toLocaleString('en-GB')} transactions in ${((Date.now() - started) / 1000).toFixed(0)} s`);
}

async function exportThrough(backend: Backend, databaseUrl: string): Promise<string> {
  let s3: S3TestServer | null = null;
  let server: ServerProcess | null = null;
  try {
    if (backend === 's3') s3 = await startS3TestServer();
    const dataDir = mkdtempSync(join(tmpdir(), 'portal-bench-store-'));
    server = await startServer({ port, dataDir, env: { DATABASE_URL: databaseUrl, ...(s3?.env ?? {}) } });
    const pid = server.child.pid ?? 0;
    const { accessToken } = await signIn(server.url, 'admin@demo.test');
    const call = (method: string, path: string, body?: unknown) => fetch(`${server!.url}/api/portal${path}`, {
      method,
      headers: { authorization: `Bearer ${accessToken}`, 'time-zone': 'Europe/London', ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const peakBefore = memoryKb(pid, 'VmHWM');
    const queuedAt = performance.now();
    const queued = await call('POST', '/transactions/full/reports', { fileType: 'csv', columns: everyColumn });
    if (queued.status !== 202) throw new Error(`queueing answered ${queued.status}: ${await queued.text()}`);
    const { reportId, totalRows } = (await queued.json()) as { reportId: string; totalRows: number };
    let report: { status: string; processedRows: number; fileSize: number | null; error: string | null };
    for (;;) {
      report = (await (await call('GET', `/reports/${reportId}`)).json()) as typeof report;
      if (report.status === 'generated' || report.status === 'failed') break;
      await new Promise((done) => setTimeout(done, 250));
    }
    const seconds = (performance.now() - queuedAt) / 1000;
    if (report.status !== 'generated') throw new Error(`the export failed: ${report.error}\n${server.output()}`);
    const peakAfterExport = memoryKb(pid, 'VmHWM');

    const downloadStarted = performance.now();
    const download = await call('GET', `/reports/${reportId}/download`);
    let bytes = 0;
    for await (const chunk of download.body ?? []) bytes += (chunk as Uint8Array).length;
    const downloadSeconds = (performance.now() - downloadStarted) / 1000;
    const peakAfterDownload = memoryKb(pid, 'VmHWM');
    if (bytes !== Number(download.headers.get('content-length')) || bytes !== report.fileSize) {
      throw new Error(`download of ${bytes} bytes; Content-Length ${download.headers.get('content-length')}, file ${report.fileSize}`);
    }
    return `| ${backend} | ${totalRows.toLocaleString('en-GB')} | ${seconds.toFixed(1)} s | ${Math.round(totalRows / seconds).toLocaleString('en-GB')} | `
      + `${(bytes / 1024 / 1024).toFixed(0)} MB | ${(bytes / 1024 / 1024 / downloadSeconds).toFixed(0)} MB/s | `
      + `${mb(peakBefore)} | ${mb(peakAfterExport)} | ${mb(peakAfterDownload)} |`;
  } finally {
    await server?.stop();
    await s3?.close();
  }
}

const serverUrl = await ensurePostgres();
if (!serverUrl) throw new Error('no PostgreSQL server reachable');
const name = `portal_bench_store_${randomBytes(4).toString('hex')}`;
const databaseUrl = new URL(serverUrl);
databaseUrl.pathname = `/${name}`;
await admin(serverUrl, `CREATE DATABASE ${name}`);
const lines = [
  '| back end | rows | export (queued → generated) | rows/s | file | download | server peak RSS before | after export | after download |',
  '| --- | --- | --- | --- | --- | --- | --- | --- | --- |',
];
try {
  await seed(databaseUrl.toString());
  for (const backend of backends) {
    lines.push(await exportThrough(backend, databaseUrl.toString()));
    console.log(lines.at(-1));
  }
} finally {
  await admin(serverUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => undefined);
}
console.log(`\n${lines.join('\n')}`);
