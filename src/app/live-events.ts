// The tab's one live events stream (GET /api/portal/events, server/events/): read with fetch, since EventSource
// cannot send the bearer token. An event names what to refresh ('notifications': the bell, the inbox, authors'
// lists; 'record': one record that changed, told only to tabs whose user may read it; 'account-locked': this user's
// account was locked and its sessions ended, so the tab signs out now); the stream resumes with Last-Event-ID after a
// drop and reconnects with a growing pause (1 s to 30 s). A stream with no event id yet (the tab's first: it opens
// once the first screen has settled, after that screen loaded its data) asks for the events of the time it was not
// listening (?replayMs=), so a change made meanwhile is not missed.
import type { QueryClient } from '@tanstack/react-query';
import { authorizationHeaders } from '../api/dpop.ts';
import { maxReplayMs } from '../contract/live-events.ts';
import type { Session } from '../auth/session.ts';

export type LiveEvent = { id: string | null; event: string; data: string };

/** Splits a text/event-stream buffer into complete events and the unfinished rest (comments are heartbeats). */
export function parseEventStream(buffer: string): { events: LiveEvent[]; rest: string } {
  const events: LiveEvent[] = [];
  const blocks = buffer.replace(/\r\n?/g, '\n').split('\n\n');
  const rest = blocks.pop() ?? '';
  for (const block of blocks) {
    const lines = block.split('\n').filter((line) => line !== '' && !line.startsWith(':'));
    if (lines.length === 0) continue;
    const field = (name: string) => {
      const line = lines.find((candidate) => candidate === name || candidate.startsWith(`${name}:`));
      return line === undefined ? null : line.slice(name.length + 1).replace(/^ /, '');
    };
    events.push({
      id: field('id'),
      event: field('event') ?? 'message',
      data: lines
        .filter((line) => line.startsWith('data:'))
        .map((line) => line.slice(5).replace(/^ /, ''))
        .join('\n'),
    });
  }
  return { events, rest };
}

/** What each event kind refreshes (query keys, generic to specific as the factories build them). */
const refreshes: Record<string, readonly (readonly unknown[])[]> = {
  notifications: [['notifications']],
  'bulk-jobs': [['bulk-jobs']],
};

/**
 * What a changed record refreshes: the queries of its kind (open panes refetch, others are marked stale). A refund
 * shows in the job, its transactions and the figures; an edited configuration in its editor and lists.
 */
const recordRefreshes: Record<string, readonly (readonly unknown[])[]> = {
  paymentJob: [['paymentJobs'], ['transactions'], ['dashboard']],
  ticket: [['tickets']],
  report: [['reports']],
  business: [['businesses']],
  merchant: [['businesses']],
  configuration: [['configurations']],
  hostedPage: [['configurations']],
  user: [['users']],
};

/**
 * Every query a live event can refresh, once each: what a tab refreshes when it has been away longer than the server
 * replays and has no event id to resume from (the bell and bulk jobs included).
 */
export const everyRefreshedKey: readonly (readonly unknown[])[] = [
  ...new Map([...Object.values(recordRefreshes), ...Object.values(refreshes)].flat().map((key) => [JSON.stringify(key), key] as const)).values(),
];

export type RecordChanged = { resource: string; id: string };
/** Dispatched on window for each changed record, after its queries were told to refresh (forms listen: 'This record changed'). */
export const recordChangedEvent = 'portal:record-changed';

/** A record event's data ({ resource, id }), or null. */
export function parseRecordChange(data: string): RecordChanged | null {
  try {
    const value = JSON.parse(data) as Partial<RecordChanged>;
    return typeof value.resource === 'string' && typeof value.id === 'string' ? { resource: value.resource, id: value.id } : null;
  } catch {
    return null;
  }
}

/** Refreshes what an event names. */
export function applyLiveEvent(event: LiveEvent, queryClient: QueryClient, target: EventTarget | null = typeof window === 'undefined' ? null : window): void {
  if (event.event === 'record') {
    const change = parseRecordChange(event.data);
    if (!change) return;
    for (const queryKey of recordRefreshes[change.resource] ?? []) void queryClient.invalidateQueries({ queryKey });
    target?.dispatchEvent(new CustomEvent<RecordChanged>(recordChangedEvent, { detail: change }));
    return;
  }
  for (const queryKey of refreshes[event.event] ?? []) void queryClient.invalidateQueries({ queryKey });
}

/** The margin for clocks on a catch-up's window. */
const replayMarginMs = 2000;

/**
 * How far back a stream with no event id asks to be caught up: from when the tab last listened (0: since the page
 * began loading) to now, with a margin; null when that is longer than the server replays (refresh instead).
 */
export function replayWindow(listenedAt: number, at: number): number | null {
  const replayMs = Math.ceil(at - listenedAt) + replayMarginMs;
  return replayMs > maxReplayMs ? null : replayMs;
}

/**
 * Opens the stream and keeps it open until the returned stop is called. The shell starts it once the first screen has
 * settled (a chunk of its own: the first load does not carry it).
 */
export function startLiveEvents(session: Pick<Session, 'getAccessToken' | 'signOut'>, queryClient: QueryClient): () => void {
  let stopped = false;
  let controller: AbortController | null = null;
  let lastEventId: string | null = null;
  let pause = 1000;
  /** when the stream was last seen open (performance.now(); 0: the page's start, before its data was loaded) */
  let listenedAt = 0;
  const run = async () => {
    while (!stopped) {
      controller = new AbortController();
      try {
        const token = await session.getAccessToken();
        const replayMs = lastEventId ? null : replayWindow(listenedAt, performance.now());
        // Away longer than the server replays, with nothing to resume from: what is open refreshes.
        if (!lastEventId && replayMs === null) for (const queryKey of everyRefreshedKey) void queryClient.invalidateQueries({ queryKey });
        const path = replayMs === null ? '/api/portal/events' : `/api/portal/events?replayMs=${replayMs}`;
        const response = await fetch(path, {
          headers: {
            ...(await authorizationHeaders('GET', path, token)),
            Accept: 'text/event-stream',
            ...(lastEventId ? { 'Last-Event-ID': lastEventId } : {}),
          },
          signal: controller.signal,
        });
        if (!response.ok || !response.body) throw new Error(`events: ${response.status}`);
        const reader = response.body.getReader();
        const decoder = new TextDecoder();
        let buffer = '';
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          pause = 1000;
          listenedAt = performance.now();
          const parsed = parseEventStream(buffer + decoder.decode(value, { stream: true }));
          buffer = parsed.rest;
          for (const event of parsed.events) {
            if (event.id) lastEventId = event.id;
            // Locked by an administrator: the server has ended the sessions; the tab goes to the signed-out page now.
            if (event.event === 'account-locked') {
              stopped = true;
              void session.signOut('locked');
              return;
            }
            applyLiveEvent(event, queryClient);
          }
        }
      } catch {
        // Offline, signed out meanwhile or the server restarting: try again after a pause.
      }
      if (stopped) break;
      await new Promise((resolve) => setTimeout(resolve, pause));
      pause = Math.min(pause * 2, 30_000);
    }
  };
  void run();
  return () => {
    stopped = true;
    controller?.abort();
  };
}
