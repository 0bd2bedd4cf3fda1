// Bulk jobs' fixtures, on top of the fixture world: pending payment jobs of B3 at two merchants, a paid
// one, two of another tenant (B1), and a user who may cancel at one merchant of B3 only.
import type { Database } from '../../../server/db/client.ts';
import * as schema from '../../../server/db/schema.ts';
import { insertTransactions } from '../transaction-writers.ts';

/** Finance on B3 (reads, may not cancel) and Sales on merchant M3a (may cancel there only). */
export const bulkMixedUser = 'u-bulk-mixed';
const mixed = bulkMixedUser;

export async function insertBulkFixtures(database: Database): Promise<void> {
  const { db } = database;
  const created = new Date('2026-11-10T09:00:00Z');
  const job = (reference: string, merchantId: string, status: string, businessId = 'B3') => ({
    reference,
    businessId,
    partnerId: businessId === 'B1' ? 'P1' : null,
    merchantId,
    configurationId: `C-${merchantId}`,
    createDateTimeUtc: created,
    expirationDateTimeUtc: new Date(Date.now() + 7 * 86_400_000),
    orderNumber: `ORD-${reference}`,
    amountMinor: 1000,
    currency: 'GBP',
    status,
    order: { billingIdentity: { emailAddress: 'shopper@example.test' } },
  });
  const jobs = [
    ...Array.from({ length: 12 }, (_, index) => job(`BK3A${String(index).padStart(4, '0')}`, 'M3a', 'pending')),
    job('BK3B0001', 'M3b', 'pending'),
    job('BK3B0002', 'M3b', 'pending'),
    job('BK3P0001', 'M3a', 'paid'),
    job('BK1A0001', 'M1a', 'pending', 'B1'),
    job('BK1A0002', 'M1a', 'pending', 'B1'),
  ];
  await db.insert(schema.paymentJobs).values(jobs);
  await insertTransactions(
    db,
    jobs.map((row) => ({
      reference: `TX${row.reference}`,
      kind: 'payment' as const,
      parentReference: null,
      partnerId: row.partnerId,
      businessId: row.businessId,
      merchantId: row.merchantId,
      configurationId: row.configurationId,
      paymentJobReference: row.reference,
      createdAt: created,
      amountMinor: 1000,
      currency: 'GBP',
      status: row.status,
      paymentMethod: 'ideal',
      channel: 'Gateway',
      customerEmail: row.reference === 'BK3A0003' ? null : 'shopper@example.test',
    })),
  );
  await db.insert(schema.users).values({
    id: mixed,
    email: 'mixed@fixture.test',
    givenName: 'Mixed',
    familyName: 'Test',
    passwordHash: 'scrypt$1$1$1$x$y',
    passwordExpiresUtc: new Date(Date.now() + 86_400_000 * 30),
  });
  await db.insert(schema.userRoles).values([
    { userId: mixed, role: 'Finance', level: 'business', businessId: 'B3' },
    { userId: mixed, role: 'Sales', level: 'merchant', businessId: 'B3', merchantId: 'M3a' },
  ]);
}
