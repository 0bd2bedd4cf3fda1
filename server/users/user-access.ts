// Who may see and manage which user, and what a caller may grant. Used by the user and partner-user endpoints.
//
// - Visible: a caller with the permission at root sees every user; anyone else sees users holding a role in a
//   business (directly or on one of its merchants) or a partner where the caller holds the permission.
// - Manageable: internal users only by a technical admin; external users by anyone with the permission at root
//   (customer service, technical admin), otherwise only where every business and partner the user holds a role in
//   is one where the caller holds the permission (owners manage their own business's users only).
// - Grantable: a role at a level is given only if it is allowed at that level (role kinds), the caller holds the
//   write permission there, and the caller holds that role there or above it, or every permission the role carries
//   there (nobody grants more than they hold). Root (internal) roles only by a technical admin.
import { eq, inArray } from 'drizzle-orm';
import type { PermissionName } from '../../src/contract/permissions.ts';
import { roleAllowedAt } from '../../src/contract/users.ts';
import type { Db } from '../db/client.ts';
import { businesses, merchants, userRoles } from '../db/schema.ts';
import { permissionsIn, type Principal, type RoleGrant } from '../policy/principal.ts';
import { permissionsOfRoles } from '../policy/role-permissions.ts';

export type Grant = RoleGrant;

export async function grantsOf(db: Db, userId: string): Promise<Grant[]> {
  const rows = await db.select().from(userRoles).where(eq(userRoles.userId, userId)).orderBy(userRoles.id);
  return rows.map((row) => ({ role: row.role, level: row.level, partnerId: row.partnerId, businessId: row.businessId, merchantId: row.merchantId }));
}

/** Partner of each business named (for permission checks in a business scope). */
export async function partnersOfBusinesses(db: Db, businessIds: readonly string[]): Promise<Map<string, string | null>> {
  const ids = [...new Set(businessIds)];
  if (ids.length === 0) return new Map();
  const rows = await db.select({ id: businesses.id, partnerId: businesses.partnerId }).from(businesses).where(inArray(businesses.id, ids));
  return new Map(rows.map((row) => [row.id, row.partnerId]));
}

export const holdsRootPermission = (principal: Principal, permission: PermissionName) => permissionsOfRoles(principal.rootRoles).has(permission);

export const isTechnicalAdmin = (principal: Principal) => principal.rootRoles.includes('TechnicalAdmin');

/** The scopes (business ids and partner ids) where the caller holds a permission, for non-root callers. */
export function permissionInBusiness(principal: Principal, permission: PermissionName, businessId: string, partnerId: string | null): boolean {
  return permissionsIn(principal, { partnerId, businessId }).has(permission);
}

export function permissionInPartner(principal: Principal, permission: PermissionName, partnerId: string): boolean {
  return permissionsIn(principal, { partnerId }).has(permission);
}

export type Target = { userId: string; internal: boolean; grants: Grant[]; partnersOf: Map<string, string | null> };

export async function loadTarget(db: Db, user: { id: string; internal: boolean }): Promise<Target> {
  const grants = await grantsOf(db, user.id);
  const partnersOf = await partnersOfBusinesses(db, grants.map((grant) => grant.businessId ?? '').filter(Boolean));
  return { userId: user.id, internal: user.internal || grants.some((grant) => grant.level === 'root'), grants, partnersOf };
}

/** Does the caller hold the permission in the scope of one of the target's grants? */
function permissionAtGrant(principal: Principal, permission: PermissionName, grant: Grant, partnersOf: Map<string, string | null>): boolean {
  if (grant.level === 'root') return false;
  if (grant.level === 'partner') return grant.partnerId !== null && permissionInPartner(principal, permission, grant.partnerId);
  if (!grant.businessId) return false;
  return permissionInBusiness(principal, permission, grant.businessId, partnersOf.get(grant.businessId) ?? null);
}

export function canSeeUser(principal: Principal, target: Target): boolean {
  if (principal.userId === target.userId) return true;
  if (holdsRootPermission(principal, 'Mapi.Users.Read')) return true;
  if (target.internal) return false;
  return target.grants.some((grant) => permissionAtGrant(principal, 'Mapi.Users.Read', grant, target.partnersOf));
}

/** May the caller act on the whole user (lock, delete, reset password) with this permission? */
export function canManageWholeUser(principal: Principal, permission: PermissionName, target: Target): boolean {
  if (target.internal) return isTechnicalAdmin(principal) && holdsRootPermission(principal, permission);
  if (holdsRootPermission(principal, permission)) return true;
  return target.grants.length > 0 && target.grants.every((grant) => permissionAtGrant(principal, permission, grant, target.partnersOf));
}

/** May the caller change the target's grants in this scope (add or remove)? */
export function canEditScope(
  principal: Principal,
  permission: PermissionName,
  grant: Pick<Grant, 'level' | 'partnerId' | 'businessId'>,
  partnerOfBusiness: string | null,
  targetInternal: boolean,
): boolean {
  if (grant.level === 'root') return isTechnicalAdmin(principal);
  if (targetInternal && !isTechnicalAdmin(principal)) return false;
  if (holdsRootPermission(principal, permission)) return true;
  if (grant.level === 'partner') return grant.partnerId !== null && permissionInPartner(principal, permission, grant.partnerId);
  return grant.businessId !== null && permissionInBusiness(principal, permission, grant.businessId, partnerOfBusiness);
}

export type GrantRefusal = { kind: 'invalid'; message: string } | { kind: 'forbidden'; message: string };

/** Why the caller may not give this role here, or null when they may. */
export function grantRefusal(principal: Principal, permission: PermissionName, grant: Grant, partnerOfBusiness: string | null): GrantRefusal | null {
  if (!roleAllowedAt(grant.role, grant.level)) return { kind: 'invalid', message: `The role ${grant.role} cannot be granted at ${grant.level} level.` };
  if (grant.level === 'root') {
    return isTechnicalAdmin(principal) ? null : { kind: 'forbidden', message: `You cannot grant the internal role ${grant.role}.` };
  }
  const context =
    grant.level === 'partner'
      ? { partnerId: grant.partnerId }
      : { partnerId: partnerOfBusiness, businessId: grant.businessId, merchantId: grant.level === 'merchant' ? grant.merchantId : null };
  const held = permissionsIn(principal, context);
  if (!held.has(permission))
    return { kind: 'forbidden', message: `You cannot manage users there (${grant.level} ${grant.partnerId ?? grant.merchantId ?? grant.businessId}).` };
  const heldRoles = new Set(
    principal.grants
      // biome-ignore lint/suspicious/useIterableCallbackReturn: the switch covers every case (TypeScript checks it with noImplicitReturns)
      .filter((own) => {
        switch (own.level) {
          case 'root':
            return true;
          case 'partner':
            return own.partnerId !== null && own.partnerId === context.partnerId;
          case 'business':
            return own.businessId !== null && own.businessId === context.businessId;
          case 'merchant':
            return own.merchantId !== null && own.merchantId === context.merchantId;
        }
      })
      .map((own) => own.role),
  );
  if (heldRoles.has(grant.role)) return null;
  for (const needed of permissionsOfRoles([grant.role])) {
    if (!held.has(needed)) return { kind: 'forbidden', message: `You cannot grant ${grant.role}: it carries ${needed}, which you do not hold there.` };
  }
  return null;
}

/** Which businesses exist, and which merchants belong to which business. */
export async function knownBusinessesAndMerchants(db: Db, businessIds: readonly string[], merchantIds: readonly string[]) {
  const businessRows =
    businessIds.length === 0
      ? []
      : await db
          .select({ id: businesses.id, name: businesses.name, partnerId: businesses.partnerId })
          .from(businesses)
          .where(inArray(businesses.id, [...new Set(businessIds)]));
  const merchantRows =
    merchantIds.length === 0
      ? []
      : await db
          .select({ id: merchants.id, businessId: merchants.businessId })
          .from(merchants)
          .where(inArray(merchants.id, [...new Set(merchantIds)]));
  return {
    businesses: new Map(businessRows.map((row) => [row.id, row])),
    merchantBusiness: new Map(merchantRows.map((row) => [row.id, row.businessId])),
  };
}

export const grantKey = (grant: Grant) => `${grant.level}|${grant.role}|${grant.partnerId ?? ''}|${grant.businessId ?? ''}|${grant.merchantId ?? ''}`;
