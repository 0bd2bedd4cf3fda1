// What the user route files share (users.ts: administration; own-account.ts: the caller's own account;
// partner-users.ts: a partner's users): a user's detail as the caller may see it, the grants a write ends with
// (planGrants), invitations, the users list, and the audit of refused writes.
//
// Rules (server/users/user-access.ts): internal users are managed by technical admins only; customer service (root
// permission) manages external users; everyone else only users whose every role lies where they hold the
// permission, and grants only roles they hold there or whose permissions they hold there. A user out of sight is a
// 404, a visible one beyond the caller's rights a 403; both are audited (UserAdministrationRefused, or
// UserDeletionFailed for a deletion). Every write is one database transaction with its audit event; a lock, a
// deletion or a removed role ends the user's sessions and refresh tokens at once (revokeAccountAccess); a lock also
// signs their open tabs out through the live events stream (account-locked).
import { and, asc, count, desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { Context } from 'hono';
import type { PermissionName } from '../../src/contract/permissions.ts';
import type { PolicyInput } from '../../src/contract/user-schemas.ts';
import type { UserDetail, UserListItem } from '../../src/contract/user-schemas.ts';
import { businessNeedsRoleMessage, userListSpec, userMessages } from '../../src/contract/users.ts';
import type { Db } from '../db/client.ts';
import { businesses, deletedUserEmails, merchants, partners, userInvitations, userRoles, users } from '../db/schema.ts';
import type { Principal } from '../policy/principal.ts';
import {
  canEditScope,
  canManageWholeUser,
  canSeeUser,
  grantKey,
  grantRefusal,
  holdsRootPermission,
  isTechnicalAdmin,
  knownBusinessesAndMerchants,
  loadTarget,
  permissionInBusiness,
  permissionInPartner,
  type Grant,
  type Target,
} from '../users/user-access.ts';
import { issueInvitation, nextUserId } from '../users/invitations.ts';
import { portalLink } from '../mail/compose.ts';
import { queueEmail } from '../mail/outbox.ts';
import { secondFactorState } from '../users/second-factor.ts';
import type { AppEnv, Deps } from '../http/env.ts';
import { ApiError, badRequest, notFound } from '../http/errors.ts';
import { parseListRequest, singleValuedQuery } from '../http/list-sql.ts';
import { auditUserEvent } from '../users/user-lock.ts';
import { statusOf, userListWhere } from '../users/user-list.ts';

const u = users;
export const userIdPattern = /^[A-Za-z0-9_-]{1,64}$/;

type UserRow = typeof users.$inferSelect;

/** The policy of a request as grants (merchant grants carry their business). */
export function grantsOfPolicy(policy: PolicyInput, merchantBusiness: Map<string, string>): Grant[] {
  const grants: Grant[] = [];
  for (const role of new Set(policy.roles)) grants.push({ role, level: 'root', partnerId: null, businessId: null, merchantId: null });
  if (policy.partnerPolicy) {
    for (const role of new Set(policy.partnerPolicy.roles))
      grants.push({ role, level: 'partner', partnerId: policy.partnerPolicy.partnerId, businessId: null, merchantId: null });
  }
  for (const business of policy.businessPolicies) {
    for (const role of new Set(business.roles)) grants.push({ role, level: 'business', partnerId: null, businessId: business.businessId, merchantId: null });
    for (const merchant of business.merchantPolicies) {
      for (const role of new Set(merchant.roles)) {
        grants.push({
          role,
          level: 'merchant',
          partnerId: null,
          businessId: merchantBusiness.get(merchant.merchantId) ?? business.businessId,
          merchantId: merchant.merchantId,
        });
      }
    }
  }
  return grants;
}

/** The user administration shared by the route files, over one database. */
export function userAdministration({ database, publicUrl }: Pick<Deps, 'database' | 'publicUrl'>) {
  const { db } = database;
  const audit = auditUserEvent;

  /** Refusals of writes are audited (outside the rolled-back transaction), then answered. */
  async function auditedWrite(
    c: Context<AppEnv>,
    action: string,
    targetUserId: string | null,
    work: () => Promise<Response>,
    refusalEvent = 'UserAdministrationRefused',
  ): Promise<Response> {
    try {
      return await work();
    } catch (error) {
      const status = error instanceof ApiError ? error.status : 500;
      const audited = refusalEvent === 'UserDeletionFailed' || status === 403 || status === 404;
      if (audited) {
        await audit(
          db,
          c.get('principal'),
          refusalEvent,
          { userId: targetUserId ?? '' },
          {
            action,
            status,
            reason: error instanceof ApiError ? error.messages.join('; ') : 'error',
          },
        ).catch(() => undefined);
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
    const businessRows =
      businessIds.length === 0
        ? []
        : await db
            .select({ id: businesses.id, name: businesses.name })
            .from(businesses)
            .where(inArray(businesses.id, businessIds))
            .orderBy(asc(businesses.name));
    const merchantRows =
      merchantIds.length === 0
        ? []
        : await db
            .select({ id: merchants.id, name: merchants.name, business_id: merchants.businessId })
            .from(merchants)
            .where(inArray(merchants.id, merchantIds))
            .orderBy(asc(merchants.name));
    const partnerGrant = grants.find((grant) => grant.level === 'partner');
    let partnerPolicy: UserDetail['policyStructure']['portalPolicy']['partnerPolicy'] = null;
    if (partnerGrant?.partnerId) {
      const [partner] = await db.select().from(partners).where(eq(partners.id, partnerGrant.partnerId));
      partnerPolicy = {
        partnerId: partnerGrant.partnerId,
        partnerName: partner?.name ?? partnerGrant.partnerId,
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
          merchantPolicies: merchantRows
            .filter((merchant) => merchant.business_id === business.id)
            .map((merchant) => ({
              businessId: business.id,
              merchantId: merchant.id,
              merchantName: merchant.name,
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
      invitation: invitation
        ? {
            invitationId: invitation.id,
            createdUtc: invitation.createdAt.toISOString(),
            expiresUtc: invitation.expiresAt.toISOString(),
            state: invitation.acceptedAt ? 'accepted' : invitation.revokedAt ? 'revoked' : invitation.expiresAt <= now ? 'expired' : 'pending',
          }
        : null,
      policyStructure: await policyStructureOf(visibleGrants(principal, target)),
      allowed: {
        update:
          !self &&
          target.grants.some((grant) =>
            canEditScope(principal, 'Mapi.Users.Update', grant, grant.businessId ? (target.partnersOf.get(grant.businessId) ?? null) : null, target.internal),
          ),
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
  async function planGrants(
    principal: Principal,
    permission: PermissionName,
    policy: PolicyInput,
    existing: Target | null,
  ): Promise<{ final: Grant[]; added: Grant[]; removed: Grant[] }> {
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
        if (known.merchantBusiness.get(merchant.merchantId) !== business.businessId)
          forbiddenMessages.push(`You cannot manage users there (merchant ${merchant.merchantId}).`);
      }
    }
    if (new Set(businessIds).size !== businessIds.length) invalid.push('Each business may appear once in a policy.');
    if (forbiddenMessages.length > 0) throw new ApiError(403, forbiddenMessages);
    if (invalid.length > 0) throw badRequest(invalid);
    const partnerOf = (grant: Grant) =>
      grant.businessId ? (known.businesses.get(grant.businessId)?.partnerId ?? existing?.partnersOf.get(grant.businessId) ?? null) : null;
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
        if (oldKeys.has(key)) {
          finalMap.set(key, grant);
          continue;
        }
        throw new ApiError(
          403,
          grant.level === 'root'
            ? `You cannot grant the internal role ${grant.role}.`
            : `You cannot manage users there (${grant.level} ${grant.partnerId ?? grant.merchantId ?? grant.businessId}).`,
        );
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
    if (refusals.length > 0)
      throw new ApiError(
        403,
        refusals.map((refusal) => refusal.message),
      );
    // A mix of internal and external access is refused: internal users hold root roles only.
    const hasRoot = final.some((grant) => grant.level === 'root');
    if (hasRoot && final.some((grant) => grant.level !== 'root'))
      throw badRequest('An internal user holds internal roles only; business, merchant and partner roles are for external users.');
    if (!hasRoot) {
      const problems: string[] = [];
      const hasPartner = final.some((grant) => grant.level === 'partner');
      const finalBusinessIds = new Set(final.filter((grant) => grant.businessId).map((grant) => grant.businessId as string));
      if (!hasPartner && finalBusinessIds.size === 0 && policy.businessPolicies.length === 0) problems.push(userMessages.needsBusiness);
      for (const business of policy.businessPolicies) {
        if (!final.some((grant) => grant.businessId === business.businessId))
          problems.push(businessNeedsRoleMessage(known.businesses.get(business.businessId)?.name ?? business.businessId));
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
    return db
      .select()
      .from(u)
      .where(inArray(sql`lower(${u.email})`, lower));
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
    ]
      .map((row) => row.name)
      .sort();
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

  async function inviteExisting(
    tx: Db,
    principal: Principal,
    inviter: { userId: string; name: string },
    found: UserRow,
    email: string,
    grants: Grant[],
    firstBusiness: string | null,
  ) {
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
      await tx
        .update(u)
        .set({ version: sql`${u.version} + 1` })
        .where(eq(u.id, found.id));
    }
    if (found.status === 'invited') {
      const invitation = await issueInvitation(tx, publicUrl, { userId: found.id, email: found.email }, inviter);
      await audit(
        tx,
        principal,
        'UserInvited',
        { userId: found.id, businessId: firstBusiness },
        { email, invitationId: invitation.id, roles: grants.map(grantKey), existingAccount: true },
      );
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

  // ── list ──────────────────────────────────────────────────────────────────────────────────────

  /** The role rows the caller may see, as SQL over alias r (null: all). */
  async function listUsers(c: Context<AppEnv>, extra: { partnerId?: string } = {}) {
    const principal = c.get('principal');
    const query = parseListRequest(singleValuedQuery(c), userListSpec);
    const { readable, where } = await userListWhere(db, principal, query.filters, extra);
    const sortKey = query.sort[0] ?? { field: 'name', descending: false };
    const direction = (expression: SQL | typeof u.id) => (sortKey.descending ? desc(expression) : asc(expression));
    const orderBy =
      {
        name: [direction(sql`lower(${u.givenName})`), direction(sql`lower(${u.familyName})`), direction(sql`lower(${u.email})`)],
        email: [direction(sql`lower(${u.email})`)],
        created: [direction(sql`${u.createdAt}`)],
        lastSignIn: [sortKey.descending ? sql`${u.lastSignInUtc} DESC NULLS LAST` : sql`${u.lastSignInUtc} ASC NULLS LAST`],
      }[sortKey.field as 'name'] ?? [];
    const rows = await db
      .select()
      .from(u)
      .where(where)
      .orderBy(...orderBy, direction(u.id))
      .limit(query.pageSize)
      .offset((query.pageNumber - 1) * query.pageSize);
    const [total] = await db.select({ value: count() }).from(u).where(where);
    const ids = rows.map((row) => row.id);
    const roleRows =
      ids.length === 0
        ? []
        : await db
            .select({ userId: userRoles.userId, role: userRoles.role, businessName: businesses.name })
            .from(userRoles)
            .leftJoin(businesses, eq(businesses.id, userRoles.businessId))
            .where(and(inArray(userRoles.userId, ids), readable ?? undefined))
            .orderBy(userRoles.id);
    const now = new Date();
    const results: UserListItem[] = rows.map((row) => {
      const own = roleRows.filter((roleRow) => roleRow.userId === row.id);
      return {
        userId: row.id,
        email: row.email,
        givenName: row.givenName,
        familyName: row.familyName,
        status: statusOf(row, now),
        internal: row.internal,
        roles: [...new Set(own.map((roleRow) => roleRow.role))],
        businessNames: [...new Set(own.map((roleRow) => roleRow.businessName).filter((value): value is string => value !== null))],
        lockoutEndDateUtc: row.lockoutEndDateUtc?.toISOString() ?? null,
        lastSignInUtc: row.lastSignInUtc?.toISOString() ?? null,
        createdUtc: row.createdAt.toISOString(),
      };
    });
    return c.json({ results, numberOfResults: Number(total?.value ?? 0) });
  }

  return { auditedWrite, findUser, visibleTarget, respondDetail, planGrants, writeGrants, invite, listUsers };
}
