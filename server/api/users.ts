// User administration: the users overview, a user's detail, invitations, access, locks, deletion and the reset of a
// user's password or second factor. The caller's own account is in own-account.ts, a partner's users in
// partner-users.ts; what the three share is in user-administration.ts.
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
// Rules (server/users/user-access.ts): internal users are managed by technical admins only; customer service (root
// permission) manages external users; everyone else only users whose every role lies where they hold the
// permission, and grants only roles they hold there or whose permissions they hold there. A user out of sight is a
// 404, a visible one beyond the caller's rights a 403; both are audited (UserAdministrationRefused, or
// UserDeletionFailed for a deletion). Every write is one database transaction with its audit event; a lock, a
// deletion or a removed role ends the user's sessions and refresh tokens at once (revokeAccountAccess); a lock also
// signs their open tabs out through the live events stream (account-locked).
import { requireStepUp, sourceMetaData } from './step-up.ts';
import { and, count, desc, eq, inArray, isNull, or, sql } from 'drizzle-orm';
import { Hono, type Context } from 'hono';
import type { PermissionName } from '../../src/contract/permissions.ts';
import { deleteUserBody, inviteUsersBody, updateUserBody, userLoginBody } from '../../src/contract/user-schemas.ts';
import { roleGroups, signInRefusalReasons, type SignInRefusalReason, userMessages } from '../../src/contract/users.ts';
import type { Db } from '../db/client.ts';
import { auditEvents, deletedUserEmails, passwordResets, userInvitations, users } from '../db/schema.ts';
import { revokeAccountAccess } from '../identity/adapter.ts';
import type { Principal } from '../policy/principal.ts';
import {
  canEditScope,
  canManageWholeUser,
  grantKey,
  holdsRootPermission,
  isTechnicalAdmin,
  partnersOfBusinesses,
  permissionInBusiness,
  permissionInPartner,
} from '../users/user-access.ts';
import { issueInvitation, issuePasswordReset } from '../users/invitations.ts';
import { removeSecondFactor } from '../users/second-factor.ts';
import { type AppEnv, type Deps, readBody } from '../http/env.ts';
import { ApiError, badRequest, conflict, forbidden } from '../http/errors.ts';
import { sqlNow } from '../clock.ts';
import { userAdministration } from './user-administration.ts';
import { auditUserEvent, businessOfTarget, indefiniteLock, setUserLock } from '../users/user-lock.ts';

const u = users;
/** Reset emails one administrator or one address may ask for, per user or email, per hour. */
export const resetEmailsPerHour = 3;

export function userAdministrationRoutes({ database, publicUrl }: Deps) {
  const { db } = database;
  const routes = new Hono<AppEnv>();
  const { auditedWrite, visibleTarget, respondDetail, planGrants, writeGrants, invite, listUsers } = userAdministration({ database, publicUrl });
  const audit = auditUserEvent;

  /** The caller holds the permission at root, or in some business or partner of their own. */
  function requireSomewhere(principal: Principal, permission: PermissionName) {
    if (holdsRootPermission(principal, permission)) return;
    const held = principal.grants.some((grant) =>
      grant.level === 'business' && grant.businessId
        ? permissionInBusiness(principal, permission, grant.businessId, null)
        : grant.level === 'partner' && grant.partnerId
          ? permissionInPartner(principal, permission, grant.partnerId)
          : false,
    );
    if (!held) throw forbidden();
  }

  // ── list ──────────────────────────────────────────────────────────────────────────────────────

  routes.get('/user/users', (c) => listUsers(c));

  routes.get('/user/role-groups', (c) => c.json({ results: roleGroups }));

  routes.get('/users/:userId', (c) => respondDetail(c, c.req.param('userId')));

  // ── invite ────────────────────────────────────────────────────────────────────────────────────

  routes.post('/users', (c) =>
    auditedWrite(c, 'invite', null, async () => {
      const principal = c.get('principal');
      requireSomewhere(principal, 'Mapi.Users.Create');
      const body = await readBody(c, inviteUsersBody);
      const { final } = await planGrants(principal, 'Mapi.Users.Create', body.policy, null);
      const created = await invite(principal, body.emails, final);
      return c.json({ users: created }, 201);
    }),
  );

  // ── update ────────────────────────────────────────────────────────────────────────────────────

  routes.put('/users/:userId', (c) =>
    auditedWrite(c, 'update', c.req.param('userId'), async () => {
      const principal = c.get('principal');
      const { row, target } = await visibleTarget(principal, c.req.param('userId'));
      if (row.id === principal.userId) throw new ApiError(403, 'You cannot change your own access; use your profile for your names.');
      const body = await readBody(c, updateUserBody);
      if (
        !target.grants.some((grant) =>
          canEditScope(principal, 'Mapi.Users.Update', grant, grant.businessId ? (target.partnersOf.get(grant.businessId) ?? null) : null, target.internal),
        )
      )
        throw forbidden();
      const plan = await planGrants(principal, 'Mapi.Users.Update', body.policy, target);
      await db.transaction(async (tx) => {
        const [updated] = await tx
          .update(u)
          .set({
            givenName: body.givenName,
            familyName: body.familyName,
            phoneNumber: body.phoneNumber === undefined ? row.phoneNumber : body.phoneNumber,
            internal: plan.final.some((grant) => grant.level === 'root'),
            version: sql`${u.version} + 1`,
          })
          .where(and(eq(u.id, row.id), eq(u.version, body.version)))
          .returning({ id: u.id });
        if (!updated) throw conflict();
        if (plan.added.length > 0 || plan.removed.length > 0) await writeGrants(tx, row.id, plan.final);
        // Access taken away applies at once: the user's sessions and refresh tokens end (a new sign-in gets the new policy).
        if (plan.removed.length > 0) await revokeAccountAccess(tx, row.id);
        await audit(
          tx,
          principal,
          'UserUpdated',
          { userId: row.id, businessId: plan.final.find((grant) => grant.businessId)?.businessId ?? null },
          {
            added: plan.added.map(grantKey),
            removed: plan.removed.map(grantKey),
            names: row.givenName !== body.givenName || row.familyName !== body.familyName,
          },
        );
      });
      return respondDetail(c, row.id);
    }),
  );

  // ── sign-in and security ──────────────────────────────────────────────────────────────────────

  async function wholeUser(c: Context<AppEnv>, permission: PermissionName) {
    const principal = c.get('principal');
    const found = await visibleTarget(principal, c.req.param('userId') ?? '');
    if (!canManageWholeUser(principal, permission, found.target)) throw forbidden();
    return { principal, ...found };
  }

  const businessOf = businessOfTarget;

  routes.post('/users/:userId/password-reset-email', (c) =>
    auditedWrite(c, 'passwordResetEmail', c.req.param('userId'), async () => {
      const { principal, row, target } = await wholeUser(c, 'Mapi.Users.Update');
      if (row.id === principal.userId) throw badRequest('Change your own password from your profile.');
      if (row.status === 'invited') throw badRequest('This user has not accepted the invitation yet: re-send the invitation instead.');
      const [recent] = await db
        .select({ value: count() })
        .from(passwordResets)
        .where(and(eq(passwordResets.userId, row.id), sql`${passwordResets.createdAt} > ${sqlNow(-3_600_000)}`));
      if (Number(recent?.value ?? 0) >= resetEmailsPerHour) throw new ApiError(429, userMessages.tooManyRequests);
      await db.transaction(async (tx) => {
        await issuePasswordReset(tx, publicUrl, row, `admin:${principal.userId}`);
        await audit(tx, principal, 'PasswordResetEmailSent', { userId: row.id, businessId: businessOf(target) });
      });
      return c.json({ sent: true }, 202);
    }),
  );

  routes.put('/users/:userId/login', (c) =>
    auditedWrite(c, 'login', c.req.param('userId'), async () => {
      const { principal, row, target } = await wholeUser(c, 'Mapi.Users.Update');
      const body = await readBody(c, userLoginBody);
      if (body.locked && row.id === principal.userId) throw badRequest(userMessages.cannotLockSelf);
      const until = body.locked ? (body.lockoutEndDateUtc ? new Date(body.lockoutEndDateUtc) : indefiniteLock) : null;
      if (until && until <= new Date()) throw badRequest('lockoutEndDateUtc must be in the future.');
      await db.transaction(async (tx) => setUserLock(tx as unknown as Db, principal, { id: row.id, version: body.version }, target, until, sourceMetaData(c)));
      return respondDetail(c, row.id);
    }),
  );

  routes.post('/users/:userId/invitation', (c) =>
    auditedWrite(c, 'resendInvitation', c.req.param('userId'), async () => {
      const { principal, row, target } = await wholeUser(c, 'Mapi.Users.Create');
      if (row.status !== 'invited') throw badRequest('This user has already accepted the invitation.');
      const inviter = { userId: principal.userId, name: `${principal.givenName} ${principal.familyName}`.trim() || principal.email };
      await db.transaction(async (tx) => {
        const invitation = await issueInvitation(tx, publicUrl, { userId: row.id, email: row.email }, inviter);
        await audit(tx, principal, 'InvitationResent', { userId: row.id, businessId: businessOf(target) }, { invitationId: invitation.id });
      });
      return c.json({ sent: true }, 202);
    }),
  );

  routes.delete('/users/:userId/invitation', (c) =>
    auditedWrite(c, 'revokeInvitation', c.req.param('userId'), async () => {
      const { principal, row, target } = await wholeUser(c, 'Mapi.Users.Create');
      await db.transaction(async (tx) => {
        const revoked = await tx
          .update(userInvitations)
          .set({ revokedAt: new Date() })
          .where(and(eq(userInvitations.userId, row.id), isNull(userInvitations.acceptedAt), isNull(userInvitations.revokedAt)))
          .returning({ id: userInvitations.id });
        if (revoked.length === 0) throw badRequest('This user has no pending invitation.');
        await audit(tx, principal, 'InvitationRevoked', { userId: row.id, businessId: businessOf(target) }, { invitationIds: revoked.map((one) => one.id) });
      });
      return c.body(null, 204);
    }),
  );

  routes.delete('/users/:userId', (c) =>
    auditedWrite(
      c,
      'delete',
      c.req.param('userId'),
      async () => {
        const { principal, row, target } = await wholeUser(c, 'Mapi.Users.Delete');
        if (row.id === principal.userId) throw badRequest(userMessages.cannotDeleteSelf);
        const body = await readBody(c, deleteUserBody);
        if (!body.acknowledgeAccessLoss || !body.acknowledgeEmailBlocked) throw badRequest(userMessages.deleteAcknowledgements);
        // Deleting a user needs the password entered again in this session within the last minutes (step-up).
        await requireStepUp(c, db);
        await db.transaction(async (tx) => {
          const [deleted] = await tx
            .delete(u)
            .where(and(eq(u.id, row.id), eq(u.version, body.version)))
            .returning({ id: u.id });
          if (!deleted) throw conflict();
          await tx.insert(deletedUserEmails).values({ email: row.email.toLowerCase(), deletedBy: principal.userId }).onConflictDoNothing();
          await revokeAccountAccess(tx, row.id);
          await audit(tx, principal, 'UserDeletionSuccessful', { userId: row.id, businessId: businessOf(target) }, { email: row.email });
        });
        return c.body(null, 204);
      },
      'UserDeletionFailed',
    ),
  );

  routes.get('/users/:userId/audit-events', async (c) => {
    const principal = c.get('principal');
    const { row } = await visibleTarget(principal, c.req.param('userId'));
    const readable = holdsRootPermission(principal, 'Mapi.Users.Read') || row.id === principal.userId ? null : await readableBusinessIds(principal);
    const rows = await db
      .select()
      .from(auditEvents)
      .where(
        and(
          sql`${auditEvents.metaData} ->> 'targetUserId' = ${row.id}`,
          readable === null ? undefined : or(isNull(auditEvents.businessId), readable.length > 0 ? inArray(auditEvents.businessId, readable) : sql`false`),
        ),
      )
      .orderBy(desc(auditEvents.dateTimeUtc), desc(auditEvents.id))
      .limit(20);
    const actorIds = [...new Set(rows.map((event) => event.userId))];
    const actors =
      actorIds.length === 0
        ? []
        : await db.select({ id: u.id, givenName: u.givenName, familyName: u.familyName, email: u.email }).from(u).where(inArray(u.id, actorIds));
    return c.json({
      results: rows.map((event) => {
        const actor = actors.find((candidate) => candidate.id === event.userId);
        const { clientAddress, reason } = event.metaData as { clientAddress?: unknown; reason?: unknown };
        return {
          event: event.event,
          dateTimeUtc: event.dateTimeUtc.toISOString(),
          actor: actor ? `${actor.givenName} ${actor.familyName}`.trim() || actor.email : 'A deleted user',
          clientAddress: typeof clientAddress === 'string' ? clientAddress : null,
          // Only a refused sign-in's or step-up's reason, from the known list (other events' metaData stays private).
          reason: /Failed$/.test(event.event) && signInRefusalReasons.includes(reason as SignInRefusalReason) ? (reason as SignInRefusalReason) : null,
        };
      }),
    });
  });

  async function readableBusinessIds(principal: Principal): Promise<string[]> {
    const candidates = [...new Set([...principal.businessIds, ...principal.partnerBusinessIds])];
    const partnerOf = await partnersOfBusinesses(db, candidates);
    return candidates.filter((id) => permissionInBusiness(principal, 'Mapi.Users.Read', id, partnerOf.get(id) ?? null));
  }

  // ── second factor ─────────────────────────────────────────────────────────────────────────────

  routes.delete('/users/:userId/second-factor', (c) =>
    auditedWrite(c, 'resetSecondFactor', c.req.param('userId'), async () => {
      const principal = c.get('principal');
      const { row, target } = await visibleTarget(principal, c.req.param('userId'));
      if (!isTechnicalAdmin(principal) || row.id === principal.userId) throw forbidden();
      await db.transaction(async (tx) => {
        if (!(await removeSecondFactor(tx, row.id))) throw badRequest('This user has no second factor.');
        await revokeAccountAccess(tx, row.id);
        await audit(tx, principal, 'SecondFactorReset', { userId: row.id, businessId: businessOf(target) }, sourceMetaData(c));
      });
      return c.body(null, 204);
    }),
  );

  return routes;
}
