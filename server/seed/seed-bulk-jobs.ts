// Bulk jobs of the demo world: owner@demo.test has resent payment links to three jobs of their business,
// one of which was already paid (its line in the result file says why), and exported its pending jobs once.
import { and, asc, eq } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import * as schema from '../db/schema.ts';
import type { World } from './seed-world.ts';

export async function seedBulkJobs(tx: Db, options: { world: World; now: Date }): Promise<void> {
  const { world, now } = options;
  const owner = world.users.find((user) => user.email === 'owner@demo.test');
  if (!owner) return;
  const business = world.demo.ownerBusinessId;
  const pick = async (status: string, limit: number) =>
    (
      await tx
        .select({ reference: schema.paymentJobs.reference })
        .from(schema.paymentJobs)
        .where(and(eq(schema.paymentJobs.businessId, business), eq(schema.paymentJobs.status, status)))
        .orderBy(asc(schema.paymentJobs.reference))
        .limit(limit)
    ).map((row) => row.reference);
  const open = await pick('pending', 2);
  const paid = await pick('paid', 1);
  const items = [...open, ...paid];
  if (items.length === 0) return;
  const at = new Date(now.getTime() - 2 * 3600_000);
  const id = 'BLKDE00000000000001';
  await tx.insert(schema.bulkJobs).values({
    id,
    userId: owner.id,
    clientKey: 'seed-resend-links',
    requestFingerprint: 'seed',
    area: 'payment-jobs',
    action: 'resend-links',
    scope: { level: 'business', businessId: business, timeZone: 'Europe/London' },
    filters: {},
    allMatching: false,
    includedIds: items,
    excludedIds: [],
    params: {},
    status: 'completed',
    totalItems: items.length,
    processedItems: items.length,
    succeededItems: open.length,
    failedItems: paid.length,
    cursor: [...items].sort().at(-1) ?? null,
    attempts: 1,
    createdAt: at,
    finishedAt: new Date(at.getTime() + 4000),
  });
  await tx.insert(schema.bulkJobItems).values(
    items.map((itemId) => ({
      jobId: id,
      itemId,
      at,
      outcome: paid.includes(itemId) ? ('failed' as const) : ('succeeded' as const),
      reason: paid.includes(itemId) ? 'A payment link can only be sent for an open job; this one is paid.' : null,
    })),
  );
}
