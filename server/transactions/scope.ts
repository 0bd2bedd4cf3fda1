// Which transactions an addressed context (or the caller's whole reach) covers: the scope of the transactions overview
// (server/api/transactions.ts), its exports (server/reports/transaction-export.ts, worker.ts, schedules.ts) and of the
// other context-free lists that reach as far as a permission's grants (tickets, notifications, search, bulk jobs).
import { eq, inArray, or, sql, type SQL } from 'drizzle-orm';
import type { PermissionName } from '../../src/contract/permissions.ts';
import type { ReportContext } from '../../src/contract/report-schemas.ts';
import type { Database, Db } from '../db/client.ts';
import { businesses, merchants, transactions } from '../db/schema.ts';
import { resolveContext, resolvePartner, type Principal } from '../policy/principal.ts';
import { permissionsOfRoles } from '../policy/role-permissions.ts';

const t = transactions;

export type TransactionScope =
  | { level: 'all' }
  | { level: 'partner'; partnerId: string }
  | { level: 'business'; businessId: string }
  | { level: 'merchant'; businessId: string; merchantId: string }
  | { level: 'grants'; partnerIds: string[]; businessIds: string[]; merchantIds: string[] };

export function scopeWhere(scope: TransactionScope): SQL | undefined {
  switch (scope.level) {
    case 'all':
      return undefined;
    case 'partner':
      return eq(t.partnerId, scope.partnerId);
    case 'business':
      return eq(t.businessId, scope.businessId);
    // Merchant ids are unique: adding the business would only make the planner think the scope is tiny.
    case 'merchant':
      return eq(t.merchantId, scope.merchantId);
    case 'grants':
      return (
        or(
          scope.partnerIds.length > 0 ? inArray(t.partnerId, scope.partnerIds) : undefined,
          scope.businessIds.length > 0 ? inArray(t.businessId, scope.businessIds) : undefined,
          scope.merchantIds.length > 0 ? inArray(t.merchantId, scope.merchantIds) : undefined,
        ) ?? sql`false`
      );
  }
}

/** The merchants a scope can hold rows of (a superset is fine: the rows' own scope condition still applies). */
export function merchantScopeWhere(db: Db, scope: TransactionScope): SQL | undefined {
  const ofPartners = (partnerIds: string[]) =>
    inArray(merchants.businessId, db.select({ id: businesses.id }).from(businesses).where(inArray(businesses.partnerId, partnerIds)));
  switch (scope.level) {
    case 'all':
      return undefined;
    case 'partner':
      return ofPartners([scope.partnerId]);
    case 'business':
      return eq(merchants.businessId, scope.businessId);
    case 'merchant':
      return eq(merchants.id, scope.merchantId);
    case 'grants':
      return (
        or(
          scope.partnerIds.length > 0 ? ofPartners(scope.partnerIds) : undefined,
          scope.businessIds.length > 0 ? inArray(merchants.businessId, scope.businessIds) : undefined,
          scope.merchantIds.length > 0 ? inArray(merchants.id, scope.merchantIds) : undefined,
        ) ?? sql`false`
      );
  }
}

/** Where a permission reaches without a context: everything (a root role has it) or the grants that confer it. */
export function grantedScope(principal: Principal, permission: PermissionName): TransactionScope | null {
  const confers = (role: string) => permissionsOfRoles([role]).has(permission);
  const grants = principal.grants.filter((grant) => confers(grant.role));
  if (grants.some((grant) => grant.level === 'root')) return { level: 'all' };
  const ids = (level: 'partner' | 'business' | 'merchant', key: 'partnerId' | 'businessId' | 'merchantId') => [
    ...new Set(
      grants
        .filter((grant) => grant.level === level)
        .map((grant) => grant[key])
        .filter((id): id is string => id !== null),
    ),
  ];
  const scope = {
    level: 'grants' as const,
    partnerIds: ids('partner', 'partnerId'),
    businessIds: ids('business', 'businessId'),
    merchantIds: ids('merchant', 'merchantId'),
  };
  return scope.partnerIds.length + scope.businessIds.length + scope.merchantIds.length === 0 ? null : scope;
}

/** A report's context back into a scope, re-checked against the user's current grants (the worker runs later). */
export async function scopeOfReportContext(
  database: Database,
  principal: Principal,
  context: ReportContext,
  permission: PermissionName,
): Promise<TransactionScope | null> {
  switch (context.level) {
    case 'all':
      return grantedScope(principal, permission);
    case 'business': {
      const resolved = await resolveContext(database, principal, context.businessId ?? '');
      return resolved?.permissions.has(permission) ? { level: 'business', businessId: resolved.business.id } : null;
    }
    case 'merchant': {
      const resolved = await resolveContext(database, principal, context.businessId ?? '', context.merchantId ?? '');
      return resolved?.merchant && resolved.permissions.has(permission)
        ? { level: 'merchant', businessId: resolved.business.id, merchantId: resolved.merchant.id }
        : null;
    }
    case 'partner': {
      const resolved = await resolvePartner(database, principal, context.partnerId ?? '');
      return resolved?.permissions.has(permission) ? { level: 'partner', partnerId: resolved.partner.id } : null;
    }
  }
}
