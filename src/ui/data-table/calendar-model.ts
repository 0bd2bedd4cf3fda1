// Calendar arithmetic for the date picker, over ISO dates (YYYY-MM-DD) in UTC so no zone moves a day. Pure.

export type IsoDate = string;

const pad = (value: number) => String(value).padStart(2, '0');
const toIso = (date: Date): IsoDate => `${date.getUTCFullYear()}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())}`;

export function fromIso(date: IsoDate): Date {
  const [year, month, day] = date.split('-').map(Number);
  return new Date(Date.UTC(year ?? 1970, (month ?? 1) - 1, day ?? 1));
}

export function shiftDays(date: IsoDate, days: number): IsoDate {
  const value = fromIso(date);
  value.setUTCDate(value.getUTCDate() + days);
  return toIso(value);
}

/** The same day in another month, clamped to the month's length. */
export function shiftMonths(date: IsoDate, months: number): IsoDate {
  const value = fromIso(date);
  const target = new Date(Date.UTC(value.getUTCFullYear(), value.getUTCMonth() + months, 1));
  const last = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  target.setUTCDate(Math.min(value.getUTCDate(), last));
  return toIso(target);
}

export const monthOf = (date: IsoDate) => date.slice(0, 7);
export const firstOfMonth = (date: IsoDate): IsoDate => `${monthOf(date)}-01`;

/** 0 = the week's first day (weekStartsOn: 1 = Monday). */
export function weekdayIndex(date: IsoDate, weekStartsOn: number): number {
  return (fromIso(date).getUTCDay() - weekStartsOn + 7) % 7;
}

/** The weeks of a month as rows of seven dates, padded with null outside the month. */
export function monthWeeks(month: IsoDate, weekStartsOn: number): (IsoDate | null)[][] {
  const first = firstOfMonth(month);
  const days = new Date(Date.UTC(fromIso(first).getUTCFullYear(), fromIso(first).getUTCMonth() + 1, 0)).getUTCDate();
  const cells: (IsoDate | null)[] = Array.from({ length: weekdayIndex(first, weekStartsOn) }, () => null);
  for (let day = 1; day <= days; day += 1) cells.push(`${monthOf(first)}-${pad(day)}`);
  while (cells.length % 7 !== 0) cells.push(null);
  const weeks: (IsoDate | null)[][] = [];
  for (let index = 0; index < cells.length; index += 7) weeks.push(cells.slice(index, index + 7));
  return weeks;
}

const weekdayNames = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
export function weekdayHeaders(weekStartsOn: number): { short: string; long: string }[] {
  return Array.from({ length: 7 }, (_, index) => {
    const long = weekdayNames[(index + weekStartsOn) % 7] ?? '';
    return { short: long.slice(0, 2), long };
  });
}

export const clampDate = (date: IsoDate, min: IsoDate, max: IsoDate): IsoDate => (date < min ? min : date > max ? max : date);

/** Where a key moves the active day: arrows by day and week, Page Up/Down by month (Shift: year), Home/End to the week's ends. */
export function moveByKey(date: IsoDate, key: string, shiftKey: boolean, weekStartsOn: number): IsoDate | null {
  switch (key) {
    case 'ArrowLeft':
      return shiftDays(date, -1);
    case 'ArrowRight':
      return shiftDays(date, 1);
    case 'ArrowUp':
      return shiftDays(date, -7);
    case 'ArrowDown':
      return shiftDays(date, 7);
    case 'PageUp':
      return shiftMonths(date, shiftKey ? -12 : -1);
    case 'PageDown':
      return shiftMonths(date, shiftKey ? 12 : 1);
    case 'Home':
      return shiftDays(date, -weekdayIndex(date, weekStartsOn));
    case 'End':
      return shiftDays(date, 6 - weekdayIndex(date, weekStartsOn));
    default:
      return null;
  }
}

/** A click or Enter on a day: the first pick starts a range, the second ends it (in either order). */
export function pickDay(
  range: { start: IsoDate | null; end: IsoDate | null },
  day: IsoDate,
  picking: 'start' | 'end',
): { range: { start: IsoDate; end: IsoDate | null }; next: 'start' | 'end' } {
  if (picking === 'start' || !range.start) return { range: { start: day, end: null }, next: 'end' };
  return day < range.start ? { range: { start: day, end: range.start }, next: 'start' } : { range: { start: range.start, end: day }, next: 'start' };
}
