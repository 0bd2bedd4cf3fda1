// A table's state in the URL (the same parameters the API takes, so a link is also the request), and the filter
// values it carries that are not dates or amounts: any-of choices and a free-text search term, both ways (form ⇄ the
// documented [eq] syntax). All pure.
import { encodeFilter, parseFilter, parseListQuery, type ListQuerySpec, type SortKey } from './list-query.ts';

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
// The table's state in the URL

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
