// The caller's own policy, permissions per context, reachable businesses and notification status.
import { and, asc, count, desc, eq, inArray, notExists, sql } from 'drizzle-orm';
import { Hono } from 'hono';
import type { BusinessPolicy, PolicyStructure } from '../../src/contract/policy.ts';
import { businesses, merchants, notificationReads, notifications, partners } from '../db/schema.ts';
import { allPermissions, isInternal, resolveContext, resolvePartner, type Principal } from '../policy/principal.ts';
import type { AppEnv, Deps } from '../http/env.ts';
import { notFound } from '../http/errors.ts';
import { publishDueNotifications, visibleTo } from './user-notifications.ts';

const dayMs = 86_400_000;

export function userRoutes({ database }: Deps) {
  const { db } = database;
  const routes = new Hono<AppEnv>();

  async function policyStructure(principal: Principal): Promise<PolicyStructure> {
    const partnerGrant = principal.grants.find((grant) => grant.level === 'partner');
    let partnerPolicy: PolicyStructure['portalPolicy']['partnerPolicy'] = null;
    if (partnerGrant?.partnerId) {
      const [partner] = await db.select().from(partners).where(eq(partners.id, partnerGrant.partnerId));
      if (partner) {
        partnerPolicy = {
          partnerId: partner.id,
          partnerName: partner.name,
          roles: principal.grants.filter((grant) => grant.partnerId === partner.id && grant.level === 'partner').map((grant) => grant.role),
        };
      }
    }
    const merchantGrants = principal.grants.filter((grant) => grant.level === 'merchant');
    const businessIds = [...new Set([...principal.businessIds, ...merchantGrants.map((grant) => grant.businessId ?? '')])].filter(Boolean);
    const businessRows =
      businessIds.length === 0 ? [] : await db.select().from(businesses).where(inArray(businesses.id, businessIds)).orderBy(asc(businesses.name));
    const merchantRows =
      principal.merchantIds.length === 0
        ? []
        : await db.select().from(merchants).where(inArray(merchants.id, principal.merchantIds)).orderBy(asc(merchants.name));
    const businessPolicies: BusinessPolicy[] = businessRows.map((business) => ({
      businessId: business.id,
      businessName: business.name,
      roles: principal.grants.filter((grant) => grant.level === 'business' && grant.businessId === business.id).map((grant) => grant.role),
      merchantPolicies: merchantRows
        .filter((merchant) => merchant.businessId === business.id)
        .map((merchant) => ({
          businessId: business.id,
          merchantId: merchant.id,
          merchantName: merchant.name,
          roles: merchantGrants.filter((grant) => grant.merchantId === merchant.id).map((grant) => grant.role),
        })),
    }));
    return { portalPolicy: { roles: principal.rootRoles, partnerPolicy, businessPolicies } };
  }

  routes.get('/user/policy-structure', async (c) => c.json(await policyStructure(c.get('principal'))));

  routes.get('/user/permissions', (c) => c.json({ permissions: [...allPermissions(c.get('principal'))].sort() }));

  routes.get('/user/partner/:partnerId/permissions', async (c) => {
    const resolved = await resolvePartner(database, c.get('principal'), c.req.param('partnerId'));
    if (!resolved) throw notFound();
    return c.json({ permissions: [...resolved.permissions].sort() });
  });

  routes.get('/user/businesses/:businessId/permissions', async (c) => {
    const resolved = await resolveContext(database, c.get('principal'), c.req.param('businessId'));
    if (!resolved) throw notFound();
    return c.json({ permissions: [...resolved.permissions].sort() });
  });

  routes.get('/user/businesses/:businessId/merchants/:merchantId/permissions', async (c) => {
    const resolved = await resolveContext(database, c.get('principal'), c.req.param('businessId'), c.req.param('merchantId'));
    if (!resolved) throw notFound();
    return c.json({ permissions: [...resolved.permissions].sort() });
  });

  /** The businesses the caller's own policy names (not everything an internal user could open). */
  routes.get('/user/businesses', async (c) => {
    const { portalPolicy } = await policyStructure(c.get('principal'));
    return c.json({
      results: portalPolicy.businessPolicies.map(({ businessId, businessName, roles }) => ({ businessId, businessName, roles })),
      numberOfResults: portalPolicy.businessPolicies.length,
    });
  });

  /** Every context the caller's policy grants explicitly: partner, businesses and merchants. */
  routes.get('/user/contexts', async (c) => {
    const principal = c.get('principal');
    const { portalPolicy } = await policyStructure(principal);
    const partnerBusinesses =
      principal.partnerBusinessIds.length === 0
        ? []
        : await db
            .select({ businessId: businesses.id, businessName: businesses.name })
            .from(businesses)
            .where(inArray(businesses.id, principal.partnerBusinessIds))
            .orderBy(asc(businesses.name));
    return c.json({
      internal: isInternal(principal),
      partner: portalPolicy.partnerPolicy,
      businesses: [
        ...partnerBusinesses.map((business) => ({ ...business, merchants: [] as { merchantId: string; merchantName: string }[] })),
        ...portalPolicy.businessPolicies.map((policy) => ({
          businessId: policy.businessId,
          businessName: policy.businessName,
          merchants: policy.merchantPolicies.map(({ merchantId, merchantName }) => ({ merchantId, merchantName })),
        })),
      ],
    });
  });

  routes.get('/user/notifications/status', async (c) => {
    const principal = c.get('principal');
    // support: one visibility for the inbox and the bell (audience, scheduled publication)
    await publishDueNotifications(database);
    const visible = visibleTo(principal);
    const unread = and(
      visible,
      notExists(
        db
          .select({ one: sql`1` })
          .from(notificationReads)
          .where(and(eq(notificationReads.reference, notifications.reference), eq(notificationReads.userId, principal.userId))),
      ),
    );
    const [counted] = await db.select({ total: count() }).from(notifications).where(unread);
    const [latest] = await db
      .select({ reference: notifications.reference, title: notifications.title })
      .from(notifications)
      .where(unread)
      .orderBy(desc(notifications.publishedUtc))
      .limit(1);
    const expires = principal.passwordExpiresUtc;
    const passwordExpiresInXDays = expires ? Math.max(0, Math.ceil((expires.getTime() - Date.now()) / dayMs)) : null;
    return c.json({ totalUnreadCount: Number(counted?.total ?? 0), passwordExpiresInXDays, latestUnread: latest ?? null });
  });

  return routes;
}
