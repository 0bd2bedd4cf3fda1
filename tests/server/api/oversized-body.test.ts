// A body over the limit is answered 413 before it is read; the answer closes the connection, so a keep-alive
// client (Node's fetch, undici) sends its next request on a new connection instead of the one still carrying the
// unread body. Against a real listening server: createApp behind node:http, as server/main.ts serves it.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getRequestListener } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../../server/app.ts';
import type { Database } from '../../../server/db/client.ts';
import { createTestDatabase, fixture, insertFixtureWorld, testCardKeys, tokenFor } from '../support.ts';

// One of this suite's ports (3400–3449).
const port = 3431;

describe('an oversized body over a real connection', () => {
  let database: Database;
  let server: Server;
  let base: string;

  beforeAll(async () => {
    database = await createTestDatabase('pglite');
    await insertFixtureWorld(database);
    const app = createApp({
      database,
      cardKeys: testCardKeys,
      verifyAccessToken: async (token) => ({ userId: token.slice(5), scopes: ['portal'] }),
    });
    server = createServer(getRequestListener(app.fetch));
    await new Promise<void>((done) => server.listen(port, '127.0.0.1', done));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/portal`;
  });
  afterAll(async () => {
    server?.closeAllConnections();
    await new Promise((done) => server?.close(done));
    await database?.close();
  });

  it('answers 413 with an errorReport and Connection: close, and the same client’s next request succeeds', async () => {
    // Node's own fetch and its shared keep-alive pool, as a new user's script would have them.
    const headers = { authorization: `Bearer ${tokenFor(fixture.users.admin)}`, 'content-type': 'application/json' };
    for (let round = 0; round < 3; round += 1) {
      const oversized = await fetch(`${base}/audit-events`, { method: 'POST', headers, body: JSON.stringify({ padding: 'x'.repeat(3 * 1024 * 1024) }) });
      expect(oversized.status).toBe(413);
      expect(oversized.headers.get('connection')).toBe('close');
      expect(await oversized.json()).toEqual({
        errorReport: {
          errors: [{ message: 'The request body may have 1048576 bytes maximum.', translatedMessage: 'The request body may have 1048576 bytes maximum.' }],
        },
      });

      const next = await fetch(`${base}/user/permissions`, { headers });
      expect(next.status).toBe(200);
      expect(await next.json()).toHaveProperty('permissions');
    }
  }, 30_000);

  it('keeps the connection open for an ordinary answer', async () => {
    const response = await fetch(`${base}/user/permissions`, { headers: { authorization: `Bearer ${tokenFor(fixture.users.admin)}` } });
    expect(response.status).toBe(200);
    expect(response.headers.get('connection')).not.toBe('close');
    await response.arrayBuffer();
  });
});
