// Accounts for the identity provider: password sign-in with lockout, and the claims a user releases.
import { randomBytes } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import { users } from '../db/schema.ts';
import { hashPassword, verifyPassword } from './passwords.ts';
import {
  emailKeyOf,
  growingDelayMs,
  queueLockedEmail,
  recordSignInEvent,
  reserveAttempt,
  settleAttempt,
  unknownSource,
  type AttemptSource,
} from './sign-in-guard.ts';
import { sqlNow } from '../clock.ts';

/** Wrong passwords in a row that lock an account, and for how long. */
export const lockoutThreshold = 5;
export const lockoutMinutes = 15;

const maxEmailLength = 320;
const maxPasswordLength = 1024;

export type SignInResult =
  | { outcome: 'success'; userId: string; email: string; passwordExpired: boolean }
  /** wrong password, unknown email or locked account: one answer for all three (the reason is for the audit only) */
  | { outcome: 'invalid'; reason: 'unknownAccount' | 'wrongPassword' | 'locked'; userId?: string }
  | { outcome: 'throttled'; retryAt: Date }
  /** the sign-in page has had its attempts (attemptsPerInteraction): start again */
  | { outcome: 'interactionSpent' };

export type UserClaims = {
  sub: string;
  email: string;
  given_name: string;
  family_name: string;
  name: string;
};

/**
 * purpose: 'signIn' (the provider's page), 'stepUp' (POST /user/step-up) or 'passwordCheck' (the current password a
 * signed-in user types to change it or to set up a second factor: the caller audits its own event). All three count
 * towards the lockout and the throttles.
 */
export type SignInOptions = {
  source?: AttemptSource;
  now?: Date;
  purpose?: 'signIn' | 'stepUp' | 'passwordCheck';
  userId?: string;
  /** the sign-in page (provider interaction) posted on: its attempts are capped and slowed (sign-in-guard.ts) */
  interactionId?: string;
  /** waits before the password check (tests pass a recorder); setTimeout by default */
  wait?: (ms: number) => Promise<void>;
};

export type Accounts = {
  signIn: (email: string, password: string, options?: SignInOptions) => Promise<SignInResult>;
  claimsFor: (userId: string) => Promise<UserClaims | undefined>;
};

export async function createAccounts(database: Database, publicUrl = 'http://localhost'): Promise<Accounts> {
  const { db } = database;
  // Unknown emails and locked accounts cost the same scrypt work as a real check, so timing tells nothing either.
  const decoyHash = await hashPassword(randomBytes(24).toString('base64url'));

  async function findByEmail(email: string) {
    const [user] = await db.select().from(users).where(sql`lower(${users.email}) = ${email.toLowerCase()}`).limit(1);
    return user;
  }

  const notLocked = (now: Date) => sql`(${users.lockoutEndDateUtc} IS NULL OR ${users.lockoutEndDateUtc} <= ${now.toISOString()}::timestamptz)`;

  /**
   * Sets the lock unless one is already set; true when this call locked the account (it then audits and emails).
   * Locking restarts the count.
   */
  async function lock(user: { id: string; email: string; givenName: string }, now: Date, source: AttemptSource): Promise<boolean> {
    const until = new Date(now.getTime() + lockoutMinutes * 60_000);
    return db.transaction(async (tx) => {
      const [locked] = await tx
        .update(users)
        .set({ lockoutEndDateUtc: until, failedSignIns: 0, lastFailedSignInUtc: null })
        .where(and(eq(users.id, user.id), notLocked(now)))
        .returning({ id: users.id });
      if (!locked) return false;
      await recordSignInEvent(tx, 'AccountLocked', { userId: user.id }, source, { lockoutEndDateUtc: until.toISOString(), failedAttempts: lockoutThreshold });
      await queueLockedEmail(tx, publicUrl, user, until, source);
      return true;
    });
  }

  /**
   * The order that makes a burst of attempts safe:
   * 1. the attempt is written and the address's and email's windows counted (throttled beyond them: no password check);
   * 2. the attempt is reserved on the account in one conditional UPDATE … RETURNING (refused when locked): every
   *    attempt of a burst gets its own number, and more than the threshold at once locks the account;
   * 3. the password is checked (scrypt, or the decoy for an unknown or locked account: the same work either way);
   * 4. a right password clears the count only if no lock was set meanwhile (then the attempt is refused); the
   *    reservation that reaches the threshold with a wrong password locks.
   * Failures age out: a count whose last failure is older than the lockout window starts again.
   */
  async function signIn(emailInput: string, password: string, options: SignInOptions = {}): Promise<SignInResult> {
    const now = options.now ?? new Date();
    const source = options.source ?? unknownSource;
    const purpose = options.purpose ?? 'signIn';
    const email = emailInput.trim();
    const emailKey = emailKeyOf(email);
    const usable = email.length > 0 && email.length <= maxEmailLength && password.length <= maxPasswordLength;

    const reservation = await reserveAttempt(db, emailKey, source, now, options.interactionId);
    if ('throttledUntil' in reservation) {
      if (purpose === 'signIn')
        await recordSignInEvent(db, 'SignInThrottled', { userId: null, emailKey }, source, { retryAt: reservation.throttledUntil.toISOString() });
      return { outcome: 'throttled', retryAt: reservation.throttledUntil };
    }
    if ('interactionSpent' in reservation) {
      if (purpose === 'signIn') await recordSignInEvent(db, 'SignInThrottled', { userId: null, emailKey }, source, { interactionSpent: true });
      return { outcome: 'interactionSpent' };
    }
    const delay = growingDelayMs(reservation.earlierInInteraction);
    if (delay > 0) await (options.wait ?? ((ms: number) => new Promise<void>((done) => setTimeout(done, ms))))(delay);

    const found = usable ? await findByEmail(email) : undefined;
    // Step-up checks the signed-in user's own password: another account's email is no account here.
    const user = found && (options.userId === undefined || found.id === options.userId) ? found : undefined;
    const agedOut = new Date(now.getTime() - lockoutMinutes * 60_000).toISOString();
    const [reserved] = user
      ? await db
          .update(users)
          .set({
            failedSignIns: sql`case when ${users.lastFailedSignInUtc} is null or ${users.lastFailedSignInUtc} <= ${agedOut}::timestamptz then 1 else ${users.failedSignIns} + 1 end`,
            lastFailedSignInUtc: now,
          })
          .where(and(eq(users.id, user.id), notLocked(now)))
          .returning({ count: users.failedSignIns })
      : [];

    const overBurst = reserved !== undefined && reserved.count > lockoutThreshold;
    const checkedHash = user && reserved && !overBurst ? user.passwordHash : decoyHash;
    const passwordMatches = await verifyPassword(usable ? password : '', checkedHash);

    const fail = async (reason: 'unknownAccount' | 'wrongPassword' | 'locked'): Promise<SignInResult> => {
      await settleAttempt(db, reservation.id, 'failed', user?.id);
      const event = purpose === 'stepUp' ? 'StepUpFailed' : purpose === 'signIn' ? 'SignInFailed' : null;
      if (event) await recordSignInEvent(db, event, user ? { userId: user.id } : { userId: null, emailKey }, source, { reason });
      return user ? { outcome: 'invalid', reason, userId: user.id } : { outcome: 'invalid', reason };
    };

    if (!user) return fail('unknownAccount');
    // Refused even with the right password while locked; attempts while locked do not extend the lock.
    if (!reserved) return fail('locked');
    if (overBurst) {
      await lock(user, now, source);
      return fail('locked');
    }
    if (passwordMatches) {
      const [cleared] = await db
        .update(users)
        .set({ failedSignIns: 0, lastFailedSignInUtc: null, ...(purpose === 'signIn' ? { lastSignInUtc: now } : {}) })
        .where(and(eq(users.id, user.id), notLocked(now)))
        .returning({ id: users.id });
      // A lock set by another attempt while this password was checked stands.
      if (!cleared) return fail('locked');
      await settleAttempt(db, reservation.id, 'succeeded', user.id);
      // An expired password is still the right password: the sign-in page then asks for a new one before finishing.
      return { outcome: 'success', userId: user.id, email: user.email, passwordExpired: user.passwordExpiresUtc !== null && user.passwordExpiresUtc <= now };
    }
    // The attempt that reaches the threshold with a wrong password locks.
    if (reserved.count >= lockoutThreshold) await lock(user, now, source);
    return fail('wrongPassword');
  }

  async function claimsFor(userId: string): Promise<UserClaims | undefined> {
    const [user] = await db
      .select({ id: users.id, email: users.email, givenName: users.givenName, familyName: users.familyName })
      .from(users)
      // A locked account is found by nobody: no code exchange, refresh or silent sign-in for it (findAccount).
      .where(and(eq(users.id, userId), sql`(${users.lockoutEndDateUtc} IS NULL OR ${users.lockoutEndDateUtc} <= ${sqlNow()})`))
      .limit(1);
    if (!user) return undefined;
    return {
      sub: user.id,
      email: user.email,
      given_name: user.givenName,
      family_name: user.familyName,
      name: `${user.givenName} ${user.familyName}`.trim(),
    };
  }

  return { signIn, claimsFor };
}
