// The documented list convention: pagenumber, pagesize, sort (comma separated, leading minus for
// descending) and filters keyed by lower-cased property: [eq]v, [gte]v, [lte]v joined by [and].
// Pure functions used by the client encoder and the server parser alike.

export const pageSizes = [10, 25, 50, 100] as const;
export const defaultPageSize = 25;
export const maxFilterLength = 512;

export type FilterOperator = 'eq' | 'gte' | 'lte';
export type FilterClause = { operator: FilterOperator; value: string };
export type FieldKind = 'string' | 'number' | 'date' | 'boolean' | { oneOf: readonly string[] };
export type SortKey = { field: string; descending: boolean };

export type ParsedListQuery = {
  pageNumber: number;
  pageSize: number;
  sort: SortKey[];
  /** keyed by the declared (lower-cased) field name */
  filters: Record<string, FilterClause[]>;
};

export type ListQueryResult = { ok: true; query: ParsedListQuery } | { ok: false; errors: string[] };

const clausePattern = /^\[(eq|gte|lte)\]([\s\S]*)$/;
const isoDate = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:\d{2})?)?$/;

export function encodeFilter(clauses: readonly FilterClause[]): string {
  return clauses.map((clause) => `[${clause.operator}]${clause.value}`).join('[and]');
}

export function parseFilter(raw: string): FilterClause[] | string {
  if (raw.length > maxFilterLength) return `may have ${maxFilterLength} characters maximum`;
  const clauses: FilterClause[] = [];
  for (const part of raw.split('[and]')) {
    const match = clausePattern.exec(part);
    if (!match) return `'${truncate(part)}' is not [eq]value, [gte]value or [lte]value`;
    clauses.push({ operator: match[1] as FilterOperator, value: match[2] ?? '' });
  }
  return clauses;
}

export function encodeSort(keys: readonly SortKey[]): string {
  return keys.map((key) => (key.descending ? `-${key.field}` : key.field)).join(',');
}

function truncate(value: string): string {
  return value.length > 40 ? `${value.slice(0, 40)}…` : value;
}

function checkValue(kind: FieldKind, value: string): string | null {
  if (value === '') return 'is empty';
  if (kind === 'number') return /^-?\d+(\.\d+)?$/.test(value) ? null : `'${truncate(value)}' is not a number`;
  if (kind === 'date') return isoDate.test(value) && !Number.isNaN(Date.parse(value)) ? null : `'${truncate(value)}' is not an ISO date`;
  if (kind === 'boolean') return value === 'true' || value === 'false' ? null : `'${truncate(value)}' is not true or false`;
  if (typeof kind === 'object') return kind.oneOf.includes(value) ? null : `'${truncate(value)}' is not one of ${kind.oneOf.join(', ')}`;
  return null;
}

export type ListQuerySpec = {
  /** lower-cased field name → kind */
  filters: Record<string, FieldKind>;
  /** field names accepted in sort */
  sortable: readonly string[];
  defaultSort: SortKey[];
  /** parameters the endpoint reads itself (not filters) */
  extraParameters?: readonly string[];
};

/** Validates a query-string map against a resource's declared fields; anything undeclared is an error naming it. */
export function parseListQuery(params: Record<string, string | undefined>, spec: ListQuerySpec): ListQueryResult {
  const errors: string[] = [];
  let pageNumber = 1;
  let pageSize: number = defaultPageSize;
  let sort = spec.defaultSort;
  const filters: Record<string, FilterClause[]> = {};
  for (const [name, raw] of Object.entries(params)) {
    if (raw === undefined) continue;
    const key = name.toLowerCase();
    if (key === 'pagenumber') {
      if (!/^\d{1,7}$/.test(raw) || Number(raw) < 1) errors.push(`pagenumber '${truncate(raw)}' must be a whole number of at least 1`);
      else pageNumber = Number(raw);
    } else if (key === 'pagesize') {
      if (!pageSizes.map(String).includes(raw)) errors.push(`pagesize '${truncate(raw)}' must be one of ${pageSizes.join(', ')}`);
      else pageSize = Number(raw);
    } else if (key === 'sort') {
      const keys: SortKey[] = [];
      for (const part of raw.split(',')) {
        const descending = part.startsWith('-');
        const field = descending ? part.slice(1) : part;
        if (!spec.sortable.includes(field)) errors.push(`sort field '${truncate(field)}' is not sortable; use one of ${spec.sortable.join(', ')}`);
        else keys.push({ field, descending });
      }
      if (keys.length > 0) sort = keys;
    } else if (spec.extraParameters?.some((extra) => extra.toLowerCase() === key)) {
      continue;
    } else {
      const kind = spec.filters[key];
      if (kind === undefined) {
        errors.push(`'${truncate(name)}' is not a filter of this list`);
        continue;
      }
      const clauses = parseFilter(raw);
      if (typeof clauses === 'string') {
        errors.push(`filter ${key} ${clauses}`);
        continue;
      }
      const problems = clauses.map((clause) => checkValue(kind, clause.value)).filter((problem) => problem !== null);
      if (problems.length > 0) errors.push(`filter ${key} ${problems[0]}`);
      else filters[key] = clauses;
    }
  }
  return errors.length > 0 ? { ok: false, errors } : { ok: true, query: { pageNumber, pageSize, sort, filters } };
}
