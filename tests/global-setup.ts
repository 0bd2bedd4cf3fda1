// Once per vitest run, before the server suites: a migrated database to copy instead of building one per suite.
// PGlite: a new cluster (initdb in WebAssembly) takes 3–6 s on the 2-core machines and the migrations more; loading
// a dumped data directory takes under one. PostgreSQL: CREATE DATABASE … TEMPLATE copies files instead of replaying
// every migration. Both are keyed by the migrations' content (and PGlite's version), kept between runs, and rebuilt
// when a migration changes; tests/server/support.ts creates each suite's database from them.
import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { migrationsFolder, openDatabase } from '../server/db/client.ts';

function migrationsHash(): string {
  const hash = createHash('sha256');
  const pglite = JSON.parse(readFileSync(new URL('../node_modules/@electric-sql/pglite/package.json', import.meta.url), 'utf8')) as { version: string };
  hash.update(pglite.version);
  const walk = (folder: string) => {
    for (const entry of readdirSync(folder, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) walk(path);
      else hash.update(entry.name).update(readFileSync(path));
    }
  };
  walk(migrationsFolder);
  return hash.digest('hex').slice(0, 12);
}

async function pgliteTemplate(key: string): Promise<string> {
  const folder = join(tmpdir(), 'portal-test-templates');
  const file = join(folder, `pglite-${key}.tar`);
  if (existsSync(file)) return file;
  mkdirSync(folder, { recursive: true });
  const client = await PGlite.create({ extensions: { pg_trgm } });
  try {
    await migrate(drizzle({ client }), { migrationsFolder });
    const dump = await client.dumpDataDir('none');
    // Written whole, then renamed: a run started beside this one never reads half a template.
    const part = `${file}.${randomBytes(4).toString('hex')}.part`;
    writeFileSync(part, Buffer.from(await dump.arrayBuffer()));
    renameSync(part, file);
  } finally {
    await client.close();
  }
  return file;
}

async function postgresTemplate(adminUrl: string, key: string): Promise<string> {
  const name = `portal_template_${key}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    const found = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (found.rowCount) return name;
    // Built under another name and renamed when complete: a template is whole or absent.
    const building = `portal_template_build_${randomBytes(4).toString('hex')}`;
    await admin.query(`CREATE DATABASE ${building}`);
    const url = new URL(adminUrl);
    url.pathname = `/${building}`;
    // Two connections: one holds the startup lock while the other migrates.
    const database = await openDatabase({ url: url.toString(), poolSize: 2 });
    await database.close();
    try {
      await admin.query(`ALTER DATABASE ${building} RENAME TO ${name}`);
    } catch {
      // Another run finished the same template first.
      await admin.query(`DROP DATABASE IF EXISTS ${building}`);
    }
    // Templates of older migrations are of no further use.
    const old = await admin.query<{ datname: string }>(
      "SELECT datname FROM pg_database WHERE datname LIKE 'portal\\_template\\_%' AND datname NOT LIKE 'portal\\_template\\_build\\_%' AND datname <> $1",
      [name],
    );
    for (const { datname } of old.rows) await admin.query(`DROP DATABASE IF EXISTS ${datname} WITH (FORCE)`).catch(() => undefined);
    return name;
  } finally {
    await admin.end();
  }
}

declare module 'vitest' {
  interface ProvidedContext {
    /** the migrated PGlite data directory tarball */
    pgliteTemplate: string;
    /** the migrated PostgreSQL template database, when TEST_DATABASE_URL is set */
    postgresTemplate: string | undefined;
  }
}

export default async function setup(project: TestProject): Promise<void> {
  const key = migrationsHash();
  const adminUrl = process.env.TEST_DATABASE_URL;
  const [pgliteFile, postgresName] = await Promise.all([pgliteTemplate(key), adminUrl ? postgresTemplate(adminUrl, key) : Promise.resolve(undefined)]);
  project.provide('pgliteTemplate', pgliteFile);
  project.provide('postgresTemplate', postgresName);
}
