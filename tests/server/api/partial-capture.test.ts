// Money: a partial capture credits the ledger with what was captured (each capture its own sale, the fee
// on the captured amount by the pricing plan) and leaves the rest of the authorisation open to capture or void; an
// amount below one minor unit, or with more decimals than its currency has, is refused with a 400 that says so and
// changes nothing (no capture, no refund slot, no email). Through the Portal API, on PGlite and PostgreSQL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { paymentActionAnswer, paymentJobDetail } from '../../../src/contract/payment-job-schemas.ts';
import { feeOf } from '../../../src/contract/ledger.ts';
import type { Database } from '../../../server/db/client.ts';
import * as schema from '../../../server/db/schema.ts';
import { insertTransactions } from '../transaction-writers.ts';
import { createTestApp, createTestDatabase, databaseKinds, fixture, insertFixtureWorld } from '../support.ts';

const { users } = fixture;
const B3 = '/businesses/B3';
const created = new Date('2026-11-10T09:00:00Z');
const rate = { percentageBasisPoints: 140, fixedMinor: 20 };

async function insertAuthorisations(database: Database): Promise<void> {
  const { db } = database;
  const jobs: [string, string, string, number, string][] = [
    ['PJ32A', 'M3a', 'reserved', 4908, 'GBP'],
    ['PJ32B', 'M3a', 'reserved', 4908, 'GBP'],
    ['PJ32C', 'M3a', 'reserved', 4908, 'GBP'],
    ['PJ32D', 'M3a', 'paid', 5000, 'GBP'],
    ['PJ32K', 'M3b', 'paid', 5000, 'JPY'],
  ];
  await db.insert(schema.paymentJobs).values(
    jobs.map(([reference, merchantId, status, amountMinor, currency]) => ({
      reference,
      businessId: 'B3',
      partnerId: null,
      merchantId,
      configurationId: `C-${merchantId}`,
      createDateTimeUtc: created,
      expirationDateTimeUtc: null,
      orderNumber: `ORD-${reference}`,
      amountMinor,
      currency,
      status,
      order: { billingIdentity: { emailAddress: 'shopper@example.test' } },
    })),
  );
  await db.insert(schema.pricingPlanRates).values({ merchantId: 'M3a', currency: 'GBP', paymentMethod: 'card', ...rate });
  await insertTransactions(
    db,
    jobs.map(([reference, merchantId, status, amountMinor, currency]) => ({
      reference: `TX${reference.slice(2)}`,
      kind: 'payment' as const,
      parentReference: null,
      partnerId: null,
      businessId: 'B3',
      merchantId,
      configurationId: `C-${merchantId}`,
      paymentJobReference: reference,
      createdAt: created,
      amountMinor,
      currency,
      status,
      paymentMethod: 'card',
      channel: 'Gateway',
      cardMasked: '411111******1111',
      customerEmail: 'shopper@example.test',
    })),
  );
}

describe.each(databaseKinds)('partial captures and amounts below one minor unit on %s', (kind) => {
  let database: Database;
  let call: ReturnType<typeof createTestApp>['call'];
  beforeAll(async () => {
    database = await createTestDatabase(kind);
    await insertFixtureWorld(database);
    await insertAuthorisations(database);
    ({ call } = createTestApp(database));
  });
  afterAll(async () => database?.close());

  const detail = async (reference: string) => {
    const response = await call(users.owner, 'GET', `${B3}/payment-jobs/${reference}`);
    expect(response.status, await response.clone().text()).toBe(200);
    return paymentJobDetail.assert(await response.json());
  };
  const act = async (job: string, action: string, body: Record<string, unknown>) => {
    const response = await call(users.owner, 'POST', `${B3}/payment-jobs/${job}/payments/TX${job.slice(2)}/actions/${action}`, body);
    return { status: response.status, body: (await response.json()) as { message?: string; errorReport?: { errors: { message: string }[] } } };
  };
  const errorsOf = (answer: { body: { errorReport?: { errors: { message: string }[] } } }) => answer.body.errorReport?.errors.map((error) => error.message);
  /** What the ledger credited the trading account for a payment (sale entries of it and its captures) and charged as fees. */
  const ledgerOf = async (paymentId: string) => {
    const rows = await database.query<{ posting_id: string; category: string; amount: string }>(
      `SELECT e.posting_id, e.category, e.amount_minor::text AS amount FROM ledger_entries e JOIN transactions t ON t.reference = e.transaction_reference
        WHERE (t.reference = $1 OR t.parent_reference = $1) AND ((e.category = 'sale' AND e.account_id LIKE '%:trading') OR (e.category = 'fee' AND e.account_id LIKE '%:costs'))
        ORDER BY e.posting_id`,
      [paymentId],
    );
    const sum = (category: string) => rows.filter((row) => row.category === category).reduce((total, row) => total + Number(row.amount), 0);
    return {
      sales: rows
        .filter((row) => row.category === 'sale')
        .map((row) => Number(row.amount))
        .sort((a, b) => a - b),
      sale: sum('sale'),
      fee: sum('fee'),
      postings: rows.map((row) => row.posting_id),
    };
  };

  it('credits £0.01 for a £0.01 capture of £49.08, keeps the rest capturable, and credits each later capture as its own sale', async () => {
    const before = await detail('PJ32A');
    const first = await act('PJ32A', 'capture', { amount: 0.01, version: before.version });
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    expect(paymentActionAnswer.assert(first.body).message).toBe('£0.01 captured.');
    expect(await ledgerOf('TX32A')).toMatchObject({ sales: [1], sale: 1, fee: feeOf(1, rate) });
    expect((await ledgerOf('TX32A')).postings).not.toContain('sale:TX32A');
    const partly = await detail('PJ32A');
    expect(partly.payments[0]).toMatchObject({ status: 'paid', captured: 0.01, capturable: 49.07, actions: { capture: true, void: true, refund: true } });

    const rest = await act('PJ32A', 'capture', { amount: 49.07, version: partly.version });
    expect(rest.status, JSON.stringify(rest.body)).toBe(201);
    expect(await ledgerOf('TX32A')).toMatchObject({ sales: [1, 4907], sale: 4908, fee: feeOf(1, rate) + feeOf(4907, rate) });
    const full = await detail('PJ32A');
    expect(full.payments[0]).toMatchObject({ captured: 49.08, capturable: 0, actions: { capture: false, void: false } });
    const more = await act('PJ32A', 'capture', { amount: 0.01, version: full.version });
    expect(more.status).toBe(400);
    expect(errorsOf(more)).toEqual(['This payment cannot be captured: it is paid and already captured.']);
    expect((await ledgerOf('TX32A')).sale).toBe(4908);
  });

  it('voids the rest after a partial capture: the capture stays credited and refundable, nothing more can be captured', async () => {
    const before = await detail('PJ32B');
    expect((await act('PJ32B', 'capture', { amount: 20, version: before.version })).status).toBe(201);
    const over = await act('PJ32B', 'capture', { amount: 30, version: before.version + 1 });
    expect(errorsOf(over)).toEqual(['At most £29.08 can still be captured.']);
    const partly = await detail('PJ32B');
    const voided = await act('PJ32B', 'void', { reason: 'Rest out of stock', version: partly.version });
    expect(voided.status, JSON.stringify(voided.body)).toBe(200);
    expect(voided.body.message).toBe('The rest of the authorisation (£29.08) voided; £20.00 captured stays.');
    const after = await detail('PJ32B');
    expect(after).toMatchObject({ status: 'paid', amounts: { authorised: 49.08, captured: 20 } });
    expect(after.payments[0]).toMatchObject({ status: 'paid', capturable: 0, refundable: 20, actions: { capture: false, void: false, refund: true } });
    const again = await act('PJ32B', 'capture', { amount: 1, version: after.version });
    expect(errorsOf(again)).toEqual(['This payment cannot be captured: it is paid and the rest of its authorisation was released.']);
    expect(await ledgerOf('TX32B')).toMatchObject({ sale: 2000, fee: feeOf(2000, rate) });
    const refund = await act('PJ32B', 'refund', { amount: 20.01, reason: 'goodwill', version: after.version });
    expect(errorsOf(refund)).toEqual(['At most £20.00 can still be refunded.']);
  });

  it.each([
    ['capture', 'PJ32C', 1e-9, 'Amount must be at least 0.01 GBP.'],
    ['capture', 'PJ32C', 0.001, 'Amount must be at least 0.01 GBP.'],
    ['capture', 'PJ32C', 0.005, 'Amount must be at least 0.01 GBP.'],
    ['capture', 'PJ32C', 1.005, 'Amount has more decimals than GBP allows (2).'],
    ['capture', 'PJ32C', 10.000000001, 'Amount has more decimals than GBP allows (2).'],
    ['refund', 'PJ32D', 1e-9, 'Amount must be at least 0.01 GBP.'],
    ['refund', 'PJ32D', 0.004, 'Amount must be at least 0.01 GBP.'],
    ['refund', 'PJ32D', 2.345, 'Amount has more decimals than GBP allows (2).'],
    ['refund', 'PJ32K', 0.5, 'Amount must be at least 1 JPY.'],
    ['refund', 'PJ32K', 10.5, 'Amount has more decimals than JPY allows (0).'],
  ] as const)('refuses a %s of %s of %s with a 400 that says why, and changes nothing', async (action, job, amount, message) => {
    const before = await detail(job);
    const counts = async () =>
      (
        await database.query<{ children: number; emails: number }>(
          `SELECT (SELECT count(*)::int FROM transactions WHERE parent_reference = $1) AS children,
        (SELECT count(*)::int FROM outbound_emails WHERE template = 'refundConfirmation') AS emails`,
          [`TX${job.slice(2)}`],
        )
      )[0];
    const was = await counts();
    const answer = await act(job, action, { amount, version: before.version, ...(action === 'refund' ? { reason: 'goodwill', notifyCustomer: true } : {}) });
    expect(answer.status).toBe(400);
    expect(errorsOf(answer)).toEqual([message]);
    expect(await counts()).toEqual(was);
    const after = await detail(job);
    expect(after.payments[0]).toMatchObject({ captured: before.payments[0]?.captured, refundPending: 0, refunds: [] });
  });

  it('still takes the smallest amounts the currency has', async () => {
    const capture = await act('PJ32C', 'capture', { amount: 0.29, version: (await detail('PJ32C')).version });
    expect(capture.status, JSON.stringify(capture.body)).toBe(201);
    expect(capture.body.message).toBe('£0.29 captured.');
    const refund = await act('PJ32K', 'refund', { amount: 1, reason: 'goodwill', version: (await detail('PJ32K')).version });
    expect(refund.status, JSON.stringify(refund.body)).toBe(201);
    expect(refund.body.message).toMatch(/^Refund of JP¥1 requested/);
  });
});
