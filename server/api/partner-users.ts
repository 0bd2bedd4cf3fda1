// A partner's users: listed, invited and given this partner's roles by those holding the permission at the partner.
// The rules of every write are user administration's (user-administration.ts, server/users/user-access.ts).
//
// | method | path                                  | permission (where)                           | answer                                   |
// |--------|---------------------------------------|----------------------------------------------|------------------------------------------|
// | GET    | /partners/{partnerId}/users           | Mapi.Users.Read at the partner               | { results, numberOfResults }             |
// | POST   | /partners/{partnerId}/users           | Mapi.Users.Create at the partner             | 201 { users }                            |
// | PUT    | /partners/{partnerId}/users/{userId}  | Mapi.Users.Update at the partner             | detail                                   |
import { and, eq, sql } from 'drizzle-orm';
import { Hono, type Context } from 'hono';
import type { PermissionName } from '../../src/contract/permissions.ts';
import { invitePartnerUsersBody, partnerUserBody, type PolicyInput } from '../../src/contract/user-schemas.ts';
import { partners, users } from '../db/schema.ts';
import { revokeAccountAccess } from '../identity/adapter.ts';
import { isInternal } from '../policy/principal.ts';
import { grantKey, loadTarget, permissionInPartner } from '../users/user-access.ts';
import { type AppEnv, type Deps, readBody } from '../http/env.ts';
import { ApiError, badRequest, conflict, forbidden, notFound } from '../http/errors.ts';
import { userAdministration, userIdPattern } from './user-administration.ts';
import { auditUserEvent } from '../users/user-lock.ts';

const u = users;

export function partnerUserRoutes({ database, publicUrl }: Deps) {
  const { db } = database;
  const routes = new Hono<AppEnv>();
  const { auditedWrite, findUser, respondDetail, planGrants, writeGrants, invite, listUsers } = userAdministration({ database, publicUrl });
  const audit = auditUserEvent;

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

  routes.post('/partners/:partnerId/users', (c) =>
    auditedWrite(c, 'invitePartnerUsers', null, async () => {
      const { principal, partner } = await partnerScope(c, 'Mapi.Users.Create');
      const body = await readBody(c, invitePartnerUsersBody);
      const { final } = await planGrants(
        principal,
        'Mapi.Users.Create',
        { roles: [], partnerPolicy: { partnerId: partner.id, roles: body.roles }, businessPolicies: [] },
        null,
      );
      if (final.length === 0) throw badRequest('A partner user needs at least one role.');
      const created = await invite(principal, body.emails, final);
      return c.json({ users: created }, 201);
    }),
  );

  routes.put('/partners/:partnerId/users/:userId', (c) =>
    auditedWrite(c, 'updatePartnerUser', c.req.param('userId'), async () => {
      const { principal, partner } = await partnerScope(c, 'Mapi.Users.Update');
      const row = await findUser(c.req.param('userId'));
      const target = row ? await loadTarget(db, row) : null;
      if (!row || !target?.grants.some((grant) => grant.level === 'partner' && grant.partnerId === partner.id)) throw notFound();
      if (row.id === principal.userId) throw new ApiError(403, 'You cannot change your own access.');
      const body = await readBody(c, partnerUserBody);
      // Business policies stay as they are; only this partner's roles change.
      const businessPolicies = [...new Set(target.grants.filter((grant) => grant.businessId).map((grant) => grant.businessId as string))].map((businessId) => ({
        businessId,
        roles: target.grants
          .filter((grant) => grant.level === 'business' && grant.businessId === businessId)
          .map((grant) => grant.role as PolicyInput['roles'][number]),
        merchantPolicies: [
          ...new Set(target.grants.filter((grant) => grant.level === 'merchant' && grant.businessId === businessId).map((grant) => grant.merchantId as string)),
        ].map((merchantId) => ({
          merchantId,
          roles: target.grants.filter((grant) => grant.merchantId === merchantId).map((grant) => grant.role as PolicyInput['roles'][number]),
        })),
      }));
      const plan = await planGrants(
        principal,
        'Mapi.Users.Update',
        { roles: [], partnerPolicy: body.roles.length > 0 ? { partnerId: partner.id, roles: body.roles } : null, businessPolicies },
        target,
      );
      await db.transaction(async (tx) => {
        const [updated] = await tx
          .update(u)
          .set({ version: sql`${u.version} + 1` })
          .where(and(eq(u.id, row.id), eq(u.version, body.version)))
          .returning({ id: u.id });
        if (!updated) throw conflict();
        await writeGrants(tx, row.id, plan.final);
        if (plan.removed.length > 0) await revokeAccountAccess(tx, row.id);
        await audit(
          tx,
          principal,
          'UserUpdated',
          { userId: row.id },
          { partnerId: partner.id, added: plan.added.map(grantKey), removed: plan.removed.map(grantKey) },
        );
      });
      return respondDetail(c, row.id);
    }),
  );

  return routes;
}
