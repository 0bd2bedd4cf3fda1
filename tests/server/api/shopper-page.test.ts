import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../../server/db/client.ts';
import * as schema from '../../../server/db/schema.ts';
import { cardProblem, jobState, luhnValid } from '../../../server/payments/shopper-payment.ts';
import { defaultHostedPageDesign } from '../../../src/contract/configurations.ts';
import { createTestApp, createTestDatabase, databaseKinds, insertFixtureWorld } from '../support.ts';

const inAWeek = () => new Date(Date.now() + 7 * 86_400_000);
const form = (fields: Record<string, string>) => ({
  method: 'POST',
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
  body: new URLSearchParams(fields).toString(),
});
const goodCard = { cardholderName: 'Ada Lovelace', cardNumber: '4242 4242 4242 4242', expiry: '12/39', cvc: '123', paymentMethod: 'card' };

describe.each(databaseKinds)('the shopper page on %s', (kind) => {
  let database: Database;
  let app: ReturnType<typeof createTestApp>['app'];
  beforeAll(async () => {
    database = await createTestDatabase(kind);
    await insertFixtureWorld(database);
    ({ app } = createTestApp(database));
    const job = (reference: string, overrides: Partial<typeof schema.paymentJobs.$inferInsert> = {}) => ({
      reference,
      businessId: 'B1',
      merchantId: 'M1a',
      partnerId: 'P1',
      configurationId: 'C-M1a',
      createDateTimeUtc: new Date(),
      expirationDateTimeUtc: inAWeek(),
      orderNumber: `ORD-${reference}`,
      amountMinor: 4250,
      currency: 'GBP',
      status: 'pending',
      order: {
        orderLines: [
          { type: 'physicalItem', description: 'Linen <cushion> cover', quantity: 2, unitPriceInclVat: 1750 },
          { type: 'shippingCost', description: 'Standard delivery', quantity: 1, unitPriceInclVat: 750 },
        ],
      },
      ...overrides,
    });
    await database.db
      .insert(schema.paymentJobs)
      .values([
        job('PJOPEN0001'),
        job('PJOPEN0002'),
        job('PJPEND0001'),
        job('PJEXPD0001', { expirationDateTimeUtc: new Date(Date.now() - 60_000) }),
        job('PJCANC0001', { status: 'cancelled' }),
      ]);
    await database.db.insert(schema.transactions).values({
      reference: 'TXPEND0001',
      kind: 'payment',
      businessId: 'B1',
      merchantId: 'M1a',
      partnerId: 'P1',
      configurationId: 'C-M1a',
      paymentJobReference: 'PJPEND0001',
      createdAt: new Date(),
      amountMinor: 4250,
      currency: 'GBP',
      status: 'pending',
      paymentMethod: 'card',
      channel: 'Gateway',
    });
    // C-M1a takes cards and iDEAL (which this page cannot take); C-M1b has its card setting switched off; M2a's
    // card setting takes EUR only, between 10 and 100.
    const method = (configurationId: string, paymentMethod: string, overrides: Partial<typeof schema.configurationPaymentMethods.$inferInsert> = {}) => ({
      configurationId,
      paymentMethod,
      enabled: true,
      displayName: paymentMethod === 'card' ? 'Debit or credit card' : 'iDEAL',
      currencies: ['GBP', 'EUR'],
      ...overrides,
    });
    await database.db
      .insert(schema.configurationPaymentMethods)
      .values([
        method('C-M1a', 'card'),
        method('C-M1a', 'ideal', { currencies: ['EUR'] }),
        method('C-M1b', 'card', { enabled: false }),
        method('C-M1b', 'ideal'),
        method('C-M2a', 'card', { currencies: ['EUR'], minimumAmountMilli: 10_000, maximumAmountMilli: 100_000 }),
      ]);
    await database.db
      .insert(schema.paymentJobs)
      .values([
        job('PJOFFC0001', { merchantId: 'M1b', configurationId: 'C-M1b' }),
        job('PJGBPC0001', { businessId: 'B2', merchantId: 'M2a', partnerId: null, configurationId: 'C-M2a' }),
        job('PJEURL0001', { businessId: 'B2', merchantId: 'M2a', partnerId: null, configurationId: 'C-M2a', currency: 'EUR', amountMinor: 200_000 }),
        job('PJEURC0001', { businessId: 'B2', merchantId: 'M2a', partnerId: null, configurationId: 'C-M2a', currency: 'EUR', amountMinor: 5_000 }),
      ]);
    await database.db.insert(schema.hostedPages).values({
      reference: 'HPPFIXTURE01',
      configurationId: 'C-M1a',
      businessId: 'B1',
      merchantId: 'M1a',
      name: 'Checkout',
      design: { ...defaultHostedPageDesign, texts: { ...defaultHostedPageDesign.texts, title: 'Pay Alpha Online', footer: 'Thanks & see you soon' } },
    });
  });
  afterAll(async () => database?.close());

  it('shows the job with the hosted page design, amount and order lines, as a form that works without JavaScript', async () => {
    const response = await app.request('/pay/PJOPEN0001');
    expect(response.status).toBe(200);
    const csp = response.headers.get('content-security-policy') ?? '';
    expect(csp).toMatch(/style-src 'nonce-[A-Za-z0-9+/=]+'/);
    expect(csp).toContain("default-src 'none'");
    const html = await response.text();
    expect(html).toContain('<html lang="en-GB">');
    expect(html).toContain('<h1>Pay Alpha Online</h1>');
    expect(html).toContain('£42.50');
    expect(html).toContain('Linen &lt;cushion&gt; cover');
    // Each line shows its unit price and its total (2 × £17.50), as the editor's preview does.
    expect(html).toContain('<th scope="col" class="end">Unit price</th><th scope="col" class="end">Amount</th>');
    expect(html).toContain('<td>Linen &lt;cushion&gt; cover</td><td class="end">2</td><td class="end">£17.50</td><td class="end">£35.00</td>');
    expect(html).toContain('<td>Standard delivery</td><td class="end">1</td><td class="end">£7.50</td><td class="end">£7.50</td>');
    expect(html).toContain('Thanks &amp; see you soon');
    expect(html).toContain('method="post" action="/pay/PJOPEN0001"');
    expect(html).not.toContain('<script');
    expect(html.match(/<style nonce="([^"]+)"/)?.[1]).toBe(csp.match(/'nonce-([^']+)'/)?.[1]);
  });

  it('offers only what can be paid here: a card, naming the other switched-on methods as not available', async () => {
    const html = await (await app.request('/pay/PJOPEN0002')).text();
    expect([...html.matchAll(/name="paymentMethod" value="([^"]+)"/g)].map((match) => match[1])).toEqual(['card']);
    expect(html).toContain('Debit or credit card');
    expect(html).toContain('iDEAL is not available on this page.');
    expect(html).toContain('only the published test cards are accepted');
    // A method the form does not offer is refused plainly, and nothing is paid.
    const response = await app.request('/pay/PJOPEN0002', form({ ...goodCard, paymentMethod: 'ideal' }));
    expect(response.status).toBe(400);
    expect(await response.text()).toContain('iDEAL cannot be paid on this page. Pay by card instead.');
    const odd = await app.request('/pay/PJOPEN0002', form({ ...goodCard, paymentMethod: '__proto__' }));
    expect(odd.status).toBe(400);
    expect(await odd.text()).toContain('This payment method cannot be paid on this page.');
    const [job] = await database.db.select().from(schema.paymentJobs).where(eq(schema.paymentJobs.reference, 'PJOPEN0002'));
    expect(job?.status).toBe('pending');
  });

  it.each([
    ['PJOFFC0001', 'Card payments are not switched on for this shop.'],
    ['PJGBPC0001', 'Debit or credit card payments are not accepted in GBP by this shop.'],
    ['PJEURL0001', "The amount is above this shop's maximum for Debit or credit card payments."],
  ])('says plainly that %s cannot be paid here, shows no card form, and refuses a post', async (reference, reason) => {
    const response = await app.request(`/pay/${reference}`);
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain('<h2>This payment cannot be made on this page</h2>');
    expect(html).toContain(reason.replace(/'/g, '&#39;'));
    expect(html).not.toContain('<form');
    const post = await app.request(`/pay/${reference}`, form(goodCard));
    expect(post.status).toBe(400);
    const [job] = await database.db.select().from(schema.paymentJobs).where(eq(schema.paymentJobs.reference, reference));
    expect(job?.status).toBe('pending');
  });

  it('refuses a wrong card with the form again, keeping nothing of the number', async () => {
    const response = await app.request('/pay/PJOPEN0001', form({ ...goodCard, cardNumber: '4000 0000 0000 0002' }));
    expect(response.status).toBe(400);
    const html = await response.text();
    expect(html).toContain('role="alert"');
    expect(html).toContain('The card was declined');
    expect(html).not.toContain('4000 0000 0000 0002');
    expect(html).toContain('value="Ada Lovelace"');
    const [job] = await database.db.select().from(schema.paymentJobs).where(eq(schema.paymentJobs.reference, 'PJOPEN0001'));
    expect(job?.status).toBe('pending');
  });

  it('pays with a test card: job and payment paid, statistics and audit written, the card only masked', async () => {
    const statsBefore = await database.db
      .select({ sales: sql<number>`coalesce(sum(${schema.transactionStats.salesCount}), 0)::int` })
      .from(schema.transactionStats)
      .where(eq(schema.transactionStats.merchantId, 'M1a'));
    const response = await app.request('/pay/PJOPEN0001', form(goodCard));
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain('Thank you, your payment was received');
    expect(html).not.toContain('4242');
    const [job] = await database.db.select().from(schema.paymentJobs).where(eq(schema.paymentJobs.reference, 'PJOPEN0001'));
    expect(job).toMatchObject({ status: 'paid' });
    expect(job?.paidDateTimeUtc).toBeInstanceOf(Date);
    const payments = await database.db.select().from(schema.transactions).where(eq(schema.transactions.paymentJobReference, 'PJOPEN0001'));
    expect(payments).toHaveLength(1);
    expect(payments[0]).toMatchObject({ status: 'paid', kind: 'payment', amountMinor: 4250, currency: 'GBP', cardMasked: '424242******4242' });
    expect(payments[0]?.cardToken).toMatch(/^CV/);
    expect(JSON.stringify(payments)).not.toContain('4242424242424242');
    const statsAfter = await database.db
      .select({ sales: sql<number>`coalesce(sum(${schema.transactionStats.salesCount}), 0)::int` })
      .from(schema.transactionStats)
      .where(eq(schema.transactionStats.merchantId, 'M1a'));
    expect((statsAfter[0]?.sales ?? 0) - (statsBefore[0]?.sales ?? 0)).toBe(1);
    const audits = await database.db.select().from(schema.auditEvents).where(eq(schema.auditEvents.event, 'PaymentJobPaidByShopper'));
    expect(audits).toHaveLength(1);
    expect(JSON.stringify(audits)).not.toContain('4242424242424242');
    // Paid now: the page says so, and a second payment is refused.
    const again = await app.request('/pay/PJOPEN0001');
    expect(again.status).toBe(410);
    expect(await again.text()).toContain('This payment is complete');
    expect((await app.request('/pay/PJOPEN0001', form(goodCard))).status).toBe(410);
  });

  it("sends the shopper a receipt from the merchant, with the order, to the order's email or where the link was mailed", async () => {
    await database.db.update(schema.merchants).set({ supportEmail: 'help@alpha.example' }).where(eq(schema.merchants.id, 'M1a'));
    await database.db
      .update(schema.paymentJobs)
      .set({
        order: {
          billingIdentity: { emailAddress: 'ada@example.test' },
          orderLines: [
            { type: 'physicalItem', description: 'Linen cover', quantity: 2, unitPriceInclVat: 1750, unitPriceExclVat: 1458, vatPercentage: 20 },
            { type: 'shippingCost', description: 'Delivery', quantity: 1, unitPriceInclVat: 750, unitPriceExclVat: 750, vatPercentage: 0 },
          ],
        },
      })
      .where(eq(schema.paymentJobs.reference, 'PJOPEN0002'));
    expect((await app.request('/pay/PJOPEN0002', form(goodCard))).status).toBe(200);
    const [configuration] = await database.db.select().from(schema.configurations).where(eq(schema.configurations.id, 'C-M1a'));
    const trade = configuration?.tradeName ?? 'missing';
    const receipts = await database.db.select().from(schema.outboundEmails).where(eq(schema.outboundEmails.template, 'shopperReceipt'));
    expect(receipts).toHaveLength(1);
    expect(receipts[0]).toMatchObject({
      recipient: 'ada@example.test',
      subject: `${trade}: receipt for order ORD-PJOPEN0002`,
      senderName: trade,
      replyTo: 'help@alpha.example',
    });
    expect(receipts[0]?.text).toContain('2 × Linen cover: £35.00');
    expect(receipts[0]?.text).toContain('Total excl. VAT: £36.66');
    expect(receipts[0]?.text).toContain('VAT 20%: £5.84');
    expect(receipts[0]?.text).toContain(`Reply to this email to reach ${trade} (help@alpha.example).`);
    expect(receipts[0]?.text).not.toContain('4242424242424242');
    // No email on the order: the receipt goes where the payment link was mailed (the job's PaymentLinkMailed event).
    await database.db.insert(schema.paymentJobs).values({
      reference: 'PJLINK0001',
      businessId: 'B1',
      merchantId: 'M1b',
      partnerId: 'P1',
      configurationId: 'C-M1a',
      createDateTimeUtc: new Date(),
      expirationDateTimeUtc: inAWeek(),
      orderNumber: 'ORD-PJLINK0001',
      amountMinor: 1200,
      currency: 'GBP',
      status: 'pending',
      order: {},
    });
    await database.db.insert(schema.auditEvents).values({
      userId: 'U-AGENT',
      event: 'PaymentLinkMailed',
      dateTimeUtc: new Date(),
      businessId: 'B1',
      merchantId: 'M1b',
      metaData: { paymentJobReference: 'PJLINK0001', emailAddress: 'linked@example.test', outcome: 'queued' },
    });
    expect((await app.request('/pay/PJLINK0001', form(goodCard))).status).toBe(200);
    const [linked] = await database.db.select().from(schema.outboundEmails).where(eq(schema.outboundEmails.recipient, 'linked@example.test'));
    expect(linked).toMatchObject({ template: 'shopperReceipt', replyTo: null });
    expect(linked?.text).toContain('Replies to this address are not read');
  });

  it("pays the job's pending payment instead of adding one", async () => {
    expect((await app.request('/pay/PJPEND0001', form({ ...goodCard, cardNumber: '5555555555554444' }))).status).toBe(200);
    const payments = await database.db.select().from(schema.transactions).where(eq(schema.transactions.paymentJobReference, 'PJPEND0001'));
    expect(payments.map((row) => [row.reference, row.status])).toEqual([['TXPEND0001', 'paid']]);
  });

  it.each([
    ['PJEXPD0001', 410, 'This payment link has expired'],
    ['PJCANC0001', 410, 'This payment link was cancelled'],
    ['PJNOPE0001', 404, 'Payment not found'],
    ['..%2F..%2Fetc', 404, 'Payment not found'],
  ])('refuses %s with a clear page', async (reference, status, heading) => {
    const response = await app.request(`/pay/${reference}`);
    expect(response.status).toBe(status);
    expect(await response.text()).toContain(`<h1>${heading}</h1>`);
    expect((await app.request(`/pay/${reference}`, form(goodCard))).status).toBe(status);
  });

  // Runs after the audit count above: it pays one more job.
  it("takes a card within the card setting's currency and limits", async () => {
    expect((await app.request('/pay/PJEURC0001')).status).toBe(200);
    expect((await app.request('/pay/PJEURC0001', form(goodCard))).status).toBe(200);
  });

  it('checks the card fields', () => {
    const now = new Date('2026-11-25T12:00:00Z');
    expect(luhnValid('4111111111111111')).toBe(true);
    expect(luhnValid('4111111111111112')).toBe(false);
    expect(cardProblem({ ...goodCard, cardholderName: ' ' }, now)).toBe('Name on card is required');
    expect(cardProblem({ ...goodCard, cardNumber: '1234' }, now)).toBe('Card number is invalid');
    expect(cardProblem({ ...goodCard, expiry: '13/30' }, now)).toBe('Expiry date is invalid');
    expect(cardProblem({ ...goodCard, expiry: '10/26' }, now)).toBe('Expiry date is in the past');
    expect(cardProblem({ ...goodCard, expiry: '11/26' }, now)).toBeNull();
    expect(cardProblem({ ...goodCard, cvc: '12' }, now)).toBe('Security code is invalid');
    expect(jobState({ status: 'pending', expirationDateTimeUtc: null, paidDateTimeUtc: null }, now)).toBe('open');
    expect(jobState({ status: 'declined', expirationDateTimeUtc: null, paidDateTimeUtc: null }, now)).toBe('open');
    expect(jobState({ status: 'blocked', expirationDateTimeUtc: null, paidDateTimeUtc: null }, now)).toBe('cancelled');
    expect(jobState({ status: 'pending', expirationDateTimeUtc: new Date('2026-11-25T11:59:59Z'), paidDateTimeUtc: null }, now)).toBe('expired');
  });
});
