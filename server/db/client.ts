// Opens the one database: embedded PGlite under DATA_DIR, or a PostgreSQL server when a URL is given.
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { PGlite } from '@electric-sql/pglite';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { logger } from '../log.ts';
import { lockDataDir } from './data-dir-lock.ts';
import { startPgliteThread } from './pglite-remote.ts';
import * as schema from './schema.ts';
import { asText, textTypeIds } from './text-types.ts';

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;
/** The transaction `db.transaction` hands its callback. */
export type DbTransaction = Parameters<Parameters<Db['transaction']>[0]>[0];
/** What reads and writes: the database itself or one of its transactions (the caller decides which). */
export type DbWriter = Db | DbTransaction;

export type Database = {
  db: Db;
  kind: 'pglite' | 'postgres';
  /**
   * Rows of a raw parameterised query, through the same driver the ORM uses and read as the ORM reads them:
   * timestamps, dates and intervals (and arrays of them) as PostgreSQL's text, on both drivers.
   */
  query: <Row = Record<string, unknown>>(text: string, params?: unknown[], options?: QueryOptions) => Promise<Row[]>;
  /**
   * PostgreSQL only: the ORM over connections on which every statement is cancelled after `ms` (SQLSTATE 57014).
   * One small pool per budget, opened on first use, so a budgeted statement is one round trip instead of a
   * transaction around set_config (four). Absent where no budget applies (PGlite) or a caller built its own Database.
   */
  budgeted?: (ms: number) => Db;
  /** PostgreSQL only: the connection string, for a dedicated LISTEN connection (server/events/event-bus.ts) */
  listenUrl?: string;
  close: () => Promise<void>;
};

export const migrationsFolder = fileURLToPath(new URL('./migrations', import.meta.url));

const textTypeIdSet = new Set(textTypeIds);
const pgTextTypes = {
  getTypeParser: ((id: number, format?: 'text' | 'binary') =>
    textTypeIdSet.has(id) ? asText : pg.types.getTypeParser(id, format as 'text')) as typeof pg.types.getTypeParser,
};

export type QueryOptions = {
  /** PostgreSQL: run on the budgeted connections of this many milliseconds (see budgeted); ignored by PGlite */
  statementTimeoutMs?: number | undefined;
  /** each row as an array of its values in the statement's column order (no object per row: bulk reads such as exports) */
  rowMode?: 'array' | undefined;
};

export type OpenOptions = {
  url?: string | undefined;
  dataDir?: string | undefined;
  /**
   * PGlite only: start from this data directory tarball (dumpDataDir) instead of creating a cluster, which takes
   * seconds; the test suites' migrated template (tests/global-setup.ts)
   */
  pgliteTemplate?: string | undefined;
  poolSize?: number;
  /** bring the schema up to date on opening (default); false for tools that only read a database they did not make */
  migrate?: boolean;
  /**
   * Work that must happen once however many nodes start together (the first seed), run right after the migrations
   * and, on PostgreSQL, under the same advisory lock: one node does both, the others wait for it and then go on.
   */
  afterMigrate?: (database: Database) => Promise<void>;
  /** told when this node waits for another node's migrations and first seed */
  log?: (line: string) => void;
  /**
   * sees every statement the ORM sends (benchmarks compare the API against the same SQL run directly), with the
   * statement timeout it ran under, if any
   */
  onQuery?: (text: string, params: unknown[], options: QueryOptions) => void;
};

/** The advisory lock (one bigint key) under which migrations and the first seed run on PostgreSQL. */
export const startupLockKey = 7_402_113_015;

/**
 * Runs `work` holding the startup lock on a connection of its own (a session lock belongs to one connection);
 * a node that dies while holding it loses it with its connection, and the next node in line takes over.
 */
async function underStartupLock(pool: pg.Pool, log: (line: string) => void, work: () => Promise<void>): Promise<void> {
  const client = await pool.connect();
  try {
    const [free] = (await client.query<{ locked: boolean }>('SELECT pg_try_advisory_lock($1) AS locked', [startupLockKey])).rows;
    if (!free?.locked) {
      log('another node is migrating or seeding the database: waiting for it');
      await client.query('SELECT pg_advisory_lock($1)', [startupLockKey]);
    }
    try {
      await work();
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [startupLockKey]);
    }
  } finally {
    client.release();
  }
}

function loggerOf(options: OpenOptions, statementTimeoutMs?: number) {
  const { onQuery } = options;
  return onQuery ? { logQuery: (text: string, params: unknown[]) => onQuery(text, params, { statementTimeoutMs }) } : false;
}

/** url postgres://… opens a pool; otherwise PGlite at dataDir (memory:// or undefined for in-memory). */
export async function openDatabase(options: OpenOptions): Promise<Database> {
  if (options.url) {
    const url = options.url;
    const poolSize = options.poolSize ?? 20;
    const openPool = (max: number, statementTimeoutMs?: number) => {
      const pool = new pg.Pool({ connectionString: url, max, ...(statementTimeoutMs ? { statement_timeout: statementTimeoutMs } : {}) });
      // A lost server must not crash the process: the pool reports it, requests answer 503.
      pool.on('error', (error) => logger.error({ component: 'db' }, `idle client error: ${error.message}`));
      return pool;
    };
    const pool = openPool(poolSize);
    const db = drizzlePg({ client: pool, schema, logger: loggerOf(options) }) as unknown as Db;
    const budgets = new Map<number, { pool: pg.Pool; db: Db }>();
    const budget = (ms: number) => {
      let found = budgets.get(ms);
      if (!found) {
        // Half the main pool: budgeted statements are a part of a request's statements, never all of them.
        const budgetPool = openPool(Math.max(2, Math.ceil(poolSize / 2)), ms);
        found = { pool: budgetPool, db: drizzlePg({ client: budgetPool, schema, logger: loggerOf(options, ms) }) as unknown as Db };
        budgets.set(ms, found);
      }
      return found;
    };
    const database: Database = {
      db,
      kind: 'postgres',
      query: async (text, params, queryOptions) => {
        const runner = queryOptions?.statementTimeoutMs ? budget(queryOptions.statementTimeoutMs).pool : pool;
        return (
          await runner.query({ text, values: params as unknown[], types: pgTextTypes, ...(queryOptions?.rowMode ? { rowMode: queryOptions.rowMode } : {}) })
        ).rows;
      },
      budgeted: (ms) => budget(ms).db,
      listenUrl: url,
      close: async () => {
        await Promise.all([pool.end(), ...[...budgets.values()].map((budget) => budget.pool.end())]);
      },
    };
    const { afterMigrate } = options;
    if (options.migrate !== false || afterMigrate) {
      try {
        await underStartupLock(pool, options.log ?? (() => undefined), async () => {
          if (options.migrate !== false) await migratePg(db as never, { migrationsFolder });
          await afterMigrate?.(database);
        });
      } catch (error) {
        await database.close().catch(() => undefined);
        throw error;
      }
    }
    return database;
  }
  const onDisk = options.dataDir !== undefined && !options.dataDir.startsWith('memory://');
  if (onDisk) mkdirSync(options.dataDir as string, { recursive: true });
  const unlock = onDisk ? lockDataDir(options.dataDir as string) : () => undefined;
  // PGlite runs on a thread of its own (pglite-thread.ts): its statements never hold up the server's thread.
  const client = await startPgliteThread({ dataDir: options.dataDir, template: options.pgliteTemplate }).catch((error: unknown) => {
    unlock();
    throw error;
  });
  const db = drizzlePglite({ client: client as unknown as PGlite, schema, logger: loggerOf(options) }) as unknown as Db;
  const database: Database = {
    db,
    kind: 'pglite',
    query: async <Row>(text: string, params?: unknown[], queryOptions?: QueryOptions) =>
      (await client.query<Row>(text, params, queryOptions?.rowMode ? { rowMode: queryOptions.rowMode } : undefined)).rows,
    close: async () => {
      await client.close();
      unlock();
    },
  };
  // One process owns an embedded database (the data directory lock): no other node to wait for.
  try {
    if (options.migrate !== false) await migratePglite(db as never, { migrationsFolder });
    await options.afterMigrate?.(database);
  } catch (error) {
    await database.close().catch(() => undefined);
    throw error;
  }
  return database;
}
