// The dashboard counts money truthfully, in two views (server/stats/definition.ts). Through the Portal API on PGlite
// and PostgreSQL: a partially captured payment counts what was captured, never its authorised amount; by payment
// date a refund made today lowers the day of its payment, by activity date it lowers today and leaves last week
// alone; a capture and a chargeback count on their own days by activity date. The parameter is validated. The clock
// stands still on fixed instants (the actions take their time from it).
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { dashboardResponseSchema, type DashboardResponse } from '../../../src/contract/dashboard.ts';
import { paymentJobDetail } from '../../../src/contract/payment-job-schemas.ts';
import type { Database } from '../../../server/db/client.ts';
import * as schema from '../../../server/db/schema.ts';
import { advanceRefund, recordChargeback } from '../../../server/payments/payment-operations.ts';
import { createTestApp, createTestDatabase, databaseKinds, fixture, insertFixtureWorld } from '../support.ts';

const { users } = fixture;
const M3a = '/businesses/B3/merchants/M3a';
const utc = { 'time-zone': 'UTC' };
const lastWeek = '2026-11-02';
const captureDay = '2026-11-03';
const today = '2026-11-09';
const chargebackDay = '2026-11-05';
const at = (date: string, time = '10:00:00') => new Date(`${date}T${time}Z`);

describe.each(databaseKinds)('dashboard by payment date and by activity date on %s', (kind) => {
  let database: Database;
  let call: ReturnType<typeof createTestApp>['call'];

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    await insertFixtureWorld(database);
    ({ call } = createTestApp(database));
  });
  afterAll(async () => database?.close());
  afterEach(() => vi.useRealTimers());
  const clockAt = (instant: Date) => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(instant);
  };

  /** An authorisation of M3a made last week (reserved, not captured). */
  async function authorisation(job: string, payment: string, amountMinor: number) {
    await database.db.insert(schema.paymentJobs).values({
      reference: job,
      businessId: 'B3',
      partnerId: null,
      merchantId: 'M3a',
      configurationId: 'C-M3a',
      createDateTimeUtc: at(lastWeek, '09:00:00'),
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
      createdAt: at(lastWeek, '09:00:00'),
      amountMinor,
      currency: 'GBP',
      status: 'reserved',
      paymentMethod: 'card',
      channel: 'Gateway',
    });
  }
  const act = async (job: string, payment: string, action: string, body: Record<string, unknown>) => {
    const detail = await call(users.owner, 'GET', `/businesses/B3/payment-jobs/${job}`);
    expect(detail.status).toBe(200);
    const { version } = paymentJobDetail.assert(await detail.json());
    const response = await call(users.owner, 'POST', `/businesses/B3/payment-jobs/${job}/payments/${payment}/actions/${action}`, { ...body, version });
    const answer = (await response.json()) as { refundId?: string };
    expect(response.status, JSON.stringify(answer)).toBeLessThan(300);
    return answer;
  };
  /** One day's figures (sum of its hours) in a view. */
  async function day(date: string, dateBasis?: 'paymentDate' | 'activityDate') {
    const response = await call(
      users.owner,
      'POST',
      `${M3a}/dashboard`,
      { dateRange: { startDate: date, endDate: date }, interval: 'day', ...(dateBasis ? { dateBasis } : {}) },
      utc,
    );
    expect(response.status, await response.clone().text()).toBe(200);
    const body = dashboardResponseSchema.assert(await response.json()) as DashboardResponse;
    expect(body.dateBasis).toBe(dateBasis ?? 'paymentDate');
    const sum = (name: 'volume' | 'revenue' | 'salesCount') => body.datapoints.reduce((total, point) => total + point[name], 0);
    return { volume: sum('volume'), revenue: sum('revenue'), salesCount: sum('salesCount') };
  }

  it('counts what was captured of a partially captured payment, and a refund on its own day by activity date only', async () => {
    await authorisation('PJDB0001', 'TXDB0001', 10_000);
    clockAt(at(captureDay, '11:00:00'));
    await act('PJDB0001', 'TXDB0001', 'capture', { amount: 60 });
    // The rest of the authorisation (£40) is released: it never counts.
    await act('PJDB0001', 'TXDB0001', 'void', { reason: 'Rest out of stock' });
    expect(await day(lastWeek)).toEqual({ volume: 6000, revenue: 6000, salesCount: 1 });
    expect(await day(lastWeek, 'paymentDate')).toEqual({ volume: 6000, revenue: 6000, salesCount: 1 });
    // By activity date the sale is counted when the payment was made and the money when it was captured.
    expect(await day(lastWeek, 'activityDate')).toEqual({ volume: 0, revenue: 0, salesCount: 1 });
    expect(await day(captureDay, 'activityDate')).toEqual({ volume: 6000, revenue: 6000, salesCount: 0 });

    clockAt(at(today, '12:00:00'));
    const { refundId } = await act('PJDB0001', 'TXDB0001', 'refund', { amount: 10, reason: 'goodwill' });
    await database.db.transaction((tx) => advanceRefund(tx, String(refundId), 'processing', at(today, '12:05:00')));
    await database.db.transaction((tx) => advanceRefund(tx, String(refundId), 'completed', at(today, '12:10:00')));

    // Today's activity shows the refund; last week's and the capture day's activity figures are unchanged.
    expect(await day(today, 'activityDate')).toEqual({ volume: 0, revenue: -1000, salesCount: 0 });
    expect(await day(lastWeek, 'activityDate')).toEqual({ volume: 0, revenue: 0, salesCount: 1 });
    expect(await day(captureDay, 'activityDate')).toEqual({ volume: 6000, revenue: 6000, salesCount: 0 });
    // By payment date (the default) the refund rewrites the payment's day, as before.
    expect(await day(lastWeek)).toEqual({ volume: 6000, revenue: 5000, salesCount: 1 });
    expect(await day(today)).toEqual({ volume: 0, revenue: 0, salesCount: 0 });
  });

  it('counts a chargeback on its own day by activity date; both views hold the same totals over the whole period', async () => {
    await authorisation('PJDB0002', 'TXDB0002', 4000);
    clockAt(at(lastWeek, '15:00:00'));
    await act('PJDB0002', 'TXDB0002', 'capture', { amount: 40 });
    expect(
      await database.db.transaction((tx) => recordChargeback(tx, 'TXDB0002', { amountMinor: 1500, reason: 'Fraud' }, at(chargebackDay, '08:00:00'))),
    ).not.toBeNull();
    expect(await day(chargebackDay, 'activityDate')).toEqual({ volume: 0, revenue: -1500, salesCount: 0 });
    expect(await day(chargebackDay, 'paymentDate')).toEqual({ volume: 0, revenue: 0, salesCount: 0 });
    const period = async (dateBasis: 'paymentDate' | 'activityDate') => {
      const response = await call(
        users.owner,
        'POST',
        `${M3a}/dashboard`,
        { dateRange: { startDate: '2026-11-01', endDate: '2026-11-30' }, interval: 'custom', dateBasis },
        utc,
      );
      const body = dashboardResponseSchema.assert(await response.json());
      return body.datapoints.reduce(
        (total, point) => ({ volume: total.volume + point.volume, revenue: total.revenue + point.revenue, salesCount: total.salesCount + point.salesCount }),
        { volume: 0, revenue: 0, salesCount: 0 },
      );
    };
    // £60 + £40 captured, £10 refunded, £15 charged back, two sales.
    expect(await period('paymentDate')).toEqual({ volume: 10_000, revenue: 7500, salesCount: 2 });
    expect(await period('activityDate')).toEqual({ volume: 10_000, revenue: 7500, salesCount: 2 });
  });

  it('takes dateBasis in the partner query form too, and refuses an unknown one with a 400 that names it', async () => {
    const ok = await call(users.admin, 'GET', `/partners/P1/dashboard?startDate=${today}&endDate=${today}&interval=day&dateBasis=activityDate`, undefined, utc);
    expect(ok.status, await ok.clone().text()).toBe(200);
    expect(dashboardResponseSchema.assert(await ok.json()).dateBasis).toBe('activityDate');
    const bad = await call(
      users.owner,
      'POST',
      `${M3a}/dashboard`,
      { dateRange: { startDate: today, endDate: today }, interval: 'day', dateBasis: 'refundDate' },
      utc,
    );
    expect(bad.status).toBe(400);
    expect(JSON.stringify(await bad.json())).toContain('dateBasis');
    const badQuery = await call(users.admin, 'GET', `/partners/P1/dashboard?startDate=${today}&endDate=${today}&interval=day&dateBasis=`, undefined, utc);
    expect(badQuery.status).toBe(400);
  });
});
