// The money periods of a business, cut in its own time zone (businesses.time_zone, an IANA name): statement days and
// months, settlement batches (one batch is one business day), invoice months, monthly minimums and commission months.
// One rule for all of them, so a sale at 00:03 London time on 1 October is in October everywhere: in October's
// statement, October's batch, October's invoice and minimum and October's commission, never in one place September.
// A day runs from one local midnight to the next: 23 hours on the day summer time starts, 25 on the day it ends.
// The SQL helpers cut the same periods in the database (AT TIME ZONE with the same IANA name).
import { TZDate, tzOffset } from '@date-fns/tz';
import { sql } from 'drizzle-orm';
import { addDays, addMonths, calendarDate } from '../../src/contract/calendar-date.ts';
import { startOfLocalDate } from '../../src/contract/zoned-time.ts';
import { businesses } from '../db/schema.ts';
import type { DbWriter } from '../db/client.ts';

/** The zone of a business that names none, and of the demo world's British businesses. */
export const defaultBusinessTimeZone = 'Europe/London';

/**
 * The widest a local day or month reaches beyond the same UTC one: zones run from UTC−12 to UTC+14. A period read
 * across businesses of different zones is first bounded by its UTC period widened by this much (what an index can
 * use), then cut exactly per business.
 */
export const widestOffsetMs = 14 * 3_600_000;

export type Instants = { start: Date; end: Date };

const datePattern = /^(\d{4})-(\d{2})-(\d{2})$/;
const monthPattern = /^(\d{4})-(\d{2})$/;
const pad = (value: number) => String(value).padStart(2, '0');

/** The business day ('YYYY-MM-DD') an instant falls on. */
export const localDay = (instant: Date, zone: string): string => calendarDate(instant, zone);

/** The business month ('YYYY-MM') an instant falls in. */
export const localMonth = (instant: Date, zone: string): string => calendarDate(instant, zone).slice(0, 7);

/** [start, end) of a business day 'YYYY-MM-DD': from its midnight to the next day's (23, 24 or 25 hours). */
export function dayBounds(date: string, zone: string): Instants {
  const match = datePattern.exec(date);
  if (!match) throw new RangeError(`'${date}' is not YYYY-MM-DD`);
  return { start: startOfLocalDate(date, zone), end: startOfLocalDate(addDays(date, 1), zone) };
}

/** [start, end) of the business day an instant falls on. */
export const dayOf = (instant: Date, zone: string): Instants & { date: string } => {
  const date = localDay(instant, zone);
  return { date, ...dayBounds(date, zone) };
};

/** [start, end) of a business month 'YYYY-MM'. */
export function monthBoundsIn(month: string, zone: string): Instants {
  const match = monthPattern.exec(month);
  if (!match) throw new RangeError(`'${month}' is not YYYY-MM`);
  return { start: startOfLocalDate(`${month}-01`, zone), end: startOfLocalDate(addMonths(`${month}-01`, 1), zone) };
}

/** [start, end) of the business month an instant falls in. */
export const monthOf = (instant: Date, zone: string): Instants & { month: string } => {
  const month = localMonth(instant, zone);
  return { month, ...monthBoundsIn(month, zone) };
};

/** 'YYYY-MM' plus or minus whole months. */
export function addMonthsTo(month: string, months: number): string {
  const match = monthPattern.exec(month);
  if (!match) throw new RangeError(`'${month}' is not YYYY-MM`);
  return addMonths(`${month}-01`, months).slice(0, 7);
}

/** The UTC instants that hold every zone's version of a month: its UTC bounds widened by widestOffsetMs. */
export function monthEnvelope(month: string): Instants {
  const utc = monthBoundsIn(month, 'UTC');
  return { start: new Date(utc.start.getTime() - widestOffsetMs), end: new Date(utc.end.getTime() + widestOffsetMs) };
}

/**
 * The zone's offset from UTC at an instant in whole minutes, as TZDate's getTimezoneOffset rounds it (a historical
 * offset's seconds dropped towards zero), with one look-up of the zone's offset rather than the several a TZDate makes.
 */
function offsetMinutes(instant: Date, zone: string): number {
  const offset = -tzOffset(zone, instant);
  return -(offset > 0 ? Math.floor(offset) : Math.ceil(offset));
}

const offsetText = (minutes: number) => {
  const sign = minutes < 0 ? '-' : '+';
  const whole = Math.abs(minutes);
  return `${sign}${pad(Math.floor(whole / 60))}:${pad(whole % 60)}`;
};

/** The zone's offset from UTC at an instant, as ISO 8601 writes it: '+01:00', '+09:00', '-05:00', '+00:00'. */
export function offsetAt(instant: Date, zone: string): string {
  return offsetText(-new TZDate(instant.getTime(), zone).getTimezoneOffset());
}

/** An instant as a local ISO 8601 date and time with the zone's offset: '2026-10-01T00:03:00+01:00'. */
export function localDateTime(instant: Date, zone: string): string {
  const zoned = new TZDate(instant.getTime(), zone);
  const date = `${zoned.getFullYear()}-${pad(zoned.getMonth() + 1)}-${pad(zoned.getDate())}`;
  const time = `${pad(zoned.getHours())}:${pad(zoned.getMinutes())}:${pad(zoned.getSeconds())}`;
  const millis = zoned.getMilliseconds();
  return `${date}T${time}${millis ? `.${String(millis).padStart(3, '0')}` : ''}${offsetAt(instant, zone)}`;
}

/**
 * localDay and localDateTime for many instants of one zone (a statement file's thousands of entries): the zone's
 * offset is looked up once per UTC day, which holds at most one clock change (where the offsets at its two ends
 * differ, each instant of it is looked up), and the rest is arithmetic. Same answers as localDay and localDateTime.
 */
export function zonedClock(zone: string): { day: (instant: Date) => string; dateTime: (instant: Date) => string } {
  const offsets = new Map<number, { minutes: number; text: string } | null>();
  const offsetOf = (instant: Date) => {
    const minutes = offsetMinutes(instant, zone);
    return { minutes, text: offsetText(minutes) };
  };
  const offsetFor = (instant: Date) => {
    const utcDay = Math.floor(instant.getTime() / 86_400_000);
    let offset = offsets.get(utcDay);
    if (offset === undefined) {
      const first = offsetOf(new Date(utcDay * 86_400_000));
      const last = offsetOf(new Date((utcDay + 1) * 86_400_000 - 1));
      offset = first.minutes === last.minutes ? first : null;
      offsets.set(utcDay, offset);
    }
    return offset ?? offsetOf(instant);
  };
  const shifted = (instant: Date) => {
    const offset = offsetFor(instant);
    return { local: new Date(instant.getTime() + offset.minutes * 60_000), offset: offset.text };
  };
  const dateOf = (local: Date) => `${local.getUTCFullYear()}-${pad(local.getUTCMonth() + 1)}-${pad(local.getUTCDate())}`;
  return {
    day: (instant) => dateOf(shifted(instant).local),
    dateTime: (instant) => {
      const { local, offset } = shifted(instant);
      const millis = local.getUTCMilliseconds();
      return `${dateOf(local)}T${pad(local.getUTCHours())}:${pad(local.getUTCMinutes())}:${pad(local.getUTCSeconds())}${millis ? `.${String(millis).padStart(3, '0')}` : ''}${offset}`;
    },
  };
}

/** The zones of many businesses at once. */
export async function businessTimeZones(reader: Pick<DbWriter, 'select'>, businessIds: readonly string[]): Promise<Map<string, string>> {
  const ids = [...new Set(businessIds)];
  if (ids.length === 0) return new Map();
  const rows = await reader
    .select({ id: businesses.id, timeZone: businesses.timeZone })
    .from(businesses)
    .where(
      sql`${businesses.id} IN (${sql.join(
        ids.map((id) => sql`${id}`),
        sql`, `,
      )})`,
    );
  return new Map(rows.map((row) => [row.id, row.timeZone]));
}

// ── the same periods in SQL (a zone column or value) ──
