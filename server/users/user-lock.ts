// A user's lock, as PUT /users/{userId}/login and the bulk lock (server/bulk/areas.ts) make it, and the audit event
// of every user administration write.
import { and, eq, sql } from 'drizzle-orm';
import { recordAudit } from '../audit/record.ts';
import type { Db } from '../db/client.ts';
import { users } from '../db/schema.ts';
import { recordEvent } from '../events/event-bus.ts';
import { conflict } from '../http/errors.ts';
import { revokeAccountAccess } from '../identity/adapter.ts';
import type { Principal } from '../policy/principal.ts';
import type { Target } from './user-access.ts';

const u = users;

/** Every user administration write is audited with the user it is about. */
export async function auditUserEvent(
  writer: Db,
  principal: Principal,
  event: string,
  target: { userId: string; businessId?: string | null },
  metaData: Record<string, unknown> = {},
) {
  await recordAudit(writer, principal, event, { businessId: target.businessId ?? null, merchantId: null }, { targetUserId: target.userId, ...metaData });
}

export const businessOfTarget = (target: Target) => target.grants.find((grant) => grant.businessId)?.businessId ?? null;

/** Locks (until a date, or indefinitely) or unlocks a user as PUT /users/{id}/login does, inside the caller's
 * transaction: the version checked (409), their sessions ended on a lock and their open tabs told (account-locked on
 * the live events stream), audited UserLocked / UserUnlocked. */
export async function setUserLock(
  tx: Db,
  principal: Principal,
  user: { id: string; version: number },
  target: Target,
  until: Date | null,
  metaData: Record<string, unknown> = {},
): Promise<void> {
  const [updated] = await tx
    .update(u)
    .set({ lockoutEndDateUtc: until, failedSignIns: 0, version: sql`${u.version} + 1` })
    .where(and(eq(u.id, user.id), eq(u.version, user.version)))
    .returning({ id: u.id });
  if (!updated) throw conflict();
  if (until) {
    await revokeAccountAccess(tx, user.id);
    // Their open tabs are told on the live events stream and sign out now, not at their next call.
    await recordEvent(tx, 'account-locked', { userId: user.id });
  }
  await auditUserEvent(
    tx,
    principal,
    until ? 'UserLocked' : 'UserUnlocked',
    { userId: user.id, businessId: businessOfTarget(target) },
    { ...(until ? { lockoutEndDateUtc: until.toISOString() } : {}), ...metaData },
  );
}

/** A lock without an end is a lock until unlocked: far enough to read as 'until unlocked'. */
export const indefiniteLock = new Date('9999-12-31T00:00:00Z');
