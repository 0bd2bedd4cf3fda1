// Turns a parsed list query (src/contract/list-query.ts) into typed drizzle conditions and an ordering over a
// per-resource whitelist. Every overview declares its resource once: which filter name reads which column and how,
// and which sort name orders by which keys. Nothing here builds SQL from strings; values are always parameters.
import { and, asc, desc, eq, gt, gte, inArray, is, lt, lte, notInArray, or, sql, SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Context } from 'hono';
import { filterInstant } from '../../src/contract/zoned-time.ts';
import { parseListQuery, type FilterClause, type ListQuerySpec, type ParsedListQuery, type SortKey } from '../../src/contract/list-query.ts';
import type { AppEnv } from './env.ts';
import { badRequest } from './errors.ts';

export type FilterContext = {
  timeZone: string;
  /** every filter of the request, for fields whose meaning depends on another */
  filters: Record<string, FilterClause[]>;
};

/**
 * How a declared filter reads its column:
 * - equals: [eq] only; several values mean any of them (IN).
 * - date: [gte]/[lte] as instants (see filterInstant: wall-clock values are in the request's zone); [eq] is that day.
 * - number: plain numeric comparison.
 * - decimal: a decimal value compared exactly against an integer column holding it scaled by 10^scale (amounts in
 *   thousandths of the major unit); bounds round inwards, an unrepresentable [eq] matches nothing.
 * - custom: the resource builds the condition itself (free-text search).
 */
export type FilterColumn =
  | { type: 'equals'; column: AnyPgColumn; normalise?: (value: string) => string }
  | { type: 'date'; column: AnyPgColumn }
  | { type: 'number'; column: AnyPgColumn }
  | { type: 'decimal'; column: AnyPgColumn; scale: number }
  | { type: 'custom'; condition: (clauses: FilterClause[], context: FilterContext) => SQL | undefined };

/**
 * One key of an ordering, as it reads when the sort is ascending; descending reverses every key except those with a
 * fixed direction (a merchant sort keeps each merchant's newest transactions first either way).
 */
export type OrderKey = { expression: AnyPgColumn | SQL; descending: boolean; fixedDirection?: boolean };

export type ListResource = {
  spec: ListQuerySpec;
  filters: Record<string, FilterColumn>;
  /**
   * Sort name → keys in ascending order. The last key must be unique (the tiebreaker), so pages never overlap and
   * keyset continuation is exact. Descending reverses all keys, which is a backward scan of the same index.
   */
  sorts: Record<string, readonly OrderKey[]>;
};

/** Query parameters with each name at most once; a repeated name is a 400 naming it (no silent last-wins). */
export function singleValuedQuery(c: Context<AppEnv>): Record<string, string> {
  const params: Record<string, string> = {};
  const repeated: string[] = [];
  const seen = new Set<string>();
  for (const [name, values] of Object.entries(c.req.queries())) {
    const key = name.toLowerCase();
    if (seen.has(key) || values.length > 1) repeated.push(name.slice(0, 40));
    seen.add(key);
    params[name] = values[values.length - 1] ?? '';
  }
  if (repeated.length > 0) throw badRequest(repeated.map((name) => `'${name}' may be given once`));
  return params;
}

/** Parses and validates; every problem is named in one 400. */
export function parseListRequest(params: Record<string, string | undefined>, spec: ListQuerySpec): ParsedListQuery {
  const result = parseListQuery(params, spec);
  if (!result.ok) throw badRequest(result.errors);
  return result.query;
}

/** The resource's whitelist and its declared spec must name the same filters and sorts (checked once, at start). */
export function assertResourceMatchesSpec(resource: ListResource): void {
  const declared = Object.keys(resource.spec.filters).sort().join(',');
  const mapped = Object.keys(resource.filters).sort().join(',');
  if (declared !== mapped) throw new Error(`list resource filters [${mapped}] differ from the spec [${declared}]`);
  const sortable = [...resource.spec.sortable].sort().join(',');
  const sorts = Object.keys(resource.sorts).sort().join(',');
  if (sortable !== sorts) throw new Error(`list resource sorts [${sorts}] differ from the spec [${sortable}]`);
}

/** All filters ANDed; undefined when there are none. */
export function filterCondition(resource: ListResource, filters: Record<string, FilterClause[]>, timeZone: string): SQL | undefined {
  const context: FilterContext = { timeZone, filters };
  const parts: SQL[] = [];
  for (const [name, clauses] of Object.entries(filters)) {
    const column = Object.hasOwn(resource.filters, name) ? resource.filters[name] : undefined;
    if (!column) throw badRequest(`'${name}' is not a filter of this list`);
    const condition = columnCondition(column, clauses, context);
    if (condition) parts.push(condition);
  }
  return parts.length === 0 ? undefined : and(...parts);
}

function columnCondition(column: FilterColumn, clauses: FilterClause[], context: FilterContext): SQL | undefined {
  switch (column.type) {
    case 'equals': {
      const values = [
        ...new Set(clauses.filter((clause) => clause.operator === 'eq').map((clause) => (column.normalise ? column.normalise(clause.value) : clause.value))),
      ];
      if (values.length === 0) return undefined;
      return values.length === 1 ? eq(column.column, values[0]) : inArray(column.column, values);
    }
    case 'date':
      return and(...clauses.map((clause) => dateClause(column.column, clause, context.timeZone)));
    case 'number':
      return and(...clauses.map((clause) => comparison(column.column, clause.operator, Number(clause.value))));
    case 'decimal':
      return decimalCondition(column.column, column.scale, clauses);
    case 'custom':
      return column.condition(clauses, context);
  }
}

type Operand = AnyPgColumn | SQL;
type Operator = 'eq' | 'gt' | 'gte' | 'lt' | 'lte';
const operators = { eq, gt, gte, lt, lte };

/** A column keeps its driver mapping (dates, bigints) for the value; a SQL expression binds the value as is. */
function compare(operator: Operator, left: Operand, value: unknown): SQL {
  const apply = operators[operator];
  return is(left, SQL) ? apply(left, value) : apply(left, value);
}

function comparison(column: Operand, operator: FilterClause['operator'], value: unknown): SQL {
  return compare(operator, column, value);
}

function dateClause(column: AnyPgColumn, clause: FilterClause, timeZone: string): SQL {
  const instant = (bound: 'start' | 'end') => {
    try {
      return filterInstant(clause.value, bound, timeZone);
    } catch {
      throw badRequest(`'${clause.value.slice(0, 40)}' is not an ISO date`);
    }
  };
  switch (clause.operator) {
    case 'gte':
      return gte(column, instant('start'));
    case 'lte':
      return lte(column, instant('end'));
    case 'eq':
      return and(gte(column, instant('start')), lte(column, instant('end'))) as SQL;
  }
}

const falseCondition = (): SQL => sql`false`;

/** Beyond this a bound matches nothing (gte) or everything (lte): no bigint overflow, no float surprises. */
const maxMinorUnits = 9_000_000_000_000_000n;

/**
 * A decimal as an integer bound at 10^exponent, exactly (string arithmetic, no floats): gte rounds up, lte rounds
 * down, eq matches only a representable value. null: nothing can match (eq 1.0005 in thousandths); 'all': the
 * bound excludes nothing (lte beyond any stored amount).
 */
export function scaledBound(value: string, exponent: number, operator: FilterClause['operator']): bigint | null | 'all' {
  const match = /^(-?)(\d+)(?:\.(\d+))?$/.exec(value);
  if (!match) return null;
  const negative = match[1] === '-';
  const whole = BigInt(match[2] ?? '0');
  const fraction = match[3] ?? '';
  const kept = fraction.slice(0, exponent).padEnd(exponent, '0');
  const dropped = fraction.slice(exponent);
  const hasRemainder = /[1-9]/.test(dropped);
  let magnitude = whole * 10n ** BigInt(exponent) + BigInt(kept === '' ? '0' : kept);
  let signed = negative ? -magnitude : magnitude;
  if (hasRemainder) {
    if (operator === 'eq') return null;
    // The exact value lies between signed and the next unit away from zero.
    const towardsPositive = !negative;
    if (operator === 'gte' && towardsPositive) signed += 1n;
    if (operator === 'lte' && !towardsPositive) signed -= 1n;
  }
  magnitude = signed < 0n ? -signed : signed;
  if (magnitude > maxMinorUnits) {
    if (operator === 'eq') return null;
    const aboveEverything = signed > 0n;
    if (operator === 'gte') return aboveEverything ? null : 'all';
    return aboveEverything ? 'all' : null;
  }
  return signed;
}

function decimalCondition(column: AnyPgColumn, scale: number, clauses: FilterClause[]): SQL | undefined {
  const parts: SQL[] = [];
  for (const clause of clauses) {
    const bound = scaledBound(clause.value, scale, clause.operator);
    if (bound === null) return falseCondition();
    if (bound !== 'all') parts.push(comparison(column, clause.operator, Number(bound)));
  }
  return parts.length === 0 ? undefined : and(...parts);
}

/** The ordering of a sort key: its declared keys, reversed when descending. */
export function orderKeysOf(resource: ListResource, sort: SortKey): OrderKey[] {
  const keys = Object.hasOwn(resource.sorts, sort.field) ? resource.sorts[sort.field] : undefined;
  if (!keys) throw badRequest(`'${sort.field}' is not sortable`);
  return keys.map((key) => ({ expression: key.expression, descending: sort.descending && !key.fixedDirection ? !key.descending : key.descending }));
}

export const orderByOf = (keys: readonly OrderKey[]): SQL[] => keys.map((key) => (key.descending ? desc(key.expression) : asc(key.expression)));

/**
 * Rows strictly after `values` in the ordering `keys` (keyset continuation): a >= x AND ((a > x) OR (a = x AND b > y)
 * OR …), with each key's own direction. The OR alone is only a filter to PostgreSQL; the bound on the leading key
 * beside it is an index condition, so a page starts where the last one ended instead of walking the index from its
 * start past every row already read. Key columns must be NOT NULL.
 */
export function keysetAfter(keys: readonly OrderKey[], values: readonly unknown[]): SQL {
  if (keys.length !== values.length || keys.length === 0) throw new Error('keyset: one value per key');
  const branches: SQL[] = [];
  for (let index = 0; index < keys.length; index += 1) {
    const equalities = keys.slice(0, index).map((key, position) => compare('eq', key.expression, values[position]));
    const key = keys[index] as OrderKey;
    const beyond = compare(key.descending ? 'lt' : 'gt', key.expression, values[index]);
    branches.push(equalities.length === 0 ? beyond : (and(...equalities, beyond) as SQL));
  }
  const leading = keys[0] as OrderKey;
  if (keys.length === 1) return branches[0] as SQL;
  return and(compare(leading.descending ? 'lte' : 'gte', leading.expression, values[0]), or(...branches)) as SQL;
}

/** LIKE pattern of a literal prefix or fragment: \, % and _ escaped (PostgreSQL's default escape is backslash). */
export function likeLiteral(value: string): string {
  return value.replace(/[\\%_]/g, (char) => `\\${char}`);
}

/** A selection's picks on a list (bulk jobs and exports): only the included ids, or every match but the excluded ones. */
export type Picks = { allMatching: boolean; includedIds: readonly string[]; excludedIds: readonly string[] };

/** The picked rows by their id column; undefined when every match is wanted. */
export function picksWhere(column: AnyPgColumn, picks: Picks): SQL | undefined {
  if (!picks.allMatching) return inArray(column, picks.includedIds.length > 0 ? [...picks.includedIds] : ['\u0000none']);
  return picks.excludedIds.length > 0 ? notInArray(column, [...picks.excludedIds]) : undefined;
}
