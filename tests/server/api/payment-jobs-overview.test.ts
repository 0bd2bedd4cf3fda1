// The payment jobs overview per context (business, merchant, partner) on PGlite and PostgreSQL: each lists its own
// jobs and no other tenant's, the configuration filter narrows it, the status tabs (open, authorised and not captured,
// paid, refunded, failed) take exactly their jobs and no job is in two; and a payment's trace is its whole life
// (authorisation, capture, each refund's steps, the chargeback) with no negative duration.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { paymentJobList, paymentTrace } from '../../../src/contract/payment-job-schemas.ts';
import { paymentJobTabs } from '../../../src/contract/payment-jobs.ts';
import { now } from '../../../server/clock.ts';
import type { Database } from '../../../server/db/client.ts';
import * as schema from '../../../server/db/schema.ts';
import { advanceRefund, recordChargeback } from '../../../server/payments/payment-operations.ts';
import { insertTransactions } from '../transaction-writers.ts';
import { createTestApp, createTestDatabase, databaseKinds, fixture, insertFixtureWorld } from '../support.ts';

const { users } = fixture;
const created = new Date('2026-11-10T09:00:00Z');

/** B3 (owner: users.owner, no partner): a job per tab and some in none; B1 and B2 (partner P1): one each. */
async function insertOverviewFixtures(database: Database): Promise<void> {
  const { db } = database;
  const day = 86_400_000;
  const job = (reference: string, merchantId: string, status: string, expiresInMs: number | null = null) => {
    const businessId = `B${merchantId.slice(1, 2)}`;
    return {
      reference,
      businessId,
      partnerId: businessId === 'B3' ? null : 'P1',
      merchantId,
      configurationId: `C-${merchantId}`,
      createDateTimeUtc: created,
      expirationDateTimeUtc: expiresInMs === null ? null : new Date(now().getTime() + expiresInMs),
      orderNumber: `ORD-${reference}`,
      amountMinor: 10_545,
      currency: 'GBP',
      status,
      order: {},
    };
  };
  await db
    .insert(schema.paymentJobs)
    .values([
      job('PJOVOPEN1', 'M3a', 'pending', 7 * day),
      job('PJOVOPEN2', 'M3b', 'verified'),
      job('PJOVLATE1', 'M3a', 'pending', -day),
      job('PJOVAUTH1', 'M3a', 'reserved'),
      job('PJOVPAID1', 'M3a', 'paid'),
      job('PJOVPAID2', 'M3b', 'paid'),
      job('PJOVREFD1', 'M3a', 'paid'),
      job('PJOVFAIL1', 'M3a', 'declined'),
      job('PJOVGONE1', 'M3a', 'cancelled'),
      job('PJOVB1OPN', 'M1a', 'pending', 7 * day),
      job('PJOVB2OPN', 'M2a', 'pending', 7 * day),
    ]);
  const row = (
    reference: string,
    kind: 'payment' | 'refund',
    jobReference: string,
    merchantId: string,
    status: string,
    parentReference: string | null = null,
    amountMinor = 10_545,
  ) => {
    const businessId = `B${merchantId.slice(1, 2)}`;
    return {
      reference,
      kind,
      parentReference,
      partnerId: businessId === 'B3' ? null : 'P1',
      businessId,
      merchantId,
      configurationId: `C-${merchantId}`,
      paymentJobReference: jobReference,
      createdAt: created,
      amountMinor,
      currency: 'GBP',
      status,
      paymentMethod: 'card',
      channel: 'Gateway',
      cardMasked: '411111******1111',
      customerEmail: 'shopper@example.test',
    };
  };
  await insertTransactions(db, [
    row('TXOVPAID1', 'payment', 'PJOVPAID1', 'M3a', 'paid'),
    row('TXOVPAID2', 'payment', 'PJOVPAID2', 'M3b', 'paid'),
    row('TXOVREFD1', 'payment', 'PJOVREFD1', 'M3a', 'paid'),
    row('TXOVAUTH1', 'payment', 'PJOVAUTH1', 'M3a', 'reserved'),
    row('TXOVFAIL1', 'payment', 'PJOVFAIL1', 'M3a', 'declined'),
  ]);
  // A completed refund makes PJOVREFD1 refunded; one still in progress leaves PJOVPAID2 paid.
  await insertTransactions(db, [
    row('RFOVREFD1', 'refund', 'PJOVREFD1', 'M3a', 'paid', 'TXOVREFD1', 1000),
    row('RFOVPAID2', 'refund', 'PJOVPAID2', 'M3b', 'pending', 'TXOVPAID2', 500),
  ]);
}

describe.each(databaseKinds)('the payment jobs overview and trace on %s', (kind) => {
  let database: Database;
  let call: ReturnType<typeof createTestApp>['call'];
  beforeAll(async () => {
    database = await createTestDatabase(kind);
    await insertFixtureWorld(database);
    await insertOverviewFixtures(database);
    ({ call } = createTestApp(database));
  });
  afterAll(async () => database?.close());

  const references = async (userId: string, path: string, query: Record<string, string> = {}) => {
    const response = await call(userId, 'GET', `${path}/payment-jobs?${new URLSearchParams({ pagesize: '100', ...query }).toString()}`);
    expect(response.status, await response.clone().text()).toBe(200);
    const list = paymentJobList.assert(await response.json());
    expect(list.numberOfResults).toBe(list.results.length);
    return list.results
      .map((job) => job.reference)
      .filter((reference) => reference.startsWith('PJOV'))
      .sort();
  };

  it("lists the business's jobs across its merchants and configurations, and no other business's", async () => {
    const all = await references(users.owner, '/businesses/B3');
    expect(all).toEqual(['PJOVAUTH1', 'PJOVFAIL1', 'PJOVGONE1', 'PJOVLATE1', 'PJOVOPEN1', 'PJOVOPEN2', 'PJOVPAID1', 'PJOVPAID2', 'PJOVREFD1']);
    expect(await references(users.owner, '/businesses/B3', { configurationid: '[eq]C-M3b' })).toEqual(['PJOVOPEN2', 'PJOVPAID2']);
    expect(await references(users.owner, '/businesses/B3/merchants/M3b')).toEqual(['PJOVOPEN2', 'PJOVPAID2']);
    // A configuration of another merchant narrows a merchant's list to nothing.
    expect(await references(users.owner, '/businesses/B3/merchants/M3b', { configurationid: '[eq]C-M3a' })).toEqual([]);
  });

  it("lists a partner's businesses' jobs, and the contexts of other tenants answer 404", async () => {
    expect(await references(users.partner, '/partners/P1')).toEqual(['PJOVB1OPN', 'PJOVB2OPN']);
    expect(await references(users.partner, '/partners/P1', { tab: '[eq]open', configurationid: '[eq]C-M2a' })).toEqual(['PJOVB2OPN']);
    expect((await call(users.owner, 'GET', '/partners/P1/payment-jobs')).status).toBe(404);
    expect((await call(users.owner, 'GET', '/businesses/B1/payment-jobs?tab=[eq]open')).status).toBe(404);
    expect((await call(users.partner, 'GET', '/businesses/B3/payment-jobs?tab=[eq]open')).status).toBe(404);
    expect((await call(users.owner, 'GET', '/businesses/B3/merchants/M1a/payment-jobs')).status).toBe(404);
  });

  it('takes each tab’s jobs: open, authorised and not captured, paid, refunded, failed; no job in two', async () => {
    const tabs = Object.fromEntries(
      await Promise.all(paymentJobTabs.map(async (tab) => [tab, await references(users.owner, '/businesses/B3', { tab: `[eq]${tab}` })] as const)),
    );
    expect(tabs).toEqual({
      // PJOVLATE1 is still 'pending' but past its expiry: the shopper can no longer pay it.
      open: ['PJOVOPEN1', 'PJOVOPEN2'],
      authorised: ['PJOVAUTH1'],
      // PJOVPAID2's refund is still in progress: paid, not refunded.
      paid: ['PJOVPAID1', 'PJOVPAID2'],
      refunded: ['PJOVREFD1'],
      failed: ['PJOVFAIL1'],
    });
    const seen = Object.values(tabs).flat();
    expect(new Set(seen).size).toBe(seen.length);
    // Several tabs at once: any of their jobs; with the configuration filter too.
    expect(await references(users.owner, '/businesses/B3', { tab: '[eq]open[and][eq]failed', configurationid: '[eq]C-M3a' })).toEqual([
      'PJOVFAIL1',
      'PJOVOPEN1',
    ]);
  });

  it('refuses a tab that does not exist with a 400 naming it', async () => {
    const response = await call(users.owner, 'GET', '/businesses/B3/payment-jobs?tab=[eq]shipped');
    expect(response.status).toBe(400);
    expect(JSON.stringify(await response.json())).toMatch(/tab/);
  });

  it("traces a payment's whole life: authorisation, capture, each refund's steps and the chargeback, never a negative duration", async () => {
    // A refund asked for through the API (the owner may refund), then processed and completed by the acquirer, then a
    // chargeback of the rest.
    const payment = 'TXOVPAID1';
    const asked = await call(users.owner, 'POST', '/businesses/B3/payment-jobs/PJOVPAID1/payments/TXOVPAID1/actions/refund', {
      amount: 20,
      reason: 'requestedByCustomer',
      version: 1,
    });
    expect(asked.status, await asked.clone().text()).toBe(201);
    const { refundId } = (await asked.json()) as { refundId: string };
    const [refund] = await database.db.select().from(schema.transactions).where(eq(schema.transactions.reference, refundId));
    const requested = refund?.createdAt ?? created;
    // The acquirer answers within the same second: the steps are closer together than a request's latency.
    await database.db.transaction((tx) => advanceRefund(tx, refundId, 'processing', new Date(requested.getTime() + 200)));
    await database.db.transaction((tx) => advanceRefund(tx, refundId, 'completed', new Date(requested.getTime() + 400)));
    expect(
      await database.db.transaction((tx) =>
        recordChargeback(tx, payment, { reason: 'Goods or services not provided' }, new Date(requested.getTime() + 86_400_000)),
      ),
    ).not.toBeNull();

    const response = await call(users.owner, 'GET', '/businesses/B3/traces/TROVPAID1?advanced=true');
    expect(response.status, await response.clone().text()).toBe(200);
    const trace = paymentTrace.assert(await response.json());
    const answers = trace.traceSequences.filter((sequence) => sequence.direction === 'inbound').map((sequence) => sequence.message);
    expect(answers).toEqual([
      'Authorisation answered: Authorised',
      'Capture answered: Captured (Captured with the authorisation)',
      'Refund answered: Refund requested',
      'Refund answered: Refund processing',
      'Refund answered: Refunded',
      'Chargeback answered: Charged back (Goods or services not provided)',
    ]);
    expect(trace.traceSequences.filter((sequence) => sequence.direction === 'outbound').map((sequence) => sequence.message)).toContain(
      `Refund request sent (${refundId})`,
    );
    for (const sequence of trace.traceSequences) expect(sequence.durationMs ?? 0, `sequence ${sequence.sequence}`).toBeGreaterThanOrEqual(0);
    const times = trace.traceSequences.map((sequence) => Date.parse(sequence.timestampUtc));
    expect(times).toEqual([...times].sort((a, b) => a - b));
    // Raw messages keep the card masked.
    expect(JSON.stringify(trace)).not.toContain('4111111111111111');
    // A refund of another payment is not in this one's trace.
    const [other] = await database.db.select().from(schema.transactions).where(eq(schema.transactions.reference, 'RFOVPAID2'));
    expect(other?.parentReference).toBe('TXOVPAID2');
    expect(JSON.stringify(trace)).not.toContain('RFOVPAID2');
  });
});
