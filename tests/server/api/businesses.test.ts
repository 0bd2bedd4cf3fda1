import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../../server/db/client.ts';
import * as schema from '../../../server/db/schema.ts';
import { businessDetail, businessList, merchantDetail, merchantList } from '../../../src/contract/configuration-schemas.ts';
import { createTestApp, createTestDatabase, databaseKinds, fixture } from '../support.ts';
import { insertFixtureWorld } from '../support.ts';
import { configurationUsers, insertConfigurationUsers } from './configuration-fixtures.ts';

const { users } = fixture;
const q = (params: Record<string, string>) => `?${new URLSearchParams(params).toString()}`;

describe.each(databaseKinds)('businesses and merchants on %s', (kind) => {
  let database: Database;
  let call: ReturnType<typeof createTestApp>['call'];
  beforeAll(async () => {
    database = await createTestDatabase(kind);
    await insertFixtureWorld(database);
    await insertConfigurationUsers(database);
    ({ call } = createTestApp(database));
  });
  afterAll(async () => database?.close());

  async function ok(userId: string, path: string) {
    const response = await call(userId, 'GET', path);
    expect(response.status, await response.clone().text()).toBe(200);
    return response.json() as Promise<unknown>;
  }
  async function status(userId: string, method: string, path: string, body?: unknown) {
    const response = await call(userId, method, path, body);
    return {
      status: response.status,
      messages:
        response.status >= 400 ? ((await response.json()) as { errorReport: { errors: { message: string }[] } }).errorReport.errors.map((e) => e.message) : [],
    };
  }

  describe('GET /businesses', () => {
    it('lists every business for internal users, sorted by name, with the partner', async () => {
      const body = businessList.assert(await ok(users.readonly, '/businesses'));
      expect(body.numberOfResults).toBe(4);
      expect(body.results.map((row) => row.businessId)).toEqual(['B1', 'B2', 'B4', 'B3']);
      expect(body.results[0]).toEqual({
        businessId: 'B1',
        businessName: 'Alpha Trading Ltd',
        businessUrl: null,
        camAutoRemittance: true,
        live: true,
        partnerId: 'P1',
        partnerName: 'Northwind Partners',
      });
    });

    it('lists only what a partner, an owner or a developer reaches', async () => {
      expect(businessList.assert(await ok(users.partner, '/businesses')).results.map((row) => row.businessId)).toEqual(['B1', 'B2']);
      expect(businessList.assert(await ok(users.owner, '/businesses')).results.map((row) => row.businessId)).toEqual(['B3']);
      expect(businessList.assert(await ok(configurationUsers.developer, '/businesses')).results.map((row) => row.businessId)).toEqual(['B1']);
    });

    it('is refused to a user with merchant-level roles only', async () => {
      expect((await status(users.merchantOnly, 'GET', '/businesses')).status).toBe(403);
      expect((await status(configurationUsers.merchantFinance, 'GET', '/businesses')).status).toBe(403);
      expect((await status(users.nobody, 'GET', '/businesses')).status).toBe(403);
    });

    it.each([
      [{ name: '[eq]alpha' }, ['B1']],
      [{ name: '[eq]LTD' }, ['B1', 'B2', 'B4']],
      [{ id: '[eq]B3' }, ['B3']],
      [{ live: '[eq]false' }, ['B4']],
      [{ automaticremittance: '[eq]false' }, ['B2']],
      [{ live: '[eq]true', automaticremittance: '[eq]true' }, ['B1', 'B3']],
      [{ sort: '-name' }, ['B3', 'B4', 'B2', 'B1']],
      [{ sort: 'id', pagesize: '10', pagenumber: '1' }, ['B1', 'B2', 'B3', 'B4']],
    ])('filters and sorts %o', async (params, expected) => {
      expect(businessList.assert(await ok(users.admin, `/businesses${q(params)}`)).results.map((row) => row.businessId)).toEqual(expected);
    });

    it('pages', async () => {
      const body = businessList.assert(await ok(users.admin, `/businesses${q({ pagesize: '10', pagenumber: '2' })}`));
      expect(body).toEqual({ results: [], numberOfResults: 4 });
    });

    it.each([
      [{ live: '[eq]maybe' }, "filter live 'maybe' is not true or false"],
      [{ colour: '[eq]red' }, "'colour' is not a filter of this list"],
      [{ sort: 'partner' }, "sort field 'partner' is not sortable; use one of name, id"],
      [{ pagesize: '7' }, 'pagesize'],
    ])('refuses %o with a 400 naming it', async (params, message) => {
      const answer = await status(users.admin, 'GET', `/businesses${q(params)}`);
      expect(answer.status).toBe(400);
      expect(answer.messages.join(' ')).toContain(message);
    });
  });

  describe('GET /businesses/{id}', () => {
    it('answers the detail with its version, recent activity and whether it is editable', async () => {
      const detail = businessDetail.assert(await ok(users.partner, '/businesses/B1'));
      expect(detail).toMatchObject({ businessId: 'B1', businessName: 'Alpha Trading Ltd', partnerName: 'Northwind Partners', version: 1, editable: false });
      expect(businessDetail.assert(await ok(configurationUsers.service, '/businesses/B1')).editable).toBe(true);
      expect(businessDetail.assert(await ok(users.readonly, '/businesses/B1')).editable).toBe(false);
    });

    it('answers 404 across tenants and for unknown ids, 403 for a merchant-level role', async () => {
      expect((await status(users.owner, 'GET', '/businesses/B1')).status).toBe(404);
      expect((await status(users.partner, 'GET', '/businesses/B3')).status).toBe(404);
      expect((await status(users.admin, 'GET', '/businesses/NOPE')).status).toBe(404);
      expect((await status(users.admin, 'GET', `/businesses/${'x'.repeat(65)}`)).status).toBe(404);
      expect((await status(users.merchantOnly, 'GET', '/businesses/B1')).status).toBe(403);
    });
  });

  describe('merchants', () => {
    it('lists the merchants of a business, and only the own ones for a merchant-level role', async () => {
      expect(merchantList.assert(await ok(users.partner, '/businesses/B1/merchants')).results.map((row) => row.merchantId)).toEqual(['M1a', 'M1b']);
      expect(merchantList.assert(await ok(configurationUsers.merchantFinance, '/businesses/B3/merchants')).results.map((row) => row.merchantId)).toEqual([
        'M3a',
      ]);
      expect(merchantList.assert(await ok(users.admin, `/businesses/B3/merchants${q({ name: '[eq]bakery' })}`)).results.map((row) => row.merchantId)).toEqual([
        'M3b',
      ]);
    });

    it('refuses other tenants (404) and a merchant role without the permission (403)', async () => {
      expect((await status(users.owner, 'GET', '/businesses/B1/merchants')).status).toBe(404);
      expect((await status(users.merchantOnly, 'GET', '/businesses/B1/merchants')).status).toBe(403);
    });

    it('answers the merchant detail with its configurations', async () => {
      const detail = merchantDetail.assert(await ok(users.partner, '/businesses/B1/merchants/M1a'));
      expect(detail).toMatchObject({
        merchantId: 'M1a',
        merchantName: 'Alpha Online',
        businessName: 'Alpha Trading Ltd',
        currencies: ['GBP', 'EUR'],
        version: 1,
      });
      expect(detail.configurations).toEqual([{ configurationId: 'C-M1a', tradeName: 'M1a shop' }]);
      expect((await status(configurationUsers.merchantFinance, 'GET', '/businesses/B3/merchants/M3a')).status).toBe(200);
      expect((await status(configurationUsers.merchantFinance, 'GET', '/businesses/B3/merchants/M3b')).status).toBe(404);
      expect((await status(users.partner, 'GET', '/businesses/B1/merchants/M2a')).status).toBe(404);
    });
  });

  describe('editing', () => {
    it('lets Customer service change a business with the version it read, audited; a stale version is a 409', async () => {
      const before = businessDetail.assert(await ok(configurationUsers.service, '/businesses/B2'));
      const saved = await call(configurationUsers.service, 'PUT', '/businesses/B2', {
        businessName: ' Beta Retail Group Ltd ',
        businessUrl: 'https://beta.example',
        version: before.version,
      });
      expect(saved.status, await saved.clone().text()).toBe(200);
      const after = businessDetail.assert(await saved.json());
      expect(after).toMatchObject({ businessName: 'Beta Retail Group Ltd', businessUrl: 'https://beta.example', version: before.version + 1 });
      expect(after.recentActivity[0]).toMatchObject({ event: 'BusinessUpdated', userName: 'service Test' });
      const stale = await status(configurationUsers.service, 'PUT', '/businesses/B2', { businessName: 'Other', businessUrl: null, version: before.version });
      expect(stale).toEqual({ status: 409, messages: ['Someone updated this view'] });
      const [row] = await database.db.select().from(schema.businesses).where(eq(schema.businesses.id, 'B2'));
      expect(row?.name).toBe('Beta Retail Group Ltd');
    });

    it('validates with the generic messages', async () => {
      const answer = await status(users.admin, 'PUT', '/businesses/B1', { businessName: '  ', businessUrl: 'javascript:alert(1)', version: 1 });
      expect(answer).toEqual({ status: 400, messages: ['Business name is required', 'Business URL is invalid'] });
      const long = await status(users.admin, 'PUT', '/businesses/B1', { businessName: 'x'.repeat(101), businessUrl: null, version: 1 });
      expect(long.status).toBe(400);
      expect((await status(users.admin, 'PUT', '/businesses/B1', { businessName: 'A', businessUrl: null, version: 1, extra: true })).status).toBe(400);
      expect((await status(users.admin, 'PUT', '/businesses/B1', 'not json')).status).toBe(400);
    });

    it('refuses read-only, partner-level owners and other tenants', async () => {
      expect((await status(users.readonly, 'PUT', '/businesses/B1', { businessName: 'X', businessUrl: null, version: 1 })).status).toBe(403);
      expect((await status(users.partner, 'PUT', '/businesses/B1', { businessName: 'X', businessUrl: null, version: 1 })).status).toBe(403);
      expect((await status(users.owner, 'PUT', '/businesses/B1', { businessName: 'X', businessUrl: null, version: 1 })).status).toBe(404);
    });

    it('edits a merchant with its own version', async () => {
      const saved = await call(configurationUsers.implementations, 'PUT', '/businesses/B1/merchants/M1b', {
        merchantName: 'Alpha High Street',
        merchantUrl: 'https://alpha.example/shop',
        supportUrl: 'https://alpha.example/help',
        version: 1,
      });
      expect(saved.status).toBe(200);
      expect(merchantDetail.assert(await saved.json())).toMatchObject({ merchantName: 'Alpha High Street', version: 2 });
      expect(
        (
          await status(configurationUsers.implementations, 'PUT', '/businesses/B1/merchants/M1b', {
            merchantName: 'Again',
            merchantUrl: null,
            supportUrl: null,
            version: 1,
          })
        ).status,
      ).toBe(409);
      expect(
        (
          await status(configurationUsers.implementations, 'PUT', '/businesses/B1/merchants/M2a', {
            merchantName: 'Wrong business',
            merchantUrl: null,
            supportUrl: null,
            version: 1,
          })
        ).status,
      ).toBe(404);
      const [audit] = await database.db.select().from(schema.auditEvents).where(eq(schema.auditEvents.event, 'MerchantUpdated'));
      expect(audit).toMatchObject({ businessId: 'B1', merchantId: 'M1b', userId: configurationUsers.implementations });
    });

    it("keeps a merchant's support email, refuses one that is not an address, and leaves it alone when not sent", async () => {
      const bad = await call(configurationUsers.implementations, 'PUT', '/businesses/B1/merchants/M1b', {
        merchantName: 'Alpha High Street',
        merchantUrl: null,
        supportUrl: null,
        supportEmail: 'help at alpha',
        version: 2,
      });
      expect(bad.status).toBe(400);
      expect(JSON.stringify(await bad.json())).toContain('Support email must be an email address');
      const saved = await call(configurationUsers.implementations, 'PUT', '/businesses/B1/merchants/M1b', {
        merchantName: 'Alpha High Street',
        merchantUrl: null,
        supportUrl: null,
        supportEmail: ' help@alpha.example ',
        version: 2,
      });
      expect(merchantDetail.assert(await saved.json())).toMatchObject({ supportEmail: 'help@alpha.example', version: 3 });
      const untouched = await call(configurationUsers.implementations, 'PUT', '/businesses/B1/merchants/M1b', {
        merchantName: 'Alpha Shop',
        merchantUrl: null,
        supportUrl: null,
        version: 3,
      });
      expect(merchantDetail.assert(await untouched.json())).toMatchObject({ merchantName: 'Alpha Shop', supportEmail: 'help@alpha.example', version: 4 });
    });
  });
});
