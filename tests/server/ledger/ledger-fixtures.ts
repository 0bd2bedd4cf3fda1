// A small settlement history on the fixture world, made through the ledger's own write path: transactions inserted
// (statistics and postings in the same database transaction), one payment paid a day later, then the cut-off.
import { eq as sqlEq } from 'drizzle-orm';
import type { Database } from '../../../server/db/client.ts';
import * as schema from '../../../server/db/schema.ts';
import { closeDueBatches, payBusinessRemittances } from '../../../server/ledger/close-batches.ts';
import { ensureMerchantAccountGroups, postTransactionChanges } from '../../../server/ledger/post-transactions.ts';
import { toStatsTransaction, type NewTransactionRow } from '../../../server/stats/record-transaction.ts';
import { insertTransactions, updateTransaction } from '../transaction-writers.ts';
import { merchantAccountNumber, businessAccountNumber } from '../../../src/contract/ledger.ts';

export const ledgerNow = new Date('2026-10-20T12:00:00Z');
export const m1aGbp = merchantAccountNumber('M1a', 'GBP');
export const m1bGbp = merchantAccountNumber('M1b', 'GBP');
export const m2aEur = merchantAccountNumber('M2a', 'EUR');
export const m3aGbp = merchantAccountNumber('M3a', 'GBP');
export const b2Eur = businessAccountNumber('B2', 'EUR');

const row = (
  reference: string,
  merchantId: string,
  businessId: string,
  partnerId: string | null,
  at: string,
  amountMinor: number,
  extra: Partial<NewTransactionRow> = {},
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
  currency: 'GBP',
  status: 'paid',
  paymentMethod: 'card',
  channel: 'Gateway',
  ...extra,
});

export const ledgerTransactions: NewTransactionRow[] = [
  row('TXL1', 'M1a', 'B1', 'P1', '2026-10-01T10:00:00Z', 10_000),
  row('TXL2', 'M1a', 'B1', 'P1', '2026-10-01T12:00:00Z', 5_000, { paymentMethod: 'ideal' }),
  row('TXL3', 'M1a', 'B1', 'P1', '2026-10-02T09:00:00Z', 2_000, { kind: 'refund', parentReference: 'TXL1' }),
  row('TXL4', 'M1a', 'B1', 'P1', '2026-10-02T15:00:00Z', 3_000, { status: 'pending' }),
  row('TXL5', 'M1b', 'B1', 'P1', '2026-10-01T10:00:00Z', 8_000),
  row('TXL6', 'M2a', 'B2', 'P1', '2026-10-01T10:00:00Z', 4_000, { currency: 'EUR' }),
  row('TXL7', 'M3a', 'B3', null, '2026-10-01T10:00:00Z', 1_000),
  row('TXL8', 'M1a', 'B1', 'P1', '2026-10-12T10:00:00Z', 1_000),
];

export async function insertLedgerFixture(database: Database): Promise<void> {
  await database.db.transaction(async (tx) => {
    await ensureMerchantAccountGroups(tx, [
      { businessId: 'B1', merchantId: 'M1a', currency: 'GBP' },
      { businessId: 'B1', merchantId: 'M1a', currency: 'EUR' },
      { businessId: 'B1', merchantId: 'M1b', currency: 'GBP' },
      { businessId: 'B2', merchantId: 'M2a', currency: 'EUR' },
      { businessId: 'B3', merchantId: 'M3a', currency: 'GBP' },
    ]);
    await tx
      .update(schema.merchantAccountGroups)
      .set({ reserveBasisPoints: 1000, reserveDays: 10 })
      .where(sqlEq(schema.merchantAccountGroups.accountNumber, m1aGbp));
    await tx.insert(schema.pricingPlans).values([
      { merchantId: 'M1a', businessId: 'B1', currency: 'GBP', name: 'Growth', monthlyMinimumMinor: 0, validFrom: new Date('2026-01-01T00:00:00Z') },
      { merchantId: 'M1b', businessId: 'B1', currency: 'GBP', name: 'Standard', monthlyMinimumMinor: 0, validFrom: new Date('2026-01-01T00:00:00Z') },
    ]);
    await tx.insert(schema.pricingPlanRates).values([
      { merchantId: 'M1a', currency: 'GBP', paymentMethod: 'card', percentageBasisPoints: 140, fixedMinor: 20 },
      { merchantId: 'M1b', currency: 'GBP', paymentMethod: 'card', percentageBasisPoints: 100, fixedMinor: 10 },
    ]);
    await insertTransactions(tx, ledgerTransactions);
    await postTransactionChanges(
      tx,
      ledgerTransactions.map((transaction) => ({ before: null, after: toStatsTransaction(transaction) })),
      { now: new Date('2026-10-02T15:00:00Z') },
    );
  });
  // TXL4 is paid the next morning: its sale lands in that day's batch.
  await database.db.transaction(async (tx) => {
    const before = (await tx.select().from(schema.transactions).where(sqlEq(schema.transactions.reference, 'TXL4')))[0];
    const after = await updateTransaction(tx, 'TXL4', { status: 'paid' });
    if (!before || !after) throw new Error('TXL4 missing');
    await postTransactionChanges(tx, [{ before: toStatsTransaction(before), after: toStatsTransaction(after) }], { now: new Date('2026-10-03T08:00:00Z') });
  });
  await database.db.transaction(async (tx) => {
    await closeDueBatches(tx, ledgerNow);
    await tx.insert(schema.remittanceSettings).values({
      accountNumber: b2Eur,
      businessId: 'B2',
      frequency: 'weekly',
      dayOfPeriod: 5,
      startDate: '2026-10-01',
      nextPaymentDate: '2026-10-01',
      nextScheduleDate: '2026-10-01',
      beneficiary: { companyName: 'Beta Retail Ltd' },
      ibanMasked: 'GB** **** **** **** 4321',
    });
    await payBusinessRemittances(tx, ledgerNow);
  });
}
