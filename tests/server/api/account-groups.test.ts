import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../../server/db/client.ts';
import {
  accountStatement,
  businessAccountGroupList,
  dailyBalances,
  ledgerTransferList,
  merchantAccountGroup,
  merchantAccountGroupList,
  pricingPlanList,
  remittance,
  settlementBatchDetail,
  settlementBatchList,
} from '../../../src/contract/ledger-schemas.ts';
import { createTestApp, createTestDatabase, databaseKinds, fixture, insertFixtureWorld, snapshot } from '../support.ts';
import { b2Eur, insertLedgerFixture, m1aGbp, m1bGbp, m2aEur, m3aGbp } from '../ledger/ledger-fixtures.ts';

const { users } = fixture;
const m1a = '/businesses/B1/merchants/M1a/merchant-accountgroups';
const messages = async (response: Response) =>
  ((await response.json()) as { errorReport: { errors: { message: string }[] } }).errorReport.errors.map((error) => error.message);

/** The calendar day of an instant in Europe/London, the fixture businesses' zone. */
const londonDay = (iso: string) => new Intl.DateTimeFormat('sv-SE', { timeZone: 'Europe/London' }).format(new Date(iso));
describe.each(databaseKinds)('account groups on %s', (kind) => {
  let database: Database;
  let call: ReturnType<typeof createTestApp>['call'];
  beforeAll(async () => {
    database = await createTestDatabase(kind);
    await insertFixtureWorld(database);
    await insertLedgerFixture(database);
    ({ call } = createTestApp(database));
  });
  afterAll(async () => database?.close());

  async function ok(userId: string, path: string) {
    const response = await call(userId, 'GET', path);
    expect(response.status, await response.clone().text()).toBe(200);
    return response.json();
  }

  describe('merchant account groups', () => {
    it("lists the merchant's groups with every account's balance", async () => {
      const body = merchantAccountGroupList.assert(await ok(users.partner, m1a));
      expect(body.results.map((group) => group.accountNumber)).toEqual([merchantAccountNumberSorted('M1a')[0], merchantAccountNumberSorted('M1a')[1]]);
      const gbp = body.results.find((group) => group.accountNumber === m1aGbp);
      // Every batch closed: trading paid out, remittance transferred; the reserve holds 10 % of 3 Oct (30.00) and of 12 Oct
      // (10.00); 1 Oct's 15.00 came back on 12 Oct; 2 Oct (a refund only) held nothing.
      // Net settlement and no minimum: the invoice account holds nothing, so it is not listed.
      expect(gbp?.balances).toEqual([
        { kind: 'trading', balance: 0 },
        { kind: 'reserve', balance: 4 },
        { kind: 'security', balance: 0 },
        { kind: 'remittance', balance: 0 },
        { kind: 'costs', balance: 3.76 },
      ]);
      expect(gbp).toMatchObject({ currency: 'GBP', reservePercentage: 10, reserveDays: 10, grossSettlement: false, merchantName: 'Alpha Online' });
    });

    it("reads one group; another merchant's group is not found", async () => {
      expect(merchantAccountGroup.assert(await ok(users.partner, `${m1a}/${m1aGbp}`)).accountNumber).toBe(m1aGbp);
      expect((await call(users.partner, 'GET', `${m1a}/${m1bGbp}`)).status).toBe(404);
      expect((await call(users.partner, 'GET', `${m1a}/not-a-number`)).status).toBe(404);
    });

    it('a statement adds up: opening + movements = closing, with a running balance and totals per category', async () => {
      const day = accountStatement.assert(
        await ok(users.partner, `${m1a}/${m1aGbp}/statements/trading?date=${encodeURIComponent('[gte]2026-10-01[and][lte]2026-10-01')}`),
      );
      expect(day.openingBalance).toBe(0);
      expect(day.results.map((row) => [row.category, row.amount, row.runningBalance])).toEqual([
        ['sale', 100, 100],
        ['fee', -1.6, 98.4],
        ['sale', 50, 148.4],
        ['fee', -1.2, 147.2],
      ]);
      expect(day.closingBalance).toBe(147.2);
      const month = accountStatement.assert(
        await ok(users.partner, `${m1a}/${m1aGbp}/statements/trading?date=${encodeURIComponent('[gte]2026-10-02[and][lte]2026-10-31')}`),
      );
      expect(month.openingBalance).toBe(147.2);
      const movements = month.totals.reduce((sum, row) => sum + row.amount, 0);
      expect(month.openingBalance + movements).toBeCloseTo(month.closingBalance, 6);
      expect(month.closingBalance).toBe(0);
      expect(month.results.at(-1)?.runningBalance).toBe(month.closingBalance);
    });

    it('daily balances for the chart end each day where the statement of that day closes', async () => {
      const body = dailyBalances.assert(
        await ok(users.partner, `${m1a}/${m1aGbp}/statements/trading/balances?date=${encodeURIComponent('[gte]2026-09-30[and][lte]2026-10-03')}`),
      );
      expect(body.results.map((row) => row.date)).toEqual(['2026-09-30', '2026-10-01', '2026-10-02', '2026-10-03']);
      for (const row of body.results) {
        const day = accountStatement.assert(await ok(users.partner, `${m1a}/${m1aGbp}/statements/trading?date=${encodeURIComponent(`[eq]${row.date}`)}`));
        expect(row.balance).toBeCloseTo(day.closingBalance, 6);
      }
      expect(body.results[1]?.balance).toBe(147.2);
      expect(
        (await call(users.partner, 'GET', `${m1a}/${m1aGbp}/statements/trading/balances?date=${encodeURIComponent('[gte]2020-01-01[and][lte]2026-10-03')}`))
          .status,
      ).toBe(400);
    });

    it("in the business's time zone, whatever the request's", async () => {
      // 1 Oct is London's day (the business's zone), from 23:00 UTC on 30 Sep, also for a caller in Tokyo.
      const path = `${m1a}/${m1aGbp}/statements/trading?date=${encodeURIComponent('[eq]2026-10-01')}`;
      const fromTokyo = accountStatement.assert(await (await call(users.partner, 'GET', path, undefined, { 'Time-Zone': 'Asia/Tokyo' })).json());
      const fromLondon = accountStatement.assert(await (await call(users.partner, 'GET', path, undefined, { 'Time-Zone': 'Europe/London' })).json());
      expect(fromTokyo).toMatchObject({ periodStart: '2026-09-30T23:00:00.000Z', timeZone: 'Europe/London' });
      expect(fromTokyo).toEqual(fromLondon);
      expect(fromTokyo.results.filter((row) => row.category === 'sale').length).toBeGreaterThan(0);
    });

    it('costs: the fees of the pricing plan (percentage + fixed; default rate for an unlisted method)', async () => {
      const body = accountStatement.assert(await ok(users.partner, `${m1a}/${m1aGbp}/costs`));
      expect(body.results.map((row) => row.amount)).toEqual([1.6, 1.2, 0.62, 0.34]);
      expect(body.closingBalance).toBe(3.76);
    });

    it('the invoice account exists only for gross settlement', async () => {
      expect((await call(users.partner, 'GET', `${m1a}/${m1aGbp}/statements/invoice`)).status).toBe(404);
      const gross = accountStatement.assert(await ok(users.partner, `/businesses/B1/merchants/M1b/merchant-accountgroups/${m1bGbp}/statements/invoice`));
      expect(gross.closingBalance).toBe(-0.9);
      expect((await call(users.partner, 'GET', `${m1a}/${m1aGbp}/statements/nonsense`)).status).toBe(404);
    });

    it('batches: paged, filtered by status, with totals; the detail lists its movements', async () => {
      const body = settlementBatchList.assert(await ok(users.partner, `${m1a}/${m1aGbp}/batches?OrderingField=date&OrderingDirection=Ascending&pagesize=10`));
      expect(body.results.map((batch) => londonDay(batch.date))).toEqual(['2026-10-01', '2026-10-02', '2026-10-03', '2026-10-12']);
      expect(body.results[0]).toMatchObject({ status: 'Closed', salesCount: 2, salesAmount: 150, feesAmount: 2.8, reserveAmount: 15, netAmount: 132.2 });
      // 12 Oct: holds 1.00 of its own sales and releases the 15.00 held on 1 Oct (10 days).
      expect(body.results[3]).toMatchObject({ reserveAmount: -14 });
      expect(settlementBatchList.assert(await ok(users.partner, `${m1a}/${m1aGbp}/batches?status=${encodeURIComponent('[eq]Open')}`)).numberOfResults).toBe(0);
      const detail = settlementBatchDetail.assert(await ok(users.partner, `${m1a}/${m1aGbp}/batches/${body.results[0]?.batchId}`));
      expect(detail.results.map((row) => row.category)).toEqual(['sale', 'fee', 'sale', 'fee', 'reserveHold', 'payout']);
      expect(detail.results.at(-1)?.runningBalance).toBe(0);
      expect((await call(users.partner, 'GET', `${m1a}/${m1aGbp}/batches/B${m1bGbp}-20261001`)).status).toBe(404);
    });

    it("sum of the batches' sales less refunds = the settled transactions", async () => {
      const body = settlementBatchList.assert(await ok(users.partner, `${m1a}/${m1aGbp}/batches`));
      const settled = body.results.reduce((sum, batch) => sum + batch.salesAmount - batch.refundsAmount - batch.reversalsAmount, 0);
      expect(settled).toBe(100 + 50 - 20 + 30 + 10);
    });

    it('transfers: one per closed batch, the day after, with the sale amount', async () => {
      const body = ledgerTransferList.assert(await ok(users.partner, `${m1a}/${m1aGbp}/transfers?OrderingField=date&OrderingDirection=Ascending`));
      // London's 3 and 5 October began at 23:00 UTC the day before (summer time).
      expect(body.results[0]).toMatchObject({
        transferDate: '2026-10-02T23:00:00.000Z',
        maturityDate: '2026-10-04T23:00:00.000Z',
        amount: 132.2,
        saleAmount: 150,
      });
    });

    it('queues reports in the report queue', async () => {
      const response = await call(users.partner, 'POST', `${m1a}/${m1aGbp}/statements/trading/reports`, {
        fileType: 'pdf',
        filters: { date: '[gte]2026-10-01[and][lte]2026-10-31' },
      });
      expect(response.status, await response.clone().text()).toBe(202);
      const { reportId, totalRows } = (await response.json()) as { reportId: string; totalRows: number };
      expect(totalRows).toBeGreaterThan(5);
      const [report] = await database.query<{ report_type: string; file_type: string }>('SELECT report_type, file_type FROM queued_reports WHERE id = $1', [
        reportId,
      ]);
      expect(report).toEqual({ report_type: 'tradingAccount', file_type: 'pdf' });
      for (const path of [
        `${m1a}/${m1aGbp}/costs/reports`,
        `${m1a}/${m1aGbp}/transfers/reports`,
        `${m1a}/${m1aGbp}/batches/reports`,
        `${m1a}/${m1aGbp}/batches/B${m1aGbp}-20261001/reports`,
      ]) {
        expect((await call(users.partner, 'POST', path, { fileType: 'csv' })).status, path).toBe(202);
      }
    });

    it('refuses malformed requests with a 400 naming the problem and writes nothing', async () => {
      const before = await snapshot(database);
      for (const [method, path, body] of [
        ['POST', `${m1a}/${m1aGbp}/costs/reports`, { fileType: 'exe' }],
        ['POST', `${m1a}/${m1aGbp}/costs/reports`, { fileType: 'csv', extra: 1 }],
        ['POST', `${m1a}/${m1aGbp}/costs/reports`, { fileType: 'csv', filters: { date: '[gte]yesterday' } }],
        ['GET', `${m1a}/${m1aGbp}/batches?status=${encodeURIComponent('[eq]Half')}`, undefined],
        ['GET', `${m1a}/${m1aGbp}/statements/trading?pagesize=7`, undefined],
        ['GET', `${m1a}/${m1aGbp}/statements/trading?date=${encodeURIComponent('[gte]2026-10-05[and][lte]2026-10-01')}`, undefined],
      ] as const) {
        expect((await call(users.partner, method, path, body)).status, `${method} ${path}`).toBe(400);
      }
      expect(await snapshot(database)).toBe(before);
    });
  });

  describe('access', () => {
    it("the spec's messages for missing ids", async () => {
      let response = await call(users.admin, 'GET', '/businesses/undefined/merchants/M1a/merchant-accountgroups');
      expect([response.status, await messages(response)]).toEqual([400, ['Invalid parameters: businessId and merchantId are required.']]);
      response = await call(users.admin, 'GET', '/businesses/B1/merchant-accountgroups');
      expect([response.status, await messages(response)]).toEqual([400, ['Invalid parameters: businessId and merchantId are required.']]);
      response = await call(users.admin, 'GET', '/businesses/null/business-accountgroups');
      expect([response.status, await messages(response)]).toEqual([400, ['Business ID is required.']]);
      response = await call(users.admin, 'GET', '/businesses/B2/business-accountgroups/undefined');
      expect([response.status, await messages(response)]).toEqual([400, ['Business ID and Account Number are required.']]);
    });

    it('cross-tenant is 404, a reachable context without the permission 403', async () => {
      expect((await call(users.finance, 'GET', m1a)).status).toBe(404);
      expect((await call(users.owner, 'GET', `${m1a}/${m1aGbp}/statements/trading`)).status).toBe(404);
      expect((await call(users.nobody, 'GET', m1a)).status).toBe(404);
      expect((await call(users.owner, 'GET', `/businesses/B3/merchants/M3a/merchant-accountgroups/${m1aGbp}`)).status).toBe(404);
      expect((await call(users.owner, 'GET', `/businesses/B3/merchants/M3a/merchant-accountgroups/${m3aGbp}`)).status).toBe(200);
      expect((await call(users.merchantOnly, 'GET', '/businesses/B1/merchants/M1b/merchant-accountgroups')).status).toBe(403);
      expect(
        (await call(users.merchantOnly, 'POST', `/businesses/B1/merchants/M1b/merchant-accountgroups/${m1bGbp}/costs/reports`, { fileType: 'csv' })).status,
      ).toBe(403);
      expect((await call(null, 'GET', m1a)).status).toBe(401);
      expect((await call(users.finance, 'GET', '/businesses/B1/pricing-plan')).status).toBe(404);
      expect((await call(users.finance, 'GET', `/businesses/B1/business-accountgroups`)).status).toBe(404);
    });
  });

  describe('business account groups', () => {
    it("exist only where automatic remittance is off, and hold the merchants' payouts until remitted", async () => {
      const body = businessAccountGroupList.assert(await ok(users.finance, '/businesses/B2/business-accountgroups'));
      expect(body.results).toEqual([
        {
          accountNumber: b2Eur,
          businessId: 'B2',
          businessName: 'Beta Retail Ltd',
          currency: 'EUR',
          balance: 0,
          merchantAccounts: [{ accountNumber: m2aEur, merchantId: 'M2a', merchantName: 'Beta Web' }],
        },
      ]);
      expect(businessAccountGroupList.assert(await ok(users.partner, '/businesses/B1/business-accountgroups')).numberOfResults).toBe(0);
      const statement = accountStatement.assert(await ok(users.finance, `/businesses/B2/business-accountgroups/${b2Eur}/statement`));
      // 40.00 less the default rate's fee (1.90 % + 0.25 = 1.01) arrives at the cut-off and leaves on the next Friday.
      expect(statement.results.map((row) => [row.category, row.amount, londonDay(row.date)])).toEqual([
        ['payout', 38.99, '2026-10-02'],
        ['transfer', -38.99, '2026-10-09'],
      ]);
      const transfers = ledgerTransferList.assert(await ok(users.finance, `/businesses/B2/business-accountgroups/${b2Eur}/transfers`));
      expect(transfers.results).toHaveLength(1);
      // The sale amount is the sales of the batch whose payout it pays (M2a's 1 October: 40.00), not the amount again.
      expect(transfers.results[0]).toMatchObject({ transferDate: '2026-10-08T23:00:00.000Z', amount: 38.99, saleAmount: 40 });
    });

    it('remittance: read, changed with its version (audited), 409 when stale, 403 without the permission', async () => {
      const path = `/businesses/B2/business-accountgroups/${b2Eur}/remittance`;
      const current = remittance.assert(await ok(users.finance, path));
      expect(current).toMatchObject({
        frequency: 'weekly',
        dayOfPeriod: 5,
        beneficiary: { companyName: 'Beta Retail Ltd' },
        version: 1,
        merchantAccounts: [m2aEur],
      });
      const change = {
        frequency: 'monthly',
        dayOfPeriod: 15,
        startDate: '2026-11-01',
        beneficiary: { givenName: 'Bea', familyName: 'Retail', dateOfBirth: '1980-02-29' },
        version: 1,
      };
      expect((await call(users.finance, 'POST', path, change)).status).toBe(403);
      const response = await call(users.partner, 'POST', path, change);
      expect(response.status, await response.clone().text()).toBe(200);
      const changed = remittance.assert(await response.json());
      expect(changed).toMatchObject({ frequency: 'monthly', dayOfPeriod: 15, startDate: '2026-11-01', version: 2, beneficiary: change.beneficiary });
      expect(changed.nextPaymentDate.endsWith('-15')).toBe(true);
      expect((await call(users.partner, 'POST', path, change)).status).toBe(409);
      const [audit] = await database.query<{ n: string | number }>("SELECT count(*) AS n FROM audit_events WHERE event = 'RemittanceSettingsChanged'");
      expect(Number(audit?.n)).toBe(1);
      for (const bad of [
        { ...change, version: 2, beneficiary: { companyName: 'X', givenName: 'Y' } },
        { ...change, version: 2, beneficiary: { givenName: 'Y' } },
        { ...change, version: 2, beneficiary: { givenName: 'Y', familyName: 'Z', dateOfBirth: '2999-01-01' } },
        { ...change, version: 2, frequency: 'weekly', dayOfPeriod: 9 },
        { ...change, version: 2, startDate: '2026-02-30' },
        { ...change, version: 2, dayOfPeriod: 0 },
      ])
        expect((await call(users.partner, 'POST', path, bad)).status, JSON.stringify(bad)).toBe(400);
    });
  });

  it("the provider's internal accounts: internal users only, and with the merchants' accounts they sum to zero", async () => {
    const body = (await ok(users.readonly, '/ledger/internal-accounts')) as {
      results: { accountId: string; kind: string; currency: string; balance: number }[];
    };
    expect(body.results.map((row) => row.accountId)).toEqual(['provider:bank:EUR', 'provider:clearing:EUR', 'provider:bank:GBP', 'provider:clearing:GBP']);
    const [all] = await database.query<{ total: string | number }>('SELECT coalesce(sum(amount_minor), 0) AS total FROM ledger_entries');
    expect(Number(all?.total)).toBe(0);
    for (const user of [users.partner, users.owner, users.finance, users.nobody])
      expect((await call(user, 'GET', '/ledger/internal-accounts')).status, user).toBe(403);
  });

  it('the pricing plan lists every plan of the business with its rates', async () => {
    const body = pricingPlanList.assert(await ok(users.partner, '/businesses/B1/pricing-plan'));
    expect(body.results.map((plan) => [plan.merchantName, plan.currency, plan.rates])).toEqual([
      ['Alpha Online', 'GBP', [{ paymentMethod: 'card', percentage: 1.4, fixedAmount: 0.2 }]],
      ['Alpha Stores', 'GBP', [{ paymentMethod: 'card', percentage: 1, fixedAmount: 0.1 }]],
    ]);
  });
});

function merchantAccountNumberSorted(merchantId: string): string[] {
  return ['GBP', 'EUR'].map((currency) => `3${merchantId}${[...currency].map((letter) => String(letter.charCodeAt(0) - 64).padStart(2, '0')).join('')}`).sort();
}
