// GET /events: one server-sent events stream per signed-in tab (bearer-authenticated like every Portal API call:
// the browser reads it with fetch, since EventSource cannot send the Authorization header).
//
// | what            | how                                                                                     |
// |-----------------|-----------------------------------------------------------------------------------------|
// | an event        | `id: <n>` `event: <kind>` `data: {}`: what to refresh (kind 'notifications': bell, inbox) |
// | a record        | `event: record` `data: {"resource":"paymentJob","id":"…"}`: only to a stream whose user may |
// |                 | read it (its business and merchant, or its own user); the user's access is re-read every  |
// |                 | principalMaxAgeMs, and a user who lost access altogether has the stream closed            |
// | heartbeat       | a comment line every heartbeatMs, so proxies keep the connection and the tab sees it live |
// | account locked  | `event: account-locked` `data: {}`: only to the locked user's own streams, which then end   |
// |                 | (the tab signs out at once rather than at its next call)                                |
// | resume          | Last-Event-ID (header, or ?lastEventId=): the events after it are sent first               |
// | catch up        | ?replayMs=: a stream with no event id yet (the tab's first, or one dropped before any event) |
// |                 | is first sent the events of the last replayMs (at most 5 minutes): what changed between the |
// |                 | tab's loading its data and its stream opening                                            |
// | across nodes    | PostgreSQL LISTEN/NOTIFY (event-bus.ts); PGlite: within the process                       |
// | end             | the client goes (abort), or maxStreamMs passes (the client reconnects with Last-Event-ID,  |
// |                 | and a token that has expired meanwhile is refused then)                                  |
import { Hono } from 'hono';
import { eventIdPattern, maxReplayMs, replayMsPattern } from '../../src/contract/live-events.ts';
import { streamSSE } from 'hono/streaming';
import type { AppEnv, Deps } from '../http/env.ts';
import { badRequest } from '../http/errors.ts';
import { canSeeBusiness, canSeeMerchant, isInternal, loadPrincipal, type Principal } from '../policy/principal.ts';
import { eventBusOf, type PortalEvent } from './event-bus.ts';

/** How long a stream trusts the access it read: a role taken away stops record events within this. */
export const principalMaxAgeMs = 30_000;

/** May this user be told that this record changed? (Notifications: everyone refreshes their own inbox.) */
export function mayBeTold(principal: Principal, event: PortalEvent): boolean {
  if (event.kind === 'account-locked') return event.userId === principal.userId;
  if (event.kind !== 'record') return true;
  if (event.userId) return event.userId === principal.userId;
  if (!event.businessId) return isInternal(principal);
  return event.merchantId ? canSeeMerchant(principal, event.businessId, event.merchantId) : canSeeBusiness(principal, event.businessId);
}

function payloadOf(event: PortalEvent): string {
  return event.kind === 'record' ? JSON.stringify({ resource: event.resource, id: event.resourceId }) : '{}';
}

export const heartbeatMs = 15_000;
export const maxStreamMs = 15 * 60_000;

export function eventRoutes({ database }: Deps, options: { heartbeatMs?: number; maxStreamMs?: number; principalMaxAgeMs?: number } = {}) {
  const routes = new Hono<AppEnv>();
  const bus = eventBusOf(database);
  routes.get('/events', async (c) => {
    const raw = c.req.header('last-event-id') ?? c.req.query('lastEventId');
    if (raw !== undefined && !eventIdPattern.test(raw)) throw badRequest('Last-Event-ID must be the id of an event.');
    const lastEventId = raw === undefined ? null : Number(raw);
    const rawReplay = c.req.query('replayMs');
    if (rawReplay !== undefined && !replayMsPattern.test(rawReplay)) throw badRequest(`replayMs must be a number of milliseconds up to ${maxReplayMs}.`);
    const replayMs = rawReplay === undefined ? 0 : Math.min(Number(rawReplay), maxReplayMs);
    c.header('X-Accel-Buffering', 'no');
    let principal = c.get('principal');
    let principalReadAt = Date.now();
    /** the user's current access, re-read when older than principalMaxAgeMs (null: the user is gone or locked) */
    const currentPrincipal = async (): Promise<Principal | null> => {
      if (Date.now() - principalReadAt > (options.principalMaxAgeMs ?? principalMaxAgeMs)) {
        const fresh = await loadPrincipal(database, principal.userId);
        if (!fresh) return null;
        principal = fresh;
        principalReadAt = Date.now();
      }
      return principal;
    };
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
        const missed = lastEventId !== null ? await bus.since(lastEventId) : replayMs > 0 ? await bus.recent(replayMs) : [];
        for (const event of missed) {
          sentUpTo = Math.max(sentUpTo, event.id);
          // A stream that could resume belongs to an account that works now: an earlier lock has been lifted.
          if (event.kind === 'account-locked') continue;
          if (mayBeTold(principal, event)) await stream.writeSSE({ id: String(event.id), event: event.kind, data: payloadOf(event) });
        }
        const heartbeat = setInterval(() => {
          void stream.write(': heartbeat\n\n').catch(() => undefined);
        }, options.heartbeatMs ?? heartbeatMs);
        heartbeat.unref?.();
        try {
          while (open) {
            const event = queue.shift();
            if (!event) {
              await new Promise<void>((resolve) => {
                wake = resolve;
              });
              wake = null;
              continue;
            }
            // A replayed event may also arrive live: each id is sent once.
            if (event.id <= sentUpTo) continue;
            sentUpTo = event.id;
            // The locked user's tab is told (its token no longer works, so the access is not re-read) and the stream ends.
            if (event.kind === 'account-locked') {
              if (!mayBeTold(principal, event)) continue;
              await stream.writeSSE({ id: String(event.id), event: event.kind, data: payloadOf(event) });
              break;
            }
            if (event.kind === 'record') {
              const reader = await currentPrincipal();
              if (!reader) break;
              if (!mayBeTold(reader, event)) continue;
            }
            await stream.writeSSE({ id: String(event.id), event: event.kind, data: payloadOf(event) });
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
