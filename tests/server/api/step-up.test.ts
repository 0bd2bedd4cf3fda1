// Step-up authentication on PGlite and PostgreSQL: revealing a card number and replacing an API key need
// the password (and the second factor's code, when the user has one) entered again in the last 5 minutes; without it
// 403 with the message that tells the client which dialog to show; wrong passwords count towards the lockout; every
// step-up is audited with the client's address and user agent.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stepUpMessages } from '../../../src/contract/step-up.ts';
import type { Database } from '../../../server/db/client.ts';
import * as schema from '../../../server/db/schema.ts';
import { lockoutThreshold } from '../../../server/identity/accounts.ts';
import { hashPassword } from '../../../server/identity/passwords.ts';
import { confirmEnrolment, currentCode, startEnrolment } from '../../../server/users/second-factor.ts';
import { createTestApp, createTestDatabase, databaseKinds, fixture, insertFixtureWorld, testCardKeys } from '../support.ts';
import { configurationUsers, insertConfigurationUsers } from './configuration-fixtures.ts';

const { users } = fixture;
const password = 'step up and be counted';
const reveal = '/businesses/B3/merchants/M3a/transactions/TX3A0001/cardNumber';
const keys = '/businesses/B1/merchants/M1a/configurations/C-M1a/api-keys';

describe.each(databaseKinds)('step-up on %s', (kind) => {
  let database: Database;
  let call: ReturnType<typeof createTestApp>['call'];

  const messagesOf = async (response: Response) =>
    ((await response.json()) as { errorReport: { errors: { message: string }[] } }).errorReport.errors.map((error) => error.message);
  const stepUp = (userId: string, body: unknown) => call(userId, 'POST', '/user/step-up', body, { 'user-agent': 'Vitest/4' });
  const events = async (event: string, userId: string) =>
    (await database.db.select().from(schema.auditEvents).where(eq(schema.auditEvents.event, event))).filter((row) => row.userId === userId);

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    await insertFixtureWorld(database);
    await insertConfigurationUsers(database);
    const passwordHash = await hashPassword(password);
    for (const id of [users.admin, configurationUsers.implementations, users.readonly])
      await database.db.update(schema.users).set({ passwordHash }).where(eq(schema.users.id, id));
    ({ call } = createTestApp(database));
  });
  afterAll(async () => database?.close());

  it('refuses a card reveal without a recent step-up: 403 saying what to enter, an RFC 9470 challenge, nothing revealed or recorded', async () => {
    const response = await call(users.admin, 'GET', reveal);
    expect(response.status).toBe(403);
    expect(response.headers.get('www-authenticate')).toContain('error="insufficient_user_authentication"');
    expect(await messagesOf(response)).toEqual([stepUpMessages.passwordRequired]);
    expect(await events('CardNumberRevealed', users.admin)).toHaveLength(0);
  });

  it('a wrong password is refused (400), audited and counted towards the lockout', async () => {
    const response = await stepUp(users.admin, { password: 'not my password' });
    expect(response.status).toBe(400);
    expect(await messagesOf(response)).toEqual([stepUpMessages.wrongPassword]);
    const [row] = await database.db.select().from(schema.users).where(eq(schema.users.id, users.admin));
    expect(row!.failedSignIns).toBe(1);
    expect((await events('StepUpFailed', users.admin)).at(-1)!.metaData).toMatchObject({
      targetUserId: users.admin,
      userAgent: 'Vitest/4',
      reason: 'wrongPassword',
    });
    expect((await call(users.admin, 'GET', reveal)).status).toBe(403);
  });

  it('the right password allows the reveal for 5 minutes in this session, then asks again', async () => {
    const response = await stepUp(users.admin, { password });
    expect(response.status).toBe(200);
    const { validUntilUtc } = (await response.json()) as { validUntilUtc: string };
    expect(new Date(validUntilUtc).getTime() - Date.now()).toBeGreaterThan(4.9 * 60_000);
    expect((await events('StepUpSucceeded', users.admin)).at(-1)!.metaData).toMatchObject({
      targetUserId: users.admin,
      userAgent: 'Vitest/4',
      clientAddress: expect.any(String),
    });
    const revealed = await call(users.admin, 'GET', reveal);
    expect(revealed.status).toBe(200);
    expect(await revealed.json()).toEqual({ cardNumber: '4111111111111111' });
    // The success cleared the failure count.
    const [row] = await database.db.select().from(schema.users).where(eq(schema.users.id, users.admin));
    expect(row!.failedSignIns).toBe(0);
    // 5 minutes later the grant has ended.
    await database.db
      .update(schema.stepUpGrants)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(schema.stepUpGrants.userId, users.admin));
    expect((await call(users.admin, 'GET', reveal)).status).toBe(403);
  });

  it('a step-up of one user does nothing for another', async () => {
    await stepUp(configurationUsers.implementations, { password });
    expect((await call(users.admin, 'GET', reveal)).status).toBe(403);
  });

  it('creating and replacing an API key need the step-up too', async () => {
    const userId = configurationUsers.implementations;
    await database.db.delete(schema.stepUpGrants);
    const withoutStepUp = await call(userId, 'POST', keys, { name: 'Shop', description: '', expiresAt: null });
    expect(withoutStepUp.status).toBe(403);
    expect(await messagesOf(withoutStepUp)).toEqual([stepUpMessages.passwordRequired]);
    expect((await stepUp(userId, { password })).status).toBe(200);
    const created = (await (await call(userId, 'POST', keys, { name: 'Shop', description: '', expiresAt: null })).json()) as { apiKey: { id: string } };
    await database.db.delete(schema.stepUpGrants);
    const refused = await call(userId, 'POST', `${keys}/${created.apiKey.id}/replacement`);
    expect(refused.status).toBe(403);
    expect(await messagesOf(refused)).toEqual([stepUpMessages.passwordRequired]);
    expect((await stepUp(userId, { password })).status).toBe(200);
    expect((await call(userId, 'POST', `${keys}/${created.apiKey.id}/replacement`)).status).toBe(201);
  });

  it('with two-factor sign-in on: asks for the code as well, and checks it', async () => {
    const userId = users.admin;
    const started = await startEnrolment(database.db, testCardKeys, { id: userId, email: 'admin@fixture.test' });
    if (started.outcome !== 'started') throw new Error('enrolment did not start');
    const now = Date.now();
    expect(await confirmEnrolment(database, testCardKeys, userId, currentCode(started.secret, now - 30_000), now)).not.toBeNull();
    const asked = await call(userId, 'GET', reveal);
    expect(await messagesOf(asked)).toEqual([stepUpMessages.passwordAndCodeRequired]);
    const noCode = await stepUp(userId, { password });
    expect(noCode.status).toBe(400);
    expect(await messagesOf(noCode)).toEqual([stepUpMessages.codeNeeded]);
    const wrongCode = await stepUp(userId, { password, code: '000000' === currentCode(started.secret) ? '111111' : '000000' });
    expect(await messagesOf(wrongCode)).toEqual([stepUpMessages.wrongCode]);
    expect((await stepUp(userId, { password, code: currentCode(started.secret) })).status).toBe(200);
    expect((await call(userId, 'GET', reveal)).status).toBe(200);
  });

  it('five wrong passwords lock the account: the session ends', async () => {
    const userId = users.readonly;
    for (let attempt = 0; attempt < lockoutThreshold; attempt += 1) expect((await stepUp(userId, { password: `guess ${attempt}` })).status).toBe(400);
    expect((await call(userId, 'GET', '/user/permissions')).status).toBe(401);
    expect(await events('AccountLocked', userId)).toHaveLength(1);
  });

  it('wrong current passwords of a password change count towards the lockout too (no oracle for a borrowed session)', async () => {
    const userId = users.partner;
    await database.db
      .update(schema.users)
      .set({ passwordHash: await hashPassword(password) })
      .where(eq(schema.users.id, userId));
    for (let attempt = 0; attempt < lockoutThreshold; attempt += 1) {
      const response = await call(userId, 'PUT', '/user/password', { currentPassword: `guess ${attempt}`, newPassword: 'a much longer new passphrase' });
      expect(response.status).toBe(400);
    }
    expect(await events('AccountLocked', userId)).toHaveLength(1);
    expect((await call(userId, 'GET', '/user/permissions')).status).toBe(401);
  });

  it('validates its body', async () => {
    for (const body of [{}, { password: 7 }, { password: 'x'.repeat(1025) }, { password, code: 'x'.repeat(33) }]) {
      expect((await stepUp(users.finance, body)).status).toBe(400);
    }
  });
});
