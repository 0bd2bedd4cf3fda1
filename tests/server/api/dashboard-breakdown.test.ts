// The dashboard's breakdown: a period's measures by merchant, payment method or status, under the same
// definitions as the dashboard, so the rows add up to its totals; scoped, permission-checked and validated like it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { totalsOf } from '../../../src/contract/dashboard-intervals.ts';
import { breakdownResponseSchema, type BreakdownResponse, type DashboardResponse } from '../../../src/contract/dashboard.ts';
import type { Database } from '../../../server/db/client.ts';
import type { NewTransactionRow } from '../../../server/stats/record-transaction.ts';
import { insertTransactions, updateTransaction } from '../transaction-writers.ts';
import { createTestApp, createTestDatabase, databaseKinds, fixture, insertFixtureWorld } from '../support.ts';

const { users } = fixture;
const london = { 'time-zone': 'Europe/London' };
const merchantOf = { M1a: ['B1', 'P1'], M1b: ['B1', 'P1'], M3a: ['B3', null] } as const;

function payment(
  reference: string,
  merchantId: keyof typeof merchantOf,
  createdAt: string,
  amountMinor: number,
  status = 'paid',
  paymentMethod = 'card',
  currency = 'GBP',
): NewTransactionRow {
  const [businessId, partnerId] = merchantOf[merchantId];
  return {
    reference,
    kind: 'payment',
    businessId,
    partnerId,
    merchantId,
    configurationId: `C-${merchantId}`,
    paymentJobReference: `PJ-${reference}`,
    createdAt: new Date(createdAt),
    amountMinor,
    currency,
    status,
    paymentMethod,
    channel: 'Gateway',
    declineReason: status === 'declined' ? 'Insufficient funds' : null,
  };
}

describe.each(databaseKinds)('dashboard breakdown API on %s', (kind) => {
  let database: Database;
  let call: ReturnType<typeof createTestApp>['call'];

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    await insertFixtureWorld(database);
    await database.db.transaction(async (tx) => {
      await insertTransactions(tx, [
        payment('TXB00001', 'M1a', '2030-06-10T09:00:00Z', 1000),
        payment('TXB00002', 'M1a', '2030-06-11T09:00:00Z', 2500, 'paid', 'applePay'),
        payment('TXB00003', 'M1a', '2030-06-12T09:00:00Z', 400, 'declined'),
        payment('TXB00004', 'M1a', '2030-06-12T10:00:00Z', 300, 'failed', 'payPal'),
        payment('TXB00005', 'M1b', '2030-06-13T09:00:00Z', 700),
        payment('TXB00006', 'M1b', '2030-06-14T09:00:00Z', 900, 'pending'),
        payment('TXB00007', 'M1a', '2030-06-14T09:00:00Z', 5000, 'paid', 'card', 'EUR'),
        // Outside the week: the 9th in London ends at 23:00 UTC.
        payment('TXB00008', 'M1a', '2030-06-09T22:59:00Z', 111),
        payment('TXB00009', 'M1a', '2030-06-16T23:00:00Z', 222),
        payment('TXB00010', 'M3a', '2030-06-12T09:00:00Z', 333),
      ]);
      // A refund of the Apple Pay payment made after the period: it counts in its payment's row.
      await insertTransactions(tx, [
        { ...payment('TXB00011', 'M1a', '2030-07-02T10:00:00Z', 600, 'paid', 'applePay'), kind: 'refund', parentReference: 'TXB00002' },
      ]);
      await updateTransaction(tx, 'TXB00006', { status: 'paid' });
    });
    ({ call } = createTestApp(database));
  });
  afterAll(async () => database?.close());

  const week = { startDate: '2030-06-10', endDate: '2030-06-16' };

  async function breakdown(path: string, body: unknown, userId: string = users.admin) {
    const response = await call(userId, 'POST', `${path}/dashboard/breakdown`, body, london);
    expect(response.status, await response.clone().text()).toBe(200);
    const json = (await response.json()) as BreakdownResponse;
    expect(breakdownResponseSchema(json)).not.toBeInstanceOf(Error);
    return json;
  }

  it('breaks a business week down by merchant, largest volume first, with the merchants named', async () => {
    const result = await breakdown('/businesses/B1', { by: 'merchant', dateRange: week });
    expect(result).toMatchObject({ startDate: '2030-06-10', endDate: '2030-06-16', currency: 'GBP', by: 'merchant' });
    expect(result.rows).toEqual([
      { key: 'M1a', label: 'Alpha Online', volume: 3500, revenue: 2900, unsuccessfulVolume: 700, unsuccessfulRevenue: 700, salesCount: 2, count: 4 },
      { key: 'M1b', label: 'Alpha Stores', volume: 1600, revenue: 1600, unsuccessfulVolume: 0, unsuccessfulRevenue: 0, salesCount: 2, count: 2 },
    ]);
  });

  it('breaks it down by payment method and by status', async () => {
    const methods = await breakdown('/businesses/B1', { by: 'paymentMethod', dateRange: week });
    expect(methods.rows.map((row) => [row.key, row.volume, row.revenue, row.unsuccessfulVolume, row.count])).toEqual([
      ['card', 2600, 2600, 400, 4],
      ['applePay', 2500, 1900, 0, 1],
      ['payPal', 0, 0, 300, 1],
    ]);
    const statuses = await breakdown('/businesses/B1/merchants/M1a', { by: 'status', dateRange: week });
    expect(statuses.rows.map((row) => [row.label, row.volume, row.unsuccessfulVolume, row.salesCount, row.count])).toEqual([
      ['paid', 3500, 0, 2, 2],
      ['declined', 0, 400, 0, 1],
      ['failed', 0, 300, 0, 1],
    ]);
    const euros = await breakdown('/businesses/B1/merchants/M1a', { by: 'status', dateRange: week, currency: 'EUR' });
    expect(euros.rows).toEqual([expect.objectContaining({ key: 'paid', volume: 5000, count: 1 })]);
  });

  it("adds up to the dashboard's totals for the same period, whatever it is broken down by", async () => {
    for (const path of ['/businesses/B1', '/businesses/B1/merchants/M1a', '/partners/P1']) {
      const response = await call(users.admin, 'POST', `${path}/dashboard`, { interval: 'custom', dateRange: week }, london);
      const totals = totalsOf(((await response.json()) as DashboardResponse).datapoints);
      for (const by of ['merchant', 'paymentMethod', 'status'] as const) {
        const rows = (await breakdown(path, { by, dateRange: week })).rows;
        for (const measure of ['volume', 'revenue', 'unsuccessfulVolume', 'unsuccessfulRevenue', 'salesCount'] as const) {
          expect(
            rows.reduce((sum, row) => sum + row[measure], 0),
            `${path} by ${by}: ${measure}`,
          ).toBe(totals[measure]);
        }
      }
    }
  });

  it("keeps to the caller's reach: 404 outside it, 403 without the dashboard permission, 400 on a bad body", async () => {
    expect((await call(users.owner, 'POST', '/businesses/B1/dashboard/breakdown', { by: 'merchant', dateRange: week }, london)).status).toBe(404);
    const owned = await breakdown('/businesses/B3', { by: 'merchant', dateRange: week }, users.owner);
    expect(owned.rows.map((row) => row.key)).toEqual(['M3a']);
    expect(
      (await call(users.merchantOnly, 'POST', '/businesses/B1/merchants/M1b/dashboard/breakdown', { by: 'merchant', dateRange: week }, london)).status,
    ).toBe(403);
    for (const body of [
      { by: 'channel', dateRange: week },
      { by: 'merchant', dateRange: { startDate: '2030-06-16', endDate: '2030-06-10' } },
      { by: 'merchant', dateRange: week, extra: 1 },
    ]) {
      const response = await call(users.admin, 'POST', '/businesses/B1/dashboard/breakdown', body, london);
      expect(response.status).toBe(400);
      expect(await response.json()).toHaveProperty('errorReport');
    }
  });
});
