// Every money period of a merchant is cut in one zone, its business's: statements, camt.053, settlement batches,
// invoices, monthly minimums and partner commission. A sale at 00:03 London time on 1 October (23:03 UTC on
// 30 September) is October's everywhere; a Tokyo business's days begin at 15:00 UTC; the day summer time starts in
// London (28 March 2027) is 23 hours long and every entry of it lands in exactly one day and one batch.
import { and, eq, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { draftInvoices } from '../../../server/billing/billing-run.ts';
import type { Database } from '../../../server/db/client.ts';
import * as schema from '../../../server/db/schema.ts';
import { camt053Statement } from '../../../server/ledger/camt053.ts';
import { closeDueBatches, postMonthlyMinimums, proratedMonthlyMinimum } from '../../../server/ledger/close-batches.ts';
import { dayBounds, dayOf, localDateTime, monthBoundsIn, monthOf } from '../../../server/ledger/periods.ts';
import { ensureMerchantAccountGroups, postTransactionChanges } from '../../../server/ledger/post-transactions.ts';
import { readDailyBalances, readStatement } from '../../../server/ledger/statement.ts';
import { commissionByMonth, commissionOfTransactions } from '../../../server/partners/commission-ledger.ts';
import { toStatsTransaction, type NewTransactionRow } from '../../../server/stats/record-transaction.ts';
import { accountStatement, settlementBatchList } from '../../../src/contract/ledger-schemas.ts';
import { defaultRate, feeOf as contractFeeOf, merchantAccountNumber } from '../../../src/contract/ledger.ts';
import { createTestApp, createTestDatabase, databaseKinds, fixture, insertFixtureWorld } from '../support.ts';
import { insertTransactions } from '../transaction-writers.ts';

const iso = (date: Date) => date.toISOString();

describe('business periods (periods.ts)', () => {
  it('cuts London days and months at local midnight, in summer an hour before UTC', () => {
    const sale = new Date('2026-09-30T23:03:00Z');
    expect(dayOf(sale, 'Europe/London')).toEqual({ date: '2026-10-01', start: new Date('2026-09-30T23:00:00Z'), end: new Date('2026-10-01T23:00:00Z') });
    expect(monthOf(sale, 'Europe/London')).toEqual({ month: '2026-10', start: new Date('2026-09-30T23:00:00Z'), end: new Date('2026-11-01T00:00:00Z') });
    expect(monthOf(sale, 'UTC').month).toBe('2026-09');
    expect(localDateTime(sale, 'Europe/London')).toBe('2026-10-01T00:03:00+01:00');
  });

  it("cuts a Tokyo business's days at 15:00 UTC", () => {
    expect(dayBounds('2026-10-02', 'Asia/Tokyo')).toEqual({ start: new Date('2026-10-01T15:00:00Z'), end: new Date('2026-10-02T15:00:00Z') });
    expect(dayOf(new Date('2026-10-01T14:59:59Z'), 'Asia/Tokyo').date).toBe('2026-10-01');
    expect(dayOf(new Date('2026-10-01T15:00:00Z'), 'Asia/Tokyo').date).toBe('2026-10-02');
    expect(monthBoundsIn('2026-10', 'Asia/Tokyo')).toEqual({ start: new Date('2026-09-30T15:00:00Z'), end: new Date('2026-10-31T15:00:00Z') });
    expect(localDateTime(new Date('2026-10-01T15:00:00Z'), 'Asia/Tokyo')).toBe('2026-10-02T00:00:00+09:00');
  });

  it('gives the London summer-time days 23 and 25 hours', () => {
    const spring = dayBounds('2027-03-28', 'Europe/London');
    expect([iso(spring.start), iso(spring.end)]).toEqual(['2027-03-28T00:00:00.000Z', '2027-03-28T23:00:00.000Z']);
    const autumn = dayBounds('2027-10-31', 'Europe/London');
    expect((autumn.end.getTime() - autumn.start.getTime()) / 3_600_000).toBe(25);
    // Consecutive days meet exactly: no instant is in two days or in none.
    expect(dayBounds('2027-03-29', 'Europe/London').start).toEqual(spring.end);
  });

  it("prorates a first month by the business's days", () => {
    // A plan from 00:30 London time on 16 October (23:30 UTC on the 15th): 16 of 31 days, 1,290; read in UTC, 17 days.
    const from = new Date('2026-10-15T23:30:00Z');
    expect(proratedMonthlyMinimum(2_500, from, monthBoundsIn('2026-10', 'Europe/London').start, 'Europe/London')).toBe(1_290);
    expect(proratedMonthlyMinimum(2_500, from, new Date('2026-10-01T00:00:00Z'))).toBe(1_371);
  });
});

const row = (
  reference: string,
  merchantId: string,
  businessId: string,
  partnerId: string | null,
  at: string,
  amountMinor: number,
  currency = 'GBP',
): NewTransactionRow => ({
  reference,
  kind: 'payment',
  parentReference: null,
  partnerId,
  businessId,
  merchantId,
  configurationId: `C-${merchantId}`,
  paymentJobReference: `PJ${reference}`,
  createdAt: new Date(at),
  amountMinor,
  currency,
  status: 'paid',
  paymentMethod: 'card',
  channel: 'Gateway',
});

async function post(database: Database, rows: NewTransactionRow[], now: Date): Promise<void> {
  await database.db.transaction(async (tx) => {
    await insertTransactions(tx, rows);
    await postTransactionChanges(
      tx,
      rows.map((transaction) => ({ before: null, after: toStatsTransaction(transaction) })),
      { now },
    );
  });
}

describe.each(databaseKinds)("money periods in the business's time zone on %s", (kind) => {
  let database: Database;
  let call: ReturnType<typeof createTestApp>['call'];
  // M1b: Alpha Stores (B1, London, gross settlement: its fees are invoiced), partner P1.
  const m1b = merchantAccountNumber('M1b', 'GBP');
  // M2a: Beta Web (B2, moved to Tokyo here), EUR.
  const m2a = merchantAccountNumber('M2a', 'EUR');
  // M3a: Gamma Deli (B3, London), the summer-time change.
  const m3a = merchantAccountNumber('M3a', 'GBP');
  const feeOf = (amount: number) => Math.floor((amount * 140 + 5_000) / 10_000) + 20;

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    await insertFixtureWorld(database);
    ({ call } = createTestApp(database));
    await database.db.update(schema.businesses).set({ timeZone: 'Asia/Tokyo' }).where(eq(schema.businesses.id, 'B2'));
    await database.db.transaction(async (tx) => {
      await ensureMerchantAccountGroups(tx, [
        { businessId: 'B1', merchantId: 'M1b', currency: 'GBP' },
        { businessId: 'B2', merchantId: 'M2a', currency: 'EUR' },
        { businessId: 'B3', merchantId: 'M3a', currency: 'GBP' },
      ]);
      // A monthly minimum of 50.00 from 1 September, London time.
      await tx.insert(schema.pricingPlans).values({
        merchantId: 'M1b',
        businessId: 'B1',
        currency: 'GBP',
        name: 'Growth',
        monthlyMinimumMinor: 5_000,
        validFrom: new Date('2026-08-31T23:00:00Z'),
      });
      await tx
        .insert(schema.pricingPlanRates)
        .values({ merchantId: 'M1b', currency: 'GBP', paymentMethod: 'card', percentageBasisPoints: 140, fixedMinor: 20 });
    });
    // 23:50 on 30 September and 00:03 on 1 October, London time (BST, UTC+1).
    await post(
      database,
      [row('TZSEP', 'M1b', 'B1', 'P1', '2026-09-30T22:50:00Z', 4_000), row('TZOCT', 'M1b', 'B1', 'P1', '2026-09-30T23:03:00Z', 10_000)],
      new Date('2026-09-30T23:05:00Z'),
    );
    // Tokyo: 23:59 on 1 October and 00:00 on 2 October, Japan time.
    await post(
      database,
      [row('TZJP1', 'M2a', 'B2', 'P1', '2026-10-01T14:59:00Z', 1_000, 'EUR'), row('TZJP2', 'M2a', 'B2', 'P1', '2026-10-01T15:00:00Z', 2_000, 'EUR')],
      new Date('2026-10-01T15:01:00Z'),
    );
    // London, 28 March 2027 (clocks go forward at 01:00 UTC): 23:30 on the 27th, 00:30 and 23:30 on the 28th, 00:30 on the 29th.
    await post(
      database,
      [
        row('TZDST1', 'M3a', 'B3', null, '2027-03-27T23:30:00Z', 100),
        row('TZDST2', 'M3a', 'B3', null, '2027-03-28T00:30:00Z', 200),
        row('TZDST3', 'M3a', 'B3', null, '2027-03-28T22:30:00Z', 400),
        row('TZDST4', 'M3a', 'B3', null, '2027-03-28T23:30:00Z', 800),
      ],
      new Date('2027-03-28T23:31:00Z'),
    );
  });
  afterAll(async () => database?.close());

  const batchesOf = async (accountNumber: string) =>
    (
      await database.db
        .select()
        .from(schema.settlementBatches)
        .where(eq(schema.settlementBatches.accountNumber, accountNumber))
        .orderBy(schema.settlementBatches.batchStart)
    ).map((batch) => ({ id: batch.id, start: iso(batch.batchStart), sales: batch.salesMinor, count: batch.salesCount, status: batch.status }));

  it("puts the 00:03 sale in 1 October's batch, which starts at London midnight", async () => {
    expect(await batchesOf(m1b)).toEqual([
      { id: `B${m1b}-20260930`, start: '2026-09-29T23:00:00.000Z', sales: 4_000, count: 1, status: 'Open' },
      { id: `B${m1b}-20261001`, start: '2026-09-30T23:00:00.000Z', sales: 10_000, count: 1, status: 'Open' },
    ]);
  });

  it("closes a batch at the business's midnight, not UTC's", async () => {
    await database.db.transaction((tx) => closeDueBatches(tx, new Date('2026-09-30T23:00:00Z')));
    expect((await batchesOf(m1b)).map((batch) => batch.status)).toEqual(['Closed', 'Open']);
    await database.db.transaction((tx) => closeDueBatches(tx, new Date('2026-10-01T22:59:59Z')));
    expect((await batchesOf(m1b)).map((batch) => batch.status)).toEqual(['Closed', 'Open']);
    await database.db.transaction((tx) => closeDueBatches(tx, new Date('2026-10-01T23:00:00Z')));
    expect((await batchesOf(m1b)).map((batch) => batch.status)).toEqual(['Closed', 'Closed']);
    // The payout of 1 October's batch is valued at its cut-off, London's midnight.
    const [payout] = await database.db
      .select({ valueAt: schema.ledgerPostings.valueAt })
      .from(schema.ledgerPostings)
      .where(eq(schema.ledgerPostings.id, `payout:B${m1b}-20261001`));
    expect(payout && iso(payout.valueAt)).toBe('2026-10-01T23:00:00.000Z');
  });

  it("lists the sale in October's statement, whatever zone the caller is in", async () => {
    const october = monthBoundsIn('2026-10', 'Europe/London');
    const statement = await readStatement(database.db, {
      accountId: `${m1b}:costs`,
      period: { start: october.start, end: new Date(october.end.getTime() - 1) },
      sort: { field: 'date', descending: false },
      limit: 10,
      offset: 0,
    });
    expect(statement.movements.map((movement) => movement.transactionReference)).toEqual(['TZOCT']);
    // The API reads the business's zone, not the request's: a caller in Tokyo asking for October sees London's October.
    const path = `/businesses/B1/merchants/M1b/merchant-accountgroups/${m1b}/statements/costs?date=${encodeURIComponent('[gte]2026-10-01[and][lte]2026-10-31')}`;
    const response = await call(fixture.users.partner, 'GET', path, undefined, { 'time-zone': 'Asia/Tokyo' });
    expect(response.status, await response.clone().text()).toBe(200);
    const body = accountStatement.assert(await response.json());
    expect(body.results.map((movement) => movement.transactionReference)).toEqual(['TZOCT']);
    expect([body.periodStart, body.periodEnd]).toEqual(['2026-09-30T23:00:00.000Z', '2026-10-31T23:59:59.999Z']);
  });

  it("filters the batch list by the business's days", async () => {
    const path = `/businesses/B1/merchants/M1b/merchant-accountgroups/${m1b}/batches?date=${encodeURIComponent('[gte]2026-10-01[and][lte]2026-10-01')}`;
    const response = await call(fixture.users.partner, 'GET', path, undefined, { 'time-zone': 'America/New_York' });
    expect(response.status, await response.clone().text()).toBe(200);
    const body = settlementBatchList.assert(await response.json());
    expect(body.results.map((batch) => batch.batchId)).toEqual([`B${m1b}-20261001`]);
  });

  it("writes camt.053 dates as the business's days, with the offset and the zone named", async () => {
    let xml = '';
    for await (const chunk of camt053Statement(database.db, {
      accountId: `${m1b}:costs`,
      accountNumber: m1b,
      kind: 'costs',
      currency: 'GBP',
      holder: 'Alpha Stores',
      createdAt: new Date('2026-11-02T10:00:00Z'),
      period: { start: new Date('2026-09-30T23:00:00Z'), end: new Date('2026-10-31T23:59:59.999Z') },
    }))
      xml += chunk;
    expect(xml).toContain('<FrDtTm>2026-10-01T00:00:00+01:00</FrDtTm><ToDtTm>2026-10-31T23:59:59.999+00:00</ToDtTm>');
    expect(xml).toContain('<BookgDt><DtTm>2026-10-01T00:03:00+01:00</DtTm></BookgDt><ValDt><Dt>2026-10-01</Dt></ValDt>');
    expect(xml).toContain('<Dt><Dt>2026-10-01</Dt></Dt></Bal>');
    expect(xml).toContain('<AddtlStmtInf>Dates and times in Europe/London</AddtlStmtInf></Stmt>');
  });

  it("invoices the sale's fee and counts it toward October's minimum", async () => {
    const september = await draftInvoices(database.db, '2026-09');
    const october = await draftInvoices(database.db, '2026-10');
    const feeLine = (drafts: typeof october) => drafts.find((draft) => draft.businessId === 'B1')?.lines.find((line) => line.paymentMethod === 'card');
    expect(feeLine(september)).toMatchObject({ transactionCount: 1, volumeMinor: 4_000, feesMinor: feeOf(4_000) });
    expect(feeLine(october)).toMatchObject({ transactionCount: 1, volumeMinor: 10_000, feesMinor: feeOf(10_000) });
    // Minimums: each month's 50.00 less that month's fees, posted at the month's London end.
    await database.db.transaction((tx) => postMonthlyMinimums(tx, new Date('2026-11-15T00:00:00Z')));
    const posted = await database.db
      .select({ postingId: schema.ledgerEntries.postingId, amount: schema.ledgerEntries.amountMinor, valueAt: schema.ledgerEntries.valueAt })
      .from(schema.ledgerEntries)
      .where(and(eq(schema.ledgerEntries.accountId, `${m1b}:costs`), like(schema.ledgerEntries.postingId, 'minimumFee:%')))
      .orderBy(schema.ledgerEntries.postingId);
    expect(posted.map((entry) => [entry.postingId, entry.amount, iso(entry.valueAt)])).toEqual([
      [`minimumFee:${m1b}:202609`, 5_000 - feeOf(4_000), '2026-09-30T23:00:00.000Z'],
      [`minimumFee:${m1b}:202610`, 5_000 - feeOf(10_000), '2026-11-01T00:00:00.000Z'],
    ]);
    expect((await draftInvoices(database.db, '2026-10')).find((draft) => draft.businessId === 'B1')?.minimumTopUpMinor).toBe(5_000 - feeOf(10_000));
  });

  it("earns the sale's commission in October", async () => {
    const rules = [
      {
        ruleId: 'R1',
        priority: 10,
        volumeFromMinor: 0,
        volumeToMinor: null,
        percentageBasisPoints: 1000,
        fixedMinor: 0,
        channel: null,
        currency: null,
        paymentMethod: null,
        cardType: null,
      },
    ];
    const months = await commissionByMonth(database.db, 'P1', rules, new Date('2026-09-01T00:00:00Z'), new Date('2026-11-01T00:00:00Z'));
    const gbp = months.filter((month) => month.currency === 'GBP').map((month) => [month.month, month.volumeMinor, month.feesMinor, month.transactionCount]);
    expect(gbp).toEqual([
      ['2026-10', 10_000, feeOf(10_000), 1],
      ['2026-09', 4_000, feeOf(4_000), 1],
    ]);
    // The Tokyo business's 00:00 sale on 2 October is October's too; its 23:59 one on 1 October as well.
    expect(months.filter((month) => month.currency === 'EUR').map((month) => [month.month, month.volumeMinor])).toEqual([['2026-10', 3_000]]);
    const shares = await commissionOfTransactions(database.db, 'P1', rules, new Date('2026-10-01T00:00:00Z'), 'GBP');
    expect(shares.map((share) => share.reference)).toEqual(['TZOCT']);
  });

  it("cuts a Tokyo business's batches and daily balances at Japan's midnight", async () => {
    expect((await batchesOf(m2a)).map((batch) => [batch.id, batch.start, batch.sales])).toEqual([
      [`B${m2a}-20261001`, '2026-09-30T15:00:00.000Z', 1_000],
      [`B${m2a}-20261002`, '2026-10-01T15:00:00.000Z', 2_000],
    ]);
    // The costs account's balance at each Japanese day's end: the first sale's fee, then both fees.
    const fee = (amount: number) => contractFeeOf(amount, defaultRate);
    const days = ['2026-10-01', '2026-10-02'].map((date) => ({ date, end: new Date(dayBounds(date, 'Asia/Tokyo').end.getTime() - 1) }));
    const balances = await readDailyBalances(
      database.db,
      `${m2a}:costs`,
      { start: dayBounds('2026-10-01', 'Asia/Tokyo').start, end: days[1]?.end as Date },
      days,
      'Asia/Tokyo',
    );
    expect(balances).toEqual([
      { date: '2026-10-01', balanceMinor: fee(1_000) },
      { date: '2026-10-02', balanceMinor: fee(1_000) + fee(2_000) },
    ]);
  });

  it('gives the day summer time starts 23 hours, every entry in exactly one day and one batch', async () => {
    expect((await batchesOf(m3a)).map((batch) => [batch.id, batch.start, batch.sales])).toEqual([
      [`B${m3a}-20270327`, '2027-03-27T00:00:00.000Z', 100],
      [`B${m3a}-20270328`, '2027-03-28T00:00:00.000Z', 600],
      [`B${m3a}-20270329`, '2027-03-28T23:00:00.000Z', 800],
    ]);
    const dates = ['2027-03-27', '2027-03-28', '2027-03-29'];
    const perDay = await Promise.all(
      dates.map(async (date) => {
        const { start, end } = dayBounds(date, 'Europe/London');
        const statement = await readStatement(database.db, {
          accountId: `${m3a}:trading`,
          period: { start, end: new Date(end.getTime() - 1) },
          categories: ['sale'],
          sort: { field: 'date', descending: false },
          limit: 10,
          offset: 0,
        });
        return statement.movements.map((movement) => movement.transactionReference);
      }),
    );
    expect(perDay).toEqual([['TZDST1'], ['TZDST2', 'TZDST3'], ['TZDST4']]);
    // The 28th's batch closes at 23:00 UTC, 23 hours after it began; the 29th's stays open.
    await database.db.transaction((tx) => closeDueBatches(tx, new Date('2027-03-28T23:00:00Z')));
    expect((await batchesOf(m3a)).map((batch) => batch.status)).toEqual(['Closed', 'Closed', 'Open']);
    const [payout] = await database.db
      .select({ valueAt: schema.ledgerPostings.valueAt })
      .from(schema.ledgerPostings)
      .where(eq(schema.ledgerPostings.id, `payout:B${m3a}-20270328`));
    expect(payout && iso(payout.valueAt)).toBe('2027-03-28T23:00:00.000Z');
  });
});
