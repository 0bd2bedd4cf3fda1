// From calendar dates and wall-clock times in a time zone to instants: where a date begins there, an instant written
// with the zone's offset, and the instant a list filter's date stands for. The server's (filters, statements, the
// dashboard's buckets); kept apart from calendar-date.ts so the client's first screen carries no zone library.
import { TZDate, tzOffset } from '@date-fns/tz';
import { type IsoDate, partsOf } from './calendar-date.ts';

const pad = (value: number, length = 2) => String(value).padStart(length, '0');

/** startOfLocalDate's answers by zone and date: the same few periods are asked for all day (a dashboard's buckets). */
const localDateStarts = new Map<string, number>();
const maxLocalDateStarts = 20_000;

/** The instant a calendar date begins in a time zone (the first valid moment when midnight is skipped). */
export function startOfLocalDate(date: IsoDate, timeZone: string): Date {
  const key = `${timeZone} ${date}`;
  let start = localDateStarts.get(key);
  if (start === undefined) {
    const [year, month, day] = partsOf(date);
    // About 17 µs a date through the zone's rules: a year's dashboard asked for 26 of them on every call.
    start = new TZDate(year, month, day, timeZone).getTime();
    if (localDateStarts.size >= maxLocalDateStarts) localDateStarts.clear();
    localDateStarts.set(key, start);
  }
  return new Date(start);
}

/** formatInstant's answers by zone and instant: a dashboard's bucket bounds are the same on every call of a period. */
const formattedInstants = new Map<string, string>();
const maxFormattedInstants = 20_000;

/** An instant as ISO 8601 with the zone's offset at that instant: '2026-03-29T02:00:00+01:00'. */
export function formatInstant(instant: Date, timeZone: string): string {
  const key = `${timeZone} ${instant.getTime()}`;
  let formatted = formattedInstants.get(key);
  if (formatted === undefined) {
    // About 3 µs through the zone's rules: a year's dashboard formats 24 bucket bounds on every call.
    const offset = tzOffset(timeZone, instant);
    const shifted = new Date(instant.getTime() + offset * 60_000).toISOString().slice(0, 19);
    const sign = offset < 0 ? '-' : '+';
    const absolute = Math.abs(offset);
    formatted = `${shifted}${sign}${pad(Math.floor(absolute / 60))}:${pad(absolute % 60)}`;
    if (formattedInstants.size >= maxFormattedInstants) formattedInstants.clear();
    formattedInstants.set(key, formatted);
  }
  return formatted;
}

const offsetPattern = /(Z|[+-]\d{2}:\d{2})$/;
const dateTimePattern = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,6}))?)?)?$/;

/**
 * The instant a filter date stands for on the server. With an offset it is that instant; without, it is a wall-clock
 * time in the request's zone, and an end bound covers the whole of its last unit (a date to 23:59:59.999, 23:59:59
 * to .999), so 'lte 23:59:59' keeps a payment made at 23:59:59.4.
 */
export function filterInstant(value: string, bound: 'start' | 'end', timeZone: string): Date {
  if (offsetPattern.test(value)) {
    const instant = new Date(value);
    if (Number.isNaN(instant.getTime())) throw new RangeError(`'${value}' is not an ISO date`);
    return instant;
  }
  const match = dateTimePattern.exec(value);
  if (!match) throw new RangeError(`'${value}' is not an ISO date`);
  const [year, month, day] = [Number(match[1]), Number(match[2]) - 1, Number(match[3])];
  const hasTime = match[4] !== undefined;
  const hours = hasTime ? Number(match[4]) : bound === 'end' ? 23 : 0;
  const minutes = hasTime ? Number(match[5]) : bound === 'end' ? 59 : 0;
  const secondsGiven = match[6] !== undefined;
  const seconds = secondsGiven ? Number(match[6]) : bound === 'end' ? 59 : 0;
  const fraction = match[7];
  const milliseconds = fraction !== undefined ? Math.floor(Number(`0.${fraction}`) * 1000) : bound === 'end' ? 999 : 0;
  const zoned = new TZDate(year, month, day, hours, minutes, seconds, milliseconds, timeZone);
  return new Date(zoned.getTime());
}
