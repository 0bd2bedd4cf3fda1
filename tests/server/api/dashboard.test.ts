import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DashboardResponse, DeclinesResponse } from '../../../src/contract/dashboard.ts';
import { dashboardResponseSchema, declinesResponseSchema } from '../../../src/contract/dashboard.ts';
import type { Database } from '../../../server/db/client.ts';
import { statsInsertSql } from '../../../server/seed/seed.ts';
import { rebuildStatsRollups } from '../../../server/stats/rebuild.ts';
import type { NewTransactionRow } from '../../../server/stats/record-transaction.ts';
import { insertTransactions, updateTransaction } from '../transaction-writers.ts';
import { createTestApp, createTestDatabase, databaseKinds, fixture, insertFixtureWorld } from '../support.ts';

const { users } = fixture;
const london = { 'time-zone': 'Europe/London' };

const merchantOf = { M1a: ['B1', 'P1'], M1b: ['B1', 'P1'], M2a: ['B2', 'P1'], M3a: ['B3', null] } as const;

function payment(
  reference: string,
  merchantId: keyof typeof merchantOf,
  createdAt: string,
  amountMinor: number,
  status = 'paid',
  currency = 'GBP',
  declineReason: string | null = null,
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
    paymentMethod: 'card',
    channel: 'Gateway',
    declineReason,
  };
}

describe.each(databaseKinds)('dashboard API on %s', (kind) => {
  let database: Database;
  let call: ReturnType<typeof createTestApp>['call'];

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    await insertFixtureWorld(database);
    await database.db.transaction(async (tx) => {
      await tx.execute(sql.raw(statsInsertSql));
      await rebuildStatsRollups(tx);
    });
    await database.db.transaction(async (tx) => {
      await insertTransactions(tx, [
        // 29 March 2026: London moves to summer time at 01:00 UTC, a 23-hour day.
        payment('TXD00001', 'M1a', '2026-03-29T00:30:00Z', 1000),
        payment('TXD00002', 'M1a', '2026-03-29T01:15:00Z', 2000),
        payment('TXD00003', 'M1a', '2026-03-29T22:59:59Z', 500, 'declined', 'GBP', 'Insufficient funds'),
        payment('TXD00004', 'M1a', '2026-03-29T23:00:00Z', 700),
        payment('TXD00005', 'M1a', '2026-03-29T12:00:00Z', 999, 'paid', 'EUR'),
        payment('TXD00006', 'M1b', '2026-03-29T12:00:00Z', 400),
        payment('TXD00007', 'M2a', '2026-03-29T12:00:00Z', 4200, 'paid', 'EUR'),
        payment('TXD00008', 'M1a', '2026-03-10T09:00:00Z', 300, 'failed', 'GBP', 'Issuer unavailable'),
        payment('TXD00009', 'M1a', '2026-03-11T09:00:00Z', 200, 'declined', 'GBP', 'Insufficient funds'),
        payment('TXD00010', 'M1a', '2026-03-12T09:00:00Z', 100, 'pending'),
        payment('TXD00011', 'M1a', '2025-03-29T09:00:00Z', 1500),
        // Kolkata is UTC+05:30: 18:29 UTC is still the 28th there, 18:30 is the 29th.
        payment('TXD00012', 'M3a', '2026-03-28T18:29:00Z', 11),
        payment('TXD00013', 'M3a', '2026-03-28T18:30:00Z', 13),
      ]);
      // A refund counts in its payment's bucket, whenever it is made.
      await insertTransactions(tx, [{ ...payment('TXD00014', 'M1a', '2026-04-02T10:00:00Z', 300), kind: 'refund', parentReference: 'TXD00002' }]);
      // The pending payment is paid later.
      await updateTransaction(tx, 'TXD00010', { status: 'paid' });
    });
    ({ call } = createTestApp(database));
  });
  afterAll(async () => database?.close());

  async function dashboard(path: string, body: unknown, headers: Record<string, string> = london, userId: string = users.admin) {
    const response = await call(userId, 'POST', `${path}/dashboard`, body, headers);
    expect(response.status, await response.clone().text()).toBe(200);
    const json = (await response.json()) as DashboardResponse;
    expect(dashboardResponseSchema(json)).not.toBeInstanceOf(Error);
    return json;
  }

  const day = (date: string) => ({ interval: 'day', dateRange: { startDate: date, endDate: date } });

  it('answers a London day in 23 hourly buckets across the change to summer time', async () => {
    const result = await dashboard('/businesses/B1/merchants/M1a', day('2026-03-29'));
    expect(result).toMatchObject({
      startDate: '2026-03-29',
      endDate: '2026-03-29',
      interval: 'day',
      timeZone: 'Europe/London',
      currency: 'GBP',
      currencies: ['EUR', 'GBP'],
      bucket: { unit: 'hour', step: 1 },
    });
    expect(result.datapoints).toHaveLength(23);
    expect(result.datapoints[0]).toEqual({
      startDate: '2026-03-29T00:00:00+00:00',
      endDate: '2026-03-29T02:00:00+01:00',
      volume: 1000,
      revenue: 1000,
      unsuccessfulVolume: 0,
      unsuccessfulRevenue: 0,
      salesCount: 1,
    });
    expect(result.datapoints[1]).toMatchObject({ startDate: '2026-03-29T02:00:00+01:00', volume: 2000, revenue: 1700, salesCount: 1 });
    expect(result.datapoints[22]).toMatchObject({
      startDate: '2026-03-29T23:00:00+01:00',
      endDate: '2026-03-30T00:00:00+01:00',
      volume: 0,
      unsuccessfulVolume: 500,
      unsuccessfulRevenue: 500,
    });
    expect(result.datapoints.reduce((sum, point) => sum + point.volume, 0)).toBe(3000);
  });

  it('uses UTC without a Time-Zone header', async () => {
    const result = await dashboard('/businesses/B1/merchants/M1a', day('2026-03-29'), {});
    expect(result.timeZone).toBe('UTC');
    expect(result.datapoints).toHaveLength(24);
    // In UTC the 23:00 payment is still on the 29th.
    expect(result.datapoints.reduce((sum, point) => sum + point.volume, 0)).toBe(3700);
    expect(result.datapoints[22]).toMatchObject({ startDate: '2026-03-29T22:00:00+00:00', unsuccessfulVolume: 500 });
  });

  it('honours a zone off the hour (Asia/Kolkata)', async () => {
    const result = await dashboard('/businesses/B3/merchants/M3a', day('2026-03-29'), { 'time-zone': 'Asia/Kolkata' });
    expect(result.datapoints[0]).toMatchObject({ startDate: '2026-03-29T00:00:00+05:30', endDate: '2026-03-29T01:00:00+05:30', volume: 13 });
    expect(result.datapoints.reduce((sum, point) => sum + point.volume, 0)).toBe(13);
    const before = await dashboard('/businesses/B3/merchants/M3a', day('2026-03-28'), { 'time-zone': 'Asia/Kolkata' });
    expect(before.datapoints.at(-1)).toMatchObject({ startDate: '2026-03-28T23:00:00+05:30', volume: 11 });
  });

  it('sums a business, a partner (POST and GET) and another currency', async () => {
    const business = await dashboard('/businesses/B1', day('2026-03-29'));
    expect(business.datapoints[12]).toMatchObject({ startDate: '2026-03-29T13:00:00+01:00', volume: 400 });
    const partner = await dashboard('/partners/P1', { ...day('2026-03-29'), currency: 'EUR' });
    expect(partner).toMatchObject({ currency: 'EUR', currencies: ['EUR', 'GBP'] });
    expect(partner.datapoints[12]).toMatchObject({ volume: 999 + 4200, salesCount: 2 });
    const response = await call(
      users.partner,
      'GET',
      '/partners/P1/dashboard?startdate=2026-03-29&endDate=2026-03-29&interval=day&currency=EUR',
      undefined,
      london,
    );
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual(partner);
  });

  it('defaults to GBP when the context takes it, else to its first currency', async () => {
    expect((await dashboard('/businesses/B2/merchants/M2a', day('2026-03-29'))).currency).toBe('EUR');
    expect(await dashboard('/businesses/B3', day('2026-03-29'))).toMatchObject({ currency: 'GBP', currencies: ['GBP', 'JPY'] });
  });

  it('gives a week from Monday in days, a month in days and a year in months', async () => {
    const week = await dashboard('/businesses/B1/merchants/M1a', { interval: 'week', dateRange: { startDate: '2026-03-25', endDate: '2026-03-25' } });
    expect(week).toMatchObject({ startDate: '2026-03-23', endDate: '2026-03-29', bucket: { unit: 'day', step: 1 } });
    expect(week.datapoints.map((point) => point.startDate.slice(0, 10))).toEqual([
      '2026-03-23',
      '2026-03-24',
      '2026-03-25',
      '2026-03-26',
      '2026-03-27',
      '2026-03-28',
      '2026-03-29',
    ]);
    expect(week.datapoints[6]).toMatchObject({ volume: 3000, unsuccessfulVolume: 500 });

    const month = await dashboard('/businesses/B1/merchants/M1a', {
      interval: 'month',
      dateRange: { startDate: '2026-03-01', endDate: '2026-03-31T23:59:59' },
    });
    expect(month.datapoints).toHaveLength(31);
    expect(month.datapoints[11]).toMatchObject({ startDate: '2026-03-12T00:00:00+00:00', volume: 100, salesCount: 1 });
    expect(month.datapoints[29]).toMatchObject({ startDate: '2026-03-30T00:00:00+01:00', volume: 700 });

    const year = await dashboard('/businesses/B1/merchants/M1a', { interval: 'year', dateRange: { startDate: '2026-01-01', endDate: '2026-12-31' } });
    expect(year).toMatchObject({ bucket: { unit: 'month', step: 1 } });
    expect(year.datapoints).toHaveLength(12);
    // March: 1000 + 2000 + 100 (paid later) + 700 (30 March in London), less the 300 refund; 500 + 300 + 200 unsuccessful.
    expect(year.datapoints[2]).toMatchObject({
      startDate: '2026-03-01T00:00:00+00:00',
      endDate: '2026-04-01T00:00:00+01:00',
      volume: 3800,
      revenue: 3500,
      unsuccessfulVolume: 1000,
      salesCount: 4,
    });
    expect(year.datapoints[3]).toMatchObject({ volume: 0 });
    expect(year.datapoints[10]).toMatchObject({ volume: 1250 });
  });

  it('grows the step of a custom range past 31 days', async () => {
    const quarter = await dashboard('/businesses/B1/merchants/M1a', { interval: 'custom', dateRange: { startDate: '2026-01-01', endDate: '2026-03-31' } });
    expect(quarter).toMatchObject({ bucket: { unit: 'day', step: 3 } });
    expect(quarter.datapoints).toHaveLength(30);
    const fiveYears = await dashboard('/businesses/B1/merchants/M1a', { interval: 'custom', dateRange: { startDate: '2021-04-01', endDate: '2026-03-31' } });
    expect(fiveYears.datapoints.length).toBeLessThanOrEqual(31);
    expect(fiveYears.datapoints.reduce((sum, point) => sum + point.volume, 0)).toBe(1500 + 3800);
  });

  it('lists the top decline reasons of a period', async () => {
    const response = await call(
      users.admin,
      'POST',
      '/businesses/B1/merchants/M1a/dashboard/declines',
      { currency: 'GBP', dateRange: { startDate: '2026-03-01', endDate: '2026-03-31' } },
      london,
    );
    expect(response.status).toBe(200);
    const body = (await response.json()) as DeclinesResponse;
    expect(declinesResponseSchema(body)).not.toBeInstanceOf(Error);
    expect(body).toEqual({
      startDate: '2026-03-01',
      endDate: '2026-03-31',
      currency: 'GBP',
      totalCount: 3,
      totalAmount: 1000,
      reasons: [
        { reason: 'Insufficient funds', count: 2, amount: 700 },
        { reason: 'Issuer unavailable', count: 1, amount: 300 },
      ],
    });
    const single = await call(
      users.partner,
      'POST',
      '/partners/P1/dashboard/declines',
      { currency: 'GBP', dateRange: { startDate: '2026-03-29', endDate: '2026-03-29' } },
      london,
    );
    expect(((await single.json()) as DeclinesResponse).reasons).toEqual([{ reason: 'Insufficient funds', count: 1, amount: 500 }]);
  });

  describe('access', () => {
    const body = day('2026-03-29');
    it.each([
      [users.partner, '/partners/P1', 200],
      [users.partner, '/businesses/B1', 200],
      [users.partner, '/businesses/B2/merchants/M2a', 200],
      [users.partner, '/partners/P2', 404],
      [users.partner, '/businesses/B3', 404],
      [users.owner, '/businesses/B3', 200],
      [users.owner, '/businesses/B3/merchants/M3b', 200],
      [users.owner, '/businesses/B1', 404],
      [users.owner, '/partners/P1', 404],
      [users.finance, '/businesses/B2', 200],
      [users.finance, '/businesses/B1/merchants/M1a', 404],
      [users.readonly, '/businesses/B4', 200],
      [users.readonly, '/partners/P2', 200],
      // A virtual-terminal role sees its merchant but not its statistics; at business level it holds nothing.
      [users.merchantOnly, '/businesses/B1/merchants/M1b', 403],
      [users.merchantOnly, '/businesses/B1', 403],
      [users.merchantOnly, '/businesses/B1/merchants/M1a', 404],
      [users.nobody, '/businesses/B1', 404],
      [users.admin, '/businesses/NOPE', 404],
      [users.admin, '/businesses/B1/merchants/M3a', 404],
      [users.admin, `/businesses/${'x'.repeat(65)}`, 404],
      [users.admin, '/partners/NOPE', 404],
    ])('%s POST %s/dashboard → %i', async (userId, path, status) => {
      const response = await call(userId, 'POST', `${path}/dashboard`, body, london);
      expect(response.status).toBe(status);
      const declines = await call(userId, 'POST', `${path}/dashboard/declines`, { currency: 'GBP', dateRange: body.dateRange }, london);
      expect(declines.status).toBe(status);
      if (status !== 200) expect(await response.json()).toHaveProperty('errorReport.errors.0.message');
    });

    it('requires a bearer token', async () => {
      expect((await call(null, 'POST', '/businesses/B1/dashboard', body)).status).toBe(401);
    });
  });

  describe('bad input is a 400 that says what is wrong', () => {
    const path = '/businesses/B1/merchants/M1a/dashboard';
    it.each<[string, unknown, RegExp]>([
      ['no body', undefined, /application\/json/],
      ['not JSON', '{"interval":', /application\/json|not valid JSON/],
      ['no dateRange', { interval: 'day' }, /dateRange/],
      ['an unknown interval', { interval: 'hour', dateRange: { startDate: '2026-03-01', endDate: '2026-03-01' } }, /interval/],
      ['a date that is not one', { interval: 'day', dateRange: { startDate: '2026-02-30', endDate: '2026-02-30' } }, /not a date/],
      ['words for a date', { interval: 'day', dateRange: { startDate: 'yesterday', endDate: 'today' } }, /startDate/],
      ['a number for a date', { interval: 'day', dateRange: { startDate: 20260301, endDate: '2026-03-01' } }, /startDate/],
      ['an end before the start', { interval: 'custom', dateRange: { startDate: '2026-03-02', endDate: '2026-03-01' } }, /before/],
      ['an end outside the week', { interval: 'week', dateRange: { startDate: '2026-03-23', endDate: '2026-04-23' } }, /same week/],
      ['a custom range over five years', { interval: 'custom', dateRange: { startDate: '2015-01-01', endDate: '2026-01-01' } }, /maximum/],
      ['a year out of range', { interval: 'year', dateRange: { startDate: '1970-01-01', endDate: '1970-12-31' } }, /between/],
      ['a lower-case currency', { ...day('2026-03-01'), currency: 'gbp' }, /currency/],
      ['an unknown field', { ...day('2026-03-01'), merchantId: 'M3a' }, /merchantId/],
      ['an array', [1, 2], /must be an object/],
    ])('%s', async (_name, body, message) => {
      const response = await call(users.admin, 'POST', path, body, london);
      expect(response.status).toBe(400);
      const report = (await response.json()) as { errorReport: { errors: { message: string }[] } };
      expect(report.errorReport.errors.map((error) => error.message).join(' ')).toMatch(message);
    });

    it('refuses a Time-Zone that is not an IANA zone', async () => {
      expect((await call(users.admin, 'POST', path, day('2026-03-01'), { 'time-zone': 'Mars/Olympus' })).status).toBe(400);
    });

    it.each([
      ['an unknown parameter', '?startDate=2026-03-01&endDate=2026-03-01&interval=day&drop=1', /drop/],
      ['a repeated parameter', '?startDate=2026-03-01&endDate=2026-03-01&interval=day&interval=week', /once/],
      ['no dates', '?interval=day', /startDate/],
    ])('the GET form refuses %s', async (_name, query, message) => {
      const response = await call(users.admin, 'GET', `/partners/P1/dashboard${query}`);
      expect(response.status).toBe(400);
      expect(JSON.stringify(await response.json())).toMatch(message);
    });

    it('refuses declines without a currency', async () => {
      const response = await call(users.admin, 'POST', '/businesses/B1/dashboard/declines', { dateRange: { startDate: '2026-03-01', endDate: '2026-03-01' } });
      expect(response.status).toBe(400);
    });
  });
});
