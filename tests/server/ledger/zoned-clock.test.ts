// zonedClock (server/ledger/periods.ts) answers as localDay and localDateTime do, instant by instant, across clock
// changes: London's 23- and 25-hour days, Lord Howe's half-hour change at 15:30 UTC, Santiago's change at midnight,
// and zones without summer time.
import { describe, expect, it } from 'vitest';
import { localDateTime, localDay, zonedClock } from '../../../server/ledger/periods.ts';

const zones = ['Europe/London', 'Asia/Tokyo', 'Australia/Lord_Howe', 'America/Santiago', 'Asia/Kathmandu', 'America/St_Johns', 'UTC'];
const windows = [
  '2026-03-29T00:00:00Z',
  '2026-10-25T00:00:00Z',
  '2026-04-04T12:00:00Z',
  '2026-09-05T12:00:00Z',
  '2026-10-03T12:00:00Z',
  '2026-11-01T00:00:00Z',
];

describe('zonedClock', () => {
  it.each(zones)('gives the day and local date-time localDay and localDateTime give, in %s', (zone) => {
    const clock = zonedClock(zone);
    for (const window of windows) {
      const from = new Date(window).getTime() - 36 * 3_600_000;
      // Every 7 minutes and 13.5 seconds over three days, so whole, fractional and odd seconds all occur.
      for (let at = from; at < from + 72 * 3_600_000; at += 433_500) {
        const instant = new Date(at);
        expect([clock.day(instant), clock.dateTime(instant)], instant.toISOString()).toEqual([localDay(instant, zone), localDateTime(instant, zone)]);
      }
    }
  });
});
