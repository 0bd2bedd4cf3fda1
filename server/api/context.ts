// Context selection calls: the businesses and merchants a caller may choose as working context, a search over
// both, single look-ups and the configurations of a merchant. Every answer is scoped to the caller's policy;
// anything outside it is absent from lists and answers 404 when addressed (existence is not revealed).
//
// Paths (under /api/portal; the spec leaves them to us):
//   GET /context/businesses?pagenumber&pagesize&liveonly
//       → { data: [{ businessId, businessName, camAutoRemittance, live }], totalCount }   sorted by name, id
//   GET /context/businesses/{businessId}
//       → { id, name, live, camAutoRemittance, partnerId, timeZone }                             404 when not reachable
//   GET /context/businesses/{businessId}/merchants?pagenumber&pagesize&liveonly
//       → { data: [{ merchantId, merchantName, grossSettlement, currencies, live }], totalCount }   404 business
//   GET /context/businesses/{businessId}/merchants/{merchantId}
//       → { id, name, businessId, live, grossSettlement, currencies }                       404 when not reachable
//   GET /context/businesses/{businessId}/merchants/{merchantId}/configurations?pagenumber&pagesize
//       → { data: [{ configurationId, tradeName, description, switches }], totalCount }     sorted by trade name, id
//   GET /context/search?searchterm&pagenumber&pagesize&liveonly
//       → { data: [{ businessId, businessName, merchantId?, merchantName? }], totalCount }
//         businesses and merchants whose name or id contains the term (case-insensitive); a business row comes
//         before its merchants; sorted by business name, then merchant name.
//
// Parameters: pagenumber ≥ 1 (default 1), pagesize 10, 25, 50 or 100 (default 25), liveonly true|false (default
// false), searchterm 3–100 characters after trimming spaces (three so that every search is answered from the
// trigram indexes: EXPLAIN on 1M merchants shows ~1–12 ms per typical term, a parallel seq scan of ~350 ms below 3). Names are case-insensitive; unknown or repeated
// parameters are a 400 naming them. Reachability, not a permission, gates these calls: choosing a context is what
// a user does before any permission applies, and each answer only names what the caller can reach anyway.
import { and, asc, count, eq, inArray, or, sql, type SQL } from 'drizzle-orm';
import { Hono, type Context } from 'hono';
import { parseListQuery, type ParsedListQuery } from '../../src/contract/list-query.ts';
import { businesses, configurations, merchants } from '../db/schema.ts';
import { isInternal, resolveContext, type Principal } from '../policy/principal.ts';
import type { Db } from '../db/client.ts';
import type { AppEnv, Deps } from '../http/env.ts';
import { badRequest, notFound } from '../http/errors.ts';

export const maxSearchTermLength = 100;
/** Below three characters pg_trgm extracts no trigram, the index cannot help and the search would scan every row. */
export const minSearchTermLength = 3;
const maxIdLength = 64;

type ContextQuery = { pageNumber: number; pageSize: number; liveOnly: boolean; searchTerm: string | null };
type ParameterName = 'liveonly' | 'searchterm';

/** Validates the query string: paging through the shared list-query parser, the rest here; every problem is named. */
export function parseContextQuery(
  c: Context<AppEnv>,
  accepted: readonly ParameterName[],
  options: { paged?: boolean; searchTermRequired?: boolean } = {},
): ContextQuery {
  const { paged = true, searchTermRequired = false } = options;
  const errors: string[] = [];
  const raw = c.req.queries();
  const params: Record<string, string> = {};
  const seen = new Set<string>();
  for (const [name, values] of Object.entries(raw)) {
    const key = name.toLowerCase();
    if (seen.has(key) || values.length > 1) errors.push(`'${shorten(name)}' may be given once`);
    seen.add(key);
    if (key === 'sort') errors.push(`'sort' is not a parameter of this list; it is sorted by name`);
    else if (!paged && (key === 'pagenumber' || key === 'pagesize')) errors.push(`'${shorten(name)}' is not a parameter of this record`);
    else params[key] = values[values.length - 1] ?? '';
  }
  let parsed: ParsedListQuery | null = null;
  const result = parseListQuery(params, { filters: {}, sortable: [], defaultSort: [], extraParameters: accepted });
  if (result.ok) parsed = result.query;
  else errors.push(...result.errors.map((error) => error.replace(/is not a filter of this list$/, 'is not a parameter of this list')));
  let liveOnly = false;
  const liveOnlyRaw = params.liveonly;
  if (liveOnlyRaw !== undefined && accepted.includes('liveonly')) {
    if (liveOnlyRaw === 'true' || liveOnlyRaw === 'false') liveOnly = liveOnlyRaw === 'true';
    else errors.push(`liveonly '${shorten(liveOnlyRaw)}' must be true or false`);
  }
  let searchTerm: string | null = null;
  const searchTermRaw = params.searchterm;
  if (accepted.includes('searchterm')) {
    const trimmed = searchTermRaw?.trim() ?? '';
    if (trimmed === '') {
      if (searchTermRequired) errors.push('searchterm is required');
    } else if (trimmed.length < minSearchTermLength) {
      errors.push(`searchterm must have at least ${minSearchTermLength} characters`);
    } else if (trimmed.length > maxSearchTermLength) {
      errors.push(`searchterm may have ${maxSearchTermLength} characters maximum`);
    } else {
      searchTerm = trimmed;
    }
  }
  if (errors.length > 0 || !parsed) throw badRequest(errors);
  return { pageNumber: parsed.pageNumber, pageSize: parsed.pageSize, liveOnly, searchTerm };
}

function shorten(value: string): string {
  return value.length > 40 ? `${value.slice(0, 40)}…` : value;
}

/** A LIKE pattern matching the term anywhere; %, _ and the escape character itself are taken literally. */
export function containsPattern(term: string): string {
  return `%${term.toLowerCase().replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
}

/**
 * The search predicate, written as exactly the indexed expression of businesses_search_idx and
 * merchants_search_idx so the planner answers it from the trigram GIN index instead of scanning the table.
 */
function searchable(table: typeof businesses | typeof merchants, pattern: string): SQL {
  return sql`(lower(${table.name}) || ' ' || lower(${table.id})) LIKE ${pattern}`;
}

const nothing = sql`false`;

/** Businesses the caller may choose: all (internal), the partner's, the own, and those holding the own merchants. */
function businessScope(principal: Principal): SQL | undefined {
  if (isInternal(principal)) return undefined;
  const parts: SQL[] = [];
  if (principal.partnerIds.length > 0) parts.push(inArray(businesses.partnerId, principal.partnerIds));
  if (principal.businessIds.length > 0) parts.push(inArray(businesses.id, principal.businessIds));
  if (principal.merchantIds.length > 0) {
    parts.push(inArray(businesses.id, sql`(SELECT ${merchants.businessId} FROM ${merchants} WHERE ${inArray(merchants.id, principal.merchantIds)})`));
  }
  return parts.length === 0 ? nothing : or(...parts);
}

/** Merchants the caller may choose, for a query that joins merchants to their business. */
function merchantScope(principal: Principal): SQL | undefined {
  if (isInternal(principal)) return undefined;
  const parts: SQL[] = [];
  if (principal.partnerIds.length > 0) parts.push(inArray(businesses.partnerId, principal.partnerIds));
  if (principal.businessIds.length > 0) parts.push(inArray(merchants.businessId, principal.businessIds));
  if (principal.merchantIds.length > 0) parts.push(inArray(merchants.id, principal.merchantIds));
  return parts.length === 0 ? nothing : or(...parts);
}

/** Every merchant of the business is visible, not only the caller's own merchant grants. */
function seesWholeBusiness(principal: Principal, businessId: string): boolean {
  return isInternal(principal) || principal.businessIds.includes(businessId) || principal.partnerBusinessIds.includes(businessId);
}

function idParam(c: Context<AppEnv>, name: string): string {
  const value = c.req.param(name) ?? '';
  // Longer or empty ids cannot exist; answering 404 without a query keeps junk away from the database.
  if (value === '' || value.length > maxIdLength) throw notFound();
  return value;
}

export function contextRoutes({ database }: Deps) {
  const { db } = database;
  const routes = new Hono<AppEnv>();

  routes.get('/context/businesses', async (c) => {
    const principal = c.get('principal');
    const query = parseContextQuery(c, ['liveonly']);
    const where = and(businessScope(principal), query.liveOnly ? eq(businesses.live, true) : undefined);
    const [rows, [counted]] = await Promise.all([
      db
        .select({
          businessId: businesses.id,
          businessName: businesses.name,
          camAutoRemittance: businesses.camAutoRemittance,
          live: businesses.live,
        })
        .from(businesses)
        .where(where)
        .orderBy(asc(businesses.name), asc(businesses.id))
        .limit(query.pageSize)
        .offset((query.pageNumber - 1) * query.pageSize),
      db.select({ total: count() }).from(businesses).where(where),
    ]);
    return c.json({ data: rows, totalCount: Number(counted?.total ?? 0) });
  });

  routes.get('/context/businesses/:businessId', async (c) => {
    parseContextQuery(c, [], { paged: false });
    const resolved = await resolveContext(database, c.get('principal'), idParam(c, 'businessId'));
    if (!resolved) throw notFound();
    const { business } = resolved;
    return c.json({
      id: business.id,
      name: business.name,
      live: business.live,
      camAutoRemittance: business.camAutoRemittance,
      partnerId: business.partnerId,
      timeZone: business.timeZone,
    });
  });

  routes.get('/context/businesses/:businessId/merchants', async (c) => {
    const principal = c.get('principal');
    const businessId = idParam(c, 'businessId');
    const query = parseContextQuery(c, ['liveonly']);
    if (!(await resolveContext(database, principal, businessId))) throw notFound();
    const where = and(
      eq(merchants.businessId, businessId),
      seesWholeBusiness(principal, businessId) ? undefined : inArray(merchants.id, principal.merchantIds),
      query.liveOnly ? eq(merchants.live, true) : undefined,
    );
    const [rows, [counted]] = await Promise.all([
      db
        .select({
          merchantId: merchants.id,
          merchantName: merchants.name,
          grossSettlement: merchants.grossSettlement,
          currencies: merchants.currencies,
          live: merchants.live,
        })
        .from(merchants)
        .where(where)
        .orderBy(asc(merchants.name), asc(merchants.id))
        .limit(query.pageSize)
        .offset((query.pageNumber - 1) * query.pageSize),
      db.select({ total: count() }).from(merchants).where(where),
    ]);
    return c.json({ data: rows, totalCount: Number(counted?.total ?? 0) });
  });

  routes.get('/context/businesses/:businessId/merchants/:merchantId', async (c) => {
    parseContextQuery(c, [], { paged: false });
    const resolved = await resolveContext(database, c.get('principal'), idParam(c, 'businessId'), idParam(c, 'merchantId'));
    if (!resolved?.merchant) throw notFound();
    const { merchant } = resolved;
    return c.json({
      id: merchant.id,
      name: merchant.name,
      businessId: merchant.businessId,
      live: merchant.live,
      grossSettlement: merchant.grossSettlement,
      currencies: merchant.currencies,
    });
  });

  routes.get('/context/businesses/:businessId/merchants/:merchantId/configurations', async (c) => {
    const query = parseContextQuery(c, []);
    const resolved = await resolveContext(database, c.get('principal'), idParam(c, 'businessId'), idParam(c, 'merchantId'));
    if (!resolved?.merchant) throw notFound();
    const where = eq(configurations.merchantId, resolved.merchant.id);
    const [rows, [counted]] = await Promise.all([
      db
        .select({
          configurationId: configurations.id,
          tradeName: configurations.tradeName,
          description: configurations.description,
          switches: configurations.switches,
        })
        .from(configurations)
        .where(where)
        .orderBy(asc(configurations.tradeName), asc(configurations.id))
        .limit(query.pageSize)
        .offset((query.pageNumber - 1) * query.pageSize),
      db.select({ total: count() }).from(configurations).where(where),
    ]);
    return c.json({ data: rows, totalCount: Number(counted?.total ?? 0) });
  });

  routes.get('/context/search', async (c) => {
    const query = parseContextQuery(c, ['searchterm', 'liveonly'], { searchTermRequired: true });
    const matches = searchMatches(db, c.get('principal'), query.searchTerm ?? '', query.liveOnly);
    const rows = await searchPage(db, matches, query);
    let totalCount = Number(rows[0]?.totalCount ?? 0);
    if (rows.length === 0 && query.pageNumber > 1) {
      const [counted] = await db.select({ total: count() }).from(matches);
      totalCount = Number(counted?.total ?? 0);
    }
    return c.json({
      data: rows.map(({ businessId, businessName, merchantId, merchantName }) =>
        merchantId === null ? { businessId, businessName } : { businessId, businessName, merchantId, merchantName: merchantName ?? '' },
      ),
      totalCount,
    });
  });

  return routes;
}

/** Businesses and merchants matching the term that the caller may choose, as one row set (a subquery). */
export function searchMatches(db: Db, principal: Principal, searchTerm: string, liveOnly: boolean) {
  const pattern = containsPattern(searchTerm);
  const businessMatches = db
    .select({
      businessId: sql<string>`${businesses.id}`.as('business_id'),
      businessName: sql<string>`${businesses.name}`.as('business_name'),
      merchantId: sql<string | null>`NULL::text`.as('merchant_id'),
      merchantName: sql<string | null>`NULL::text`.as('merchant_name'),
    })
    .from(businesses)
    .where(and(searchable(businesses, pattern), businessScope(principal), liveOnly ? eq(businesses.live, true) : undefined));
  const merchantMatches = db
    .select({
      businessId: sql<string>`${businesses.id}`.as('business_id'),
      businessName: sql<string>`${businesses.name}`.as('business_name'),
      merchantId: sql<string | null>`${merchants.id}`.as('merchant_id'),
      merchantName: sql<string | null>`${merchants.name}`.as('merchant_name'),
    })
    .from(merchants)
    .innerJoin(businesses, eq(businesses.id, merchants.businessId))
    .where(and(searchable(merchants, pattern), merchantScope(principal), liveOnly ? and(eq(merchants.live, true), eq(businesses.live, true)) : undefined));
  return businessMatches.unionAll(merchantMatches).as('matches');
}

/** One page of matches: a business before its merchants, by business name then merchant name. */
export function searchPage(db: Db, matches: ReturnType<typeof searchMatches>, query: { pageNumber: number; pageSize: number }) {
  return db
    .select({
      businessId: matches.businessId,
      businessName: matches.businessName,
      merchantId: matches.merchantId,
      merchantName: matches.merchantName,
      // One pass: the sort needs every match anyway, so counting them there costs nothing extra.
      totalCount: sql<string>`count(*) OVER ()`,
    })
    .from(matches)
    .orderBy(asc(matches.businessName), asc(matches.businessId), sql`${matches.merchantName} ASC NULLS FIRST`, asc(matches.merchantId))
    .limit(query.pageSize)
    .offset((query.pageNumber - 1) * query.pageSize);
}
