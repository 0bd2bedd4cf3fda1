// Businesses and merchants (spec section 7): the lists, the details and the editable fields.
//
// | method | path                                         | permission                              | answer                                  |
// |--------|----------------------------------------------|-----------------------------------------|-----------------------------------------|
// | GET    | /businesses                                  | Mapi.Business.Read (rows: where held)   | { results, numberOfResults }            |
// | GET    | /businesses/{businessId}                     | Mapi.Business.Read in the business      | detail with recent activity, version    |
// | PUT    | /businesses/{businessId}                     | Mapi.Business.Update in the business    | detail; stale version → 409             |
// | GET    | /businesses/{businessId}/merchants           | Mapi.Merchant.Read (rows: where held)   | { results, numberOfResults }            |
// | GET    | /businesses/{businessId}/merchants/{mid}     | Mapi.Merchant.Read in the merchant      | detail with configurations, version     |
// | PUT    | /businesses/{businessId}/merchants/{mid}     | Mapi.Business.Update in the merchant    | detail; stale version → 409             |
// A business or merchant the caller cannot reach answers 404 (existence is not revealed); a reachable one without
// the permission 403. Business pages need a role at root, partner or business level (a merchant-level role reaches
// the business for context selection but carries no Mapi.Business.Read there).
//
// List parameters: pagenumber, pagesize, sort (name | id, leading minus for descending; default name) and the
// filters of src/contract/configurations.ts: name ([eq] part of the name, case-insensitive), id ([eq]), live and
// automaticremittance ([eq]true | [eq]false; merchants: name, id, live).
import { and, asc, count, desc, eq, inArray, or, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { Hono, type Context } from 'hono';
import { businessUpdateBody, merchantUpdateBody } from '../../src/contract/configuration-schemas.ts';
import type { BusinessDetail, BusinessListItem, MerchantDetail, MerchantListItem } from '../../src/contract/configuration-schemas.ts';
import { businessListSpec, checkBusinessEdit, checkMerchantEdit, merchantListSpec } from '../../src/contract/configurations.ts';
import type { FilterClause } from '../../src/contract/list-query.ts';
import type { PermissionName } from '../../src/contract/permissions.ts';
import type { Db } from '../db/client.ts';
import { auditEvents, businesses, configurations, merchants, partners, users } from '../db/schema.ts';
import { recordEvent } from '../events/event-bus.ts';
import { resolveContext, type Principal } from '../policy/principal.ts';
import { permissionsOfRoles } from '../policy/role-permissions.ts';
import { recordAudit } from '../audit/record.ts';
import { type AppEnv, type Deps, readBody, requirePermission } from '../http/env.ts';
import { badRequest, conflict, forbidden, notFound } from '../http/errors.ts';
import {
  assertResourceMatchesSpec,
  filterCondition,
  likeLiteral,
  orderByOf,
  orderKeysOf,
  parseListRequest,
  singleValuedQuery,
  type ListResource,
} from '../http/list-sql.ts';

const maxIdLength = 64;
export const recentActivityLimit = 10;

const booleanCondition = (column: AnyPgColumn) => (clauses: FilterClause[]) => {
  const values = [...new Set(clauses.map((clause) => clause.value === 'true'))];
  return values.length === 1 ? eq(column, values[0] as boolean) : undefined;
};
/** Part of the name, case-insensitively. */
const nameContains = (table: typeof businesses | typeof merchants) => (clauses: FilterClause[]) => {
  const term = clauses[0]?.value.trim();
  return term ? sql`lower(${table.name}) LIKE ${`%${likeLiteral(term.toLowerCase())}%`}` : undefined;
};

export const businessResource: ListResource = {
  spec: businessListSpec,
  filters: {
    name: { type: 'custom', condition: nameContains(businesses) },
    id: { type: 'equals', column: businesses.id },
    live: { type: 'custom', condition: booleanCondition(businesses.live) },
    automaticremittance: { type: 'custom', condition: booleanCondition(businesses.camAutoRemittance) },
  },
  sorts: {
    name: [
      { expression: businesses.name, descending: false },
      { expression: businesses.id, descending: false },
    ],
    id: [{ expression: businesses.id, descending: false }],
  },
};
assertResourceMatchesSpec(businessResource);

export const merchantResource: ListResource = {
  spec: merchantListSpec,
  filters: {
    name: { type: 'custom', condition: nameContains(merchants) },
    id: { type: 'equals', column: merchants.id },
    live: { type: 'custom', condition: booleanCondition(merchants.live) },
  },
  sorts: {
    name: [
      { expression: merchants.name, descending: false },
      { expression: merchants.id, descending: false },
    ],
    id: [{ expression: merchants.id, descending: false }],
  },
};
assertResourceMatchesSpec(merchantResource);

const nothing = sql`false`;

/** Rows where the caller's roles confer a permission: all with a root role, else the partner and business grants. */
function businessesWhere(principal: Principal, permission: PermissionName): SQL | undefined | null {
  const grants = principal.grants.filter((grant) => permissionsOfRoles([grant.role]).has(permission));
  if (grants.some((grant) => grant.level === 'root')) return undefined;
  const partnerIds = grants
    .filter((grant) => grant.level === 'partner')
    .map((grant) => grant.partnerId)
    .filter((id): id is string => id !== null);
  const businessIds = grants
    .filter((grant) => grant.level === 'business')
    .map((grant) => grant.businessId)
    .filter((id): id is string => id !== null);
  if (partnerIds.length + businessIds.length === 0) return null;
  return (
    or(
      partnerIds.length > 0 ? inArray(businesses.partnerId, partnerIds) : undefined,
      businessIds.length > 0 ? inArray(businesses.id, businessIds) : undefined,
    ) ?? nothing
  );
}

/** The merchants of one business the caller reads: all when the business-level permission holds, else the merchant grants. */
function merchantsWhere(principal: Principal, businessPermissions: Set<PermissionName>, businessId: string): SQL | null {
  if (businessPermissions.has('Mapi.Merchant.Read')) return eq(merchants.businessId, businessId);
  const merchantIds = principal.grants
    .filter((grant) => grant.level === 'merchant' && grant.businessId === businessId && permissionsOfRoles([grant.role]).has('Mapi.Merchant.Read'))
    .map((grant) => grant.merchantId)
    .filter((id): id is string => id !== null);
  return merchantIds.length === 0 ? null : (and(eq(merchants.businessId, businessId), inArray(merchants.id, merchantIds)) as SQL);
}

export function idParam(c: Context<AppEnv>, name: string): string {
  const value = c.req.param(name) ?? '';
  // Longer or empty ids cannot exist: 404 without asking the database.
  if (value === '' || value.length > maxIdLength) throw notFound();
  return value;
}

type BusinessRow = typeof businesses.$inferSelect;
type MerchantRow = typeof merchants.$inferSelect;

function toBusinessItem(row: BusinessRow, partnerName: string | null): BusinessListItem {
  return {
    businessId: row.id,
    businessName: row.name,
    businessUrl: row.businessUrl,
    camAutoRemittance: row.camAutoRemittance,
    live: row.live,
    partnerId: row.partnerId,
    partnerName,
  };
}

function toMerchantItem(row: MerchantRow): MerchantListItem {
  return {
    merchantId: row.id,
    merchantName: row.name,
    businessId: row.businessId,
    merchantUrl: row.merchantUrl,
    supportUrl: row.supportUrl,
    supportEmail: row.supportEmail,
    grossSettlement: row.grossSettlement,
    currencies: row.currencies,
    live: row.live,
  };
}

async function businessDetailOf(db: Db, business: BusinessRow, editable: boolean): Promise<BusinessDetail> {
  const [partner] = business.partnerId ? await db.select({ name: partners.name }).from(partners).where(eq(partners.id, business.partnerId)) : [];
  const activity = await db
    .select({
      event: auditEvents.event,
      dateTimeUtc: auditEvents.dateTimeUtc,
      merchantId: auditEvents.merchantId,
      givenName: users.givenName,
      familyName: users.familyName,
      userId: auditEvents.userId,
    })
    .from(auditEvents)
    .leftJoin(users, eq(users.id, auditEvents.userId))
    .where(eq(auditEvents.businessId, business.id))
    .orderBy(desc(auditEvents.dateTimeUtc), desc(auditEvents.id))
    .limit(recentActivityLimit);
  return {
    ...toBusinessItem(business, partner?.name ?? null),
    version: business.version,
    createDateTimeUtc: business.createdAt.toISOString(),
    editable,
    recentActivity: activity.map((row) => ({
      event: row.event,
      dateTimeUtc: row.dateTimeUtc.toISOString(),
      merchantId: row.merchantId,
      userName: row.givenName ? `${row.givenName} ${row.familyName ?? ''}`.trim() : row.userId === 'shopper' ? 'Shopper' : 'Former user',
    })),
  };
}

async function merchantDetailOf(db: Db, business: BusinessRow, merchant: MerchantRow, editable: boolean): Promise<MerchantDetail> {
  const rows = await db
    .select({ configurationId: configurations.id, tradeName: configurations.tradeName })
    .from(configurations)
    .where(eq(configurations.merchantId, merchant.id))
    .orderBy(asc(configurations.tradeName), asc(configurations.id))
    .limit(100);
  return {
    ...toMerchantItem(merchant),
    version: merchant.version,
    businessName: business.name,
    createDateTimeUtc: merchant.createdAt.toISOString(),
    configurations: rows,
    editable,
  };
}

export function businessRoutes({ database }: Deps) {
  const routes = new Hono<AppEnv>();
  const { db } = database;

  async function reachBusiness(c: Context<AppEnv>, permission: PermissionName) {
    const resolved = await resolveContext(database, c.get('principal'), idParam(c, 'businessId'));
    if (!resolved) throw notFound();
    requirePermission(resolved.permissions, permission);
    return resolved;
  }
  async function reachMerchant(c: Context<AppEnv>, permission: PermissionName) {
    const resolved = await resolveContext(database, c.get('principal'), idParam(c, 'businessId'), idParam(c, 'merchantId'));
    if (!resolved?.merchant) throw notFound();
    requirePermission(resolved.permissions, permission);
    return { ...resolved, merchant: resolved.merchant };
  }

  routes.get('/businesses', async (c) => {
    const principal = c.get('principal');
    const scope = businessesWhere(principal, 'Mapi.Business.Read');
    if (scope === null) throw forbidden();
    const query = parseListRequest(singleValuedQuery(c), businessListSpec);
    const where = and(scope, filterCondition(businessResource, query.filters, c.get('timeZone')));
    const order = query.sort.flatMap((key) => orderByOf(orderKeysOf(businessResource, key)));
    const [total] = await db.select({ value: count() }).from(businesses).where(where);
    const rows = await db
      .select({ business: businesses, partnerName: partners.name })
      .from(businesses)
      .leftJoin(partners, eq(partners.id, businesses.partnerId))
      .where(where)
      .orderBy(...order)
      .limit(query.pageSize)
      .offset((query.pageNumber - 1) * query.pageSize);
    return c.json({ results: rows.map((row) => toBusinessItem(row.business, row.partnerName)), numberOfResults: total?.value ?? 0 });
  });

  routes.get('/businesses/:businessId', async (c) => {
    const { business, permissions } = await reachBusiness(c, 'Mapi.Business.Read');
    return c.json(await businessDetailOf(db, business, permissions.has('Mapi.Business.Update')));
  });

  routes.put('/businesses/:businessId', async (c) => {
    const { business } = await reachBusiness(c, 'Mapi.Business.Update');
    const body = await readBody(c, businessUpdateBody);
    const edit = { businessName: body.businessName.trim(), businessUrl: body.businessUrl?.trim() || null };
    const problems = Object.values(checkBusinessEdit(edit));
    if (problems.length > 0) throw badRequest(problems);
    const updated = await db.transaction(async (tx) => {
      const [row] = await tx
        .update(businesses)
        .set({ name: edit.businessName, businessUrl: edit.businessUrl, version: sql`${businesses.version} + 1` })
        .where(and(eq(businesses.id, business.id), eq(businesses.version, body.version)))
        .returning();
      if (!row) throw conflict();
      await recordAudit(
        tx,
        c.get('principal'),
        'BusinessUpdated',
        { businessId: business.id, merchantId: null },
        {
          before: { businessName: business.name, businessUrl: business.businessUrl },
          after: edit,
          version: row.version,
        },
      );
      await recordEvent(tx, 'record', { resource: 'business', resourceId: business.id, businessId: business.id });
      return row;
    });
    return c.json(await businessDetailOf(db, updated, true));
  });

  routes.get('/businesses/:businessId/merchants', async (c) => {
    const principal = c.get('principal');
    const { business, permissions } = await reachBusiness(c, 'Mapi.Business.Read').catch(async (error: unknown) => {
      // A merchant-level role reads its own merchants here without reading the business itself.
      const resolved = await resolveContext(database, principal, idParam(c, 'businessId'));
      if (!resolved) throw error;
      return resolved;
    });
    const scope = merchantsWhere(principal, permissions, business.id);
    if (scope === null) throw forbidden();
    const query = parseListRequest(singleValuedQuery(c), merchantListSpec);
    const where = and(scope, filterCondition(merchantResource, query.filters, c.get('timeZone')));
    const order = query.sort.flatMap((key) => orderByOf(orderKeysOf(merchantResource, key)));
    const [total] = await db.select({ value: count() }).from(merchants).where(where);
    const rows = await db
      .select()
      .from(merchants)
      .where(where)
      .orderBy(...order)
      .limit(query.pageSize)
      .offset((query.pageNumber - 1) * query.pageSize);
    return c.json({ results: rows.map(toMerchantItem), numberOfResults: total?.value ?? 0 });
  });

  routes.get('/businesses/:businessId/merchants/:merchantId', async (c) => {
    const { business, merchant, permissions } = await reachMerchant(c, 'Mapi.Merchant.Read');
    return c.json(await merchantDetailOf(db, business, merchant, permissions.has('Mapi.Business.Update')));
  });

  routes.put('/businesses/:businessId/merchants/:merchantId', async (c) => {
    const { business, merchant } = await reachMerchant(c, 'Mapi.Business.Update');
    const body = await readBody(c, merchantUpdateBody);
    const edit = {
      merchantName: body.merchantName.trim(),
      merchantUrl: body.merchantUrl?.trim() || null,
      supportUrl: body.supportUrl?.trim() || null,
      supportEmail: body.supportEmail === undefined ? merchant.supportEmail : body.supportEmail?.trim() || null,
    };
    const problems = Object.values(checkMerchantEdit(edit));
    if (problems.length > 0) throw badRequest(problems);
    const updated = await db.transaction(async (tx) => {
      const [row] = await tx
        .update(merchants)
        .set({
          name: edit.merchantName,
          merchantUrl: edit.merchantUrl,
          supportUrl: edit.supportUrl,
          supportEmail: edit.supportEmail,
          version: sql`${merchants.version} + 1`,
        })
        .where(and(eq(merchants.id, merchant.id), eq(merchants.version, body.version)))
        .returning();
      if (!row) throw conflict();
      await recordAudit(
        tx,
        c.get('principal'),
        'MerchantUpdated',
        { businessId: business.id, merchantId: merchant.id },
        {
          before: { merchantName: merchant.name, merchantUrl: merchant.merchantUrl, supportUrl: merchant.supportUrl, supportEmail: merchant.supportEmail },
          after: edit,
          version: row.version,
        },
      );
      await recordEvent(tx, 'record', { resource: 'merchant', resourceId: merchant.id, businessId: business.id, merchantId: merchant.id });
      return row;
    });
    return c.json(await merchantDetailOf(db, business, updated, true));
  });

  return routes;
}
