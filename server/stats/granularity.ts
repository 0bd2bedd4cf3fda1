// The statistics store keeps the same measures at three UTC granularities. Any interval whose ends fall on quarter
// hours (every IANA offset in use since 2000 does) splits exactly into whole UTC days in the middle, whole hours
// next to them and quarter hours at the very edges, so a query reads the coarsest rows that are exact.
import {
  transactionActivityStats,
  transactionActivityStatsDaily,
  transactionActivityStatsHourly,
  transactionStats,
  transactionStatsDaily,
  transactionStatsHourly,
} from '../db/schema.ts';
import type { DateBasis } from './definition.ts';

export const granularities = ['quarterHour', 'hour', 'day'] as const;
export type Granularity = (typeof granularities)[number];

export const granularityMs: Record<Granularity, number> = { quarterHour: 900_000, hour: 3_600_000, day: 86_400_000 };

export const statsTables = {
  quarterHour: transactionStats,
  hour: transactionStatsHourly,
  day: transactionStatsDaily,
} as const;
/** The activity view's tables (money on the day it moved), the same shape at the same granularities. */
export const activityStatsTables = {
  quarterHour: transactionActivityStats,
  hour: transactionActivityStatsHourly,
  day: transactionActivityStatsDaily,
} as const;
export type StatsTable = (typeof statsTables)[Granularity] | (typeof activityStatsTables)[Granularity];

export const statsTablesOf = (basis: DateBasis): Record<Granularity, StatsTable> => (basis === 'activityDate' ? activityStatsTables : statsTables);

export function floorTo(instant: number, granularity: Granularity): number {
  const size = granularityMs[granularity];
  return Math.floor(instant / size) * size;
}

export function ceilTo(instant: number, granularity: Granularity): number {
  const size = granularityMs[granularity];
  return Math.ceil(instant / size) * size;
}

/** The UTC bucket of a granularity that holds an instant. */
export const bucketStartOf = (instant: Date, granularity: Granularity) => new Date(floorTo(instant.getTime(), granularity));

export type Piece = { granularity: Granularity; from: Date; to: Date };

const coarsestFirst: readonly Granularity[] = ['day', 'hour', 'quarterHour'];

/**
 * [start, end) as the fewest pieces, each a run of whole buckets of one granularity: days in the middle, hours
 * beside them, quarter hours at the edges. Ends off the quarter-hour grid are taken at the quarter hour before.
 */
export function decompose(start: Date, end: Date): Piece[] {
  const pieces: Piece[] = [];
  const split = (from: number, to: number, level: number): void => {
    if (from >= to) return;
    const granularity = coarsestFirst[level] as Granularity;
    if (level === coarsestFirst.length - 1) {
      pieces.push({ granularity, from: new Date(from), to: new Date(to) });
      return;
    }
    const innerFrom = ceilTo(from, granularity);
    const innerTo = floorTo(to, granularity);
    if (innerFrom >= innerTo) {
      split(from, to, level + 1);
      return;
    }
    split(from, innerFrom, level + 1);
    pieces.push({ granularity, from: new Date(innerFrom), to: new Date(innerTo) });
    split(innerTo, to, level + 1);
  };
  split(floorTo(start.getTime(), 'quarterHour'), floorTo(end.getTime(), 'quarterHour'), 0);
  return pieces;
}
