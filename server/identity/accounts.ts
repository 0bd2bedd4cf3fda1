// Accounts for the identity provider: password sign-in with lockout, and the claims a user releases.
import { randomBytes } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import { users } from '../db/schema.ts';
import { hashPassword, verifyPassword } from './passwords.ts';

/** Wrong passwords in a row that lock an account, and for how long. */
export const lockoutThreshold = 5;
export const lockoutMinutes = 15;

const maxEmailLength = 320;
const maxPasswordLength = 1024;

export type SignInResult =
  | { outcome: 'success'; userId: string; email: string; passwordExpired: boolean }
  | { outcome: 'invalid' }
  | { outcome: 'locked'; until: Date };

export type UserClaims = {
  sub: string;
  email: string;
  given_name: string;
  family_name: string;
  name: string;
};

export type Accounts = {
  signIn: (email: string, password: string, now?: Date) => Promise<SignInResult>;
  claimsFor: (userId: string) => Promise<UserClaims | undefined>;
};

export async function createAccounts(database: Database): Promise<Accounts> {
  const { db } = database;
  // Unknown emails cost the same scrypt work as known ones, so timing does not tell whether an email exists.
  const decoyHash = await hashPassword(randomBytes(24).toString('base64url'));

  async function findByEmail(email: string) {
    const [user] = await db
      .select()
      .from(users)
      .where(sql`lower(${users.email}) = ${email.toLowerCase()}`)
      .limit(1);
    return user;
  }

  async function signIn(emailInput: string, password: string, now = new Date()): Promise<SignInResult> {
    const email = emailInput.trim();
    const usable = email.length > 0 && email.length <= maxEmailLength && password.length <= maxPasswordLength;
    const user = usable ? await findByEmail(email) : undefined;
    const passwordMatches = await verifyPassword(usable ? password : '', user?.passwordHash ?? decoyHash);

    if (!user) return { outcome: 'invalid' };

    if (user.lockoutEndDateUtc && user.lockoutEndDateUtc > now) {
      // Refused even with the right password; attempts while locked do not extend the lock.
      return { outcome: 'locked', until: user.lockoutEndDateUtc };
    }

    if (passwordMatches) {
      await db
        .update(users)
        .set({ failedSignIns: 0, lockoutEndDateUtc: null, lastSignInUtc: now })
        .where(eq(users.id, user.id));
      // An expired password is still the right password: the sign-in page then asks for a new one before finishing.
      return { outcome: 'success', userId: user.id, email: user.email, passwordExpired: user.passwordExpiresUtc !== null && user.passwordExpiresUtc <= now };
    }

    // One atomic statement: concurrent wrong attempts are all counted. Locking restarts the count.
    const lockUntil = new Date(now.getTime() + lockoutMinutes * 60_000);
    const [updated] = await db
      .update(users)
      .set({
        failedSignIns: sql`case when ${users.failedSignIns} + 1 >= ${lockoutThreshold} then 0 else ${users.failedSignIns} + 1 end`,
        lockoutEndDateUtc: sql`case when ${users.failedSignIns} + 1 >= ${lockoutThreshold} then ${lockUntil.toISOString()}::timestamptz else ${users.lockoutEndDateUtc} end`,
      })
      .where(eq(users.id, user.id))
      .returning({ lockoutEndDateUtc: users.lockoutEndDateUtc });

    if (updated?.lockoutEndDateUtc && updated.lockoutEndDateUtc > now) {
      return { outcome: 'locked', until: updated.lockoutEndDateUtc };
    }
    return { outcome: 'invalid' };
  }

  async function claimsFor(userId: string): Promise<UserClaims | undefined> {
    const [user] = await db
      .select({ id: users.id, email: users.email, givenName: users.givenName, familyName: users.familyName })
      .from(users)
      // A locked account is found by nobody: no code exchange, refresh or silent sign-in for it (findAccount).
      .where(and(eq(users.id, userId), sql`(${users.lockoutEndDateUtc} IS NULL OR ${users.lockoutEndDateUtc} <= now())`))
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
