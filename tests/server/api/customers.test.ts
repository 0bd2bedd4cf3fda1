// Customers of a merchant on PGlite and PostgreSQL: allowed, forbidden, cross-tenant 404, malformed,
// stale version; erasure removes the saved card's vault row and is audited; the export holds no card number.
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../../server/db/client.ts';
import * as schema from '../../../server/db/schema.ts';
import { customer, customerDataList, customerList } from '../../../src/contract/customer-schemas.ts';
import { createTestApp, createTestDatabase, databaseKinds, fixture, insertFixtureWorld } from '../support.ts';
import { insertFixtureCustomers, savedCardNumber } from './risk-fixtures.ts';

const { users } = fixture;
const m3a = '/businesses/B3/merchants/M3a/customers';

describe.each(databaseKinds)('customers on %s', (kind) => {
  let database: Database;
  let call: ReturnType<typeof createTestApp>['call'];
  beforeAll(async () => {
    database = await createTestDatabase(kind);
    await insertFixtureWorld(database);
    await insertFixtureCustomers(database);
    ({ call } = createTestApp(database));
  });
  afterAll(async () => database?.close());

  const errors = async (response: Response) =>
    ((await response.json()) as { errorReport: { errors: { message: string }[] } }).errorReport.errors.map((error) => error.message);

  it("lists a merchant's customers by name, with search and paging", async () => {
    const response = await call(users.owner, 'GET', m3a);
    expect(response.status).toBe(200);
    const body = customerList.assert(await response.json());
    expect(body.results.map((row) => row.customerId)).toEqual(['CUS3A2', 'CUS3A1']);
    expect(body.numberOfResults).toBe(2);
    expect(body.results[1]).toMatchObject({ city: 'London', countryIso3166Alpha2: 'GB' });
    const searched = customerList.assert(await (await call(users.owner, 'GET', `${m3a}?searchterm=${encodeURIComponent('[eq]lov')}`)).json());
    expect(searched.results.map((row) => row.customerId)).toEqual(['CUS3A1']);
    // What the search field promises ('Reference, name or email'): words of the name in any order and part-typed,
    // and any fragment of the email or the reference.
    const find = async (term: string) =>
      customerList
        .assert(await (await call(users.owner, 'GET', `${m3a}?searchterm=${encodeURIComponent(`[eq]${term}`)}`)).json())
        .results.map((row) => row.customerId);
    expect(await find('Ada L')).toEqual(['CUS3A1']);
    expect(await find('lovelace ada')).toEqual(['CUS3A1']);
    expect(await find('example.te')).toEqual(['CUS3A2', 'CUS3A1']);
    expect(await find('ada@exam')).toEqual(['CUS3A1']);
    expect(await find('001')).toEqual(['CUS3A1']);
    expect(await find('ada zzz')).toEqual([]);
    // inside a word of the name is not a match ('ace' of Lovelace), so a short fragment does not find everyone
    expect(await find('ace')).toEqual([]);
    const sorted = customerList.assert(await (await call(users.owner, 'GET', `${m3a}?sort=-created&pagesize=10&pagenumber=1`)).json());
    expect(sorted.results.map((row) => row.customerId)).toEqual(['CUS3A2', 'CUS3A1']);
  });

  it("lists the customers across a business's or a partner's merchants, each row naming its merchant", async () => {
    await database.db.insert(schema.customers).values({
      id: 'CUS3B1',
      businessId: 'B3',
      merchantId: 'M3b',
      reference: 'C-301',
      firstName: 'Ann',
      lastName: 'Abbott',
      createdUtc: new Date('2026-04-01T10:00:00Z'),
    });
    try {
      const business = customerList.assert(await (await call(users.owner, 'GET', '/businesses/B3/customers')).json());
      expect(business.results.map((row) => [row.customerId, row.merchantId, row.merchantName])).toEqual([
        ['CUS3B1', 'M3b', 'Gamma Bakery'],
        ['CUS3A2', 'M3a', 'Gamma Deli'],
        ['CUS3A1', 'M3a', 'Gamma Deli'],
      ]);
      expect(business.results[0]).toMatchObject({ businessId: 'B3' });
      expect(business.numberOfResults).toBe(3);
      const searched = customerList.assert(
        await (await call(users.owner, 'GET', `/businesses/B3/customers?searchterm=${encodeURIComponent('[eq]ann')}&sort=-created`)).json(),
      );
      expect(searched.results.map((row) => row.customerId)).toEqual(['CUS3B1']);
      // The merchant's own list names no merchant (it is the addressed one).
      const merchant = customerList.assert(await (await call(users.owner, 'GET', m3a)).json());
      expect(merchant.results.every((row) => row.merchantName === undefined && row.merchantId === 'M3a')).toBe(true);
      // P1's businesses are B1 and B2: Carol of M1a only; B3 has no partner.
      const partner = customerList.assert(await (await call(users.partner, 'GET', '/partners/P1/customers')).json());
      expect(partner.results.map((row) => [row.customerId, row.businessId, row.merchantName])).toEqual([['CUS1A1', 'B1', 'Alpha Online']]);
      expect(customerList.assert(await (await call(users.admin, 'GET', '/partners/P2/customers')).json()).results).toEqual([]);
    } finally {
      await database.db.delete(schema.customers).where(eq(schema.customers.id, 'CUS3B1'));
    }
  });

  it('keeps the business and partner lists to their tenants: 404 across tenants, 403 without the permission, 400 on bad parameters', async () => {
    expect((await call(users.owner, 'GET', '/businesses/B1/customers')).status).toBe(404);
    expect((await call(users.owner, 'GET', '/partners/P1/customers')).status).toBe(404);
    expect((await call(users.partner, 'GET', '/partners/P2/customers')).status).toBe(404);
    expect((await call(users.partner, 'GET', '/businesses/B3/customers')).status).toBe(404);
    expect((await call(users.admin, 'GET', '/businesses/NOPE/customers')).status).toBe(404);
    expect((await call(users.admin, 'GET', `/partners/${encodeURIComponent("P1' OR 1=1")}/customers`)).status).toBe(404);
    // Finance reads the business but not its customers; a merchant's virtual terminal user reads its merchant's only.
    expect((await call(users.finance, 'GET', '/businesses/B2/customers')).status).toBe(403);
    expect([403, 404]).toContain((await call(users.merchantOnly, 'GET', '/businesses/B1/customers')).status);
    expect((await call(null, 'GET', '/partners/P1/customers')).status).toBe(401);
    const bad = await call(users.owner, 'GET', '/businesses/B3/customers?colour=[eq]red');
    expect(bad.status).toBe(400);
    expect((await errors(bad)).join(' ')).toContain("'colour' is not a filter");
    expect((await call(users.partner, 'GET', '/partners/P1/customers?sort=shoeSize')).status).toBe(400);
  });

  it('refuses undeclared or malformed list parameters with a 400 naming them', async () => {
    const response = await call(users.owner, 'GET', `${m3a}?colour=[eq]red&pagesize=7`);
    expect(response.status).toBe(400);
    const messages = await errors(response);
    expect(messages.join(' ')).toContain("'colour' is not a filter");
    expect(messages.join(' ')).toContain('pagesize');
  });

  it('reads a customer with its saved card count and its data items, never a card number', async () => {
    const response = await call(users.admin, 'GET', `${m3a}/CUS3A1`);
    expect(response.status).toBe(200);
    expect(customer.assert(await response.json())).toMatchObject({ reference: 'C-001', savedCards: 1, version: 1 });
    const data = await call(users.owner, 'GET', `${m3a}/CUS3A1/data`);
    const text = await data.text();
    expect(text).not.toContain(savedCardNumber);
    expect(text).not.toContain('"cardToken"');
    expect(customerDataList.assert(JSON.parse(text)).results.map((item) => [item.kind, item.description])).toEqual([
      ['savedCard', '555555******4444 expires 04/29, Ada Lovelace'],
      ['consent', 'Order updates by email: granted'],
    ]);
  });

  it('answers 404 across tenants and 403 without the permission', async () => {
    expect((await call(users.owner, 'GET', '/businesses/B1/merchants/M1a/customers')).status).toBe(404);
    expect((await call(users.owner, 'GET', `/businesses/B3/merchants/M3a/customers/CUS1A1`)).status).toBe(404);
    expect((await call(users.partner, 'GET', `${m3a}/CUS3A1`)).status).toBe(404);
    // M3a is B3's: addressed under B1 it does not exist.
    expect((await call(users.admin, 'GET', '/businesses/B1/merchants/M3a/customers')).status).toBe(404);
    expect((await call(users.finance, 'GET', '/businesses/B2/merchants/M2a/customers')).status).toBe(403);
    // A virtual terminal user reads its merchant's customers but changes none.
    expect((await call(users.merchantOnly, 'GET', '/businesses/B1/merchants/M1b/customers')).status).toBe(200);
    expect((await call(users.merchantOnly, 'POST', '/businesses/B1/merchants/M1b/customers', { reference: 'X', firstName: 'A', lastName: 'B' })).status).toBe(
      403,
    );
    expect((await call(users.readonly, 'DELETE', `${m3a}/CUS3A2`)).status).toBe(403);
    expect((await call(null, 'GET', m3a)).status).toBe(401);
  });

  it('creates, updates with a version and answers 409 on a stale one; every write audited', async () => {
    const created = await call(users.owner, 'POST', m3a, {
      reference: 'C-100',
      firstName: 'Dora',
      lastName: 'Diaz',
      emailAddress: 'dora@example.test',
      billingAddress: { addressLine1: '1 High Street', city: 'York', countryIso3166Alpha2: 'GB', phoneNumber1: '+44 1904 000000', phoneNumber1Type: 'Fixed' },
    });
    expect(created.status).toBe(201);
    const record = customer.assert(await created.json());
    expect(record).toMatchObject({ reference: 'C-100', version: 1, savedCards: 0 });
    expect((await call(users.owner, 'POST', m3a, { reference: 'C-100', firstName: 'Again', lastName: 'Same' })).status).toBe(409);
    const update = { reference: 'C-100', firstName: 'Dora', lastName: 'Diaz-Lopez', version: 1 };
    const updated = await call(users.owner, 'PUT', `${m3a}/${record.customerId}`, update);
    expect(updated.status).toBe(200);
    expect(customer.assert(await updated.json())).toMatchObject({ lastName: 'Diaz-Lopez', version: 2 });
    const stale = await call(users.owner, 'PUT', `${m3a}/${record.customerId}`, update);
    expect(stale.status).toBe(409);
    const events = await database.db.select().from(schema.auditEvents).where(eq(schema.auditEvents.merchantId, 'M3a'));
    expect(events.map((event) => event.event)).toEqual(expect.arrayContaining(['CustomerCreated', 'CustomerUpdated']));
  });

  it.each([
    ['no body type', 'reference'],
    ['a missing last name', { reference: 'C-9', firstName: 'A' }],
    ['an unknown field', { reference: 'C-9', firstName: 'A', lastName: 'B', shoeSize: 9 }],
    ['a bad phone type', { reference: 'C-9', firstName: 'A', lastName: 'B', billingAddress: { phoneNumber1Type: 'Satellite' } }],
    ['a lower-case country', { reference: 'C-9', firstName: 'A', lastName: 'B', billingAddress: { countryIso3166Alpha2: 'gb' } }],
    ['a reference with spaces', { reference: 'C 9', firstName: 'A', lastName: 'B' }],
    ['a bad email', { reference: 'C-9', firstName: 'A', lastName: 'B', emailAddress: 'not-an-email' }],
  ] as [string, unknown][])('refuses %s with a 400 and an errorReport', async (_name, body) => {
    const response = await call(users.owner, 'POST', m3a, body, body === 'reference' ? { 'content-type': 'text/plain' } : {});
    expect(response.status).toBe(400);
    expect((await errors(response)).length).toBeGreaterThan(0);
  });

  it('names each field problem the form also checks, in the generic wording, writing nothing', async () => {
    const before = (await database.db.select().from(schema.customers)).length;
    const tomorrow = new Date(Date.now() + 2 * 86_400_000).toISOString().slice(0, 10);
    const response = await call(users.owner, 'POST', m3a, {
      reference: 'C-200',
      firstName: ' ',
      lastName: 'Zed',
      dateOfBirth: tomorrow,
      billingAddress: { countryIso3166Alpha2: 'XX', city: 'York' },
    });
    expect(response.status).toBe(400);
    expect(await errors(response)).toEqual(['First name is required', 'Date of birth is in the future', 'Country is invalid']);
    const impossible = await call(users.owner, 'POST', m3a, { reference: 'C-200', firstName: 'A', lastName: 'B', dateOfBirth: '1990-02-30' });
    expect(await errors(impossible)).toEqual(['Date of birth is invalid']);
    expect((await database.db.select().from(schema.customers)).length).toBe(before);
  });

  it('erases a saved card with its vault row, audited', async () => {
    const [card] = await database.db.select().from(schema.customerData).where(eq(schema.customerData.id, 'CD3A1CARD'));
    const token = (card!.value as { cardToken: string }).cardToken;
    expect((await database.db.select().from(schema.cardVault).where(eq(schema.cardVault.token, token))).length).toBe(1);
    expect((await call(users.partner, 'DELETE', `${m3a}/CUS3A1/data/CD3A1CARD`)).status).toBe(404);
    expect((await call(users.owner, 'DELETE', `${m3a}/CUS3A1/data/CD3A1CARD`)).status).toBe(204);
    expect((await database.db.select().from(schema.cardVault).where(eq(schema.cardVault.token, token))).length).toBe(0);
    expect((await call(users.owner, 'DELETE', `${m3a}/CUS3A1/data/CD3A1CARD`)).status).toBe(404);
    const [event] = await database.db
      .select()
      .from(schema.auditEvents)
      .where(and(eq(schema.auditEvents.event, 'CustomerDataErased'), eq(schema.auditEvents.merchantId, 'M3a')));
    expect(event?.metaData).toMatchObject({ customerId: 'CUS3A1', dataId: 'CD3A1CARD', kind: 'savedCard', savedCardsErased: 1 });
  });

  it('exports a customer as a JSON file without card numbers or tokens, audited', async () => {
    const response = await call(users.owner, 'GET', `${m3a}/CUS3A1/export`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-disposition')).toBe('attachment; filename="customer-C-001.json"');
    const text = await response.text();
    expect(text).not.toContain('cardToken');
    expect(JSON.parse(text)).toMatchObject({ customer: { reference: 'C-001', emailAddress: 'ada@example.test' }, data: [{ kind: 'consent' }] });
    const exported = await database.db.select().from(schema.auditEvents).where(eq(schema.auditEvents.event, 'CustomerDataExported'));
    expect(exported).toHaveLength(1);
  });

  it('erases a customer with all its data; the audit keeps no name or email', async () => {
    expect((await call(users.finance, 'DELETE', `${m3a}/CUS3A1`)).status).toBe(404);
    expect((await call(users.owner, 'DELETE', `${m3a}/CUS3A1`)).status).toBe(204);
    expect((await call(users.owner, 'GET', `${m3a}/CUS3A1`)).status).toBe(404);
    expect(await database.db.select().from(schema.customerData).where(eq(schema.customerData.customerId, 'CUS3A1'))).toEqual([]);
    const [event] = await database.db.select().from(schema.auditEvents).where(eq(schema.auditEvents.event, 'CustomerErased'));
    expect(event?.metaData).toMatchObject({ customerId: 'CUS3A1', reference: 'C-001', dataItems: 1 });
    expect(JSON.stringify(event?.metaData)).not.toMatch(/Lovelace|ada@/);
  });
});
