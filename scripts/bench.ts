// npm run bench: measures the portal on this machine and prints the figures as a markdown table (also written to
// .bench/results.md). Not part of npm test. Sections: --only api,browser,lighthouse,hostedpage,export,ledger (default all), search (opt-in); --pglite-dir, --skip-pglite, --skip-postgres,
// --transactions N (default 2,000,000), --load-seconds N (default 30; 0 skips the load rows), --cases TEXT (only the API/raw
// cases whose name contains it, e.g. 'payment job'), --database NAME (the PostgreSQL database, default portal_bench).
// With load rows, the api section also runs each load row's raw twin (the call's statements replayed at the same
// concurrency; --skip-raw-load leaves them out) and, on PostgreSQL, one node against --nodes N (default 3; 1 skips)
// real server processes behind the round-robin proxy (--nodes-port N, default 3330: the proxy; the nodes the next ports).
// export: transactions exports with every column, queued → generated through a real server process, CSV and XLSX, on
// PostgreSQL (--export-transactions N, default 1,000,000, in its own kept database portal_bench_export) and on PGlite
// (the demo world's partner export, about 80,000 rows, kept in .bench/pglite-export), rows/s and the server's peak
// memory above idle; --export-before PATH runs every case on another checkout too (the code before a change).
// ledger: the settlement ledger (scripts/bench/ledger.ts): in its own kept PostgreSQL database (--ledger-database NAME,
// default portal_bench_ledger), seeded once WITH the ledger (--ledger-transactions N, default 2,000,000): the seed's
// time and its ledger and cut-off phases, then the statement page, balance chart and camt.053 of a year; the same
// figures on PGlite for the demo world kept in .bench/pglite-ledger.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { resolve } from 'node:path';
import { benchApi } from './bench/api.ts';
import { benchBrowser } from './bench/browser.ts';
import { benchExport } from './bench/export-store.ts';
import { benchHostedPage } from './bench/hosted-page.ts';
import { benchLedger } from './bench/ledger.ts';
import { benchLighthouse } from './bench/lighthouse.ts';
import { benchSearch } from './bench/search.ts';
import { ensurePostgres } from './postgres.ts';

const root = resolve(import.meta.dirname, '..');
const args = process.argv.slice(2);
const option = (name: string) => {
  const index = args.indexOf(name);
  return index >= 0 ? args[index + 1] : undefined;
};
const only = new Set((option('--only') ?? 'api,browser,lighthouse,hostedpage,export,ledger').split(','));
const transactions = Number(option('--transactions') ?? 2_000_000);
const loadSeconds = Number(option('--load-seconds') ?? 30);
const caseFilter = option('--cases');
const apiLoad = { rawLoad: !args.includes('--skip-raw-load'), nodes: Number(option('--nodes') ?? 3), nodesPort: Number(option('--nodes-port') ?? 3330) };
const benchDatabase = option('--database') ?? 'portal_bench';
if (!/^[a-z_][a-z0-9_]*$/.test(benchDatabase)) throw new Error('--database: lower-case letters, digits and _ only');
const sections: string[] = [];

/** Linux's CPU counters since boot: all time, and the time the hypervisor gave another guest ('steal'). */
function cpuTicks(): { total: number; steal: number } | null {
  if (!existsSync('/proc/stat')) return null;
  const fields = (readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? '').trim().split(/\s+/).slice(1).map(Number);
  return { total: fields.slice(0, 8).reduce((sum, value) => sum + value, 0), steal: fields[7] ?? 0 };
}

/**
 * Runs a section and appends the share of CPU time taken by the hypervisor meanwhile: on a shared virtual machine
 * the same code measured minutes apart can differ by 2×, and this says how much of the machine the run had.
 */
async function measured(run: () => Promise<string>): Promise<void> {
  const before = cpuTicks();
  const section = await run();
  const after = cpuTicks();
  const share = before && after && after.total > before.total ? (100 * (after.steal - before.steal)) / (after.total - before.total) : null;
  sections.push(share === null ? section : `${section}\n\nCPU time stolen by the hypervisor during this section: ${share.toFixed(1)}%.`);
}

if (only.has('browser')) await measured(benchBrowser);
if (only.has('lighthouse')) await measured(benchLighthouse);
// The hosted page editor: keystroke to preview, and the image pipeline for a 4,000 × 3,000 JPEG.
if (only.has('hostedpage')) await measured(() => benchHostedPage());
if (only.has('api')) {
  const postgres = args.includes('--skip-postgres') ? null : await ensurePostgres();
  if (args.includes('--skip-postgres')) {
    sections.push('### API on PostgreSQL\n\nSkipped (--skip-postgres).');
  } else if (postgres) {
    const url = new URL(postgres);
    url.pathname = `/${benchDatabase}`;
    const pg = await import('pg');
    const admin = new pg.default.Client({ connectionString: postgres });
    await admin.connect();
    const exists = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [benchDatabase]);
    if (exists.rowCount === 0) await admin.query(`CREATE DATABASE ${benchDatabase}`);
    await admin.end();
    await measured(() => benchApi({ kind: 'postgres', url: url.toString(), transactions, loadSeconds, iterations: 200, cases: caseFilter, ...apiLoad }));
  } else {
    sections.push('### API on PostgreSQL\n\nNo PostgreSQL server reachable: skipped.');
  }
  if (!args.includes('--skip-pglite')) {
    await measured(() =>
      benchApi({
        kind: 'pglite',
        dataDir: option('--pglite-dir') ?? resolve(root, '.bench/pglite'),
        transactions,
        loadSeconds,
        iterations: 200,
        cases: caseFilter,
        ...apiLoad,
      }),
    );
  }
}

// The palette's record search: opt in with --only search (it shares the api section's data sets).
if (only.has('search')) {
  const postgres = args.includes('--skip-postgres') ? null : await ensurePostgres();
  if (postgres) {
    const url = new URL(postgres);
    url.pathname = `/${benchDatabase}`;
    await measured(() => benchSearch({ kind: 'postgres', url: url.toString(), transactions, iterations: 200 }));
  }
  if (!args.includes('--skip-pglite')) {
    await measured(() => benchSearch({ kind: 'pglite', dataDir: option('--pglite-dir') ?? resolve(root, '.bench/pglite'), transactions, iterations: 200 }));
  }
}

if (only.has('export')) {
  const exportTransactions = Number(option('--export-transactions') ?? 1_000_000);
  await measured(() =>
    benchExport({
      transactions: exportTransactions,
      backends: ['folder'],
      fileTypes: ['csv', 'xlsx'],
      port: Number(option('--export-port') ?? 3310),
      database: `portal_bench_export${exportTransactions === 1_000_000 ? '' : `_${exportTransactions}`}`,
      beforeRoot: option('--export-before'),
      postgres: !args.includes('--skip-postgres'),
      pglite: !args.includes('--skip-pglite'),
      pgliteDir: resolve(root, '.bench/pglite-export'),
    }),
  );
}

if (only.has('ledger')) {
  const ledgerTransactions = Number(option('--ledger-transactions') ?? 2_000_000);
  await measured(() =>
    benchLedger({
      transactions: ledgerTransactions,
      database: option('--ledger-database') ?? `portal_bench_ledger${ledgerTransactions === 2_000_000 ? '' : `_${ledgerTransactions}`}`,
      postgres: !args.includes('--skip-postgres'),
      pgliteDir: args.includes('--skip-pglite') ? undefined : resolve(root, '.bench/pglite-ledger'),
    }),
  );
}

const header = `## Benchmarks — ${new Date().toISOString().slice(0, 10)}, ${cpus().length} × ${cpus()[0]?.model.trim() ?? 'CPU'}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}`;
const report = `${header}\n\n${sections.join('\n\n')}\n`;
mkdirSync(resolve(root, '.bench'), { recursive: true });
writeFileSync(resolve(root, '.bench/results.md'), report);
console.log(`\n${report}`);
