// Partners on PGlite and PostgreSQL: the overview, one partner, its businesses, its commission plans with
// the commission earned per month from the ledger's fees (reconciled to the cent with the per-transaction shares),
// its declines by business; allowed, forbidden, cross-tenant 404, malformed 400.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../../server/db/client.ts';
import { commissionOfTransactions } from '../../../server/partners/commission-ledger.ts';
import { toRuleTerms } from '../../../server/api/partners.ts';
import * as schema from '../../../server/db/schema.ts';
import { businessList } from '../../../src/contract/configuration-schemas.ts';
import { commissionPlanDetail, commissionPlanList, partnerDeclines, partnerDetail, partnerList } from '../../../src/contract/partner-schemas.ts';
import { createTestApp, createTestDatabase, databaseKinds, fixture, insertFixtureWorld } from '../support.ts';
import { insertCommissionPlans, insertPartnerPayments, lastMonthStart, partnerPayments, partnerPlanIds, paymentDay } from './partner-fixtures.ts';
import { eq } from 'drizzle-orm';

const { users } = fixture;

describe.each(databaseKinds)('partners on %s', (kind) => {
  let database: Database;
  let call: ReturnType<typeof createTestApp>['call'];
  beforeAll(async () => {
    database = await createTestDatabase(kind);
    await insertFixtureWorld(database);
    await insertCommissionPlans(database);
    await insertPartnerPayments(database, partnerPayments);
    ({ call } = createTestApp(database));
  });
  afterAll(async () => database?.close());

  const json = async (response: Response) => response.json() as Promise<unknown>;
  const messages = async (response: Response) =>
    ((await response.json()) as { errorReport: { errors: { message: string }[] } }).errorReport.errors.map((error) => error.message);

  it('lists every partner for internal users, with counts, filters and sorts by the list convention', async () => {
    const all = partnerList.assert(await json(await call(users.readonly, 'GET', '/partners')));
    expect(all.numberOfResults).toBe(2);
    expect(all.results.map((row) => row.partnerId)).toEqual(['P1', 'P2']);
    expect(all.results[0]).toMatchObject({ partnerName: 'Northwind Partners', businessCount: 2, liveBusinessCount: 2, commissionPlanCount: 1 });
    const filtered = partnerList.assert(await json(await call(users.admin, 'GET', '/partners?name=[eq]south')));
    expect(filtered.results.map((row) => row.partnerId)).toEqual(['P2']);
    const sorted = partnerList.assert(await json(await call(users.admin, 'GET', '/partners?sort=-businesses')));
    expect(sorted.results.map((row) => row.partnerId)).toEqual(['P1', 'P2']);
    const paged = partnerList.assert(await json(await call(users.admin, 'GET', '/partners?pagesize=10&pagenumber=2')));
    expect(paged).toEqual({ results: [], numberOfResults: 2 });
  });

  it('lists only its own partner for a partner user and refuses everybody else', async () => {
    const own = partnerList.assert(await json(await call(users.partner, 'GET', '/partners')));
    expect(own.results.map((row) => row.partnerId)).toEqual(['P1']);
    expect(own.numberOfResults).toBe(1);
    for (const user of [users.owner, users.finance, users.merchantOnly, users.nobody]) expect((await call(user, 'GET', '/partners')).status).toBe(403);
    expect((await call(null, 'GET', '/partners')).status).toBe(401);
  });

  it('answers 400 naming the field for undeclared filters, sorts and bad paging', async () => {
    const badFilter = await call(users.admin, 'GET', '/partners?country=[eq]GB');
    expect(badFilter.status).toBe(400);
    expect((await messages(badFilter)).join(' ')).toContain('country');
    const badSort = await call(users.admin, 'GET', '/partners?sort=secret');
    expect(badSort.status).toBe(400);
    expect((await messages(badSort)).join(' ')).toContain('secret');
    expect((await call(users.admin, 'GET', '/partners?pagesize=7')).status).toBe(400);
    expect((await call(users.partner, 'GET', '/partners/P1/businesses?live=[eq]maybe')).status).toBe(400);
  });

  it('shows one partner to its partner user and internal users; another partner, or no partner, is a 404', async () => {
    const detail = partnerDetail.assert(await json(await call(users.partner, 'GET', '/partners/P1')));
    expect(detail).toMatchObject({ partnerId: 'P1', businessCount: 2, merchantCount: 3, currencies: ['EUR', 'GBP'] });
    expect(detail.commissionPlans.map((plan) => plan.commissionPlanId)).toEqual([partnerPlanIds.p1]);
    expect(detail.commissionPlans[0]).toMatchObject({ status: 'Active', ruleCount: 5 });
    expect((await call(users.readonly, 'GET', '/partners/P2')).status).toBe(200);
    expect((await call(users.partner, 'GET', '/partners/P2')).status).toBe(404);
    expect((await call(users.admin, 'GET', '/partners/P9')).status).toBe(404);
    expect((await call(users.admin, 'GET', `/partners/${'x'.repeat(65)}`)).status).toBe(404);
    for (const user of [users.owner, users.finance, users.merchantOnly, users.nobody]) {
      expect((await call(user, 'GET', '/partners/P1')).status).toBe(404);
      expect((await call(user, 'GET', '/partners/P1/businesses')).status).toBe(404);
      expect((await call(user, 'GET', '/partners/P1/commission-plans')).status).toBe(404);
      expect((await call(user, 'GET', `/partners/P1/commission-plans/${partnerPlanIds.p1}`)).status).toBe(404);
    }
  });

  it("lists the partner's businesses with filters", async () => {
    const list = businessList.assert(await json(await call(users.partner, 'GET', '/partners/P1/businesses')));
    expect(list.results.map((row) => row.businessId)).toEqual(['B1', 'B2']);
    const filtered = businessList.assert(await json(await call(users.partner, 'GET', '/partners/P1/businesses?name=[eq]beta&sort=-id')));
    expect(filtered.results.map((row) => row.businessId)).toEqual(['B2']);
    expect(businessList.assert(await json(await call(users.admin, 'GET', '/partners/P2/businesses'))).numberOfResults).toBe(0);
  });

  it('lists the commission plans; a plan of another partner is a 404', async () => {
    const plans = commissionPlanList.assert(await json(await call(users.partner, 'GET', '/partners/P1/commission-plans')));
    expect(plans.results.map((plan) => plan.commissionPlanId)).toEqual([partnerPlanIds.p1]);
    expect((await call(users.partner, 'GET', `/partners/P1/commission-plans/${partnerPlanIds.p2}`)).status).toBe(404);
    expect((await call(users.admin, 'GET', `/partners/P1/commission-plans/${partnerPlanIds.p2}`)).status).toBe(404);
    expect((await call(users.admin, 'GET', '/partners/P1/commission-plans/CP-NONE')).status).toBe(404);
  });

  it('computes the commission earned per month from the ledger fees, by rule priority, band and conditions', async () => {
    const plan = commissionPlanDetail.assert(await json(await call(users.partner, 'GET', `/partners/P1/commission-plans/${partnerPlanIds.p1}`)));
    expect(plan.rules.map((rule) => rule.priority)).toEqual([5, 10, 20, 30, 40]);
    expect(plan.rules[1]).toMatchObject({ cardType: 'American Express', percentageBasisPoints: 1000, volumeToMinor: null });
    const month = lastMonthStart().toISOString().slice(0, 7);
    expect(plan.months).toEqual([
      { month, currency: 'EUR', volumeMinor: 3333, feesMinor: 88, transactionCount: 1, unmatchedCount: 0, commissionMinor: 13 },
      { month, currency: 'GBP', volumeMinor: 21599, feesMinor: 215 + 74 + 120 + 101, transactionCount: 4, unmatchedCount: 0, commissionMinor: 82 },
    ]);
    expect(plan.totals).toEqual([
      { currency: 'EUR', feesMinor: 88, commissionMinor: 13 },
      { currency: 'GBP', feesMinor: 510, commissionMinor: 82 },
    ]);
    // P2's plan sees none of P1's fees.
    const other = commissionPlanDetail.assert(await json(await call(users.admin, 'GET', `/partners/P2/commission-plans/${partnerPlanIds.p2}`)));
    expect(other.months).toEqual([]);
  });

  it('reconciles each month to the cent: the per-transaction shares add up to the monthly total', async () => {
    const plan = commissionPlanDetail.assert(await json(await call(users.admin, 'GET', `/partners/P1/commission-plans/${partnerPlanIds.p1}`)));
    const rules = (await database.db.select().from(schema.commissionRules).where(eq(schema.commissionRules.planId, partnerPlanIds.p1))).map(toRuleTerms);
    for (const month of plan.months) {
      const shares = await commissionOfTransactions(database.db, 'P1', rules, lastMonthStart(), month.currency);
      expect(shares.reduce((sum, share) => sum + share.commissionMinor, 0)).toBe(month.commissionMinor);
      expect(shares.reduce((sum, share) => sum + share.feeMinor, 0)).toBe(month.feesMinor);
    }
    const gbp = await commissionOfTransactions(database.db, 'P1', rules, lastMonthStart(), 'GBP');
    expect(Object.fromEntries(gbp.map((share) => [share.reference, [share.ruleId, share.commissionMinor]]))).toEqual({
      TXP0001: ['R30', 44],
      TXP0002: ['R30', 16],
      TXP0003: ['R10', 12],
      TXP0005: ['R5', 10],
    });
  });

  it('breaks the declines down by business for the period; malformed bodies are 400s; others 404', async () => {
    const day = paymentDay().toISOString().slice(0, 10);
    const body = { currency: 'GBP', dateRange: { startDate: day, endDate: day } };
    const response = await call(users.partner, 'POST', '/partners/P1/declines', body, { 'time-zone': 'UTC' });
    expect(response.status, await response.clone().text()).toBe(200);
    const declines = partnerDeclines.assert(await response.json());
    expect(declines).toMatchObject({ totalCount: 2, totalAmount: 2400 });
    expect(declines.businesses).toEqual([
      { businessId: 'B1', businessName: 'Alpha Trading Ltd', totalCount: 1, totalAmount: 1500, topReason: 'Insufficient funds' },
      { businessId: 'B2', businessName: 'Beta Retail Ltd', totalCount: 1, totalAmount: 900, topReason: 'Do not honour' },
    ]);
    for (const bad of [
      {},
      { currency: 'pounds', dateRange: body.dateRange },
      { ...body, extra: 1 },
      { currency: 'GBP', dateRange: { startDate: day, endDate: '2000-01-01' } },
    ]) {
      expect((await call(users.partner, 'POST', '/partners/P1/declines', bad)).status).toBe(400);
    }
    expect((await call(users.partner, 'POST', '/partners/P1/declines', 'not json', { 'content-type': 'application/json' })).status).toBe(400);
    expect((await call(users.partner, 'POST', '/partners/P2/declines', body)).status).toBe(404);
    expect((await call(users.finance, 'POST', '/partners/P1/declines', body)).status).toBe(404);
  });
});
