// The context selection calls through app.request(), on PGlite and (with TEST_DATABASE_URL) PostgreSQL:
// scoping per kind of user, paging, live-only, search and parameter validation. Own fixture world, no demo seed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../../server/db/client.ts';
import * as schema from '../../../server/db/schema.ts';
import { createTestApp, createTestDatabase, databaseKinds } from '../support.ts';

const users = {
  internal: 'ctx-internal',
  partner: 'ctx-partner',
  owner: 'ctx-owner',
  singleMerchant: 'ctx-single',
  policyOnly: 'ctx-policy',
  nobody: 'ctx-nobody',
} as const;

/** Twelve filler businesses of partner P2, for paging. */
const fillers = Array.from({ length: 12 }, (_, index) => ({
  id: `B-X${String(index + 1).padStart(2, '0')}`,
  name: `Extra Business ${String(index + 1).padStart(2, '0')}`,
  partnerId: 'P2',
}));

/**
 * P1 holds Alpha (3 merchants, one not live), Beta (1 merchant) and Delta (not live);
 * Gamma has no partner; Omega (P2) has a name full of LIKE wildcards.
 */
async function insertContextWorld(database: Database): Promise<void> {
  const { db } = database;
  await db.insert(schema.partners).values([
    { id: 'P1', name: 'Northwind Partners' },
    { id: 'P2', name: 'Southwind Partners' },
  ]);
  await db
    .insert(schema.businesses)
    .values([
      { id: 'B-ALPHA', name: 'Alpha Trading', partnerId: 'P1' },
      { id: 'B-BETA', name: 'Beta Retail', partnerId: 'P1', camAutoRemittance: false },
      { id: 'B-GAMMA', name: 'Gamma Foods' },
      { id: 'B-DELTA', name: 'Delta Dormant', partnerId: 'P1', live: false },
      { id: 'B-OMEGA', name: 'Omega 100% Pure_Juice', partnerId: 'P2' },
      ...fillers,
    ]);
  await db.insert(schema.merchants).values([
    { id: 'M-A1', businessId: 'B-ALPHA', name: 'Alpha Online', currencies: ['GBP', 'EUR'] },
    { id: 'M-A2', businessId: 'B-ALPHA', name: 'Alpha Stores', currencies: ['GBP'], grossSettlement: true },
    { id: 'M-A3', businessId: 'B-ALPHA', name: 'Alpha Archive', currencies: ['GBP'], live: false },
    { id: 'M-B1', businessId: 'B-BETA', name: 'Beta Web', currencies: ['EUR'] },
    { id: 'M-G1', businessId: 'B-GAMMA', name: 'Gamma Deli', currencies: ['GBP'] },
    { id: 'M-G2', businessId: 'B-GAMMA', name: 'Gamma Bakery', currencies: ['JPY'] },
    { id: 'M-D1', businessId: 'B-DELTA', name: 'Delta Shop', currencies: ['USD'], live: false },
    { id: 'M-O1', businessId: 'B-OMEGA', name: 'Omega Juice Bar', currencies: ['EUR'] },
  ]);
  await db.insert(schema.configurations).values([
    {
      id: 'C-A1-Z',
      merchantId: 'M-A1',
      businessId: 'B-ALPHA',
      tradeName: 'Zeta checkout',
      description: 'web shop',
      switches: { virtualTerminalMenuEnabled: true },
    },
    {
      id: 'C-A1-A',
      merchantId: 'M-A1',
      businessId: 'B-ALPHA',
      tradeName: 'Alpha checkout',
      description: 'phone orders',
      switches: { virtualTerminalMenuEnabled: false },
    },
    { id: 'C-B1', merchantId: 'M-B1', businessId: 'B-BETA', tradeName: 'Beta web', switches: { virtualTerminalMenuEnabled: true } },
  ]);
  await db.insert(schema.users).values(
    Object.values(users).map((id) => ({
      id,
      email: `${id}@context.test`,
      givenName: id,
      familyName: 'Test',
      passwordHash: 'scrypt$1$1$1$x$y',
      internal: id === users.internal,
    })),
  );
  await db.insert(schema.userRoles).values([
    { userId: users.internal, role: 'InternalReadOnly', level: 'root' },
    { userId: users.partner, role: 'Owner', level: 'partner', partnerId: 'P1' },
    { userId: users.owner, role: 'Owner', level: 'business', businessId: 'B-GAMMA' },
    { userId: users.singleMerchant, role: 'VirtualTerminal', level: 'merchant', businessId: 'B-BETA', merchantId: 'M-B1' },
    { userId: users.policyOnly, role: 'Finance', level: 'merchant', businessId: 'B-ALPHA', merchantId: 'M-A2' },
    { userId: users.policyOnly, role: 'Sales', level: 'merchant', businessId: 'B-GAMMA', merchantId: 'M-G2' },
  ]);
}

type Json = Record<string, unknown>;
type Page<T> = { data: T[]; totalCount: number };
type BusinessRow = { businessId: string; businessName: string; camAutoRemittance: boolean; live: boolean };
type MerchantRow = { merchantId: string; merchantName: string; grossSettlement: boolean; currencies: string[]; live: boolean };
type SearchRow = { businessId: string; businessName: string; merchantId?: string; merchantName?: string };

const allBusinessIds = ['B-ALPHA', 'B-BETA', 'B-DELTA', ...fillers.map((filler) => filler.id), 'B-GAMMA', 'B-OMEGA'];

describe.each(databaseKinds)('context selection endpoints on %s', (kind) => {
  let database: Database;
  let call: ReturnType<typeof createTestApp>['call'];

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    await insertContextWorld(database);
    ({ call } = createTestApp(database));
  });
  afterAll(async () => database?.close());

  async function get<T = Json>(userId: string, path: string, status = 200): Promise<T> {
    const response = await call(userId, 'GET', path);
    const body = (await response.json()) as T;
    expect(response.status, `${path} → ${JSON.stringify(body)}`).toBe(status);
    return body;
  }
  const businessIds = (page: Page<BusinessRow>) => page.data.map((row) => row.businessId);
  const merchantIds = (page: Page<MerchantRow>) => page.data.map((row) => row.merchantId);
  const searchKeys = (page: Page<SearchRow>) => page.data.map((row) => row.merchantId ?? row.businessId);

  describe('GET /context/businesses', () => {
    it('lists every business to an internal user, sorted by name, with the documented fields', async () => {
      const page = await get<Page<BusinessRow>>(users.internal, '/context/businesses?pagesize=100');
      expect(page.totalCount).toBe(17);
      expect(page.data.map((row) => row.businessName)).toEqual([...page.data.map((row) => row.businessName)].sort((a, b) => a.localeCompare(b)));
      expect(new Set(businessIds(page))).toEqual(new Set(allBusinessIds));
      expect(page.data.find((row) => row.businessId === 'B-BETA')).toEqual({
        businessId: 'B-BETA',
        businessName: 'Beta Retail',
        camAutoRemittance: false,
        live: true,
      });
    });
    it('pages by pagenumber and pagesize, keeping totalCount', async () => {
      const first = await get<Page<BusinessRow>>(users.internal, '/context/businesses?pagenumber=1&pagesize=10');
      const second = await get<Page<BusinessRow>>(users.internal, '/context/businesses?pagenumber=2&pagesize=10');
      const beyond = await get<Page<BusinessRow>>(users.internal, '/context/businesses?pagenumber=3&pagesize=10');
      expect(first.data).toHaveLength(10);
      expect(second.data).toHaveLength(7);
      expect(beyond).toEqual({ data: [], totalCount: 17 });
      expect(new Set([...businessIds(first), ...businessIds(second)]).size).toBe(17);
      expect([first.totalCount, second.totalCount]).toEqual([17, 17]);
    });
    it('defaults to page 1 of 25', async () => {
      const page = await get<Page<BusinessRow>>(users.internal, '/context/businesses');
      expect(page.data).toHaveLength(17);
    });
    it('leaves out businesses that are not live with liveonly=true', async () => {
      const page = await get<Page<BusinessRow>>(users.internal, '/context/businesses?pagesize=100&liveonly=true');
      expect(page.totalCount).toBe(16);
      expect(businessIds(page)).not.toContain('B-DELTA');
      expect(businessIds(await get<Page<BusinessRow>>(users.internal, '/context/businesses?pagesize=100&liveonly=false'))).toContain('B-DELTA');
    });
    it('lists a partner user the partner’s businesses only', async () => {
      expect(businessIds(await get(users.partner, '/context/businesses'))).toEqual(['B-ALPHA', 'B-BETA', 'B-DELTA']);
      expect(businessIds(await get(users.partner, '/context/businesses?liveonly=true'))).toEqual(['B-ALPHA', 'B-BETA']);
    });
    it('lists an owner the owned business only', async () => {
      expect(await get(users.owner, '/context/businesses')).toEqual({
        data: [{ businessId: 'B-GAMMA', businessName: 'Gamma Foods', camAutoRemittance: true, live: true }],
        totalCount: 1,
      });
    });
    it('lists a single-merchant user the business of that merchant', async () => {
      expect(businessIds(await get(users.singleMerchant, '/context/businesses'))).toEqual(['B-BETA']);
    });
    it('lists a merchant-role-only user the businesses of their merchants', async () => {
      expect(businessIds(await get(users.policyOnly, '/context/businesses'))).toEqual(['B-ALPHA', 'B-GAMMA']);
    });
    it('lists nothing to a user without any policy', async () => {
      expect(await get(users.nobody, '/context/businesses')).toEqual({ data: [], totalCount: 0 });
    });
  });

  describe('GET /context/businesses/{businessId}/merchants', () => {
    it('lists an internal user every merchant of the business, sorted by name', async () => {
      const page = await get<Page<MerchantRow>>(users.internal, '/context/businesses/B-ALPHA/merchants');
      expect(merchantIds(page)).toEqual(['M-A3', 'M-A1', 'M-A2']);
      expect(page.data[2]).toEqual({ merchantId: 'M-A2', merchantName: 'Alpha Stores', grossSettlement: true, currencies: ['GBP'], live: true });
    });
    it('leaves out merchants that are not live with liveonly=true', async () => {
      expect(await get(users.internal, '/context/businesses/B-ALPHA/merchants?liveonly=true')).toMatchObject({ totalCount: 2 });
    });
    it('pages the merchants', async () => {
      const page = await get<Page<MerchantRow>>(users.internal, '/context/businesses/B-ALPHA/merchants?pagesize=10&pagenumber=2');
      expect(page).toEqual({ data: [], totalCount: 3 });
    });
    it('lists a partner user all merchants of a partner business', async () => {
      expect(merchantIds(await get(users.partner, '/context/businesses/B-ALPHA/merchants'))).toEqual(['M-A3', 'M-A1', 'M-A2']);
    });
    it('lists a merchant-role-only user only their merchants of the business', async () => {
      expect(merchantIds(await get(users.policyOnly, '/context/businesses/B-ALPHA/merchants'))).toEqual(['M-A2']);
      expect(merchantIds(await get(users.policyOnly, '/context/businesses/B-GAMMA/merchants'))).toEqual(['M-G2']);
    });
    it('lists a single-merchant user that merchant', async () => {
      expect(merchantIds(await get(users.singleMerchant, '/context/businesses/B-BETA/merchants'))).toEqual(['M-B1']);
    });
    it('answers 404 for a business outside the policy, the same as for one that does not exist', async () => {
      const outside = await get(users.owner, '/context/businesses/B-ALPHA/merchants', 404);
      const missing = await get(users.owner, '/context/businesses/B-NONE/merchants', 404);
      expect(outside).toEqual(missing);
      expect(outside).toEqual({
        errorReport: { errors: [{ message: 'The requested record was not found.', translatedMessage: 'The requested record was not found.' }] },
      });
    });
  });

  describe('single look-ups', () => {
    it('answers a reachable business with id, name, its flags and the time zone its money periods are cut in', async () => {
      expect(await get(users.owner, '/context/businesses/B-GAMMA')).toEqual({
        id: 'B-GAMMA',
        name: 'Gamma Foods',
        live: true,
        camAutoRemittance: true,
        partnerId: null,
        timeZone: 'Europe/London',
      });
      expect(await get(users.partner, '/context/businesses/B-BETA')).toMatchObject({
        id: 'B-BETA',
        name: 'Beta Retail',
        camAutoRemittance: false,
        partnerId: 'P1',
      });
    });
    it('answers a reachable merchant with id, name and its flags', async () => {
      expect(await get(users.policyOnly, '/context/businesses/B-ALPHA/merchants/M-A2')).toEqual({
        id: 'M-A2',
        name: 'Alpha Stores',
        businessId: 'B-ALPHA',
        live: true,
        grossSettlement: true,
        currencies: ['GBP'],
      });
    });
    it('lets a merchant-role-only user look up the business of their merchant but not its other merchants', async () => {
      expect(await get(users.policyOnly, '/context/businesses/B-ALPHA')).toMatchObject({ id: 'B-ALPHA' });
      await get(users.policyOnly, '/context/businesses/B-ALPHA/merchants/M-A1', 404);
    });
    it('answers 404 for a merchant addressed under another business, even to an internal user', async () => {
      await get(users.internal, '/context/businesses/B-GAMMA/merchants/M-A1', 404);
    });
    it('answers 404 for ids longer than any id', async () => {
      await get(users.internal, `/context/businesses/${'B'.repeat(65)}`, 404);
    });
  });

  describe('GET /context/businesses/{businessId}/merchants/{merchantId}/configurations', () => {
    it('lists the configurations of a merchant sorted by trade name', async () => {
      expect(await get(users.internal, '/context/businesses/B-ALPHA/merchants/M-A1/configurations')).toEqual({
        data: [
          { configurationId: 'C-A1-A', tradeName: 'Alpha checkout', description: 'phone orders', switches: { virtualTerminalMenuEnabled: false } },
          { configurationId: 'C-A1-Z', tradeName: 'Zeta checkout', description: 'web shop', switches: { virtualTerminalMenuEnabled: true } },
        ],
        totalCount: 2,
      });
    });
    it('answers an empty list for a merchant without configurations', async () => {
      expect(await get(users.policyOnly, '/context/businesses/B-ALPHA/merchants/M-A2/configurations')).toEqual({ data: [], totalCount: 0 });
    });
    it('lets a single-merchant user read the configurations of that merchant', async () => {
      expect(await get(users.singleMerchant, '/context/businesses/B-BETA/merchants/M-B1/configurations')).toMatchObject({ totalCount: 1 });
    });
    it('answers 404 for a merchant outside the policy', async () => {
      await get(users.policyOnly, '/context/businesses/B-ALPHA/merchants/M-A1/configurations', 404);
      await get(users.owner, '/context/businesses/B-BETA/merchants/M-B1/configurations', 404);
    });
  });

  describe('GET /context/search', () => {
    it('finds businesses and merchants by name, case-insensitively, a business before its merchants', async () => {
      const page = await get<Page<SearchRow>>(users.internal, '/context/search?searchterm=ALPHA');
      expect(page).toEqual({
        data: [
          { businessId: 'B-ALPHA', businessName: 'Alpha Trading' },
          { businessId: 'B-ALPHA', businessName: 'Alpha Trading', merchantId: 'M-A3', merchantName: 'Alpha Archive' },
          { businessId: 'B-ALPHA', businessName: 'Alpha Trading', merchantId: 'M-A1', merchantName: 'Alpha Online' },
          { businessId: 'B-ALPHA', businessName: 'Alpha Trading', merchantId: 'M-A2', merchantName: 'Alpha Stores' },
        ],
        totalCount: 4,
      });
    });
    it('finds by id', async () => {
      expect(searchKeys(await get(users.internal, '/context/search?searchterm=m-g1'))).toEqual(['M-G1']);
      expect(searchKeys(await get(users.internal, '/context/search?searchterm=b-beta'))).toEqual(['B-BETA']);
    });
    it('finds a merchant by a substring in the middle of its name', async () => {
      expect(searchKeys(await get(users.internal, '/context/search?searchterm=akery'))).toEqual(['M-G2']);
    });
    it('takes %, _ and \\ in the term literally', async () => {
      expect(searchKeys(await get(users.internal, `/context/search?searchterm=${encodeURIComponent('100%')}`))).toEqual(['B-OMEGA']);
      expect(await get(users.internal, `/context/search?searchterm=${encodeURIComponent('%%%')}`)).toEqual({ data: [], totalCount: 0 });
      expect(searchKeys(await get(users.internal, '/context/search?searchterm=e_j'))).toEqual(['B-OMEGA']);
      expect(await get(users.internal, '/context/search?searchterm=a_t')).toEqual({ data: [], totalCount: 0 });
      expect(await get(users.internal, `/context/search?searchterm=${encodeURIComponent('\\\\\\')}`)).toEqual({ data: [], totalCount: 0 });
    });
    it('trims spaces around the term', async () => {
      expect(searchKeys(await get(users.internal, '/context/search?searchterm=%20%20akery%20'))).toEqual(['M-G2']);
    });
    it('leaves out what is not live with liveonly=true', async () => {
      expect(searchKeys(await get(users.internal, '/context/search?searchterm=delta'))).toEqual(['B-DELTA', 'M-D1']);
      expect(await get(users.internal, '/context/search?searchterm=delta&liveonly=true')).toEqual({ data: [], totalCount: 0 });
      expect(searchKeys(await get(users.internal, '/context/search?searchterm=archive&liveonly=true'))).toEqual([]);
    });
    it('pages the results with a total', async () => {
      const second = await get<Page<SearchRow>>(users.internal, '/context/search?searchterm=extra&pagesize=10&pagenumber=2');
      expect(second.totalCount).toBe(12);
      expect(searchKeys(second)).toEqual(['B-X11', 'B-X12']);
      expect(await get(users.internal, '/context/search?searchterm=extra&pagesize=10&pagenumber=5')).toEqual({ data: [], totalCount: 12 });
    });
    it('finds for a partner user only within the partner', async () => {
      expect(searchKeys(await get(users.partner, '/context/search?searchterm=alpha'))).toEqual(['B-ALPHA', 'M-A3', 'M-A1', 'M-A2']);
      expect(searchKeys(await get(users.partner, '/context/search?searchterm=delta'))).toEqual(['B-DELTA', 'M-D1']);
      expect(await get(users.partner, '/context/search?searchterm=gamma')).toEqual({ data: [], totalCount: 0 });
    });
    it('finds for an owner only within the owned business', async () => {
      expect(searchKeys(await get(users.owner, '/context/search?searchterm=gamma'))).toEqual(['B-GAMMA', 'M-G2', 'M-G1']);
      expect(await get(users.owner, '/context/search?searchterm=alpha')).toEqual({ data: [], totalCount: 0 });
    });
    it('finds for a merchant-role-only user their merchants and the businesses holding them, nothing else', async () => {
      expect(searchKeys(await get(users.policyOnly, '/context/search?searchterm=alpha'))).toEqual(['B-ALPHA', 'M-A2']);
      expect(searchKeys(await get(users.policyOnly, '/context/search?searchterm=gamma'))).toEqual(['B-GAMMA', 'M-G2']);
      expect(searchKeys(await get(users.singleMerchant, '/context/search?searchterm=beta'))).toEqual(['B-BETA', 'M-B1']);
    });
  });

  describe('nobody sees a business outside their policy', () => {
    const outside: Record<keyof typeof users, { businessId: string; merchantId: string }> = {
      internal: { businessId: 'B-NONE', merchantId: 'M-NONE' },
      partner: { businessId: 'B-GAMMA', merchantId: 'M-G1' },
      owner: { businessId: 'B-ALPHA', merchantId: 'M-A1' },
      singleMerchant: { businessId: 'B-ALPHA', merchantId: 'M-A1' },
      policyOnly: { businessId: 'B-BETA', merchantId: 'M-B1' },
      nobody: { businessId: 'B-GAMMA', merchantId: 'M-G1' },
    };
    it.each(Object.keys(users) as (keyof typeof users)[])('%s: 404 on every direct look-up, absent from lists and search', async (name) => {
      const userId = users[name];
      const { businessId, merchantId } = outside[name];
      for (const path of [
        `/context/businesses/${businessId}`,
        `/context/businesses/${businessId}/merchants`,
        `/context/businesses/${businessId}/merchants/${merchantId}`,
        `/context/businesses/${businessId}/merchants/${merchantId}/configurations`,
      ])
        await get(userId, path, 404);
      expect(businessIds(await get(userId, '/context/businesses?pagesize=100'))).not.toContain(businessId);
      const found = await get<Page<SearchRow>>(userId, `/context/search?searchterm=${encodeURIComponent(businessId.toLowerCase())}&pagesize=100`);
      expect(found.data.filter((row) => row.businessId === businessId)).toEqual([]);
      const byMerchant = await get<Page<SearchRow>>(userId, `/context/search?searchterm=${encodeURIComponent(merchantId)}&pagesize=100`);
      expect(byMerchant).toEqual({ data: [], totalCount: 0 });
    });
  });

  describe('parameter validation', () => {
    async function rejects(path: string, naming: string) {
      const body = await get<{ errorReport: { errors: { message: string }[] } }>(users.internal, path, 400);
      expect(body.errorReport.errors.map((error) => error.message).join(' | ')).toContain(naming);
    }
    it.each([
      ['/context/businesses?pagesize=7', 'pagesize'],
      ['/context/businesses?pagesize=abc', 'pagesize'],
      ['/context/businesses?pagenumber=0', 'pagenumber'],
      ['/context/businesses?pagenumber=-1', 'pagenumber'],
      ['/context/businesses?pagenumber=1.5', 'pagenumber'],
      ['/context/businesses?liveonly=yes', 'liveonly'],
      ['/context/businesses?liveonly=', 'liveonly'],
      ['/context/businesses?colour=red', "'colour'"],
      ['/context/businesses?searchterm=alpha', "'searchterm'"],
      ['/context/businesses?sort=-name', "'sort'"],
      ['/context/businesses?pagesize=10&pagesize=25', "'pagesize' may be given once"],
      ['/context/businesses?pagesize=10&PageSize=25', 'may be given once'],
      ['/context/businesses/B-ALPHA/merchants?pagesize=1000', 'pagesize'],
      ['/context/businesses/B-ALPHA/merchants?liveonly=1', 'liveonly'],
      ['/context/businesses/B-ALPHA/merchants/M-A1/configurations?liveonly=true', "'liveonly'"],
      ['/context/businesses/B-ALPHA?pagesize=10', "'pagesize'"],
      ['/context/search', 'searchterm is required'],
      ['/context/search?searchterm=', 'searchterm is required'],
      ['/context/search?searchterm=%20%20', 'searchterm is required'],
      [`/context/search?searchterm=${'a'.repeat(101)}`, 'searchterm may have 100 characters maximum'],
      ['/context/search?searchterm=ab', 'searchterm must have at least 3 characters'],
      ['/context/search?searchterm=%20ab%20', 'searchterm must have at least 3 characters'],
      ['/context/search?searchterm=alpha&pagesize=5', 'pagesize'],
    ])('%s → 400 naming %s', rejects);
    it('names every wrong parameter at once', async () => {
      const body = await get<{ errorReport: { errors: { message: string }[] } }>(
        users.internal,
        '/context/businesses?pagesize=7&pagenumber=0&liveonly=maybe',
        400,
      );
      expect(body.errorReport.errors).toHaveLength(3);
    });
    it('accepts parameter names in any case and a term of exactly 100 characters', async () => {
      expect((await get<Page<BusinessRow>>(users.internal, '/context/businesses?PageSize=10&PageNumber=2&LiveOnly=true')).data).toHaveLength(6);
      expect(await get(users.internal, `/context/search?searchTerm=${'a'.repeat(100)}`)).toEqual({ data: [], totalCount: 0 });
    });
    it('refuses a call without a token', async () => {
      expect((await call(null, 'GET', '/context/businesses')).status).toBe(401);
    });
  });
});
