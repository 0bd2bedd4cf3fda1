// Invitations and password reset links: secrets in the link, only their SHA-256 in the database, single use.
import { createHash, randomBytes } from 'node:crypto';
import { and, desc, eq, gt, isNotNull, isNull } from 'drizzle-orm';
import { roleLabels, type RoleName } from '../../src/contract/permissions.ts';
import { invitationValidityDays, passwordResetValidityMinutes } from '../../src/contract/users.ts';
import type { Db } from '../db/client.ts';
import { nextReadableId } from '../db/readable-ids.ts';
import { businesses, emailChanges, merchants, partners, passwordResets, userInvitations, userRoles, users } from '../db/schema.ts';
import { portalLink } from '../mail/compose.ts';
import { queueEmail } from '../mail/outbox.ts';

export const secretHash = (secret: string) => createHash('sha256').update(secret, 'utf8').digest('hex');
export const newSecret = () => randomBytes(32).toString('base64url');
export const newId = (prefix: string) => `${prefix}${randomBytes(8).toString('hex').toUpperCase()}`;

/**
 * The next user id: USR and at least five digits, as the seed writes them (USR00005), so a person can read theirs
 * aloud on the phone; from the user_number_seq sequence, unique under concurrency.
 */
export const nextUserId = (tx: Db): Promise<string> =>
  nextReadableId(tx, { sequence: 'user_number_seq', prefix: 'USR', digits: 5, table: users, column: users.id });

export type Invitee = { userId: string; email: string };

/** Writes a fresh invitation (earlier pending ones of the user are revoked) and queues its email, in `tx`. */
export async function issueInvitation(tx: Db, publicUrl: string, invitee: Invitee, invitedBy: { userId: string; name: string }, now = new Date()) {
  const secret = newSecret();
  const id = newId('INV');
  const expiresAt = new Date(now.getTime() + invitationValidityDays * 86_400_000);
  await tx.update(userInvitations).set({ revokedAt: now }).where(sqlPending(invitee.userId));
  await tx
    .insert(userInvitations)
    .values({ id, userId: invitee.userId, tokenHash: secretHash(secret), invitedBy: invitedBy.userId, createdAt: now, expiresAt });
  const url = portalLink(publicUrl, '/user-invite', { InviteId: secret });
  const where = await invitationScope(tx, invitee.userId);
  await queueEmail(tx, invitee.email, {
    template: 'userInvitation',
    subject: where.subject ? `${invitedBy.name} invited you to ${where.subject} on the payments portal` : 'You are invited to the payments portal',
    heading: where.subject ? `Join ${where.subject} on the payments portal` : 'You are invited to the payments portal',
    paragraphs: [
      `${invitedBy.name} has invited you to the payments portal${where.detail ? `, as ${where.detail}` : ''}.`,
      `Set your name and password to create your account. This link can be used once and is valid for ${invitationValidityDays} days.`,
    ],
    action: { label: 'Create your account', url, secret: true },
    footer: 'If you did not expect this invitation, you can ignore this email.',
  });
  return { id, expiresAt };
}

/**
 * What the invitation is for, from the roles already granted: the business (or partner, or merchant) by name for the
 * subject, and each role with where it holds for the body ('Owner of Harbour & Finch Ltd'). Internal roles name no
 * customer.
 */
async function invitationScope(tx: Db, userId: string): Promise<{ subject: string | null; detail: string | null }> {
  const rows = await tx
    .select({
      role: userRoles.role,
      level: userRoles.level,
      partner: partners.name,
      business: businesses.name,
      merchant: merchants.name,
    })
    .from(userRoles)
    .leftJoin(partners, eq(partners.id, userRoles.partnerId))
    .leftJoin(businesses, eq(businesses.id, userRoles.businessId))
    .leftJoin(merchants, eq(merchants.id, userRoles.merchantId))
    .where(eq(userRoles.userId, userId))
    .orderBy(userRoles.id);
  const placeOf = (row: (typeof rows)[number]) => row.merchant ?? row.business ?? row.partner ?? null;
  const places = [...new Set(rows.map(placeOf).filter((place): place is string => place !== null))];
  const details = rows.map((row) => {
    const label = roleLabels[row.role as RoleName] ?? row.role;
    const place = placeOf(row);
    return place ? `${label} of ${place}` : label;
  });
  return {
    subject: places.length === 0 ? null : places.length === 1 ? (places[0] ?? null) : `${places[0]} and ${places.length - 1} more`,
    detail: details.length === 0 ? null : details.join(', '),
  };
}

function sqlPending(userId: string) {
  return and(eq(userInvitations.userId, userId), isNull(userInvitations.acceptedAt), isNull(userInvitations.revokedAt));
}

export async function queueWelcomeEmail(tx: Db, publicUrl: string, recipient: string, givenName: string) {
  await queueEmail(tx, recipient, {
    template: 'userWelcome',
    subject: 'Welcome to the payments portal',
    heading: `Welcome, ${givenName}`,
    paragraphs: ['Your account is ready. Sign in with your email address and the password you chose.'],
    action: { label: 'Sign in', url: portalLink(publicUrl, '/') },
  });
}

/** A password reset asked for this long after an email change also goes to the address it replaced. */
export const resetToOldAddressHours = 24;

/**
 * The address an account used before an email change that applied within the last day (and was not undone), if it
 * differs from the current one: a password reset asked for now goes there too, so a borrowed session that moved the
 * account to its own address cannot reset the password unseen.
 */
export async function previousEmailWithinADay(db: Db, user: { id: string; email: string }, now = new Date()): Promise<string | null> {
  const since = new Date(now.getTime() - resetToOldAddressHours * 3_600_000);
  const [change] = await db
    .select({ oldEmail: emailChanges.oldEmail })
    .from(emailChanges)
    .where(
      and(
        eq(emailChanges.userId, user.id),
        isNotNull(emailChanges.confirmedAt),
        gt(emailChanges.confirmedAt, since),
        isNull(emailChanges.undoneAt),
        isNotNull(emailChanges.oldEmail),
      ),
    )
    .orderBy(desc(emailChanges.confirmedAt))
    .limit(1);
  const old = change?.oldEmail ?? null;
  return old && old.toLowerCase() !== user.email.toLowerCase() ? old : null;
}

/** A reset link for a known user: the row and the email (to the previous address too, within a day of a change), in `tx`. */
export async function issuePasswordReset(tx: Db, publicUrl: string, user: { id: string; email: string }, requestedFrom: string, now = new Date()) {
  const secret = newSecret();
  await tx.insert(passwordResets).values({
    id: newId('PWR'),
    userId: user.id,
    tokenHash: secretHash(secret),
    emailKey: user.email.toLowerCase(),
    requestedFrom,
    createdAt: now,
    expiresAt: new Date(now.getTime() + passwordResetValidityMinutes * 60_000),
  });
  const previous = await previousEmailWithinADay(tx, user, now);
  for (const recipient of previous ? [user.email, previous] : [user.email]) {
    await queueEmail(tx, recipient, {
      template: 'passwordReset',
      subject: 'Reset your payments portal password',
      heading: 'Reset your password',
      paragraphs: [
        `Use this link to choose a new password. It can be used once and is valid for ${passwordResetValidityMinutes} minutes.`,
        ...(recipient === previous
          ? [
              `Your account's email address was changed to ${user.email} within the last day, so this link is also sent to this address. If you did not change it, use this link, then undo the change with the link in our earlier email.`,
            ]
          : []),
      ],
      action: { label: 'Choose a new password', url: portalLink(publicUrl, '/connect/reset-password', { token: secret }), secret: true },
      footer: 'If you did not ask for this, you can ignore this email: your password stays as it is.',
    });
  }
}

/**
 * Signing the invitee in right after the account is created: accepting issues a single-use secret, kept only as its
 * SHA-256 on the invitation and handed to the browser in an HttpOnly cookie scoped to the provider's interaction
 * pages (never in a URL, so never in a log). The portal then starts an ordinary sign-in; the interaction page takes the
 * cookie in place of the password just chosen, once, within minutes, and applies every rule a password sign-in does
 * after the password (a second factor asked for when there is one).
 */
export const invitationSignInCookie = 'portal_invitation_sign_in';
export const invitationSignInMinutes = 5;

export function invitationSignInCookiePath(publicUrl: string): string {
  return `${new URL(publicUrl).pathname.replace(/\/$/, '')}/connect/interaction`;
}

/** The secret and what to store of it, for the acceptance's transaction. */
export function newInvitationSignIn(now: Date) {
  const secret = newSecret();
  return { secret, columns: { signInTokenHash: secretHash(secret), signInExpiresAt: new Date(now.getTime() + invitationSignInMinutes * 60_000) } };
}

/**
 * Uses the hand-off once: the invitee's user id while it is unused, unexpired and the account active (locked: true
 * when an administrator has locked the account since, so the refusal is recorded like any locked sign-in); else
 * undefined.
 */
export async function spendInvitationSignIn(db: Db, secret: string, now = new Date()): Promise<{ userId: string; locked: boolean } | undefined> {
  if (secret.length < 20 || secret.length > 200) return undefined;
  const [used] = await db
    .update(userInvitations)
    .set({ signedInAt: now })
    .where(
      and(
        eq(userInvitations.signInTokenHash, secretHash(secret)),
        isNull(userInvitations.signedInAt),
        isNotNull(userInvitations.acceptedAt),
        isNull(userInvitations.revokedAt),
        gt(userInvitations.signInExpiresAt, now),
      ),
    )
    .returning({ userId: userInvitations.userId });
  if (!used) return undefined;
  const [user] = await db.select({ status: users.status, lockoutEndDateUtc: users.lockoutEndDateUtc }).from(users).where(eq(users.id, used.userId));
  if (user?.status !== 'active') return undefined;
  return { userId: used.userId, locked: user.lockoutEndDateUtc !== null && user.lockoutEndDateUtc > now };
}
