// From calendar dates and wall-clock times in a time zone to instants: where a date begins there, an instant written
// with the zone's offset, and the instant a list filter's date stands for. The server's (filters, statements, the
// dashboard's buckets); kept apart from calendar-date.ts so the client's first screen carries no zone library.
import { TZDate, tzOffset } from '@date-fns/tz';
import { type IsoDate, partsOf } from './calendar-date.ts';

const pad = (value: number, length = 2) => String(value).padStart(length, '0');

/**
 * Answers kept by key, up to `limit` of them (then all forgotten at once): the zone's rules cost microseconds a call,
 * and the same few dates and instants are asked for all day (a dashboard's buckets and their bounds).
 */
function keptAnswers<Value>(limit: number): (key: string, compute: () => Value) => Value {
  const kept = new Map<string, Value>();
  return (key, compute) => {
    let value = kept.get(key);
    if (value === undefined) {
      value = compute();
      if (kept.size >= limit) kept.clear();
      kept.set(key, value);
    }
    return value;
  };
}

// About 17 µs a date through the zone's rules: a year's dashboard asked for 26 of them on every call.
const localDateStarts = keptAnswers<number>(20_000);

/** The instant a calendar date begins in a time zone (the first valid moment when midnight is skipped). */
export function startOfLocalDate(date: IsoDate, timeZone: string): Date {
  return new Date(
    localDateStarts(`${timeZone} ${date}`, () => {
      const [year, month, day] = partsOf(date);
      return new TZDate(year, month, day, timeZone).getTime();
    }),
  );
}

// About 3 µs through the zone's rules: a year's dashboard formats 24 bucket bounds on every call.
const formattedInstants = keptAnswers<string>(20_000);

/** An instant as ISO 8601 with the zone's offset at that instant: '2026-03-29T02:00:00+01:00'. */
export function formatInstant(instant: Date, timeZone: string): string {
  return formattedInstants(`${timeZone} ${instant.getTime()}`, () => {
    const offset = tzOffset(timeZone, instant);
    const shifted = new Date(instant.getTime() + offset * 60_000).toISOString().slice(0, 19);
    const sign = offset < 0 ? '-' : '+';
    const absolute = Math.abs(offset);
    return `${shifted}${sign}${pad(Math.floor(absolute / 60))}:${pad(absolute % 60)}`;
  });
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
