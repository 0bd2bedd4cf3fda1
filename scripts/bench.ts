// npm run bench: measures the portal on this machine and prints the figures as a markdown table (also written to
// .bench/results.md). Not part of npm test. Sections: --only api,browser,lighthouse (default all); --pglite-dir, --skip-pglite, --skip-postgres,
// --transactions N (default 2,000,000), --load-seconds N (default 30).
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { resolve } from 'node:path';
import { benchApi } from './bench/api.ts';
import { benchBrowser } from './bench/browser.ts';
import { benchLighthouse } from './bench/lighthouse.ts';
import { ensurePostgres } from './postgres.ts';

const root = resolve(import.meta.dirname, '..');
const args = process.argv.slice(2);
const option = (name: string) => { const index = args.indexOf(name); return index >= 0 ? args[index + 1] : undefined; };
const only = new Set((option('--only') ?? 'api,browser,lighthouse').split(','));
const transactions = Number(option('--transactions') ?? 2_000_000);
const loadSeconds = Number(option('--load-seconds') ?? 30);
const sections: string[] = [];

if (only.has('browser')) sections.push(await benchBrowser());
if (only.has('lighthouse')) sections.push(await benchLighthouse());
if (only.has('api')) {
  const postgres = args.includes('--skip-postgres') ? null : await ensurePostgres();
  if (args.includes('--skip-postgres')) {
    sections.push('### API on PostgreSQL\n\nSkipped (--skip-postgres).');
  } else if (postgres) {
    const url = new URL(postgres);
    url.pathname = '/portal_bench';
    const pg = await import('pg');
    const admin = new pg.default.Client({ connectionString: postgres });
    await admin.connect();
    const exists = await admin.query("SELECT 1 FROM pg_database WHERE datname = 'portal_bench'");
    if (exists.rowCount === 0) await admin.query('CREATE DATABASE portal_bench');
    await admin.end();
    sections.push(await benchApi({ kind: 'postgres', url: url.toString(), transactions, loadSeconds, iterations: 200 }));
  } else {
    sections.push('### API on PostgreSQL\n\nNo PostgreSQL server reachable: skipped.');
  }
  if (!args.includes('--skip-pglite')) {
    sections.push(await benchApi({ kind: 'pglite', dataDir: option('--pglite-dir') ?? resolve(root, '.bench/pglite'), transactions, loadSeconds, iterations: 200 }));
  }
}

const header = `## Benchmarks — ${new Date().toISOString().slice(0, 10)}, ${cpus().length} × ${cpus()[0]?.model.trim() ?? 'CPU'}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}`;
const report = `${header}\n\n${sections.join('\n\n')}\n`;
mkdirSync(resolve(root, '.bench'), { recursive: true });
writeFileSync(resolve(root, '.bench/results.md'), report);
console.log(`\n${report}`);
