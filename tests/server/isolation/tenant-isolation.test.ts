// Tenant isolation over the seeded demo world: every demo account against every record of every tenant it may
// not reach, on every Portal API route whose path addresses a partner, business, merchant, transaction or report
// (routes are read from the router, so new endpoints are covered). Allowed answers: 403 or 404, never data.
// Who may reach what is computed here from the role rows directly, independently of server/policy.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../../server/db/client.ts';
import { demoAccounts, seedDatabase } from '../../../server/db/seed.ts';
import { createTestApp, createTestDatabase, testCardKeys } from '../support.ts';

type Tenant = { partnerId: string | null; businessId: string; merchantId: string; reference: string | null; paymentJobReference: string | null; configurationId: string | null; userId: string | null };
type Account = { email: string; userId: string; internal: boolean; businesses: Set<string>; merchants: Set<string>; merchantBusinesses: Set<string>; partners: Set<string> };
type Route = { method: string; path: string };

const today = new Date().toISOString().slice(0, 10);
const lastMonth = new Date(Date.now() - 30 * 86_400_000).toISOString().slice(0, 10);

/** A body that passes validation, so the answer is about access and not about input. */
let probeSerial = 0;

function validBody(route: Route, tenant: Tenant): unknown {
  if (route.method === 'DELETE' && route.path === '/users/:userId') return { version: 1, acknowledgeAccessLoss: true, acknowledgeEmailBlocked: true };
  if (route.method === 'GET' || route.method === 'DELETE') return undefined;
  if (route.path.endsWith('/full/reports')) return { fileType: 'csv', columns: ['reference'] };
  if (route.path.endsWith('/dashboard/declines')) return { currency: 'GBP', dateRange: { startDate: lastMonth, endDate: today } };
  if (route.path.endsWith('/dashboard')) return { interval: 'month', dateRange: { startDate: lastMonth, endDate: today } };
  // Users (issue 20): writes aimed at the tenant's user, or granting in the tenant's business.
  if (route.path === '/users') return { emails: [`probe.${(probeSerial += 1)}@isolation.test`], policy: { roles: [], businessPolicies: [{ businessId: tenant.businessId, roles: ['Finance'], merchantPolicies: [] }] } };
  if (route.path === '/users/:userId') return { version: 1, givenName: 'Probe', familyName: 'Probe', policy: { roles: [], businessPolicies: [{ businessId: tenant.businessId, roles: ['Owner'], merchantPolicies: [] }] } };
  if (route.path === '/users/:userId/login') return { version: 1, locked: true };
  if (route.path === '/partners/:partnerId/users') return { emails: [`probe.${(probeSerial += 1)}@isolation.test`], roles: ['Finance'] };
  if (route.path === '/partners/:partnerId/users/:userId') return { version: 1, roles: ['Finance'] };
  if (route.path === '/audit-events') return { event: 'VoidFailed', dateTimeUtc: new Date().toISOString(), businessId: tenant.businessId, merchantId: tenant.merchantId };
  return undefined;
}

function fill(route: Route, tenant: Tenant): string | null {
  let missing = false;
  const path = route.path.replace(/:([A-Za-z]+)(\{[^}]*\})?/g, (_match, name: string) => {
    const value = ({
      businessId: tenant.businessId, merchantId: tenant.merchantId, partnerId: tenant.partnerId, reference: tenant.reference,
      transactionReference: tenant.reference, paymentJobReference: tenant.paymentJobReference, configurationId: tenant.configurationId,
      userId: tenant.userId,
    } as Record<string, string | null>)[name];
    if (!value) missing = true;
    return encodeURIComponent(value ?? '');
  });
  return missing ? null : path;
}

function reaches(account: Account, tenant: Tenant, route: Route): boolean {
  if (account.internal) return true;
  if (route.path.includes(':partnerId')) return tenant.partnerId !== null && account.partners.has(tenant.partnerId);
  const viaBusiness = account.businesses.has(tenant.businessId);
  // A merchant role names its business in the caller's own policy: the context panel may list that business and
  // the caller's merchants in it, and the caller may ask for its (empty) permissions there. Nothing else.
  const businessOnly = !route.path.includes(':merchantId') && !route.path.includes(':reference');
  if (businessOnly && /^\/(context|user)\//.test(route.path) && account.merchantBusinesses.has(tenant.businessId)) return true;
  if (route.path.includes(':merchantId') || route.path.includes(':reference') || route.path === '/audit-events') return viaBusiness || account.merchants.has(tenant.merchantId);
  // The tenant's user holds roles in the tenant's business only: reached through that business (or by being them).
  if (route.path.includes(':userId') && tenant.userId === account.userId) return true;
  return viaBusiness;
}

describe('tenant isolation matrix (seeded demo world, PGlite)', () => {
  let database: Database;
  let harness: ReturnType<typeof createTestApp>;
  let accounts: Account[];
  let tenants: Tenant[];
  let routes: Route[];

  beforeAll(async () => {
    database = await createTestDatabase('pglite');
    await seedDatabase(database, { transactions: 3000, cardKeys: testCardKeys });
    harness = createTestApp(database);
    const roleRows = await database.query<{ email: string; user_id: string; internal: boolean; level: string; partner_id: string | null; business_id: string | null; merchant_id: string | null }>(
      `SELECT u.email, u.id AS user_id, u.internal, r.level, r.partner_id, r.business_id, r.merchant_id
         FROM users u LEFT JOIN user_roles r ON r.user_id = u.id WHERE u.email = ANY($1)`, [demoAccounts.map((account) => account.email)]);
    const partnerBusinesses = await database.query<{ id: string; partner_id: string | null }>('SELECT id, partner_id FROM businesses');
    accounts = demoAccounts.map(({ email }) => {
      const rows = roleRows.filter((row) => row.email === email);
      const partners = new Set(rows.filter((row) => row.level === 'partner').map((row) => row.partner_id ?? ''));
      return {
        email, userId: rows[0]?.user_id ?? '', internal: rows.some((row) => row.level === 'root'), partners,
        businesses: new Set([...rows.filter((row) => row.level === 'business').map((row) => row.business_id ?? ''),
          ...partnerBusinesses.filter((business) => business.partner_id && partners.has(business.partner_id)).map((business) => business.id)]),
        merchants: new Set(rows.filter((row) => row.level === 'merchant').map((row) => row.merchant_id ?? '')),
        merchantBusinesses: new Set(rows.filter((row) => row.level === 'merchant').map((row) => row.business_id ?? '')),
      };
    });
    // Record sets: the first merchant of every business, and every merchant of a business where some account holds a
    // merchant-level role (isolation inside a business). Each set: the merchant, its business and partner, one of its
    // transactions, payment jobs and configurations.
    const merchantRoleBusinesses = new Set(accounts.flatMap((account) => [...account.merchantBusinesses]));
    const firstMerchants = new Set((await database.query<{ id: string }>('SELECT min(id) AS id FROM merchants GROUP BY business_id')).map((row) => row.id));
    tenants = (await database.query<{ partner_id: string | null; business_id: string; merchant_id: string; reference: string | null; payment_job_reference: string | null; configuration_id: string | null; user_id: string | null }>(`
      SELECT b.partner_id, m.business_id, m.id AS merchant_id,
             (SELECT t.reference FROM transactions t WHERE t.merchant_id = m.id ORDER BY t.reference LIMIT 1) AS reference,
             (SELECT j.reference FROM payment_jobs j WHERE j.merchant_id = m.id ORDER BY j.reference LIMIT 1) AS payment_job_reference,
             (SELECT c.id FROM configurations c WHERE c.merchant_id = m.id ORDER BY c.id LIMIT 1) AS configuration_id,
             (SELECT min(r.user_id) FROM user_roles r WHERE r.business_id = m.business_id AND NOT EXISTS (
                SELECT 1 FROM user_roles o WHERE o.user_id = r.user_id AND (o.business_id IS DISTINCT FROM m.business_id))) AS user_id
        FROM merchants m JOIN businesses b ON b.id = m.business_id ORDER BY m.id`)).map((row) => ({
      partnerId: row.partner_id, businessId: row.business_id, merchantId: row.merchant_id, reference: row.reference,
      paymentJobReference: row.payment_job_reference, configurationId: row.configuration_id, userId: row.user_id,
    })).filter((tenant) => firstMerchants.has(tenant.merchantId) || merchantRoleBusinesses.has(tenant.businessId));
    const seen = new Set<string>();
    routes = harness.app.routes
      .filter((route) => route.path.startsWith('/api/portal/') && route.method !== 'ALL')
      .map((route) => ({ method: route.method, path: route.path.slice('/api/portal'.length) }))
      .filter((route) => /:(businessId|merchantId|partnerId|reference|userId)/.test(route.path) || route.path === '/audit-events' || (route.method === 'POST' && route.path === '/users'))
      .filter((route) => !seen.has(`${route.method} ${route.path}`) && Boolean(seen.add(`${route.method} ${route.path}`)));
  }, 300_000);
  afterAll(async () => database?.close());

  it('answers 403 or 404, never data, for every record outside each account’s reach', async () => {
    expect(routes.length).toBeGreaterThanOrEqual(15);
    // The user routes are really probed: most record sets carry a user of their own business (issue 20).
    expect(tenants.filter((tenant) => tenant.userId !== null).length).toBeGreaterThanOrEqual(10);
    expect(routes.filter((route) => route.path.includes(':userId')).length).toBeGreaterThanOrEqual(8);
    const leaks: string[] = [];
    const matrix: string[] = [];
    for (const account of accounts) {
      let refused = 0;
      const started = Date.now();
      let probed = 0;
      for (const route of routes) {
        for (const tenant of tenants) {
          if (reaches(account, tenant, route)) continue;
          const path = fill(route, tenant);
          if (!path) continue;
          probed += 1;
          const body = validBody(route, tenant);
          const response = await harness.call(account.userId, route.method, path, body, { 'time-zone': 'Europe/London' });
          if (response.status === 403 || response.status === 404) refused += 1;
          else leaks.push(`${account.email} ${route.method} ${path} → ${response.status}`);
          await response.arrayBuffer();
        }
      }
      matrix.push(`${account.email.padEnd(22)} ${String(probed).padStart(6)} probes  ${String(refused).padStart(6)} refused (403/404)  ${probed - refused} leaked  ${((Date.now() - started) / 1000).toFixed(1)} s`);
    }
    console.log(`tenant isolation over ${routes.length} routes × ${tenants.length} record sets:\n${matrix.join('\n')}`);
    expect(leaks.slice(0, 20)).toEqual([]);
  }, 600_000);

  it('keeps each user’s queued reports to that user on every report route', async () => {
    const owner = accounts.find((account) => account.email === 'owner@demo.test');
    const business = [...(owner?.businesses ?? [])][0];
    const queued = await harness.call(owner?.userId ?? '', 'POST', `/businesses/${business}/transactions/full/reports`, { fileType: 'csv', columns: ['reference'] });
    expect(queued.status).toBe(202);
    const { reportId } = (await queued.json()) as { reportId: string };
    const reportRoutes = harness.app.routes.filter((route) => route.path.startsWith('/api/portal/reports/:id'));
    expect(reportRoutes.length).toBeGreaterThanOrEqual(4);
    for (const account of accounts.filter((candidate) => candidate.email !== 'owner@demo.test')) {
      for (const route of reportRoutes) {
        const response = await harness.call(account.userId, route.method, route.path.slice('/api/portal'.length).replace(':id', reportId));
        expect(response.status, `${account.email} ${route.method} ${route.path}`).toBe(404);
      }
    }
    expect((await harness.call(owner?.userId ?? '', 'GET', `/reports/${reportId}`)).status).toBe(200);
  });

  it('lets every account reach its own records (the matrix is not refusing everything)', async () => {
    for (const account of accounts.filter((candidate) => !candidate.internal && candidate.businesses.size > 0)) {
      const business = [...account.businesses][0] ?? '';
      const response = await harness.call(account.userId, 'GET', `/user/businesses/${business}/permissions`);
      expect(response.status, account.email).toBe(200);
    }
  });
});
