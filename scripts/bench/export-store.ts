// Bench (not a timed test): full exports of transactions with every column, end to end through a real server.
//
//   npx node scripts/bench/export-store.ts [--transactions 1000000] [--backends folder,s3] [--file-types csv,xlsx]
//     [--port 3310] [--database NAME] [--before-root PATH [--only before|after]] [--pglite] [--pglite-dir DIR] [--skip-postgres]
//
// PostgreSQL: a scratch database (TEST_DATABASE_URL or the local server; --database NAME keeps and reuses one) is
// seeded once with the demo world and N transactions (server/seed/seed-cli.ts); for each back end and file type a
// real server process (scripts/server-process.ts) starts over it — the folder under a fresh DATA_DIR, or s3rver
// started here — queues one export of every transaction with every column as the internal admin, waits until it is
// generated (queued → generated is the time measured, from the report's own queuedAt and generatedAt; the time the
// polls saw is beside it), downloads it through the API and checks its size.
// PGlite (--pglite): the demo world (200,000 transactions) in a kept folder, exported as its partner (PRT0001,
// about 80,000 rows), CSV and XLSX.
// Memory: the server process's resident set when idle just before queueing (VmRSS), and its peak (VmHWM, reset
// through /proc/<pid>/clear_refs when the kernel allows, else sampled every 50 ms) during the export and during the
// download, as MB above that idle figure. Responsiveness: the round trips of the status polls (every 100 ms) while the
// export runs, which wait whenever the export holds the server's thread.
// --before-root PATH runs every case on another checkout too (a copy of the code before a change), in the same run,
// alternating, so the before and after figures come from the same machine under the same load.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import pg from 'pg';
import { signIn } from '../oidc-sign-in.ts';
import { ensurePostgres } from '../postgres.ts';
import { startServer, type ServerProcess } from '../server-process.ts';
import { startS3TestServer, type S3TestServer } from '../../tests/server/files/s3-test-server.ts';
import { everyColumn } from '../../tests/faults/export-check.ts';

type Backend = 'folder' | 's3';
type FileType = 'csv' | 'xlsx';

export type ExportBenchOptions = {
  transactions: number;
  backends: Backend[];
  fileTypes: FileType[];
  port: number;
  /** a kept PostgreSQL database to seed once and reuse; default a scratch one dropped at the end */
  database?: string | undefined;
  /** another checkout to run every case on as well (the "before") */
  beforeRoot?: string | undefined;
  /** with beforeRoot: run only this side (default both) */
  only?: 'before' | 'after' | undefined;
  postgres: boolean;
  pglite: boolean;
  pgliteDir: string;
  log?: (line: string) => void;
};

const root = resolve(import.meta.dirname, '../..');

async function admin(url: string, text: string): Promise<pg.QueryResult> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await client.query(text);
  } finally {
    await client.end();
  }
}

/** kB of a /proc/<pid>/status field (VmHWM: peak resident set; VmRSS: now). */
function memoryKb(pid: number, field: 'VmHWM' | 'VmRSS'): number {
  const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return Number(match?.[1] ?? NaN);
}

/** The peak resident set of a process over a stretch of time, from now on. */
function peakWatch(pid: number): { stop: () => number } {
  let resettable = false;
  try {
    // 5: reset the peak resident set (VmHWM) to the current one (Linux 4.0+, the process's owner).
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
    resettable = true;
  } catch {
    /* sampled instead */
  }
  let sampled = memoryKb(pid, 'VmRSS');
  const timer = setInterval(() => {
    try {
      sampled = Math.max(sampled, memoryKb(pid, 'VmRSS'));
    } catch {
      /* exited */
    }
  }, 50);
  return {
    stop: () => {
      clearInterval(timer);
      return Math.max(sampled, resettable ? memoryKb(pid, 'VmHWM') : 0);
    },
  };
}

/** p50 / p95 / max of the polls' milliseconds, and how many. */
function pollFigures(polls: number[]): string {
  const sorted = [...polls].sort((a, b) => a - b);
  const at = (share: number) => sorted[Math.min(sorted.length - 1, Math.floor(share * sorted.length))] ?? NaN;
  return `${at(0.5).toFixed(0)} / ${at(0.95).toFixed(0)} / ${(sorted.at(-1) ?? NaN).toFixed(0)} ms (${sorted.length})`;
}

const mb = (kb: number) => `${(kb / 1024).toFixed(0)} MB`;
const load = () =>
  loadavg()
    .map((value) => value.toFixed(2))
    .join(' / ');

async function seedPostgres(databaseUrl: string, transactions: number, log: (line: string) => void): Promise<void> {
  const started = Date.now();
  await new Promise<void>((done, fail) => {
    const child = spawn(process.execPath, [join(root, 'server/seed/seed-cli.ts'), '--transactions', String(transactions), '--no-ledger'], {
      cwd: root,
      env: { ...process.env, DATABASE_URL: databaseUrl },
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    child.once('exit', (code) => (code === 0 ? done() : fail(new Error(`seed exited with ${code}`))));
  });
  log(`seeded ${transactions.toLocaleString('en-GB')} transactions in ${((Date.now() - started) / 1000).toFixed(0)} s`);
}

type Case = {
  database: 'PostgreSQL' | 'PGlite';
  backend: Backend;
  fileType: FileType;
  code: 'before' | 'after';
  codeRoot: string;
  env: Record<string, string>;
  user: string;
  prefix: string;
  dataDir?: string;
};

async function runCase(options: ExportBenchOptions, item: Case): Promise<string> {
  let s3: S3TestServer | null = null;
  let server: ServerProcess | null = null;
  try {
    if (item.backend === 's3') s3 = await startS3TestServer();
    const dataDir = item.dataDir ?? mkdtempSync(join(tmpdir(), 'portal-bench-store-'));
    server = await startServer({ port: options.port, dataDir, root: item.codeRoot, timeoutMs: 900_000, env: { ...item.env, ...(s3?.env ?? {}) } });
    const pid = server.child.pid ?? 0;
    const { accessToken } = await signIn(server.url, item.user);
    const call = (method: string, path: string, body?: unknown) =>
      fetch(`${server!.url}/api/portal${path}`, {
        method,
        headers: {
          authorization: `Bearer ${accessToken}`,
          'time-zone': 'Europe/London',
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    // Settle: the first start's housekeeping and the sign-in are over before idle is read.
    await new Promise((done) => setTimeout(done, 1500));
    const idle = memoryKb(pid, 'VmRSS');
    const loadBefore = load();
    const exportWatch = peakWatch(pid);
    const queuedAt = performance.now();
    const queued = await call('POST', `${item.prefix}/transactions/full/reports`, { fileType: item.fileType, columns: everyColumn });
    if (queued.status !== 202) throw new Error(`queueing answered ${queued.status}: ${await queued.text()}`);
    const { reportId, totalRows } = (await queued.json()) as { reportId: string; totalRows: number };
    let report: { status: string; processedRows: number; fileSize: number | null; error: string | null; queuedAt: string; generatedAt: string | null };
    // How long the polls took while the export ran: what any other call waited, when the export held the server's thread.
    const polls: number[] = [];
    for (;;) {
      const asked = performance.now();
      report = (await (await call('GET', `/reports/${reportId}`)).json()) as typeof report;
      polls.push(performance.now() - asked);
      if (report.status === 'generated' || report.status === 'failed') break;
      await new Promise((done) => setTimeout(done, 100));
    }
    // Queued → generated as the server recorded them; the polls' view adds up to a poll's interval and round trip.
    const observed = (performance.now() - queuedAt) / 1000;
    const seconds = report.generatedAt ? (Date.parse(report.generatedAt) - Date.parse(report.queuedAt)) / 1000 : observed;
    const exportPeak = exportWatch.stop();
    if (report.status !== 'generated') throw new Error(`the export failed: ${report.error}\n${server.output()}`);

    // What the export left uncollected is still resident when the download starts: its own rise is told apart.
    const downloadStart = memoryKb(pid, 'VmRSS');
    const downloadWatch = peakWatch(pid);
    const downloadStarted = performance.now();
    const download = await call('GET', `/reports/${reportId}/download`);
    let bytes = 0;
    for await (const chunk of download.body ?? []) bytes += (chunk as Uint8Array).length;
    const downloadSeconds = (performance.now() - downloadStarted) / 1000;
    const downloadPeak = downloadWatch.stop();
    if (bytes !== Number(download.headers.get('content-length')) || bytes !== report.fileSize) {
      throw new Error(`download of ${bytes} bytes; Content-Length ${download.headers.get('content-length')}, file ${report.fileSize}`);
    }
    return (
      `| ${item.database} | ${item.fileType.toUpperCase()} | ${item.backend} | ${item.code} | ${totalRows.toLocaleString('en-GB')} | ${seconds.toFixed(2)} s (polled ${observed.toFixed(1)} s) | ` +
      `${Math.round(totalRows / seconds).toLocaleString('en-GB')} | ${(bytes / 1024 / 1024).toFixed(0)} MB | ${(bytes / 1024 / 1024 / downloadSeconds).toFixed(0)} MB/s | ` +
      `${mb(idle)} | +${mb(Math.max(0, exportPeak - idle))} | +${mb(Math.max(0, downloadPeak - idle))} (+${mb(Math.max(0, downloadStart - idle))} at its start) | ` +
      `${pollFigures(polls)} | ${loadBefore} |`
    );
  } finally {
    await server?.stop();
    await s3?.close();
  }
}

export async function benchExport(options: ExportBenchOptions): Promise<string> {
  const log = options.log ?? ((line: string) => console.log(line));
  const lines = [
    '### Exports (transactions, every column, queued → generated, through a real server process)',
    '',
    '| database | file | store | code | rows | export | rows/s | file | download | server RSS idle | peak during export | peak during download | a poll during the export: p50 / p95 / max | load (1/5/15 min) |',
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
  ];
  const codes: { code: 'before' | 'after'; codeRoot: string }[] = [
    ...(options.beforeRoot ? [{ code: 'before' as const, codeRoot: resolve(options.beforeRoot) }] : []),
    { code: 'after' as const, codeRoot: root },
  ].filter((side) => !options.only || side.code === options.only);
  const record = (line: string) => {
    lines.push(line);
    log(line);
  };
  let dropDatabase: (() => Promise<unknown>) | null = null;
  try {
    if (options.postgres) {
      const serverUrl = await ensurePostgres();
      if (!serverUrl) {
        lines.push('', 'No PostgreSQL server reachable: the PostgreSQL rows are skipped.');
      } else {
        const name = options.database ?? `portal_bench_store_${randomBytes(4).toString('hex')}`;
        if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error('--database: lower-case letters, digits and _ only');
        const databaseUrl = new URL(serverUrl);
        databaseUrl.pathname = `/${name}`;
        const exists = (await admin(serverUrl, `SELECT 1 FROM pg_database WHERE datname = '${name}'`)).rowCount !== 0;
        if (!exists) await admin(serverUrl, `CREATE DATABASE ${name}`);
        if (!options.database) dropDatabase = () => admin(serverUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        const seeded = await admin(databaseUrl.toString(), 'SELECT count(*)::int AS count FROM transactions').then(
          (result) => Number(result.rows[0]?.count),
          () => 0,
        );
        if (seeded === 0) await seedPostgres(databaseUrl.toString(), options.transactions, log);
        else if (seeded !== options.transactions) log(`database ${name} holds ${seeded.toLocaleString('en-GB')} transactions (kept as it is)`);
        for (const backend of options.backends) {
          for (const fileType of options.fileTypes) {
            for (const code of codes) {
              record(
                await runCase(options, {
                  database: 'PostgreSQL',
                  backend,
                  fileType,
                  ...code,
                  env: { DATABASE_URL: databaseUrl.toString() },
                  user: 'admin@demo.test',
                  prefix: '',
                }),
              );
            }
          }
        }
      }
    }
    if (options.pglite) {
      // The demo world as a first start seeds it (200,000 transactions), kept between runs: seeding takes minutes.
      mkdirSync(options.pgliteDir, { recursive: true });
      if (!existsSync(join(options.pgliteDir, 'PG_VERSION'))) log(`seeding the demo world into ${options.pgliteDir} (once; a few minutes)…`);
      for (const fileType of options.fileTypes) {
        for (const code of codes) {
          record(
            await runCase(options, {
              database: 'PGlite',
              backend: 'folder',
              fileType,
              ...code,
              env: { SEED_TRANSACTIONS: '200000', DATABASE_URL: '' },
              user: 'partner@demo.test',
              prefix: '/partners/PRT0001',
              dataDir: options.pgliteDir,
            }),
          );
        }
      }
    }
  } finally {
    await dropDatabase?.().catch(() => undefined);
  }
  return lines.join('\n');
}

if (import.meta.main) {
  const option = (name: string, fallback: string): string => {
    const index = process.argv.indexOf(`--${name}`);
    return index >= 0 ? (process.argv[index + 1] ?? fallback) : fallback;
  };
  const flag = (name: string) => process.argv.includes(`--${name}`);
  const table = await benchExport({
    transactions: Number(option('transactions', '1000000')),
    backends: option('backends', 'folder,s3').split(',') as Backend[],
    fileTypes: option('file-types', 'csv').split(',') as FileType[],
    port: Number(option('port', '3310')),
    database: flag('database') ? option('database', '') : undefined,
    beforeRoot: flag('before-root') ? option('before-root', '') : undefined,
    only: flag('only') ? (option('only', 'after') as 'before' | 'after') : undefined,
    postgres: !flag('skip-postgres'),
    pglite: flag('pglite'),
    pgliteDir: option('pglite-dir', resolve(root, '.bench/pglite-export')),
  });
  console.log(`\n${table}`);
}
