// Money under concurrency, through the Portal API on PostgreSQL: two refunds at once whose sum exceeds what was
// captured, a capture racing a void of the same authorisation, and a refund completing while the settlement cut-off
// closes its batch. After each: never over-refunded, ledger = payments, every posting sums to zero, the trial balance
// is zero per currency and every closed batch leaves the trading account at zero (its payout took all of it).
//
// PostgreSQL only: PGlite runs one transaction at a time, so nothing overlaps there and these tests would prove
// nothing. The cut-off races are not left to luck: a third connection holds a table lock that one side needs later,
// so the other side is known to run while the first is half-way, in both orders.
import pg from 'pg';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { paymentJobDetail } from '../../../src/contract/payment-job-schemas.ts';
import { merchantAccountNumber } from '../../../src/contract/ledger.ts';
import type { Database } from '../../../server/db/client.ts';
import * as schema from '../../../server/db/schema.ts';
import { closeDueBatches } from '../../../server/ledger/close-batches.ts';
import { advanceRefund } from '../../../server/payments/payment-operations.ts';
import { createTestApp, createTestDatabase, databaseKinds, fixture, insertFixtureWorld } from '../support.ts';

const { users } = fixture;
const B3 = '/businesses/B3';
const account = merchantAccountNumber('M3a', 'GBP');
const day = '2026-11-10';
const at = (time: string) => new Date(`${day}T${time}Z`);

describe.runIf(databaseKinds.includes('postgres'))('money under concurrency on PostgreSQL', () => {
  const kind = 'postgres' as const;
  let database: Database;
  let call: ReturnType<typeof createTestApp>['call'];
  let jobs = 0;

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    await insertFixtureWorld(database);
    ({ call } = createTestApp(database));
  });
  afterAll(async () => database?.close());
  // The actions take their time from the clock: it stands still on the settlement day, so captures and refunds land
  // in that day's batch whatever the date the suite runs on.
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(at('10:00:00'));
  });
  afterEach(() => vi.useRealTimers());

  /** A fresh authorisation of M3a (reserved, not captured): its job reference and payment id. */
  async function authorisation(amountMinor: number): Promise<{ job: string; payment: string }> {
    jobs += 1;
    const job = `PJC${String(jobs).padStart(4, '0')}`;
    const payment = `TXC${String(jobs).padStart(4, '0')}`;
    await database.db.insert(schema.paymentJobs).values({
      reference: job,
      businessId: 'B3',
      partnerId: null,
      merchantId: 'M3a',
      configurationId: 'C-M3a',
      createDateTimeUtc: at('09:00:00'),
      expirationDateTimeUtc: null,
      orderNumber: `ORD-${job}`,
      amountMinor,
      currency: 'GBP',
      status: 'reserved',
      order: {},
    });
    await database.db.insert(schema.transactions).values({
      reference: payment,
      kind: 'payment',
      parentReference: null,
      partnerId: null,
      businessId: 'B3',
      merchantId: 'M3a',
      configurationId: 'C-M3a',
      paymentJobReference: job,
      createdAt: at('09:00:00'),
      amountMinor,
      currency: 'GBP',
      status: 'reserved',
      paymentMethod: 'card',
      channel: 'Gateway',
    });
    return { job, payment };
  }
  const version = async (job: string) => {
    const response = await call(users.owner, 'GET', `${B3}/payment-jobs/${job}`);
    expect(response.status).toBe(200);
    return paymentJobDetail.assert(await response.json()).version;
  };
  const act = async (target: { job: string; payment: string }, action: string, body: Record<string, unknown>) => {
    const response = await call(users.owner, 'POST', `${B3}/payment-jobs/${target.job}/payments/${target.payment}/actions/${action}`, body);
    return { status: response.status, body: (await response.json()) as { refundId?: string; message?: string } };
  };
  async function captured(amountMinor: number) {
    const target = await authorisation(amountMinor);
    const answer = await act(target, 'capture', { amount: amountMinor / 100, version: await version(target.job) });
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    return target;
  }
  /** Takes a requested refund to the acquirer (processing), so that the next step completes it. */
  const toProcessing = (refundId: string) => database.db.transaction((tx) => advanceRefund(tx, refundId, 'processing', at('11:00:00')));
  const complete = (refundId: string, when: Date) => database.db.transaction((tx) => advanceRefund(tx, refundId, 'completed', when));
  const cutOff = (asOf: Date) => database.db.transaction((tx) => closeDueBatches(tx, asOf));

  /** What the transactions say of a payment, and what the ledger's trading account was credited and debited for it. */
  async function ledgerAndPayment(payment: string) {
    const [row] = await database.query<{ captured: string; refunded: string; sales: string; refunds: string; status: string }>(
      `SELECT p.status,
         (SELECT coalesce(sum(c.amount_minor), 0) FROM transactions c WHERE c.parent_reference = p.reference AND c.kind = 'capture' AND c.status = 'paid')::text AS captured,
         (SELECT coalesce(sum(r.amount_minor), 0) FROM transactions r WHERE r.parent_reference = p.reference AND r.kind = 'refund' AND r.status = 'paid')::text AS refunded,
         (SELECT coalesce(sum(e.amount_minor), 0) FROM ledger_entries e JOIN transactions t ON t.reference = e.transaction_reference
            WHERE (t.reference = p.reference OR t.parent_reference = p.reference) AND e.account_id = $2 AND e.category = 'sale')::text AS sales,
         (SELECT coalesce(-sum(e.amount_minor), 0) FROM ledger_entries e JOIN transactions t ON t.reference = e.transaction_reference
            WHERE t.parent_reference = p.reference AND e.account_id = $2 AND e.category = 'refund')::text AS refunds
       FROM transactions p WHERE p.reference = $1`,
      [payment, `${account}:trading`],
    );
    if (!row) throw new Error(`no payment ${payment}`);
    return { status: row.status, captured: Number(row.captured), refunded: Number(row.refunded), sales: Number(row.sales), refunds: Number(row.refunds) };
  }

  /** The ledger's invariants over the whole database. */
  async function expectLedgerInvariants() {
    const unbalanced = await database.query(
      `SELECT posting_id, sum(amount_minor)::text AS total FROM ledger_entries GROUP BY posting_id HAVING sum(amount_minor) <> 0`,
    );
    expect(unbalanced).toEqual([]);
    const trial = await database.query(`SELECT currency, sum(amount_minor)::text AS total FROM ledger_entries GROUP BY currency HAVING sum(amount_minor) <> 0`);
    expect(trial).toEqual([]);
    const orphans = await database.query(`SELECT p.id FROM ledger_postings p WHERE NOT EXISTS (SELECT 1 FROM ledger_entries e WHERE e.posting_id = p.id)`);
    expect(orphans).toEqual([]);
    // A closed batch paid out everything its trading account moved: nothing was posted into it behind the payout.
    const leftOver = await database.query(`SELECT b.id, sum(e.amount_minor)::text AS rest FROM settlement_batches b
        JOIN ledger_entries e ON e.batch_id = b.id AND e.account_id = b.account_number || ':trading'
      WHERE b.status = 'Closed' GROUP BY b.id HAVING sum(e.amount_minor) <> 0`);
    expect(leftOver).toEqual([]);
    // A batch's refund total is the refunds posted into it.
    const refundTotals =
      await database.query(`SELECT b.id, b.refunds_minor::text AS kept, coalesce(sum(-e.amount_minor), 0)::text AS posted FROM settlement_batches b
        LEFT JOIN ledger_entries e ON e.batch_id = b.id AND e.account_id = b.account_number || ':trading' AND e.category = 'refund'
      GROUP BY b.id, b.refunds_minor HAVING b.refunds_minor <> coalesce(sum(-e.amount_minor), 0)`);
    expect(refundTotals).toEqual([]);
  }

  it('lets one of two refunds at once through when together they exceed what was captured; never over-refunds', async () => {
    for (let round = 0; round < 4; round += 1) {
      const target = await captured(5000);
      const seen = await version(target.job);
      const answers = await Promise.all([
        act(target, 'refund', { amount: 30, reason: 'requestedByCustomer', version: seen }),
        act(target, 'refund', { amount: 30, reason: 'requestedByCustomer', version: seen }),
      ]);
      // Both read the same version: exactly one refund is made, the other is told the view is stale.
      expect(answers.map((answer) => answer.status).sort()).toEqual([201, 409]);
      // Retried on what is there now, it is refused: £20.00 is all that is left.
      const retry = await act(target, 'refund', { amount: 30, reason: 'requestedByCustomer', version: await version(target.job) });
      expect(retry.status).toBe(400);
      const within = await Promise.all([
        act(target, 'refund', { amount: 10, reason: 'requestedByCustomer', version: await version(target.job) }),
        act(target, 'refund', { amount: 5, reason: 'requestedByCustomer', version: await version(target.job) }),
      ]);
      // Two that fit together in the £20.00 left, each on a version read as the other may be committing: at least one
      // goes through (the other is stale or fits too).
      const made = [...answers, ...within].filter((answer) => answer.status === 201).map((answer) => answer.body.refundId as string);
      expect(made.length).toBeGreaterThanOrEqual(2);
      for (const refundId of made) {
        await toProcessing(refundId);
        await complete(refundId, at('12:00:00'));
      }
      const money = await ledgerAndPayment(target.payment);
      expect(money.refunded).toBeLessThanOrEqual(money.captured);
      expect(money.refunded).toBe(3000 + within.reduce((sum, answer, index) => sum + (answer.status === 201 ? ([1000, 500][index] ?? 0) : 0), 0));
      expect(money).toMatchObject({ captured: 5000, sales: 5000, refunds: money.refunded });
    }
    await expectLedgerInvariants();
  });

  it('lets one of a capture and a void of the same authorisation win; the ledger follows the winner', async () => {
    const winners = new Set<string>();
    for (let round = 0; round < 6; round += 1) {
      const target = await authorisation(4908);
      const seen = await version(target.job);
      const [capture, voided] = await Promise.all([
        act(target, 'capture', { amount: 49.08, version: seen }),
        act(target, 'void', { reason: 'Out of stock', version: seen }),
      ]);
      // Both read the same version: one acts, the other is told the view is stale.
      expect([capture.status, voided.status]).toContain(409);
      expect([capture.status === 201, voided.status === 200].filter(Boolean)).toHaveLength(1);
      const money = await ledgerAndPayment(target.payment);
      if (capture.status === 201) {
        winners.add('capture');
        expect(money).toEqual({ status: 'paid', captured: 4908, refunded: 0, sales: 4908, refunds: 0 });
      } else {
        winners.add('void');
        expect(money).toEqual({ status: 'cancelled', captured: 0, refunded: 0, sales: 0, refunds: 0 });
      }
      // The loser, retried on the winner's version, is refused: a voided payment cannot be captured, a captured one not voided.
      const retry =
        capture.status === 201
          ? await act(target, 'void', { version: await version(target.job) })
          : await act(target, 'capture', { amount: 49.08, version: await version(target.job) });
      expect(retry.status).toBe(400);
      expect(await ledgerAndPayment(target.payment)).toEqual(money);
    }
    expect(winners.size).toBeGreaterThan(0);
    await expectLedgerInvariants();
  });

  describe('a refund completing while the cut-off closes its batch', () => {
    let blocker: pg.Client;
    beforeEach(async () => {
      const [current] = await database.query<{ name: string }>('SELECT current_database() AS name');
      blocker = new pg.Client({ connectionString: withDatabase(process.env.TEST_DATABASE_URL ?? '', current?.name ?? '') });
      await blocker.connect();
    });
    afterEach(async () => blocker.end());

    /** Backends of this database waiting for a lock (not the blocker). */
    const waiting = async () =>
      Number(
        (
          await database.query<{ n: string }>(
            `SELECT count(*)::text AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`,
          )
        )[0]?.n ?? 0,
      );
    async function until(condition: () => Promise<boolean>, what: string) {
      for (let attempt = 0; attempt < 400; attempt += 1) {
        if (await condition()) return;
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      throw new Error(`timed out waiting for ${what}`);
    }
    /** A payment captured on the day with a refund of part of it at the acquirer, waiting for its answer. */
    async function refundInFlight(batchDay: string) {
      vi.setSystemTime(new Date(`${batchDay}T10:00:00Z`));
      const target = await captured(5000);
      const refund = await act(target, 'refund', { amount: 12.34, reason: 'requestedByCustomer', version: await version(target.job) });
      expect(refund.status, JSON.stringify(refund.body)).toBe(201);
      const refundId = refund.body.refundId as string;
      await database.db.transaction((tx) => advanceRefund(tx, refundId, 'processing', new Date(`${batchDay}T11:00:00Z`)));
      return { ...target, refundId };
    }
    const nextDay = (value: string) => new Date(Date.parse(`${value}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);

    it('pays the refund out with its batch when the refund holds the batch first and the cut-off comes in between', async () => {
      const batchDay = '2026-11-12';
      const { payment, refundId } = await refundInFlight(batchDay);
      // The refund gets as far as its ledger entries (its batch row locked) and then waits for its audit event.
      await blocker.query('BEGIN');
      await blocker.query('LOCK TABLE audit_events IN SHARE MODE');
      const refunding = complete(refundId, new Date(`${batchDay}T23:59:59Z`));
      await until(async () => (await waiting()) === 1, 'the refund to reach its audit event');
      const cutting = cutOff(new Date(`${nextDay(batchDay)}T00:00:30Z`));
      await until(async () => (await waiting()) === 2, 'the cut-off to wait for the refund');
      await blocker.query('COMMIT');
      expect(await refunding).toBe(true);
      expect(await cutting).toBeGreaterThan(0);
      const money = await ledgerAndPayment(payment);
      expect(money).toMatchObject({ captured: 5000, refunded: 1234, sales: 5000, refunds: 1234 });
      const [batch] = await database.query<{ status: string; net: string }>(`SELECT status, net_minor::text AS net FROM settlement_batches WHERE id = $1`, [
        `B${account}-${batchDay.replaceAll('-', '')}`,
      ]);
      expect(batch?.status).toBe('Closed');
      await expectLedgerInvariants();
    });

    it('puts the refund in the next open batch when the cut-off holds its batch first and the refund comes in between', async () => {
      const batchDay = '2026-11-14';
      const { payment, refundId } = await refundInFlight(batchDay);
      // The cut-off gets as far as its transfers (after the payouts are reckoned) and then waits.
      await blocker.query('BEGIN');
      await blocker.query('LOCK TABLE ledger_transfers IN SHARE MODE');
      const cutting = cutOff(new Date(`${nextDay(batchDay)}T00:00:30Z`));
      await until(async () => (await waiting()) === 1, 'the cut-off to reach its transfers');
      // The refund's clock still says the batch's day (its request began before midnight).
      const refunding = complete(refundId, new Date(`${batchDay}T23:59:59Z`));
      let refunded = false;
      void refunding.then(
        () => {
          refunded = true;
        },
        () => {
          refunded = true;
        },
      );
      await until(async () => refunded || (await waiting()) === 2, 'the refund to finish or wait for the cut-off');
      await blocker.query('COMMIT');
      expect(await cutting).toBeGreaterThan(0);
      expect(await refunding).toBe(true);
      const money = await ledgerAndPayment(payment);
      expect(money).toMatchObject({ captured: 5000, refunded: 1234, sales: 5000, refunds: 1234 });
      // The refund is in a batch still open, to be paid out at the next cut-off.
      const [posted] = await database.query<{ status: string }>(
        `SELECT b.status FROM ledger_postings p JOIN settlement_batches b ON b.id = p.batch_id WHERE p.id = $1`,
        [`refund:${refundId}`],
      );
      expect(posted?.status).toBe('Open');
      await expectLedgerInvariants();
      expect(await cutOff(new Date(`${nextDay(nextDay(batchDay))}T00:00:30Z`))).toBeGreaterThan(0);
      await expectLedgerInvariants();
    });
  });
});

function withDatabase(url: string, name: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${name}`;
  return parsed.toString();
}
