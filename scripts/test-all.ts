// npm test: every layer in order — lint, type check, unit + component + API integration (PGlite, and
// PostgreSQL when one can be reached), then browser end-to-end in Chromium against the real server.
import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
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

step('lint', 'node', ['scripts/lint-imports.ts']);
step('type check', 'npx', ['tsc', '--noEmit', '-p', 'tsconfig.json']);
const postgresUrl = await ensurePostgres();
if (!postgresUrl) console.warn('\n⚠ No PostgreSQL server reachable: the PostgreSQL layer of the integration suite is skipped.');
step('unit, component and API integration', 'npx', ['vitest', 'run', '--project', 'server', '--project', 'web'], postgresUrl ? { TEST_DATABASE_URL: postgresUrl } : {});
step('faults: kill -9, database outage, workers overtaken', 'npx', ['vitest', 'run', '--project', 'faults'], postgresUrl ? { TEST_DATABASE_URL: postgresUrl } : {});
step('browser end-to-end', 'node', ['scripts/e2e.ts']);
console.log(`\n✓ all layers passed\n${timings.join('\n')}`);
