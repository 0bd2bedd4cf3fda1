// Money that reads right: refunds and refunded payments as the list and detail answer them, the
// amount filter in each row's own currency and the sort within one currency, and the overview's totals equal to the
// dashboard's for the same period and filter.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DashboardResponse } from '../../../src/contract/dashboard.ts';
import { amountNeedsCurrencyMessage, displayStatusOf } from '../../../src/contract/transactions.ts';
import { transactionDetail, transactionList, transactionTotals } from '../../../src/contract/transaction-schemas.ts';
import type { Database } from '../../../server/db/client.ts';
import { statsInsertSql } from '../../../server/seed/seed.ts';
import { rebuildStatsRollups } from '../../../server/stats/rebuild.ts';
import type { NewTransactionRow } from '../../../server/stats/record-transaction.ts';
import { insertTransactions } from '../transaction-writers.ts';
import { createTestApp, createTestDatabase, databaseKinds, fixture, insertFixtureWorld } from '../support.ts';
import { insertExtraTransactions } from './transaction-fixtures.ts';

const { users } = fixture;
const q = (params: Record<string, string>) => `?${new URLSearchParams(params).toString()}`;
const london = { 'time-zone': 'Europe/London' };

function row(reference: string, merchantId: 'M1a' | 'M1b', createdAt: string, amountMinor: number, extra: Partial<NewTransactionRow> = {}): NewTransactionRow {
  return {
    reference,
    kind: 'payment',
    businessId: 'B1',
    partnerId: 'P1',
    merchantId,
    configurationId: `C-${merchantId}`,
    paymentJobReference: `PJ-${reference}`,
    createdAt: new Date(createdAt),
    amountMinor,
    currency: 'EUR',
    status: 'paid',
    paymentMethod: 'card',
    channel: 'Gateway',
    declineReason: null,
    ...extra,
  };
}

describe.each(databaseKinds)('money that reads right on %s', (kind) => {
  let database: Database;
  let call: ReturnType<typeof createTestApp>['call'];
  beforeAll(async () => {
    database = await createTestDatabase(kind);
    await insertFixtureWorld(database);
    await insertExtraTransactions(database);
    await database.db.transaction(async (tx) => {
      await tx.execute(sql.raw(statsInsertSql));
      await rebuildStatsRollups(tx);
    });
    // March 2026 in EUR for B1: paid, refunded in part and in full (one refund made in April), declined, failed, pending.
    await database.db.transaction(async (tx) => {
      await insertTransactions(tx, [
        row('TXM00001', 'M1a', '2026-03-02T10:00:00Z', 10_000),
        row('TXM00002', 'M1a', '2026-03-03T10:00:00Z', 6_000),
        row('TXM00003', 'M1b', '2026-03-04T10:00:00Z', 2_500),
        row('TXM00004', 'M1a', '2026-03-05T10:00:00Z', 4_000, { status: 'declined', declineReason: 'Insufficient funds' }),
        row('TXM00005', 'M1a', '2026-03-06T10:00:00Z', 1_500, { status: 'failed', declineReason: 'Issuer unavailable' }),
        row('TXM00006', 'M1a', '2026-03-07T10:00:00Z', 700, { status: 'pending' }),
        row('TXM00007', 'M1a', '2026-03-31T23:30:00Z', 900), // 00:30 on 1 April in London (summer time): outside March there
        row('TXM00008', 'M1a', '2026-02-28T10:00:00Z', 800),
      ]);
      await insertTransactions(tx, [
        row('TXM0000R1', 'M1a', '2026-03-10T10:00:00Z', 2_000, { kind: 'refund', parentReference: 'TXM00001' }),
        row('TXM0000R2', 'M1a', '2026-04-02T10:00:00Z', 6_000, { kind: 'refund', parentReference: 'TXM00002' }),
        // A refund in March of a February payment counts with its payment (February), as the dashboard says.
        row('TXM0000R3', 'M1a', '2026-03-12T10:00:00Z', 300, { kind: 'refund', parentReference: 'TXM00008' }),
        row('TXM0000R4', 'M1a', '2026-03-13T10:00:00Z', 100, { kind: 'refund', parentReference: 'TXM00003', status: 'declined' }),
      ]);
    });
    ({ call } = createTestApp(database));
  });
  afterAll(async () => database?.close());

  async function get(path: string, headers: Record<string, string> = london) {
    const response = await call(users.admin, 'GET', path, undefined, headers);
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  }
  const messagesOf = (body: Record<string, unknown>) => (body.errorReport as { errors: { message: string }[] }).errors.map((error) => error.message);

  it('answers what a payment’s paid refunds came to, so it reads Refunded or Partially refunded', async () => {
    const { body } = await get(
      `/businesses/B1/transactions${q({ currency: '[eq]EUR', date: '[gte]2026-03-01[and][lte]2026-03-31', kind: '[eq]payment', pagesize: '50' })}`,
    );
    const list = transactionList.assert(body);
    const status = (reference: string) => {
      const item = list.results.find((candidate) => candidate.reference === reference);
      if (!item) throw new Error(`${reference} not listed`);
      return displayStatusOf(item);
    };
    expect(status('TXM00001')).toBe('partiallyRefunded');
    expect(status('TXM00002')).toBe('refunded');
    expect(status('TXM00003')).toBe('paid'); // its only refund was declined
    expect(status('TXM00004')).toBe('declined');
    const detail = transactionDetail.assert((await get('/transactions/TXM00001')).body);
    expect(detail.refundedAmount).toBe(20);
    expect(displayStatusOf(detail)).toBe('partiallyRefunded');
  });

  describe('amounts compare within one currency', () => {
    it('takes an amount without exactly one currency in each row’s own currency on the list and the count; totals still need one', async () => {
      for (const params of [{ amount: '[gte]50' }, { amount: '[gte]50', currency: '[eq]EUR[and][eq]JPY' }] as Record<string, string>[]) {
        const answer = await get(`/transactions${q({ ...params, pagesize: '100' })}`);
        expect(answer.status).toBe(200);
        const list = transactionList.assert(answer.body);
        expect(list.results.length).toBeGreaterThan(0);
        // Each row compared in its own major units: at least 50 of its own currency, none converted.
        expect(list.results.every((item) => item.amount >= 50)).toBe(true);
        const counted = await get(`/transactions/count${q(params)}`);
        expect(counted.status).toBe(200);
        expect((counted.body as { numberOfResults: number }).numberOfResults).toBe(list.numberOfResults);
      }
      const totals = await get(`/transactions/totals${q({ amount: '[gte]50' })}`);
      expect(totals.status).toBe(400);
      expect(messagesOf(totals.body)).not.toContain(amountNeedsCurrencyMessage);
    });

    it('never lets ¥15,800 pass “at least 50” meant in euros', async () => {
      await database.query(`INSERT INTO transactions (reference, kind, business_id, merchant_id, partner_id, configuration_id, payment_job_reference, created_at,
        amount_minor, currency, status, payment_method, channel) VALUES ('TXJPY15800', 'payment', 'B3', 'M3b', NULL, 'C-M3b', 'PJ-TXJPY', '2026-03-03T10:00:00Z', 15800, 'JPY', 'paid', 'card', 'Gateway')`);
      const euros = transactionList.assert((await get(`/transactions${q({ amount: '[gte]50', currency: '[eq]EUR', pagesize: '100' })}`)).body);
      expect(euros.results.map((item) => item.currency)).not.toContain('JPY');
      expect(euros.results.every((item) => item.amount >= 50)).toBe(true);
      const yen = transactionList.assert((await get(`/transactions${q({ amount: '[gte]50', currency: '[eq]jpy', pagesize: '100' })}`)).body);
      expect(yen.results.map((item) => item.reference)).toContain('TXJPY15800');
    });

    it('sorts by amount grouped by currency when none or several are chosen, by amount alone within one', async () => {
      for (const direction of ['Ascending', 'Descending']) {
        const { results } = transactionList.assert(
          (await get(`/transactions${q({ OrderingField: 'amount', OrderingDirection: direction, pagesize: '100' })}`)).body,
        );
        const currencies = results.map((item) => item.currency);
        expect(currencies).toEqual([...currencies].sort()); // one block per currency, in code order
        for (const currency of new Set(currencies)) {
          const amounts = results.filter((item) => item.currency === currency).map((item) => item.amount);
          expect(amounts).toEqual([...amounts].sort((a, b) => (direction === 'Ascending' ? a - b : b - a)));
        }
      }
      const euros = transactionList.assert(
        (await get(`/transactions${q({ OrderingField: 'amount', OrderingDirection: 'Descending', currency: '[eq]EUR', pagesize: '100' })}`)).body,
      );
      const amounts = euros.results.map((item) => item.amount);
      expect(amounts).toEqual([...amounts].sort((a, b) => b - a));
    });
  });

  describe('the overview’s totals and the dashboard’s', () => {
    async function dashboardTotals(path: string, body: unknown) {
      const response = await call(users.admin, 'POST', `${path}/dashboard`, body, london);
      expect(response.status).toBe(200);
      const answer = (await response.json()) as DashboardResponse;
      const sum = (measure: 'volume' | 'revenue' | 'unsuccessfulVolume' | 'salesCount') =>
        answer.datapoints.reduce((total, point) => total + point[measure], 0);
      return { volume: sum('volume'), revenue: sum('revenue'), unsuccessfulVolume: sum('unsuccessfulVolume'), salesCount: sum('salesCount') };
    }
    async function overviewTotals(path: string, filters: Record<string, string>) {
      const { status, body } = await get(`${path}/transactions/totals${q(filters)}`);
      expect(status, JSON.stringify(body)).toBe(200);
      return transactionTotals.assert(body);
    }

    it.each([
      ['/businesses/B1', 'month', '2026-03-01', '2026-03-31'],
      ['/businesses/B1/merchants/M1a', 'month', '2026-03-01', '2026-03-31'],
      ['/businesses/B1', 'month', '2026-02-01', '2026-02-28'],
      ['/businesses/B1', 'custom', '2026-03-02', '2026-03-06'],
    ])('add up to the same figures for %s, %s %s to %s', async (path, interval, startDate, endDate) => {
      const dashboard = await dashboardTotals(path, { interval, dateRange: { startDate, endDate }, currency: 'EUR' });
      const overview = await overviewTotals(path, { currency: '[eq]EUR', date: `[gte]${startDate}T00:00:00[and][lte]${endDate}T23:59:59` });
      expect({ volume: overview.volume, revenue: overview.revenue, unsuccessfulVolume: overview.unsuccessfulVolume, salesCount: overview.salesCount }).toEqual(
        dashboard,
      );
    });

    it('states March’s figures as the definitions say: refunds netted on the payment’s date', async () => {
      const overview = await overviewTotals('/businesses/B1', { currency: '[eq]EUR', date: '[gte]2026-03-01T00:00:00[and][lte]2026-03-31T23:59:59' });
      expect(overview).toEqual({
        currency: 'EUR',
        volume: 18_500,
        salesCount: 3,
        refunds: 8_000,
        refundsCount: 2,
        chargebacks: 0,
        chargebacksCount: 0,
        revenue: 10_500,
        unsuccessfulVolume: 5_500,
        unsuccessfulCount: 2,
      });
    });

    it('needs one currency', async () => {
      const answer = await get(`/businesses/B1/transactions/totals${q({ date: '[gte]2026-03-01' })}`);
      expect(answer.status).toBe(400);
      expect((await get(`/businesses/B2/transactions/totals${q({ currency: '[eq]EUR' })}`, {})).status).toBe(200);
    });
  });
});
