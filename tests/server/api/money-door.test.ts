// Every movement of money goes through server/payments/ (docs/architecture.md, "Money moves through one door"), on PGlite
// and PostgreSQL, through the API:
// - a payment job made by the gateway API is written as every change of a job is: its version moves on, its audit
//   event and the live event open panes listen to commit with it;
// - a shopper paying that job on the hosted page moves the job's version on, writes the payment's step, the
//   statistics, the ledger, the audit event and the live event in one commit, paying the job's pending payment when
//   it has one;
// - one demo acquirer: a test card gets the same answer in the virtual terminal and on the shopper page.
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashApiKey } from '../../../server/api/api-keys.ts';
import type { Database } from '../../../server/db/client.ts';
import * as schema from '../../../server/db/schema.ts';
import { createTestApp, createTestDatabase, databaseKinds, fixture, insertFixtureWorld } from '../support.ts';

const { users } = fixture;
const gatewayKey = 'pk_live_door-test-key-valid-0123456789';
const vtBase = '/businesses/B1/merchants/M1b/configurations/C-M1b/virtual-terminal';
const form = (fields: Record<string, string>) => ({
  method: 'POST',
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
  body: new URLSearchParams(fields).toString(),
});
// Expiry years far enough ahead for any date the suite runs on (TEST_CLOCK included).
const shopperCard = (cardNumber: string) => ({ cardholderName: 'Ada Lovelace', cardNumber, expiry: '12/49', cvc: '123', paymentMethod: 'card' });
let orderCounter = 0;
const vtOrder = (cardNumber: string) => ({
  merchantReference: `DOOR-${++orderCounter}`,
  currency: 'GBP',
  billingIdentity: { emailAddress: 'buyer@example.test' },
  billingAddress: { firstName: 'Ada', lastName: 'Buyer', addressLine1: '1 High Street', zipCode: 'LS1 1AA', city: 'Leeds', countryIso3166Alpha2: 'GB' },
  orderLines: [{ type: 'physicalItem', description: 'Teapot', quantity: 1, unitPrice: 20, priceIncludesVat: true, vatPercentage: 20 }],
  card: { cardNumber, expiry: '12/49', cvc: '123', cardholderName: 'Ada Buyer' },
});

describe.each(databaseKinds)('one door for money on %s', (kind) => {
  let database: Database;
  let app: ReturnType<typeof createTestApp>['app'];
  let call: ReturnType<typeof createTestApp>['call'];
  beforeAll(async () => {
    database = await createTestDatabase(kind);
    await insertFixtureWorld(database);
    await database.db.insert(schema.apiKeys).values({
      id: 'KEY0000000000000D01',
      configurationId: 'C-M3a',
      businessId: 'B3',
      merchantId: 'M3a',
      name: 'Shop',
      prefix: gatewayKey.slice(0, 14),
      keyHash: hashApiKey(gatewayKey),
      createdBy: users.owner,
    });
    // The shopper page takes cards for the gateway key's configuration.
    await database.db
      .insert(schema.configurationPaymentMethods)
      .values({ configurationId: 'C-M3a', paymentMethod: 'card', enabled: true, displayName: 'Card', currencies: [] });
    ({ app, call } = createTestApp(database));
  });
  afterAll(async () => database?.close());

  const createGatewayJob = async (merchantReference: string) => {
    const response = await app.request('/api/gateway/payment-jobs', {
      method: 'POST',
      headers: { authorization: `Bearer ${gatewayKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ merchantReference, currency: 'GBP', amount: 42.5, emailAddress: 'web@example.test' }),
    });
    expect(response.status).toBe(201);
    return (await response.json()) as { reference: string; status: string; amount: number; currency: string; merchantReference: string; paymentUrl: string };
  };
  const jobRow = async (reference: string) => (await database.db.select().from(schema.paymentJobs).where(eq(schema.paymentJobs.reference, reference)))[0];
  const salesOfM3a = async () => {
    const [row] = await database.query<{ count: string | number | null; revenue: string | number | null }>(
      `SELECT sum(sales_count) AS count, sum(revenue) AS revenue FROM transaction_stats WHERE merchant_id = 'M3a'`,
    );
    return { count: Number(row?.count ?? 0), revenue: Number(row?.revenue ?? 0) };
  };
  const jobEvents = async (reference: string) =>
    database.db
      .select()
      .from(schema.portalEvents)
      .where(and(eq(schema.portalEvents.kind, 'record'), eq(schema.portalEvents.resource, 'paymentJob'), eq(schema.portalEvents.resourceId, reference)));

  it('writes a gateway job through the door: version moved on, audited, and open panes told', async () => {
    const body = await createGatewayJob('DOOR-GW-1');
    // The answer is what it was.
    expect(body).toMatchObject({ status: 'pending', amount: 42.5, currency: 'GBP', merchantReference: 'DOOR-GW-1' });
    expect(body.paymentUrl).toMatch(new RegExp(`/pay/${body.reference}$`));
    const job = await jobRow(body.reference);
    expect(job).toMatchObject({ status: 'pending', amountMinor: 4250, merchantId: 'M3a', configurationId: 'C-M3a', version: 2 });
    const audits = await database.db.select().from(schema.auditEvents).where(eq(schema.auditEvents.event, 'GatewayPaymentJobCreated'));
    const audit = audits.find((event) => (event.metaData as Record<string, unknown>).paymentJobReference === body.reference);
    expect(audit).toMatchObject({ userId: 'apikey:KEY0000000000000D01', businessId: 'B3', merchantId: 'M3a' });
    expect(audit?.metaData).toMatchObject({
      apiKeyId: 'KEY0000000000000D01',
      configurationId: 'C-M3a',
      amount: 42.5,
      currency: 'GBP',
      merchantReference: 'DOOR-GW-1',
    });
    expect(await jobEvents(body.reference)).toMatchObject([{ businessId: 'B3', merchantId: 'M3a' }]);
  });

  it('pays a gateway job on the shopper page through the door: version, step, statistics, ledger, audit and live event', async () => {
    const { reference } = await createGatewayJob('DOOR-GW-2');
    const versionBefore = (await jobRow(reference))?.version ?? 0;
    const eventsBefore = (await jobEvents(reference)).length;
    const salesBefore = await salesOfM3a();
    const response = await app.request(`/pay/${reference}`, form(shopperCard('4242 4242 4242 4242')));
    expect(response.status).toBe(200);
    expect(await response.text()).toContain('Thank you, your payment was received');
    const job = await jobRow(reference);
    expect(job?.status).toBe('paid');
    expect(job?.version).toBe(versionBefore + 1);
    const [payment, ...others] = await database.db.select().from(schema.transactions).where(eq(schema.transactions.paymentJobReference, reference));
    expect(others).toEqual([]);
    expect(payment).toMatchObject({
      kind: 'payment',
      status: 'paid',
      amountMinor: 4250,
      currency: 'GBP',
      cardMasked: '424242******4242',
      paymentMethod: 'card',
    });
    const steps = await database.db.select().from(schema.paymentSteps).where(eq(schema.paymentSteps.paymentJobReference, reference));
    expect(steps).toMatchObject([{ paymentId: payment?.reference, step: 'authorisedAndCaptured', amountMinor: 4250 }]);
    expect(await salesOfM3a()).toEqual({ count: salesBefore.count + 1, revenue: salesBefore.revenue + 4250 });
    const postings = await database.db
      .select()
      .from(schema.ledgerPostings)
      .where(eq(schema.ledgerPostings.transactionReference, payment?.reference ?? ''));
    expect(postings.length).toBeGreaterThan(0);
    expect((await jobEvents(reference)).length).toBe(eventsBefore + 1);
    const audits = await database.db.select().from(schema.auditEvents).where(eq(schema.auditEvents.event, 'PaymentJobPaidByShopper'));
    expect(audits.filter((event) => (event.metaData as Record<string, unknown>).paymentJobReference === reference)).toMatchObject([
      { userId: 'shopper', metaData: { transactionReference: payment?.reference, amountMinor: 4250, currency: 'GBP', maskedCardNumber: '424242******4242' } },
    ]);
    // The Portal API's detail shows the payment's steps and the job's new version.
    const detail = await call(users.admin, 'GET', `/businesses/B3/merchants/M3a/payment-jobs/${reference}`);
    expect(detail.status).toBe(200);
    const read = (await detail.json()) as { version: number; payments: { steps: { step: string }[] }[] };
    expect(read.version).toBe(versionBefore + 1);
    expect(read.payments[0]?.steps.map((step) => step.step)).toContain('authorisedAndCaptured');
  });

  it("pays the job's pending payment through the door, with the card it was paid with", async () => {
    const { reference } = await createGatewayJob('DOOR-GW-3');
    const [job] = await database.db.select().from(schema.paymentJobs).where(eq(schema.paymentJobs.reference, reference));
    await database.db.insert(schema.transactions).values({
      reference: 'TXDOORPEND1',
      kind: 'payment',
      businessId: 'B3',
      merchantId: 'M3a',
      partnerId: job?.partnerId ?? null,
      configurationId: 'C-M3a',
      paymentJobReference: reference,
      createdAt: job?.createDateTimeUtc ?? new Date(0),
      amountMinor: 4250,
      currency: 'GBP',
      status: 'pending',
      paymentMethod: 'card',
      channel: 'Gateway',
    });
    const versionBefore = job?.version ?? 0;
    expect((await app.request(`/pay/${reference}`, form(shopperCard('5555 5555 5555 4444')))).status).toBe(200);
    const payments = await database.db.select().from(schema.transactions).where(eq(schema.transactions.paymentJobReference, reference));
    expect(payments).toMatchObject([{ reference: 'TXDOORPEND1', status: 'paid', cardMasked: '555555******4444' }]);
    expect(payments[0]?.cardToken).toMatch(/^CV/);
    expect((await jobRow(reference))?.version).toBe(versionBefore + 1);
    const steps = await database.db.select().from(schema.paymentSteps).where(eq(schema.paymentSteps.paymentId, 'TXDOORPEND1'));
    expect(steps.map((step) => step.step)).toEqual(['authorisedAndCaptured']);
  });

  it('decides 4242 4242 4242 4242 the same in the virtual terminal and on the shopper page: approved', async () => {
    const vt = await call(users.merchantOnly, 'POST', `${vtBase}/orders`, vtOrder('4242 4242 4242 4242'));
    expect(vt.status).toBe(201);
    expect(await vt.json()).toMatchObject({ result: 'paid', declineReason: null, maskedCardNumber: '424242******4242' });
    const { reference } = await createGatewayJob('DOOR-GW-4');
    expect((await app.request(`/pay/${reference}`, form(shopperCard('4242424242424242')))).status).toBe(200);
    expect((await jobRow(reference))?.status).toBe('paid');
  });

  it('declines a declining test card with the same reason in the virtual terminal and on the shopper page', async () => {
    const vt = await call(users.merchantOnly, 'POST', `${vtBase}/orders`, vtOrder('4000 0000 0000 9995'));
    expect(vt.status).toBe(201);
    expect(await vt.json()).toMatchObject({ result: 'declined', declineReason: 'Insufficient funds' });
    const { reference } = await createGatewayJob('DOOR-GW-5');
    const page = await app.request(`/pay/${reference}`, form(shopperCard('4000 0000 0000 9995')));
    expect(page.status).toBe(400);
    expect(await page.text()).toContain('The card was declined: Insufficient funds.');
    // A declined card on the shopper page writes nothing: the shopper may try another.
    expect(await database.db.select().from(schema.transactions).where(eq(schema.transactions.paymentJobReference, reference))).toEqual([]);
    expect((await jobRow(reference))?.status).toBe('pending');
  });
});
