// The virtual terminal on PGlite and PostgreSQL: orders allowed, forbidden, cross-tenant 404, malformed,
// switched off; paid and declined test cards through the one door for money (job, payment row, statistics, audit);
// a reference used again within 24 hours asks first; saved cards and their limit; Idempotency-Key; confirmation
// emails; settings with the configuration's version (stale → 409); the gateway API with a valid, revoked and unknown
// API key. No answer or table holds a full card number.
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashApiKey } from '../../../server/api/api-keys.ts';
import type { Database } from '../../../server/db/client.ts';
import * as schema from '../../../server/db/schema.ts';
import { savedCardList, virtualTerminalOrderAnswer, virtualTerminalSettingsAnswer } from '../../../src/contract/virtual-terminal-schemas.ts';
import { savedCardLimitMessage, emailRequiredMessage, unknownCardDeclineReason } from '../../../src/contract/virtual-terminal.ts';
import { vaultCard } from '../../../server/cards/card-vault.ts';
import { createTestApp, createTestDatabase, databaseKinds, fixture, insertFixtureWorld, testCardKeys, tokenFor } from '../support.ts';

const { users } = fixture;
const vtBase = '/businesses/B1/merchants/M1b/configurations/C-M1b/virtual-terminal';
const ownerBase = '/businesses/B3/merchants/M3a/configurations/C-M3a/virtual-terminal';
const gatewayKey = 'pk_live_vt-test-key-valid-0123456789';
const revokedKey = 'pk_live_vt-test-key-revoked-0123456789';
const fullNumbers = [
  '4111111111111111',
  '5555555555554444',
  '4000000000009995',
  '4000000000003220',
  '4242424242424242',
  '2223003122003222',
  '2223003100000018',
];

async function insertVirtualTerminalFixtures(database: Database): Promise<void> {
  const { db } = database;
  await db.insert(schema.customers).values([
    { id: 'CUS1B1', businessId: 'B1', merchantId: 'M1b', reference: 'VT-001', firstName: 'Vera', lastName: 'Telford', emailAddress: 'vera@example.test' },
    { id: 'CUS3A9', businessId: 'B3', merchantId: 'M3a', reference: 'VT-901', firstName: 'Otto', lastName: 'Owner' },
  ]);
  await db.insert(schema.apiKeys).values([
    {
      id: 'KEY00000000000000A1',
      configurationId: 'C-M3a',
      businessId: 'B3',
      merchantId: 'M3a',
      name: 'Shop',
      prefix: gatewayKey.slice(0, 14),
      keyHash: hashApiKey(gatewayKey),
      createdBy: users.owner,
    },
    {
      id: 'KEY00000000000000A2',
      configurationId: 'C-M3a',
      businessId: 'B3',
      merchantId: 'M3a',
      name: 'Old',
      prefix: revokedKey.slice(0, 14),
      keyHash: hashApiKey(revokedKey),
      createdBy: users.owner,
      revokedAt: new Date('2026-01-01'),
    },
  ]);
}

let counter = 0;
const order = (overrides: Record<string, unknown> = {}) => ({
  merchantReference: `ORDER-${++counter}-${Date.now()}`,
  currency: 'GBP',
  billingIdentity: { emailAddress: 'buyer@example.test', dateOfBirth: '1984-02-29' },
  billingAddress: {
    title: 'Ms.',
    firstName: 'Ada',
    lastName: 'Buyer',
    addressLine1: '1 High Street',
    zipCode: 'LS1 1AA',
    city: 'Leeds',
    countryIso3166Alpha2: 'GB',
    phoneNumber1: '+44 7700 900123',
    phoneNumber1Type: 'Mobile',
  },
  orderLines: [
    { type: 'physicalItem', description: 'Teapot', quantity: 2, unitPrice: 12.5, priceIncludesVat: true, vatPercentage: 20 },
    { type: 'shippingCost', description: 'Delivery', quantity: 1, unitPrice: 3.99, priceIncludesVat: true, vatPercentage: 20 },
  ],
  card: { cardNumber: '4111 1111 1111 1111', expiry: '12/30', cvc: '123', cardholderName: 'Ada Buyer' },
  ...overrides,
});

describe.each(databaseKinds)('virtual terminal on %s', (kind) => {
  let database: Database;
  let app: ReturnType<typeof createTestApp>['app'];
  let call: ReturnType<typeof createTestApp>['call'];
  const answers: string[] = [];
  beforeAll(async () => {
    database = await createTestDatabase(kind);
    await insertFixtureWorld(database);
    await insertVirtualTerminalFixtures(database);
    ({ app, call } = createTestApp(database));
  });
  afterAll(async () => database?.close());

  const json = async (response: Response) => {
    const text = await response.text();
    answers.push(text);
    return JSON.parse(text) as Record<string, unknown> & { errorReport?: { errors: { message: string; translatedMessage: string }[] } };
  };
  const messages = (body: Awaited<ReturnType<typeof json>>) => body.errorReport?.errors.map((error) => error.message) ?? [];
  const post = (user: string, base: string, body: unknown, headers: Record<string, string> = {}) => call(user, 'POST', `${base}/orders`, body, headers);

  it('takes a paid order for vt@: job, payment row, statistics and audit in one commit, no full card number anywhere', async () => {
    const before = await database.query<{ revenue: string | null }>(`SELECT sum(revenue) AS revenue FROM transaction_stats WHERE merchant_id = 'M1b'`);
    const response = await post(users.merchantOnly, vtBase, order({ merchantReference: 'PHONE-0001' }));
    expect(response.status).toBe(201);
    const body = await json(response);
    expect(virtualTerminalOrderAnswer.allows(body)).toBe(true);
    expect(body).toMatchObject({ result: 'paid', declineReason: null, amount: 28.99, currency: 'GBP', maskedCardNumber: '411111******1111' });
    const [job] = await database.db
      .select()
      .from(schema.paymentJobs)
      .where(eq(schema.paymentJobs.reference, String(body.paymentJobReference)));
    expect(job).toMatchObject({ status: 'paid', amountMinor: 2899, orderNumber: 'PHONE-0001', merchantId: 'M1b', configurationId: 'C-M1b', partnerId: 'P1' });
    const [payment] = await database.db
      .select()
      .from(schema.transactions)
      .where(eq(schema.transactions.reference, String(body.transactionReference)));
    expect(payment).toMatchObject({ status: 'paid', amountMinor: 2899, cardMasked: '411111******1111', paymentJobReference: job?.reference });
    expect(payment?.cardToken).toMatch(/^CV/);
    const after = await database.query<{ revenue: string | null }>(`SELECT sum(revenue) AS revenue FROM transaction_stats WHERE merchant_id = 'M1b'`);
    expect(Number(after[0]?.revenue ?? 0) - Number(before[0]?.revenue ?? 0)).toBe(2899);
    const audits = await database.db.select().from(schema.auditEvents).where(eq(schema.auditEvents.event, 'VirtualTerminalOrderSuccessful'));
    expect(
      audits.some((event) => (event.metaData as Record<string, unknown>).paymentJobReference === job?.reference && event.userId === users.merchantOnly),
    ).toBe(true);
    // VAT adds up: the detail's totals are the sum of its lines.
    const lines = (job!.order as { orderLines: { unitPriceInclVat: number; unitPriceExclVat: number; quantity: number }[] }).orderLines;
    expect(lines.reduce((sum, line) => sum + line.unitPriceInclVat * line.quantity, 0)).toBe(2899);
    expect(lines[0]).toMatchObject({ unitPriceInclVat: 1250, unitPriceExclVat: 1042 });
    // vt@ opens the job it made (the result panel links to it) and sees it in its merchant's overview.
    const detail = await call(users.merchantOnly, 'GET', `/businesses/B1/merchants/M1b/payment-jobs/${String(body.paymentJobReference)}`);
    expect(detail.status).toBe(200);
    expect(await json(detail)).toMatchObject({ reference: body.paymentJobReference, orderNumber: 'PHONE-0001' });
  });

  it('declines the published declining cards with their reason and records the failed payment', async () => {
    const insufficient = await json(
      await post(users.merchantOnly, vtBase, order({ card: { cardNumber: '4000 0000 0000 9995', expiry: '12/30', cvc: '123', cardholderName: 'A B' } })),
    );
    expect(insufficient).toMatchObject({ result: 'declined', declineReason: 'Insufficient funds' });
    const [job] = await database.db
      .select()
      .from(schema.paymentJobs)
      .where(eq(schema.paymentJobs.reference, String(insufficient.paymentJobReference)));
    expect(job?.status).toBe('declined');
    const [payment] = await database.db
      .select()
      .from(schema.transactions)
      .where(eq(schema.transactions.reference, String(insufficient.transactionReference)));
    expect(payment).toMatchObject({ status: 'declined', declineReason: 'Insufficient funds' });
    const failed = await database.db.select().from(schema.auditEvents).where(eq(schema.auditEvents.event, 'VirtualTerminalOrderFailed'));
    expect(failed.some((event) => (event.metaData as Record<string, unknown>).paymentJobReference === job?.reference)).toBe(true);
    const threeDs = await json(
      await post(users.merchantOnly, vtBase, order({ card: { cardNumber: '4000000000003220', expiry: '12/30', cvc: '123', cardholderName: 'A B' } })),
    );
    expect(threeDs.result).toBe('declined');
    expect(String(threeDs.declineReason)).toMatch(/3-D Secure/);
    // Any other valid number is not the demo acquirer's, but for the 2-series test range 2223 00 it approves.
    const unknown = await json(
      await post(users.merchantOnly, vtBase, order({ card: { cardNumber: '4000 0000 0000 0044', expiry: '12/30', cvc: '123', cardholderName: 'A B' } })),
    );
    expect(unknown).toMatchObject({ result: 'declined', declineReason: unknownCardDeclineReason });
    const twoSeries = await json(
      await post(users.merchantOnly, vtBase, order({ card: { cardNumber: '2223 0031 2200 3222', expiry: '12/30', cvc: '123', cardholderName: 'A B' } })),
    );
    expect(twoSeries).toMatchObject({ result: 'paid', declineReason: null, maskedCardNumber: '222300******3222' });
  });

  it('asks before charging a merchant reference again within 24 hours', async () => {
    const first = await post(users.merchantOnly, vtBase, order({ merchantReference: 'DUP-1' }));
    expect(first.status).toBe(201);
    const firstBody = await json(first);
    const again = await post(users.merchantOnly, vtBase, order({ merchantReference: 'DUP-1' }));
    expect(again.status).toBe(409);
    const againBody = await json(again);
    expect(againBody.duplicateOf).toBe(firstBody.paymentJobReference);
    expect(messages(againBody)[0]).toMatch(/DUP-1.*Confirm to charge again/);
    const jobs = await database.db
      .select()
      .from(schema.paymentJobs)
      .where(and(eq(schema.paymentJobs.merchantId, 'M1b'), eq(schema.paymentJobs.orderNumber, 'DUP-1')));
    expect(jobs).toHaveLength(1);
    const confirmed = await post(users.merchantOnly, vtBase, order({ merchantReference: 'DUP-1', confirmDuplicate: true }));
    expect(confirmed.status).toBe(201);
    // Another merchant may use the same reference.
    expect((await post(users.owner, ownerBase, order({ merchantReference: 'DUP-1' }))).status).toBe(201);
  });

  it('asks before charging a reference that differs only in case or surrounding space', async () => {
    const first = await post(users.merchantOnly, vtBase, order({ merchantReference: 'SEC-VT-1' }));
    expect(first.status).toBe(201);
    const firstBody = await json(first);
    for (const variant of ['sec-vt-1', '  Sec-Vt-1  ']) {
      const again = await post(users.merchantOnly, vtBase, order({ merchantReference: variant }));
      expect(again.status, variant).toBe(409);
      expect((await json(again)).duplicateOf).toBe(firstBody.paymentJobReference);
    }
    const charged = await database.db
      .select()
      .from(schema.transactions)
      .where(and(eq(schema.transactions.merchantId, 'M1b'), eq(schema.transactions.paymentJobReference, String(firstBody.paymentJobReference))));
    expect(charged).toHaveLength(1);
    const jobs = await database.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM payment_jobs WHERE merchant_id = 'M1b' AND lower(order_number) = 'sec-vt-1'`,
    );
    expect(jobs[0]?.n).toBe(1);
  });

  it('never echoes a card number, security code or expiry in a validation message, even a wrong one', async () => {
    const card = { cardNumber: '4111 1111 1111 1111', expiry: '12/30', cvc: '123', cardholderName: 'A B' };
    const cases: { body: unknown; names: RegExp; secrets: string[] }[] = [
      { body: order({ card: { ...card, cardNumber: '2223009876543214x' } }), names: /card\.cardNumber/, secrets: ['2223009876543214', '222300987654'] },
      { body: order({ card: { ...card, cardNumber: '2223 0098 7654 3214 9999 9' } }), names: /card\.cardNumber/, secrets: ['2223 0098 7654 3214', '9999 9'] },
      { body: order({ card: { ...card, cvc: '98x7' } }), names: /card\.cvc/, secrets: ['98x7'] },
      { body: order({ card: { ...card, expiry: '1x/3x' } }), names: /card\.expiry/, secrets: ['1x/3x'] },
      // A card number in a field of any other name, or as an unexpected key, is not echoed either.
      { body: order({ merchantReference: '\u00012223009876543214' }), names: /merchantReference/, secrets: ['2223009876543214', '222300987654'] },
      { body: order({ card: { ...card, 2223009876543214: 'x' } }), names: /card/, secrets: ['2223009876543214', '222300987654'] },
    ];
    for (const { body, names, secrets } of cases) {
      const response = await post(users.merchantOnly, vtBase, body);
      expect(response.status).toBe(400);
      const text = await response.text();
      const answer = JSON.parse(text) as { errorReport: { errors: { message: string; translatedMessage: string }[] } };
      expect(answer.errorReport.errors.map((error) => error.message).join(' ')).toMatch(names);
      for (const secret of secrets) expect(text, `${text} echoes ${secret}`).not.toContain(secret);
    }
    // The same through the gateway base, which the virtual terminal's screen uses.
    const viaGateway = await app.request(`/api/gateway${vtBase}/orders`, {
      method: 'POST',
      headers: { authorization: `Bearer ${tokenFor(users.merchantOnly)}`, 'content-type': 'application/json' },
      body: JSON.stringify(order({ card: { ...card, cardNumber: '2223009876543214x' } })),
    });
    expect(viaGateway.status).toBe(400);
    expect(await viaGateway.text()).not.toContain('222300987654');
  });

  it('refuses callers without Portal.Moto.Create (403) and other tenants (404)', async () => {
    expect((await post(users.readonly, vtBase, order())).status).toBe(403);
    expect((await post(users.nobody, vtBase, order())).status).toBe(404);
    expect((await post(users.merchantOnly, ownerBase, order())).status).toBe(404);
    expect((await post(users.owner, vtBase, order())).status).toBe(404);
    // a configuration of another merchant under a reachable merchant path
    expect((await post(users.owner, '/businesses/B3/merchants/M3a/configurations/C-M1b/virtual-terminal', order())).status).toBe(404);
    // the vt user's merchant, another merchant of the same business
    expect((await post(users.merchantOnly, '/businesses/B1/merchants/M1a/configurations/C-M1a/virtual-terminal', order())).status).toBe(404);
    expect((await call(users.readonly, 'GET', `${vtBase}/settings`)).status).toBe(200);
    expect(
      (
        await call(users.merchantOnly, 'PUT', `${vtBase}/settings`, {
          defaultCurrency: null,
          orderConfirmationEmails: false,
          savedCardsAllowed: true,
          savedCardLimit: 5,
          defaultOrderLineType: 'physicalItem',
          askShippingAddress: true,
          version: 1,
        })
      ).status,
    ).toBe(403);
    expect((await call(null, 'POST', `${vtBase}/orders`, order())).status).toBe(401);
  });

  it('refuses orders when the configuration switches the virtual terminal off', async () => {
    const response = await post(users.owner, '/businesses/B3/merchants/M3b/configurations/C-M3b/virtual-terminal', order({ currency: 'JPY' }));
    expect(response.status).toBe(403);
    expect(messages(await json(response))[0]).toMatch(/switched off/);
  });

  it('answers malformed and invalid orders with 400 and a message, writing nothing', async () => {
    const count = async () => (await database.db.select().from(schema.paymentJobs)).length;
    const jobsBefore = await count();
    const cases: [unknown, RegExp][] = [
      [order({ orderLines: [] }), /orderLines/],
      [order({ merchantReference: 'x'.repeat(81) }), /merchantReference/],
      [order({ card: { cardNumber: '4111 1111 1111 1112', expiry: '12/30', cvc: '123', cardholderName: 'A B' } }), /Card number is invalid/],
      [order({ card: { cardNumber: '4111111111111111', expiry: '01/20', cvc: '123', cardholderName: 'A B' } }), /expired/],
      [order({ card: { cardNumber: '4111111111111111', expiry: '12/30', cvc: '12', cardholderName: 'A B' } }), /cvc/],
      [order({ currency: 'USD' }), /does not offer USD/],
      [order({ billingIdentity: { emailAddress: 'not-an-email' } }), /valid email/],
      [order({ billingIdentity: { dateOfBirth: '1985-02-29' } }), /not a real date/],
      [order({ billingAddress: { title: 'Sir', lastName: 'X', countryIso3166Alpha2: 'GB' } }), /title/],
      [order({ billingAddress: { lastName: 'X', countryIso3166Alpha2: 'GB', phoneNumber1Type: 'Satellite' } }), /phoneNumber1Type/],
      [
        order({ orderLines: [{ type: 'physicalItem', description: 'Pen', quantity: 1, unitPrice: 1.005, priceIncludesVat: true, vatPercentage: 20 }] }),
        /decimals/,
      ],
      // Below one minor unit: never rounded away to a free line.
      [
        order({
          orderLines: [
            { type: 'physicalItem', description: 'Pen', quantity: 1, unitPrice: 2, priceIncludesVat: true, vatPercentage: 20 },
            { type: 'physicalItem', description: 'Dust', quantity: 1, unitPrice: 1e-9, priceIncludesVat: true, vatPercentage: 20 },
          ],
        }),
        /Line 2: the unit price has more decimals/,
      ],
      [
        order({ orderLines: [{ type: 'physicalItem', description: 'Pen', quantity: 1.5, unitPrice: 1, priceIncludesVat: true, vatPercentage: 20 }] }),
        /quantity/,
      ],
      [
        order({ orderLines: [{ type: 'discount', description: 'All of it', quantity: 1, unitPrice: 10, priceIncludesVat: true, vatPercentage: 0 }] }),
        /more than zero/,
      ],
      [order({ card: null }), /card/],
      [order({ surprise: true }), /surprise/],
      // Saving a new customer's card stores the customer: they need a last name or an organisation.
      [order({ saveCard: true, billingAddress: { firstName: 'Ada', countryIso3166Alpha2: 'GB' } }), /last name or organisation/],
    ];
    for (const [body, pattern] of cases) {
      const response = await post(users.merchantOnly, vtBase, body);
      expect(response.status, JSON.stringify(body).slice(0, 200)).toBe(400);
      const answer = await json(response);
      expect(answer.errorReport?.errors[0]?.translatedMessage).toBeTruthy();
      expect(messages(answer).join(' ')).toMatch(pattern);
    }
    expect((await post(users.merchantOnly, vtBase, '{not json', { 'content-type': 'application/json' })).status).toBe(400);
    expect(await count()).toBe(jobsBefore);
  });

  it('answers the same Idempotency-Key with the first answer and charges once; another body is a 422', async () => {
    const body = order({ merchantReference: 'IDEM-1' });
    const first = await json(await post(users.merchantOnly, vtBase, body, { 'idempotency-key': 'vt-idem-1' }));
    const second = await json(await post(users.merchantOnly, vtBase, body, { 'idempotency-key': 'vt-idem-1' }));
    expect(second).toEqual(first);
    const jobs = await database.db.select().from(schema.paymentJobs).where(eq(schema.paymentJobs.orderNumber, 'IDEM-1'));
    expect(jobs).toHaveLength(1);
    expect((await post(users.merchantOnly, vtBase, order({ merchantReference: 'IDEM-2' }), { 'idempotency-key': 'vt-idem-1' })).status).toBe(422);
    expect((await post(users.merchantOnly, vtBase, body, { 'idempotency-key': 'has space' })).status).toBe(400);
  });

  it('keeps settings with the configuration version: stale is a 409, the default currency must be offered', async () => {
    const settings = await json(await call(users.owner, 'GET', `${ownerBase}/settings`));
    expect(virtualTerminalSettingsAnswer.allows(settings)).toBe(true);
    expect(settings).toMatchObject({ currencies: ['GBP'], savedCardLimit: 5, orderConfirmationEmails: false, virtualTerminalMenuEnabled: true });
    expect(await json(await call(users.owner, 'GET', '/businesses/B3/merchants/M3b/configurations/C-M3b/virtual-terminal/settings'))).toMatchObject({
      virtualTerminalMenuEnabled: false,
      currencies: ['JPY'],
    });
    const change = {
      defaultCurrency: 'GBP',
      orderConfirmationEmails: false,
      savedCardsAllowed: true,
      savedCardLimit: 1,
      defaultOrderLineType: 'digitalItem',
      askShippingAddress: false,
      version: settings.version,
    };
    const saved = await call(users.owner, 'PUT', `${ownerBase}/settings`, change);
    expect(saved.status).toBe(200);
    expect(await json(saved)).toMatchObject({ savedCardLimit: 1, defaultOrderLineType: 'digitalItem', version: Number(settings.version) + 1 });
    const stale = await call(users.owner, 'PUT', `${ownerBase}/settings`, { ...change, savedCardLimit: 3 });
    expect(stale.status).toBe(409);
    expect(messages(await json(stale))).toEqual(['Someone updated this view']);
    expect((await call(users.owner, 'PUT', `${ownerBase}/settings`, { ...change, defaultCurrency: 'USD', version: Number(settings.version) + 1 })).status).toBe(
      400,
    );
    expect((await call(users.owner, 'PUT', `${ownerBase}/settings`, { ...change, savedCardLimit: 0, version: Number(settings.version) + 1 })).status).toBe(400);
    const [row] = await database.db.select().from(schema.virtualTerminalSettings).where(eq(schema.virtualTerminalSettings.configurationId, 'C-M3a'));
    expect(row?.savedCardLimit).toBe(1);
  });

  it('saves a card for a customer within the limit, pays with it, and deletes it', async () => {
    // limit is 1 (previous test)
    const first = await json(await post(users.owner, ownerBase, order({ customerId: 'CUS3A9', saveCard: true })));
    expect(first).toMatchObject({ result: 'paid' });
    expect(first.savedCardId).toMatch(/^SC/);
    const list = await json(await call(users.owner, 'GET', `${ownerBase}/customers/CUS3A9/saved-cards`));
    expect(savedCardList.allows(list)).toBe(true);
    expect(list).toMatchObject({
      savedCardLimit: 1,
      results: [{ maskedCardNumber: '411111******1111', expiryMonth: 12, expiryYear: 2030, cardholderName: 'Ada Buyer' }],
    });
    const full = await post(
      users.owner,
      ownerBase,
      order({ customerId: 'CUS3A9', saveCard: true, card: { cardNumber: '5555 5555 5555 4444', expiry: '11/29', cvc: '321', cardholderName: 'Otto' } }),
    );
    expect(full.status).toBe(400);
    expect(messages(await json(full))).toEqual([savedCardLimitMessage]);
    const withSaved = await json(await post(users.owner, ownerBase, order({ customerId: 'CUS3A9', card: null, savedCardId: first.savedCardId })));
    expect(withSaved).toMatchObject({ result: 'paid', maskedCardNumber: '411111******1111' });
    // A saved card of this customer only; through another merchant it does not exist.
    expect((await post(users.owner, ownerBase, order({ customerId: 'CUS3A9', card: null, savedCardId: 'SCNOPE' }))).status).toBe(404);
    expect((await call(users.merchantOnly, 'GET', `${vtBase}/customers/CUS3A9/saved-cards`)).status).toBe(404);
    expect((await call(users.owner, 'DELETE', `${ownerBase}/customers/CUS3A9/saved-cards/${String(first.savedCardId)}`)).status).toBe(204);
    expect(await json(await call(users.owner, 'GET', `${ownerBase}/customers/CUS3A9/saved-cards`))).toMatchObject({ results: [] });
    const deleted = await database.db.select().from(schema.auditEvents).where(eq(schema.auditEvents.event, 'SavedCardDeleted'));
    expect(deleted).toHaveLength(1);
  });

  it('stores a new customer with the card when saving a card without a chosen customer, and the next order pays with it', async () => {
    const before = await database.db.select().from(schema.customers).where(eq(schema.customers.merchantId, 'M3a'));
    const first = await json(await post(users.owner, ownerBase, order({ merchantReference: 'NEWCUST-1', saveCard: true })));
    expect(first).toMatchObject({ result: 'paid', customerCreated: true });
    expect(first.savedCardId).toMatch(/^SC/);
    const after = await database.db.select().from(schema.customers).where(eq(schema.customers.merchantId, 'M3a'));
    expect(after).toHaveLength(before.length + 1);
    const stored = after.find((row) => row.id === first.customerId);
    expect(stored).toMatchObject({ businessId: 'B3', firstName: 'Ada', lastName: 'Buyer', emailAddress: 'buyer@example.test', dateOfBirth: '1984-02-29' });
    expect(stored?.billingAddress).toMatchObject({ city: 'Leeds', zipCode: 'LS1 1AA' });
    const [audit] = await database.db
      .select()
      .from(schema.auditEvents)
      .where(sql`${schema.auditEvents.event} = 'CustomerCreated' AND ${schema.auditEvents.metaData}->>'customerId' = ${String(first.customerId)}`);
    expect(audit).toMatchObject({ userId: users.owner, merchantId: 'M3a' });
    // The job remembers its customer; the second order is for the stored customer, with the saved card.
    const [job] = await database.db
      .select()
      .from(schema.paymentJobs)
      .where(eq(schema.paymentJobs.reference, String(first.paymentJobReference)));
    expect((job!.order as { customerId?: string }).customerId).toBe(first.customerId);
    const second = await json(
      await post(users.owner, ownerBase, order({ merchantReference: 'NEWCUST-2', customerId: first.customerId, card: null, savedCardId: first.savedCardId })),
    );
    expect(second).toMatchObject({ result: 'paid', maskedCardNumber: '411111******1111', customerId: first.customerId, customerCreated: false });
    // A declined card stores nobody; a customer without a last name or organisation cannot be stored.
    const declined = await json(
      await post(
        users.owner,
        ownerBase,
        order({
          merchantReference: 'NEWCUST-3',
          saveCard: true,
          card: { cardNumber: '4000 0000 0000 9995', expiry: '12/30', cvc: '123', cardholderName: 'Ada Buyer' },
        }),
      ),
    );
    expect(declined).toMatchObject({ result: 'declined', customerCreated: false, customerId: null });
    expect(await database.db.select().from(schema.customers).where(eq(schema.customers.merchantId, 'M3a'))).toHaveLength(before.length + 1);
  });

  it('pays with a saved card of the 2-series test range as the seed stores them (recognised by its masked number, the vault unopened)', async () => {
    // As server/seed/seed-risk.ts saves a customer's card: sealed in the vault, the customer's row holding the token.
    const cardToken = await vaultCard(database.db, testCardKeys, { merchantId: 'M3a', cardNumber: '2223003100000018' });
    await database.db.insert(schema.customerData).values({
      id: 'SCRANGE0001',
      customerId: 'CUS3A9',
      merchantId: 'M3a',
      kind: 'savedCard',
      createdUtc: new Date(),
      value: { cardToken, maskedCardNumber: '222300******0018', expiryMonth: 9, expiryYear: 2031, cardholderName: 'Seeded Card' },
    });
    const paid = await json(await post(users.owner, ownerBase, order({ customerId: 'CUS3A9', card: null, savedCardId: 'SCRANGE0001' })));
    expect(paid).toMatchObject({ result: 'paid', declineReason: null, maskedCardNumber: '222300******0018' });
    expect((await call(users.owner, 'DELETE', `${ownerBase}/customers/CUS3A9/saved-cards/SCRANGE0001`)).status).toBe(204);
  });

  it('with confirmation emails on, needs a valid email and queues the confirmation', async () => {
    const settings = await json(await call(users.owner, 'GET', `${ownerBase}/settings`));
    expect(
      (
        await call(users.owner, 'PUT', `${ownerBase}/settings`, {
          defaultCurrency: null,
          orderConfirmationEmails: true,
          savedCardsAllowed: true,
          savedCardLimit: 5,
          defaultOrderLineType: 'physicalItem',
          askShippingAddress: true,
          version: settings.version,
        })
      ).status,
    ).toBe(200);
    const missing = await post(users.owner, ownerBase, order({ billingIdentity: { emailAddress: null } }));
    expect(missing.status).toBe(400);
    expect(messages(await json(missing))).toEqual([emailRequiredMessage]);
    const paid = await json(
      await post(users.owner, ownerBase, order({ merchantReference: 'MAIL-1', billingIdentity: { emailAddress: 'confirm@example.test' } })),
    );
    expect(paid).toMatchObject({ result: 'paid', confirmationEmailQueued: true });
    const mails = await database.db.select().from(schema.outboundEmails).where(eq(schema.outboundEmails.recipient, 'confirm@example.test'));
    expect(mails).toHaveLength(1);
    const [configuration] = await database.db.select().from(schema.configurations).where(eq(schema.configurations.id, 'C-M3a'));
    const trade = configuration?.tradeName ?? 'missing';
    // From the merchant, by its trade name; the order with its VAT (2 × £12.50 and £3.99, all at 20 %).
    expect(mails[0]).toMatchObject({ subject: `${trade}: order confirmation MAIL-1`, senderName: trade });
    expect(mails[0]?.text).toContain('2 × Teapot: £25.00');
    expect(mails[0]?.text).toContain('Total excl. VAT: £24.17');
    expect(mails[0]?.text).toContain('VAT 20%: £4.82');
    expect(mails[0]?.text).toContain('Total: £28.99');
    for (const number of fullNumbers) expect(mails[0]?.html.includes(number) || mails[0]?.text.includes(number)).toBe(false);
  });

  it('sends a payment link instead: an open job with its validity, no payment, the link emailed, audited', async () => {
    const refused = await post(users.merchantOnly, vtBase, order({ paymentLink: { validityHours: 48 } }));
    expect(refused.status).toBe(400);
    expect(messages(await json(refused)).join(' ')).toMatch(/carries no card/);
    expect((await post(users.merchantOnly, vtBase, order({ card: null, paymentLink: { validityHours: 721 } }))).status).toBe(400);
    expect(
      (await post(users.merchantOnly, vtBase, order({ card: null, billingIdentity: { emailAddress: null }, paymentLink: { validityHours: 48 } }))).status,
    ).toBe(400);
    const response = await post(
      users.merchantOnly,
      vtBase,
      order({ merchantReference: 'LINK-1', card: null, billingIdentity: { emailAddress: 'link@example.test' }, paymentLink: { validityHours: 48 } }),
    );
    expect(response.status).toBe(201);
    const body = await json(response);
    expect(body).toMatchObject({ result: 'linkSent', transactionReference: null, amount: 28.99, maskedCardNumber: null });
    const [job] = await database.db
      .select()
      .from(schema.paymentJobs)
      .where(eq(schema.paymentJobs.reference, String(body.paymentJobReference)));
    expect(job?.status).toBe('pending');
    expect(Math.round(((job?.expirationDateTimeUtc?.getTime() ?? 0) - (job?.createDateTimeUtc.getTime() ?? 0)) / 3_600_000)).toBe(48);
    expect(
      await database.db
        .select()
        .from(schema.transactions)
        .where(eq(schema.transactions.paymentJobReference, String(body.paymentJobReference))),
    ).toHaveLength(0);
    const [mail] = await database.db.select().from(schema.outboundEmails).where(eq(schema.outboundEmails.recipient, 'link@example.test'));
    expect(mail?.text).toContain(`/pay/${String(body.paymentJobReference)}`);
    const [configuration] = await database.db.select().from(schema.configurations).where(eq(schema.configurations.id, 'C-M1b'));
    expect(mail?.subject).toBe(`${configuration?.tradeName}: payment request of £28.99 for order LINK-1`);
    expect(mail?.text).toContain('Total: £28.99');
    const audits = await database.db.select().from(schema.auditEvents).where(eq(schema.auditEvents.event, 'VirtualTerminalOrderSuccessful'));
    expect(audits.some((event) => (event.metaData as Record<string, unknown>).outcome === 'paymentLinkSent')).toBe(true);
  });

  describe('gateway API', () => {
    const gateway = (key: string | null, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
      app.request(`/api/gateway${path}`, {
        method,
        headers: { ...(key ? { authorization: `Bearer ${key}` } : {}), ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
        body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
      });
    const job = { merchantReference: 'WEB-1', currency: 'GBP', amount: 25, emailAddress: 'web@example.test' };

    it('creates and reads a payment job with a valid key, idempotently', async () => {
      const created = await gateway(gatewayKey, 'POST', '/payment-jobs', job, { 'idempotency-key': 'gw-1' });
      expect(created.status).toBe(201);
      const body = await json(created);
      expect(body).toMatchObject({ status: 'pending', amount: 25, currency: 'GBP', merchantReference: 'WEB-1' });
      expect(String(body.paymentUrl)).toMatch(/\/pay\/PJ/);
      expect(await json(await gateway(gatewayKey, 'POST', '/payment-jobs', job, { 'idempotency-key': 'gw-1' }))).toEqual(body);
      const [row] = await database.db
        .select()
        .from(schema.paymentJobs)
        .where(eq(schema.paymentJobs.reference, String(body.reference)));
      expect(row).toMatchObject({ merchantId: 'M3a', configurationId: 'C-M3a', amountMinor: 2500, status: 'pending' });
      const read = await gateway(gatewayKey, 'GET', `/payment-jobs/${String(body.reference)}`);
      expect(read.status).toBe(200);
      expect(await json(read)).toMatchObject({ reference: body.reference, status: 'pending', payments: [] });
    });

    it("refuses a revoked, unknown or missing key (401) and another configuration's job (404)", async () => {
      for (const key of [revokedKey, 'pk_live_unknown-key-000000000000', 'not-a-key', null]) {
        const response = await gateway(key, 'POST', '/payment-jobs', job);
        expect(response.status).toBe(401);
        const body = await json(response);
        expect(body.errorReport?.errors[0]?.translatedMessage).toBeTruthy();
      }
      expect((await gateway(revokedKey, 'GET', '/payment-jobs/PJ3A0001')).status).toBe(401);
      expect((await gateway(gatewayKey, 'GET', '/payment-jobs/PJ1A0001')).status).toBe(404);
      expect((await gateway(gatewayKey, 'GET', '/payment-jobs/..%2F')).status).toBe(404);
    });

    it("takes the virtual terminal's orders and saved cards under the gateway base, signed in as for the Portal API", async () => {
      const signedIn = (user: string | null, method: string, path: string, body?: unknown) => gateway(user ? `user.${user}` : null, method, path, body);
      const created = await signedIn(users.merchantOnly, 'POST', `${vtBase}/orders`, order({ merchantReference: 'GATEWAY-VT-1' }));
      expect(created.status).toBe(201);
      const body = await json(created);
      expect(body).toMatchObject({ result: 'paid', maskedCardNumber: '411111******1111' });
      const [job] = await database.db
        .select()
        .from(schema.paymentJobs)
        .where(eq(schema.paymentJobs.reference, String(body.paymentJobReference)));
      expect(job).toMatchObject({ orderNumber: 'GATEWAY-VT-1', merchantId: 'M1b' });
      // The same checks as on the Portal API: permission, tenant, the configuration's switch; no token, no order.
      expect((await signedIn(users.readonly, 'POST', `${vtBase}/orders`, order())).status).toBe(403);
      expect((await signedIn(users.owner, 'POST', `${vtBase}/orders`, order())).status).toBe(404);
      expect((await signedIn(users.merchantOnly, 'POST', `${ownerBase}/orders`, order())).status).toBe(404);
      const off = await signedIn(users.owner, 'POST', '/businesses/B3/merchants/M3b/configurations/C-M3b/virtual-terminal/orders', order({ currency: 'JPY' }));
      expect(off.status).toBe(403);
      expect((await json(off)).errorReport?.errors[0]?.translatedMessage).toMatch(/switched off/);
      expect((await signedIn(null, 'POST', `${vtBase}/orders`, order())).status).toBe(401);
      // An API key is for the merchant's systems' payment jobs, not for the virtual terminal's orders.
      expect((await gateway(gatewayKey, 'POST', `${vtBase}/orders`, order())).status).toBe(401);
      // Malformed: 400 with message and translatedMessage, nothing written; an unknown path under it: 404.
      const malformed = await signedIn(users.merchantOnly, 'POST', `${vtBase}/orders`, { merchantReference: 7 });
      expect(malformed.status).toBe(400);
      expect((await json(malformed)).errorReport?.errors[0]?.translatedMessage).toBeTruthy();
      expect((await signedIn(users.merchantOnly, 'GET', `${vtBase}/nothing-here`)).status).toBe(404);
    });

    it('answers malformed requests with 4xx errors carrying message and translatedMessage', async () => {
      const cases: [unknown, number][] = [
        [{ ...job, amount: -1 }, 400],
        [{ ...job, amount: 1.234 }, 400],
        [{ ...job, currency: 'USD' }, 400],
        [{ ...job, extra: 1 }, 400],
        [{ ...job, emailAddress: 'nope' }, 400],
        ['{bad', 400],
        [
          { ...job, amount: 10, orderLines: [{ type: 'physicalItem', description: 'X', quantity: 1, unitPrice: 9, priceIncludesVat: true, vatPercentage: 0 }] },
          400,
        ],
      ];
      for (const [body, status] of cases) {
        const response = await gateway(gatewayKey, 'POST', '/payment-jobs', body);
        expect(response.status).toBe(status);
        const answer = await json(response);
        expect(answer.errorReport?.errors.every((error) => error.message && error.translatedMessage)).toBe(true);
      }
      expect((await gateway(gatewayKey, 'POST', '/payment-jobs', 'x', { 'content-type': 'text/plain' })).status).toBe(415);
    });
  });

  it('tries a declined order again on the same payment job: a new payment each attempt, idempotent and audited, never a new job', async () => {
    const declinedCard = { cardNumber: '4000 0000 0000 9995', expiry: '12/30', cvc: '123', cardholderName: 'Ada Buyer' };
    const first = await json(await post(users.owner, ownerBase, order({ merchantReference: 'RETRY-0001', card: declinedCard })));
    expect(first).toMatchObject({ result: 'declined', declineReason: 'Insufficient funds' });
    const jobReference = String(first.paymentJobReference);
    const attempt = (body: unknown, headers: Record<string, string> = {}, user: string = users.owner, base = ownerBase, reference = jobReference) =>
      call(user, 'POST', `${base}/orders/${reference}/attempts`, body, headers);

    // 'Try again': the card the decline used (its vault token), declined again: attempt 2 on the same job.
    const again = await json(await attempt({ sameCard: true }));
    expect(virtualTerminalOrderAnswer.allows(again)).toBe(true);
    expect(again).toMatchObject({
      result: 'declined',
      declineReason: 'Insufficient funds',
      paymentJobReference: jobReference,
      attempt: 2,
      maskedCardNumber: '400000******9995',
    });
    expect(again.transactionReference).not.toBe(first.transactionReference);

    // 'Try another card' with an Idempotency-Key: paid once, the same answer to the same request, 422 to another.
    const another = { card: { cardNumber: '4111 1111 1111 1111', expiry: '12/30', cvc: '123', cardholderName: 'Ada Buyer' } };
    const paidResponse = await attempt(another, { 'Idempotency-Key': 'retry-0001-a' });
    expect(paidResponse.status).toBe(201);
    const paid = await json(paidResponse);
    expect(paid).toMatchObject({
      result: 'paid',
      declineReason: null,
      paymentJobReference: jobReference,
      attempt: 3,
      amount: 28.99,
      maskedCardNumber: '411111******1111',
    });
    const replay = await attempt(another, { 'Idempotency-Key': 'retry-0001-a' });
    expect(replay.status).toBe(201);
    expect(await json(replay)).toEqual(paid);
    expect((await attempt({ sameCard: true }, { 'Idempotency-Key': 'retry-0001-a' })).status).toBe(422);
    // Paid: nothing more is charged.
    const late = await attempt({ sameCard: true });
    expect(late.status).toBe(409);
    expect(messages(await json(late)).join(' ')).toContain('is paid already');

    // One job, its three payments (declined, declined, paid), paid at the last; the job's detail and traces show each.
    const jobs = await database.db
      .select()
      .from(schema.paymentJobs)
      .where(and(eq(schema.paymentJobs.merchantId, 'M3a'), eq(schema.paymentJobs.orderNumber, 'RETRY-0001')));
    expect(jobs.map((job) => [job.reference, job.status, job.paidDateTimeUtc !== null])).toEqual([[jobReference, 'paid', true]]);
    const payments = await database.db
      .select()
      .from(schema.transactions)
      .where(eq(schema.transactions.paymentJobReference, jobReference))
      .orderBy(schema.transactions.createdAt, schema.transactions.reference);
    expect(payments.map((payment) => payment.status).sort()).toEqual(['declined', 'declined', 'paid']);
    expect(new Set(payments.map((payment) => payment.reference))).toEqual(
      new Set([first.transactionReference, again.transactionReference, paid.transactionReference]),
    );
    const detail = await json(await call(users.owner, 'GET', `/businesses/B3/merchants/M3a/payment-jobs/${jobReference}`));
    expect((detail.payments as unknown[]).length).toBe(3);
    for (const payment of [first, paid]) {
      const trace = await call(users.owner, 'GET', `/businesses/B3/merchants/M3a/traces/${String(payment.transactionReference).replace(/^TX/, 'TR')}`);
      expect(trace.status).toBe(200);
    }
    const events = await database.db
      .select()
      .from(schema.auditEvents)
      .where(and(eq(schema.auditEvents.merchantId, 'M3a'), sql`${schema.auditEvents.metaData}->>'paymentJobReference' = ${jobReference}`))
      .orderBy(schema.auditEvents.id);
    expect(events.map((event) => [event.event, (event.metaData as { attempt?: number }).attempt ?? 1, event.userId])).toEqual([
      ['VirtualTerminalOrderFailed', 1, users.owner],
      ['VirtualTerminalOrderFailed', 2, users.owner],
      ['VirtualTerminalOrderSuccessful', 3, users.owner],
    ]);
    expect(events[1]?.metaData).toMatchObject({ retryOf: first.transactionReference, card: 'same' });
  });

  it("refuses an attempt at another tenant's, a paid or a non-telephone job, without the permission, and malformed ones", async () => {
    const declined = await json(
      await post(
        users.owner,
        ownerBase,
        order({ merchantReference: 'RETRY-0002', card: { cardNumber: '4000 0000 0000 0002', expiry: '12/30', cvc: '123', cardholderName: 'Ada Buyer' } }),
      ),
    );
    const path = `${ownerBase}/orders/${String(declined.paymentJobReference)}/attempts`;
    // vt@ works for M1b: B3's order is not there, addressed under B3 or under its own terminal.
    expect((await call(users.merchantOnly, 'POST', path, { sameCard: true })).status).toBe(404);
    expect((await call(users.merchantOnly, 'POST', `${vtBase}/orders/${String(declined.paymentJobReference)}/attempts`, { sameCard: true })).status).toBe(404);
    expect((await call(users.readonly, 'POST', path, { sameCard: true })).status).toBe(403);
    // The fixture's paid gateway job of C-M3a is not a declined telephone order.
    expect((await call(users.owner, 'POST', `${ownerBase}/orders/PJ3A0001/attempts`, { sameCard: true })).status).toBe(409);
    expect((await call(users.owner, 'POST', `${ownerBase}/orders/NOPE0001/attempts`, { sameCard: true })).status).toBe(404);
    for (const body of [
      {},
      { sameCard: true, savedCardId: 'CD1' },
      { sameCard: false },
      { sameCard: true, colour: 'red' },
      { card: { cardNumber: '4111 1111 1111 1112', expiry: '12/30', cvc: '123', cardholderName: 'A' } },
    ]) {
      const response = await call(users.owner, 'POST', path, body);
      expect(response.status).toBe(400);
      expect(messages(await json(response)).length).toBeGreaterThan(0);
    }
    // Nothing of that was charged: the job still has its one declined payment.
    const payments = await database.db
      .select()
      .from(schema.transactions)
      .where(eq(schema.transactions.paymentJobReference, String(declined.paymentJobReference)));
    expect(payments.map((payment) => payment.status)).toEqual(['declined']);
  });

  it('no answer and no table row holds a full card number', async () => {
    for (const number of fullNumbers) expect(answers.some((text) => text.includes(number))).toBe(false);
    const tables = ['transactions', 'payment_jobs', 'customer_data', 'audit_events', 'outbound_emails', 'payment_idempotency_keys', 'card_vault'];
    for (const table of tables) {
      const rows = await database.query<Record<string, unknown>>(`SELECT * FROM ${table}`);
      const text = JSON.stringify(rows);
      for (const number of fullNumbers) expect(text.includes(number), `${table} holds ${number}`).toBe(false);
    }
  });
});
