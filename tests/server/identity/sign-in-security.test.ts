// The password check of sign-in under attack, on PGlite and PostgreSQL: a concurrent burst of wrong passwords is
// counted in full and locks (one lock, one email, one audit row); failures age out; the address and email throttles
// are sliding windows in the database that two nodes (two Accounts instances) share; unknown, wrong and locked
// answer alike.
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Database } from '../../../server/db/client.ts';
import { auditEvents, outboundEmails, signInAttempts, users } from '../../../server/db/schema.ts';
import { createAccounts, lockoutThreshold, type Accounts } from '../../../server/identity/accounts.ts';
import { hashPassword } from '../../../server/identity/passwords.ts';
import { attemptsPerInteraction, failuresPerAddress, failuresPerEmail, growingDelayMs, throttleWindowMinutes } from '../../../server/identity/sign-in-guard.ts';
import { createTestDatabase, databaseKinds } from '../support.ts';

const password = 'correct horse battery';

describe.each(databaseKinds)('sign-in security on %s', (kind) => {
  let database: Database;
  let node1: Accounts;
  let node2: Accounts;
  let passwordHash: string;
  const from = (address: string) => ({ address, userAgent: 'vitest' });

  async function addUser(id: string) {
    await database.db.insert(users).values({ id, email: `${id}@example.com`, givenName: 'Sam', familyName: 'Test', passwordHash });
  }
  const userRow = async (id: string) => (await database.db.select().from(users).where(eq(users.id, id)))[0]!;

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    passwordHash = await hashPassword(password);
    // Two nodes: each has its own Accounts (and decoy), the database is their only shared state.
    [node1, node2] = await Promise.all([createAccounts(database, 'https://portal.example'), createAccounts(database, 'https://portal.example')]);
  });
  afterAll(async () => database?.close());
  beforeEach(async () => {
    await database.db.delete(signInAttempts);
  });

  it('20 wrong passwords at once (from 20 addresses, on two nodes): the account locks once, with one email and one audit row', async () => {
    await addUser('u-race');
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, index) => (index % 2 ? node1 : node2).signIn('u-race@example.com', `wrong-${index}`, { source: from(`10.0.0.${index}`) })),
    );
    // Past 10 on one email the throttle answers first; of the others no more than the threshold were checked as wrong
    // passwords: the rest were refused as locked.
    expect(answers.every((answer) => answer.outcome === 'invalid' || answer.outcome === 'throttled')).toBe(true);
    expect(answers.filter((answer) => answer.outcome === 'throttled').length).toBeLessThanOrEqual(20 - failuresPerEmail);
    const wrong = answers.filter((answer) => answer.outcome === 'invalid' && answer.reason === 'wrongPassword').length;
    expect(wrong).toBeLessThanOrEqual(lockoutThreshold);
    expect(answers.filter((answer) => answer.outcome === 'invalid' && answer.reason === 'locked').length).toBeGreaterThan(0);
    const row = await userRow('u-race');
    expect(row.lockoutEndDateUtc!.getTime()).toBeGreaterThan(Date.now() + 14 * 60_000);
    const locks = await database.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.event, 'AccountLocked'), eq(auditEvents.userId, 'u-race')));
    expect(locks).toHaveLength(1);
    const mail = await database.db.select().from(outboundEmails).where(eq(outboundEmails.recipient, 'u-race@example.com'));
    expect(mail).toHaveLength(1);
    expect(mail[0]).toMatchObject({ template: 'accountLocked', subject: 'Your payments portal account was locked' });
    expect(mail[0]!.text).toContain('https://portal.example/connect/forgot-password');
    // Locked: the right password is refused, with the same answer as any failure (the email's window emptied first).
    await database.db.delete(signInAttempts);
    expect(await node1.signIn('u-race@example.com', password, { source: from('10.1.0.1') })).toEqual({
      outcome: 'invalid',
      reason: 'locked',
      userId: 'u-race',
    });
  });

  it('the right password in a burst of wrong ones never clears a lock set while it was checked', async () => {
    await addUser('u-burst');
    const attempts = [...Array.from({ length: 8 }, (_, index) => `wrong-${index}`), password];
    const answers = await Promise.all(attempts.map((guess, index) => node1.signIn('u-burst@example.com', guess, { source: from(`10.2.0.${index}`) })));
    const row = await userRow('u-burst');
    // 9 attempts at once exceed the threshold: locked, whatever the order in which they were checked.
    expect(row.lockoutEndDateUtc!.getTime()).toBeGreaterThan(Date.now());
    const right = answers.at(-1)!;
    if (right.outcome === 'success') {
      // Only possible if it was checked and finished before the lock: then at most threshold - 1 came before it.
      const before = await database.db.select().from(signInAttempts).where(eq(signInAttempts.outcome, 'failed'));
      expect(before.length).toBeGreaterThan(0);
    } else {
      expect(right).toMatchObject({ outcome: 'invalid' });
    }
  });

  it('failures age out after the lockout window: four old failures and a new one do not lock', async () => {
    await addUser('u-age');
    await database.db
      .update(users)
      .set({ failedSignIns: lockoutThreshold - 1, lastFailedSignInUtc: new Date(Date.now() - 16 * 60_000) })
      .where(eq(users.id, 'u-age'));
    expect(await node1.signIn('u-age@example.com', 'wrong', { source: from('10.3.0.1') })).toMatchObject({ outcome: 'invalid', reason: 'wrongPassword' });
    const row = await userRow('u-age');
    expect(row.failedSignIns).toBe(1);
    expect(row.lockoutEndDateUtc).toBeNull();
  });

  it('throttles an address after 20 failures in the window on any emails, on every node, and not other addresses', async () => {
    for (let index = 0; index < failuresPerAddress; index += 1) {
      const answer = await (index % 2 ? node1 : node2).signIn(`spray-${index}@example.com`, 'Winter2026!', { source: from('203.0.113.9') });
      expect(answer).toMatchObject({ outcome: 'invalid', reason: 'unknownAccount' });
    }
    await addUser('u-sprayed');
    const throttled = await node2.signIn('u-sprayed@example.com', password, { source: from('203.0.113.9') });
    expect(throttled.outcome).toBe('throttled');
    const retryAt = (throttled as { retryAt: Date }).retryAt.getTime();
    expect(retryAt).toBeGreaterThan(Date.now() + (throttleWindowMinutes - 1) * 60_000);
    expect(retryAt).toBeLessThanOrEqual(Date.now() + throttleWindowMinutes * 60_000);
    // Throttled attempts do not extend the window, and cost the account nothing.
    expect((await userRow('u-sprayed')).failedSignIns).toBe(0);
    expect(await node1.signIn('u-sprayed@example.com', password, { source: from('198.51.100.7') })).toMatchObject({ outcome: 'success', userId: 'u-sprayed' });
    // Among the throttled attempts audited (other tests' too, in no particular order without an ORDER BY): this one.
    const audited = await database.db.select().from(auditEvents).where(eq(auditEvents.event, 'SignInThrottled'));
    expect(audited.map((event) => event.metaData)).toContainEqual(expect.objectContaining({ clientAddress: '203.0.113.9', email: 'u-sprayed@example.com' }));
  });

  it('one sign-in page (interaction), on any node: waits grow after the third attempt, and the eleventh is refused unchecked', async () => {
    const waits: number[] = [];
    const wait = async (ms: number) => {
      waits.push(ms);
    };
    for (let index = 0; index < attemptsPerInteraction; index += 1) {
      const answer = await (index % 2 ? node1 : node2).signIn(`page-${index}@example.com`, 'guess', {
        source: from(`192.0.2.${index + 1}`),
        interactionId: 'page-one',
        wait,
      });
      expect(answer).toMatchObject({ outcome: 'invalid', reason: 'unknownAccount' });
    }
    expect(waits).toEqual([500, 1000, 2000, 4000, 4000, 4000, 4000]);
    await addUser('u-page');
    expect(await node1.signIn('u-page@example.com', password, { source: from('192.0.2.77'), interactionId: 'page-one', wait })).toEqual({
      outcome: 'interactionSpent',
    });
    expect((await userRow('u-page')).failedSignIns).toBe(0);
    // Another page is not slowed by this one's failures.
    waits.length = 0;
    expect(await node2.signIn('u-page@example.com', password, { source: from('192.0.2.77'), interactionId: 'page-two', wait })).toMatchObject({
      outcome: 'success',
      userId: 'u-page',
    });
    expect(waits).toEqual([]);
    expect([0, 1, 2, 3, 4, 5, 9].map(growingDelayMs)).toEqual([0, 0, 0, 500, 1000, 2000, 4000]);
  });

  it('throttles one email after 10 failures in the window from any addresses, known or not alike', async () => {
    for (const email of ['ghost@example.com', 'u-target@example.com']) {
      if (email.startsWith('u-')) await addUser('u-target');
      const outcomes: string[] = [];
      for (let index = 0; index <= failuresPerEmail; index += 1) {
        const answer = await node1.signIn(email, `guess-${index}`, { source: from(`192.0.2.${index}`) });
        outcomes.push(answer.outcome);
      }
      expect(outcomes).toEqual([...Array.from({ length: failuresPerEmail }, () => 'invalid'), 'throttled']);
    }
  });

  it('writes SignInFailed for unknown emails and wrong passwords, SignInSucceeded is left to the provider', async () => {
    await addUser('u-audit');
    await node1.signIn('u-audit@example.com', 'nope', { source: { address: '192.0.2.50', userAgent: 'Firefox/140' } });
    await node1.signIn('nobody-here@example.com', 'nope', { source: { address: '192.0.2.50', userAgent: 'Firefox/140' } });
    const failed = await database.db.select().from(auditEvents).where(eq(auditEvents.event, 'SignInFailed'));
    expect(failed.find((event) => event.userId === 'u-audit')!.metaData).toEqual({
      targetUserId: 'u-audit',
      clientAddress: '192.0.2.50',
      userAgent: 'Firefox/140',
      reason: 'wrongPassword',
    });
    expect(
      failed.find((event) => event.userId === 'anonymous' && (event.metaData as { email?: string }).email === 'nobody-here@example.com')!.metaData,
    ).toMatchObject({ clientAddress: '192.0.2.50', reason: 'unknownAccount' });
  });
});
