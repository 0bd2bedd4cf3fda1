// GET /events: one server-sent events stream per signed-in tab (bearer-authenticated like every Portal API call:
// the browser reads it with fetch, since EventSource cannot send the Authorization header).
//
// | what            | how                                                                                     |
// |-----------------|-----------------------------------------------------------------------------------------|
// | an event        | `id: <n>` `event: <kind>` `data: {}`: what to refresh (kind 'notifications': bell, inbox) |
// | heartbeat       | a comment line every heartbeatMs, so proxies keep the connection and the tab sees it live |
// | resume          | Last-Event-ID (header, or ?lastEventId=): the events after it are sent first               |
// | across nodes    | PostgreSQL LISTEN/NOTIFY (event-bus.ts); PGlite: within the process                       |
// | end             | the client goes (abort), or maxStreamMs passes (the client reconnects with Last-Event-ID,  |
// |                 | and a token that has expired meanwhile is refused then)                                  |
import { Hono } from 'hono';
import { streamSSE } from 'hono/streaming';
import type { AppEnv, Deps } from '../api/env.ts';
import { badRequest } from '../api/errors.ts';
import { eventBusOf, type PortalEvent } from './event-bus.ts';

export const heartbeatMs = 15_000;
export const maxStreamMs = 15 * 60_000;

export function eventRoutes({ database }: Deps, options: { heartbeatMs?: number; maxStreamMs?: number } = {}) {
  const routes = new Hono<AppEnv>();
  const bus = eventBusOf(database);
  routes.get('/events', async (c) => {
    const raw = c.req.header('last-event-id') ?? c.req.query('lastEventId');
    if (raw !== undefined && !/^\d{1,15}$/.test(raw)) throw badRequest('Last-Event-ID must be the id of an event.');
    const lastEventId = raw === undefined ? null : Number(raw);
    c.header('X-Accel-Buffering', 'no');
    return streamSSE(c, async (stream) => {
      const queue: PortalEvent[] = [];
      let wake: (() => void) | null = null;
      const unsubscribe = bus.subscribe((event) => {
        queue.push(event);
        wake?.();
      });
      const closed = new Promise<void>((resolve) => {
        stream.onAbort(resolve);
        setTimeout(resolve, options.maxStreamMs ?? maxStreamMs).unref();
      });
      let open = true;
      void closed.then(() => {
        open = false;
        wake?.();
      });
      try {
        let sentUpTo = lastEventId ?? 0;
        await stream.writeSSE({ event: 'ready', data: '{}', retry: 3000 });
        if (lastEventId !== null) {
          for (const event of await bus.since(lastEventId)) {
            await stream.writeSSE({ id: String(event.id), event: event.kind, data: '{}' });
            sentUpTo = Math.max(sentUpTo, event.id);
          }
        }
        const heartbeat = setInterval(() => {
          void stream.write(': heartbeat\n\n').catch(() => undefined);
        }, options.heartbeatMs ?? heartbeatMs);
        heartbeat.unref?.();
        try {
          while (open) {
            const event = queue.shift();
            if (!event) {
              await new Promise<void>((resolve) => { wake = resolve; });
              wake = null;
              continue;
            }
            // A replayed event may also arrive live: each id is sent once.
            if (event.id <= sentUpTo) continue;
            sentUpTo = event.id;
            await stream.writeSSE({ id: String(event.id), event: event.kind, data: '{}' });
          }
        } finally {
          clearInterval(heartbeat);
        }
      } finally {
        unsubscribe();
      }
    });
  });
  return routes;
}
