// What surrounds a password check at sign-in (and at step-up): the sliding-window throttles per client address and
// per email, counted in the database so that every node agrees; the audit events of sign-in (with the client's
// address and user agent); and the email that tells an account's holder it was locked.
import { and, eq, gt, inArray, lt, sql } from 'drizzle-orm';
import { recordAudit } from '../audit/record.ts';
import type { Db } from '../db/client.ts';
import { signInAttempts, stepUpGrants } from '../db/schema.ts';
import { portalLink } from '../mail/compose.ts';
import { queueEmail } from '../mail/outbox.ts';

/** Where an attempt comes from: the client address and the browser's user agent (cut to 256 characters). */
export type AttemptSource = { address: string; userAgent: string };

export const unknownSource: AttemptSource = { address: 'unknown', userAgent: '' };

/** The sliding window of both throttles, and the failures each allows inside it. */
export const throttleWindowMinutes = 15;
export const failuresPerAddress = 20;
export const failuresPerEmail = 10;

/**
 * One sign-in page (the provider's interaction) takes at most this many attempts; beyond, signing in starts again
 * from the portal (a new page costs an attacker a round trip through the authorization endpoint each time).
 */
export const attemptsPerInteraction = 10;

/**
 * Each failure on one sign-in page beyond the first three makes the next check wait longer: 0.5 s, 1 s, 2 s, then
 * 4 s each (before the password is checked, so a guessing script slows down and a person barely notices).
 */
export function growingDelayMs(earlierAttempts: number): number {
  if (earlierAttempts < 3) return 0;
  return Math.min(500 * 2 ** (earlierAttempts - 3), 4000);
}

export const emailKeyOf = (email: string) => email.trim().toLowerCase().slice(0, 320);

export function sourceOf(address: string | undefined, userAgent: string | string[] | undefined): AttemptSource {
  const agent = Array.isArray(userAgent) ? userAgent.join(' ') : (userAgent ?? '');
  return { address: (address ?? 'unknown').slice(0, 64), userAgent: agent.slice(0, 256) };
}

export type Reservation =
  | { id: number; earlierInInteraction: number }
  | { id: number; throttledUntil: Date }
  /** the sign-in page has had its attempts: start again */
  | { id: number; interactionSpent: true };

/**
 * Writes the attempt first (pending, counted like a failure), then counts the failures and pending attempts of its
 * address and of its email inside the window up to and including itself: a burst sent at once is counted in full, not
 * only what had finished before it. Over either limit the attempt is throttled (and no password is checked).
 */
export async function reserveAttempt(db: Db, emailKey: string, source: AttemptSource, now = new Date(), interactionId?: string): Promise<Reservation> {
  const [row] = await db
    .insert(signInAttempts)
    .values({ emailKey, address: source.address, outcome: 'pending', attemptedAt: now, interactionId: interactionId ?? null })
    .returning({ id: signInAttempts.id });
  const id = row!.id;
  const since = new Date(now.getTime() - throttleWindowMinutes * 60_000);
  const counted = inArray(signInAttempts.outcome, ['pending', 'failed']);
  const recentOf = async (column: typeof signInAttempts.address | typeof signInAttempts.emailKey, value: string, limit: number) => {
    // The newest `limit` counted attempts before this one: when the oldest of them leaves the window, one more may try.
    const rows = await db
      .select({ at: signInAttempts.attemptedAt })
      .from(signInAttempts)
      .where(and(eq(column, value), counted, gt(signInAttempts.attemptedAt, since), lt(signInAttempts.id, id)))
      .orderBy(sql`${signInAttempts.attemptedAt} desc`, sql`${signInAttempts.id} desc`)
      .limit(limit);
    return rows.length >= limit ? new Date(rows[rows.length - 1]!.at.getTime() + throttleWindowMinutes * 60_000) : null;
  };
  const [byAddress, byEmail] = [
    await recentOf(signInAttempts.address, source.address, failuresPerAddress),
    await recentOf(signInAttempts.emailKey, emailKey, failuresPerEmail),
  ];
  const until = [byAddress, byEmail].filter((date): date is Date => date !== null).sort((a, b) => b.getTime() - a.getTime())[0];
  if (until) {
    await settleAttempt(db, id, 'throttled');
    return { id, throttledUntil: until };
  }
  if (!interactionId) return { id, earlierInInteraction: 0 };
  // Every attempt of the page before this one, whatever its outcome (an interaction lives an hour at most).
  const [earlier] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(signInAttempts)
    .where(and(eq(signInAttempts.interactionId, interactionId), lt(signInAttempts.id, id)));
  const earlierInInteraction = Number(earlier?.count ?? 0);
  if (earlierInInteraction >= attemptsPerInteraction) {
    await settleAttempt(db, id, 'throttled');
    return { id, interactionSpent: true };
  }
  return { id, earlierInInteraction };
}

export async function settleAttempt(db: Db, id: number, outcome: 'succeeded' | 'failed' | 'throttled', userId?: string): Promise<void> {
  await db
    .update(signInAttempts)
    .set({ outcome, ...(userId ? { userId } : {}) })
    .where(eq(signInAttempts.id, id));
}

export type SignInEvent = 'SignInSucceeded' | 'SignInFailed' | 'SignInThrottled' | 'AccountLocked' | 'SignedOut' | 'StepUpSucceeded' | 'StepUpFailed';

/**
 * One audit row of sign-in: the user it concerns (also as targetUserId, so the user's activity lists it), the
 * client's address and user agent. An unknown email is recorded as 'anonymous' with what was typed as the email.
 */
export async function recordSignInEvent(
  db: Db,
  event: SignInEvent,
  who: { userId: string | null; emailKey?: string },
  source: AttemptSource,
  extra: Record<string, unknown> = {},
): Promise<void> {
  await recordAudit(
    db,
    { userId: who.userId ?? 'anonymous' },
    event,
    { businessId: null, merchantId: null },
    {
      ...(who.userId ? { targetUserId: who.userId } : { email: (who.emailKey ?? '').slice(0, 120) }),
      clientAddress: source.address,
      userAgent: source.userAgent,
      ...extra,
    },
  );
}

const londonDateTime = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'Europe/London' });

/**
 * Tells the holder that their account was locked, when, from where, and what to do (through the mail outbox). After
 * wrong two-factor codes ('secondFactor') whoever tried knew the password: the message says so.
 */
export async function queueLockedEmail(
  db: Db,
  publicUrl: string,
  user: { email: string; givenName: string },
  until: Date,
  source: AttemptSource,
  cause: 'password' | 'secondFactor' = 'password',
): Promise<void> {
  const when = `${londonDateTime.format(until)} (UK time)`;
  await queueEmail(db, user.email, {
    template: 'accountLocked',
    subject: 'Your payments portal account was locked',
    heading: 'Your account was locked',
    paragraphs:
      cause === 'secondFactor'
        ? [
            `Hello ${user.givenName || 'there'},`,
            `After 10 wrong two-factor codes, sign-in to your account is locked until ${when}, and every session of the account has ended. The last attempt came from the address ${source.address}.`,
            'Whoever entered the codes knew your password. If it was not you, choose a new password now and tell your administrator.',
          ]
        : [
            `Hello ${user.givenName || 'there'},`,
            `After several wrong passwords, sign-in to your account is locked until ${when}. The last attempt came from the address ${source.address}.`,
            'If this was you, wait until then and sign in again, or choose a new password. If it was not you, choose a new password and tell your administrator.',
          ],
    action: { label: 'Choose a new password', url: portalLink(publicUrl, '/connect/forgot-password') },
    footer: 'You receive this email because sign-in to your payments portal account was locked.',
  });
}

/** Attempts older than a day and ended step-ups are of no use any more (run with the provider's payload purge). */
export async function purgeSignInState(db: Db, now = new Date()): Promise<void> {
  await db.delete(signInAttempts).where(lt(signInAttempts.attemptedAt, new Date(now.getTime() - 86_400_000)));
  await db.delete(stepUpGrants).where(lt(stepUpGrants.expiresAt, now));
}
