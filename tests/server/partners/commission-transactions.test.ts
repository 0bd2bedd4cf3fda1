// A partner's commission per transaction: the list of one month's fee-bearing transactions, each with its share of
// the month's commission, pages through to exactly the plan's monthly row (commission, fees, count) in each currency;
// it is the partner's own (another partner's plan or partner: 404), internal read-only staff read it, and it has no
// write.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../../server/db/client.ts';
import { commissionPlanDetail, commissionTransactionList, type CommissionTransaction } from '../../../src/contract/partner-schemas.ts';
import { createTestApp, createTestDatabase, databaseKinds, fixture, insertFixtureWorld } from '../support.ts';
import { insertCommissionPlans, insertPartnerPayments, lastMonthStart, partnerPayments, partnerPlanIds, type FixturePayment } from '../api/partner-fixtures.ts';

const { users } = fixture;
const plan = `/partners/P1/commission-plans/${partnerPlanIds.p1}`;
const month = lastMonthStart().toISOString().slice(0, 7);

// Enough GBP card payments to page through, with amounts whose fees leave remainders to allocate.
const more: FixturePayment[] = Array.from({ length: 27 }, (_, index) => ({
  reference: `TXQ${String(index + 1).padStart(4, '0')}`,
  merchantId: index % 3 === 0 ? 'M1b' : 'M1a',
  amountMinor: 1_003 + index * 377,
  currency: 'GBP',
  paymentMethod: 'card',
  cardMasked: index % 4 === 0 ? '555555******4444' : '411111******1111',
  moto: index % 5 === 0,
}));

describe.each(databaseKinds)('commission per transaction on %s', (kind) => {
  let database: Database;
  let call: ReturnType<typeof createTestApp>['call'];
  beforeAll(async () => {
    database = await createTestDatabase(kind);
    await insertFixtureWorld(database);
    await insertCommissionPlans(database);
    await insertPartnerPayments(database, [...partnerPayments, ...more]);
    ({ call } = createTestApp(database));
  }, 120_000);
  afterAll(async () => database?.close());

  const monthRows = async () => commissionPlanDetail.assert(await (await call(users.partner, 'GET', plan)).json()).months.filter((row) => row.month === month);

  const allPages = async (query: string, pageSize: number) => {
    const rows: CommissionTransaction[] = [];
    let total = 0;
    let totals: { currency: string; commissionMinor: number; feesMinor: number; transactionCount: number }[] = [];
    for (let page = 1; page < 50; page += 1) {
      const response = await call(users.partner, 'GET', `${plan}/transactions?month=${month}${query}&pagenumber=${page}&pagesize=${pageSize}`);
      expect(response.status, await response.clone().text()).toBe(200);
      const body = commissionTransactionList.assert(await response.json());
      expect(body.results.length).toBeLessThanOrEqual(pageSize);
      rows.push(...body.results);
      total = body.numberOfResults;
      totals = body.totals;
      if (page * pageSize >= body.numberOfResults) break;
    }
    return { rows, total, totals };
  };

  it("pages through one month and currency to exactly the plan's monthly row", async () => {
    const [gbp] = (await monthRows()).filter((row) => row.currency === 'GBP');
    expect(gbp).toBeDefined();
    const { rows, total, totals } = await allPages('&currency=GBP', 10);
    expect(total).toBe(gbp?.transactionCount);
    expect(rows).toHaveLength(total);
    expect(new Set(rows.map((row) => row.reference)).size).toBe(total);
    expect(rows.every((row) => row.currency === 'GBP')).toBe(true);
    expect(rows.reduce((sum, row) => sum + row.commissionMinor, 0)).toBe(gbp?.commissionMinor);
    expect(rows.reduce((sum, row) => sum + row.feeMinor, 0)).toBe(gbp?.feesMinor);
    expect(totals).toEqual([
      {
        currency: 'GBP',
        volumeMinor: gbp?.volumeMinor,
        feesMinor: gbp?.feesMinor,
        transactionCount: gbp?.transactionCount,
        commissionMinor: gbp?.commissionMinor,
      },
    ]);
    // Each row names the rule it earned under; a MOTO payment earns under the MOTO rule.
    const moto = rows.find((row) => row.reference === 'TXP0005');
    expect(moto).toMatchObject({ channel: 'Moto', ruleId: 'R5', ruleDescription: 'MOTO: 10% of the fee', businessId: 'B1', merchantId: 'M1a' });
    expect(rows.find((row) => row.reference === 'TXP0003')).toMatchObject({ cardType: 'American Express', ruleId: 'R10' });
    // Declined payments bear no fee and are not listed.
    expect(rows.some((row) => row.reference === 'TXP0006')).toBe(false);
  });

  it('without a currency, lists every currency of the month, each summing to its monthly row', async () => {
    const months = await monthRows();
    expect(months.length).toBe(2);
    const { rows, totals } = await allPages('', 100);
    for (const row of months) {
      const own = rows.filter((entry) => entry.currency === row.currency);
      expect(
        own.reduce((sum, entry) => sum + entry.commissionMinor, 0),
        row.currency,
      ).toBe(row.commissionMinor);
      expect(own).toHaveLength(row.transactionCount);
      expect(totals.find((entry) => entry.currency === row.currency)?.commissionMinor).toBe(row.commissionMinor);
    }
    // EUR: the fixture's one iDEAL payment at 15% of its fee, rounded (13).
    expect(rows.filter((row) => row.currency === 'EUR').map((row) => [row.reference, row.commissionMinor])).toEqual([['TXP0004', 13]]);
  });

  it('a month without fees is an empty list; bad parameters answer 400 naming each', async () => {
    const empty = commissionTransactionList.assert(await (await call(users.partner, 'GET', `${plan}/transactions?month=2001-01`)).json());
    expect(empty).toMatchObject({ results: [], numberOfResults: 0, totals: [] });
    const bad = await call(users.partner, 'GET', `${plan}/transactions?month=2026-13&currency=gbp&pagesize=7&colour=red`);
    expect(bad.status).toBe(400);
    const text = await bad.text();
    for (const fragment of ['month', 'currency', 'pagesize', 'colour']) expect(text).toContain(fragment);
  });

  it("is the partner's own: another partner, its plan, or a business user answers 404; internal read-only staff read it; it has no write", async () => {
    expect((await call(users.partner, 'GET', `/partners/P2/commission-plans/${partnerPlanIds.p2}/transactions?month=${month}`)).status).toBe(404);
    expect((await call(users.partner, 'GET', `/partners/P1/commission-plans/${partnerPlanIds.p2}/transactions?month=${month}`)).status).toBe(404);
    expect((await call(users.owner, 'GET', `${plan}/transactions?month=${month}`)).status).toBe(404);
    expect((await call(users.finance, 'GET', `${plan}/transactions?month=${month}`)).status).toBe(404);
    const internal = await call(users.readonly, 'GET', `${plan}/transactions?month=${month}&currency=GBP`);
    expect(internal.status).toBe(200);
    expect(commissionTransactionList.assert(await internal.json()).numberOfResults).toBeGreaterThan(0);
    for (const method of ['POST', 'PUT', 'DELETE'] as const) {
      expect([404, 405], method).toContain((await call(users.partner, method, `${plan}/transactions`, method === 'DELETE' ? undefined : {})).status);
    }
  });
});
