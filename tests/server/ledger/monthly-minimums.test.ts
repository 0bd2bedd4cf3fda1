// The monthly minimum of a plan that starts mid-month is prorated in its first month by the days the plan is in force
// (from its start day to the month's end, over the month's days, rounded half up), in the ledger's posting and in the
// billing run's preview alike; every later month owes the whole minimum.
import { and, eq, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { draftInvoices } from '../../../server/billing/billing-run.ts';
import type { Database } from '../../../server/db/client.ts';
import * as schema from '../../../server/db/schema.ts';
import { postMonthlyMinimums, proratedMonthlyMinimum } from '../../../server/ledger/close-batches.ts';
import { ensureMerchantAccountGroups } from '../../../server/ledger/post-transactions.ts';
import { merchantAccountNumber } from '../../../src/contract/ledger.ts';
import { createTestDatabase, databaseKinds, insertFixtureWorld } from '../support.ts';

describe('prorated monthly minimum', () => {
  const october = new Date('2026-10-01T00:00:00Z');
  it('is whole for a month the plan covers from its first day, and the share of the days in force otherwise', () => {
    expect(proratedMonthlyMinimum(2_500, new Date('2026-09-12T00:00:00Z'), october)).toBe(2_500);
    expect(proratedMonthlyMinimum(2_500, new Date('2026-10-01T00:00:00Z'), october)).toBe(2_500);
    // 16 to 31 October: 16 of 31 days, 1,290.32… → 1,290; the start day counts whatever the hour.
    expect(proratedMonthlyMinimum(2_500, new Date('2026-10-16T00:00:00Z'), october)).toBe(1_290);
    expect(proratedMonthlyMinimum(2_500, new Date('2026-10-16T17:45:00Z'), october)).toBe(1_290);
    expect(proratedMonthlyMinimum(3_100, new Date('2026-10-31T00:00:00Z'), october)).toBe(100);
    // February of 2026 has 28 days: from the 15th, 14 of them.
    expect(proratedMonthlyMinimum(2_500, new Date('2026-02-15T00:00:00Z'), new Date('2026-02-01T00:00:00Z'))).toBe(1_250);
    // Half a minor unit rounds up: 1 × 16 / 31 = 0.52 → 1; 1 × 15 / 31 = 0.48 → 0.
    expect(proratedMonthlyMinimum(1, new Date('2026-10-16T00:00:00Z'), october)).toBe(1);
    expect(proratedMonthlyMinimum(1, new Date('2026-10-17T00:00:00Z'), october)).toBe(0);
  });
});

describe.each(databaseKinds)('monthly minimums posted for a plan starting mid-month on %s', (kind) => {
  let database: Database;
  const account = merchantAccountNumber('M1a', 'GBP');
  beforeAll(async () => {
    database = await createTestDatabase(kind);
    await insertFixtureWorld(database);
    await database.db.transaction(async (tx) => {
      await ensureMerchantAccountGroups(tx, [{ businessId: 'B1', merchantId: 'M1a', currency: 'GBP' }]);
      // No fees at all: the top-up is the minimum in force. 21 to 31 October is 11 of 31 days: 3,100 × 11 / 31 = 1,100.
      await tx.insert(schema.pricingPlans).values({
        merchantId: 'M1a',
        businessId: 'B1',
        currency: 'GBP',
        name: 'Growth',
        monthlyMinimumMinor: 3_100,
        validFrom: new Date('2026-10-21T15:00:00Z'),
      });
    });
  });
  afterAll(async () => database?.close());

  it("the billing preview and the ledger posting owe the first month's share, later months the whole minimum", async () => {
    const preview = await draftInvoices(database.db, '2026-10');
    expect(preview.map((invoice) => [invoice.businessId, invoice.currency, invoice.minimumTopUpMinor])).toEqual([['B1', 'GBP', 1_100]]);

    await database.db.transaction((tx) => postMonthlyMinimums(tx, new Date('2026-12-05T00:00:00Z')));
    const posted = await database.db
      .select({ postingId: schema.ledgerEntries.postingId, amount: schema.ledgerEntries.amountMinor, valueAt: schema.ledgerEntries.valueAt })
      .from(schema.ledgerEntries)
      .where(and(eq(schema.ledgerEntries.accountId, `${account}:costs`), like(schema.ledgerEntries.postingId, 'minimumFee:%')))
      .orderBy(schema.ledgerEntries.postingId);
    expect(posted.map((row) => [row.postingId, row.amount, row.valueAt.toISOString()])).toEqual([
      [`minimumFee:${account}:202610`, 1_100, '2026-11-01T00:00:00.000Z'],
      [`minimumFee:${account}:202611`, 3_100, '2026-12-01T00:00:00.000Z'],
    ]);
    // Once posted, the preview reads the posting.
    expect((await draftInvoices(database.db, '2026-10'))[0]?.minimumTopUpMinor).toBe(1_100);
  });
});
