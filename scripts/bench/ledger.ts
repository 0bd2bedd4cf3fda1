// Bench (not a timed test): the settlement ledger at scale. A kept PostgreSQL database (default portal_bench_ledger)
// is created when missing and seeded once WITH the ledger (server/seed/seed-cli.ts --transactions N, no --no-ledger);
// a database that holds transactions is reused as it is. The seed's own output is parsed for its total time and the
// times of its ledger phases (the cut-off's reserve holds, releases, payouts, transfers and batch totals among them)
// and kept beside the results (.bench/<database>.seed.log), so a reused database still reports how long its seed took.
// Then the statement page, the balance chart and the camt.053 of a year of the busiest trading account are measured
// in process (scripts/bench/statement-p50.ts). With a PGlite folder, the same figures for the demo world kept there
// (seeded once on first use: 200,000 transactions with the ledger).
//
//   npx node scripts/bench/ledger.ts [--transactions 2000000] [--database portal_bench_ledger] [--calls 30] [--pglite-dir DIR]
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import pg from 'pg';
import { openDatabase, type Database } from '../../server/db/client.ts';
import { ensurePostgres } from '../postgres.ts';
import { statementFigures, type StatementFigures } from './statement-p50.ts';

export type LedgerBenchOptions = {
  transactions: number;
  /** the kept PostgreSQL database: created when missing, seeded when empty, reused otherwise */
  database: string;
  /** calls per statement measure (the chart gets a third of them, at least 5) */
  calls?: number;
  postgres: boolean;
  /** a kept folder for the PGlite demo world; absent: no PGlite rows */
  pgliteDir?: string | undefined;
  log?: (line: string) => void;
};

const root = resolve(import.meta.dirname, '../..');

/** What a seed's output says of its times: the whole seed, and each ledger phase in the order it ran. */
export type SeedTimes = {
  /** from start to end, opening and migrating the database included */
  totalSeconds: number | null;
  /** the seeding itself */
  seedSeconds: number | null;
  transactions: number | null;
  ledgerSeconds: number | null;
  phases: { phase: string; seconds: number }[];
};

/**
 * Reads the seed's '[seed] …' lines: 'seeded N transactions in X s', 'done in X s' (with opening and migrating),
 * 'ledger: X s in all' and every 'ledger: <phase>: X s' (the cut-off's own as 'ledger: cut-off <step>: X s').
 */
export function parseSeedOutput(output: string): SeedTimes {
  const times: SeedTimes = { totalSeconds: null, seedSeconds: null, transactions: null, ledgerSeconds: null, phases: [] };
  for (const raw of output.split('\n')) {
    const line = raw.replace(/^\[seed\] /, '').trim();
    const done = /^done in ([\d.]+) s$/.exec(line);
    const seeded = /^seeded ([\d,]+) transactions in ([\d.]+) s$/.exec(line);
    const ledger = /^ledger: ([\d.]+) s in all$/.exec(line);
    const phase = /^ledger: (.+): ([\d.]+) s$/.exec(line);
    if (done) times.totalSeconds = Number(done[1]);
    else if (seeded) {
      times.transactions = Number((seeded[1] ?? '').replaceAll(',', ''));
      times.seedSeconds = Number(seeded[2]);
    } else if (ledger) times.ledgerSeconds = Number(ledger[1]);
    else if (phase) times.phases.push({ phase: phase[1] ?? '', seconds: Number(phase[2]) });
  }
  return times;
}

async function admin(url: string, text: string, values: unknown[] = []): Promise<pg.QueryResult> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await client.query(text, values);
  } finally {
    await client.end();
  }
}

/** Runs the seed CLI with the ledger, its output shown as it comes and returned whole. */
function runSeed(env: Record<string, string>, transactions: number | null): Promise<string> {
  return new Promise<string>((done, fail) => {
    const child = spawn(process.execPath, [join(root, 'server/seed/seed-cli.ts'), ...(transactions === null ? [] : ['--transactions', String(transactions)])], {
      cwd: root,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let output = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      output += chunk;
      process.stdout.write(chunk);
    });
    child.once('exit', (code) => (code === 0 ? done(output) : fail(new Error(`seed exited with ${code}`))));
  });
}

const seconds = (value: number | null) => (value === null ? '—' : `${value.toFixed(1)} s`);
const ms = (value: number) => value.toFixed(0);

function seedTable(times: SeedTimes, note: string): string[] {
  return [
    `Seed (${note}):`,
    '',
    '| seed phase | time |',
    '| --- | --- |',
    `| the whole seed, ${times.transactions === null ? '?' : times.transactions.toLocaleString('en-GB')} transactions with the ledger (opening and migrating the database included) | ${seconds(times.totalSeconds)} |`,
    `| seeding alone | ${seconds(times.seedSeconds)} |`,
    `| the ledger, in all | ${seconds(times.ledgerSeconds)} |`,
    ...times.phases.map((phase) => `| ledger: ${phase.phase} | ${seconds(phase.seconds)} |`),
  ];
}

function figuresTable(figures: StatementFigures): string[] {
  return [
    `Busiest trading account ${figures.accountNumber} (merchant ${figures.merchantId}): ${figures.movements.toLocaleString('en-GB')} movements in the last year.`,
    '',
    '| measure | p50 | p90 | p95 | calls |',
    '| --- | --- | --- | --- | --- |',
    ...figures.measures.map((measure) => `| ${measure.name} | ${ms(measure.p50)} ms | ${ms(measure.p90)} ms | ${ms(measure.p95)} ms | ${measure.calls} |`),
    `| camt.053 of the year, read whole (median of 3) | ${ms(figures.camt.ms)} ms: ${figures.camt.entriesPerSecond.toLocaleString('en-GB')} entries/s | | | 3 files of ${figures.camt.entries.toLocaleString('en-GB')} entries, ${(figures.camt.bytes / 1024 / 1024).toFixed(1)} MB |`,
  ];
}

/** The seed's times: parsed from its output when it was seeded now, else from the log kept when it was seeded. */
function keptSeedTimes(logFile: string, fresh: string | null): { times: SeedTimes; note: string } | null {
  if (fresh !== null) {
    mkdirSync(resolve(root, '.bench'), { recursive: true });
    writeFileSync(logFile, fresh);
    return { times: parseSeedOutput(fresh), note: 'seeded in this run' };
  }
  if (!existsSync(logFile)) return null;
  return { times: parseSeedOutput(readFileSync(logFile, 'utf8')), note: `reused; seeded earlier, its output kept in ${logFile.replace(`${root}/`, '')}` };
}

async function measureOn(database: Database, options: LedgerBenchOptions, lines: string[]): Promise<void> {
  const log = options.log ?? ((line: string) => console.log(line));
  lines.push(
    `Load before the statement figures (1/5/15 min): ${loadavg()
      .map((value) => value.toFixed(2))
      .join(' / ')}.`,
    '',
  );
  const figures = await statementFigures(database, { calls: options.calls ?? 30, log });
  lines.push(...figuresTable(figures));
}

export async function benchLedger(options: LedgerBenchOptions): Promise<string> {
  const log = options.log ?? ((line: string) => console.log(line));
  if (!/^[a-z_][a-z0-9_]*$/.test(options.database)) throw new Error('--ledger-database: lower-case letters, digits and _ only');
  const lines = ['### Settlement ledger (seed with the ledger, cut-off, statement page, balance chart and camt.053 of a year)'];
  if (options.postgres) {
    lines.push('', `#### PostgreSQL, database ${options.database}`, '');
    const serverUrl = await ensurePostgres();
    if (!serverUrl) {
      lines.push('No PostgreSQL server reachable: skipped.');
    } else {
      const databaseUrl = new URL(serverUrl);
      databaseUrl.pathname = `/${options.database}`;
      const exists = (await admin(serverUrl, 'SELECT 1 FROM pg_database WHERE datname = $1', [options.database])).rowCount !== 0;
      if (!exists) await admin(serverUrl, `CREATE DATABASE ${options.database}`);
      const seeded = await admin(databaseUrl.toString(), 'SELECT count(*)::int AS count FROM transactions').then(
        (result) => Number(result.rows[0]?.count),
        () => 0,
      );
      let output: string | null = null;
      if (seeded === 0) {
        log(`seeding ${options.transactions.toLocaleString('en-GB')} transactions with the ledger into ${options.database}…`);
        output = await runSeed({ DATABASE_URL: databaseUrl.toString() }, options.transactions);
      } else if (seeded !== options.transactions) {
        log(`database ${options.database} holds ${seeded.toLocaleString('en-GB')} transactions (kept as it is)`);
      }
      const seed = keptSeedTimes(resolve(root, `.bench/${options.database}.seed.log`), output);
      lines.push(
        ...(seed ? seedTable(seed.times, seed.note) : [`Seed: reused (${seeded.toLocaleString('en-GB')} transactions), its times unknown (no kept output).`]),
        '',
      );
      const database = await openDatabase({ url: databaseUrl.toString() });
      try {
        await measureOn(database, options, lines);
      } finally {
        await database.close();
      }
    }
  }
  if (options.pgliteDir) {
    lines.push('', `#### PGlite, the demo world in ${options.pgliteDir.replace(`${root}/`, '')}`, '');
    mkdirSync(options.pgliteDir, { recursive: true });
    let output: string | null = null;
    if (!existsSync(join(options.pgliteDir, 'PG_VERSION'))) {
      log(`seeding the demo world with the ledger into ${options.pgliteDir} (once)…`);
      output = await runSeed({ DATABASE_URL: '', DATA_DIR: options.pgliteDir, SEED_TRANSACTIONS: '200000' }, null);
    }
    const seed = keptSeedTimes(join(options.pgliteDir, '..', `${options.pgliteDir.split('/').at(-1) ?? 'pglite'}.seed.log`), output);
    lines.push(...(seed ? seedTable(seed.times, seed.note) : ['Seed: reused, its times unknown (no kept output).']), '');
    const database = await openDatabase({ dataDir: options.pgliteDir });
    try {
      await measureOn(database, options, lines);
    } finally {
      await database.close();
    }
  }
  return lines.join('\n');
}

if (import.meta.main) {
  const option = (name: string, fallback: string): string => {
    const index = process.argv.indexOf(`--${name}`);
    return index >= 0 ? (process.argv[index + 1] ?? fallback) : fallback;
  };
  const table = await benchLedger({
    transactions: Number(option('transactions', '2000000')),
    database: option('database', 'portal_bench_ledger'),
    calls: Number(option('calls', '30')),
    postgres: !process.argv.includes('--skip-postgres'),
    pgliteDir: process.argv.includes('--pglite-dir') ? resolve(option('pglite-dir', '')) : undefined,
  });
  console.log(`\n${table}`);
}
