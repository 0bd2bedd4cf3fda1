// en-GB dates and 24-hour times with date-fns: 'd MMMM yyyy' ('5 March 2026') or 'N/A' when empty.
import { format, isValid, parseISO } from 'date-fns';

export type DateInput = Date | string | number | null | undefined;

export const notAvailable = 'N/A';

function toDate(value: DateInput): Date | null {
  if (value === null || value === undefined || value === '') return null;
  const date = typeof value === 'string' ? parseISO(value) : new Date(value);
  return isValid(date) ? date : null;
}

function formatWith(value: DateInput, pattern: string): string {
  const date = toDate(value);
  return date ? format(date, pattern) : notAvailable;
}

/** long: '5 March 2026' */
export function formatDate(value: DateInput): string {
  return formatWith(value, 'd MMMM yyyy');
}

/** short: '5 Mar 2026' */
export function formatShortDate(value: DateInput): string {
  return formatWith(value, 'd MMM yyyy');
}

/** shortNumeric: '05/03/2026' */
export function formatNumericDate(value: DateInput): string {
  return formatWith(value, 'dd/MM/yyyy');
}

/** 24-hour time: '14:05' */
export function formatTime(value: DateInput): string {
  return formatWith(value, 'HH:mm');
}

/** 24-hour time with seconds: '14:05:09' */
export function formatTimeWithSeconds(value: DateInput): string {
  return formatWith(value, 'HH:mm:ss');
}

/** short with the time: '5 Mar 2026, 14:05' (the overviews' date columns) */
export function formatShortDateTime(value: DateInput): string {
  return formatWith(value, 'd MMM yyyy, HH:mm');
}

/** '5 March 2026, 14:05' */
export function formatDateTime(value: DateInput): string {
  return formatWith(value, 'd MMMM yyyy, HH:mm');
}
