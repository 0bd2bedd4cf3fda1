// Payment jobs and payment operations on PGlite and PostgreSQL: the overview, the detail, traces and the
// audit trail, and every action allowed, forbidden, cross-tenant (404), malformed, refused with a reason, repeated
// with one Idempotency-Key, raced, and stale (409); the statistics stay equal to a raw aggregation throughout.
import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEventList, paymentActionAnswer, paymentJobDetail, paymentJobList, paymentTrace } from '../../../src/contract/payment-job-schemas.ts';
import { transactionList, transactionTotals } from '../../../src/contract/transaction-schemas.ts';
import type { Database } from '../../../server/db/client.ts';
import * as schema from '../../../server/db/schema.ts';
import { statsAggregationSql, statsInsertSql } from '../../../server/seed/seed.ts';
import { advanceRefund, recordChargeback, refundPayment, runPaymentAction } from '../../../server/payments/payment-operations.ts';
import { processDueRefunds } from '../../../server/payments/refund-processor.ts';
import { rebuildStatsRollups } from '../../../server/stats/rebuild.ts';
import { insertTransactions } from '../transaction-writers.ts';
import { exactCountLimit } from '../../../server/http/list-count.ts';
import { createTestApp, createTestDatabase, databaseKinds, fixture, insertFixtureWorld } from '../support.ts';

const { users } = fixture;
const measures = 'volume, revenue, unsuccessful_volume, unsuccessful_revenue, sales_count';
const keyed = `merchant_id, business_id, coalesce(partner_id, '-') AS partner_id, currency, bucket_start, ${measures}`;
const B3 = '/businesses/B3';

/** Jobs of business B3 (owner: users.owner) in the states the actions need, and one of B1 (another tenant). */
async function insertPaymentFixtures(database: Database): Promise<void> {
  const { db } = database;
  const created = new Date('2026-11-10T09:00:00Z');
  const job = (reference: string, merchantId: string, status: string, amountMinor: number, currency = 'GBP', businessId = 'B3') => ({
    reference,
    businessId,
    partnerId: businessId === 'B1' ? 'P1' : null,
    merchantId,
    configurationId: `C-${merchantId}`,
    createDateTimeUtc: created,
    expirationDateTimeUtc: new Date(Date.now() + 7 * 86_400_000),
    orderNumber: `ORD-${reference}`,
    amountMinor,
    currency,
    status,
    order: {
      billingIdentity: { emailAddress: 'shopper@example.test', dateOfBirth: '1980-04-02' },
      billingAddress: {
        firstName: 'Ada',
        lastName: 'Shopper',
        addressLine1: '1 High Street',
        zipCode: 'AB1 2CD',
        city: 'Leeds',
        countryIso3166Alpha2: 'GB',
        phoneNumber1: '+441130000000',
        phoneNumber1Type: 'Unknown',
      },
      orderLines: [
        {
          type: 'physicalItem',
          description: 'Teapot',
          quantity: 2,
          unitPriceInclVat: amountMinor / 2,
          unitPriceExclVat: Math.round(amountMinor / 2 / 1.2),
          vatPercentage: 20,
        },
      ],
    },
  });
  await db
    .insert(schema.paymentJobs)
    .values([
      job('PJ3R0001', 'M3a', 'reserved', 4000),
      job('PJ3R0002', 'M3a', 'reserved', 6000),
      job('PJ3P0001', 'M3a', 'pending', 2500),
      job('PJ3K0001', 'M3b', 'paid', 5000, 'JPY'),
      job('PJ3C0001', 'M3a', 'paid', 10_000),
      job('PJ1R0001', 'M1a', 'reserved', 3000, 'GBP', 'B1'),
      job('PJ3E0001', 'M3a', 'pending', 1800),
      job('PJ3B0001', 'M3a', 'paid', 8000),
    ]);
  const payment = (
    reference: string,
    job: string,
    merchantId: string,
    status: string,
    amountMinor: number,
    currency = 'GBP',
    businessId = 'B3',
    partnerId: string | null = null,
  ) => ({
    reference,
    kind: 'payment' as const,
    parentReference: null,
    partnerId,
    businessId,
    merchantId,
    configurationId: `C-${merchantId}`,
    paymentJobReference: job,
    createdAt: created,
    amountMinor,
    currency,
    status,
    paymentMethod: 'card',
    channel: 'Gateway',
    cardMasked: '411111******1111',
    customerEmail: 'shopper@example.test',
  });
  await insertTransactions(db, [
    payment('TX3R0001', 'PJ3R0001', 'M3a', 'reserved', 4000),
    payment('TX3R0002', 'PJ3R0002', 'M3a', 'reserved', 6000),
    payment('TX3P0001', 'PJ3P0001', 'M3a', 'pending', 2500),
    payment('TX3K0001', 'PJ3K0001', 'M3b', 'paid', 5000, 'JPY'),
    payment('TX3C0001', 'PJ3C0001', 'M3a', 'paid', 10_000),
    payment('TX1R0001', 'PJ1R0001', 'M1a', 'reserved', 3000, 'GBP', 'B1', 'P1'),
    payment('TX3E0001', 'PJ3E0001', 'M3a', 'pending', 1800),
    payment('TX3B0001', 'PJ3B0001', 'M3a', 'paid', 8000),
  ]);
}

async function difference(database: Database, left: string, right: string): Promise<unknown[]> {
  return [...(await database.query(`(${left}) EXCEPT ALL (${right})`)), ...(await database.query(`(${right}) EXCEPT ALL (${left})`))];
}

describe.each(databaseKinds)('payment jobs on %s', (kind) => {
  let database: Database;
  let call: ReturnType<typeof createTestApp>['call'];
  beforeAll(async () => {
    database = await createTestDatabase(kind);
    await insertFixtureWorld(database);
    // The fixture world's transactions were inserted without the statistics: build them in bulk as the seed does.
    await database.db.transaction(async (tx) => {
      await tx.execute(sql.raw(statsInsertSql));
      await rebuildStatsRollups(tx);
    });
    await insertPaymentFixtures(database);
    ({ call } = createTestApp(database));
  });
  afterAll(async () => database?.close());

  const errors = async (response: Response) =>
    ((await response.json()) as { errorReport: { errors: { message: string }[] } }).errorReport.errors.map((error) => error.message);
  const detail = async (reference: string, userId: string = users.owner, prefix = B3) => {
    const response = await call(userId, 'GET', `${prefix}/payment-jobs/${reference}`);
    expect(response.status, await response.clone().text()).toBe(200);
    return paymentJobDetail.assert(await response.json());
  };
  const act = (userId: string, path: string, body: unknown, headers: Record<string, string> = {}) =>
    call(userId, 'POST', `${B3}/payment-jobs/${path}`, body, headers);
  const statsMatchRaw = async () =>
    expect(await difference(database, `SELECT ${keyed} FROM transaction_stats`, `SELECT ${keyed} FROM (${statsAggregationSql}) s`)).toEqual([]);

  describe('reading', () => {
    it('lists a business newest first with the list convention, filtered and sorted', async () => {
      const response = await call(
        users.owner,
        'GET',
        `${B3}/payment-jobs?OrderingField=amount&OrderingDirection=Descending&status=${encodeURIComponent('[eq]reserved')}`,
      );
      expect(response.status, await response.clone().text()).toBe(200);
      const list = paymentJobList.assert(await response.json());
      expect(list.results.map((row) => row.reference)).toEqual(['PJ3R0002', 'PJ3R0001']);
      expect(list.numberOfResults).toBe(2);
      expect(list.numberOfResultsIsEstimate).toBe(false);
      expect(list.results[0]).toMatchObject({
        amount: 60,
        currency: 'GBP',
        customer: 'Ada Shopper',
        emailAddress: 'shopper@example.test',
        paymentMethod: 'card',
        merchantName: 'Gamma Deli',
      });
      const byEmail = paymentJobList.assert(
        await (await call(users.owner, 'GET', `${B3}/payment-jobs?email=${encodeURIComponent('[eq]SHOPPER@')}&amount=${encodeURIComponent('[gte]50')}`)).json(),
      );
      expect(byEmail.results.map((row) => row.reference).sort()).toEqual(['PJ3B0001', 'PJ3C0001', 'PJ3K0001', 'PJ3R0002']);
    });

    it('refuses undeclared filters and malformed values with a 400 naming them', async () => {
      const response = await call(users.owner, 'GET', `${B3}/payment-jobs?colour=red&status=${encodeURIComponent('[eq]purple')}`);
      expect(response.status).toBe(400);
      expect((await errors(response)).join(' ')).toMatch(/colour/);
    });

    it('shows a job with its payments, amounts, order totals that add up, and what is possible', async () => {
      const job = await detail('PJ3R0001');
      expect(job).toMatchObject({
        status: 'reserved',
        version: 1,
        amounts: { authorised: 40, captured: 0, refunded: 0, remaining: 0 },
        actions: { cancel: true },
      });
      expect(job.payments[0]).toMatchObject({
        paymentId: 'TX3R0001',
        capturable: 40,
        refundable: 0,
        actions: { capture: true, refund: false, void: true },
        traceReference: 'TR3R0001',
      });
      expect(job.order.totals.inclVat).toBe(40);
      expect(job.order.totals.exclVat + job.order.totals.vat).toBeCloseTo(job.order.totals.inclVat, 6);
      expect(JSON.stringify(job)).not.toMatch(/4111111111111111/);
    });

    it('answers 404 for another tenant’s job, 403 without the permission, 404 for an unreachable context', async () => {
      expect((await call(users.owner, 'GET', `${B3}/payment-jobs/PJ1R0001`)).status).toBe(404);
      expect((await call(users.owner, 'GET', '/businesses/B1/payment-jobs/PJ1R0001')).status).toBe(404);
      // The VirtualTerminal role reads its merchant's payment jobs (the agent opens the job an order made),
      // but holds no Portal.Traces.Read.
      expect((await call(users.merchantOnly, 'GET', '/businesses/B1/merchants/M1b/payment-jobs')).status).toBe(200);
      expect((await call(users.merchantOnly, 'GET', '/businesses/B1/merchants/M1b/traces/TR1A0001')).status).toBe(403);
      expect((await call(users.partner, 'GET', '/partners/P1/payment-jobs/PJ1R0001')).status).toBe(200);
    });

    it('traces a payment, with masked raw messages only when advanced', async () => {
      const plain = paymentTrace.assert(await (await call(users.owner, 'GET', `${B3}/traces/TR3C0001`)).json());
      expect(plain.traceSequences.length).toBeGreaterThanOrEqual(4);
      expect(plain.traceSequences.every((sequence) => sequence.rawRequest === undefined)).toBe(true);
      const advanced = paymentTrace.assert(await (await call(users.owner, 'GET', `${B3}/traces/TR3C0001?advanced=true`)).json());
      expect(advanced.traceSequences.some((sequence) => sequence.rawRequest?.includes('411111******1111'))).toBe(true);
      expect(JSON.stringify(advanced)).not.toMatch(/4111111111111111/);
      expect((await call(users.owner, 'GET', `${B3}/traces/TR1R0001`)).status).toBe(404);
      expect((await call(users.owner, 'GET', `${B3}/traces/TR3C0001?advanced=maybe`)).status).toBe(400);
    });
  });

  describe('actions', () => {
    it('captures part of an authorisation, then refuses more than remains, saying how much', async () => {
      const before = await detail('PJ3R0002');
      const response = await act(users.owner, 'PJ3R0002/payments/TX3R0002/actions/capture', { amount: 45, version: before.version });
      expect(response.status, await response.clone().text()).toBe(201);
      const answer = paymentActionAnswer.assert(await response.json());
      expect(answer.message).toBe('£45.00 captured.');
      const after = await detail('PJ3R0002');
      expect(after).toMatchObject({ status: 'paid', version: before.version + 1, amounts: { authorised: 60, captured: 45 } });
      const again = await act(users.owner, 'PJ3R0002/payments/TX3R0002/actions/capture', { amount: 20, version: after.version });
      expect(again.status).toBe(400);
      // The rest of the authorisation stays open: more than the £15.00 left is refused, saying so.
      expect(await errors(again)).toEqual(['At most £15.00 can still be captured.']);
      await statsMatchRaw();
    });

    it('posts the capture to the settlement ledger in the same transaction: balanced entries (sale and fee)', async () => {
      // The capture is what posts (its sale and the fee on what it captured); the payment turning paid adds nothing.
      const captured = [
        'TX3R0002',
        ...(await database.query<{ reference: string }>("SELECT reference FROM transactions WHERE parent_reference = 'TX3R0002' AND kind = 'capture'")).map(
          (row) => row.reference,
        ),
      ];
      expect(captured).toHaveLength(2);
      const postings = await database.query<{ id: string; total: string; entries: number }>(
        `SELECT p.id, sum(e.amount_minor)::text AS total, count(e.id)::int AS entries FROM ledger_postings p JOIN ledger_entries e ON e.posting_id = p.id
          WHERE p.transaction_reference = ANY($1) GROUP BY p.id`,
        [captured],
      );
      expect(postings.length).toBeGreaterThan(0);
      for (const posting of postings) {
        expect(posting.total, posting.id).toBe('0');
        expect(posting.entries).toBeGreaterThanOrEqual(2);
      }
    });

    it('refunds part of a payment, refuses an over-refund with what is possible, and audits both', async () => {
      const job = await detail('PJ3C0001');
      const refund = await act(users.owner, 'PJ3C0001/payments/TX3C0001/actions/refund', {
        amount: 87.5,
        reason: 'requestedByCustomer',
        version: job.version,
        notifyCustomer: true,
      });
      expect(refund.status, await refund.clone().text()).toBe(201);
      const after = await detail('PJ3C0001');
      expect(after.payments[0]).toMatchObject({ refundable: 12.5, refundPending: 87.5 });
      expect(after.payments[0]?.refunds[0]).toMatchObject({ status: 'requested', amount: 87.5, cancellable: true });
      const over = await act(users.owner, 'PJ3C0001/payments/TX3C0001/actions/refund', { amount: 20, reason: 'duplicate', version: after.version });
      expect(over.status).toBe(400);
      expect(await errors(over)).toEqual(['At most £12.50 can still be refunded (£87.50 is held by refunds in progress).']);
      const outbox = await database.query<{ recipient: string; template: string }>(
        `SELECT recipient, template FROM outbound_emails WHERE template = 'refundConfirmation'`,
      );
      expect(outbox).toEqual([{ recipient: 'shopper@example.test', template: 'refundConfirmation' }]);
      const audit = auditEventList.assert(await (await call(users.owner, 'GET', `${B3}/audit-events?paymentJobReference=PJ3C0001`)).json());
      expect(audit.data.map((event) => event.event)).toEqual(['RefundFailed', 'RefundSuccessful']);
      expect(audit.data[0]?.metaData).toMatchObject({ amount: 20, reason: 'duplicate', outcome: 'refused' });
      expect(audit.data[1]).toMatchObject({ userId: users.owner, metaData: { amount: 87.5, reason: 'requestedByCustomer' } });
    });

    it('validates amounts in the currency’s decimals and the note of Other', async () => {
      const job = await detail('PJ3K0001');
      const fraction = await act(users.owner, 'PJ3K0001/payments/TX3K0001/actions/refund', { amount: 10.5, reason: 'goodwill', version: job.version });
      expect(fraction.status).toBe(400);
      expect(await errors(fraction)).toEqual(['Amount has more decimals than JPY allows (0).']);
      const other = await act(users.owner, 'PJ3K0001/payments/TX3K0001/actions/refund', { amount: 100, reason: 'other', version: job.version });
      expect(await errors(other)).toEqual(["A refund for the reason 'Other' needs a note."]);
      const huge = await act(users.owner, 'PJ3K0001/payments/TX3K0001/actions/refund', { amount: 1_000_000_000, reason: 'goodwill', version: job.version });
      expect(huge.status).toBe(400);
      const ok = await act(users.owner, 'PJ3K0001/payments/TX3K0001/actions/refund', {
        amount: 1000,
        reason: 'other',
        note: 'Chipped lid',
        version: job.version,
      });
      expect(ok.status).toBe(201);
    });

    it.each([
      ['no body', undefined],
      ['a string amount', { amount: '5', reason: 'duplicate', version: 1 }],
      ['an unknown reason', { amount: 5, reason: 'whim', version: 1 }],
      ['an extra field', { amount: 5, reason: 'duplicate', version: 1, admin: true }],
      ['a negative amount', { amount: -5, reason: 'duplicate', version: 1 }],
    ])('refuses a malformed refund (%s) with a 400', async (_name, body) => {
      const response = await act(users.owner, 'PJ3C0001/payments/TX3C0001/actions/refund', body ?? '');
      expect(response.status).toBe(400);
      expect((await errors(response)).length).toBeGreaterThan(0);
    });

    it('refuses without the permission (403) and for another tenant’s job (404), changing nothing', async () => {
      const body = { amount: 1, version: 1 };
      expect((await call(users.readonly, 'POST', `${B3}/payment-jobs/PJ3R0001/payments/TX3R0001/actions/capture`, body)).status).toBe(403);
      expect((await call(users.owner, 'POST', '/businesses/B1/payment-jobs/PJ1R0001/payments/TX1R0001/actions/capture', body)).status).toBe(404);
      expect((await call(users.owner, 'POST', `${B3}/payment-jobs/PJ1R0001/payments/TX1R0001/actions/capture`, body)).status).toBe(404);
      expect((await call(users.finance, 'POST', '/businesses/B2/payment-jobs/PJ1R0001/actions/cancel', { confirmed: true, version: 1 })).status).toBe(404);
      expect((await detail('PJ1R0001', users.admin, '/businesses/B1')).status).toBe('reserved');
    });

    it('answers a stale version with 409 and acts on nothing', async () => {
      const job = await detail('PJ3R0001');
      const response = await act(users.owner, 'PJ3R0001/payments/TX3R0001/actions/void', { version: job.version + 5 });
      expect(response.status).toBe(409);
      expect(await errors(response)).toEqual(['Someone updated this view']);
      expect((await detail('PJ3R0001')).status).toBe('reserved');
    });

    it('answers a double submit with one Idempotency-Key once, and the same key with another body with 422', async () => {
      const job = await detail('PJ3C0001');
      const headers = { 'idempotency-key': `refund-${kind}-1` };
      const body = { amount: 2.5, reason: 'goodwill', version: job.version };
      const [first, second] = [
        await act(users.owner, 'PJ3C0001/payments/TX3C0001/actions/refund', body, headers),
        await act(users.owner, 'PJ3C0001/payments/TX3C0001/actions/refund', body, headers),
      ];
      expect(first.status, await first.clone().text()).toBe(201);
      expect(second.status).toBe(201);
      expect(await second.json()).toEqual(await first.json());
      const after = await detail('PJ3C0001');
      expect(after.payments[0]?.refunds.filter((refund) => refund.amount === 2.5)).toHaveLength(1);
      const other = await act(users.owner, 'PJ3C0001/payments/TX3C0001/actions/refund', { ...body, amount: 3 }, headers);
      expect(other.status).toBe(422);
      expect(
        (await call(users.owner, 'POST', `${B3}/payment-jobs/PJ3C0001/payments/TX3C0001/actions/refund`, body, { 'idempotency-key': 'has space' })).status,
      ).toBe(400);
    });

    it('lets exactly one of two concurrent refunds through when together they exceed what is refundable', async () => {
      const job = await detail('PJ3C0001');
      const refundable = job.payments[0]?.refundable ?? 0;
      expect(refundable).toBeGreaterThan(1);
      const amount = Math.round(refundable * 0.7 * 100) / 100;
      // Through the domain without versions, so only the row lock stands between the two.
      const attempt = () =>
        runPaymentAction(database, { actor: { userId: users.owner }, fingerprint: Math.random() }, (tx, at) =>
          refundPayment(tx, { userId: users.owner }, { reference: 'PJ3C0001' }, { paymentId: 'TX3C0001', amount, reason: 'duplicate', version: null }, at),
        );
      const outcomes = await Promise.all([attempt(), attempt()]);
      expect(outcomes.map((outcome) => outcome.status).sort()).toEqual([201, 400]);
      // And through the API with the same version: one wins, the other is stale or refused.
      const fresh = await detail('PJ3C0001');
      const rest = fresh.payments[0]?.refundable ?? 0;
      const responses = await Promise.all(
        [1, 2].map(() => act(users.owner, 'PJ3C0001/payments/TX3C0001/actions/refund', { amount: rest, reason: 'duplicate', version: fresh.version })),
      );
      expect(responses.map((response) => response.status).filter((status) => status === 201)).toHaveLength(1);
      expect((await detail('PJ3C0001')).payments[0]?.refundable).toBe(0);
      await statsMatchRaw();
    });

    it('cancels a refund still requested, not one processing, and completing a refund moves the revenue', async () => {
      const job = await detail('PJ3K0001');
      const requested = job.payments[0]?.refunds.find((refund) => refund.status === 'requested');
      expect(requested).toBeDefined();
      const cancel = await act(users.owner, `PJ3K0001/payments/TX3K0001/refunds/${requested?.refundId}/actions/cancel`, { version: job.version });
      expect(cancel.status, await cancel.clone().text()).toBe(200);
      const again = await detail('PJ3K0001');
      const refund = await act(users.owner, 'PJ3K0001/payments/TX3K0001/actions/refund', { amount: 500, reason: 'goodwill', version: again.version });
      const { refundId } = paymentActionAnswer.assert(await refund.json());
      const revenue = async () =>
        Number((await database.query<{ revenue: string }>(`SELECT sum(revenue) AS revenue FROM transaction_stats WHERE merchant_id = 'M3b'`))[0]?.revenue);
      const revenueBefore = await revenue();
      await database.db.transaction(async (tx) => expect(await advanceRefund(tx, refundId ?? '', 'processing', new Date())).toBe(true));
      const processing = await detail('PJ3K0001');
      const refused = await act(users.owner, `PJ3K0001/payments/TX3K0001/refunds/${refundId}/actions/cancel`, { version: processing.version });
      expect(refused.status).toBe(400);
      expect(await errors(refused)).toEqual([
        'This refund can no longer be cancelled: it is already being processed by the acquirer. Only a refund still requested can be.',
      ]);
      await database.db.transaction(async (tx) => expect(await advanceRefund(tx, refundId ?? '', 'completed', new Date())).toBe(true));
      expect(await revenue()).toBe(revenueBefore - 500);
      expect((await detail('PJ3K0001')).amounts.refunded).toBe(500);
      await statsMatchRaw();
    });

    it('voids an authorisation with nothing captured, and cannot void it twice', async () => {
      const job = await detail('PJ3R0001');
      const response = await act(users.owner, 'PJ3R0001/payments/TX3R0001/actions/void', { reason: 'Customer changed their mind', version: job.version });
      expect(response.status, await response.clone().text()).toBe(200);
      const after = await detail('PJ3R0001');
      expect(after).toMatchObject({ status: 'cancelled', payments: [{ status: 'cancelled', actions: { capture: false, refund: false, void: false } }] });
      expect(after.payments[0]?.steps.map((step) => step.step)).toEqual(['created', 'authorised', 'voided']);
      const twice = await act(users.owner, 'PJ3R0001/payments/TX3R0001/actions/void', { version: after.version });
      expect(await errors(twice)).toEqual(['This payment cannot be voided: it is cancelled, not an open authorisation.']);
    });

    it('cancels an open job only with the confirmation tick, and mails a payment link only while it is open', async () => {
      const job = await detail('PJ3P0001');
      expect(job.actions).toEqual({ cancel: true, mailPaymentLink: true, expireLink: true });
      const link = await act(users.owner, 'PJ3P0001/payments/TX3P0001/actions/mail-payment-link', { emailAddress: 'ada@example.test' });
      expect(link.status, await link.clone().text()).toBe(200);
      const [mail] = await database.query<{ text: string }>(
        `SELECT text FROM outbound_emails WHERE template = 'paymentLink' AND recipient = 'ada@example.test'`,
      );
      expect(mail?.text).toContain('/pay/PJ3P0001');
      const unticked = await act(users.owner, 'PJ3P0001/actions/cancel', { confirmed: false, version: job.version });
      expect(await errors(unticked)).toEqual(['Tick the confirmation to cancel this payment job: cancelling is permanent.']);
      const cancelled = await act(users.owner, 'PJ3P0001/actions/cancel', { confirmed: true, version: job.version });
      expect(cancelled.status, await cancelled.clone().text()).toBe(200);
      expect(await detail('PJ3P0001')).toMatchObject({ status: 'cancelled', actions: { cancel: false, mailPaymentLink: false, expireLink: false } });
      const late = await act(users.owner, 'PJ3P0001/payments/TX3P0001/actions/mail-payment-link', { emailAddress: 'ada@example.test' });
      expect(await errors(late)).toEqual(['A payment link can only be sent for an open job; this one is cancelled.']);
      const paid = await detail('PJ3K0001');
      expect(await errors(await act(users.owner, 'PJ3K0001/actions/cancel', { confirmed: true, version: paid.version }))).toEqual([
        'This payment job cannot be cancelled: it is paid. Only a job with nothing paid (pending, reserved or verified) can be.',
      ]);
    });

    it("expires an open job's payment link at once ('Expire now'): the shopper's page refuses it, nothing else moves", async () => {
      const job = await detail('PJ3E0001');
      expect(job.actions.expireLink).toBe(true);
      const revenueBefore = await database.query<{ revenue: string | null }>(`SELECT sum(revenue) AS revenue FROM transaction_stats WHERE merchant_id = 'M3a'`);
      expect((await act(users.readonly, 'PJ3E0001/actions/expire', { version: job.version })).status).toBe(403);
      expect((await call(users.partner, 'POST', '/businesses/B3/payment-jobs/PJ3E0001/actions/expire', { version: job.version })).status).toBe(404);
      expect((await act(users.owner, 'PJ3E0001/actions/expire', { version: job.version + 1 })).status).toBe(409);
      expect((await act(users.owner, 'PJ3E0001/actions/expire', { version: '1' })).status).toBe(400);
      const expired = await act(users.owner, 'PJ3E0001/actions/expire', { version: job.version });
      expect(expired.status, await expired.clone().text()).toBe(200);
      const after = await detail('PJ3E0001');
      expect(after).toMatchObject({ status: 'expired', actions: { cancel: false, mailPaymentLink: false, expireLink: false } });
      expect(new Date(after.expirationDateTimeUtc ?? '').getTime()).toBeLessThanOrEqual(Date.now());
      expect(after.payments[0]?.status).toBe('expired');
      const [audit] = await database.query<{ event: string; user_id: string }>(
        `SELECT event, user_id FROM audit_events WHERE meta_data->>'paymentJobReference' = 'PJ3E0001' ORDER BY id DESC LIMIT 1`,
      );
      expect(audit).toEqual({ event: 'PaymentLinkExpired', user_id: users.owner });
      const revenueAfter = await database.query<{ revenue: string | null }>(`SELECT sum(revenue) AS revenue FROM transaction_stats WHERE merchant_id = 'M3a'`);
      expect(revenueAfter).toEqual(revenueBefore);
      await statsMatchRaw();
      expect(await errors(await act(users.owner, 'PJ3E0001/actions/expire', { version: after.version }))).toEqual([
        'Only an open payment link can be expired; this job is expired already.',
      ]);
      const paid = await detail('PJ3K0001');
      expect(await errors(await act(users.owner, 'PJ3K0001/actions/expire', { version: paid.version }))).toEqual([
        'Only an open payment link can be expired; this job is paid already.',
      ]);
    });
  });

  describe('chargebacks', () => {
    const revenueOf = async (merchantId: string) =>
      Number(
        (await database.query<{ revenue: string }>(`SELECT sum(revenue) AS revenue FROM transaction_stats WHERE merchant_id = $1`, [merchantId]))[0]?.revenue,
      );

    it('posts a chargeback to the transactions, the statistics and the ledger, and shows it on the job as a negative reversal', async () => {
      const before = await detail('PJ3B0001');
      const revenueBefore = await revenueOf('M3a');
      const at = new Date('2026-11-20T12:00:00Z');
      const chargebackId = await database.db.transaction((tx) =>
        recordChargeback(tx, 'TX3B0001', { amountMinor: 3000, reason: 'Fraud: card not present' }, at),
      );
      expect(chargebackId).toMatch(/^TX/);
      // The revenue of the payment's bucket falls by the chargeback; the statistics still equal the raw aggregation.
      expect(await revenueOf('M3a')).toBe(revenueBefore - 3000);
      await statsMatchRaw();

      const job = await detail('PJ3B0001');
      expect(job.version).toBe(before.version + 1);
      expect(job.amounts).toEqual({ authorised: 80, captured: 80, refunded: 0, chargedBack: 30, remaining: 50 });
      expect(job.reversals).toEqual([
        {
          reversalId: chargebackId,
          paymentId: 'TX3B0001',
          amount: -30,
          currency: 'GBP',
          reason: 'Fraud: card not present',
          status: 'paid',
          dateTimeUtc: at.toISOString(),
        },
      ]);
      expect(job.payments[0]).toMatchObject({ chargedBack: 30, refundable: 50, actions: { refund: true } });
      expect(job.payments[0]?.steps.find((step) => step.step === 'chargedBack')).toMatchObject({ amount: -30, detail: 'Fraud: card not present' });

      // The transactions overview lists it as a chargeback of the payment; its totals take it off the revenue.
      const list = transactionList.assert(await (await call(users.owner, 'GET', `${B3}/transactions?kind=${encodeURIComponent('[eq]chargeback')}`)).json());
      expect(list.results.map((row) => [row.reference, row.kind, row.amount, row.paymentJobReference])).toEqual([[chargebackId, 'chargeback', 30, 'PJ3B0001']]);
      const totalsResponse = await call(
        users.owner,
        'GET',
        `${B3}/transactions/totals?currency=${encodeURIComponent('[eq]GBP')}&merchantid=${encodeURIComponent('[eq]M3a')}`,
      );
      expect(totalsResponse.status, await totalsResponse.clone().text()).toBe(200);
      const totals = transactionTotals.assert(await totalsResponse.json());
      expect(totals.chargebacks).toBe(3000);
      expect(totals.chargebacksCount).toBe(1);
      expect(totals.revenue).toBe(totals.volume - totals.refunds - totals.chargebacks);

      // The ledger posts it as a reversal whose entries balance; the audit trail records it.
      const postings = await database.query<{ id: string; category: string; total: string }>(
        `SELECT p.id, p.category, sum(e.amount_minor)::text AS total FROM ledger_postings p JOIN ledger_entries e ON e.posting_id = p.id WHERE p.transaction_reference = $1 GROUP BY p.id, p.category`,
        [chargebackId],
      );
      expect(postings).toEqual([{ id: `chargeback:${chargebackId}`, category: 'reversal', total: '0' }]);
      const audit = auditEventList.assert(await (await call(users.owner, 'GET', `${B3}/audit-events?paymentJobReference=PJ3B0001`)).json());
      expect(audit.data[0]).toMatchObject({ event: 'ChargebackReceived', metaData: { amount: 30, reason: 'Fraud: card not present', chargebackId } });
    });

    it('leaves only what was not charged back refundable, and says so when nothing is', async () => {
      const job = await detail('PJ3B0001');
      const over = await act(users.owner, 'PJ3B0001/payments/TX3B0001/actions/refund', { amount: 60, reason: 'goodwill', version: job.version });
      expect(await errors(over)).toEqual(['At most £50.00 can still be refunded (£30.00 was charged back).']);
      // The rest is charged back too (the amount defaults to what the merchant still holds); nothing more can be.
      const rest = await database.db.transaction((tx) => recordChargeback(tx, 'TX3B0001', { reason: 'Not as described' }, new Date('2026-11-21T12:00:00Z')));
      expect(rest).not.toBeNull();
      expect(await database.db.transaction((tx) => recordChargeback(tx, 'TX3B0001', { reason: 'Duplicate processing' }, new Date()))).toBeNull();
      expect(await database.db.transaction((tx) => recordChargeback(tx, 'TX3P0001', { reason: 'Duplicate processing' }, new Date()))).toBeNull();
      const after = await detail('PJ3B0001');
      expect(after.amounts).toMatchObject({ chargedBack: 80, remaining: 0 });
      expect(after.reversals.map((reversal) => reversal.amount)).toEqual([-30, -50]);
      expect(after.payments[0]?.actions.refund).toBe(false);
      const none = await act(users.owner, 'PJ3B0001/payments/TX3B0001/actions/refund', { amount: 1, reason: 'goodwill', version: after.version });
      expect(await errors(none)).toEqual(["This payment cannot be refunded: the rest was charged back by the shopper's bank (£80.00)."]);
      await statsMatchRaw();
    });
  });

  it('lets the refund processor send requested refunds and complete them once due, not before', async () => {
    const job = await detail('PJ3C0001');
    const requested = job.payments[0]?.refunds.filter((refund) => refund.status === 'requested').map((refund) => refund.refundId) ?? [];
    expect(requested.length).toBeGreaterThan(0);
    const timings = { requestedForMs: 60_000, processingForMs: 60_000 };
    expect(await processDueRefunds(database, new Date(Date.now() - 3_600_000), timings)).toBe(0);
    await processDueRefunds(database, new Date(Date.now() + 90_000), timings);
    const processing = await detail('PJ3C0001');
    for (const refundId of requested) expect(processing.payments[0]?.refunds.find((refund) => refund.refundId === refundId)?.status).toBe('processing');
    await processDueRefunds(database, new Date(Date.now() + 10 * 60_000), timings);
    const done = await detail('PJ3C0001');
    for (const refundId of requested) expect(done.payments[0]?.refunds.find((refund) => refund.refundId === refundId)?.status).toBe('completed');
    await statsMatchRaw();
  });

  it('keeps the statistics equal to the raw aggregation after random actions', async () => {
    const references = ['PJ3C0001', 'PJ3K0001', 'PJ3R0002'];
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.record({
            job: fc.constantFrom(...references),
            action: fc.constantFrom('refund', 'process', 'complete', 'fail', 'cancel', 'chargeback'),
            share: fc.integer({ min: 1, max: 60 }),
          }),
          { minLength: 1, maxLength: 8 },
        ),
        async (steps) => {
          for (const step of steps) {
            const job = await detail(step.job);
            const payment = job.payments[0];
            if (!payment) continue;
            if (step.action === 'refund' && payment.refundable > 0) {
              const decimals = payment.currency === 'JPY' ? 0 : 2;
              const amount = Math.max(10 ** -decimals, Number(((payment.refundable * step.share) / 100).toFixed(decimals)));
              await act(users.owner, `${step.job}/payments/${payment.paymentId}/actions/refund`, { amount, reason: 'goodwill', version: job.version });
            }
            if (step.action === 'chargeback' && payment.refundable > 0) {
              const heldMinor = Math.round(payment.refundable * (payment.currency === 'JPY' ? 1 : 100));
              const amountMinor = Math.max(1, Math.floor((heldMinor * step.share) / 100));
              expect(
                await database.db.transaction((tx) => recordChargeback(tx, payment.paymentId, { amountMinor, reason: 'Credit not processed' }, new Date())),
              ).not.toBeNull();
              continue;
            }
            const target = payment.refunds.find((refund) =>
              step.action === 'process' || step.action === 'cancel' ? refund.status === 'requested' : refund.status === 'processing',
            );
            if (!target) continue;
            if (step.action === 'cancel')
              await act(users.owner, `${step.job}/payments/${payment.paymentId}/refunds/${target.refundId}/actions/cancel`, { version: job.version });
            if (step.action === 'process') await database.db.transaction((tx) => advanceRefund(tx, target.refundId, 'processing', new Date()));
            if (step.action === 'complete' || step.action === 'fail')
              await database.db.transaction((tx) =>
                advanceRefund(
                  tx,
                  target.refundId,
                  step.action === 'complete' ? 'completed' : 'failed',
                  new Date(),
                  step.action === 'fail' ? 'Refused by the issuer' : undefined,
                ),
              );
          }
          await statsMatchRaw();
          for (const reference of references) {
            const { payments } = await detail(reference);
            for (const payment of payments) expect(payment.refunded + payment.refundPending + payment.chargedBack).toBeLessThanOrEqual(payment.captured + 1e-9);
          }
        },
      ),
      { numRuns: 6 },
    );
  });
});

describe.each(databaseKinds)('totals of long payment job lists on %s', (kind) => {
  let database: Database;
  let call: ReturnType<typeof createTestApp>['call'];
  beforeAll(async () => {
    database = await createTestDatabase(kind);
    await insertFixtureWorld(database);
    await database.query(`
      INSERT INTO payment_jobs (reference, partner_id, business_id, merchant_id, configuration_id, create_date_time_utc, order_number, amount_minor, currency, status, "order")
      SELECT 'PJBULK' || lpad(i::text, 6, '0'), NULL, 'B4', 'M4a', 'C-M4a', timestamptz '2026-01-01' + i * interval '1 minute', 'ORD-BULK' || i,
        100 + i, 'USD', CASE WHEN i <= 40 THEN 'reserved' ELSE 'paid' END, '{}'::jsonb
      FROM generate_series(1, ${exactCountLimit + 500}) AS i`);
    await database.query('ANALYZE payment_jobs');
    ({ call } = createTestApp(database));
  });
  afterAll(async () => database?.close());

  it("gives the planner's estimate, flagged, above the exact-count limit and exact totals at or below it", async () => {
    const response = await call(users.admin, 'GET', '/businesses/B4/payment-jobs');
    expect(response.status, await response.clone().text()).toBe(200);
    const big = paymentJobList.assert(await response.json());
    expect(big.numberOfResultsIsEstimate).toBe(true);
    expect(big.numberOfResults).toBeGreaterThan(exactCountLimit);
    // The page does not wait for the count: newest first, as ever.
    expect(big.results.map((row) => row.reference).slice(0, 2)).toEqual([
      `PJBULK${String(exactCountLimit + 500).padStart(6, '0')}`,
      `PJBULK${String(exactCountLimit + 499).padStart(6, '0')}`,
    ]);
    const small = paymentJobList.assert(
      await (await call(users.admin, 'GET', `/businesses/B4/payment-jobs?status=${encodeURIComponent('[eq]reserved')}`)).json(),
    );
    expect(small).toMatchObject({ numberOfResults: 40, numberOfResultsIsEstimate: false });
    expect(small.results).toHaveLength(25);
  });
});
