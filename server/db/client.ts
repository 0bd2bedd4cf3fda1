// Opens the one database: embedded PGlite under DATA_DIR, or a PostgreSQL server when a URL is given.
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import * as schema from './schema.ts';

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

export type Database = {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** Rows of a raw parameterised query, through the same driver the ORM uses. */
  query: <Row = Record<string, unknown>>(text: string, params?: unknown[]) => Promise<Row[]>;
  close: () => Promise<void>;
};

const migrationsFolder = fileURLToPath(new URL('./migrations', import.meta.url));

export type OpenOptions = {
  url?: string | undefined;
  dataDir?: string | undefined;
  poolSize?: number;
  /** sees every statement the ORM sends (benchmarks compare the API against the same SQL run directly) */
  onQuery?: (text: string, params: unknown[]) => void;
};

function loggerOf(options: OpenOptions) {
  const { onQuery } = options;
  return onQuery ? { logQuery: (text: string, params: unknown[]) => onQuery(text, params) } : false;
}

/** url postgres://… opens a pool; otherwise PGlite at dataDir (memory:// or undefined for in-memory). */
export async function openDatabase(options: OpenOptions): Promise<Database> {
  if (options.url) {
    const pool = new pg.Pool({ connectionString: options.url, max: options.poolSize ?? 20 });
    // A lost server must not crash the process: the pool reports it, requests answer 503.
    pool.on('error', (error) => console.error('[db] idle client error:', error.message));
    const db = drizzlePg({ client: pool, schema, logger: loggerOf(options) }) as unknown as Db;
    await migratePg(db as never, { migrationsFolder });
    return {
      db,
      kind: 'postgres',
      query: async (text, params) => (await pool.query(text, params as unknown[])).rows,
      close: () => pool.end(),
    };
  }
  if (options.dataDir && !options.dataDir.startsWith('memory://')) mkdirSync(options.dataDir, { recursive: true });
  const client = await PGlite.create({ dataDir: options.dataDir, extensions: { pg_trgm } });
  const db = drizzlePglite({ client, schema, logger: loggerOf(options) }) as unknown as Db;
  await migratePglite(db as never, { migrationsFolder });
  return {
    db,
    kind: 'pglite',
    query: async <Row,>(text: string, params?: unknown[]) => (await client.query<Row>(text, params)).rows,
    close: () => client.close(),
  };
}
