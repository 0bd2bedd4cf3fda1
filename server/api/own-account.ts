// The caller's own account: their profile, password, sessions and second factor (everyone signed in, for themselves).
// User administration is in users.ts; a user's detail as PATCH /users answers it comes from user-administration.ts.
//
// | method | path                                  | permission (where)                           | answer                                   |
// |--------|---------------------------------------|----------------------------------------------|------------------------------------------|
// | PATCH  | /users                                | signed in (the caller's own profile); a new  | detail; a new email is emailed a link and |
// |        |                                       | email needs currentPassword or a step-up     | applies once confirmed; the old address  |
// |        |                                       |                                              | is told at once with an undo link        |
// | PUT    | /user/password                        | signed in (current password required)        | 204                                      |
// | GET    | /user/sessions                        | signed in (own)                              | { results: [{ signedInUtc, expiresUtc }] }|
// | POST   | /user/sessions/revocation             | signed in (own), { confirm: true }           | 204: every session and refresh token ends|
// | GET    | /user/second-factor                   | signed in (own)                              | { status: off|pending|on, recoveryCodesLeft } |
// | POST   | /user/second-factor/enrolment         | signed in (own), { currentPassword }         | { otpauthUri, secret, qrCodeDataUrl }    |
// | POST   | /user/second-factor/enrolment/confirm | signed in (own), { code }                    | { recoveryCodes } (ten, shown once)      |
// | POST   | /user/second-factor/removal           | signed in (own), { currentPassword, code }   | 204; wrong codes count towards the lock  |
// Every change is audited with the user it is about (server/users/user-lock.ts auditUserEvent).
import { ownPasswordCheck, requestSource, requireStepUp, sourceMetaData } from './step-up.ts';
import { and, eq, isNull, or, sql } from 'drizzle-orm';
import { Hono } from 'hono';
import {
  changePasswordBody,
  secondFactorCodeBody,
  secondFactorEnrolmentBody,
  secondFactorRemovalBody,
  signOutEverywhereBody,
  updateOwnProfileBody,
} from '../../src/contract/user-schemas.ts';
import { userMessages } from '../../src/contract/users.ts';
import { oidcPayloads, users } from '../db/schema.ts';
import { revokeAccountAccess } from '../identity/adapter.ts';
import { hashPassword, verifyPassword } from '../identity/passwords.ts';
import { checkNewPassword } from '../users/password-rules.ts';
import { passwordExpiryFrom } from '../users/password-reset.ts';
import { emailTaken, requestEmailChange } from '../users/email-change.ts';
import { checkSecondFactorCode, confirmEnrolment, removeSecondFactor, secondFactorState, startEnrolment } from '../users/second-factor.ts';
import { type AppEnv, type Deps, readBody } from '../http/env.ts';
import { badRequest, conflict, notFound } from '../http/errors.ts';
import { sqlNow } from '../clock.ts';
import { userAdministration } from './user-administration.ts';
import { auditUserEvent } from '../users/user-lock.ts';

const u = users;

export function ownAccountRoutes({ database, publicUrl, cardKeys }: Deps) {
  const { db } = database;
  const routes = new Hono<AppEnv>();
  const currentPasswordIsRight = ownPasswordCheck({ database, publicUrl });
  const { respondDetail } = userAdministration({ database, publicUrl });
  const audit = auditUserEvent;

  // ── own profile ───────────────────────────────────────────────────────────────────────────────

  routes.patch('/users', async (c) => {
    const principal = c.get('principal');
    const body = await readBody(c, updateOwnProfileBody);
    const [row] = await db.select().from(u).where(eq(u.id, principal.userId));
    if (!row) throw notFound();
    const newEmail = body.email !== undefined && body.email.toLowerCase() !== row.email.toLowerCase() ? body.email : null;
    if (newEmail) {
      // A bare (perhaps borrowed) token does not move an account: the current password, checked as sign-in checks it
      // (counted towards the lockout), or a step-up of this session within the last minutes.
      if (body.currentPassword !== undefined) {
        if (!(await currentPasswordIsRight(c, body.currentPassword))) {
          await audit(db, principal, 'EmailChangeRefused', { userId: row.id }, { ...sourceMetaData(c), reason: 'wrongPassword' });
          throw badRequest(userMessages.wrongCurrentPassword);
        }
      } else {
        await requireStepUp(c, db);
      }
      const taken = await emailTaken(db, newEmail);
      if (taken) throw badRequest(taken === 'deleted' ? userMessages.emailDeleted : userMessages.emailExists);
    }
    await db.transaction(async (tx) => {
      // A new email address applies only once confirmed from the link sent to it (server/users/email-change.ts).
      if (newEmail) await requestEmailChange(tx, publicUrl, row, newEmail);
      const [updated] = await tx
        .update(u)
        .set({
          givenName: body.givenName ?? row.givenName,
          familyName: body.familyName ?? row.familyName,
          phoneNumber: body.phoneNumber === undefined ? row.phoneNumber : body.phoneNumber,
          language: body.language ?? row.language,
          version: sql`${u.version} + 1`,
        })
        .where(and(eq(u.id, row.id), eq(u.version, body.version)))
        .returning({ id: u.id });
      if (!updated) throw conflict();
      await audit(
        tx,
        principal,
        'OwnProfileUpdated',
        { userId: row.id },
        { fields: Object.keys(body).filter((key) => key !== 'version' && key !== 'currentPassword') },
      );
    });
    return respondDetail(c, row.id);
  });

  routes.put('/user/password', async (c) => {
    const principal = c.get('principal');
    const body = await readBody(c, changePasswordBody);
    const [row] = await db.select().from(u).where(eq(u.id, principal.userId));
    if (!row) throw notFound();
    // The current password is checked as sign-in checks it: wrong ones count towards the lockout and the throttles.
    if (!(await currentPasswordIsRight(c, body.currentPassword))) {
      await audit(db, principal, 'PasswordChangeFailed', { userId: row.id }, sourceMetaData(c));
      throw badRequest(userMessages.wrongCurrentPassword);
    }
    const problems = await checkNewPassword(body.newPassword, [row.email, row.givenName, row.familyName]);
    if (problems.length > 0) throw badRequest(problems);
    if (await verifyPassword(body.newPassword, row.passwordHash)) throw badRequest('The new password must differ from the current one.');
    const passwordHash = await hashPassword(body.newPassword);
    await db.transaction(async (tx) => {
      await tx
        .update(u)
        .set({ passwordHash, passwordExpiresUtc: passwordExpiryFrom(new Date()), version: sql`${u.version} + 1` })
        .where(eq(u.id, row.id));
      await audit(tx, principal, 'PasswordChanged', { userId: row.id }, sourceMetaData(c));
    });
    return c.body(null, 204);
  });

  // ── sessions ──────────────────────────────────────────────────────────────────────────────────

  routes.get('/user/sessions', async (c) => {
    const principal = c.get('principal');
    const rows = await db
      .select({ payload: oidcPayloads.payload, expiresAt: oidcPayloads.expiresAt })
      .from(oidcPayloads)
      .where(
        and(
          eq(oidcPayloads.type, 'Session'),
          sql`${oidcPayloads.payload} ->> 'accountId' = ${principal.userId}`,
          or(isNull(oidcPayloads.expiresAt), sql`${oidcPayloads.expiresAt} > ${sqlNow()}`),
        ),
      );
    const results = rows
      .map((row) => {
        const loginTs = Number((row.payload as { loginTs?: number }).loginTs ?? 0);
        return { signedInUtc: loginTs > 0 ? new Date(loginTs * 1000).toISOString() : null, expiresUtc: row.expiresAt?.toISOString() ?? null };
      })
      .sort((a, b) => String(b.signedInUtc).localeCompare(String(a.signedInUtc)));
    return c.json({ results });
  });

  routes.post('/user/sessions/revocation', async (c) => {
    const principal = c.get('principal');
    await readBody(c, signOutEverywhereBody);
    await db.transaction(async (tx) => {
      await revokeAccountAccess(tx, principal.userId);
      await audit(tx, principal, 'SignedOutEverywhere', { userId: principal.userId }, sourceMetaData(c));
    });
    return c.body(null, 204);
  });

  // ── second factor ─────────────────────────────────────────────────────────────────────────────

  routes.get('/user/second-factor', async (c) => c.json(await secondFactorState(db, c.get('principal').userId)));

  routes.post('/user/second-factor/enrolment', async (c) => {
    const principal = c.get('principal');
    // Setting up a second factor asks for the password again: a borrowed session cannot bind its own authenticator.
    const body = await readBody(c, secondFactorEnrolmentBody);
    const [row] = await db.select({ passwordHash: u.passwordHash }).from(u).where(eq(u.id, principal.userId));
    if (!row || !(await currentPasswordIsRight(c, body.currentPassword))) throw badRequest(userMessages.wrongCurrentPassword);
    const started = await startEnrolment(db, cardKeys, { id: principal.userId, email: principal.email });
    if (started.outcome === 'alreadyOn') throw badRequest('Two-factor sign-in is already on: turn it off first to set up a new authenticator.');
    return c.json({ otpauthUri: started.otpauthUri, secret: started.secret, qrCodeDataUrl: started.qrCodeDataUrl });
  });

  routes.post('/user/second-factor/enrolment/confirm', async (c) => {
    const principal = c.get('principal');
    const body = await readBody(c, secondFactorCodeBody);
    const codes = await confirmEnrolment(database, cardKeys, principal.userId, body.code);
    if (!codes) throw badRequest('That code is not right. Enter the current 6-digit code from your authenticator app.');
    await audit(db, principal, 'SecondFactorEnabled', { userId: principal.userId }, sourceMetaData(c));
    return c.json({ recoveryCodes: codes });
  });

  routes.post('/user/second-factor/removal', async (c) => {
    const principal = c.get('principal');
    const body = await readBody(c, secondFactorRemovalBody);
    const state = await secondFactorState(db, principal.userId);
    if (state.status === 'off') throw badRequest('Two-factor sign-in is not set up.');
    // The password as well as a code: a borrowed session holds neither. Wrong passwords count towards the lockout,
    // wrong codes towards the second factor's (the tenth locks the account and ends this session).
    if (!(await currentPasswordIsRight(c, body.currentPassword))) {
      await audit(db, principal, 'SecondFactorRemovalFailed', { userId: principal.userId }, { ...sourceMetaData(c), reason: 'wrongPassword' });
      throw badRequest(userMessages.wrongCurrentPassword);
    }
    if (state.status === 'on') {
      const checked = await checkSecondFactorCode(database, cardKeys, principal.userId, body.code, { publicUrl, source: requestSource(c) });
      if (checked === 'wrong' || checked === 'locked') {
        await audit(
          db,
          principal,
          'SecondFactorRemovalFailed',
          { userId: principal.userId },
          { ...sourceMetaData(c), reason: checked === 'locked' ? 'locked' : 'wrongCode' },
        );
        throw badRequest(userMessages.wrongCode);
      }
    }
    await db.transaction(async (tx) => {
      await removeSecondFactor(tx, principal.userId);
      await audit(tx, principal, 'SecondFactorRemoved', { userId: principal.userId }, sourceMetaData(c));
    });
    return c.body(null, 204);
  });

  return routes;
}
