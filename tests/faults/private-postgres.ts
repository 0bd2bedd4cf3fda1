// A PostgreSQL server of the suite's own (initdb in a temp folder, its own port), so the suite can stop and
// start it without disturbing the machine's shared server that other suites use.
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export type PrivatePostgres = { url: string; start: () => void; stop: () => void; destroy: () => void };

function binaries(): string | null {
  if (!existsSync('/usr/lib/postgresql')) return null;
  const version = readdirSync('/usr/lib/postgresql').sort().at(-1);
  return version ? `/usr/lib/postgresql/${version}/bin` : null;
}

/** Null when this machine cannot run one (no server binaries, or not root and not the postgres user). */
export function createPrivatePostgres(port: number): PrivatePostgres | null {
  const bin = binaries();
  if (!bin) return null;
  const asRoot = process.getuid?.() === 0;
  const run = (command: string, args: string[]) => {
    const full = join(bin, command);
    return asRoot ? spawnSync('runuser', ['-u', 'postgres', '--', full, ...args], { encoding: 'utf8' }) : spawnSync(full, args, { encoding: 'utf8' });
  };
  const base = mkdtempSync(join(tmpdir(), 'portal-pg-'));
  chmodSync(base, 0o777);
  const dataDir = join(base, 'data');
  if (asRoot) execFileSync('install', ['-d', '-o', 'postgres', '-g', 'postgres', '-m', '700', dataDir]);
  const init = run('initdb', ['-D', dataDir, '-A', 'trust', '-U', 'postgres', '--no-sync']);
  if (init.status !== 0) return null;
  const log = join(base, 'server.log');
  const options = `-p ${port} -k ${base} -c listen_addresses=127.0.0.1 -c fsync=on`;
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    start: () => {
      const result = run('pg_ctl', ['-D', dataDir, '-l', log, '-o', options, '-w', 'start']);
      if (result.status !== 0) throw new Error(`private PostgreSQL did not start: ${result.stderr}`);
    },
    stop: () => {
      run('pg_ctl', ['-D', dataDir, '-m', 'immediate', '-w', 'stop']);
    },
    destroy: () => {
      run('pg_ctl', ['-D', dataDir, '-m', 'immediate', '-w', 'stop']);
      spawnSync('rm', ['-rf', base]);
    },
  };
}
