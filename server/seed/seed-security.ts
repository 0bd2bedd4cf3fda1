// Sign-in history of the demo world: a few weeks of sign-ins, a mistyped password, a sign-out and
// an account locked by wrong passwords and unlocked by an administrator, so the user page's recent events show what
// the portal records (with the client's address; documentation addresses only). Deterministic: a function of the
// seed's clock and the world already inserted.
import type { Db } from '../db/client.ts';
import * as schema from '../db/schema.ts';
import type { World } from './seed-world.ts';

const hour = 3_600_000;
const day = 24 * hour;
const browsers = [
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/141.0 Safari/537.36',
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_6) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.3 Safari/605.1.15',
  'Mozilla/5.0 (X11; Linux x86_64; rv:140.0) Gecko/20100101 Firefox/140.0',
] as const;

export async function seedSecurity(tx: Db, options: { now: Date; world: World }): Promise<void> {
  const { now, world } = options;
  const admin = world.users.find((user) => user.email === 'admin@demo.test');
  const rows: (typeof schema.auditEvents.$inferInsert)[] = [];
  const event = (userId: string, name: string, offsetMs: number, index: number, extra: Record<string, unknown> = {}, actor = userId) => {
    rows.push({
      userId: actor,
      event: name,
      dateTimeUtc: new Date(now.getTime() - offsetMs),
      businessId: null,
      merchantId: null,
      metaData: { targetUserId: userId, clientAddress: `198.51.100.${10 + (index % 40)}`, userAgent: browsers[index % browsers.length], ...extra },
    });
  };
  const people = ['owner@demo.test', 'finance@demo.test', 'solo@demo.test', 'developer@demo.test', 'risk@demo.test', 'service@demo.test'];
  people.forEach((email, index) => {
    const user = world.users.find((candidate) => candidate.email === email);
    if (!user?.id) return;
    for (let daysAgo = 12; daysAgo >= 1; daysAgo -= 3 + (index % 2)) {
      event(user.id, 'SignInSucceeded', daysAgo * day + (8 + index) * hour, index, { methods: ['pwd'] });
      event(user.id, 'SignedOut', daysAgo * day + (8 + index) * hour - 2 * hour, index);
    }
    if (index === 1) event(user.id, 'SignInFailed', 2 * day + 9 * hour + 60_000, index, { reason: 'wrongPassword' });
  });
  // finance@demo.test: five wrong passwords from one address last week, locked for 15 minutes, unlocked by an admin.
  const finance = world.users.find((user) => user.email === 'finance@demo.test');
  if (finance?.id) {
    for (let attempt = 0; attempt < 5; attempt += 1) {
      rows.push({
        userId: finance.id,
        event: 'SignInFailed',
        dateTimeUtc: new Date(now.getTime() - 6 * day - 20 * hour + attempt * 20_000),
        businessId: null,
        merchantId: null,
        metaData: { targetUserId: finance.id, clientAddress: '203.0.113.77', userAgent: 'python-requests/2.32', reason: 'wrongPassword' },
      });
    }
    rows.push({
      userId: finance.id,
      event: 'AccountLocked',
      dateTimeUtc: new Date(now.getTime() - 6 * day - 20 * hour + 100_000),
      businessId: null,
      merchantId: null,
      metaData: { targetUserId: finance.id, clientAddress: '203.0.113.77', userAgent: 'python-requests/2.32', failedAttempts: 5 },
    });
    if (admin?.id)
      rows.push({
        userId: admin.id,
        event: 'UserUnlocked',
        dateTimeUtc: new Date(now.getTime() - 6 * day - 20 * hour + 600_000),
        businessId: null,
        merchantId: null,
        metaData: { targetUserId: finance.id, clientAddress: '198.51.100.5', userAgent: browsers[0] },
      });
  }
  rows.sort((a, b) => (a.dateTimeUtc as Date).getTime() - (b.dateTimeUtc as Date).getTime());
  // Recorded when they happened (the seed is a function of its clock: no wall-clock default).
  if (rows.length > 0) await tx.insert(schema.auditEvents).values(rows.map((row) => ({ ...row, recordedUtc: row.dateTimeUtc })));
}
