// Live events across nodes: a write records an event row in its own database transaction (so an event exists only
// if the change it announces committed) and, on PostgreSQL, pg_notify()s its id in the same transaction; every node
// LISTENs on one dedicated connection and fans the event out to its open streams. On PGlite (one process) the event
// is handed to this process's streams once the transaction has committed. Rows are kept so a stream that resumes
// with Last-Event-ID gets what it missed, from whichever node it reconnects to.
import { EventEmitter } from 'node:events';
import { and, asc, gt, lt, sql } from 'drizzle-orm';
import pg from 'pg';
import type { Database, Db } from '../db/client.ts';
import { portalEvents } from '../db/schema.ts';
import { logger } from '../log.ts';

/** What a tab should refresh: 'notifications' (the bell, the inbox). Never data of a tenant. */
export type PortalEventKind = 'notifications';
export type PortalEvent = { id: number; kind: PortalEventKind };

export const eventChannel = 'portal_events';
/** How many missed events a resuming stream is sent at most (older ones: it refreshes everything anyway). */
export const maxReplay = 200;
/** Events older than this are removed by the recorder now and then. */
export const keepEventsMs = 24 * 3600_000;

export type EventBus = {
  /** inside the writing transaction: the event's row, and on PostgreSQL its NOTIFY (delivered at commit) */
  record: (tx: Db, kind: PortalEventKind) => Promise<PortalEvent>;
  /** after that transaction committed (PGlite: hands the event to this process's streams; PostgreSQL: LISTEN does) */
  committed: (event: PortalEvent) => void;
  subscribe: (listener: (event: PortalEvent) => void) => () => void;
  /** events after a given id, oldest first (Last-Event-ID) */
  since: (id: number) => Promise<PortalEvent[]>;
  listeners: () => number;
  close: () => Promise<void>;
};

const buses = new WeakMap<Database, EventBus>();

/** The bus of a database (one per process and database: every router of an app shares it). */
export function eventBusOf(database: Database): EventBus {
  let bus = buses.get(database);
  if (!bus) buses.set(database, bus = createEventBus(database));
  return bus;
}

function createEventBus(database: Database): EventBus {
  const emitter = new EventEmitter();
  emitter.setMaxListeners(0);
  const listenUrl = database.kind === 'postgres' ? database.listenUrl : undefined;
  let client: pg.Client | null = null;
  let connecting: Promise<void> | null = null;
  let recorded = 0;

  // The LISTEN connection opens with the first stream and closes with the last, and reconnects if it is lost.
  const listen = () => {
    if (!listenUrl || client || connecting) return;
    const next = new pg.Client({ connectionString: listenUrl });
    next.on('notification', (message) => {
      const id = Number(message.payload);
      const kind = 'notifications' as const;
      if (Number.isSafeInteger(id)) emitter.emit('event', { id, kind });
    });
    next.on('error', (error) => {
      logger.warn({ component: 'events' }, `LISTEN connection lost: ${error.message}`);
      if (client === next) client = null;
      next.end().catch(() => undefined);
      if (emitter.listenerCount('event') > 0) setTimeout(listen, 1000).unref();
    });
    connecting = next.connect().then(() => next.query(`LISTEN ${eventChannel}`)).then(() => {
      client = next;
    }).catch((error: Error) => {
      logger.warn({ component: 'events' }, `LISTEN failed: ${error.message}`);
      next.end().catch(() => undefined);
      if (emitter.listenerCount('event') > 0) setTimeout(listen, 1000).unref();
    }).finally(() => {
      connecting = null;
    });
  };
  const unlisten = async () => {
    const current = client;
    client = null;
    await connecting?.catch(() => undefined);
    await current?.end().catch(() => undefined);
  };

  return {
    record: async (tx, kind) => {
      const [row] = await tx.insert(portalEvents).values({ kind }).returning({ id: portalEvents.id });
      if (!row) throw new Error('event not recorded');
      if (database.kind === 'postgres') await tx.execute(sql`SELECT pg_notify(${eventChannel}, ${String(row.id)})`);
      recorded += 1;
      if (recorded % 500 === 0) await tx.delete(portalEvents).where(lt(portalEvents.createdUtc, new Date(Date.now() - keepEventsMs)));
      return { id: row.id, kind };
    },
    committed: (event) => {
      if (database.kind === 'pglite') emitter.emit('event', event);
    },
    subscribe: (listener) => {
      emitter.on('event', listener);
      listen();
      return () => {
        emitter.off('event', listener);
        if (emitter.listenerCount('event') === 0) void unlisten();
      };
    },
    since: async (id) => {
      const rows = await database.db.select({ id: portalEvents.id, kind: portalEvents.kind }).from(portalEvents)
        .where(and(gt(portalEvents.id, id))).orderBy(asc(portalEvents.id)).limit(maxReplay);
      return rows.map((row) => ({ id: row.id, kind: row.kind as PortalEventKind }));
    },
    listeners: () => emitter.listenerCount('event'),
    close: async () => {
      emitter.removeAllListeners();
      await unlisten();
    },
  };
}

/** Resolves once this node's LISTEN connection is up (tests; a stream's first events may otherwise race it). */
export async function listening(database: Database): Promise<void> {
  if (database.kind !== 'postgres') return;
  for (let attempt = 0; attempt < 100; attempt += 1) {
    const [row] = await database.query<{ n: number | string }>(`SELECT count(*) AS n FROM pg_stat_activity WHERE query = 'LISTEN ${eventChannel}' AND datname = current_database()`);
    if (Number(row?.n ?? 0) > 0) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('no LISTEN connection');
}
