// Filter values both ways (form ⇄ the documented [eq]/[gte]/[lte] syntax), date-range presets, the meaning of a
// date value on the server, filter presets and column choices as stored in user settings. All pure.
import { TZDate } from '@date-fns/tz';
import { encodeFilter, parseFilter, parseListQuery, type FilterClause, type ListQuerySpec, type SortKey } from './list-query.ts';

// ---------------------------------------------------------------------------------------------------
// Calendar dates (YYYY-MM-DD) and the presets of the date dropdown

export type IsoDate = string;
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

/** Monday, as the picker's first day of the week. */
export const weekStartsOn = 1;
export const pickerYearsBack = 5;
export const pickerOneColumnBelowPx = 576;
export const rangeStartTime = '00:00:00';
export const rangeEndTime = '23:59:59';
export const singleDateTime = '12:00:00';

const isoDatePattern = /^(\d{4})-(\d{2})-(\d{2})$/;

export function isIsoDate(value: string): boolean {
  const match = isoDatePattern.exec(value);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

function utcOf(date: IsoDate): Date {
  const match = isoDatePattern.exec(date);
  if (!match) throw new Error(`'${date}' is not YYYY-MM-DD`);
  return new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])));
}
const isoOf = (date: Date): IsoDate => date.toISOString().slice(0, 10);

export function addDays(date: IsoDate, days: number): IsoDate {
  const utc = utcOf(date);
  utc.setUTCDate(utc.getUTCDate() + days);
  return isoOf(utc);
}

/** Adds months, clamping the day to the target month's length (31 March − 1 month → 28/29 February). */
export function addMonths(date: IsoDate, months: number): IsoDate {
  const utc = utcOf(date);
  const day = utc.getUTCDate();
  const target = new Date(Date.UTC(utc.getUTCFullYear(), utc.getUTCMonth() + months, 1));
  const lastDay = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  target.setUTCDate(Math.min(day, lastDay));
  return isoOf(target);
}

/** 1 = Monday … 7 = Sunday. */
export function isoWeekday(date: IsoDate): number {
  return ((utcOf(date).getUTCDay() + 6) % 7) + 1;
}

/** The calendar date of an instant in a time zone (the browser's own when none is given). */
export function calendarDate(instant: Date, timeZone?: string): IsoDate {
  const zoned = timeZone ? new TZDate(instant.getTime(), timeZone) : instant;
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${zoned.getFullYear()}-${pad(zoned.getMonth() + 1)}-${pad(zoned.getDate())}`;
}

/** A preset's first and last day, given today; periods that include today end today (the picker's last day). */
export function datePresetRange(preset: DatePresetId, today: IsoDate): { start: IsoDate; end: IsoDate } {
  const monday = addDays(today, 1 - isoWeekday(today));
  const firstOfMonth = `${today.slice(0, 7)}-01`;
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

export const pickerColumns = (viewportWidth: number): 1 | 2 => (viewportWidth < pickerOneColumnBelowPx ? 1 : 2);

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

export type AmountFilter = { mode: 'exact' | 'range'; exact: string; min: string; max: string };
export const emptyAmountFilter: AmountFilter = { mode: 'range', exact: '', min: '', max: '' };
const amountPattern = /^\d{1,13}(\.\d{1,3})?$/;

/** Exact match, or min and/or max; empty parts are ignored. */
export function encodeAmount(amount: AmountFilter): string | undefined {
  const exact = amount.exact.trim();
  const min = amount.min.trim();
  const max = amount.max.trim();
  if (amount.mode === 'exact') return exact ? encodeFilter([{ operator: 'eq', value: exact }]) : undefined;
  const clauses: FilterClause[] = [];
  if (min) clauses.push({ operator: 'gte', value: min });
  if (max) clauses.push({ operator: 'lte', value: max });
  return clauses.length > 0 ? encodeFilter(clauses) : undefined;
}

export function decodeAmount(raw: string | undefined): AmountFilter {
  const clauses = raw === undefined ? [] : parseFilter(raw);
  if (typeof clauses === 'string' || clauses.length === 0) return emptyAmountFilter;
  const value = (operator: 'eq' | 'gte' | 'lte') => clauses.find((clause) => clause.operator === operator)?.value ?? '';
  if (value('eq')) return { mode: 'exact', exact: value('eq'), min: '', max: '' };
  return { mode: 'range', exact: '', min: value('gte'), max: value('lte') };
}

export type AmountProblems = { exact?: string; min?: string; max?: string };

export function amountProblems(amount: AmountFilter): AmountProblems {
  const problems: AmountProblems = {};
  const check = (value: string) => (value.trim() === '' || amountPattern.test(value.trim()) ? undefined : 'Only decimal input is allowed');
  if (amount.mode === 'exact') {
    const exact = check(amount.exact);
    if (exact) problems.exact = exact;
    return problems;
  }
  const min = check(amount.min);
  const max = check(amount.max);
  if (min) problems.min = min;
  if (max) problems.max = max;
  if (!min && !max && amount.min.trim() && amount.max.trim() && Number(amount.min) > Number(amount.max)) {
    problems.max = `Maximum amount should be above ${amount.min.trim()}`;
  }
  return problems;
}

export function dateRangeProblem(range: DateRange): string | undefined {
  if (range.start && !isIsoDate(range.start)) return 'Start date is invalid';
  if (range.end && !isIsoDate(range.end)) return 'End date is invalid';
  if (range.start && range.end && range.start > range.end) return 'End date should be after the start date';
  return undefined;
}

/** Any of the values: [eq]a[and][eq]b, lower-cased as the list convention asks. */
export function encodeAnyOf(values: readonly string[]): string | undefined {
  const unique = [...new Set(values.map((value) => value.toLowerCase()))];
  return unique.length > 0 ? encodeFilter(unique.map((value) => ({ operator: 'eq', value }))) : undefined;
}

/** The known values among a filter's [eq] clauses, in their declared spelling. */
export function decodeAnyOf(raw: string | undefined, allowed: readonly string[]): string[] {
  const clauses = raw === undefined ? [] : parseFilter(raw);
  if (typeof clauses === 'string') return [];
  const found = clauses
    .filter((clause) => clause.operator === 'eq')
    .map((clause) => allowed.find((value) => value.toLowerCase() === clause.value.toLowerCase()))
    .filter((value): value is string => value !== undefined);
  return [...new Set(found)];
}

export const maxSearchLength = 100;

/** Free text: trimmed, control characters and the [and] separator removed, at most 100 characters. */
export function encodeSearchTerm(term: string): string | undefined {
  let cleaned = term.replace(/[\u0000-\u001f\u007f]/g, ' ');
  while (cleaned.includes('[and]')) cleaned = cleaned.replaceAll('[and]', ' ');
  cleaned = cleaned.trim().slice(0, maxSearchLength).trim();
  return cleaned ? encodeFilter([{ operator: 'eq', value: cleaned }]) : undefined;
}

export function decodeSearchTerm(raw: string | undefined): string {
  const clauses = raw === undefined ? [] : parseFilter(raw);
  return typeof clauses === 'string' ? '' : (clauses.find((clause) => clause.operator === 'eq')?.value ?? '');
}

/** Drops empty entries, so an unset filter never reaches a URL, a preset or the server. */
export function compactFilters(filters: Record<string, string | undefined>): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [key, value] of Object.entries(filters)) if (value !== undefined && value !== '') result[key] = value;
  return result;
}

// ---------------------------------------------------------------------------------------------------
// What a date value means on the server

const offsetPattern = /(Z|[+-]\d{2}:\d{2})$/;
const dateTimePattern = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,6}))?)?)?$/;

/**
 * The instant a filter date stands for. With an offset it is that instant; without, it is a wall-clock time in the
 * request's zone, and an end bound covers the whole of its last unit (a date to 23:59:59.999, 23:59:59 to .999),
 * so 'lte 23:59:59' keeps a payment made at 23:59:59.4.
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

// ---------------------------------------------------------------------------------------------------
// Column choices (user setting {page}Columns)

export const columnsSettingKey = (page: string) => `${page}Columns`;

function parseJson(json: string | null | undefined): unknown {
  if (!json) return null;
  try {
    return JSON.parse(json) as unknown;
  } catch {
    return null;
  }
}

export type ColumnChoice = { order: string[]; hidden: string[] };

/**
 * The saved order and hidden set applied to the current columns: unknown saved names are dropped, columns added
 * since are placed where the default order puts them, and at least one column always stays visible.
 */
export const applyColumnChoice = (json: string | null | undefined, columns: readonly string[], defaultVisible: readonly string[]) =>
  columnChoiceOf(parseJson(json), columns, defaultVisible);

/** The same for a value already parsed (user settings arrive parsed). */
export function columnChoiceOf(value: unknown, columns: readonly string[], defaultVisible: readonly string[]): { order: string[]; visible: string[] } {
  const fallback = { order: [...columns], visible: columns.filter((column) => defaultVisible.includes(column)) };
  if (typeof value !== 'object' || value === null) return fallback;
  const { order, hidden } = value as Record<string, unknown>;
  if (!Array.isArray(order) || !Array.isArray(hidden)) return fallback;
  const savedOrder = order.filter((name): name is string => typeof name === 'string' && columns.includes(name));
  const merged = [...new Set(savedOrder)];
  for (const column of columns) {
    if (merged.includes(column)) continue;
    // Before the nearest column that follows it by default, or last when none does.
    const follower = columns.slice(columns.indexOf(column) + 1).find((name) => merged.includes(name));
    if (follower === undefined) merged.push(column);
    else merged.splice(merged.indexOf(follower), 0, column);
  }
  const hiddenSet = new Set(hidden.filter((name): name is string => typeof name === 'string'));
  // A column new since the choice was saved follows the default (visible or not), not the saved hidden set.
  const visible = merged.filter((column) => (savedOrder.includes(column) ? !hiddenSet.has(column) : defaultVisible.includes(column)));
  return visible.length > 0 ? { order: merged, visible } : fallback;
}

export const columnChoice = (order: readonly string[], visible: readonly string[]): ColumnChoice => ({
  order: [...order],
  hidden: order.filter((column) => !visible.includes(column)),
});
export const serialiseColumnChoice = (order: readonly string[], visible: readonly string[]) => JSON.stringify(columnChoice(order, visible));

// ---------------------------------------------------------------------------------------------------
// The table's state in the URL: the same parameters the API takes, so a link is also the request

export type ListState = { pageNumber: number; pageSize: number; sort: SortKey; filters: Record<string, string> };

/**
 * Reads a table's state from query parameters, keeping what is valid and dropping the rest (a hand-edited or
 * stale link still opens, as close to what it said as possible).
 */
export function listStateFromParams(params: Record<string, string>, spec: ListQuerySpec): ListState {
  const defaultSort = spec.defaultSort[0] ?? { field: spec.sortable[0] ?? '', descending: false };
  const state: ListState = { pageNumber: 1, pageSize: 25, sort: defaultSort, filters: {} };
  const accept = (subset: Record<string, string>) => parseListQuery(subset, spec);
  for (const [name, value] of Object.entries(params)) {
    const key = name.toLowerCase();
    if (key === 'pagenumber' || key === 'pagesize') {
      const result = accept({ [key]: value });
      if (result.ok) {
        if (key === 'pagenumber') state.pageNumber = result.query.pageNumber;
        else state.pageSize = result.query.pageSize;
      }
    } else if (Object.hasOwn(spec.filters, key)) {
      if (accept({ [key]: value }).ok) state.filters[key] = value;
    }
  }
  const orderingField = Object.entries(params).find(([name]) => name.toLowerCase() === 'orderingfield')?.[1];
  const orderingDirection = Object.entries(params).find(([name]) => name.toLowerCase() === 'orderingdirection')?.[1];
  if (orderingField !== undefined) {
    const result = accept({ OrderingField: orderingField, ...(orderingDirection ? { OrderingDirection: orderingDirection } : {}) });
    if (result.ok && result.query.sort[0]) state.sort = result.query.sort[0];
  }
  return state;
}

/** The parameters of a state; defaults are left out so links stay short. */
export function listStateToParams(state: ListState, spec: ListQuerySpec, defaultPageSize = 25): Record<string, string> {
  const params: Record<string, string> = {};
  if (state.pageNumber !== 1) params.pagenumber = String(state.pageNumber);
  if (state.pageSize !== defaultPageSize) params.pagesize = String(state.pageSize);
  const defaultSort = spec.defaultSort[0];
  if (!defaultSort || defaultSort.field !== state.sort.field || defaultSort.descending !== state.sort.descending) {
    params.OrderingField = state.sort.field;
    params.OrderingDirection = state.sort.descending ? 'Descending' : 'Ascending';
  }
  for (const [key, value] of Object.entries(state.filters)) if (value) params[key] = value;
  return params;
}

/** The API's parameters of a state: paging and ordering always explicit. */
export function listRequestParams(state: ListState): Record<string, string> {
  return {
    pagenumber: String(state.pageNumber),
    pagesize: String(state.pageSize),
    OrderingField: state.sort.field,
    OrderingDirection: state.sort.descending ? 'Descending' : 'Ascending',
    ...state.filters,
  };
}

/** Changing sort, page size or filters returns to page 1. */
export function changeListState(state: ListState, change: Partial<Omit<ListState, 'pageNumber'>> | { pageNumber: number }): ListState {
  if ('pageNumber' in change) return { ...state, pageNumber: change.pageNumber };
  return { ...state, ...change, pageNumber: 1 };
}
