// Users on PGlite and PostgreSQL: new user ids are short and readable like the seed's ("one short, readable format
// for every record kind a person reads aloud on the phone (tickets, invoices, users), kept unique"), and a lock is
// felt at once ("A user's 'Sign-in and security' tab does not refresh after Lock or Unlock and omits the locked
// user's refused sign-in. A locked user's open tab stays on screen until its next call: sign it out through the live
// events stream."): the refused sign-in is recorded where the tab reads it, and the locked user's open streams are
// told and end.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccounts } from '../../../server/identity/accounts.ts';
import { hashPassword } from '../../../server/identity/passwords.ts';
import { eventBusOf, listening } from '../../../server/events/event-bus.ts';
import * as schema from '../../../server/db/schema.ts';
import { databaseKinds, fixture, useFixtureApp } from '../support.ts';

const { users } = fixture;
const password = 'Violet-harbour-kettle-93';

type SseEvent = { id: string | null; event: string; data: string };

/** Reads a text/event-stream body: next() is the next event (heartbeat comments skipped); ended() once it closes. */
function sseReader(response: Response) {
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  let done = false;
  const read = async (timeoutMs: number) => {
    const result = await Promise.race([reader.read(), new Promise<null>((resolve) => setTimeout(() => resolve(null), timeoutMs))]);
    if (result === null) throw new Error('nothing in time');
    if (result.done) done = true;
    else buffer += decoder.decode(result.value, { stream: true });
  };
  const next = async (timeoutMs = 5000): Promise<SseEvent> => {
    const deadline = performance.now() + timeoutMs;
    for (;;) {
      const end = buffer.indexOf('\n\n');
      if (end >= 0) {
        const lines = buffer.slice(0, end).split('\n');
        buffer = buffer.slice(end + 2);
        if (lines.every((line) => line.startsWith(':'))) continue;
        const field = (name: string) =>
          lines
            .find((line) => line.startsWith(`${name}:`))
            ?.slice(name.length + 1)
            .trim() ?? null;
        return { id: field('id'), event: field('event') ?? 'message', data: field('data') ?? '' };
      }
      if (done) throw new Error('the stream ended');
      await read(Math.max(1, deadline - performance.now()));
    }
  };
  /** Resolves true once the server has closed the stream (events before the end are dropped). */
  const ended = async (timeoutMs = 5000): Promise<boolean> => {
    const deadline = performance.now() + timeoutMs;
    while (!done) await read(Math.max(1, deadline - performance.now()));
    return true;
  };
  return { next, ended, cancel: () => reader.cancel().catch(() => undefined) };
}

describe.each(databaseKinds)('user ids and locks on %s', (kind) => {
  const harness = useFixtureApp(kind);
  let serial = 0;
  const freshEmail = (label: string) => `${label}.${kind}.${++serial}@lock.test`;
  const json = async <T>(response: Response) => (await response.json()) as T;

  beforeAll(async () => {
    // Users written by the seed carry readable ids (USR90003 the highest here): new ones continue after them.
    await harness.database.db
      .insert(schema.users)
      .values([{ id: 'USR90003', email: 'seeded@lock.test', givenName: 'Sid', familyName: 'Seeded', passwordHash: await hashPassword(password) }]);
    await harness.database.db.execute(sql`SELECT setval('user_number_seq', 90003, true)`);
  });
  afterAll(async () => eventBusOf(harness.database).close());

  /** A signed-up user of B3 (invited by the owner, then given a password), with a provider session row. */
  async function activeUser(label: string): Promise<{ userId: string; email: string }> {
    const email = freshEmail(label);
    const response = await harness.call(users.owner, 'POST', '/users', {
      emails: [email],
      policy: { roles: [], businessPolicies: [{ businessId: 'B3', roles: ['Finance'], merchantPolicies: [] }] },
    });
    expect(response.status).toBe(201);
    const userId = (await json<{ users: { userId: string }[] }>(response)).users[0]?.userId ?? '';
    await harness.database.db
      .update(schema.users)
      .set({ status: 'active', givenName: 'Lee', familyName: 'Locked', passwordHash: await hashPassword(password) })
      .where(sql`${schema.users.id} = ${userId}`);
    await harness.database.db.insert(schema.oidcPayloads).values({ id: `sess-${userId}`, type: 'Session', payload: { accountId: userId } });
    return { userId, email };
  }
  const detailOf = async (caller: string, userId: string) => json<{ version: number; status: string }>(await harness.call(caller, 'GET', `/users/${userId}`));
  const lock = async (caller: string, userId: string) => {
    const response = await harness.call(caller, 'PUT', `/users/${userId}/login`, { version: (await detailOf(caller, userId)).version, locked: true });
    expect(response.status).toBe(200);
  };

  describe('readable user ids', () => {
    it('gives users invited at the same time distinct ids in the seed’s format, after the seed’s numbers', async () => {
      const emails = Array.from({ length: 12 }, (_, index) => freshEmail(`together-${index}`));
      // Six requests at once, two people each: every transaction draws its numbers while the others are open.
      const answers = await Promise.all(
        [0, 2, 4, 6, 8, 10].map((start) =>
          harness.call(users.owner, 'POST', '/users', {
            emails: emails.slice(start, start + 2),
            policy: { roles: [], businessPolicies: [{ businessId: 'B3', roles: ['Finance'], merchantPolicies: [] }] },
          }),
        ),
      );
      expect(answers.map((answer) => answer.status)).toEqual([201, 201, 201, 201, 201, 201]);
      const ids = (
        await Promise.all(answers.map(async (answer) => (await json<{ users: { userId: string }[] }>(answer)).users.map((one) => one.userId)))
      ).flat();
      expect(ids).toHaveLength(12);
      expect(new Set(ids).size).toBe(12);
      for (const id of ids) expect(id).toMatch(/^USR\d{5}$/);
      expect(Math.min(...ids.map((id) => Number(id.slice(3))))).toBeGreaterThan(90003);
      // Each id names the account the answer says, as stored.
      const stored = await harness.database.query<{ id: string; email: string }>(`SELECT id, email FROM users WHERE id = ANY($1::text[])`, [ids]);
      expect(stored.map((row) => row.email).sort()).toEqual([...emails].sort());
    });

    it('skips a number a row already holds (written by an import or an old database)', async () => {
      const [{ n } = { n: '0' }] = await harness.database.query<{ n: string }>(`SELECT last_value AS n FROM user_number_seq`);
      const taken = `USR${String(Number(n) + 1).padStart(5, '0')}`;
      await harness.database.db
        .insert(schema.users)
        .values({ id: taken, email: freshEmail('imported'), givenName: 'Ima', familyName: 'Ported', passwordHash: '!' });
      const { userId } = await activeUser('after-import');
      expect(userId).toBe(`USR${String(Number(n) + 2).padStart(5, '0')}`);
    });
  });

  describe('a lock', () => {
    it('refuses the locked user’s calls and sign-in, and records the refused sign-in where the tab reads it', async () => {
      const { userId, email } = await activeUser('refused');
      expect((await harness.call(userId, 'GET', '/user/permissions')).status).toBe(200);
      await lock(users.admin, userId);
      expect((await harness.call(userId, 'GET', '/user/permissions')).status).toBe(401);
      expect((await harness.call(userId, 'GET', '/events')).status).toBe(401);
      const accounts = await createAccounts(harness.database);
      // The right password, refused while locked.
      expect(await accounts.signIn(email, password, { source: { address: '203.0.113.7', userAgent: 'vitest' } })).toEqual({
        outcome: 'invalid',
        reason: 'locked',
        userId,
      });
      for (const reader of [users.admin, users.owner]) {
        const trail = await json<{ results: { event: string; reason?: string | null; clientAddress?: string | null }[] }>(
          await harness.call(reader, 'GET', `/users/${userId}/audit-events`),
        );
        expect(trail.results[0]).toMatchObject({ event: 'SignInFailed', reason: 'locked', clientAddress: '203.0.113.7' });
        expect(trail.results.map((one) => one.event)).toContain('UserLocked');
      }
    });

    it('tells the locked user’s open streams (and only theirs) at once, and ends them', async () => {
      const { userId } = await activeUser('live');
      const open = async (caller: string) => {
        const response = await harness.call(caller, 'GET', '/events');
        expect(response.status).toBe(200);
        const stream = sseReader(response);
        expect((await stream.next()).event).toBe('ready');
        return stream;
      };
      const [tabOne, tabTwo, bystander] = [await open(userId), await open(userId), await open(users.owner)];
      await listening(harness.database);
      const started = performance.now();
      await lock(users.admin, userId);
      for (const tab of [tabOne, tabTwo]) {
        expect(await tab.next()).toMatchObject({ event: 'account-locked', data: '{}' });
        expect(await tab.ended()).toBe(true);
      }
      expect(performance.now() - started).toBeLessThan(5000);
      // Nobody else hears of it (the owner's stream stays open and quiet).
      await expect(bystander.next(1500)).rejects.toThrow('nothing in time');
      await bystander.cancel();
      // An unlock is no sign-out: the user signs in again and their stream opens as before.
      const unlocked = await harness.call(users.admin, 'PUT', `/users/${userId}/login`, {
        version: (await detailOf(users.admin, userId)).version,
        locked: false,
      });
      expect(unlocked.status).toBe(200);
      const again = await open(userId);
      await expect(again.next(1000)).rejects.toThrow('nothing in time');
      await again.cancel();
    });
  });
});
