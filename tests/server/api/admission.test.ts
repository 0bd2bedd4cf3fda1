// The admission gate in the app (PGlite): requests run their statements one group at a time in arrival order, a
// request whose client has gone sends no statement, a full queue answers 503 with Retry-After and an errorReport.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../../server/app.ts';
import type { Database } from '../../../server/db/client.ts';
import { createTestDatabase, fixture, insertFixtureWorld, testCardKeys, tokenFor } from '../support.ts';

const statements: { text: string; params: unknown[] }[] = [];
let database: Database;
beforeAll(async () => {
  database = await createTestDatabase('pglite', { onQuery: (text, params) => statements.push({ text, params }) });
  await insertFixtureWorld(database);
});
afterAll(async () => database?.close());

function appWith(admission: Parameters<typeof createApp>[0]['admission'], perUserInFlight?: number) {
  statements.length = 0;
  const app = createApp({
    database,
    cardKeys: testCardKeys,
    admission,
    ...(perUserInFlight ? { perUserInFlight } : {}),
    verifyAccessToken: async (token) => ({ userId: token.slice(5), scopes: ['portal'] }),
  });
  return (userId: string, path: string, init: RequestInit = {}) =>
    app.request(`/api/portal${path}`, { ...init, headers: { authorization: `Bearer ${tokenFor(userId)}` } });
}

const isPrincipalLoad = (text: string) => text.includes('from "users" where ("users"."id"');

describe('admission gate in the app', () => {
  it('with one place, each request runs all its statements before the next request starts', async () => {
    const call = appWith({ concurrent: 1, maxQueued: 100 });
    const { users } = fixture;
    const callers = [users.admin, users.partner, users.owner, users.finance, users.admin, users.partner];
    const responses = await Promise.all(callers.map((userId) => call(userId, '/transactions?pagesize=10')));
    expect(responses.map((response) => response.status)).toEqual(callers.map(() => 200));
    // Principal loads in arrival order, and between two of them only the statements of the first one's request.
    const loads = statements.flatMap((statement, index) => (isPrincipalLoad(statement.text) ? [index] : []));
    expect(loads.map((index) => statements[index]?.params[0])).toEqual(callers);
    const groupSizes = loads.map((start, position) => (loads[position + 1] ?? statements.length) - start);
    // The same request by the same caller sends the same statements: groups are whole requests, not interleavings.
    expect(groupSizes[4]).toBe(groupSizes[0]);
    expect(groupSizes[5]).toBe(groupSizes[1]);
    expect(Math.min(...groupSizes)).toBeGreaterThan(1);
  });

  it('a request whose client has already gone sends no statement', async () => {
    const call = appWith(undefined);
    const gone = new AbortController();
    gone.abort();
    const response = await call(fixture.users.admin, '/transactions?pagesize=10', { signal: gone.signal });
    expect(response.status).toBe(499);
    expect(statements).toEqual([]);
  });

  it('a full queue answers 503 with Retry-After and an errorReport; the rest are served', async () => {
    const call = appWith({ concurrent: 1, maxQueued: 2 });
    const responses = await Promise.all(Array.from({ length: 5 }, () => call(fixture.users.admin, '/transactions?pagesize=10')));
    const statuses = responses.map((response) => response.status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(3);
    const refused = responses.filter((response) => response.status === 503);
    expect(refused).toHaveLength(2);
    expect(refused[0]?.headers.get('retry-after')).toBe('2');
    expect(await refused[0]?.json()).toEqual({
      errorReport: {
        errors: [
          {
            message: 'The service is temporarily unavailable. Please try again shortly.',
            translatedMessage: 'The service is temporarily unavailable. Please try again shortly.',
          },
        ],
      },
    });
  });

  it('takes users in turn: a burst of one user delays the request of another by one turn, not by the whole burst', async () => {
    const call = appWith({ concurrent: 1, maxQueued: 100 });
    const { users } = fixture;
    const burst = Array.from({ length: 6 }, () => call(users.admin, '/transactions?pagesize=10'));
    const other = call(users.owner, '/transactions?pagesize=10');
    const responses = await Promise.all([...burst, other]);
    expect(responses.map((response) => response.status)).toEqual(responses.map(() => 200));
    const loads = statements.filter((statement) => isPrincipalLoad(statement.text)).map((statement) => statement.params[0]);
    // The first of the burst was already running; the other user goes next, before the rest of the burst.
    expect(loads).toEqual([users.admin, users.owner, users.admin, users.admin, users.admin, users.admin, users.admin]);
  });

  it('answers 429 with Retry-After past the requests a user has in progress, and serves other users meanwhile', async () => {
    const call = appWith({ concurrent: 1, maxQueued: 100 }, 3);
    const { users } = fixture;
    const burst = await Promise.all([
      ...Array.from({ length: 5 }, () => call(users.admin, '/transactions?pagesize=10')),
      call(users.owner, '/transactions?pagesize=10'),
    ]);
    const statuses = burst.map((response) => response.status);
    expect(statuses.slice(0, 5).filter((status) => status === 200)).toHaveLength(3);
    expect(statuses.slice(0, 5).filter((status) => status === 429)).toHaveLength(2);
    expect(statuses[5]).toBe(200);
    const refused = burst.find((response) => response.status === 429);
    expect(refused?.headers.get('retry-after')).toBe('1');
    expect(JSON.stringify(await refused?.json())).toContain('You have 3 requests in progress');
    // The count falls as requests finish: the same user is served again.
    expect((await call(users.admin, '/transactions?pagesize=10')).status).toBe(200);
  });
});
