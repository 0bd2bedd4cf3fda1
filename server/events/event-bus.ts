// Live events across nodes: a write records an event row in its own database transaction (so an event exists only
// if the change it announces committed) and, on PostgreSQL, pg_notify()s its id in the same transaction; every node
// LISTENs on one dedicated connection and fans the event out to its open streams. On PGlite (one process) the event
// is handed to this process's streams once the transaction has committed. Rows are kept so a stream that resumes
// with Last-Event-ID gets what it missed, from whichever node it reconnects to.
import { EventEmitter } from 'node:events';
import { and, asc, desc, gt, lt, sql } from 'drizzle-orm';
import pg from 'pg';
import type { Database, Db } from '../db/client.ts';
import { portalEvents } from '../db/schema.ts';
import { now } from '../clock.ts';
import { logger } from '../log.ts';

/**
 * What a tab should refresh: 'notifications' (the bell, the inbox), or 'record': one record changed (a refund's steps,
 * a ticket's comment, a report's generation, an edited configuration). A record event names the resource and its id,
 * and whose it is (business and merchant, or one user): a stream is told only of records its user may read.
 */
/** 'bulk-jobs': a bulk job's progress changed (each tab refetches only its own jobs). */
/** 'account-locked': one user's account was locked and their sessions ended: that user's open tabs sign out at once. */
export type PortalEventKind = 'notifications' | 'record' | 'bulk-jobs' | 'account-locked';
export type RecordResource = 'paymentJob' | 'ticket' | 'report' | 'business' | 'merchant' | 'configuration' | 'hostedPage' | 'user';
export type RecordChange = { resource: RecordResource; resourceId: string; businessId?: string | null; merchantId?: string | null; userId?: string | null };
export type PortalEvent = { id: number; kind: PortalEventKind } & Partial<RecordChange>;

export const eventChannel = 'portal_events';
/** How many missed events a resuming stream is sent at most (older ones: it refreshes everything anyway). */
export const maxReplay = 200;
/** Events older than this are removed by the recorder now and then. */
export const keepEventsMs = 24 * 3600_000;
/** PGlite has no second connection to LISTEN on: a node with open streams looks for new event rows this often. */
export const pollMs = 500;

let recorded = 0;

/**
 * Records an event inside the writing transaction: its row, and its NOTIFY (PostgreSQL delivers it at commit, to
 * every node; on PGlite nobody listens and the poll finds the row). Needs only the transaction, so any write path
 * (payment operations, the report worker) can announce what it changed.
 */
export async function recordEvent(tx: Db, kind: PortalEventKind, change?: RecordChange | { userId: string }): Promise<PortalEvent> {
  const record = change && 'resource' in change ? change : undefined;
  const values = {
    kind,
    resource: record?.resource ?? null,
    resourceId: record?.resourceId ?? null,
    businessId: record?.businessId ?? null,
    merchantId: record?.merchantId ?? null,
    userId: change?.userId ?? null,
  };
  const [row] = await tx.insert(portalEvents).values(values).returning({ id: portalEvents.id });
  if (!row) throw new Error('event not recorded');
  const event = toEvent({ id: row.id, ...values });
  await tx.execute(sql`SELECT pg_notify(${eventChannel}, ${JSON.stringify(event)})`);
  recorded += 1;
  if (recorded % 500 === 0) await tx.delete(portalEvents).where(lt(portalEvents.createdUtc, new Date(Date.now() - keepEventsMs)));
  return event;
}

type EventRow = {
  id: number;
  kind: string;
  resource: string | null;
  resourceId: string | null;
  businessId: string | null;
  merchantId: string | null;
  userId: string | null;
};

function toEvent(row: EventRow): PortalEvent {
  if (row.kind === 'bulk-jobs') return { id: row.id, kind: 'bulk-jobs' };
  if (row.kind === 'account-locked' && row.userId) return { id: row.id, kind: 'account-locked', userId: row.userId };
  if (row.kind !== 'record' || !row.resource || !row.resourceId) return { id: row.id, kind: 'notifications' };
  return {
    id: row.id,
    kind: 'record',
    resource: row.resource as RecordResource,
    resourceId: row.resourceId,
    businessId: row.businessId,
    merchantId: row.merchantId,
    userId: row.userId,
  };
}

/** A NOTIFY payload back into an event (null: not one of ours). */
export function parseNotification(payload: string | undefined): PortalEvent | null {
  try {
    const value = JSON.parse(payload ?? '') as Partial<EventRow>;
    if (typeof value.id !== 'number' || !Number.isSafeInteger(value.id) || typeof value.kind !== 'string') return null;
    return toEvent({
      id: value.id,
      kind: value.kind,
      resource: value.resource ?? null,
      resourceId: value.resourceId ?? null,
      businessId: value.businessId ?? null,
      merchantId: value.merchantId ?? null,
      userId: value.userId ?? null,
    });
  } catch {
    return null;
  }
}

export type EventBus = {
  /** inside the writing transaction: the event's row and its NOTIFY (delivered at commit) */
  record: (tx: Db, kind: PortalEventKind, change?: RecordChange | { userId: string }) => Promise<PortalEvent>;
  /** after that transaction committed (PGlite: hands the event to this process's streams at once; PostgreSQL: LISTEN does) */
  committed: (event: PortalEvent) => void;
  subscribe: (listener: (event: PortalEvent) => void) => () => void;
  /** events after a given id, oldest first (Last-Event-ID) */
  since: (id: number) => Promise<PortalEvent[]>;
  /** a first connection's catch-up: the events recorded in the last `ms` (at most maxReplay, the newest), oldest first */
  recent: (ms: number) => Promise<PortalEvent[]>;
  listeners: () => number;
  close: () => Promise<void>;
};

const buses = new WeakMap<Database, EventBus>();

/** The bus of a database (one per process and database: every router of an app shares it). */
export function eventBusOf(database: Database): EventBus {
  let bus = buses.get(database);
  if (!bus) {
    bus = createEventBus(database);
    buses.set(database, bus);
  }
  return bus;
}

function createEventBus(database: Database): EventBus {
  const emitter = new EventEmitter();
  emitter.setMaxListeners(0);
  const listenUrl = database.kind === 'postgres' ? database.listenUrl : undefined;
  let client: pg.Client | null = null;
  let connecting: Promise<void> | null = null;
  // Each event is handed out once per node (PGlite: committed() and the poll may both find it).
  let emittedUpTo = 0;
  const emit = (event: PortalEvent) => {
    if (database.kind === 'pglite') {
      if (event.id <= emittedUpTo) return;
      emittedUpTo = event.id;
    }
    emitter.emit('event', event);
  };
  const columns = {
    id: portalEvents.id,
    kind: portalEvents.kind,
    resource: portalEvents.resource,
    resourceId: portalEvents.resourceId,
    businessId: portalEvents.businessId,
    merchantId: portalEvents.merchantId,
    userId: portalEvents.userId,
  };
  const since = async (id: number) => {
    const rows = await database.db
      .select(columns)
      .from(portalEvents)
      .where(and(gt(portalEvents.id, id)))
      .orderBy(asc(portalEvents.id))
      .limit(maxReplay);
    return rows.map(toEvent);
  };
  // The newest maxReplay rows by the primary key (a bounded index walk however large the table), then the window.
  const recent = async (ms: number) => {
    const rows = await database.db
      .select({ ...columns, createdUtc: portalEvents.createdUtc })
      .from(portalEvents)
      .orderBy(desc(portalEvents.id))
      .limit(maxReplay);
    const from = now().getTime() - ms;
    return rows
      .filter((row) => row.createdUtc.getTime() >= from)
      .reverse()
      .map(toEvent);
  };

  // PGlite: while streams are open, new rows are looked for every pollMs (from the newest id when polling began).
  let poller: ReturnType<typeof setInterval> | null = null;
  let polling = false;
  const poll = async () => {
    if (polling) return;
    polling = true;
    try {
      for (const event of await since(emittedUpTo)) emit(event);
    } catch (error) {
      logger.warn({ component: 'events' }, `event poll failed: ${(error as Error).message}`);
    } finally {
      polling = false;
    }
  };
  const startPolling = () => {
    if (database.kind !== 'pglite' || poller) return;
    poller = setInterval(() => void poll(), pollMs);
    poller.unref?.();
    polling = true;
    void database.db
      .select({ id: sql<number>`coalesce(max(${portalEvents.id}), 0)` })
      .from(portalEvents)
      .then(([row]) => {
        emittedUpTo = Math.max(emittedUpTo, Number(row?.id ?? 0));
      })
      .catch(() => undefined)
      .finally(() => {
        polling = false;
      });
  };
  const stopPolling = () => {
    if (poller) clearInterval(poller);
    poller = null;
  };

  // The LISTEN connection opens with the first stream and closes with the last, and reconnects if it is lost.
  const listen = () => {
    if (!listenUrl || client || connecting) return;
    const next = new pg.Client({ connectionString: listenUrl });
    next.on('notification', (message) => {
      const event = parseNotification(message.payload);
      if (event) emit(event);
    });
    next.on('error', (error) => {
      logger.warn({ component: 'events' }, `LISTEN connection lost: ${error.message}`);
      if (client === next) client = null;
      next.end().catch(() => undefined);
      if (emitter.listenerCount('event') > 0) setTimeout(listen, 1000).unref();
    });
    connecting = next
      .connect()
      .then(() => next.query(`LISTEN ${eventChannel}`))
      .then(() => {
        client = next;
      })
      .catch((error: Error) => {
        logger.warn({ component: 'events' }, `LISTEN failed: ${error.message}`);
        next.end().catch(() => undefined);
        if (emitter.listenerCount('event') > 0) setTimeout(listen, 1000).unref();
      })
      .finally(() => {
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
    record: recordEvent,
    committed: (event) => {
      if (database.kind === 'pglite') emit(event);
    },
    subscribe: (listener) => {
      emitter.on('event', listener);
      listen();
      startPolling();
      return () => {
        emitter.off('event', listener);
        if (emitter.listenerCount('event') === 0) {
          void unlisten();
          stopPolling();
        }
      };
    },
    since,
    recent,
    listeners: () => emitter.listenerCount('event'),
    close: async () => {
      emitter.removeAllListeners();
      stopPolling();
      await unlisten();
    },
  };
}

/** Resolves once this node's LISTEN connection is up (tests; a stream's first events may otherwise race it). */
export async function listening(database: Database): Promise<void> {
  if (database.kind !== 'postgres') return;
  for (let attempt = 0; attempt < 100; attempt += 1) {
    const [row] = await database.query<{ n: number | string }>(
      `SELECT count(*) AS n FROM pg_stat_activity WHERE query = 'LISTEN ${eventChannel}' AND datname = current_database()`,
    );
    if (Number(row?.n ?? 0) > 0) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('no LISTEN connection');
}
