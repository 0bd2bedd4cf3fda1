// Users, roles and identity: user administration, the caller's own profile, partner users.
//
// | method | path                                  | permission (where)                           | answer                                   |
// |--------|---------------------------------------|----------------------------------------------|------------------------------------------|
// | GET    | /user/users                           | Mapi.Users.Read (root, or the businesses and | { results, numberOfResults }; filters    |
// |        |                                       | partners where held: only their users)       | name, email, role, business, merchant,   |
// |        |                                       |                                              | locked, status, internal; sort name,     |
// |        |                                       |                                              | email, created, lastSignIn               |
// | GET    | /user/role-groups                     | signed in                                    | { results } (src/contract/users.ts)      |
// | GET    | /users/{id}                           | Mapi.Users.Read where the user holds a role  | detail; policy limited to what the       |
// |        |                                       | (or the caller themself)                     | caller may see                           |
// | POST   | /users                                | Mapi.Users.Create in every scope granted     | 201 { users }: one invitation per email  |
// | PUT    | /users/{id}                           | Mapi.Users.Update in every scope changed     | detail; 409 on a stale version           |
// | PATCH  | /users                                | signed in (the caller's own profile); a new  | detail; a new email is emailed a link and |
// |        |                                       | email needs currentPassword or a step-up     | applies once confirmed; the old address  |
// |        |                                       |                                              | is told at once with an undo link        |
// | PUT    | /user/password                        | signed in (current password required)        | 204                                      |
// | POST   | /users/{id}/password-reset-email      | Mapi.Users.Update over the whole user        | 202                                      |
// | PUT    | /users/{id}/login                     | Mapi.Users.Update over the whole user        | detail (lockoutEndDateUtc set/cleared)   |
// | POST   | /users/{id}/invitation                | Mapi.Users.Create over the whole user        | 202: a new invitation (old one revoked)  |
// | DELETE | /users/{id}/invitation                | Mapi.Users.Create over the whole user        | 204: the pending invitation revoked      |
// | DELETE | /users/{id}                           | Mapi.Users.Delete over the whole user        | 204; both acknowledgements; the email is |
// |        |                                       |                                              | refused afterwards                       |
// | DELETE | /users/{id}/second-factor             | technical admin (root), not oneself          | 204; audited SecondFactorReset           |
// | GET    | /users/{id}/audit-events              | as GET /users/{id}                           | { results }: the 20 latest events about  |
// |        |                                       |                                              | the user (others: only their businesses),|
// |        |                                       |                                              | a refused sign-in's reason (locked…)     |
// | GET    | /user/sessions                        | signed in (own)                              | { results: [{ signedInUtc, expiresUtc }] }|
// | POST   | /user/sessions/revocation             | signed in (own), { confirm: true }           | 204: every session and refresh token ends|
// | GET    | /user/second-factor                   | signed in (own)                              | { status: off|pending|on, recoveryCodesLeft } |
// | POST   | /user/second-factor/enrolment         | signed in (own), { currentPassword }         | { otpauthUri, secret, qrCodeDataUrl }    |
// | POST   | /user/second-factor/enrolment/confirm | signed in (own), { code }                    | { recoveryCodes } (ten, shown once)      |
// | POST   | /user/second-factor/removal           | signed in (own), { currentPassword, code }   | 204; wrong codes count towards the lock  |
// | GET    | /partners/{partnerId}/users           | Mapi.Users.Read at the partner               | { results, numberOfResults }             |
// | POST   | /partners/{partnerId}/users           | Mapi.Users.Create at the partner             | 201 { users }                            |
// | PUT    | /partners/{partnerId}/users/{userId}  | Mapi.Users.Update at the partner             | detail                                   |
// Rules (server/users/user-access.ts): internal users are managed by technical admins only; customer service (root
// permission) manages external users; everyone else only users whose every role lies where they hold the
// permission, and grants only roles they hold there or whose permissions they hold there. A user out of sight is a
// 404, a visible one beyond the caller's rights a 403; both are audited (UserAdministrationRefused, or
// UserDeletionFailed for a deletion). Every write is one database transaction with its audit event; a lock, a
// deletion or a removed role ends the user's sessions and refresh tokens at once (revokeAccountAccess); a lock also
// signs their open tabs out through the live events stream (account-locked).
import { ownPasswordCheck, requestSource, requireStepUp, sourceMetaData } from './step-up.ts';
import { and, asc, count, desc, eq, exists, inArray, isNull, or, sql, type SQL } from 'drizzle-orm';
import { Hono, type Context } from 'hono';
import type { PermissionName } from '../../src/contract/permissions.ts';
import {
  changePasswordBody, deleteUserBody, secondFactorCodeBody, secondFactorEnrolmentBody, secondFactorRemovalBody, signOutEverywhereBody, invitePartnerUsersBody, inviteUsersBody, partnerUserBody, updateOwnProfileBody,
  updateUserBody, userLoginBody, type PolicyInput,
} from '../../src/contract/user-schemas.ts';
import type { UserDetail, UserListItem } from '../../src/contract/user-schemas.ts';
import { businessNeedsRoleMessage, roleGroups, signInRefusalReasons, type SignInRefusalReason, userListSpec, userMessages } from '../../src/contract/users.ts';
import type { Db } from '../db/client.ts';
import { auditEvents, businesses, deletedUserEmails, merchants, oidcPayloads, partners, passwordResets, userInvitations, userRoles, users } from '../db/schema.ts';
import { revokeAccountAccess } from '../identity/adapter.ts';
import { recordEvent } from '../events/event-bus.ts';
import { hashPassword, verifyPassword } from '../identity/passwords.ts';
import { isInternal, type Principal } from '../policy/principal.ts';
import { checkNewPassword } from '../users/password-rules.ts';
import {
  canEditScope, canManageWholeUser, canSeeUser, grantKey, grantRefusal, holdsRootPermission, isTechnicalAdmin, knownBusinessesAndMerchants,
  loadTarget, partnersOfBusinesses, permissionInBusiness, permissionInPartner, type Grant, type Target,
} from '../users/user-access.ts';
import { issueInvitation, issuePasswordReset, nextUserId } from '../users/invitations.ts';
import { passwordExpiryFrom } from '../users/password-reset.ts';
import { portalLink } from '../mail/compose.ts';
import { queueEmail } from '../mail/outbox.ts';
import { emailTaken, requestEmailChange } from '../users/email-change.ts';
import {
  checkSecondFactorCode, confirmEnrolment, removeSecondFactor, secondFactorState, startEnrolment,
} from '../users/second-factor.ts';
import { type AppEnv, type Deps, readBody } from '../http/env.ts';
import { ApiError, badRequest, conflict, forbidden, notFound } from '../http/errors.ts';
import { likeLiteral, parseListRequest, singleValuedQuery } from '../http/list-sql.ts';
import type { ParsedListQuery } from '../../src/contract/list-query.ts';
import { sqlNow } from '../clock.ts';

const u = users;
const userIdPattern = /^[A-Za-z0-9_-]{1,64}$/;
/** A lock without an end is a lock until unlocked: far enough to read as 'until unlocked'. */
/** Reset emails one administrator or one address may ask for, per user or email, per hour. */
export const resetEmailsPerHour = 3;

type UserRow = typeof users.$inferSelect;

export const statusOf = (row: Pick<UserRow, 'status' | 'lockoutEndDateUtc'>, now = new Date()): UserListItem['status'] =>
  row.lockoutEndDateUtc && row.lockoutEndDateUtc > now ? 'locked' : row.status;

/** The policy of a request as grants (merchant grants carry their business). */
export function grantsOfPolicy(policy: PolicyInput, merchantBusiness: Map<string, string>): Grant[] {
  const grants: Grant[] = [];
  for (const role of new Set(policy.roles)) grants.push({ role, level: 'root', partnerId: null, businessId: null, merchantId: null });
  if (policy.partnerPolicy) {
    for (const role of new Set(policy.partnerPolicy.roles)) grants.push({ role, level: 'partner', partnerId: policy.partnerPolicy.partnerId, businessId: null, merchantId: null });
  }
  for (const business of policy.businessPolicies) {
    for (const role of new Set(business.roles)) grants.push({ role, level: 'business', partnerId: null, businessId: business.businessId, merchantId: null });
    for (const merchant of business.merchantPolicies) {
      for (const role of new Set(merchant.roles)) {
        grants.push({ role, level: 'merchant', partnerId: null, businessId: merchantBusiness.get(merchant.merchantId) ?? business.businessId, merchantId: merchant.merchantId });
      }
    }
  }
  return grants;
}

/** The role rows whose users the caller may read (null: every user, a root reader); 403 when none. */
export async function readableGrantCondition(db: Db, principal: Principal): Promise<SQL | null> {
  if (holdsRootPermission(principal, 'Mapi.Users.Read')) return null;
  const candidateBusinesses = [...new Set([...principal.businessIds, ...principal.partnerBusinessIds])];
  const partnerOf = await partnersOfBusinesses(db, candidateBusinesses);
  const businessIds = candidateBusinesses.filter((id) => permissionInBusiness(principal, 'Mapi.Users.Read', id, partnerOf.get(id) ?? null));
  const partnerIds = principal.partnerIds.filter((id) => permissionInPartner(principal, 'Mapi.Users.Read', id));
  if (businessIds.length === 0 && partnerIds.length === 0) throw forbidden();
  const parts: SQL[] = [];
  if (businessIds.length > 0) parts.push(inArray(userRoles.businessId, businessIds));
  if (partnerIds.length > 0) parts.push(and(eq(userRoles.level, 'partner'), inArray(userRoles.partnerId, partnerIds)) as SQL);
  return or(...parts) as SQL;
}

/** The users overview's rows (GET /user/users, /partners/{id}/users): who the caller may read, narrowed by the filters. */
export async function userListWhere(db: Db, principal: Principal, filters: ParsedListQuery['filters'], extra: { partnerId?: string } = {}): Promise<{ readable: SQL | null; where: SQL | undefined }> {
  const query = { filters };
  const readable = extra.partnerId ? and(eq(userRoles.level, 'partner'), eq(userRoles.partnerId, extra.partnerId)) as SQL : await readableGrantCondition(db, principal);
  const roleRow = (condition?: SQL) => exists(db.select({ one: sql`1` }).from(userRoles).where(and(eq(userRoles.userId, u.id), readable ?? undefined, condition)));
  const conditions: (SQL | undefined)[] = [readable ? roleRow() : undefined];
  const first = (name: string) => query.filters[name]?.[0]?.value;
  const name = first('name');
  if (name) conditions.push(sql`lower(${u.givenName} || ' ' || ${u.familyName}) LIKE ${`%${likeLiteral(name.toLowerCase())}%`}`);
  const email = first('email');
  if (email) conditions.push(sql`lower(${u.email}) LIKE ${`%${likeLiteral(email.toLowerCase())}%`}`);
  const role = first('role');
  if (role) conditions.push(roleRow(eq(userRoles.role, role)));
  const business = first('business');
  if (business) conditions.push(roleRow(eq(userRoles.businessId, business)));
  const merchant = first('merchant');
  if (merchant) conditions.push(roleRow(eq(userRoles.merchantId, merchant)));
  const locked = first('locked');
  const lockedSql = sql`(${u.lockoutEndDateUtc} IS NOT NULL AND ${u.lockoutEndDateUtc} > ${sqlNow()})`;
  if (locked === 'true') conditions.push(lockedSql);
  if (locked === 'false') conditions.push(sql`NOT ${lockedSql}`);
  const status = first('status');
  if (status === 'locked') conditions.push(lockedSql);
  else if (status) conditions.push(and(eq(u.status, status as 'active' | 'invited'), sql`NOT ${lockedSql}`));
  const internal = first('internal');
  if (internal) conditions.push(eq(u.internal, internal === 'true'));
  // Internal users are not listed to those who only see business or partner users.
  if (readable) conditions.push(eq(u.internal, false));
  const where = and(...conditions);
  return { readable, where };
}

/** Every user administration write is audited with the user it is about. */
export async function auditUserEvent(writer: Db, principal: Principal, event: string, target: { userId: string; businessId?: string | null }, metaData: Record<string, unknown> = {}) {
  await writer.insert(auditEvents).values({
    userId: principal.userId, event, dateTimeUtc: new Date(), businessId: target.businessId ?? null, merchantId: null,
    metaData: { targetUserId: target.userId, ...metaData },
  });
}

export const businessOfTarget = (target: Target) => target.grants.find((grant) => grant.businessId)?.businessId ?? null;

/** Locks (until a date, or indefinitely) or unlocks a user as PUT /users/{id}/login does, inside the caller's
 * transaction: the version checked (409), their sessions ended on a lock and their open tabs told (account-locked on
 * the live events stream), audited UserLocked / UserUnlocked. */
export async function setUserLock(tx: Db, principal: Principal, user: { id: string; version: number }, target: Target, until: Date | null, metaData: Record<string, unknown> = {}): Promise<void> {
  const [updated] = await tx.update(u).set({ lockoutEndDateUtc: until, failedSignIns: 0, version: sql`${u.version} + 1` })
    .where(and(eq(u.id, user.id), eq(u.version, user.version))).returning({ id: u.id });
  if (!updated) throw conflict();
  if (until) {
    await revokeAccountAccess(tx, user.id);
    // Their open tabs are told on the live events stream and sign out now, not at their next call.
    await recordEvent(tx, 'account-locked', { userId: user.id });
  }
  await auditUserEvent(tx, principal, until ? 'UserLocked' : 'UserUnlocked', { userId: user.id, businessId: businessOfTarget(target) }, { ...(until ? { lockoutEndDateUtc: until.toISOString() } : {}), ...metaData });
}

export const indefiniteLock = new Date('9999-12-31T00:00:00Z');

export function userAdministrationRoutes({ database, publicUrl, cardKeys }: Deps) {
  const { db } = database;
  const routes = new Hono<AppEnv>();
  const currentPasswordIsRight = ownPasswordCheck({ database, publicUrl });

  const audit = auditUserEvent;

  /** Refusals of writes are audited (outside the rolled-back transaction), then answered. */
  async function auditedWrite(c: Context<AppEnv>, action: string, targetUserId: string | null, work: () => Promise<Response>, refusalEvent = 'UserAdministrationRefused'): Promise<Response> {
    try {
      return await work();
    } catch (error) {
      const status = error instanceof ApiError ? error.status : 500;
      const audited = refusalEvent === 'UserDeletionFailed' || status === 403 || status === 404;
      if (audited) {
        await audit(db, c.get('principal'), refusalEvent, { userId: targetUserId ?? '' }, {
          action, status, reason: error instanceof ApiError ? error.messages.join('; ') : 'error',
        }).catch(() => undefined);
      }
      throw error;
    }
  }

  async function findUser(userId: string): Promise<UserRow | undefined> {
    if (!userIdPattern.test(userId)) return undefined;
    const [row] = await db.select().from(u).where(eq(u.id, userId));
    return row;
  }

  /** The user and their grants, if the caller may see them; else 404 (existence is not revealed). */
  async function visibleTarget(principal: Principal, userId: string): Promise<{ row: UserRow; target: Target }> {
    const row = await findUser(userId);
    if (!row) throw notFound();
    const target = await loadTarget(db, row);
    if (!canSeeUser(principal, target)) throw notFound();
    return { row, target };
  }

  /** Grants of the target the caller may see (root readers see all). */
  function visibleGrants(principal: Principal, target: Target): Grant[] {
    if (principal.userId === target.userId || holdsRootPermission(principal, 'Mapi.Users.Read')) return target.grants;
    return target.grants.filter((grant) => {
      if (grant.level === 'partner') return grant.partnerId !== null && permissionInPartner(principal, 'Mapi.Users.Read', grant.partnerId);
      if (grant.level === 'root' || !grant.businessId) return false;
      return permissionInBusiness(principal, 'Mapi.Users.Read', grant.businessId, target.partnersOf.get(grant.businessId) ?? null);
    });
  }

  async function policyStructureOf(grants: Grant[]): Promise<UserDetail['policyStructure']> {
    const businessIds = [...new Set(grants.map((grant) => grant.businessId).filter((id): id is string => id !== null))];
    const merchantIds = [...new Set(grants.map((grant) => grant.merchantId).filter((id): id is string => id !== null))];
    const businessRows = businessIds.length === 0 ? [] : await db.select({ id: businesses.id, name: businesses.name }).from(businesses).where(inArray(businesses.id, businessIds)).orderBy(asc(businesses.name));
    const merchantRows = merchantIds.length === 0 ? [] : await db.select({ id: merchants.id, name: merchants.name, business_id: merchants.businessId })
      .from(merchants).where(inArray(merchants.id, merchantIds)).orderBy(asc(merchants.name));
    const partnerGrant = grants.find((grant) => grant.level === 'partner');
    let partnerPolicy: UserDetail['policyStructure']['portalPolicy']['partnerPolicy'] = null;
    if (partnerGrant?.partnerId) {
      const [partner] = await db.select().from(partners).where(eq(partners.id, partnerGrant.partnerId));
      partnerPolicy = {
        partnerId: partnerGrant.partnerId, partnerName: partner?.name ?? partnerGrant.partnerId,
        roles: grants.filter((grant) => grant.level === 'partner' && grant.partnerId === partnerGrant.partnerId).map((grant) => grant.role),
      };
    }
    return {
      portalPolicy: {
        roles: grants.filter((grant) => grant.level === 'root').map((grant) => grant.role),
        partnerPolicy,
        businessPolicies: businessRows.map((business) => ({
          businessId: business.id,
          businessName: business.name,
          roles: grants.filter((grant) => grant.level === 'business' && grant.businessId === business.id).map((grant) => grant.role),
          merchantPolicies: merchantRows.filter((merchant) => merchant.business_id === business.id).map((merchant) => ({
            businessId: business.id, merchantId: merchant.id, merchantName: merchant.name,
            roles: grants.filter((grant) => grant.level === 'merchant' && grant.merchantId === merchant.id).map((grant) => grant.role),
          })),
        })),
      },
    };
  }

  async function detailOf(principal: Principal, row: UserRow, target: Target): Promise<UserDetail> {
    const [invitation] = await db.select().from(userInvitations).where(eq(userInvitations.userId, row.id)).orderBy(desc(userInvitations.createdAt)).limit(1);
    const now = new Date();
    const self = principal.userId === row.id;
    return {
      userId: row.id,
      email: row.email,
      givenName: row.givenName,
      familyName: row.familyName,
      phoneNumber: row.phoneNumber,
      language: row.language,
      status: statusOf(row, now),
      internal: target.internal,
      version: row.version,
      lockoutEndDateUtc: row.lockoutEndDateUtc?.toISOString() ?? null,
      passwordExpiresUtc: row.passwordExpiresUtc?.toISOString() ?? null,
      lastSignInUtc: row.lastSignInUtc?.toISOString() ?? null,
      createdUtc: row.createdAt.toISOString(),
      invitation: invitation ? {
        invitationId: invitation.id,
        createdUtc: invitation.createdAt.toISOString(),
        expiresUtc: invitation.expiresAt.toISOString(),
        state: invitation.acceptedAt ? 'accepted' : invitation.revokedAt ? 'revoked' : invitation.expiresAt <= now ? 'expired' : 'pending',
      } : null,
      policyStructure: await policyStructureOf(visibleGrants(principal, target)),
      allowed: {
        update: !self && target.grants.some((grant) => canEditScope(principal, 'Mapi.Users.Update', grant, grant.businessId ? target.partnersOf.get(grant.businessId) ?? null : null, target.internal)),
        lock: !self && canManageWholeUser(principal, 'Mapi.Users.Update', target),
        delete: !self && canManageWholeUser(principal, 'Mapi.Users.Delete', target),
        resetPassword: !self && canManageWholeUser(principal, 'Mapi.Users.Update', target),
        resetSecondFactor: !self && isTechnicalAdmin(principal),
      },
      secondFactor: (await secondFactorState(db, row.id)).status,
    };
  }

  async function respondDetail(c: Context<AppEnv>, userId: string, status: 200 | 201 = 200) {
    const principal = c.get('principal');
    const { row, target } = await visibleTarget(principal, userId);
    return c.json(await detailOf(principal, row, target), status);
  }

  /**
   * The grants a write ends with: the submitted policy in the scopes the caller may edit, the user's other grants
   * kept. Each added grant is checked against what the caller holds; removed ones need the caller's permission there.
   */
  async function planGrants(principal: Principal, permission: PermissionName, policy: PolicyInput, existing: Target | null): Promise<{ final: Grant[]; added: Grant[]; removed: Grant[] }> {
    const merchantIds = policy.businessPolicies.flatMap((business) => business.merchantPolicies.map((merchant) => merchant.merchantId));
    const businessIds = policy.businessPolicies.map((business) => business.businessId);
    const known = await knownBusinessesAndMerchants(db, businessIds, merchantIds);
    const forbiddenMessages: string[] = [];
    const invalid: string[] = [];
    for (const businessId of businessIds) {
      // An unknown business looks like one the caller cannot manage: no oracle for ids.
      if (!known.businesses.has(businessId)) forbiddenMessages.push(`You cannot manage users there (business ${businessId}).`);
    }
    for (const business of policy.businessPolicies) {
      for (const merchant of business.merchantPolicies) {
        if (known.merchantBusiness.get(merchant.merchantId) !== business.businessId) forbiddenMessages.push(`You cannot manage users there (merchant ${merchant.merchantId}).`);
      }
    }
    if (new Set(businessIds).size !== businessIds.length) invalid.push('Each business may appear once in a policy.');
    if (forbiddenMessages.length > 0) throw new ApiError(403, forbiddenMessages);
    if (invalid.length > 0) throw badRequest(invalid);
    const partnerOf = (grant: Grant) => (grant.businessId ? known.businesses.get(grant.businessId)?.partnerId ?? existing?.partnersOf.get(grant.businessId) ?? null : null);
    const targetInternal = existing?.internal ?? policy.roles.length > 0;

    let submitted = grantsOfPolicy(policy, known.merchantBusiness);
    const old = existing?.grants ?? [];
    // Partner policy omitted: the user's partner grants stay as they are.
    if (policy.partnerPolicy === undefined) submitted = [...submitted, ...old.filter((grant) => grant.level === 'partner')];
    const kept = old.filter((grant) => !canEditScope(principal, permission, grant, partnerOf(grant), targetInternal));
    // Grants submitted in a scope the caller cannot edit are refused, unless they are exactly what is there already.
    const oldKeys = new Set(old.map(grantKey));
    const keptKeys = new Set(kept.map(grantKey));
    const finalMap = new Map<string, Grant>();
    for (const grant of kept) finalMap.set(grantKey(grant), grant);
    for (const grant of submitted) {
      const key = grantKey(grant);
      if (keptKeys.has(key)) continue;
      if (!canEditScope(principal, permission, grant, partnerOf(grant), targetInternal)) {
        if (oldKeys.has(key)) { finalMap.set(key, grant); continue; }
        throw new ApiError(403, grant.level === 'root' ? `You cannot grant the internal role ${grant.role}.` : `You cannot manage users there (${grant.level} ${grant.partnerId ?? grant.merchantId ?? grant.businessId}).`);
      }
      finalMap.set(key, grant);
    }
    const final = [...finalMap.values()];
    const finalKeys = new Set(final.map(grantKey));
    const added = final.filter((grant) => !oldKeys.has(grantKey(grant)));
    const removed = old.filter((grant) => !finalKeys.has(grantKey(grant)));
    const refusals = added.map((grant) => grantRefusal(principal, permission, grant, partnerOf(grant))).filter((refusal) => refusal !== null);
    const invalidRoles = refusals.filter((refusal) => refusal.kind === 'invalid');
    if (invalidRoles.length > 0) throw badRequest(invalidRoles.map((refusal) => refusal.message));
    if (refusals.length > 0) throw new ApiError(403, refusals.map((refusal) => refusal.message));
    // A mix of internal and external access is refused: internal users hold root roles only.
    const hasRoot = final.some((grant) => grant.level === 'root');
    if (hasRoot && final.some((grant) => grant.level !== 'root')) throw badRequest('An internal user holds internal roles only; business, merchant and partner roles are for external users.');
    if (!hasRoot) {
      const problems: string[] = [];
      const hasPartner = final.some((grant) => grant.level === 'partner');
      const finalBusinessIds = new Set(final.filter((grant) => grant.businessId).map((grant) => grant.businessId as string));
      if (!hasPartner && finalBusinessIds.size === 0 && policy.businessPolicies.length === 0) problems.push(userMessages.needsBusiness);
      for (const business of policy.businessPolicies) {
        if (!final.some((grant) => grant.businessId === business.businessId)) problems.push(businessNeedsRoleMessage(known.businesses.get(business.businessId)?.name ?? business.businessId));
      }
      if (!hasPartner && finalBusinessIds.size === 0 && problems.length === 0) problems.push(userMessages.needsBusiness);
      if (problems.length > 0) throw badRequest(problems);
    }
    return { final, added, removed };
  }

  async function writeGrants(tx: Db, userId: string, grants: Grant[]) {
    await tx.delete(userRoles).where(eq(userRoles.userId, userId));
    if (grants.length > 0) await tx.insert(userRoles).values(grants.map((grant) => ({ userId, ...grant })));
  }

  /** Repeated and deleted emails are refused; an email of an existing account is answered as an invitation (invite). */
  async function refuseUnusableEmails(emails: readonly string[]) {
    const lower = [...new Set(emails.map((email) => email.toLowerCase()))];
    if (lower.length !== emails.length) throw badRequest('Each email address may appear once.');
    const deleted = await db.select({ email: deletedUserEmails.email }).from(deletedUserEmails).where(inArray(deletedUserEmails.email, lower));
    if (deleted.length > 0) throw badRequest(deleted.map((row) => `${row.email}: ${userMessages.emailDeleted}`));
    return db.select().from(u).where(inArray(sql`lower(${u.email})`, lower));
  }

  /** The grants an existing account ends with when invited with `added`, or null when they cannot be combined. */
  function combinedGrants(target: Target, added: Grant[]): Grant[] | null {
    const existing = target.grants;
    // Internal (staff) accounts hold internal roles only, external ones never (as planGrants insists).
    if (target.internal !== added.some((grant) => grant.level === 'root')) return null;
    const partnerOf = (grants: Grant[]) => grants.find((grant) => grant.level === 'partner')?.partnerId ?? null;
    if (partnerOf(existing) !== null && partnerOf(added) !== null && partnerOf(existing) !== partnerOf(added)) return null;
    const keys = new Set(existing.map(grantKey));
    return [...existing, ...added.filter((grant) => !keys.has(grantKey(grant)))];
  }

  /** Names of the businesses and partners of some grants, for an email. */
  async function placesOf(tx: Db, grants: Grant[]): Promise<string> {
    const businessIds = [...new Set(grants.map((grant) => grant.businessId).filter((id): id is string => id !== null))];
    const partnerIds = [...new Set(grants.map((grant) => grant.partnerId).filter((id): id is string => id !== null))];
    const names = [
      ...(businessIds.length === 0 ? [] : await tx.select({ name: businesses.name }).from(businesses).where(inArray(businesses.id, businessIds))),
      ...(partnerIds.length === 0 ? [] : await tx.select({ name: partners.name }).from(partners).where(inArray(partners.id, partnerIds))),
    ].map((row) => row.name).sort();
    return names.length === 0 ? 'the payments portal' : names.join(', ');
  }

  /**
   * Invites each email with the same grants: an invited user (no password yet), its roles, the invitation email.
   * An email that already has an account is answered the same way (an invitation is no oracle for who has
   * an account): the account is given the access (a pending invitee gets a fresh invitation, anyone else an email
   * saying what they were given); when the access cannot join theirs (a staff account invited to a business) nothing
   * changes, they are told, and the answer carries an id that names no one.
   */
  async function invite(principal: Principal, emails: readonly string[], grants: Grant[]) {
    const existing = await refuseUnusableEmails(emails);
    const internal = grants.some((grant) => grant.level === 'root');
    const inviter = { userId: principal.userId, name: `${principal.givenName} ${principal.familyName}`.trim() || principal.email };
    const firstBusiness = grants.find((grant) => grant.businessId)?.businessId ?? null;
    return db.transaction(async (tx) => {
      const created: { userId: string; email: string }[] = [];
      for (const email of emails) {
        const found = existing.find((row) => row.email.toLowerCase() === email.toLowerCase());
        if (found) {
          created.push(await inviteExisting(tx as unknown as Db, principal, inviter, found, email, grants, firstBusiness));
          continue;
        }
        const userId = await nextUserId(tx as unknown as Db);
        await tx.insert(u).values({ id: userId, email, givenName: '', familyName: '', passwordHash: '!invited', status: 'invited', internal });
        await writeGrants(tx, userId, grants);
        const invitation = await issueInvitation(tx, publicUrl, { userId, email }, inviter);
        await audit(tx, principal, 'UserInvited', { userId, businessId: firstBusiness }, { email, invitationId: invitation.id, roles: grants.map(grantKey) });
        created.push({ userId, email });
      }
      return created;
    });
  }

  async function inviteExisting(tx: Db, principal: Principal, inviter: { userId: string; name: string }, found: UserRow, email: string, grants: Grant[], firstBusiness: string | null) {
    const target = await loadTarget(tx, found);
    if (found.id === principal.userId) throw new ApiError(403, 'You cannot change your own access.');
    const combined = combinedGrants(target, grants);
    const places = await placesOf(tx, grants);
    if (!combined) {
      // Someone the caller may see anyway is named; anyone else is answered as a new invitation, and told.
      if (canSeeUser(principal, target)) throw badRequest(`${email}: ${userMessages.emailExists}`);
      await queueEmail(tx, found.email, {
        template: 'invitationNotApplied',
        subject: 'An invitation to the payments portal was not applied',
        heading: 'An invitation was not applied',
        paragraphs: [
          `${inviter.name} invited this email address to ${places} in the payments portal.`,
          'Your existing account cannot hold that access, so nothing has changed. If you expected this, ask them to invite another address.',
        ],
        footer: 'You receive this email because someone invited this address to the payments portal.',
      });
      await audit(tx, principal, 'InvitationNotApplied', { userId: found.id, businessId: firstBusiness }, { email, roles: grants.map(grantKey) });
      // A number of the sequence like any new user's: the answer cannot be told from a real invitation's.
      return { userId: await nextUserId(tx), email };
    }
    const keys = new Set(target.grants.map(grantKey));
    const added = combined.filter((grant) => !keys.has(grantKey(grant)));
    if (added.length > 0) {
      await tx.insert(userRoles).values(added.map((grant) => ({ userId: found.id, ...grant })));
      await tx.update(u).set({ version: sql`${u.version} + 1` }).where(eq(u.id, found.id));
    }
    if (found.status === 'invited') {
      const invitation = await issueInvitation(tx, publicUrl, { userId: found.id, email: found.email }, inviter);
      await audit(tx, principal, 'UserInvited', { userId: found.id, businessId: firstBusiness }, { email, invitationId: invitation.id, roles: grants.map(grantKey), existingAccount: true });
    } else {
      await queueEmail(tx, found.email, {
        template: 'userAccessGranted',
        subject: 'You were given access in the payments portal',
        heading: 'You were given access',
        paragraphs: [
          `${inviter.name} has given your payments portal account access to ${places}.`,
          'Sign in as usual to use it. If you did not expect this, tell your administrator.',
        ],
        action: { label: 'Sign in', url: portalLink(publicUrl, '/') },
        footer: 'You receive this email because your access to the payments portal changed.',
      });
      await audit(tx, principal, 'UserAccessGranted', { userId: found.id, businessId: firstBusiness }, { email, roles: added.map(grantKey) });
    }
    return { userId: found.id, email };
  }

  /** The caller holds the permission at root, or in some business or partner of their own. */
  function requireSomewhere(principal: Principal, permission: PermissionName) {
    if (holdsRootPermission(principal, permission)) return;
    const held = principal.grants.some((grant) => (grant.level === 'business' && grant.businessId ? permissionInBusiness(principal, permission, grant.businessId, null)
      : grant.level === 'partner' && grant.partnerId ? permissionInPartner(principal, permission, grant.partnerId) : false));
    if (!held) throw forbidden();
  }

  // ── list ──────────────────────────────────────────────────────────────────────────────────────

  /** The role rows the caller may see, as SQL over alias r (null: all). */
  async function listUsers(c: Context<AppEnv>, extra: { partnerId?: string } = {}) {
    const principal = c.get('principal');
    const query = parseListRequest(singleValuedQuery(c), userListSpec);
    const { readable, where } = await userListWhere(db, principal, query.filters, extra);
    const sortKey = query.sort[0] ?? { field: 'name', descending: false };
    const direction = (expression: SQL | typeof u.id) => (sortKey.descending ? desc(expression) : asc(expression));
    const orderBy = {
      name: [direction(sql`lower(${u.givenName})`), direction(sql`lower(${u.familyName})`), direction(sql`lower(${u.email})`)],
      email: [direction(sql`lower(${u.email})`)],
      created: [direction(sql`${u.createdAt}`)],
      lastSignIn: [sortKey.descending ? sql`${u.lastSignInUtc} DESC NULLS LAST` : sql`${u.lastSignInUtc} ASC NULLS LAST`],
    }[sortKey.field as 'name'] ?? [];
    const rows = await db.select().from(u).where(where).orderBy(...orderBy, direction(u.id))
      .limit(query.pageSize).offset((query.pageNumber - 1) * query.pageSize);
    const [total] = await db.select({ value: count() }).from(u).where(where);
    const ids = rows.map((row) => row.id);
    const roleRows = ids.length === 0 ? [] : await db.select({ userId: userRoles.userId, role: userRoles.role, businessName: businesses.name })
      .from(userRoles).leftJoin(businesses, eq(businesses.id, userRoles.businessId))
      .where(and(inArray(userRoles.userId, ids), readable ?? undefined)).orderBy(userRoles.id);
    const now = new Date();
    const results: UserListItem[] = rows.map((row) => {
      const own = roleRows.filter((roleRow) => roleRow.userId === row.id);
      return {
        userId: row.id, email: row.email, givenName: row.givenName, familyName: row.familyName, status: statusOf(row, now),
        internal: row.internal, roles: [...new Set(own.map((roleRow) => roleRow.role))],
        businessNames: [...new Set(own.map((roleRow) => roleRow.businessName).filter((value): value is string => value !== null))],
        lockoutEndDateUtc: row.lockoutEndDateUtc?.toISOString() ?? null, lastSignInUtc: row.lastSignInUtc?.toISOString() ?? null,
        createdUtc: row.createdAt.toISOString(),
      };
    });
    return c.json({ results, numberOfResults: Number(total?.value ?? 0) });
  }

  routes.get('/user/users', (c) => listUsers(c));

  routes.get('/user/role-groups', (c) => c.json({ results: roleGroups }));

  routes.get('/users/:userId', (c) => respondDetail(c, c.req.param('userId')));

  // ── invite ────────────────────────────────────────────────────────────────────────────────────

  routes.post('/users', (c) => auditedWrite(c, 'invite', null, async () => {
    const principal = c.get('principal');
    requireSomewhere(principal, 'Mapi.Users.Create');
    const body = await readBody(c, inviteUsersBody);
    const { final } = await planGrants(principal, 'Mapi.Users.Create', body.policy, null);
    const created = await invite(principal, body.emails, final);
    return c.json({ users: created }, 201);
  }));

  // ── update ────────────────────────────────────────────────────────────────────────────────────

  routes.put('/users/:userId', (c) => auditedWrite(c, 'update', c.req.param('userId'), async () => {
    const principal = c.get('principal');
    const { row, target } = await visibleTarget(principal, c.req.param('userId'));
    if (row.id === principal.userId) throw new ApiError(403, 'You cannot change your own access; use your profile for your names.');
    const body = await readBody(c, updateUserBody);
    if (!target.grants.some((grant) => canEditScope(principal, 'Mapi.Users.Update', grant, grant.businessId ? target.partnersOf.get(grant.businessId) ?? null : null, target.internal))) throw forbidden();
    const plan = await planGrants(principal, 'Mapi.Users.Update', body.policy, target);
    await db.transaction(async (tx) => {
      const [updated] = await tx.update(u).set({
        givenName: body.givenName, familyName: body.familyName, phoneNumber: body.phoneNumber === undefined ? row.phoneNumber : body.phoneNumber,
        internal: plan.final.some((grant) => grant.level === 'root'), version: sql`${u.version} + 1`,
      }).where(and(eq(u.id, row.id), eq(u.version, body.version))).returning({ id: u.id });
      if (!updated) throw conflict();
      if (plan.added.length > 0 || plan.removed.length > 0) await writeGrants(tx, row.id, plan.final);
      // Access taken away applies at once: the user's sessions and refresh tokens end (a new sign-in gets the new policy).
      if (plan.removed.length > 0) await revokeAccountAccess(tx, row.id);
      await audit(tx, principal, 'UserUpdated', { userId: row.id, businessId: plan.final.find((grant) => grant.businessId)?.businessId ?? null }, {
        added: plan.added.map(grantKey), removed: plan.removed.map(grantKey),
        names: row.givenName !== body.givenName || row.familyName !== body.familyName,
      });
    });
    return respondDetail(c, row.id);
  }));

  // ── own profile ───────────────────────────────────────────────────────────────────────────────

  routes.patch('/users', async (c) => {
    const principal = c.get('principal');
    const body = await readBody(c, updateOwnProfileBody);
    const [row] = await db.select().from(u).where(eq(u.id, principal.userId));
    if (!row) throw notFound();
    const newEmail = body.email !== undefined && body.email.toLowerCase() !== row.email.toLowerCase() ? body.email : null;
    if (newEmail) {
      // A bare (perhaps borrowed) token does not move an account: the current password, checked as sign-in checks it
      // (counted towards the lockout), or a step-up of this session within the last minutes.
      if (body.currentPassword !== undefined) {
        if (!(await currentPasswordIsRight(c, body.currentPassword))) {
          await audit(db, principal, 'EmailChangeRefused', { userId: row.id }, { ...sourceMetaData(c), reason: 'wrongPassword' });
          throw badRequest(userMessages.wrongCurrentPassword);
        }
      } else {
        await requireStepUp(c, db);
      }
      const taken = await emailTaken(db, newEmail);
      if (taken) throw badRequest(taken === 'deleted' ? userMessages.emailDeleted : userMessages.emailExists);
    }
    await db.transaction(async (tx) => {
      // A new email address applies only once confirmed from the link sent to it (server/users/email-change.ts).
      if (newEmail) await requestEmailChange(tx, publicUrl, row, newEmail);
      const [updated] = await tx.update(u).set({
        givenName: body.givenName ?? row.givenName, familyName: body.familyName ?? row.familyName,
        phoneNumber: body.phoneNumber === undefined ? row.phoneNumber : body.phoneNumber, language: body.language ?? row.language,
        version: sql`${u.version} + 1`,
      }).where(and(eq(u.id, row.id), eq(u.version, body.version))).returning({ id: u.id });
      if (!updated) throw conflict();
      await audit(tx, principal, 'OwnProfileUpdated', { userId: row.id }, { fields: Object.keys(body).filter((key) => key !== 'version' && key !== 'currentPassword') });
    });
    return respondDetail(c, row.id);
  });

  routes.put('/user/password', async (c) => {
    const principal = c.get('principal');
    const body = await readBody(c, changePasswordBody);
    const [row] = await db.select().from(u).where(eq(u.id, principal.userId));
    if (!row) throw notFound();
    // The current password is checked as sign-in checks it: wrong ones count towards the lockout and the throttles.
    if (!(await currentPasswordIsRight(c, body.currentPassword))) {
      await audit(db, principal, 'PasswordChangeFailed', { userId: row.id }, sourceMetaData(c));
      throw badRequest(userMessages.wrongCurrentPassword);
    }
    const problems = await checkNewPassword(body.newPassword, [row.email, row.givenName, row.familyName]);
    if (problems.length > 0) throw badRequest(problems);
    if (await verifyPassword(body.newPassword, row.passwordHash)) throw badRequest('The new password must differ from the current one.');
    const passwordHash = await hashPassword(body.newPassword);
    await db.transaction(async (tx) => {
      await tx.update(u).set({ passwordHash, passwordExpiresUtc: passwordExpiryFrom(new Date()), version: sql`${u.version} + 1` }).where(eq(u.id, row.id));
      await audit(tx, principal, 'PasswordChanged', { userId: row.id }, sourceMetaData(c));
    });
    return c.body(null, 204);
  });

  // ── sign-in and security ──────────────────────────────────────────────────────────────────────

  async function wholeUser(c: Context<AppEnv>, permission: PermissionName) {
    const principal = c.get('principal');
    const found = await visibleTarget(principal, c.req.param('userId') ?? '');
    if (!canManageWholeUser(principal, permission, found.target)) throw forbidden();
    return { principal, ...found };
  }

  const businessOf = businessOfTarget;

  routes.post('/users/:userId/password-reset-email', (c) => auditedWrite(c, 'passwordResetEmail', c.req.param('userId'), async () => {
    const { principal, row, target } = await wholeUser(c, 'Mapi.Users.Update');
    if (row.id === principal.userId) throw badRequest('Change your own password from your profile.');
    if (row.status === 'invited') throw badRequest('This user has not accepted the invitation yet: re-send the invitation instead.');
    const [recent] = await db.select({ value: count() }).from(passwordResets)
      .where(and(eq(passwordResets.userId, row.id), sql`${passwordResets.createdAt} > ${sqlNow(-3_600_000)}`));
    if (Number(recent?.value ?? 0) >= resetEmailsPerHour) throw new ApiError(429, userMessages.tooManyRequests);
    await db.transaction(async (tx) => {
      await issuePasswordReset(tx, publicUrl, row, `admin:${principal.userId}`);
      await audit(tx, principal, 'PasswordResetEmailSent', { userId: row.id, businessId: businessOf(target) });
    });
    return c.json({ sent: true }, 202);
  }));

  routes.put('/users/:userId/login', (c) => auditedWrite(c, 'login', c.req.param('userId'), async () => {
    const { principal, row, target } = await wholeUser(c, 'Mapi.Users.Update');
    const body = await readBody(c, userLoginBody);
    if (body.locked && row.id === principal.userId) throw badRequest(userMessages.cannotLockSelf);
    const until = body.locked ? (body.lockoutEndDateUtc ? new Date(body.lockoutEndDateUtc) : indefiniteLock) : null;
    if (until && until <= new Date()) throw badRequest('lockoutEndDateUtc must be in the future.');
    await db.transaction(async (tx) => setUserLock(tx as unknown as Db, principal, { id: row.id, version: body.version }, target, until, sourceMetaData(c)));
    return respondDetail(c, row.id);
  }));

  routes.post('/users/:userId/invitation', (c) => auditedWrite(c, 'resendInvitation', c.req.param('userId'), async () => {
    const { principal, row, target } = await wholeUser(c, 'Mapi.Users.Create');
    if (row.status !== 'invited') throw badRequest('This user has already accepted the invitation.');
    const inviter = { userId: principal.userId, name: `${principal.givenName} ${principal.familyName}`.trim() || principal.email };
    await db.transaction(async (tx) => {
      const invitation = await issueInvitation(tx, publicUrl, { userId: row.id, email: row.email }, inviter);
      await audit(tx, principal, 'InvitationResent', { userId: row.id, businessId: businessOf(target) }, { invitationId: invitation.id });
    });
    return c.json({ sent: true }, 202);
  }));

  routes.delete('/users/:userId/invitation', (c) => auditedWrite(c, 'revokeInvitation', c.req.param('userId'), async () => {
    const { principal, row, target } = await wholeUser(c, 'Mapi.Users.Create');
    await db.transaction(async (tx) => {
      const revoked = await tx.update(userInvitations).set({ revokedAt: new Date() })
        .where(and(eq(userInvitations.userId, row.id), isNull(userInvitations.acceptedAt), isNull(userInvitations.revokedAt))).returning({ id: userInvitations.id });
      if (revoked.length === 0) throw badRequest('This user has no pending invitation.');
      await audit(tx, principal, 'InvitationRevoked', { userId: row.id, businessId: businessOf(target) }, { invitationIds: revoked.map((one) => one.id) });
    });
    return c.body(null, 204);
  }));

  routes.delete('/users/:userId', (c) => auditedWrite(c, 'delete', c.req.param('userId'), async () => {
    const { principal, row, target } = await wholeUser(c, 'Mapi.Users.Delete');
    if (row.id === principal.userId) throw badRequest(userMessages.cannotDeleteSelf);
    const body = await readBody(c, deleteUserBody);
    if (!body.acknowledgeAccessLoss || !body.acknowledgeEmailBlocked) throw badRequest(userMessages.deleteAcknowledgements);
    // Deleting a user needs the password entered again in this session within the last minutes (step-up).
    await requireStepUp(c, db);
    await db.transaction(async (tx) => {
      const [deleted] = await tx.delete(u).where(and(eq(u.id, row.id), eq(u.version, body.version))).returning({ id: u.id });
      if (!deleted) throw conflict();
      await tx.insert(deletedUserEmails).values({ email: row.email.toLowerCase(), deletedBy: principal.userId }).onConflictDoNothing();
      await revokeAccountAccess(tx, row.id);
      await audit(tx, principal, 'UserDeletionSuccessful', { userId: row.id, businessId: businessOf(target) }, { email: row.email });
    });
    return c.body(null, 204);
  }, 'UserDeletionFailed'));

  routes.get('/users/:userId/audit-events', async (c) => {
    const principal = c.get('principal');
    const { row } = await visibleTarget(principal, c.req.param('userId'));
    const readable = holdsRootPermission(principal, 'Mapi.Users.Read') || row.id === principal.userId ? null : await readableBusinessIds(principal);
    const rows = await db.select().from(auditEvents)
      .where(and(sql`${auditEvents.metaData} ->> 'targetUserId' = ${row.id}`, readable === null ? undefined : or(isNull(auditEvents.businessId), readable.length > 0 ? inArray(auditEvents.businessId, readable) : sql`false`)))
      .orderBy(desc(auditEvents.dateTimeUtc), desc(auditEvents.id)).limit(20);
    const actorIds = [...new Set(rows.map((event) => event.userId))];
    const actors = actorIds.length === 0 ? [] : await db.select({ id: u.id, givenName: u.givenName, familyName: u.familyName, email: u.email }).from(u).where(inArray(u.id, actorIds));
    return c.json({
      results: rows.map((event) => {
        const actor = actors.find((candidate) => candidate.id === event.userId);
        const { clientAddress, reason } = event.metaData as { clientAddress?: unknown; reason?: unknown };
        return {
          event: event.event, dateTimeUtc: event.dateTimeUtc.toISOString(), actor: actor ? (`${actor.givenName} ${actor.familyName}`.trim() || actor.email) : 'A deleted user',
          clientAddress: typeof clientAddress === 'string' ? clientAddress : null,
          // Only a refused sign-in's or step-up's reason, from the known list (other events' metaData stays private).
          reason: /Failed$/.test(event.event) && signInRefusalReasons.includes(reason as SignInRefusalReason) ? reason as SignInRefusalReason : null,
        };
      }),
    });
  });

  async function readableBusinessIds(principal: Principal): Promise<string[]> {
    const candidates = [...new Set([...principal.businessIds, ...principal.partnerBusinessIds])];
    const partnerOf = await partnersOfBusinesses(db, candidates);
    return candidates.filter((id) => permissionInBusiness(principal, 'Mapi.Users.Read', id, partnerOf.get(id) ?? null));
  }

  // ── sessions ──────────────────────────────────────────────────────────────────────────────────

  routes.get('/user/sessions', async (c) => {
    const principal = c.get('principal');
    const rows = await db.select({ payload: oidcPayloads.payload, expiresAt: oidcPayloads.expiresAt }).from(oidcPayloads)
      .where(and(eq(oidcPayloads.type, 'Session'), sql`${oidcPayloads.payload} ->> 'accountId' = ${principal.userId}`, or(isNull(oidcPayloads.expiresAt), sql`${oidcPayloads.expiresAt} > ${sqlNow()}`)));
    const results = rows.map((row) => {
      const loginTs = Number((row.payload as { loginTs?: number }).loginTs ?? 0);
      return { signedInUtc: loginTs > 0 ? new Date(loginTs * 1000).toISOString() : null, expiresUtc: row.expiresAt?.toISOString() ?? null };
    }).sort((a, b) => String(b.signedInUtc).localeCompare(String(a.signedInUtc)));
    return c.json({ results });
  });

  routes.post('/user/sessions/revocation', async (c) => {
    const principal = c.get('principal');
    await readBody(c, signOutEverywhereBody);
    await db.transaction(async (tx) => {
      await revokeAccountAccess(tx, principal.userId);
      await audit(tx, principal, 'SignedOutEverywhere', { userId: principal.userId }, sourceMetaData(c));
    });
    return c.body(null, 204);
  });

  // ── second factor ─────────────────────────────────────────────────────────────────────────────

  routes.get('/user/second-factor', async (c) => c.json(await secondFactorState(db, c.get('principal').userId)));

  routes.post('/user/second-factor/enrolment', async (c) => {
    const principal = c.get('principal');
    // Setting up a second factor asks for the password again: a borrowed session cannot bind its own authenticator.
    const body = await readBody(c, secondFactorEnrolmentBody);
    const [row] = await db.select({ passwordHash: u.passwordHash }).from(u).where(eq(u.id, principal.userId));
    if (!row || !(await currentPasswordIsRight(c, body.currentPassword))) throw badRequest(userMessages.wrongCurrentPassword);
    const started = await startEnrolment(db, cardKeys, { id: principal.userId, email: principal.email });
    if (started.outcome === 'alreadyOn') throw badRequest('Two-factor sign-in is already on: turn it off first to set up a new authenticator.');
    return c.json({ otpauthUri: started.otpauthUri, secret: started.secret, qrCodeDataUrl: started.qrCodeDataUrl });
  });

  routes.post('/user/second-factor/enrolment/confirm', async (c) => {
    const principal = c.get('principal');
    const body = await readBody(c, secondFactorCodeBody);
    const codes = await confirmEnrolment(database, cardKeys, principal.userId, body.code);
    if (!codes) throw badRequest('That code is not right. Enter the current 6-digit code from your authenticator app.');
    await audit(db, principal, 'SecondFactorEnabled', { userId: principal.userId }, sourceMetaData(c));
    return c.json({ recoveryCodes: codes });
  });

  routes.post('/user/second-factor/removal', async (c) => {
    const principal = c.get('principal');
    const body = await readBody(c, secondFactorRemovalBody);
    const state = await secondFactorState(db, principal.userId);
    if (state.status === 'off') throw badRequest('Two-factor sign-in is not set up.');
    // The password as well as a code: a borrowed session holds neither. Wrong passwords count towards the lockout,
    // wrong codes towards the second factor's (the tenth locks the account and ends this session).
    if (!(await currentPasswordIsRight(c, body.currentPassword))) {
      await audit(db, principal, 'SecondFactorRemovalFailed', { userId: principal.userId }, { ...sourceMetaData(c), reason: 'wrongPassword' });
      throw badRequest(userMessages.wrongCurrentPassword);
    }
    if (state.status === 'on') {
      const checked = await checkSecondFactorCode(database, cardKeys, principal.userId, body.code, { publicUrl, source: requestSource(c) });
      if (checked === 'wrong' || checked === 'locked') {
        await audit(db, principal, 'SecondFactorRemovalFailed', { userId: principal.userId }, { ...sourceMetaData(c), reason: checked === 'locked' ? 'locked' : 'wrongCode' });
        throw badRequest(userMessages.wrongCode);
      }
    }
    await db.transaction(async (tx) => {
      await removeSecondFactor(tx, principal.userId);
      await audit(tx, principal, 'SecondFactorRemoved', { userId: principal.userId }, sourceMetaData(c));
    });
    return c.body(null, 204);
  });

  routes.delete('/users/:userId/second-factor', (c) => auditedWrite(c, 'resetSecondFactor', c.req.param('userId'), async () => {
    const principal = c.get('principal');
    const { row, target } = await visibleTarget(principal, c.req.param('userId'));
    if (!isTechnicalAdmin(principal) || row.id === principal.userId) throw forbidden();
    await db.transaction(async (tx) => {
      if (!(await removeSecondFactor(tx, row.id))) throw badRequest('This user has no second factor.');
      await revokeAccountAccess(tx, row.id);
      await audit(tx, principal, 'SecondFactorReset', { userId: row.id, businessId: businessOf(target) }, sourceMetaData(c));
    });
    return c.body(null, 204);
  }));

  // ── partner users ─────────────────────────────────────────────────────────────────────────────

  async function partnerScope(c: Context<AppEnv>, permission: PermissionName) {
    const principal = c.get('principal');
    const partnerId = c.req.param('partnerId') ?? '';
    const reachable = isInternal(principal) || principal.partnerIds.includes(partnerId);
    const [partner] = reachable && userIdPattern.test(partnerId) ? await db.select().from(partners).where(eq(partners.id, partnerId)) : [];
    if (!partner) throw notFound();
    if (!permissionInPartner(principal, permission, partnerId)) throw forbidden();
    return { principal, partner };
  }

  routes.get('/partners/:partnerId/users', async (c) => {
    const { partner } = await partnerScope(c, 'Mapi.Users.Read');
    return listUsers(c, { partnerId: partner.id });
  });

  routes.post('/partners/:partnerId/users', (c) => auditedWrite(c, 'invitePartnerUsers', null, async () => {
    const { principal, partner } = await partnerScope(c, 'Mapi.Users.Create');
    const body = await readBody(c, invitePartnerUsersBody);
    const { final } = await planGrants(principal, 'Mapi.Users.Create', { roles: [], partnerPolicy: { partnerId: partner.id, roles: body.roles }, businessPolicies: [] }, null);
    if (final.length === 0) throw badRequest('A partner user needs at least one role.');
    const created = await invite(principal, body.emails, final);
    return c.json({ users: created }, 201);
  }));

  routes.put('/partners/:partnerId/users/:userId', (c) => auditedWrite(c, 'updatePartnerUser', c.req.param('userId'), async () => {
    const { principal, partner } = await partnerScope(c, 'Mapi.Users.Update');
    const row = await findUser(c.req.param('userId'));
    const target = row ? await loadTarget(db, row) : null;
    if (!row || !target || !target.grants.some((grant) => grant.level === 'partner' && grant.partnerId === partner.id)) throw notFound();
    if (row.id === principal.userId) throw new ApiError(403, 'You cannot change your own access.');
    const body = await readBody(c, partnerUserBody);
    // Business policies stay as they are; only this partner's roles change.
    const businessPolicies = [...new Set(target.grants.filter((grant) => grant.businessId).map((grant) => grant.businessId as string))].map((businessId) => ({
      businessId,
      roles: target.grants.filter((grant) => grant.level === 'business' && grant.businessId === businessId).map((grant) => grant.role as PolicyInput['roles'][number]),
      merchantPolicies: [...new Set(target.grants.filter((grant) => grant.level === 'merchant' && grant.businessId === businessId).map((grant) => grant.merchantId as string))]
        .map((merchantId) => ({ merchantId, roles: target.grants.filter((grant) => grant.merchantId === merchantId).map((grant) => grant.role as PolicyInput['roles'][number]) })),
    }));
    const plan = await planGrants(principal, 'Mapi.Users.Update', { roles: [], partnerPolicy: body.roles.length > 0 ? { partnerId: partner.id, roles: body.roles } : null, businessPolicies }, target);
    await db.transaction(async (tx) => {
      const [updated] = await tx.update(u).set({ version: sql`${u.version} + 1` }).where(and(eq(u.id, row.id), eq(u.version, body.version))).returning({ id: u.id });
      if (!updated) throw conflict();
      await writeGrants(tx, row.id, plan.final);
      if (plan.removed.length > 0) await revokeAccountAccess(tx, row.id);
      await audit(tx, principal, 'UserUpdated', { userId: row.id }, { partnerId: partner.id, added: plan.added.map(grantKey), removed: plan.removed.map(grantKey) });
    });
    return respondDetail(c, row.id);
  }));

  return routes;
}
