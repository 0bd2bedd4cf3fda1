// The tab's one live events stream (GET /api/portal/events, server/events/): read with fetch, since EventSource
// cannot send the bearer token. An event names what to refresh ('notifications': the bell, the inbox, authors'
// lists); the stream resumes with Last-Event-ID after a drop and reconnects with a growing pause (1 s to 30 s).
import type { QueryClient } from '@tanstack/react-query';

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
    events.push({ id: field('id'), event: field('event') ?? 'message', data: lines.filter((line) => line.startsWith('data:')).map((line) => line.slice(5).replace(/^ /, '')).join('\n') });
  }
  return { events, rest };
}

/** What each event kind refreshes (query keys, generic to specific as the factories build them). */
const refreshes: Record<string, readonly (readonly unknown[])[]> = {
  notifications: [['notifications']],
};

/**
 * Opens the stream and keeps it open until the returned stop is called. The shell starts it once the first screen has
 * settled (a chunk of its own: the first load does not carry it).
 */
export function startLiveEvents(session: { getAccessToken: () => Promise<string> }, queryClient: QueryClient): () => void {
  let stopped = false;
  let controller: AbortController | null = null;
  let lastEventId: string | null = null;
  let pause = 1000;
  const run = async () => {
    while (!stopped) {
      controller = new AbortController();
      try {
        const token = await session.getAccessToken();
        const response = await fetch('/api/portal/events', {
          headers: { Authorization: `Bearer ${token}`, Accept: 'text/event-stream', ...(lastEventId ? { 'Last-Event-ID': lastEventId } : {}) },
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
          const parsed = parseEventStream(buffer + decoder.decode(value, { stream: true }));
          buffer = parsed.rest;
          for (const event of parsed.events) {
            if (event.id) lastEventId = event.id;
            for (const queryKey of refreshes[event.event] ?? []) void queryClient.invalidateQueries({ queryKey });
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

