// A change of one's own email address: PATCH /users with a new email sends a confirmation link to the new address
// (single use, 24 hours; the secret's SHA-256 alone is kept); opening it (/connect/confirm-email) makes the change,
// tells the old address, ends the user's sessions, and is audited. The address must still be free then.
import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Database, Db } from '../db/client.ts';
import { auditEvents, deletedUserEmails, emailChanges, users } from '../db/schema.ts';
import { revokeAccountAccess } from '../identity/adapter.ts';
import { portalLink } from '../mail/compose.ts';
import { queueEmail } from '../mail/outbox.ts';
import { newId, newSecret, secretHash } from './invitations.ts';

export const emailChangeHours = 24;

export async function emailTaken(db: Db, email: string): Promise<'exists' | 'deleted' | null> {
  const lower = email.toLowerCase();
  const [deleted] = await db.select({ email: deletedUserEmails.email }).from(deletedUserEmails).where(eq(deletedUserEmails.email, lower));
  if (deleted) return 'deleted';
  const [existing] = await db.select({ id: users.id }).from(users).where(sql`lower(${users.email}) = ${lower}`);
  return existing ? 'exists' : null;
}

export async function requestEmailChange(tx: Db, publicUrl: string, user: { id: string; givenName: string }, newEmail: string) {
  const secret = newSecret();
  const now = new Date();
  await tx.update(emailChanges).set({ usedAt: now }).where(and(eq(emailChanges.userId, user.id), isNull(emailChanges.usedAt)));
  await tx.insert(emailChanges).values({ id: newId('EMC'), userId: user.id, newEmail, tokenHash: secretHash(secret), createdAt: now, expiresAt: new Date(now.getTime() + emailChangeHours * 3_600_000) });
  await queueEmail(tx, newEmail, {
    template: 'emailChangeConfirmation',
    subject: 'Confirm your new email address',
    heading: 'Confirm your new email address',
    paragraphs: [`${user.givenName || 'Hello'}, confirm that you want to sign in to the payments portal with this address. The link can be used once and is valid for ${emailChangeHours} hours.`],
    action: { label: 'Confirm this address', url: portalLink(publicUrl, '/connect/confirm-email', { token: secret }) },
    footer: 'If you did not ask for this, ignore this email: nothing changes.',
  });
}

export type EmailChangeOutcome = 'changed' | 'expired' | 'taken';

export async function confirmEmailChange(database: Database, publicUrl: string, secret: string): Promise<EmailChangeOutcome> {
  if (secret.length < 20 || secret.length > 200) return 'expired';
  return database.db.transaction(async (tx) => {
    const [change] = await tx.update(emailChanges).set({ usedAt: new Date() })
      .where(and(eq(emailChanges.tokenHash, secretHash(secret)), isNull(emailChanges.usedAt), gt(emailChanges.expiresAt, new Date()))).returning();
    if (!change) return 'expired';
    if (await emailTaken(tx, change.newEmail)) return 'taken';
    const [user] = await tx.select().from(users).where(eq(users.id, change.userId));
    if (!user) return 'expired';
    await tx.update(users).set({ email: change.newEmail, version: sql`${users.version} + 1` }).where(eq(users.id, user.id));
    await revokeAccountAccess(tx, user.id);
    await tx.insert(auditEvents).values({ userId: user.id, event: 'EmailChanged', dateTimeUtc: new Date(), metaData: { targetUserId: user.id, from: user.email, to: change.newEmail } });
    await queueEmail(tx, user.email, {
      template: 'emailChanged',
      subject: 'Your payments portal email address was changed',
      heading: 'Your email address was changed',
      paragraphs: [`The payments portal account that used this address now signs in with ${change.newEmail}. If this was not you, contact your administrator at once.`],
      action: { label: 'Open the portal', url: portalLink(publicUrl, '/') },
    });
    return 'changed';
  });
}
