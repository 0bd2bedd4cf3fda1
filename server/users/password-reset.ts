// Password resets, shared by the public API (/api/public/password-*) and the identity provider's own pages
// (/connect/forgot-password, /connect/reset-password, and the change forced at sign-in when a password has expired).
// Links carry a secret whose SHA-256 alone is stored; each is single use and lives 15 minutes.
import { and, count, eq, gt, isNull, sql } from 'drizzle-orm';
import { passwordResetValidityMinutes } from '../../src/contract/users.ts';
import { recordAudit } from '../audit/record.ts';
import type { Database } from '../db/client.ts';
import { passwordResets, users } from '../db/schema.ts';
import { revokeAccountAccess } from '../identity/adapter.ts';
import { hashPassword, verifyPassword } from '../identity/passwords.ts';
import { isPlausibleEmailAddress } from '../mail/outbox.ts';
import { issuePasswordReset, newId, newSecret, secretHash } from './invitations.ts';
import { checkNewPassword } from './password-rules.ts';

export const resetRequestsPerEmailPerHour = 3;
export const resetRequestsPerAddressPerHour = 10;
/** Passwords last 180 days (the expiry warning shows in the last 7). */
export const passwordLifetimeDays = 180;
export const passwordExpiryFrom = (now: Date) => new Date(now.getTime() + passwordLifetimeDays * 86_400_000);

export type ResetRequestOutcome = 'accepted' | 'invalidEmail' | 'limited';

/** Same outcome whether the email exists or not; a known, active user gets the email. */
export async function requestPasswordReset(
  database: Database,
  publicUrl: string,
  emailInput: string,
  address: string,
  now = new Date(),
): Promise<ResetRequestOutcome> {
  const { db } = database;
  const email = emailInput.trim().toLowerCase();
  if (!isPlausibleEmailAddress(email)) return 'invalidEmail';
  const hourAgo = new Date(now.getTime() - 3_600_000);
  const [perEmail] = await db
    .select({ value: count() })
    .from(passwordResets)
    .where(and(eq(passwordResets.emailKey, email), gt(passwordResets.createdAt, hourAgo)));
  const [perAddress] = await db
    .select({ value: count() })
    .from(passwordResets)
    .where(and(eq(passwordResets.requestedFrom, address), gt(passwordResets.createdAt, hourAgo)));
  if (Number(perEmail?.value ?? 0) >= resetRequestsPerEmailPerHour || Number(perAddress?.value ?? 0) >= resetRequestsPerAddressPerHour) return 'limited';
  const [user] = await db.select().from(users).where(sql`lower(${users.email}) = ${email}`);
  await db.transaction(async (tx) => {
    if (user && user.status === 'active') await issuePasswordReset(tx, publicUrl, user, address, now);
    // Unknown (or invited) emails leave a counting row too: the limits and the answer are the same either way.
    else await tx.insert(passwordResets).values({ id: newId('PWR'), emailKey: email, requestedFrom: address, createdAt: now, expiresAt: now });
  });
  return 'accepted';
}

/** A reset the caller of the form may use (not expired, not used). */
export async function usableReset(database: Database, secret: string) {
  if (secret.length < 20 || secret.length > 200) return undefined;
  const [found] = await database.db
    .select({ reset: passwordResets, user: users })
    .from(passwordResets)
    .innerJoin(users, eq(users.id, passwordResets.userId))
    .where(and(eq(passwordResets.tokenHash, secretHash(secret)), isNull(passwordResets.usedAt), gt(passwordResets.expiresAt, new Date())));
  return found;
}

export type ResetOutcome = { outcome: 'done'; userId: string } | { outcome: 'expired' } | { outcome: 'refused'; problems: string[] };

/** Sets the new password once: marks the link used, ends the user's sessions, audits. */
export async function completePasswordReset(database: Database, secret: string, password: string, event = 'PasswordReset'): Promise<ResetOutcome> {
  const found = await usableReset(database, secret);
  if (!found) return { outcome: 'expired' };
  const problems = await checkNewPassword(password, [found.user.email, found.user.givenName, found.user.familyName]);
  if (problems.length === 0 && (await verifyPassword(password, found.user.passwordHash))) problems.push('The new password must differ from the current one.');
  if (problems.length > 0) return { outcome: 'refused', problems };
  const passwordHash = await hashPassword(password);
  const now = new Date();
  return database.db.transaction(async (tx) => {
    const [used] = await tx
      .update(passwordResets)
      .set({ usedAt: now })
      .where(and(eq(passwordResets.id, found.reset.id), isNull(passwordResets.usedAt)))
      .returning({ id: passwordResets.id });
    if (!used) return { outcome: 'expired' } as const;
    // A reset also clears the count of wrong passwords, and ends every session signed in with the old password.
    await tx
      .update(users)
      .set({ passwordHash, passwordExpiresUtc: passwordExpiryFrom(now), failedSignIns: 0, version: sql`${users.version} + 1` })
      .where(eq(users.id, found.user.id));
    await revokeAccountAccess(tx, found.user.id);
    await recordAudit(tx, { userId: found.user.id }, event, { businessId: null, merchantId: null }, { targetUserId: found.user.id }, { at: now });
    return { outcome: 'done', userId: found.user.id } as const;
  });
}

/** For a sign-in with an expired password: a single-use change ticket (no email), carried by the sign-in form. */
export async function issueExpiredPasswordTicket(database: Database, user: { id: string; email: string }): Promise<string> {
  const secret = newSecret();
  const now = new Date();
  await database.db.insert(passwordResets).values({
    id: newId('PWR'),
    userId: user.id,
    tokenHash: secretHash(secret),
    emailKey: user.email.toLowerCase(),
    requestedFrom: 'expired-password',
    createdAt: now,
    expiresAt: new Date(now.getTime() + passwordResetValidityMinutes * 60_000),
  });
  return secret;
}
