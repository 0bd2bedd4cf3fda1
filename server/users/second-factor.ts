// Two-factor sign-in with time-based one-time passwords (RFC 6238, otpauth): enrolment (secret, otpauth URI, QR
// code), confirmation with a first code (then ten single-use recovery codes), verification at sign-in (a code is
// accepted once: the step is remembered), and removal. The secret is sealed with the card data key (AES-256-GCM,
// 'totp:{userId}' as additional data), so a copy of the database alone cannot mint codes.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import * as OTPAuth from 'otpauth';
import QRCode from 'qrcode';
import type { CardKeys } from '../cards/card-keys.ts';
import { openCardNumber, sealCardNumber } from '../cards/card-seal.ts';
import type { Database, Db } from '../db/client.ts';
import { signInChallenges, userSecondFactors, users } from '../db/schema.ts';
import { revokeAccountAccess } from '../identity/adapter.ts';
import { recordEvent } from '../events/event-bus.ts';
import { queueLockedEmail, recordSignInEvent, type AttemptSource } from '../identity/sign-in-guard.ts';
import { newId, newSecret, secretHash } from './invitations.ts';

export const recoveryCodeCount = 10;
export const challengeMinutes = 10;
export const challengeAttempts = 5;
/**
 * Wrong codes an account may have, counted across sign-ins, step-ups and removals until a right one: the tenth locks
 * the account (PCI DSS 8.3.4) for codeLockoutMinutes, ends its sessions, audits AccountLocked and emails the holder.
 */
export const wrongCodesBeforeLock = 10;
export const codeLockoutMinutes = 30;
const issuer = 'Payments portal';
const period = 30;

const aad = (userId: string) => `totp:${userId}`;
const codeHash = (code: string) => createHash('sha256').update(code.replace(/[\s-]/g, '').toLowerCase(), 'utf8').digest('hex');

function totpOf(secretBase32: string, label: string) {
  return new OTPAuth.TOTP({ issuer, label, algorithm: 'SHA1', digits: 6, period, secret: OTPAuth.Secret.fromBase32(secretBase32) });
}

function openSecret(keys: CardKeys, row: { userId: string; keyId: string; sealed: string }): string {
  return openCardNumber(keys, { token: aad(row.userId), keyId: row.keyId, sealed: row.sealed });
}

export async function secondFactorState(db: Db, userId: string): Promise<{ status: 'off' | 'pending' | 'on'; recoveryCodesLeft: number }> {
  const [row] = await db
    .select({ status: userSecondFactors.status, codes: userSecondFactors.recoveryCodeHashes })
    .from(userSecondFactors)
    .where(eq(userSecondFactors.userId, userId));
  if (!row) return { status: 'off', recoveryCodesLeft: 0 };
  return { status: row.status === 'active' ? 'on' : 'pending', recoveryCodesLeft: row.codes.length };
}

/** A new secret (replacing a pending one; an active factor must be removed first). */
export async function startEnrolment(db: Db, keys: CardKeys, user: { id: string; email: string }) {
  const [existing] = await db.select({ status: userSecondFactors.status }).from(userSecondFactors).where(eq(userSecondFactors.userId, user.id));
  if (existing?.status === 'active') return { outcome: 'alreadyOn' as const };
  const secret = new OTPAuth.Secret({ size: 20 });
  const sealed = sealCardNumber(keys, aad(user.id), secret.base32);
  await db
    .insert(userSecondFactors)
    .values({ userId: user.id, keyId: sealed.keyId, sealed: sealed.sealed, status: 'pending' })
    .onConflictDoUpdate({
      target: userSecondFactors.userId,
      set: { keyId: sealed.keyId, sealed: sealed.sealed, status: 'pending', lastUsedStep: 0, recoveryCodeHashes: [], createdAt: new Date() },
    });
  const uri = totpOf(secret.base32, user.email).toString();
  return {
    outcome: 'started' as const,
    otpauthUri: uri,
    secret: secret.base32,
    qrCodeDataUrl: await QRCode.toDataURL(uri, { errorCorrectionLevel: 'M', margin: 1, width: 220 }),
  };
}

/** Accepts a code of the secret once; returns the step used, or null. */
function acceptedStep(secretBase32: string, code: string, lastUsedStep: number, now: number): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  const delta = totpOf(secretBase32, 'x').validate({ token: code, timestamp: now, window: 1 });
  if (delta === null) return null;
  const step = Math.floor(now / 1000 / period) + delta;
  return step > lastUsedStep ? step : null;
}

function newRecoveryCodes(): string[] {
  return Array.from({ length: recoveryCodeCount }, () => {
    const raw = randomBytes(8)
      .toString('base64url')
      .replace(/[^A-Za-z0-9]/g, 'x')
      .slice(0, 10)
      .toLowerCase();
    return `${raw.slice(0, 5)}-${raw.slice(5)}`;
  });
}

/** The first code turns a pending factor on; the answer is the ten recovery codes (shown once). */
export async function confirmEnrolment(database: Database, keys: CardKeys, userId: string, code: string, now = Date.now()): Promise<string[] | null> {
  return database.db.transaction(async (tx) => {
    const [row] = await tx.select().from(userSecondFactors).where(eq(userSecondFactors.userId, userId)).for('update');
    if (row?.status !== 'pending') return null;
    const step = acceptedStep(openSecret(keys, row), code.trim(), row.lastUsedStep, now);
    if (step === null) return null;
    const codes = newRecoveryCodes();
    await tx
      .update(userSecondFactors)
      .set({ status: 'active', lastUsedStep: step, activatedAt: new Date(now), recoveryCodeHashes: codes.map(codeHash) })
      .where(eq(userSecondFactors.userId, userId));
    return codes;
  });
}

/** A sign-in's second step: a current code (once) or an unused recovery code (then spent). */
export async function verifySecondFactor(
  database: Database,
  keys: CardKeys,
  userId: string,
  input: string,
  now = Date.now(),
): Promise<'code' | 'recoveryCode' | null> {
  const code = input.trim();
  return database.db.transaction(async (tx) => {
    const [row] = await tx
      .select()
      .from(userSecondFactors)
      .where(and(eq(userSecondFactors.userId, userId), eq(userSecondFactors.status, 'active')))
      .for('update');
    if (!row) return null;
    const step = acceptedStep(openSecret(keys, row), code, row.lastUsedStep, now);
    if (step !== null) {
      await tx.update(userSecondFactors).set({ lastUsedStep: step }).where(eq(userSecondFactors.userId, userId));
      return 'code';
    }
    if (code.replace(/[\s-]/g, '').length !== 10) return null;
    const wanted = Buffer.from(codeHash(code), 'hex');
    const match = row.recoveryCodeHashes.find((stored) => timingSafeEqual(Buffer.from(stored, 'hex'), wanted));
    if (!match) return null;
    await tx
      .update(userSecondFactors)
      .set({ recoveryCodeHashes: row.recoveryCodeHashes.filter((stored) => stored !== match) })
      .where(eq(userSecondFactors.userId, userId));
    return 'recoveryCode';
  });
}

export async function removeSecondFactor(db: Db, userId: string): Promise<boolean> {
  const removed = await db.delete(userSecondFactors).where(eq(userSecondFactors.userId, userId)).returning({ userId: userSecondFactors.userId });
  return removed.length > 0;
}

export async function hasActiveSecondFactor(db: Db, userId: string): Promise<boolean> {
  const [row] = await db
    .select({ userId: userSecondFactors.userId })
    .from(userSecondFactors)
    .where(and(eq(userSecondFactors.userId, userId), eq(userSecondFactors.status, 'active')));
  return row !== undefined;
}

export type CodeCheckOptions = { publicUrl: string; source: AttemptSource; now?: Date };

/** 'wrong' and 'locked' are one answer to the caller; 'locked' says no code was checked (or this one locked). */
export type CodeCheck = 'code' | 'recoveryCode' | 'wrong' | 'locked';

/**
 * The one door for a code of an active second factor (sign-in, step-up, removal). As with passwords
 * (identity/accounts.ts), the attempt is first reserved on the account in one conditional UPDATE … RETURNING, refused
 * while the account is locked: every attempt of a burst gets its own number, and none beyond the tenth is checked.
 * A right code clears the count (unless a lock was set meanwhile); the tenth wrong one locks.
 */
export async function checkSecondFactorCode(database: Database, keys: CardKeys, userId: string, input: string, options: CodeCheckOptions): Promise<CodeCheck> {
  const { db } = database;
  const now = options.now ?? new Date();
  const notLocked = sql`(${users.lockoutEndDateUtc} IS NULL OR ${users.lockoutEndDateUtc} <= ${now.toISOString()}::timestamptz)`;
  const [reserved] = await db
    .update(users)
    .set({ failedSecondFactorCodes: sql`${users.failedSecondFactorCodes} + 1` })
    .where(and(eq(users.id, userId), notLocked))
    .returning({ count: users.failedSecondFactorCodes, email: users.email, givenName: users.givenName });
  if (!reserved) return 'locked';
  const lock = async () => {
    const until = new Date(now.getTime() + codeLockoutMinutes * 60_000);
    await db.transaction(async (tx) => {
      const [locked] = await tx
        .update(users)
        .set({ lockoutEndDateUtc: until, failedSecondFactorCodes: 0 })
        .where(and(eq(users.id, userId), notLocked))
        .returning({ id: users.id });
      if (!locked) return;
      // Whoever guessed knew the password, and may hold a session (step-up, removal): it ends now.
      await revokeAccountAccess(tx, userId);
      // A tab of that session is told on the live events stream and signs out now (server/events/).
      await recordEvent(tx, 'account-locked', { userId });
      await recordSignInEvent(tx, 'AccountLocked', { userId }, options.source, {
        reason: 'wrongSecondFactorCodes',
        lockoutEndDateUtc: until.toISOString(),
        failedAttempts: wrongCodesBeforeLock,
      });
      await queueLockedEmail(tx, options.publicUrl, reserved, until, options.source, 'secondFactor');
    });
  };
  if (reserved.count > wrongCodesBeforeLock) {
    await lock();
    return 'locked';
  }
  const passed = await verifySecondFactor(database, keys, userId, input, now.getTime());
  if (passed) {
    const [cleared] = await db
      .update(users)
      .set({ failedSecondFactorCodes: 0 })
      .where(and(eq(users.id, userId), notLocked))
      .returning({ id: users.id });
    return cleared ? passed : 'locked';
  }
  if (reserved.count >= wrongCodesBeforeLock) {
    await lock();
    return 'locked';
  }
  return 'wrong';
}

/** After the right password: the ticket the second-factor form carries. */
export async function issueSignInChallenge(db: Db, userId: string, passwordExpired: boolean, now = new Date()): Promise<string> {
  const secret = newSecret();
  await db
    .insert(signInChallenges)
    .values({ id: newId('SIC'), tokenHash: secretHash(secret), userId, passwordExpired, expiresAt: new Date(now.getTime() + challengeMinutes * 60_000) });
  return secret;
}

export type ChallengeOutcome =
  | { outcome: 'passed'; userId: string; passwordExpired: boolean }
  | { outcome: 'wrong'; userId: string; locked: boolean }
  | { outcome: 'expired' };

export async function answerSignInChallenge(
  database: Database,
  keys: CardKeys,
  ticket: string,
  code: string,
  options: CodeCheckOptions,
): Promise<ChallengeOutcome> {
  if (ticket.length < 20 || ticket.length > 200) return { outcome: 'expired' };
  const now = options.now ?? new Date();
  // Each answer counts, right or wrong; past the limit the ticket is dead (a new sign-in starts over).
  const [challenge] = await database.db
    .update(signInChallenges)
    .set({ attempts: sql`${signInChallenges.attempts} + 1` })
    .where(
      and(
        eq(signInChallenges.tokenHash, secretHash(ticket)),
        isNull(signInChallenges.usedAt),
        gt(signInChallenges.expiresAt, now),
        sql`${signInChallenges.attempts} < ${challengeAttempts}`,
      ),
    )
    .returning();
  if (!challenge) return { outcome: 'expired' };
  // The ticket's own five tries aside, wrong codes count on the account across sign-ins (checkSecondFactorCode).
  const passed = await checkSecondFactorCode(database, keys, challenge.userId, code, { ...options, now });
  if (passed === 'wrong' || passed === 'locked') return { outcome: 'wrong', userId: challenge.userId, locked: passed === 'locked' };
  const [used] = await database.db
    .update(signInChallenges)
    .set({ usedAt: now })
    .where(and(eq(signInChallenges.id, challenge.id), isNull(signInChallenges.usedAt)))
    .returning({ id: signInChallenges.id });
  if (!used) return { outcome: 'expired' };
  return { outcome: 'passed', userId: challenge.userId, passwordExpired: challenge.passwordExpired };
}

/** A code for tests and scripts that drive a sign-in (never used by the server itself). */
export function currentCode(secretBase32: string, timestamp = Date.now()): string {
  return totpOf(secretBase32, 'x').generate({ timestamp });
}
