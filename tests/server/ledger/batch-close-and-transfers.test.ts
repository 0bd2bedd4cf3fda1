// A batch's closed time is when its cut-off ran for it: the run's time live (also when it catches up on missed
// days), and each batch's own day's end when history is replayed at once (the seed). A business transfer's sale amount
// is the sales of the batches whose payouts it pays, not its amount again, across separate remittance runs.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../../server/db/client.ts';
import * as schema from '../../../server/db/schema.ts';
import { closeDueBatches, payBusinessRemittances } from '../../../server/ledger/close-batches.ts';
import { ensureMerchantAccountGroups, postTransactionChanges } from '../../../server/ledger/post-transactions.ts';
import { toStatsTransaction, type NewTransactionRow } from '../../../server/stats/record-transaction.ts';
import { calendarDate } from '../../../src/contract/calendar-date.ts';
import { ledgerTransferList } from '../../../src/contract/ledger-schemas.ts';
import { createTestApp, createTestDatabase, databaseKinds, fixture, insertFixtureWorld } from '../support.ts';
import { insertTransactions } from '../transaction-writers.ts';
import { b2Eur, insertLedgerFixture, m1aGbp } from './ledger-fixtures.ts';

const sale = (reference: string, merchantId: string, businessId: string, at: string, amountMinor: number, currency = 'GBP'): NewTransactionRow => ({
  reference,
  kind: 'payment',
  parentReference: null,
  partnerId: null,
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

async function postSales(database: Database, rows: NewTransactionRow[]): Promise<void> {
  await database.db.transaction(async (tx) => {
    await insertTransactions(tx, rows);
    await postTransactionChanges(
      tx,
      rows.map((row) => ({ before: null, after: toStatsTransaction(row) })),
      { now: rows[0]?.createdAt ?? new Date(0) },
    );
  });
}

describe.each(databaseKinds)('batch closed times on %s', (kind) => {
  let database: Database;
  beforeAll(async () => {
    database = await createTestDatabase(kind);
    await insertFixtureWorld(database);
    await database.db.transaction((tx) => ensureMerchantAccountGroups(tx, [{ businessId: 'B1', merchantId: 'M1a', currency: 'GBP' }]));
  });
  afterAll(async () => database?.close());

  const closedAt = async () =>
    Object.fromEntries(
      (
        await database.db
          .select({ id: schema.settlementBatches.id, closedAt: schema.settlementBatches.closedAt })
          .from(schema.settlementBatches)
          .where(eq(schema.settlementBatches.accountNumber, m1aGbp))
      ).map((row) => [row.id.slice(-8), row.closedAt?.toISOString() ?? null]),
    );

  it("a replayed history closes each batch at its own day's end; a live run (catching up too) at its own time", async () => {
    await postSales(database, [sale('TXC1', 'M1a', 'B1', '2026-10-01T10:00:00Z', 1_000), sale('TXC2', 'M1a', 'B1', '2026-10-04T23:59:00Z', 2_000)]);
    await database.db.transaction((tx) => closeDueBatches(tx, new Date('2026-10-20T12:00:00Z'), undefined, { replay: true }));
    // Batches are the business's (London's) days: 23:59 UTC on 4 October is 00:59 on the 5th, and a day ends at London's
    // midnight, 23:00 UTC in summer time.
    expect(await closedAt()).toEqual({ '20261001': '2026-10-01T23:00:00.000Z', '20261005': '2026-10-05T23:00:00.000Z' });

    // Live: two days missed, then the job runs at 00:07 on the 24th and closes both then.
    await postSales(database, [sale('TXC3', 'M1a', 'B1', '2026-10-21T10:00:00Z', 3_000), sale('TXC4', 'M1a', 'B1', '2026-10-22T10:00:00Z', 4_000)]);
    await database.db.transaction((tx) => closeDueBatches(tx, new Date('2026-10-24T00:07:00Z')));
    expect(await closedAt()).toMatchObject({
      '20261021': '2026-10-24T00:07:00.000Z',
      '20261022': '2026-10-24T00:07:00.000Z',
      '20261001': '2026-10-01T23:00:00.000Z',
    });
  });
});

describe.each(databaseKinds)("business transfers' sale amounts on %s", (kind) => {
  let database: Database;
  let call: ReturnType<typeof createTestApp>['call'];
  beforeAll(async () => {
    database = await createTestDatabase(kind);
    await insertFixtureWorld(database);
    await insertLedgerFixture(database);
    ({ call } = createTestApp(database));
  });
  afterAll(async () => database?.close());

  it('each transfer carries the sales of the batches it pays, also in a later, separate run', async () => {
    // M2a (B2, automatic remittance off) sells €25.00 on 21 October; its batch closes and B2's Friday remittance pays it.
    await postSales(database, [sale('TXR1', 'M2a', 'B2', '2026-10-21T10:00:00Z', 2_500, 'EUR')]);
    await database.db.transaction(async (tx) => {
      await closeDueBatches(tx, new Date('2026-10-23T12:00:00Z'));
      await payBusinessRemittances(tx, new Date('2026-10-23T12:00:00Z'));
    });
    const response = await call(
      fixture.users.finance,
      'GET',
      `/businesses/B2/business-accountgroups/${b2Eur}/transfers?OrderingField=date&OrderingDirection=Ascending`,
    );
    expect(response.status).toBe(200);
    const transfers = ledgerTransferList.assert(await response.json()).results;
    // 9 October pays 1 October's batch (€40.00 of sales, €38.99 paid out); 23 October only the 21st's (€25.00 of
    // sales less the default fee of 1.90 % + 0.25, €0.73), not the earlier batch again.
    // A payment date is the business's day, paid from its midnight there (London: 23:00 UTC the day before in summer).
    expect(transfers.map((row) => [calendarDate(new Date(row.transferDate), 'Europe/London'), row.amount, row.saleAmount])).toEqual([
      ['2026-10-09', 38.99, 40],
      ['2026-10-23', 24.27, 25],
    ]);
  });
});
