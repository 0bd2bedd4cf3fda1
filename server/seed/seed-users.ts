// Users area of the demo world: the account whose password has expired (expired@demo.test), pending and
// expired invitations in the owner's business, a deleted user's email that can no longer register, phone numbers
// and last sign-in times. Deterministic: a function of the seed's clock and the world already inserted.
import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import * as schema from '../db/schema.ts';
import type { World } from './seed-world.ts';

const day = 86_400_000;
/** Invitation links of the seed are not usable: their secret is not known to anyone (only a hash of a label is kept). */
const unusableHash = (label: string) => createHash('sha256').update(`seed-invitation-without-secret:${label}`).digest('hex');

export async function seedUsers(tx: Db, options: { now: Date; passwordHash: string; world: World }): Promise<void> {
  const { now, passwordHash, world } = options;
  const at = (offsetMs: number) => new Date(now.getTime() + offsetMs);
  const owner = world.users.find((user) => user.email === 'owner@demo.test');
  const ownerBusiness = world.demo.ownerBusinessId;
  const business = world.businesses.find((candidate) => candidate.id === ownerBusiness);
  const domain = `${(business?.name ?? 'harbour-finch')
    .toLowerCase()
    .replace(/&/g, 'and')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')}.example`;

  await tx.insert(schema.users).values([
    {
      id: 'USR90001',
      email: 'expired@demo.test',
      givenName: 'Edward',
      familyName: 'Marsh',
      passwordHash,
      internal: false,
      passwordExpiresUtc: at(-2 * day),
      createdAt: at(-400 * day),
      phoneNumber: '+44 113 496 0123',
    },
    { id: 'USR90002', email: `amelia.hart@${domain}`, givenName: '', familyName: '', passwordHash: '!invited', status: 'invited', createdAt: at(-2 * day) },
    { id: 'USR90003', email: `noah.fletcher@${domain}`, givenName: '', familyName: '', passwordHash: '!invited', status: 'invited', createdAt: at(-10 * day) },
  ]);
  await tx.insert(schema.userRoles).values([
    { userId: 'USR90001', role: 'Finance', level: 'business', businessId: world.demo.soloBusinessId },
    { userId: 'USR90002', role: 'Finance', level: 'business', businessId: ownerBusiness },
    { userId: 'USR90003', role: 'VirtualTerminal', level: 'business', businessId: ownerBusiness },
  ]);
  await tx.insert(schema.userInvitations).values([
    {
      id: 'INVSEED0001',
      userId: 'USR90002',
      tokenHash: unusableHash('USR90002'),
      invitedBy: owner?.id ?? 'USR00005',
      createdAt: at(-2 * day),
      expiresAt: at(5 * day),
    },
    {
      id: 'INVSEED0002',
      userId: 'USR90003',
      tokenHash: unusableHash('USR90003'),
      invitedBy: owner?.id ?? 'USR00005',
      createdAt: at(-10 * day),
      expiresAt: at(-3 * day),
    },
  ]);
  await tx.insert(schema.deletedUserEmails).values({ email: `former.employee@${domain}`, deletedBy: owner?.id ?? 'USR00005', deletedAt: at(-30 * day) });
  await tx.insert(schema.auditEvents).values([
    {
      userId: owner?.id ?? 'USR00005',
      event: 'UserInvited',
      dateTimeUtc: at(-2 * day),
      recordedUtc: at(-2 * day),
      businessId: ownerBusiness,
      metaData: { targetUserId: 'USR90002' },
    },
    {
      userId: owner?.id ?? 'USR00005',
      event: 'UserInvited',
      dateTimeUtc: at(-10 * day),
      recordedUtc: at(-10 * day),
      businessId: ownerBusiness,
      metaData: { targetUserId: 'USR90003' },
    },
    {
      userId: owner?.id ?? 'USR00005',
      event: 'UserDeletionSuccessful',
      dateTimeUtc: at(-30 * day),
      recordedUtc: at(-30 * day),
      businessId: ownerBusiness,
      metaData: { email: `former.employee@${domain}` },
    },
  ]);
  // Last sign-in: within the past month for every active user, spread by id (no randomness needed).
  await tx.execute(sql`UPDATE ${schema.users} SET last_sign_in_utc = ${now.toISOString()}::timestamptz
    - make_interval(mins => (substring(id from 4)::int * 7919) % 43200)
    WHERE status = 'active' AND id ~ '^USR[0-9]+$'`);
  // New users continue the seed's numbering (server/db/readable-ids.ts): the sequence starts after the highest id.
  await tx.execute(sql`
    SELECT setval('user_number_seq', GREATEST(1, COALESCE((SELECT max(substring(id from 4)::bigint) FROM users WHERE id ~ '^USR[0-9]{1,15}$'), 0)),
                  EXISTS (SELECT 1 FROM users WHERE id ~ '^USR[0-9]{1,15}$'))`);
}
