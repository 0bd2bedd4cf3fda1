// Public calls of the identity area (no sign-in): the invitation page and the password reset pages.
//
// | method | path                                   | answer                                                               |
// |--------|----------------------------------------|----------------------------------------------------------------------|
// | POST   | /api/public/user-invites/lookup        | { inviteId } (in the body: never in a logged path): { email,          |
// |        |                                        | givenName, familyName, expiresUtc }; 410 'Oops that link has expired.'|
// |        |                                        | when expired, used, revoked or unknown                                |
// | POST   | /api/public/user-invites/accept        | { inviteId, givenName, familyName, password }: 200 { message } and a  |
// |        |                                        | welcome email, and the cookie that signs the invitee in next (single  |
// |        |                                        | use, minutes); 410 as above; 400 with the strength feedback           |
// | POST   | /api/public/password-reset-requests    | { email }: 202, the same answer whether the email exists or not;      |
// |        |                                        | 429 past 3 an hour per email or 10 an hour per address                |
// | POST   | /api/public/password-resets            | { token, password }: 200; 410 when expired or used                    |
// The secrets in links are kept only as SHA-256; each is single use (marked used in the transaction that uses it).
import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import { Hono, type Context } from 'hono';
import { setCookie } from 'hono/cookie';
import { acceptInvitationBody, invitationLookupBody, passwordResetBody, passwordResetRequestBody } from '../../src/contract/user-schemas.ts';
import { userMessages } from '../../src/contract/users.ts';
import { recordAudit } from '../audit/record.ts';
import type { Database } from '../db/client.ts';
import { userInvitations, users } from '../db/schema.ts';
import { hashPassword } from '../identity/passwords.ts';
import { checkNewPassword } from '../users/password-rules.ts';
import {
  invitationSignInCookie,
  invitationSignInCookiePath,
  invitationSignInMinutes,
  newInvitationSignIn,
  queueWelcomeEmail,
  secretHash,
} from '../users/invitations.ts';
import { completePasswordReset, passwordExpiryFrom, requestPasswordReset } from '../users/password-reset.ts';
import { type AppEnv, readBody } from '../http/env.ts';
import { ApiError, badRequest } from '../http/errors.ts';
import { requestSource } from './step-up.ts';

const expired = () => new ApiError(410, userMessages.linkExpired);

function clientAddress(c: Context<AppEnv>): string {
  return requestSource(c).address;
}

export function publicUserRoutes({ database, publicUrl }: { database: Database; publicUrl: string }) {
  const { db } = database;
  const routes = new Hono<AppEnv>();
  routes.use('*', async (c, next) => {
    c.header('Cache-Control', 'no-store');
    c.header('Referrer-Policy', 'no-referrer');
    await next();
  });

  async function pendingInvitation(secret: string) {
    if (secret.length < 20 || secret.length > 200) return undefined;
    const [row] = await db
      .select({ invitation: userInvitations, user: users })
      .from(userInvitations)
      .innerJoin(users, eq(users.id, userInvitations.userId))
      .where(
        and(
          eq(userInvitations.tokenHash, secretHash(secret)),
          isNull(userInvitations.acceptedAt),
          isNull(userInvitations.revokedAt),
          gt(userInvitations.expiresAt, new Date()),
        ),
      );
    return row && row.user.status === 'invited' ? row : undefined;
  }

  // The secret travels in the body: a path (as GET /user-invites/{secret} once was) is written to every request log.
  routes.post('/user-invites/lookup', async (c) => {
    const body = await readBody(c, invitationLookupBody);
    const found = await pendingInvitation(body.inviteId);
    if (!found) throw expired();
    return c.json({
      email: found.user.email,
      givenName: found.user.givenName,
      familyName: found.user.familyName,
      expiresUtc: found.invitation.expiresAt.toISOString(),
    });
  });

  routes.post('/user-invites/accept', async (c) => {
    const body = await readBody(c, acceptInvitationBody);
    const found = await pendingInvitation(body.inviteId);
    if (!found) throw expired();
    const problems = await checkNewPassword(body.password, [found.user.email, body.givenName, body.familyName]);
    if (problems.length > 0) throw badRequest(problems);
    const passwordHash = await hashPassword(body.password);
    const now = new Date();
    const signIn = newInvitationSignIn(now);
    await db.transaction(async (tx) => {
      // Single use: only the first of two concurrent acceptances finds the invitation still open.
      const [used] = await tx
        .update(userInvitations)
        .set({ acceptedAt: now, ...signIn.columns })
        .where(and(eq(userInvitations.id, found.invitation.id), isNull(userInvitations.acceptedAt), isNull(userInvitations.revokedAt)))
        .returning({ id: userInvitations.id });
      if (!used) throw expired();
      await tx
        .update(users)
        .set({
          givenName: body.givenName,
          familyName: body.familyName,
          passwordHash,
          status: 'active',
          passwordExpiresUtc: passwordExpiryFrom(now),
          version: sql`${users.version} + 1`,
        })
        .where(eq(users.id, found.user.id));
      await queueWelcomeEmail(tx, publicUrl, found.user.email, body.givenName);
      await recordAudit(
        tx,
        { userId: found.user.id },
        'InvitationAccepted',
        { businessId: null, merchantId: null },
        { targetUserId: found.user.id, invitationId: found.invitation.id },
        { at: now },
      );
    });
    // The portal signs the invitee in next (an ordinary sign-in whose interaction page takes this in place of the
    // password just chosen): HttpOnly, only sent to the provider's interaction pages, gone in minutes and single use.
    setCookie(c, invitationSignInCookie, signIn.secret, {
      path: invitationSignInCookiePath(publicUrl),
      httpOnly: true,
      sameSite: 'Strict',
      secure: new URL(publicUrl).protocol === 'https:',
      maxAge: invitationSignInMinutes * 60,
    });
    return c.json({ message: userMessages.inviteAccepted });
  });

  routes.post('/password-reset-requests', async (c) => {
    const body = await readBody(c, passwordResetRequestBody);
    const outcome = await requestPasswordReset(database, publicUrl, body.email, clientAddress(c));
    if (outcome === 'invalidEmail') throw badRequest('Enter an email address.');
    if (outcome === 'limited') throw new ApiError(429, userMessages.tooManyRequests);
    return c.json({ message: userMessages.resetRequested }, 202);
  });

  routes.post('/password-resets', async (c) => {
    const body = await readBody(c, passwordResetBody);
    const result = await completePasswordReset(database, body.token, body.password);
    if (result.outcome === 'expired') throw expired();
    if (result.outcome === 'refused') throw badRequest(result.problems);
    return c.json({ message: userMessages.resetDone });
  });

  return routes;
}
