// A change of one's own email address: PATCH /users with a new email (and the current password, or a fresh step-up)
// sends a confirmation link to the new address (single use, 24 hours; the secret's SHA-256 alone is kept); opening it
// (/connect/confirm-email) makes the change, tells the old address, ends the user's sessions, and is audited. The
// address must still be free then.
// The old address is told at once, with a link (/connect/undo-email-change, 7 days, single use) that
// cancels the change, or reverts it when it has applied: the old address is restored, every session and unused reset
// link ends, and pending changes are cancelled. A password reset asked for within a day of a change also goes to the
// address it replaced (issuePasswordReset in invitations.ts).
import { and, eq, gt, isNull, ne, sql } from 'drizzle-orm';
import { recordAudit } from '../audit/record.ts';
import type { Database, Db } from '../db/client.ts';
import { deletedUserEmails, emailChanges, passwordResets, users } from '../db/schema.ts';
import { revokeAccountAccess } from '../identity/adapter.ts';
import { portalLink } from '../mail/compose.ts';
import { queueEmail } from '../mail/outbox.ts';
import { newId, newSecret, secretHash } from './invitations.ts';

export const emailChangeHours = 24;
/** How long the old address's undo link works. */
export const emailChangeUndoDays = 7;

export async function emailTaken(db: Db, email: string): Promise<'exists' | 'deleted' | null> {
  const lower = email.toLowerCase();
  const [deleted] = await db.select({ email: deletedUserEmails.email }).from(deletedUserEmails).where(eq(deletedUserEmails.email, lower));
  if (deleted) return 'deleted';
  const [existing] = await db.select({ id: users.id }).from(users).where(sql`lower(${users.email}) = ${lower}`);
  return existing ? 'exists' : null;
}

export async function requestEmailChange(
  tx: Db,
  publicUrl: string,
  user: { id: string; givenName: string; email: string },
  newEmail: string,
  now = new Date(),
) {
  const secret = newSecret();
  const undoSecret = newSecret();
  await tx
    .update(emailChanges)
    .set({ usedAt: now })
    .where(and(eq(emailChanges.userId, user.id), isNull(emailChanges.usedAt)));
  await tx.insert(emailChanges).values({
    id: newId('EMC'),
    userId: user.id,
    newEmail,
    tokenHash: secretHash(secret),
    createdAt: now,
    expiresAt: new Date(now.getTime() + emailChangeHours * 3_600_000),
    oldEmail: user.email,
    undoTokenHash: secretHash(undoSecret),
    undoExpiresAt: new Date(now.getTime() + emailChangeUndoDays * 86_400_000),
  });
  await queueEmail(tx, newEmail, {
    template: 'emailChangeConfirmation',
    subject: 'Confirm your new email address',
    heading: 'Confirm your new email address',
    paragraphs: [
      `${user.givenName || 'Hello'}, confirm that you want to sign in to the payments portal with this address. The link can be used once and is valid for ${emailChangeHours} hours.`,
    ],
    action: { label: 'Confirm this address', url: portalLink(publicUrl, '/connect/confirm-email', { token: secret }), secret: true },
    footer: 'If you did not ask for this, ignore this email: nothing changes.',
  });
  // The address in use now is told at once: a borrowed session cannot move the account away unseen.
  await queueEmail(tx, user.email, {
    template: 'emailChangeRequested',
    subject: 'Your payments portal email address is being changed',
    heading: 'Your email address is being changed',
    paragraphs: [
      `${user.givenName || 'Hello'}, someone signed in to your payments portal account asked to change its email address to ${newEmail}. The change applies once it is confirmed from that address.`,
      `If this was not you, undo it now: the link cancels the change (or reverses it if it has already applied) and signs the account out everywhere. Then choose a new password. The link can be used once and is valid for ${emailChangeUndoDays} days.`,
    ],
    action: { label: 'Undo this change', url: portalLink(publicUrl, '/connect/undo-email-change', { token: undoSecret }), secret: true },
    footer: 'You receive this email because the email address of your payments portal account is being changed.',
  });
}

export type EmailChangeOutcome = 'changed' | 'expired' | 'taken';

export async function confirmEmailChange(database: Database, publicUrl: string, secret: string, now = new Date()): Promise<EmailChangeOutcome> {
  if (secret.length < 20 || secret.length > 200) return 'expired';
  return database.db.transaction(async (tx) => {
    const [change] = await tx
      .update(emailChanges)
      .set({ usedAt: now, confirmedAt: now })
      .where(and(eq(emailChanges.tokenHash, secretHash(secret)), isNull(emailChanges.usedAt), isNull(emailChanges.undoneAt), gt(emailChanges.expiresAt, now)))
      .returning();
    if (!change) return 'expired';
    if (await emailTaken(tx, change.newEmail)) return 'taken';
    const [user] = await tx.select().from(users).where(eq(users.id, change.userId));
    if (!user) return 'expired';
    await tx
      .update(users)
      .set({ email: change.newEmail, version: sql`${users.version} + 1` })
      .where(eq(users.id, user.id));
    await revokeAccountAccess(tx, user.id);
    await recordAudit(
      tx,
      { userId: user.id },
      'EmailChanged',
      { businessId: null, merchantId: null },
      { targetUserId: user.id, from: user.email, to: change.newEmail },
      { at: now },
    );
    await queueEmail(tx, user.email, {
      template: 'emailChanged',
      subject: 'Your payments portal email address was changed',
      heading: 'Your email address was changed',
      paragraphs: [
        `The payments portal account that used this address now signs in with ${change.newEmail}. If this was not you, use the link in our earlier email to undo the change, and contact your administrator at once.`,
      ],
      action: { label: 'Open the portal', url: portalLink(publicUrl, '/') },
    });
    return 'changed';
  });
}

export type UndoOutcome = 'undone' | 'expired' | 'taken';

/**
 * The old address's link: cancels the change, or reverts it when it has applied (the old address back, if no one
 * else took it meanwhile). Either way every session and refresh token of the account ends, unused password reset
 * links and pending email changes are void, it is audited (EmailChangeUndone) and the old address is told.
 */
export async function undoEmailChange(database: Database, publicUrl: string, secret: string, now = new Date()): Promise<UndoOutcome> {
  if (secret.length < 20 || secret.length > 200) return 'expired';
  return database.db.transaction(async (tx) => {
    const [change] = await tx
      .update(emailChanges)
      .set({ undoneAt: now })
      .where(and(eq(emailChanges.undoTokenHash, secretHash(secret)), isNull(emailChanges.undoneAt), gt(emailChanges.undoExpiresAt, now)))
      .returning();
    if (!change?.oldEmail) return 'expired';
    const [user] = await tx.select().from(users).where(eq(users.id, change.userId));
    if (!user) return 'expired';
    const oldEmail = change.oldEmail;
    const reverted = user.email.toLowerCase() !== oldEmail.toLowerCase();
    if (reverted) {
      const [holder] = await tx
        .select({ id: users.id })
        .from(users)
        .where(and(sql`lower(${users.email}) = ${oldEmail.toLowerCase()}`, ne(users.id, user.id)));
      if (holder) return 'taken';
      await tx
        .update(users)
        .set({ email: oldEmail, version: sql`${users.version} + 1` })
        .where(eq(users.id, user.id));
    }
    await tx
      .update(emailChanges)
      .set({ usedAt: now })
      .where(and(eq(emailChanges.userId, user.id), isNull(emailChanges.usedAt)));
    await tx
      .update(passwordResets)
      .set({ usedAt: now })
      .where(and(eq(passwordResets.userId, user.id), isNull(passwordResets.usedAt)));
    await revokeAccountAccess(tx, user.id);
    await recordAudit(
      tx,
      { userId: user.id },
      'EmailChangeUndone',
      { businessId: null, merchantId: null },
      { targetUserId: user.id, changeId: change.id, restored: oldEmail, ...(reverted ? { from: user.email } : { cancelled: change.newEmail }) },
      { at: now },
    );
    await queueEmail(tx, oldEmail, {
      template: 'emailChangeUndone',
      subject: 'The change of your payments portal email address was undone',
      heading: 'The email address change was undone',
      paragraphs: [
        `Your payments portal account signs in with ${oldEmail}. Every session of the account has ended.`,
        'If you did not ask for the change, someone had access to your account: choose a new password now and tell your administrator.',
      ],
      action: { label: 'Choose a new password', url: portalLink(publicUrl, '/connect/forgot-password') },
    });
    return 'undone';
  });
}
