import { describe, expect, it } from 'vitest';
import type { QueryClient } from '@tanstack/react-query';
import { applyLiveEvent, everyRefreshedKey, parseEventStream, recordChangedEvent, replayWindow, type RecordChanged } from '../../src/app/live-events.ts';

describe('the events stream parser', () => {
  it('returns complete events, skips heartbeats and keeps the unfinished rest', () => {
    const { events, rest } = parseEventStream(
      'event: ready\ndata: {}\nretry: 3000\n\n: heartbeat\n\nid: 41\nevent: notifications\ndata: {}\n\nid: 42\nevent: notif',
    );
    expect(events).toEqual([
      { id: null, event: 'ready', data: '{}' },
      { id: '41', event: 'notifications', data: '{}' },
    ]);
    expect(rest).toBe('id: 42\nevent: notif');
    expect(parseEventStream(`${rest}ications\r\ndata: {}\r\n\r\n`).events).toEqual([{ id: '42', event: 'notifications', data: '{}' }]);
  });
});

describe('a record event', () => {
  it('refreshes the queries of its kind and tells open forms, and ignores what it cannot read', () => {
    const invalidated: unknown[] = [];
    const queryClient = {
      invalidateQueries: ({ queryKey }: { queryKey: unknown }) => {
        invalidated.push(queryKey);
        return Promise.resolve();
      },
    } as unknown as QueryClient;
    const target = new EventTarget();
    const told: RecordChanged[] = [];
    target.addEventListener(recordChangedEvent, (event) => told.push((event as CustomEvent<RecordChanged>).detail));
    applyLiveEvent({ id: '7', event: 'record', data: '{"resource":"paymentJob","id":"PJ1"}' }, queryClient, target);
    expect(invalidated).toEqual([['paymentJobs'], ['transactions'], ['dashboard']]);
    expect(told).toEqual([{ resource: 'paymentJob', id: 'PJ1' }]);
    invalidated.length = 0;
    applyLiveEvent({ id: '8', event: 'record', data: 'not json' }, queryClient, target);
    applyLiveEvent({ id: '9', event: 'record', data: '{"resource":"ticket"}' }, queryClient, target);
    expect(invalidated).toEqual([]);
    expect(told).toHaveLength(1);
    applyLiveEvent({ id: '10', event: 'notifications', data: '{}' }, queryClient, target);
    expect(invalidated).toEqual([['notifications']]);
  });
});

describe('the catch-up of a stream with no event id', () => {
  it('asks for the time since the tab last listened, with a margin, and refreshes instead past five minutes', () => {
    // the first stream: from the page's start (its data was loaded before the stream opened)
    expect(replayWindow(0, 3200.4)).toBe(5201);
    // dropped before any event: from when it was last seen open
    expect(replayWindow(60_000, 61_000)).toBe(3000);
    expect(replayWindow(0, 298_000)).toBe(300_000);
    expect(replayWindow(0, 298_001)).toBeNull();
  });

  it('refreshes, when it cannot be caught up, every query an event could have refreshed, each once', () => {
    const keys = everyRefreshedKey.map((key) => JSON.stringify(key));
    expect(keys).toEqual([...new Set(keys)]);
    for (const key of [['notifications'], ['bulk-jobs'], ['paymentJobs'], ['transactions'], ['dashboard'], ['businesses'], ['configurations'], ['reports']]) {
      expect(keys).toContain(JSON.stringify(key));
    }
  });
});
