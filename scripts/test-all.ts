// npm test: every layer in order — lint (the import lint, then knip: unused files, exports and dependencies), type check, unit + component + API integration (PGlite, and
// PostgreSQL when one can be reached), then browser end-to-end in Chromium against the real server.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { ensurePostgres } from './postgres.ts';

const root = resolve(import.meta.dirname, '..');
const timings: string[] = [];

function step(name: string, command: string, args: string[], env: Record<string, string> = {}): void {
  const started = Date.now();
  console.log(`\n━━ ${name} ━━`);
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
  timings.push(`${name}: ${((Date.now() - started) / 1000).toFixed(1)} s`);
  if (result.status !== 0) {
    console.error(`\n✗ ${name} failed (exit ${result.status})\n${timings.join('\n')}`);
    process.exit(result.status ?? 1);
  }
}

/**
 * A vitest run whose only failures are test processes killed by a signal (the runtime died: no assertion failed)
 * runs those files once more, on their own, and says so. Any failed test, or a file that dies again, fails the step.
 */
async function vitestStep(name: string, args: string[], env: Record<string, string>): Promise<void> {
  const started = Date.now();
  console.log(`\n━━ ${name} ━━`);
  // Shown as it comes and kept to read afterwards.
  // The JSON report beside the console's: the step ends by naming its slowest files (where CI's time goes).
  const report = join(mkdtempSync(join(tmpdir(), 'portal-vitest-')), 'report.json');
  const child = spawn('npx', ['vitest', 'run', ...args, '--reporter=default', '--reporter=json', `--outputFile.json=${report}`], {
    cwd: root,
    env: { ...process.env, FORCE_COLOR: '1', ...env },
    stdio: ['inherit', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => {
    process.stdout.write(chunk);
    output += chunk.toString();
  });
  child.stderr.on('data', (chunk: Buffer) => {
    process.stderr.write(chunk);
    output += chunk.toString();
  });
  const status = await new Promise<number | null>((done) => child.on('close', (code) => done(code)));
  printSlowest(name, report);
  // biome-ignore lint/suspicious/noControlCharactersInRegex: ESC starts the colour codes this strips from the runner's output
  const plain = output.replace(/\u001b\[[0-9;]*m/g, '');
  const died = [...plain.matchAll(/Worker exited unexpectedly with signal (\w+) .*? running test file (\S+)/g)];
  const anyFailed = /Test Files .*\bfailed\b/.test(plain) || /Tests .*\bfailed\b/.test(plain);
  if (status !== 0 && died.length > 0 && !anyFailed) {
    const files = [...new Set(died.map((match) => match[2]!))];
    console.warn(
      `\n⚠ ${died.map((match) => `${match[2]} (${match[1]})`).join(', ')}: the test process died without a failed test; running ${files.length === 1 ? 'it' : 'them'} again`,
    );
    const again = spawnSync('npx', ['vitest', 'run', ...args, ...files], { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
    timings.push(`${name}: ${((Date.now() - started) / 1000).toFixed(1)} s (${files.length} file(s) run again after a signal)`);
    if (again.status !== 0) fail(name, again.status);
    return;
  }
  timings.push(`${name}: ${((Date.now() - started) / 1000).toFixed(1)} s`);
  if (status !== 0) fail(name, status);
}

/** The ten files that took longest in a vitest step, from its JSON report (nothing when the run wrote none). */
function printSlowest(name: string, report: string): void {
  if (!existsSync(report)) return;
  try {
    const results = (JSON.parse(readFileSync(report, 'utf8')) as { testResults?: { name: string; startTime: number; endTime: number }[] }).testResults ?? [];
    const slowest = results
      .map((file) => ({ file: relative(root, file.name), seconds: (file.endTime - file.startTime) / 1000 }))
      .sort((a, b) => b.seconds - a.seconds)
      .slice(0, 10);
    if (slowest.length > 0)
      console.log(`\nslowest files of ${name}:\n${slowest.map((file) => `  ${file.seconds.toFixed(1).padStart(7)} s  ${file.file}`).join('\n')}`);
  } catch {
    // A half-written report (the run was killed) names nothing.
  }
}

function fail(name: string, status: number | null): never {
  console.error(`\n✗ ${name} failed (exit ${status})\n${timings.join('\n')}`);
  process.exit(status ?? 1);
}

/**
 * The files whose code decides by time (schedules, leases and back-offs, expiries, lockouts, cut-offs and batches,
 * statements' and invoices' periods, dashboards' 'today', sessions) run again with the clock moved (TEST_CLOCK,
 * tests/setup-clock.ts), on PGlite: statements get the time as a parameter, never the database's now(), so the
 * PostgreSQL half would repeat the same decisions. The night the clocks change takes every such file; the year's
 * last half hour takes those that cut periods (months, years, statements, invoices, dashboards), to stay within the
 * run's time. Files that only wait on real timers (sign-in flows' session ends) are left out of both.
 */
const periodFiles = [
  'tests/server/reports/schedules.test.ts',
  'tests/server/reports/transaction-schedules.test.ts',
  'tests/server/ledger',
  'tests/server/api/billing.test.ts',
  'tests/server/api/billing-ledger.test.ts',
  'tests/server/api/dashboard.test.ts',
  'tests/server/api/dashboard-breakdown.test.ts',
  'tests/contract',
  'tests/format',
  'tests/panes/dashboard',
  'tests/panes/reporting',
  'tests/panes/reporting-overview',
];
const movedClocks: { at: string; files: string[] }[] = [
  // 01:30 on the night Europe/London's clocks go forward (01:00 UTC, 28 March 2027): an hour of the day that is not there.
  {
    at: '2027-03-28T00:30:00Z',
    files: [
      ...periodFiles,
      'tests/server/reports/worker.test.ts',
      'tests/server/api/reports.test.ts',
      'tests/server/jobs',
      'tests/server/mail/mail.test.ts',
      'tests/server/identity/sign-in-security.test.ts',
      'tests/server/identity/password-flows.test.ts',
      'tests/server/identity/dpop.test.ts',
      'tests/server/api/users.test.ts',
      'tests/server/api/user.test.ts',
      'tests/server/api/step-up.test.ts',
      'tests/server/api/user-account-security.test.ts',
      'tests/server/api/bulk-jobs.test.ts',
      'tests/server/api/user-notifications.test.ts',
      'tests/server/api/money.test.ts',
      'tests/server/files/record-files-sweeper.test.ts',
      'tests/auth',
    ],
  },
  // The last half hour of a year: tomorrow is another day, month, quarter and year.
  { at: '2027-12-31T23:30:00Z', files: periodFiles },
];

step('lint', 'npm', ['run', '--silent', 'lint']);
step('type check', 'npx', ['tsc', '--noEmit', '-p', 'tsconfig.json']);
const postgresUrl = await ensurePostgres();
if (!postgresUrl) {
  // CI (.ci/run sets CI=true) must run both halves: a run that lost PostgreSQL is not a green run.
  if (process.env.CI) fail('PostgreSQL (TEST_DATABASE_URL) is unreachable, and CI runs every test on both databases', 1);
  console.warn('\n⚠ No PostgreSQL server reachable: the PostgreSQL layer of the integration suite is skipped.');
}
const databaseEnv: Record<string, string> = postgresUrl ? { TEST_DATABASE_URL: postgresUrl } : {};
// TEST_CLOCK is this script's to set, below: a value inherited from the shell would move the main run too.
delete process.env.TEST_CLOCK;
await vitestStep('unit, component and API integration', ['--project', 'server', '--project', 'web'], databaseEnv);
for (const clock of movedClocks) {
  await vitestStep(`files that decide by time, clock at ${clock.at}`, ['--project', 'server', '--project', 'web', ...clock.files], {
    TEST_CLOCK: clock.at,
    TEST_DATABASE_URL: '',
  });
}
step('faults: kill -9, database outage, workers overtaken', 'npx', ['vitest', 'run', '--project', 'faults'], databaseEnv);
step('browser end-to-end', 'node', ['scripts/e2e.ts']);
console.log(`\n✓ all layers passed\n${timings.join('\n')}`);
