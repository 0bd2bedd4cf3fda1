import { describe, expect, it } from 'vitest';
import { parseEventStream } from '../../src/app/live-events.ts';

describe('the events stream parser', () => {
  it('returns complete events, skips heartbeats and keeps the unfinished rest', () => {
    const { events, rest } = parseEventStream('event: ready\ndata: {}\nretry: 3000\n\n: heartbeat\n\nid: 41\nevent: notifications\ndata: {}\n\nid: 42\nevent: notif');
    expect(events).toEqual([{ id: null, event: 'ready', data: '{}' }, { id: '41', event: 'notifications', data: '{}' }]);
    expect(rest).toBe('id: 42\nevent: notif');
    expect(parseEventStream(`${rest}ications\r\ndata: {}\r\n\r\n`).events).toEqual([{ id: '42', event: 'notifications', data: '{}' }]);
  });
});
