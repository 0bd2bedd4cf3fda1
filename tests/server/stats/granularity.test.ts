import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { periodContaining } from '../../../src/contract/dashboard-intervals.ts';
import { bucketPlan } from '../../../src/contract/dashboard-buckets.ts';
import { decompose, granularityMs, type Piece } from '../../../server/stats/granularity.ts';

const at = (text: string) => new Date(text);
const show = (pieces: Piece[]) => pieces.map((piece) => `${piece.granularity} ${piece.from.toISOString().slice(0, 16)}–${piece.to.toISOString().slice(0, 16)}`);

describe('decompose', () => {
  it('reads whole UTC days from the daily table', () => {
    expect(show(decompose(at('2026-01-01T00:00Z'), at('2026-02-01T00:00Z')))).toEqual(['day 2026-01-01T00:00–2026-02-01T00:00']);
  });

  it('a London summer day is 24 hours, a winter day one day', () => {
    const [summer] = bucketPlan(periodContaining('week', '2026-06-10'), 'Europe/London').buckets;
    expect(show(decompose(summer!.start, summer!.end))).toEqual(['hour 2026-06-07T23:00–2026-06-08T23:00']);
    const [winter] = bucketPlan(periodContaining('week', '2026-01-14'), 'Europe/London').buckets;
    expect(show(decompose(winter!.start, winter!.end))).toEqual(['day 2026-01-12T00:00–2026-01-13T00:00']);
  });

  it('a London summer month is whole days with an hour at the start', () => {
    const july = bucketPlan(periodContaining('year', '2026-07-01'), 'Europe/London').buckets[6]!;
    expect(show(decompose(july.start, july.end))).toEqual([
      'hour 2026-06-30T23:00–2026-07-01T00:00',
      'day 2026-07-01T00:00–2026-07-31T00:00',
      'hour 2026-07-31T00:00–2026-07-31T23:00',
    ]);
  });

  it('a Kolkata month needs half hours at the edges only', () => {
    const march = bucketPlan(periodContaining('year', '2026-03-01'), 'Asia/Kolkata').buckets[2]!;
    expect(show(decompose(march.start, march.end))).toEqual([
      'quarterHour 2026-02-28T18:30–2026-02-28T19:00',
      'hour 2026-02-28T19:00–2026-03-01T00:00',
      'day 2026-03-01T00:00–2026-03-31T00:00',
      'hour 2026-03-31T00:00–2026-03-31T18:00',
      'quarterHour 2026-03-31T18:00–2026-03-31T18:30',
    ]);
  });

  it('an hour in Kathmandu is four quarter hours across two UTC hours', () => {
    const hour = bucketPlan(periodContaining('day', '2026-03-01'), 'Asia/Kathmandu').buckets[0]!;
    expect(show(decompose(hour.start, hour.end))).toEqual(['quarterHour 2026-02-28T18:15–2026-02-28T19:15']);
  });

  it('tiles any quarter-hour range exactly with whole buckets, coarse in the middle', () => {
    const quarter = granularityMs.quarterHour;
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 4 * 24 * 800 }), fc.integer({ min: 0, max: 4 * 24 * 400 }), (startQuarter, length) => {
        const start = new Date(Date.UTC(2024, 0, 1) + startQuarter * quarter);
        const end = new Date(start.getTime() + length * quarter);
        const pieces = decompose(start, end);
        let cursor = start.getTime();
        for (const piece of pieces) {
          expect(piece.from.getTime()).toBe(cursor);
          expect(piece.to.getTime()).toBeGreaterThan(piece.from.getTime());
          expect(piece.from.getTime() % granularityMs[piece.granularity]).toBe(0);
          expect(piece.to.getTime() % granularityMs[piece.granularity]).toBe(0);
          cursor = piece.to.getTime();
        }
        expect(cursor).toBe(end.getTime());
        // At most: quarters, hours, days, hours, quarters.
        expect(pieces.length).toBeLessThanOrEqual(5);
      }),
      { numRuns: 500 },
    );
  });
});
