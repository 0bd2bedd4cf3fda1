// Sign-in and the account, on PGlite and PostgreSQL: wrong two-factor codes counted on the account across
// sign-ins, step-ups and removals (the tenth locks, emails the holder and is audited); removing two-factor sign-in
// needs the password as well as a code; changing one's email needs the password (or a step-up), tells the old
// address at once with an undo link, and a reset within a day of a change also goes to the old address; sent
// messages keep no working secret link; the invitation page's secret travels in a POST body; and inviting an existing
// person is answered like any invitation. Time-based logic is driven with fixed instants.
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import * as schema from '../../../server/db/schema.ts';
import { unknownSource } from '../../../server/identity/sign-in-guard.ts';
import { hashPassword } from '../../../server/identity/passwords.ts';
import { openMailTransport } from '../../../server/mail/transport.ts';
import { startMailWorker } from '../../../server/mail/worker.ts';
import { readConfig } from '../../../server/config.ts';
import { confirmEmailChange, requestEmailChange, undoEmailChange } from '../../../server/users/email-change.ts';
import { requestPasswordReset } from '../../../server/users/password-reset.ts';
import {
  answerSignInChallenge,
  checkSecondFactorCode,
  codeLockoutMinutes,
  confirmEnrolment,
  currentCode,
  issueSignInChallenge,
  startEnrolment,
  wrongCodesBeforeLock,
} from '../../../server/users/second-factor.ts';
import { databaseKinds, fixture, grantStepUp, testCardKeys, useFixtureApp } from '../support.ts';

const password = 'Violet-harbour-kettle-93';
const t0 = new Date('2027-03-01T10:00:00Z');
const at = (minutes: number) => new Date(t0.getTime() + minutes * 60_000);
const publicUrl = readConfig().publicUrl;

/** A six-digit code that no step around `now` accepts. */
function wrongCodeAt(secret: string, now: Date): string {
  const right = new Set([-30_000, 0, 30_000].map((offset) => currentCode(secret, now.getTime() + offset)));
  for (let candidate = 0; ; candidate += 1) {
    const code = String(candidate).padStart(6, '0');
    if (!right.has(code)) return code;
  }
}

describe.each(databaseKinds)('sign-in and the account on %s', (kind) => {
  const harness = useFixtureApp(kind);
  let serial = 0;

  /** A user with a real password and, unless `twoFactor` is false, an active second factor enrolled at t0. */
  async function person(label: string, twoFactor = true) {
    serial += 1;
    const id = `u-${label}-${serial}`;
    const email = `${label}.${serial}@account.test`;
    await harness.database.db.insert(schema.users).values({ id, email, givenName: label, familyName: 'Test', passwordHash: await hashPassword(password) });
    await harness.database.db.insert(schema.userRoles).values({ userId: id, role: 'Finance', level: 'business', businessId: 'B3' });
    if (!twoFactor) return { id, email, secret: '', recoveryCodes: [] as string[] };
    const started = await startEnrolment(harness.database.db, testCardKeys, { id, email });
    if (started.outcome !== 'started') throw new Error('enrolment did not start');
    const recoveryCodes = await confirmEnrolment(harness.database, testCardKeys, id, currentCode(started.secret, t0.getTime()), t0.getTime());
    if (!recoveryCodes) throw new Error('enrolment not confirmed');
    return { id, email, secret: started.secret, recoveryCodes };
  }

  const userRow = async (id: string) => (await harness.database.db.select().from(schema.users).where(eq(schema.users.id, id)))[0];
  const mailTo = (recipient: string) =>
    harness.database.query<{ id: string; template: string; text: string; html: string; status: string }>(
      'SELECT id, template, text, html, status FROM outbound_emails WHERE recipient = $1 ORDER BY created_at, id',
      [recipient],
    );
  const auditRows = (event: string, targetUserId: string) =>
    harness.database.query<{ meta_data: Record<string, unknown> }>(`SELECT meta_data FROM audit_events WHERE event = $1 AND meta_data->>'targetUserId' = $2`, [
      event,
      targetUserId,
    ]);
  const json = async <T>(response: Response) => (await response.json()) as T;
  const linkIn = (text: string, path: string) => {
    const found = new RegExp(`https?://[^\\s]+${path}\\?[^\\s]+`).exec(text)?.[0];
    return found ? new URL(found) : null;
  };

  describe('two-factor codes cannot be guessed', () => {
    it('counts wrong codes across sign-ins: the tenth locks the account for 30 minutes, emails the holder and is audited; the right code is refused until then', async () => {
      const user = await person('guess');
      // Two sign-ins (five tries each on one ticket) used to give ten fresh tries each time.
      let minute = 0;
      const outcomes: { outcome: string; locked?: boolean }[] = [];
      for (let signIn = 0; signIn < 2; signIn += 1) {
        const ticket = await issueSignInChallenge(harness.database.db, user.id, false, at(minute));
        for (let attempt = 0; attempt < 5; attempt += 1) {
          minute += 1;
          const answer = await answerSignInChallenge(harness.database, testCardKeys, ticket, wrongCodeAt(user.secret, at(minute)), {
            publicUrl,
            source: unknownSource,
            now: at(minute),
          });
          outcomes.push(answer.outcome === 'wrong' ? { outcome: answer.outcome, locked: answer.locked } : { outcome: answer.outcome });
        }
      }
      expect(outcomes.slice(0, 9).every((one) => one.outcome === 'wrong' && one.locked === false)).toBe(true);
      expect(outcomes[9]).toEqual({ outcome: 'wrong', locked: true });
      expect((await userRow(user.id))?.lockoutEndDateUtc?.toISOString()).toBe(at(minute + codeLockoutMinutes).toISOString());
      const locked = await auditRows('AccountLocked', user.id);
      expect(locked).toHaveLength(1);
      expect(locked[0]?.meta_data).toMatchObject({ reason: 'wrongSecondFactorCodes', failedAttempts: wrongCodesBeforeLock });
      const mails = (await mailTo(user.email)).filter((mail) => mail.template === 'accountLocked');
      expect(mails).toHaveLength(1);
      expect(mails[0]?.text).toContain('After 10 wrong two-factor codes');
      expect(mails[0]?.text).toContain('Whoever entered the codes knew your password.');

      // The right code on a third sign-in, while locked: refused like a wrong one.
      const third = await issueSignInChallenge(harness.database.db, user.id, false, at(minute + 5));
      expect(
        await answerSignInChallenge(harness.database, testCardKeys, third, currentCode(user.secret, at(minute + 5).getTime()), {
          publicUrl,
          source: unknownSource,
          now: at(minute + 5),
        }),
      ).toEqual({ outcome: 'wrong', userId: user.id, locked: true });
      // Once the lock has ended, the right code signs in.
      const later = at(minute + codeLockoutMinutes + 1);
      const fourth = await issueSignInChallenge(harness.database.db, user.id, false, later);
      expect(
        (
          await answerSignInChallenge(harness.database, testCardKeys, fourth, currentCode(user.secret, later.getTime()), {
            publicUrl,
            source: unknownSource,
            now: later,
          })
        ).outcome,
      ).toBe('passed');
    });

    it('a right code clears the count; a burst of wrong codes at once checks no more than ten and locks once', async () => {
      const user = await person('burst');
      const check = (code: string, now: Date) =>
        checkSecondFactorCode(harness.database, testCardKeys, user.id, code, { publicUrl, source: unknownSource, now });
      for (let index = 0; index < wrongCodesBeforeLock - 1; index += 1) expect(await check(wrongCodeAt(user.secret, at(1)), at(1))).toBe('wrong');
      expect(await check(currentCode(user.secret, at(2).getTime()), at(2))).toBe('code');
      expect((await userRow(user.id))?.failedSecondFactorCodes).toBe(0);
      for (let index = 0; index < wrongCodesBeforeLock - 1; index += 1) expect(await check(wrongCodeAt(user.secret, at(3)), at(3))).toBe('wrong');
      expect((await userRow(user.id))?.lockoutEndDateUtc).toBeNull();

      const other = await person('burst');
      const answers = await Promise.all(
        Array.from({ length: 15 }, () =>
          checkSecondFactorCode(harness.database, testCardKeys, other.id, wrongCodeAt(other.secret, at(1)), { publicUrl, source: unknownSource, now: at(1) }),
        ),
      );
      expect(answers.filter((answer) => answer === 'wrong')).toHaveLength(wrongCodesBeforeLock - 1);
      expect(answers.filter((answer) => answer === 'locked')).toHaveLength(15 - (wrongCodesBeforeLock - 1));
      expect(await auditRows('AccountLocked', other.id)).toHaveLength(1);
      expect((await mailTo(other.email)).filter((mail) => mail.template === 'accountLocked')).toHaveLength(1);
    });

    it('wrong codes at step-up and at removal count towards the same lock; the locked account’s token is refused and its factor stays', async () => {
      const user = await person('api');
      // (The server checks at its own time: five digits are wrong at any time, and count like any wrong code.)
      const wrong = '12345';
      for (let index = 0; index < 5; index += 1) {
        const removal = await harness.call(user.id, 'POST', '/user/second-factor/removal', { currentPassword: password, code: wrong });
        expect(removal.status).toBe(400);
      }
      for (let index = 0; index < 4; index += 1) {
        const stepUp = await harness.call(user.id, 'POST', '/user/step-up', { password, code: wrong });
        expect(stepUp.status).toBe(400);
      }
      expect((await userRow(user.id))?.lockoutEndDateUtc).toBeNull();
      expect((await harness.call(user.id, 'POST', '/user/step-up', { password, code: wrong })).status).toBe(400);
      expect((await userRow(user.id))?.lockoutEndDateUtc).not.toBeNull();
      // The same session with the right password and a recovery code: the account is locked, the token refused.
      expect((await harness.call(user.id, 'POST', '/user/second-factor/removal', { currentPassword: password, code: user.recoveryCodes[0] })).status).toBe(401);
      const [factor] = await harness.database.db.select().from(schema.userSecondFactors).where(eq(schema.userSecondFactors.userId, user.id));
      expect(factor?.status).toBe('active');
      expect(await auditRows('AccountLocked', user.id)).toHaveLength(1);
      expect((await mailTo(user.email)).filter((mail) => mail.template === 'accountLocked')).toHaveLength(1);
    });
  });

  describe('POST /user/second-factor/removal', () => {
    it('needs the current password as well as a code', async () => {
      const user = await person('removal');
      expect((await harness.call(user.id, 'POST', '/user/second-factor/removal', { code: user.recoveryCodes[0] })).status).toBe(400);
      const wrongPassword = await harness.call(user.id, 'POST', '/user/second-factor/removal', {
        currentPassword: 'not-my-password',
        code: user.recoveryCodes[0],
      });
      expect(wrongPassword.status).toBe(400);
      expect(JSON.stringify(await wrongPassword.json())).toContain('The current password is not correct.');
      expect(await harness.database.db.select().from(schema.userSecondFactors).where(eq(schema.userSecondFactors.userId, user.id))).toHaveLength(1);
      expect(await auditRows('SecondFactorRemovalFailed', user.id)).toHaveLength(1);
      expect((await harness.call(user.id, 'POST', '/user/second-factor/removal', { currentPassword: password, code: user.recoveryCodes[0] })).status).toBe(204);
      expect(await harness.database.db.select().from(schema.userSecondFactors).where(eq(schema.userSecondFactors.userId, user.id))).toHaveLength(0);
      expect(await auditRows('SecondFactorRemoved', user.id)).toHaveLength(1);
    });
  });

  describe('changing one’s email address', () => {
    it('a bare token is refused; the current password (or a step-up) is needed, and the old address is told at once with an undo link', async () => {
      const user = await person('mover', false);
      const version = (await userRow(user.id))?.version ?? 1;
      const bare = await harness.call(user.id, 'PATCH', '/users', { version, email: `taken.${serial}@thief.test` });
      expect(bare.status).toBe(403);
      expect(await mailTo(`taken.${serial}@thief.test`)).toHaveLength(0);
      const wrong = await harness.call(user.id, 'PATCH', '/users', { version, email: `taken.${serial}@thief.test`, currentPassword: 'guess' });
      expect(wrong.status).toBe(400);
      expect(await mailTo(`taken.${serial}@thief.test`)).toHaveLength(0);
      expect(await auditRows('EmailChangeRefused', user.id)).toHaveLength(1);

      const changed = await harness.call(user.id, 'PATCH', '/users', { version, email: `new.${serial}@mine.test`, currentPassword: password });
      expect(changed.status).toBe(200);
      expect((await mailTo(`new.${serial}@mine.test`)).map((mail) => mail.template)).toEqual(['emailChangeConfirmation']);
      const notice = (await mailTo(user.email)).find((mail) => mail.template === 'emailChangeRequested');
      expect(notice?.text).toContain(`new.${serial}@mine.test`);
      expect(linkIn(notice?.text ?? '', '/connect/undo-email-change')?.searchParams.get('token')?.length).toBeGreaterThan(30);

      // A step-up of this session within the last minutes stands in for the password.
      await grantStepUp(harness.database, user.id);
      const stepped = await harness.call(user.id, 'PATCH', '/users', { version: version + 1, email: `other.${serial}@mine.test` });
      expect(stepped.status).toBe(200);
    });

    it('a reset asked for within a day of a change also goes to the old address; the undo link restores the address and voids the reset', async () => {
      const user = await person('reset', false);
      const newEmail = `moved.${serial}@thief.test`;
      await harness.database.db.transaction(async (tx) =>
        requestEmailChange(tx, publicUrl, { id: user.id, givenName: 'Reset', email: user.email }, newEmail, t0),
      );
      const confirmToken = linkIn((await mailTo(newEmail))[0]?.text ?? '', '/connect/confirm-email')?.searchParams.get('token') ?? '';
      const undoToken =
        linkIn((await mailTo(user.email)).find((mail) => mail.template === 'emailChangeRequested')?.text ?? '', '/connect/undo-email-change')?.searchParams.get(
          'token',
        ) ?? '';
      expect(await confirmEmailChange(harness.database, publicUrl, confirmToken, at(10))).toBe('changed');
      expect((await userRow(user.id))?.email).toBe(newEmail);

      expect(await requestPasswordReset(harness.database, publicUrl, newEmail, '192.0.2.10', at(60))).toBe('accepted');
      const toNew = (await mailTo(newEmail)).filter((mail) => mail.template === 'passwordReset');
      const toOld = (await mailTo(user.email)).filter((mail) => mail.template === 'passwordReset');
      expect(toNew).toHaveLength(1);
      expect(toOld).toHaveLength(1);
      expect(toOld[0]?.text).toContain('within the last day');
      // More than a day after the change, a reset goes to the account's address only.
      expect(await requestPasswordReset(harness.database, publicUrl, newEmail, '192.0.2.10', at(10 + 24 * 60 + 1))).toBe('accepted');
      expect((await mailTo(newEmail)).filter((mail) => mail.template === 'passwordReset')).toHaveLength(2);
      expect((await mailTo(user.email)).filter((mail) => mail.template === 'passwordReset')).toHaveLength(1);

      expect(await undoEmailChange(harness.database, publicUrl, undoToken, at(10 + 24 * 60 + 2))).toBe('undone');
      expect((await userRow(user.id))?.email).toBe(user.email);
      const openResets = await harness.database.db
        .select()
        .from(schema.passwordResets)
        .where(and(eq(schema.passwordResets.userId, user.id)));
      expect(openResets.length).toBe(2);
      expect(openResets.every((reset) => reset.usedAt !== null)).toBe(true);
      expect((await auditRows('EmailChangeUndone', user.id))[0]?.meta_data).toMatchObject({ restored: user.email, from: newEmail });
      expect(await undoEmailChange(harness.database, publicUrl, undoToken, at(10 + 24 * 60 + 3))).toBe('expired');
    });

    it('the undo link cancels a change not yet confirmed, and lasts 7 days', async () => {
      const user = await person('cancel', false);
      const newEmail = `pending.${serial}@thief.test`;
      await harness.database.db.transaction(async (tx) => requestEmailChange(tx, publicUrl, { id: user.id, givenName: 'C', email: user.email }, newEmail, t0));
      const confirmToken = linkIn((await mailTo(newEmail))[0]?.text ?? '', '/connect/confirm-email')?.searchParams.get('token') ?? '';
      const undoToken =
        linkIn((await mailTo(user.email)).find((mail) => mail.template === 'emailChangeRequested')?.text ?? '', '/connect/undo-email-change')?.searchParams.get(
          'token',
        ) ?? '';
      expect(await undoEmailChange(harness.database, publicUrl, undoToken, at(5))).toBe('undone');
      expect(await confirmEmailChange(harness.database, publicUrl, confirmToken, at(6))).toBe('expired');
      expect((await userRow(user.id))?.email).toBe(user.email);

      const second = await person('late', false);
      await harness.database.db.transaction(async (tx) =>
        requestEmailChange(tx, publicUrl, { id: second.id, givenName: 'L', email: second.email }, `late.${serial}@x.test`, t0),
      );
      const lateToken =
        linkIn(
          (await mailTo(second.email)).find((mail) => mail.template === 'emailChangeRequested')?.text ?? '',
          '/connect/undo-email-change',
        )?.searchParams.get('token') ?? '';
      expect(await undoEmailChange(harness.database, publicUrl, lateToken, at(7 * 24 * 60 + 1))).toBe('expired');
    });
  });

  describe('the outbox keeps no working secrets', () => {
    it('once sent, reset, invitation and email-change messages keep their links redacted; waiting ones hold them; other links stay', async () => {
      const user = await person('outbox', false);
      expect(await requestPasswordReset(harness.database, publicUrl, user.email, '192.0.2.20', t0)).toBe('accepted');
      const invitee = `invitee.${serial}@outbox.test`;
      expect(
        (
          await harness.call(fixture.users.owner, 'POST', '/users', {
            emails: [invitee],
            policy: { roles: [], businessPolicies: [{ businessId: 'B3', roles: ['Finance'], merchantPolicies: [] }] },
          })
        ).status,
      ).toBe(201);
      const changeTo = `changed.${serial}@outbox.test`;
      await harness.database.db.transaction(async (tx) => requestEmailChange(tx, publicUrl, { id: user.id, givenName: 'O', email: user.email }, changeTo, t0));
      const waiting = [
        ...(await mailTo(user.email)).filter((mail) => mail.template === 'passwordReset' || mail.template === 'emailChangeRequested'),
        ...(await mailTo(invitee)),
        ...(await mailTo(changeTo)),
      ];
      expect(waiting.map((mail) => mail.template).sort()).toEqual(['emailChangeConfirmation', 'emailChangeRequested', 'passwordReset', 'userInvitation']);
      // Waiting to be sent: the links are there.
      for (const mail of waiting) expect(mail.text).toMatch(/[?&](token|InviteId)=[A-Za-z0-9_-]{30,}/);
      await harness.database.db.insert(schema.outboundEmails).values({
        id: `EMPLAIN${serial}`,
        recipient: user.email,
        subject: 's',
        template: 'userWelcome',
        html: '<a href="http://localhost/">x</a>',
        text: 'Sign in: http://localhost/',
      });

      const worker = startMailWorker({
        database: harness.database,
        transport: openMailTransport({ smtpUrl: undefined, log: () => {} }),
        from: 'Portal <no-reply@portal.test>',
        pollMs: 60_000,
      });
      await worker.stop();
      await worker.drain();

      for (const { id } of waiting) {
        const [row] = await harness.database.db.select().from(schema.outboundEmails).where(eq(schema.outboundEmails.id, id));
        expect(row?.status).toBe('deliveredLocally');
        for (const body of [row?.text ?? '', row?.html ?? '']) {
          expect(body).toContain('[link removed after sending]');
          expect(body).not.toMatch(/(token|InviteId)=/);
        }
        expect(row?.redactedHtml).toBeNull();
        expect(row?.redactedText).toBeNull();
        const shown = await harness.call(fixture.users.admin, 'GET', `/outbox/${id}`);
        expect(shown.status).toBe(200);
        expect(JSON.stringify(await shown.json())).not.toMatch(/(token|InviteId)=/);
      }
      const [plain] = await harness.database.db
        .select()
        .from(schema.outboundEmails)
        .where(eq(schema.outboundEmails.id, `EMPLAIN${serial}`));
      expect(plain?.text).toBe('Sign in: http://localhost/');
    });
  });

  describe('invitation secrets stay out of request paths', () => {
    it('the invitation page asks with the secret in a POST body; the old GET path with the secret answers nothing', async () => {
      const invitee = `lookup.${++serial}@invite.test`;
      expect(
        (
          await harness.call(fixture.users.owner, 'POST', '/users', {
            emails: [invitee],
            policy: { roles: [], businessPolicies: [{ businessId: 'B3', roles: ['Finance'], merchantPolicies: [] }] },
          })
        ).status,
      ).toBe(201);
      const inviteId = linkIn((await mailTo(invitee))[0]?.text ?? '', '/user-invite')?.searchParams.get('InviteId') ?? '';
      const looked = await harness.call(null, 'POST', '/../public/user-invites/lookup', { inviteId });
      expect(looked.status).toBe(200);
      expect(await json<{ email: string }>(looked)).toMatchObject({ email: invitee });
      const byPath = await harness.call(null, 'GET', `/../public/user-invites/${encodeURIComponent(inviteId)}`);
      expect(byPath.status).toBe(404);
      expect(await byPath.text()).not.toContain(invitee);
    });
  });

  describe('inviting someone who already has an account', () => {
    const b3Finance = { roles: [], businessPolicies: [{ businessId: 'B3', roles: ['Finance'], merchantPolicies: [] }] };

    it('answers an owner who invites a staff address like any invitation, changes nothing, and tells the person', async () => {
      const fresh = `fresh.${++serial}@invite.test`;
      const response = await harness.call(fixture.users.owner, 'POST', '/users', { emails: ['Admin@fixture.test', fresh], policy: b3Finance });
      expect(response.status).toBe(201);
      const { users: answered } = await json<{ users: { userId: string; email: string }[] }>(response);
      expect(answered.map((one) => one.email)).toEqual(['admin@fixture.test', fresh]);
      expect(answered.every((one) => /^USR[0-9]{5,}$/.test(one.userId))).toBe(true);
      expect(answered[0]?.userId).not.toBe(fixture.users.admin);
      const roles = await harness.database.db.select().from(schema.userRoles).where(eq(schema.userRoles.userId, fixture.users.admin));
      expect(roles.map((role) => `${role.level}:${role.role}`)).toEqual(['root:TechnicalAdmin']);
      expect((await mailTo('admin@fixture.test')).map((mail) => mail.template)).toContain('invitationNotApplied');
      // What the owner can look at next tells nothing either: the id answered names no one they can see.
      expect((await harness.call(fixture.users.owner, 'GET', `/users/${answered[0]?.userId ?? ''}`)).status).toBe(404);
    });

    it('gives an existing person beyond the caller’s reach the access and tells them; escalation is still refused', async () => {
      const response = await harness.call(fixture.users.owner, 'POST', '/users', { emails: ['finance@fixture.test'], policy: b3Finance });
      expect(response.status).toBe(201);
      expect((await json<{ users: { userId: string }[] }>(response)).users[0]?.userId).toBe(fixture.users.finance);
      const roles = await harness.database.db.select().from(schema.userRoles).where(eq(schema.userRoles.userId, fixture.users.finance));
      expect(roles.map((role) => `${role.businessId}:${role.role}`).sort()).toEqual(['B2:Finance', 'B3:Finance']);
      const granted = (await mailTo('finance@fixture.test')).filter((mail) => mail.template === 'userAccessGranted');
      expect(granted).toHaveLength(1);
      expect(granted[0]?.text).toContain('Gamma Foods plc');
      expect(await auditRows('UserAccessGranted', fixture.users.finance)).toHaveLength(1);
      // The refusals of escalation stand before any email is looked at.
      expect(
        (
          await harness.call(fixture.users.owner, 'POST', '/users', {
            emails: ['admin@fixture.test'],
            policy: { roles: ['TechnicalAdmin'], businessPolicies: [] },
          })
        ).status,
      ).toBe(403);
      expect(
        (
          await harness.call(fixture.users.owner, 'POST', '/users', {
            emails: ['finance@fixture.test'],
            policy: { roles: [], businessPolicies: [{ businessId: 'B2', roles: ['Owner'], merchantPolicies: [] }] },
          })
        ).status,
      ).toBe(403);
    });
  });
});
