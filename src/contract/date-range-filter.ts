// The date filter of the tables: the presets of the date dropdown (today … last year), the range the picker offers,
// and a range as a filter value both ways (form ⇄ the documented [gte]/[lte] syntax). All pure.
import { addDays, addMonths, isIsoDate, startOfMonth, startOfWeek, type IsoDate } from './calendar-date.ts';
import { encodeFilter, parseFilter, type FilterClause } from './list-query.ts';

export type DateRange = { start: IsoDate | null; end: IsoDate | null };

export const datePresetIds = ['today', 'yesterday', 'thisWeek', 'lastWeek', 'thisMonth', 'lastMonth', 'thisYear', 'lastYear'] as const;
export type DatePresetId = (typeof datePresetIds)[number];
export const datePresetLabels: Record<DatePresetId, string> = {
  today: 'Today',
  yesterday: 'Yesterday',
  thisWeek: 'This week',
  lastWeek: 'Last week',
  thisMonth: 'This month',
  lastMonth: 'Last month',
  thisYear: 'This year',
  lastYear: 'Last year',
};

export const pickerYearsBack = 5;
export const rangeStartTime = '00:00:00';
export const rangeEndTime = '23:59:59';
export const singleDateTime = '12:00:00';

/** A preset's first and last day, given today; periods that include today end today (the picker's last day). */
export function datePresetRange(preset: DatePresetId, today: IsoDate): { start: IsoDate; end: IsoDate } {
  const monday = startOfWeek(today);
  const firstOfMonth = startOfMonth(today);
  const year = Number(today.slice(0, 4));
  switch (preset) {
    case 'today':
      return { start: today, end: today };
    case 'yesterday': {
      const yesterday = addDays(today, -1);
      return { start: yesterday, end: yesterday };
    }
    case 'thisWeek':
      return { start: monday, end: today };
    case 'lastWeek':
      return { start: addDays(monday, -7), end: addDays(monday, -1) };
    case 'thisMonth':
      return { start: firstOfMonth, end: today };
    case 'lastMonth':
      return { start: addMonths(firstOfMonth, -1), end: addDays(firstOfMonth, -1) };
    case 'thisYear':
      return { start: `${year}-01-01`, end: today };
    case 'lastYear':
      return { start: `${year - 1}-01-01`, end: `${year - 1}-12-31` };
  }
}

/** The preset a range is exactly, if any (the dropdown shows its name). */
export function presetOfRange(range: DateRange, today: IsoDate): DatePresetId | null {
  if (!range.start || !range.end) return null;
  return (
    datePresetIds.find((id) => {
      const candidate = datePresetRange(id, today);
      return candidate.start === range.start && candidate.end === range.end;
    }) ?? null
  );
}

/** Selectable dates: from five years ago to today. */
export function pickerBounds(today: IsoDate): { min: IsoDate; max: IsoDate } {
  return { min: addMonths(today, -12 * pickerYearsBack), max: today };
}

// ---------------------------------------------------------------------------------------------------
// Form values ⇄ filter values

const dateOfValue = (value: string): IsoDate | null => {
  const date = value.slice(0, 10);
  return isIsoDate(date) ? date : null;
};

/** Ignored (undefined) unless a start or end is set; ranges run from 00:00:00 to 23:59:59. */
export function encodeDateRange(range: DateRange): string | undefined {
  const clauses: FilterClause[] = [];
  if (range.start) clauses.push({ operator: 'gte', value: `${range.start}T${rangeStartTime}` });
  if (range.end) clauses.push({ operator: 'lte', value: `${range.end}T${rangeEndTime}` });
  return clauses.length > 0 ? encodeFilter(clauses) : undefined;
}

export function decodeDateRange(raw: string | undefined): DateRange {
  const clauses = raw === undefined ? [] : parseFilter(raw);
  if (typeof clauses === 'string') return { start: null, end: null };
  const find = (operator: 'gte' | 'lte') => {
    const clause = clauses.find((candidate) => candidate.operator === operator);
    return clause ? dateOfValue(clause.value) : null;
  };
  return { start: find('gte'), end: find('lte') };
}

/** A single date travels at noon, so no time zone can move it to another day. */
export const singleDateValue = (date: IsoDate) => `${date}T${singleDateTime}`;

export function dateRangeProblem(range: DateRange): string | undefined {
  if (range.start && !isIsoDate(range.start)) return 'Start date is invalid';
  if (range.end && !isIsoDate(range.end)) return 'End date is invalid';
  if (range.start && range.end && range.start > range.end) return 'End date should be after the start date';
  return undefined;
}
