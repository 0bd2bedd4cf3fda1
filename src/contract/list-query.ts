// The documented list convention: pagenumber, pagesize, sort (comma separated, leading minus for
// descending) and filters keyed by lower-cased property: [eq]v, [gte]v, [lte]v joined by [and].
// Pure functions used by the client encoder and the server parser alike.

export const pageSizes = [10, 25, 50, 100] as const;
export const defaultPageSize = 25;
export const maxFilterLength = 512;

export type FilterOperator = 'eq' | 'gte' | 'lte';
export type FilterClause = { operator: FilterOperator; value: string };
/** oneOf values match case-insensitively and are returned in their declared spelling; pattern checks the whole value. */
export type FieldKind = 'string' | 'number' | 'date' | 'boolean' | { oneOf: readonly string[] } | { pattern: RegExp; description: string };
/** A field accepts every operator unless it declares which. */
export type FilterDeclaration = FieldKind | { kind: FieldKind; operators: readonly FilterOperator[] };
export type SortKey = { field: string; descending: boolean };
export const orderingDirections = ['Ascending', 'Descending'] as const;
export type OrderingDirection = (typeof orderingDirections)[number];

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

/** The OrderingField/OrderingDirection pair of the data layer. */
export type Ordering = { OrderingField: string; OrderingDirection: OrderingDirection };

/** The OrderingField/OrderingDirection pair of the data layer, as one sort key. */
export function encodeOrdering(key: SortKey): Ordering {
  return { OrderingField: key.field, OrderingDirection: key.descending ? 'Descending' : 'Ascending' };
}

function checkValue(kind: FieldKind, value: string): string | null {
  if (value === '') return 'is empty';
  if (kind === 'number') return /^-?\d+(\.\d+)?$/.test(value) ? null : `'${truncate(value)}' is not a number`;
  if (kind === 'date') return isoDate.test(value) && !Number.isNaN(Date.parse(value)) ? null : `'${truncate(value)}' is not an ISO date`;
  if (kind === 'boolean') return value === 'true' || value === 'false' ? null : `'${truncate(value)}' is not true or false`;
  if (typeof kind === 'object' && 'oneOf' in kind)
    return canonicalOf(kind.oneOf, value) !== undefined ? null : `'${truncate(value)}' is not one of ${kind.oneOf.join(', ')}`;
  if (typeof kind === 'object') return kind.pattern.test(value) ? null : `'${truncate(value)}' is not ${kind.description}`;
  return null;
}

function canonicalOf(values: readonly string[], value: string): string | undefined {
  const lower = value.toLowerCase();
  return values.find((candidate) => candidate.toLowerCase() === lower);
}

function declarationOf(declaration: FilterDeclaration): { kind: FieldKind; operators: readonly FilterOperator[] | null } {
  return typeof declaration === 'object' && 'kind' in declaration ? declaration : { kind: declaration, operators: null };
}

export type ListQuerySpec = {
  /** lower-cased field name → kind (and, optionally, the operators it accepts) */
  filters: Record<string, FilterDeclaration>;
  /** field names accepted in sort */
  sortable: readonly string[];
  defaultSort: SortKey[];
  /** parameters the endpoint reads itself (not filters) */
  extraParameters?: readonly string[];
  /**
   * 'sort' (default): sort=a,-b. 'ordering': the data layer's OrderingField (one sortable field, any case)
   * and OrderingDirection (Ascending | Descending); a sort parameter is then refused.
   */
  sortStyle?: 'sort' | 'ordering';
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
    } else if (spec.sortStyle === 'ordering' && (key === 'orderingfield' || key === 'orderingdirection')) {
      // Read on their own after this loop.
    } else if (key === 'sort' && spec.sortStyle === 'ordering') {
      errors.push(`'sort' is not a parameter of this list; use OrderingField and OrderingDirection`);
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
      // The endpoint reads it itself.
    } else {
      const declared = Object.hasOwn(spec.filters, key) ? spec.filters[key] : undefined;
      if (declared === undefined) {
        errors.push(`'${truncate(name)}' is not a filter of this list`);
        continue;
      }
      const { kind, operators } = declarationOf(declared);
      const clauses = parseFilter(raw);
      if (typeof clauses === 'string') {
        errors.push(`filter ${key} ${clauses}`);
        continue;
      }
      const refused = operators ? clauses.find((clause) => !operators.includes(clause.operator)) : undefined;
      if (refused) {
        errors.push(`filter ${key} does not accept [${refused.operator}]; use ${operators?.map((operator) => `[${operator}]`).join(' or ')}`);
        continue;
      }
      const problems = clauses.map((clause) => checkValue(kind, clause.value)).filter((problem) => problem !== null);
      if (problems.length > 0) errors.push(`filter ${key} ${problems[0]}`);
      else {
        filters[key] =
          typeof kind === 'object' && 'oneOf' in kind
            ? clauses.map((clause) => ({ ...clause, value: canonicalOf(kind.oneOf, clause.value) ?? clause.value }))
            : clauses;
      }
    }
  }
  if (spec.sortStyle === 'ordering') {
    const ordering = parseOrdering(params, spec.sortable);
    if (typeof ordering === 'string') errors.push(ordering);
    else if (ordering) sort = [ordering];
  }
  return errors.length > 0 ? { ok: false, errors } : { ok: true, query: { pageNumber, pageSize, sort, filters } };
}

function parameter(params: Record<string, string | undefined>, lowerName: string): string | undefined {
  for (const [name, value] of Object.entries(params)) if (name.toLowerCase() === lowerName && value !== undefined) return value;
  return undefined;
}

/** OrderingField (case-insensitive, returned in its declared spelling) and OrderingDirection (default Ascending). */
function parseOrdering(params: Record<string, string | undefined>, sortable: readonly string[]): SortKey | null | string {
  const field = parameter(params, 'orderingfield');
  const direction = parameter(params, 'orderingdirection');
  if (direction !== undefined && !(orderingDirections as readonly string[]).includes(direction)) {
    return `OrderingDirection '${truncate(direction)}' must be Ascending or Descending`;
  }
  if (field === undefined) return direction === undefined ? null : 'OrderingDirection needs an OrderingField';
  const canonical = canonicalOf(sortable, field);
  if (canonical === undefined) return `OrderingField '${truncate(field)}' is not sortable; use one of ${sortable.join(', ')}`;
  return { field: canonical, descending: direction === 'Descending' };
}
