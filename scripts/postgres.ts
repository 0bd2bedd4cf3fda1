// Makes a PostgreSQL server reachable for the PostgreSQL test layer: TEST_DATABASE_URL if given, else the
// local server (started when the machine has it, installed from the OS packages when root and missing).
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import pg from 'pg';

export const localPostgresUrl = 'postgres://postgres@127.0.0.1:5432/postgres';

async function reachable(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

function startLocal(): void {
  const run = (command: string, args: string[]) => spawnSync(command, args, { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
  if (!existsSync('/etc/postgresql') && process.getuid?.() === 0) {
    console.log('[postgres] installing PostgreSQL from the OS packages…');
    run('apt-get', ['update', '-qq']);
    run('apt-get', ['install', '-y', '-qq', 'postgresql']);
  }
  if (existsSync('/etc/postgresql')) {
    for (const version of readdirSync('/etc/postgresql')) run('pg_ctlcluster', ['--skip-systemctl-redirect', version, 'main', 'start']);
  }
}

/** The URL of a reachable server, or null when none can be had (the PostgreSQL layer is then skipped loudly). */
export async function ensurePostgres(): Promise<string | null> {
  const url = process.env.TEST_DATABASE_URL ?? localPostgresUrl;
  if (await reachable(url)) return url;
  if (process.env.TEST_DATABASE_URL) throw new Error(`TEST_DATABASE_URL=${url} is not reachable`);
  startLocal();
  for (let attempt = 0; attempt < 20; attempt += 1) {
    if (await reachable(url)) return url;
    await new Promise((done) => setTimeout(done, 500));
  }
  return null;
}

if (import.meta.main) console.log((await ensurePostgres()) ?? 'no PostgreSQL reachable');
