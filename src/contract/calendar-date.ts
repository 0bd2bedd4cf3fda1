// Calendar dates ('YYYY-MM-DD') and their arithmetic, and the date of an instant in a time zone. Shared by the server
// and the client (the dashboard loads it with the first screen). Pure. The arithmetic runs on UTC day numbers: a
// TZDate costs tens of microseconds an operation (every one goes through Intl), and the dashboard's bucket plan of a
// year took a fifth of its CPU time on the embedded database when it used one. The other way, from a date or a
// wall-clock time in a zone to an instant, is zoned-time.ts (the server's), which needs the zone library.

/** A calendar date, 'YYYY-MM-DD', with no time zone of its own. */
export type IsoDate = string;

/** Monday: the date picker's first day of the week, and the first day of the dashboard's weeks. */
export const weekStartsOn = 1;

const isoDatePattern = /^(\d{4})-(\d{2})-(\d{2})$/;

const pad = (value: number, length = 2) => String(value).padStart(length, '0');

/** Year, month (0–11) and day of a 'YYYY-MM-DD' date. */
export function partsOf(date: IsoDate): [number, number, number] {
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

/** A formatter per time zone: the date parts of an instant there (Intl's own zone data, no library). */
const dateFormats = new Map<string, Intl.DateTimeFormat>();
function dateFormatOf(timeZone: string): Intl.DateTimeFormat {
  let format = dateFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', { timeZone, year: 'numeric', month: 'numeric', day: 'numeric', era: 'short' });
    dateFormats.set(timeZone, format);
  }
  return format;
}

/** The calendar date of an instant in a time zone (the browser's own when none is given). */
export function calendarDate(instant: Date | number, timeZone?: string): IsoDate {
  const time = typeof instant === 'number' ? instant : instant.getTime();
  if (!timeZone) {
    const local = new Date(time);
    return `${pad(local.getFullYear(), 4)}-${pad(local.getMonth() + 1)}-${pad(local.getDate())}`;
  }
  let year = 0;
  let month = 0;
  let day = 0;
  let beforeCommonEra = false;
  for (const part of dateFormatOf(timeZone).formatToParts(time)) {
    if (part.type === 'year') year = Number(part.value);
    else if (part.type === 'month') month = Number(part.value);
    else if (part.type === 'day') day = Number(part.value);
    else if (part.type === 'era') beforeCommonEra = part.value === 'BC';
  }
  return `${pad(beforeCommonEra ? 1 - year : year, 4)}-${pad(month)}-${pad(day)}`;
}
