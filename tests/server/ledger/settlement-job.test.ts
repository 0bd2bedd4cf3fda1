// The settlement job as the server runs it: yesterday's batch is closed (paid out and transferred), today's stays
// Open, and a second run (another node, the next tick) posts nothing more.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../../server/db/client.ts';
import { postTransactionChanges, utcDayStart } from '../../../server/ledger/post-transactions.ts';
import { startSettlementJob } from '../../../server/ledger/settlement-job.ts';
import { toStatsTransaction, type NewTransactionRow } from '../../../server/stats/record-transaction.ts';
import { insertTransactions } from '../transaction-writers.ts';
import { createTestDatabase, insertFixtureWorld } from '../support.ts';

describe('the settlement job (PGlite)', () => {
  let database: Database;
  beforeAll(async () => {
    database = await createTestDatabase('pglite');
    await insertFixtureWorld(database);
  });
  afterAll(async () => database?.close());

  it('closes the batches of ended days once', async () => {
    const today = utcDayStart(new Date());
    const row = (reference: string, at: Date): NewTransactionRow => ({
      reference,
      kind: 'payment',
      parentReference: null,
      partnerId: 'P1',
      businessId: 'B1',
      merchantId: 'M1a',
      configurationId: 'C-M1a',
      paymentJobReference: `PJ${reference}`,
      createdAt: at,
      amountMinor: 10_000,
      currency: 'GBP',
      status: 'paid',
      paymentMethod: 'card',
      channel: 'Gateway',
    });
    const rows = [row('TXJ1', new Date(today.getTime() - 86_400_000 + 3_600_000)), row('TXJ2', new Date(Math.max(today.getTime(), Date.now() - 60_000)))];
    await database.db.transaction(async (tx) => {
      await insertTransactions(tx, rows);
      await postTransactionChanges(
        tx,
        rows.map((transaction) => ({ before: null, after: toStatsTransaction(transaction) })),
      );
    });
    const job = startSettlementJob(database, { everyMs: 3_600_000 });
    try {
      await job.runOnce();
      const batches = await database.query<{ status: string; net_minor: string | number }>(
        'SELECT status, net_minor FROM settlement_batches ORDER BY batch_start',
      );
      // 100.00 less the default card fee (1.90 % + 0.25 = 2.15) paid out yesterday; today's batch is still open.
      expect(batches.map((batch) => [batch.status, Number(batch.net_minor)])).toEqual([
        ['Closed', 9785],
        ['Open', 0],
      ]);
      const [transfer] = await database.query<{ amount_minor: string | number }>('SELECT amount_minor FROM ledger_transfers');
      expect(Number(transfer?.amount_minor)).toBe(9785);
      const entries = await database.query<{ n: string | number }>('SELECT count(*) AS n FROM ledger_entries');
      await job.runOnce();
      expect(await database.query<{ n: string | number }>('SELECT count(*) AS n FROM ledger_entries')).toEqual(entries);
    } finally {
      await job.stop();
    }
  });
});
