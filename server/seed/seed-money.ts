// Demo filter presets: what a fresh portal shows in the transactions overview's preset list.
// Harbour & Finch (owner@demo.test's business) shares two with everyone on it, one the page's default is not (the
// overview opens unfiltered); Technical admins share one with their role; admin@demo.test keeps one of their own.
import * as schema from '../db/schema.ts';
import type { World } from './seed-world.ts';
import type { DbWriter } from '../db/client.ts';

export async function seedMoney(tx: DbWriter, { world }: { world: World }): Promise<void> {
  const userId = (email: string) => world.users.find((user) => user.email === email)?.id;
  const owner = userId('owner@demo.test');
  const admin = userId('admin@demo.test');
  const rows: (typeof schema.filterPresets.$inferInsert)[] = [];
  if (owner) {
    rows.push(
      {
        id: 'FP00000000000000A1',
        page: 'transactions',
        name: 'Refunds over €50, last month',
        filters: { kind: '[eq]refund', currency: '[eq]eur', amount: '[gte]50' },
        relativeDate: 'lastMonth',
        sharing: 'business',
        ownerId: owner,
        businessId: world.demo.ownerBusinessId,
      },
      {
        id: 'FP00000000000000A2',
        page: 'transactions',
        name: 'Declined this week',
        filters: { status: '[eq]declined[and][eq]failed' },
        relativeDate: 'thisWeek',
        sharing: 'business',
        ownerId: owner,
        businessId: world.demo.ownerBusinessId,
      },
    );
  }
  if (admin) {
    rows.push(
      {
        id: 'FP00000000000000B1',
        page: 'transactions',
        name: 'Large GBP payments today',
        filters: { kind: '[eq]payment', currency: '[eq]gbp', amount: '[gte]1000' },
        relativeDate: 'today',
        sharing: 'role',
        role: 'TechnicalAdmin',
        ownerId: admin,
      },
      {
        id: 'FP00000000000000B2',
        page: 'transactions',
        name: 'Chargebacks to check',
        filters: { kind: '[eq]refund', status: '[eq]pending' },
        relativeDate: null,
        sharing: 'personal',
        ownerId: admin,
      },
    );
  }
  if (rows.length > 0) await tx.insert(schema.filterPresets).values(rows);
}
