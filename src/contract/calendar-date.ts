// Calendar dates ('YYYY-MM-DD') and their arithmetic, and how they meet instants in a time zone: the date of an
// instant, the instant a date begins, the instant a filter date stands for. Shared by the server and the client.
// Pure. The arithmetic runs on UTC day numbers: a TZDate costs tens of microseconds an operation (every one goes
// through Intl), and the dashboard's bucket plan of a year took a fifth of its CPU time on the embedded database
// when it used one. TZDate is kept for what needs a time zone.
import { TZDate, tzOffset } from '@date-fns/tz';

/** A calendar date, 'YYYY-MM-DD', with no time zone of its own. */
export type IsoDate = string;

/** Monday: the date picker's first day of the week, and the first day of the dashboard's weeks. */
export const weekStartsOn = 1;

const isoDatePattern = /^(\d{4})-(\d{2})-(\d{2})$/;

const pad = (value: number, length = 2) => String(value).padStart(length, '0');

/** Year, month (0–11) and day of a 'YYYY-MM-DD' date. */
function partsOf(date: IsoDate): [number, number, number] {
  const match = isoDatePattern.exec(date);
  if (!match) throw new RangeError(`'${date}' is not a YYYY-MM-DD date`);
  return [Number(match[1]), Number(match[2]) - 1, Number(match[3])];
}

/** The date of a UTC midnight given in milliseconds. */
function dateOfUtcDay(ms: number): IsoDate {
  const date = new Date(ms);
  return `${pad(date.getUTCFullYear(), 4)}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())}`;
}

/** A real date in 'YYYY-MM-DD' (not 2026-02-29, not 2026-1-01). */
export function isIsoDate(value: string): boolean {
  if (!isoDatePattern.test(value)) return false;
  return dateOfUtcDay(Date.UTC(...partsOf(value))) === value;
}

export function addDays(date: IsoDate, days: number): IsoDate {
  const [year, month, day] = partsOf(date);
  return dateOfUtcDay(Date.UTC(year, month, day + days));
}

/** Months later (or earlier), the day kept or, past the end of the target month, its last day (31 March − 1 month → 28/29 February). */
export function addMonths(date: IsoDate, months: number): IsoDate {
  const [year, month, day] = partsOf(date);
  const lastDay = new Date(Date.UTC(year, month + months + 1, 0)).getUTCDate();
  return dateOfUtcDay(Date.UTC(year, month + months, Math.min(day, lastDay)));
}

/** 1 = Monday … 7 = Sunday. */
export function isoWeekday(date: IsoDate): number {
  return ((new Date(Date.UTC(...partsOf(date))).getUTCDay() + 6) % 7) + 1;
}

/** The first day of the week that holds a date (weeks start on weekStartsOn). */
export const startOfWeek = (date: IsoDate): IsoDate => addDays(date, -((isoWeekday(date) - weekStartsOn + 7) % 7));

export const startOfMonth = (date: IsoDate): IsoDate => `${date.slice(0, 7)}-01`;

export function endOfMonth(date: IsoDate): IsoDate {
  const [year, month] = partsOf(date);
  return dateOfUtcDay(Date.UTC(year, month + 1, 0));
}

/** Whole days from start to end, both counted. */
export function daysInRange(startDate: IsoDate, endDate: IsoDate): number {
  return Math.round((Date.UTC(...partsOf(endDate)) - Date.UTC(...partsOf(startDate))) / 86_400_000) + 1;
}

/** The calendar date of an instant in a time zone (the browser's own when none is given). */
export function calendarDate(instant: Date | number, timeZone?: string): IsoDate {
  const time = typeof instant === 'number' ? instant : instant.getTime();
  const zoned = timeZone ? new TZDate(time, timeZone) : new Date(time);
  return `${pad(zoned.getFullYear(), 4)}-${pad(zoned.getMonth() + 1)}-${pad(zoned.getDate())}`;
}

/** The instant a calendar date begins in a time zone (the first valid moment when midnight is skipped). */
export function startOfLocalDate(date: IsoDate, timeZone: string): Date {
  const [year, month, day] = partsOf(date);
  return new Date(new TZDate(year, month, day, timeZone).getTime());
}

/** An instant as ISO 8601 with the zone's offset at that instant: '2026-03-29T02:00:00+01:00'. */
export function formatInstant(instant: Date, timeZone: string): string {
  const offset = tzOffset(timeZone, instant);
  const shifted = new Date(instant.getTime() + offset * 60_000).toISOString().slice(0, 19);
  const sign = offset < 0 ? '-' : '+';
  const absolute = Math.abs(offset);
  return `${shifted}${sign}${pad(Math.floor(absolute / 60))}:${pad(absolute % 60)}`;
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
