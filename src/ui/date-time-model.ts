// The portal's date and time entry, as pure functions: dates typed as dd/mm/yyyy and times as 24-hour hh:mm (the
// portal's en-GB formats), read into a wall-clock value 'YYYY-MM-DDTHH:mm' and back, stepped by the arrow keys.
// A year beyond 9999 (or before 1000) is refused with a message rather than read as something else.

export type WallClock = string;
export type Reading<T> = { value: T } | { problem: string };

const pad = (value: number, width = 2) => String(value).padStart(width, '0');
const daysIn = (year: number, month: number) => new Date(Date.UTC(year, month, 0)).getUTCDate();

/** '25/11/2026' (also 25-11-2026, 25.11.2026, 2026-11-25) → '2026-11-25'. */
export function readDate(text: string): Reading<string> {
  const trimmed = text.trim();
  if (trimmed === '') return { problem: 'Enter a date as dd/mm/yyyy.' };
  const iso = /^(\d{1,})-(\d{1,2})-(\d{1,2})$/.exec(trimmed);
  const local = /^(\d{1,2})[/.-](\d{1,2})[/.-](\d{1,})$/.exec(trimmed);
  const parts = iso ? { year: iso[1], month: iso[2], day: iso[3] } : local ? { year: local[3], month: local[2], day: local[1] } : null;
  if (!parts?.year || !parts.month || !parts.day) return { problem: 'Enter a date as dd/mm/yyyy.' };
  const year = Number(parts.year);
  const month = Number(parts.month);
  const day = Number(parts.day);
  if (parts.year.length > 4 || year > 9999) return { problem: 'The year must be 9999 or earlier.' };
  if (parts.year.length < 4 || year < 1000) return { problem: 'Write the year with four digits, like 2026.' };
  if (month < 1 || month > 12) return { problem: 'The month must be between 1 and 12.' };
  if (day < 1 || day > daysIn(year, month)) return { problem: `That month has ${daysIn(year, month)} days.` };
  return { value: `${pad(year, 4)}-${pad(month)}-${pad(day)}` };
}

/** '9:05', '09:05', '0905' → '09:05' (24-hour). */
export function readTime(text: string): Reading<string> {
  const trimmed = text.trim();
  const match = /^(\d{1,2}):?(\d{2})$/.exec(trimmed);
  if (!match) return { problem: 'Enter a time as hh:mm, 24-hour.' };
  const hours = Number(match[1]);
  const minutes = Number(match[2]);
  if (hours > 23 || minutes > 59) return { problem: 'Enter a time between 00:00 and 23:59.' };
  return { value: `${pad(hours)}:${pad(minutes)}` };
}

/** '2026-11-25' → '25/11/2026'. */
export const dateText = (isoDate: string) => {
  const [year, month, day] = isoDate.split('-');
  return year && month && day ? `${day}/${month}/${year}` : '';
};

/** The wall-clock value of a date and time typed, or the first problem (date first). */
export function readDateTime(date: string, time: string): Reading<WallClock> {
  const day = readDate(date);
  if ('problem' in day) return day;
  const clock = readTime(time);
  if ('problem' in clock) return clock;
  return { value: `${day.value}T${clock.value}` };
}

/** A typed date moved by days (↑/↓) or months (Page Up/Down), the day kept within the month; null when unreadable. */
export function stepDate(text: string, by: { days?: number; months?: number }): string | null {
  const read = readDate(text);
  if ('problem' in read) return null;
  const [year, month, day] = read.value.split('-').map(Number) as [number, number, number];
  let next: Date;
  if (by.months) {
    const first = new Date(Date.UTC(year, month - 1 + by.months, 1));
    first.setUTCDate(Math.min(day, daysIn(first.getUTCFullYear(), first.getUTCMonth() + 1)));
    next = first;
  } else {
    next = new Date(Date.UTC(year, month - 1, day + (by.days ?? 0)));
  }
  if (next.getUTCFullYear() > 9999 || next.getUTCFullYear() < 1000) return null;
  return dateText(`${pad(next.getUTCFullYear(), 4)}-${pad(next.getUTCMonth() + 1)}-${pad(next.getUTCDate())}`);
}

/** A typed time moved by minutes, wrapping round the day, landing on the step (5 minutes: 09:03 ↑ 09:05). */
export function stepTime(text: string, minutes: number): string | null {
  const read = readTime(text);
  if ('problem' in read) return null;
  const [hours, mins] = read.value.split(':').map(Number) as [number, number];
  const total = hours * 60 + mins;
  const step = Math.abs(minutes);
  const snapped = total % step === 0 ? total + minutes : minutes > 0 ? Math.ceil(total / step) * step : Math.floor(total / step) * step;
  const wrapped = ((snapped % 1440) + 1440) % 1440;
  return `${pad(Math.floor(wrapped / 60))}:${pad(wrapped % 60)}`;
}

/** 'YYYY-MM' months: '11/2026', '2026-11', 'Nov 2026' → '2026-11'. */
const monthNames = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
export function readMonth(text: string): Reading<string> {
  const trimmed = text.trim().toLowerCase();
  const iso = /^(\d+)-(\d{1,2})$/.exec(trimmed);
  const numeric = /^(\d{1,2})[/.-](\d+)$/.exec(trimmed);
  const named = /^([a-z]+)\.?\s+(\d+)$/.exec(trimmed);
  let year: string | undefined;
  let month: number | undefined;
  if (iso) {
    year = iso[1];
    month = Number(iso[2]);
  } else if (numeric) {
    year = numeric[2];
    month = Number(numeric[1]);
  } else if (named?.[1]) {
    year = named[2];
    const index = monthNames.findIndex((name) => named[1]?.startsWith(name));
    month = index >= 0 ? index + 1 : undefined;
  }
  if (!year || month === undefined) return { problem: 'Enter a month as mm/yyyy, like 10/2026.' };
  if (year.length > 4 || Number(year) > 9999) return { problem: 'The year must be 9999 or earlier.' };
  if (year.length < 4) return { problem: 'Write the year with four digits, like 2026.' };
  if (month < 1 || month > 12) return { problem: 'The month must be between 1 and 12.' };
  return { value: `${year}-${pad(month)}` };
}

/** '2026-11' moved by months. */
export function stepMonth(month: string, by: number): string {
  const [year, number] = month.split('-').map(Number) as [number, number];
  const next = new Date(Date.UTC(year, number - 1 + by, 1));
  return `${pad(next.getUTCFullYear(), 4)}-${pad(next.getUTCMonth() + 1)}`;
}

/** '2026-11' → 'November 2026'. */
export const monthName = (month: string) => new Date(`${month}-15T12:00:00Z`).toLocaleDateString('en-GB', { month: 'long', year: 'numeric', timeZone: 'UTC' });
