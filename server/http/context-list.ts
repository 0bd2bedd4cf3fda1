// A list read under the spec's {context}: one declaration gives its calls under each context it serves, their
// permission, tenant isolation (an unreachable business, merchant or partner answers 404; a reachable one without the
// permission 403), the list convention (pagenumber, pagesize, sort, filters through its ListResource: 400 naming the
// field) and its rows in the OpenAPI document. A new overview's list is that declaration, registered once in
// server/api/context-lists.ts; the tenant-isolation matrix, the permission matrix and the hostile-input suite find
// its calls in the router by themselves.
//
//   merchant  GET /businesses/{businessId}/merchants/{merchantId}/{path}
//   business  GET /businesses/{businessId}/{path}      (every merchant of the business)
//   partner   GET /partners/{partnerId}/{path}         (every business of the partner)
import type { Type } from 'arktype';
import { and, type SQL } from 'drizzle-orm';
import { Hono, type Context } from 'hono';
import type { PermissionName } from '../../src/contract/permissions.ts';
import type { Database, Db } from '../db/client.ts';
import { resolveContext, resolvePartner } from '../policy/principal.ts';
import { type AppEnv, requirePermission } from './env.ts';
import { notFound } from './errors.ts';
import { filterCondition, orderByOf, orderKeysOf, parseListRequest, singleValuedQuery, type ListResource } from './list-sql.ts';

export type ListContextKind = 'merchant' | 'business' | 'partner';

/** The context a call was made under, resolved and checked. */
export type ListScope =
  | { kind: 'merchant'; businessId: string; merchantId: string }
  | { kind: 'business'; businessId: string }
  | { kind: 'partner'; partnerId: string };

/** One page as the list's declaration reads it: the conditions (context and filters), the order and the cut. */
export type ListPage = { scope: ListScope; where: SQL | undefined; orderBy: SQL[]; limit: number; offset: number };

export type ContextList<Row> = {
  /** the path under each context: 'customers' */
  path: string;
  contexts: readonly ListContextKind[];
  permission: PermissionName;
  /** the filters and sorts the list accepts, each mapped to SQL (checked against its spec at start; its spec's default sort applies) */
  resource: ListResource;
  /** the rows a context holds, as a condition on the list's table */
  within: (scope: ListScope, db: Db) => SQL;
  /** one page of rows, as the answer shows them */
  rows: (db: Db, page: ListPage) => Promise<Row[]>;
  /** how many rows match the conditions in all */
  count: (db: Db, where: SQL | undefined) => Promise<number>;
  /** for the OpenAPI document: its tag, a summary per context, the answer's contract schema */
  // biome-ignore lint/suspicious/noExplicitAny: any contract schema, whatever it infers
  openApi: { tag: string; summaries: Partial<Record<ListContextKind, string>>; response: Type<any, any> };
};

const idPattern = /^[A-Za-z0-9_-]{1,64}$/;

/** Hono's path of a list under a context (the OpenAPI table uses the same). */
export function contextListPath(kind: ListContextKind, path: string): string {
  if (kind === 'merchant') return `/businesses/:businessId/merchants/:merchantId/${path}`;
  if (kind === 'business') return `/businesses/:businessId/${path}`;
  return `/partners/:partnerId/${path}`;
}

/**
 * The context of a call (its route's businessId, merchantId or partnerId), resolved for the caller: 404 when it is not
 * theirs to see, 403 without the permission. A declared list's calls and a record's under a context both ask here.
 */
export async function resolveContextScope<K extends ListContextKind>(
  database: Database,
  c: Context<AppEnv>,
  kind: K,
  permission: PermissionName,
): Promise<Extract<ListScope, { kind: K }>> {
  return (await resolveScope(database, c, kind, permission)) as Extract<ListScope, { kind: K }>;
}

async function resolveScope(database: Database, c: Context<AppEnv>, kind: ListContextKind, permission: PermissionName): Promise<ListScope> {
  const principal = c.get('principal');
  if (kind === 'partner') {
    const partnerId = c.req.param('partnerId') ?? '';
    if (!idPattern.test(partnerId)) throw notFound();
    const resolved = await resolvePartner(database, principal, partnerId);
    if (!resolved) throw notFound();
    requirePermission(resolved.permissions, permission);
    return { kind, partnerId: resolved.partner.id };
  }
  const businessId = c.req.param('businessId') ?? '';
  const merchantId = kind === 'merchant' ? (c.req.param('merchantId') ?? '') : undefined;
  if (!idPattern.test(businessId) || (merchantId !== undefined && !idPattern.test(merchantId))) throw notFound();
  const resolved = await resolveContext(database, principal, businessId, merchantId);
  if (!resolved || (kind === 'merchant' && !resolved.merchant)) throw notFound();
  requirePermission(resolved.permissions, permission);
  return resolved.merchant
    ? { kind: 'merchant', businessId: resolved.business.id, merchantId: resolved.merchant.id }
    : { kind: 'business', businessId: resolved.business.id };
}

/** The calls of every declared list, under each context it serves. */
export function contextListRoutes(database: Database, lists: readonly ContextList<unknown>[]) {
  const { db } = database;
  const routes = new Hono<AppEnv>();
  for (const list of lists) {
    const unsummarised = list.contexts.filter((kind) => !list.openApi.summaries[kind]);
    if (unsummarised.length > 0) throw new Error(`the ${list.path} list has no OpenAPI summary under ${unsummarised.join(', ')}`);
    for (const kind of list.contexts) {
      routes.get(contextListPath(kind, list.path), async (c) => {
        const scope = await resolveContextScope(database, c, kind, list.permission);
        const query = parseListRequest(singleValuedQuery(c), list.resource.spec);
        const where = and(list.within(scope, db), filterCondition(list.resource, query.filters, c.get('timeZone')));
        const [results, numberOfResults] = await Promise.all([
          list.rows(db, {
            scope,
            where,
            orderBy: query.sort.flatMap((key) => orderByOf(orderKeysOf(list.resource, key))),
            limit: query.pageSize,
            offset: (query.pageNumber - 1) * query.pageSize,
          }),
          list.count(db, where),
        ]);
        return c.json({ results, numberOfResults });
      });
    }
  }
  return routes;
}
