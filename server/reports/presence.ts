// A report worker's presence: a session-level advisory lock keyed on its node id, held for as long as the worker
// lives. PostgreSQL drops a session's locks the moment its connection closes, so when a node dies (kill -9, a crash,
// an OOM kill) its presence goes with it and any other worker may reclaim its job at once instead of waiting for the
// lease to lapse. The lease stays the fallback for what presence cannot see (a node paused or cut off while its
// connection lingers) and completion stays fenced by the lease, so a job is still never completed twice.
//
// PostgreSQL: the lock is taken on a connection of the pool kept checked out for the worker's lifetime (a pooled
// connection may be closed when idle, which would drop the lock while the worker lives).
// PGlite: one session serves the whole process; its advisory locks are re-entrant per session, so every worker of the
// process holds its own count on it, and a restarted process starts with none.
import { randomBytes } from 'node:crypto';
import type pg from 'pg';
import type { Database } from '../db/client.ts';

/** classid of every presence lock ('RPTW'); objid is hashtext(node id), computed by the server on both sides. */
export const presenceLockClass = 0x52505457;

export type Presence = {
  /** the node id the lock is held for (a suffix is added in the unlikely case another live node's id hashes alike) */
  readonly nodeId: string;
  /** Re-takes the lock after a lost connection; throws when it cannot, so the worker claims nothing meanwhile. */
  ensure: () => Promise<void>;
  release: () => Promise<void>;
};

const lockStatement = 'SELECT pg_try_advisory_lock($1, hashtext($2)) AS held';
const unlockStatement = 'SELECT pg_advisory_unlock($1, hashtext($2)) AS released';

type Session = { query: (text: string, params: unknown[]) => Promise<{ rows: Record<string, unknown>[] }> };

async function lockOn(session: Session, wantedId: string, maxTries: number): Promise<string> {
  for (let tries = 0; tries < maxTries; tries += 1) {
    const nodeId = tries === 0 ? wantedId : `${wantedId}~${randomBytes(3).toString('hex')}`;
    const [row] = (await session.query(lockStatement, [presenceLockClass, nodeId])).rows;
    if (row?.held === true) return nodeId;
  }
  throw new Error(`report worker presence: the lock for ${wantedId} is held by another live session`);
}

function poolOf(database: Database): pg.Pool {
  // drizzle's node-postgres database exposes the pool it was given as $client.
  const pool = (database.db as unknown as { $client?: pg.Pool }).$client;
  if (!pool || typeof pool.connect !== 'function') throw new Error('report worker presence: the database has no connection pool');
  return pool;
}

export async function acquirePresence(database: Database, nodeId: string, log: (line: string) => void): Promise<Presence> {
  if (database.kind === 'pglite') {
    const session: Session = { query: async (text, params) => ({ rows: await database.query(text, params) }) };
    const held = await lockOn(session, nodeId, 5);
    let released = false;
    return {
      nodeId: held,
      ensure: async () => undefined,
      release: async () => {
        if (released) return;
        released = true;
        await session.query(unlockStatement, [presenceLockClass, held]).catch(() => undefined);
      },
    };
  }

  const pool = poolOf(database);
  let client: pg.PoolClient | null = null;
  let broken = false;
  const connect = async (wantedId: string, maxTries: number) => {
    const fresh = await pool.connect();
    // A lost connection must not crash the process; the lock went with it and is re-taken before the next claim.
    fresh.on('error', (error) => {
      if (client === fresh) broken = true;
      log(`presence connection lost: ${error.message}`);
    });
    try {
      const held = await lockOn(fresh, wantedId, maxTries);
      client = fresh;
      broken = false;
      return held;
    } catch (error) {
      fresh.release(true);
      throw error;
    }
  };
  const held = await connect(nodeId, 5);
  let released = false;
  return {
    nodeId: held,
    ensure: async () => {
      if (released) throw new Error('report worker presence: released');
      if (!broken && client) return;
      client?.release(true);
      client = null;
      // Only under the same id: the leases this worker holds name it.
      await connect(held, 1);
      log(`presence of ${held} re-taken`);
    },
    release: async () => {
      if (released) return;
      released = true;
      const last = client;
      client = null;
      if (!last) return;
      if (broken) {
        last.release(true);
        return;
      }
      try {
        await last.query(unlockStatement, [presenceLockClass, held]);
        last.release();
      } catch {
        last.release(true);
      }
    },
  };
}
