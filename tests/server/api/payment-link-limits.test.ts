// Mailing payment links is limited (server/payments/payment-link-limits.ts) on PGlite and PostgreSQL: per recipient
// address whoever sends, however the address is written, and per user; through the 'Mail payment link' action and the
// virtual terminal's 'Send a payment link instead' alike; 429 with Retry-After and a clear message, nothing written.
// The windows themselves are checked with fixed dates.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../../server/db/client.ts';
import * as schema from '../../../server/db/schema.ts';
import { paymentLinkMailLimit, paymentLinkMailsPerRecipientPerHour, paymentLinkMailsPerUserPerMinute } from '../../../server/payments/payment-link-limits.ts';
import { createTestApp, createTestDatabase, databaseKinds, fixture, insertFixtureWorld } from '../support.ts';

const { users } = fixture;
const created = new Date('2026-11-10T09:00:00Z');
const farAhead = new Date('2099-01-01T00:00:00Z');
const ownerBase = '/businesses/B3/merchants/M3a/configurations/C-M3a/virtual-terminal';

async function insertOpenJob(database: Database): Promise<void> {
  await database.db.insert(schema.paymentJobs).values({
    reference: 'PJ3L0001',
    businessId: 'B3',
    partnerId: null,
    merchantId: 'M3a',
    configurationId: 'C-M3a',
    createDateTimeUtc: created,
    expirationDateTimeUtc: farAhead,
    orderNumber: 'ORD-PJ3L0001',
    amountMinor: 2500,
    currency: 'GBP',
    status: 'pending',
    order: {},
  });
  await database.db.insert(schema.transactions).values({
    reference: 'TX3L0001',
    kind: 'payment',
    businessId: 'B3',
    merchantId: 'M3a',
    partnerId: null,
    configurationId: 'C-M3a',
    paymentJobReference: 'PJ3L0001',
    createdAt: created,
    amountMinor: 2500,
    currency: 'GBP',
    status: 'pending',
    paymentMethod: 'card',
    channel: 'Gateway',
  });
}

let serial = 0;
const linkOrder = (emailAddress: string) => ({
  merchantReference: `LINK-LIMIT-${++serial}`,
  currency: 'GBP',
  card: null,
  paymentLink: { validityHours: 24 },
  billingIdentity: { emailAddress },
  billingAddress: { lastName: 'Buyer', countryIso3166Alpha2: 'GB' },
  orderLines: [{ type: 'physicalItem', description: 'Teapot', quantity: 1, unitPrice: 10, priceIncludesVat: true, vatPercentage: 20 }],
});

describe.each(databaseKinds)('payment link mail limits on %s', (kind) => {
  let database: Database;
  let call: ReturnType<typeof createTestApp>['call'];
  beforeAll(async () => {
    database = await createTestDatabase(kind);
    await insertFixtureWorld(database);
    await insertOpenJob(database);
    ({ call } = createTestApp(database));
  });
  afterAll(async () => database?.close());

  const mail = (userId: string, emailAddress: string) =>
    call(userId, 'POST', '/businesses/B3/payment-jobs/PJ3L0001/payments/TX3L0001/actions/mail-payment-link', { emailAddress });
  const messages = async (response: Response) =>
    ((await response.json()) as { errorReport: { errors: { message: string }[] } }).errorReport.errors.map((error) => error.message);
  const linksTo = async (address: string) =>
    (
      await database.query<{ n: number }>(`SELECT count(*)::int AS n FROM outbound_emails WHERE template = 'paymentLink' AND lower(btrim(recipient)) = $1`, [
        address,
      ])
    )[0]?.n;

  it('mails at most a few links an hour to one address, however it is written', async () => {
    for (let index = 0; index < paymentLinkMailsPerRecipientPerHour; index += 1) {
      const response = await mail(users.owner, 'limit@example.test');
      expect(response.status, await response.clone().text()).toBe(200);
    }
    const refused = await mail(users.owner, '  LIMIT@Example.test ');
    expect(refused.status).toBe(429);
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(3600);
    expect(await messages(refused)).toEqual([
      expect.stringMatching(/^This email address has been sent 3 payment links in the last hour, the most allowed\. Please try again in \d+ minutes?\.$/),
    ]);
    expect(await linksTo('limit@example.test')).toBe(paymentLinkMailsPerRecipientPerHour);
    // Another address is not held up by it.
    expect((await mail(users.owner, 'someone-else@example.test')).status).toBe(200);
  });

  it('mails at most a few links a minute per user, to any addresses', async () => {
    for (let index = 0; index < paymentLinkMailsPerUserPerMinute; index += 1) {
      const response = await mail(users.admin, `spray-${index}@example.test`);
      expect(response.status, await response.clone().text()).toBe(200);
    }
    const refused = await mail(users.admin, 'spray-last@example.test');
    expect(refused.status).toBe(429);
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect((await messages(refused))[0]).toMatch(
      /^You have mailed 10 payment links in the last minute, the most allowed\. Please wait \d+ seconds and try again\.$/,
    );
    expect(await linksTo('spray-last@example.test')).toBe(0);
    // Another user is not held up by it.
    expect((await mail(users.owner, 'spray-last@example.test')).status).toBe(200);
  });

  it("counts the virtual terminal's payment links with the mailed ones, and refuses past the limit without writing the order", async () => {
    expect((await mail(users.owner, 'both@example.test')).status).toBe(200);
    expect((await mail(users.owner, 'both@example.test')).status).toBe(200);
    const link = await call(users.owner, 'POST', `${ownerBase}/orders`, linkOrder('both@example.test'));
    expect(link.status, await link.clone().text()).toBe(201);
    const jobsBefore = (await database.db.select().from(schema.paymentJobs)).length;
    const refused = await call(users.owner, 'POST', `${ownerBase}/orders`, linkOrder('Both@Example.test'));
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await messages(refused))[0]).toMatch(/payment links in the last hour/);
    expect((await database.db.select().from(schema.paymentJobs)).length).toBe(jobsBefore);
    expect(await linksTo('both@example.test')).toBe(3);
    // A card order (no link mailed) is not limited.
    const paid = await call(users.owner, 'POST', `${ownerBase}/orders`, {
      ...linkOrder('both@example.test'),
      paymentLink: null,
      card: { cardNumber: '4111 1111 1111 1111', expiry: '12/39', cvc: '123', cardholderName: 'A B' },
    });
    expect(paid.status, await paid.clone().text()).toBe(201);
  });

  it('counts each window from the time it is given: the oldest send leaving the window frees one more', async () => {
    const at = (time: string) => new Date(`2026-11-20T${time}Z`);
    const email = (id: string, createdAt: Date) => ({
      id,
      recipient: 'Fixed@Example.test',
      subject: 's',
      template: 'paymentLink',
      html: 'h',
      text: 't',
      createdAt,
    });
    await database.db
      .insert(schema.outboundEmails)
      .values([email('EMFIXED1', at('10:00:00')), email('EMFIXED2', at('10:20:00')), email('EMFIXED3', at('10:40:00'))]);
    // Another template to the same address does not count.
    await database.db.insert(schema.outboundEmails).values({ ...email('EMFIXED4', at('10:45:00')), template: 'passwordReset' });
    const check = (userId: string, address: string, time: string) => database.db.transaction((tx) => paymentLinkMailLimit(tx, userId, address, at(time)));
    expect(await check(users.nobody, 'other@example.test', '10:50:00')).toBeNull();
    expect(await check(users.nobody, ' fixed@example.TEST', '10:50:00')).toMatchObject({
      retryAt: at('11:00:00'),
      message: expect.stringMatching(/try again in 10 minutes/),
    });
    expect(await check(users.nobody, 'fixed@example.test', '11:00:01')).toBeNull();

    const event = (seconds: number, event = 'PaymentLinkMailed', outcome = 'queued') => ({
      userId: users.finance,
      event,
      dateTimeUtc: new Date(at('09:00:00').getTime() + seconds * 1000),
      businessId: 'B3',
      merchantId: 'M3a',
      metaData: { outcome },
    });
    // Nine mailed links and one virtual-terminal link in 45 seconds; a paid virtual-terminal order does not count.
    await database.db
      .insert(schema.auditEvents)
      .values([
        ...Array.from({ length: 9 }, (_, index) => event(index * 5)),
        event(45, 'VirtualTerminalOrderSuccessful', 'paymentLinkSent'),
        event(46, 'VirtualTerminalOrderSuccessful', 'paid'),
      ]);
    expect(await check(users.finance, 'a@example.test', '09:00:50')).toMatchObject({
      retryAt: at('09:01:00'),
      message: expect.stringMatching(/wait 10 seconds/),
    });
    expect(await check(users.finance, 'a@example.test', '09:01:00')).toBeNull();
  });
});
