// Resolves who is calling and what they may reach: roles per level, visible businesses and merchants,
// and the permissions that apply in an addressed context (root, partner, business or merchant).
import { and, eq, inArray, or, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { PermissionName } from '../../src/contract/permissions.ts';
import type { Database, Db } from '../db/client.ts';
import { businesses, merchants, partners, users } from '../db/schema.ts';
import { partnerLevelExtras, permissionsOfRoles } from './role-permissions.ts';
import { now } from '../clock.ts';

export type RoleGrant = {
  role: string;
  level: 'root' | 'partner' | 'business' | 'merchant';
  partnerId: string | null;
  businessId: string | null;
  merchantId: string | null;
};

export type Principal = {
  userId: string;
  email: string;
  givenName: string;
  familyName: string;
  internal: boolean;
  passwordExpiresUtc: Date | null;
  grants: RoleGrant[];
  rootRoles: string[];
  /** partner ids with a partner-level role */
  partnerIds: string[];
  /** business ids reachable through a partner-level role (resolved once per request) */
  partnerBusinessIds: string[];
  businessIds: string[];
  merchantIds: string[];
};

type GrantRow = [role: string, level: RoleGrant['level'], partnerId: string | null, businessId: string | null, merchantId: string | null];

/**
 * The user, their grants and the businesses their partner grants reach, in one statement (one round trip on every
 * API call), prepared once per database: only the user id changes between calls. Nothing is cached across calls,
 * so a changed role or a lock applies to the very next request.
 */
function principalQuery(db: Db) {
  // Static SQL (no values): the ORM would render these subqueries' columns unqualified, hence plain names.
  const grantsOfUser = sql<GrantRow[]>`coalesce((
    SELECT json_agg(json_build_array(r.role, r.level, r.partner_id, r.business_id, r.merchant_id) ORDER BY r.id)
    FROM user_roles r WHERE r.user_id = "users"."id"), '[]'::json)`;
  const businessesOfPartnerGrants = sql<string[]>`coalesce((
    SELECT json_agg(b.id ORDER BY b.id) FROM businesses b
    WHERE b.partner_id IN (SELECT r.partner_id FROM user_roles r WHERE r.user_id = "users"."id" AND r.level = 'partner')), '[]'::json)`;
  return db
    .select({
      id: users.id,
      email: users.email,
      givenName: users.givenName,
      familyName: users.familyName,
      internal: users.internal,
      passwordExpiresUtc: users.passwordExpiresUtc,
      grants: grantsOfUser,
      partnerBusinessIds: businessesOfPartnerGrants,
      // A locked account (lockoutEndDateUtc in the future) is no principal at all: its tokens stop working at once.
    })
    .from(users)
    .where(
      and(
        eq(users.id, sql.placeholder('userId')),
        sql`(${users.lockoutEndDateUtc} IS NULL OR ${users.lockoutEndDateUtc} <= ${sql.placeholder('now')}::timestamptz)`,
      ),
    )
    .prepare('load_principal');
}

/** Look-ups every call makes, with only ids changing: built once per database, prepared on each connection once. */
function lookups(db: Db) {
  return {
    principal: principalQuery(db),
    business: db
      .select()
      .from(businesses)
      .where(eq(businesses.id, sql.placeholder('businessId')))
      .prepare('business_by_id'),
    merchant: db
      .select()
      .from(merchants)
      .where(and(eq(merchants.id, sql.placeholder('merchantId')), eq(merchants.businessId, sql.placeholder('businessId'))))
      .prepare('merchant_of_business'),
    partner: db
      .select()
      .from(partners)
      .where(eq(partners.id, sql.placeholder('partnerId')))
      .prepare('partner_by_id'),
  };
}

const preparedLookups = new WeakMap<Db, ReturnType<typeof lookups>>();

function lookupsOf(db: Db): ReturnType<typeof lookups> {
  let prepared = preparedLookups.get(db);
  if (!prepared) {
    prepared = lookups(db);
    preparedLookups.set(db, prepared);
  }
  return prepared;
}

/** PGlite hands json back parsed, node-postgres too; a driver that hands back text is parsed here. */
const fromJson = <T>(value: unknown): T => (typeof value === 'string' ? JSON.parse(value) : value) as T;

export async function loadPrincipal(database: Database, userId: string): Promise<Principal | null> {
  const [user] = await lookupsOf(database.db).principal.execute({ userId, now: now().toISOString() });
  if (!user) return null;
  const grants = fromJson<GrantRow[]>(user.grants).map(
    ([role, level, partnerId, businessId, merchantId]): RoleGrant => ({ role, level, partnerId, businessId, merchantId }),
  );
  return {
    userId: user.id,
    email: user.email,
    givenName: user.givenName,
    familyName: user.familyName,
    internal: user.internal,
    passwordExpiresUtc: user.passwordExpiresUtc,
    grants,
    rootRoles: unique(grants.filter((grant) => grant.level === 'root').map((grant) => grant.role)),
    partnerIds: unique(grants.filter((grant) => grant.level === 'partner').map((grant) => grant.partnerId)),
    partnerBusinessIds: fromJson<string[]>(user.partnerBusinessIds),
    businessIds: unique(grants.filter((grant) => grant.level === 'business').map((grant) => grant.businessId)),
    merchantIds: unique(grants.filter((grant) => grant.level === 'merchant').map((grant) => grant.merchantId)),
  };
}

function unique(values: (string | null)[]): string[] {
  return [...new Set(values.filter((value): value is string => value !== null))];
}

export const isInternal = (principal: Principal) => principal.rootRoles.length > 0;

/** Every permission the user holds anywhere (GET /user/permissions). */
export function allPermissions(principal: Principal): Set<PermissionName> {
  const granted = permissionsOfRoles(principal.grants.map((grant) => grant.role));
  if (principal.partnerIds.length > 0) for (const extra of partnerLevelExtras) granted.add(extra);
  return granted;
}

export type AddressedContext = { partnerId?: string | null; businessId?: string | null; merchantId?: string | null };

/** Permissions in one context: root roles, plus roles granted on the partner, business or merchant it lies in. */
export function permissionsIn(principal: Principal, context: AddressedContext): Set<PermissionName> {
  const roles = principal.grants
    // biome-ignore lint/suspicious/useIterableCallbackReturn: the switch covers every case (TypeScript checks it with noImplicitReturns)
    .filter((grant) => {
      switch (grant.level) {
        case 'root':
          return true;
        case 'partner':
          return grant.partnerId != null && grant.partnerId === context.partnerId;
        case 'business':
          return grant.businessId != null && grant.businessId === context.businessId;
        case 'merchant':
          return grant.merchantId != null && grant.merchantId === context.merchantId;
      }
    })
    .map((grant) => grant.role);
  const granted = permissionsOfRoles(roles);
  if (context.partnerId && principal.partnerIds.includes(context.partnerId)) for (const extra of partnerLevelExtras) granted.add(extra);
  return granted;
}

/** May the caller see this business at all (any role at root, partner or business level, or a merchant role under it)? */
export function canSeeBusiness(principal: Principal, businessId: string, merchantIdsOfBusiness: readonly string[] = []): boolean {
  return (
    isInternal(principal) ||
    principal.businessIds.includes(businessId) ||
    principal.partnerBusinessIds.includes(businessId) ||
    merchantIdsOfBusiness.some((merchantId) => principal.merchantIds.includes(merchantId))
  );
}

export function canSeeMerchant(principal: Principal, businessId: string, merchantId: string): boolean {
  return (
    isInternal(principal) ||
    principal.businessIds.includes(businessId) ||
    principal.partnerBusinessIds.includes(businessId) ||
    principal.merchantIds.includes(merchantId)
  );
}

/**
 * The row filter for anything owned by a business and merchant: internal users see all,
 * others what their business, partner and merchant grants reach. Null means everything.
 */
export function scopeCondition(principal: Principal, columns: { businessId: AnyPgColumn; merchantId: AnyPgColumn }): SQL | undefined {
  if (isInternal(principal)) return undefined;
  const businessIds = [...principal.businessIds, ...principal.partnerBusinessIds];
  const parts: SQL[] = [];
  if (businessIds.length > 0) parts.push(inArray(columns.businessId, businessIds));
  if (principal.merchantIds.length > 0) parts.push(inArray(columns.merchantId, principal.merchantIds));
  if (parts.length === 0) return eq(columns.businessId, '\u0000none');
  return parts.length === 1 ? parts[0] : or(...parts);
}

/** Looks up a business (and merchant) the caller may reach, with the permissions that apply there; null = 404. */
export async function resolveContext(
  database: Database,
  principal: Principal,
  businessId: string,
  merchantId?: string,
): Promise<{ business: typeof businesses.$inferSelect; merchant: typeof merchants.$inferSelect | null; permissions: Set<PermissionName> } | null> {
  const [business] = await lookupsOf(database.db).business.execute({ businessId });
  if (!business) return null;
  if (merchantId === undefined) {
    const merchantIds =
      principal.merchantIds.length === 0
        ? []
        : (
            await database.db
              .select({ id: merchants.id })
              .from(merchants)
              .where(and(eq(merchants.businessId, businessId), inArray(merchants.id, principal.merchantIds)))
          ).map((row) => row.id);
    if (!canSeeBusiness(principal, businessId, merchantIds)) return null;
    return { business, merchant: null, permissions: permissionsIn(principal, { partnerId: business.partnerId, businessId }) };
  }
  const [merchant] = await lookupsOf(database.db).merchant.execute({ merchantId, businessId });
  if (!merchant || !canSeeMerchant(principal, businessId, merchantId)) return null;
  return { business, merchant, permissions: permissionsIn(principal, { partnerId: business.partnerId, businessId, merchantId }) };
}

export async function resolvePartner(database: Database, principal: Principal, partnerId: string) {
  if (!isInternal(principal) && !principal.partnerIds.includes(partnerId)) return null;
  const [partner] = await lookupsOf(database.db).partner.execute({ partnerId });
  if (!partner) return null;
  return { partner, permissions: permissionsIn(principal, { partnerId }) };
}
