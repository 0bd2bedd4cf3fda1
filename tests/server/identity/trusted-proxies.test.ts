// TRUSTED_PROXIES: the client's address is read from X-Forwarded-For only when the direct peer is a trusted
// proxy. The rule on its own, then through the real sign-in page: the address throttle counts the forwarded client
// (so one client behind the balancer does not throttle everyone), the audit rows record it, and a client that forges
// the header without a trusted proxy in front gets nothing from it.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { and, eq, sql } from 'drizzle-orm';
import * as oauth from 'oauth4webapi';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { parseTrustedProxies, resolveClientAddress, TrustedProxiesError, withClientAddress, type TrustedProxies } from '../../../server/client-address.ts';
import type { Database } from '../../../server/db/client.ts';
import { auditEvents, signInAttempts } from '../../../server/db/schema.ts';
import { failuresPerAddress } from '../../../server/identity/sign-in-guard.ts';
import { createIdentity, type Identity } from '../../../server/sign-in/router.ts';
import { createTestDatabase } from '../support.ts';

describe('the client address rule', () => {
  const trusted = parseTrustedProxies('10.0.0.0/8, 192.168.1.10, fd00::/8');

  it('believes X-Forwarded-For only from a trusted peer, from the right, skipping trusted hops', () => {
    expect(resolveClientAddress('203.0.113.9', '198.51.100.1', trusted)).toBe('203.0.113.9');
    expect(resolveClientAddress('10.1.2.3', '198.51.100.1', trusted)).toBe('198.51.100.1');
    expect(resolveClientAddress('::ffff:10.1.2.3', '198.51.100.1', trusted)).toBe('198.51.100.1');
    // What the client wrote itself is on the left: the first untrusted hop from the right wins.
    expect(resolveClientAddress('10.1.2.3', '1.2.3.4, 198.51.100.1, 192.168.1.10', trusted)).toBe('198.51.100.1');
    expect(resolveClientAddress('10.1.2.3', ['1.2.3.4', '198.51.100.1'], trusted)).toBe('198.51.100.1');
    expect(resolveClientAddress('fd00::1', '2001:db8::7', trusted)).toBe('2001:db8::7');
    // Garbage ends the walk at the last trusted hop; no header leaves the peer.
    expect(resolveClientAddress('10.1.2.3', 'not-an-address', trusted)).toBe('10.1.2.3');
    expect(resolveClientAddress('10.1.2.3', '198.51.100.1, <script>', trusted)).toBe('10.1.2.3');
    expect(resolveClientAddress('10.1.2.3', undefined, trusted)).toBe('10.1.2.3');
    expect(resolveClientAddress('10.1.2.3', '10.9.9.9', trusted)).toBe('10.9.9.9');
    expect(resolveClientAddress(undefined, '198.51.100.1', trusted)).toBe('unknown');
  });

  it('ignores the header when no proxy is trusted, knows loopback, and refuses a wrong setting', () => {
    expect(resolveClientAddress('127.0.0.1', '198.51.100.1', parseTrustedProxies(undefined))).toBe('127.0.0.1');
    expect(resolveClientAddress('::1', '198.51.100.1', parseTrustedProxies('loopback'))).toBe('198.51.100.1');
    expect(() => parseTrustedProxies('10.0.0.0/33')).toThrow(TrustedProxiesError);
    expect(() => parseTrustedProxies('proxy.internal')).toThrow(TrustedProxiesError);
    expect(() => parseTrustedProxies('10.0.0.1/8/1')).toThrow(TrustedProxiesError);
  });
});

describe('the sign-in page behind a proxy', () => {
  let server: Server;
  let database: Database;
  let identity: Identity;
  let publicUrl: string;
  let trusted: TrustedProxies = parseTrustedProxies(undefined);

  beforeAll(async () => {
    database = await createTestDatabase('pglite');
    server = createServer((req: IncomingMessage, res: ServerResponse) =>
      withClientAddress((request, response) => identity.handle(request, response), trusted)(req, res),
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    publicUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    identity = await createIdentity({ database, publicUrl, clientId: 'portal', issuer: `${publicUrl}/connect`, apiAudience: `${publicUrl}/api/portal` });
  }, 60_000);
  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await database.close();
  });
  beforeEach(async () => {
    await database.db.delete(signInAttempts);
  });

  /** A sign-in page (its interaction cookie and address) to post attempts to. */
  async function openPage() {
    const url = new URL(`${publicUrl}/connect/authorize`);
    for (const [name, value] of Object.entries({
      client_id: 'portal',
      redirect_uri: `${publicUrl}/sign-in`,
      response_type: 'code',
      scope: 'openid portal',
      state: 'state-1',
      code_challenge: await oauth.calculatePKCECodeChallenge(oauth.generateRandomCodeVerifier()),
      code_challenge_method: 'S256',
    }))
      url.searchParams.set(name, value);
    const answer = await fetch(url, { redirect: 'manual' });
    const cookie = answer.headers
      .getSetCookie()
      .map((line) => line.split(';')[0])
      .join('; ');
    return { action: new URL(answer.headers.get('location')!, publicUrl).href, cookie };
  }

  const attempt = (page: { action: string; cookie: string }, forwardedFor: string, index: number) =>
    fetch(page.action, {
      method: 'POST',
      redirect: 'manual',
      headers: { cookie: page.cookie, 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': forwardedFor },
      body: new URLSearchParams({ email: `nobody-${index}@example.com`, password: 'wrong' }).toString(),
    });

  const failuresFrom = async (address: string) =>
    (
      await database.db
        .select({ count: sql<number>`count(*)::int` })
        .from(auditEvents)
        .where(and(eq(auditEvents.event, 'SignInFailed'), sql`${auditEvents.metaData}->>'clientAddress' = ${address}`))
    )[0]!.count;

  it('with the peer trusted, the throttle counts the forwarded client: one client is stopped, another behind the same proxy is not', async () => {
    trusted = parseTrustedProxies('127.0.0.1');
    // A page for each attempt: one page takes only attemptsPerInteraction.
    for (let index = 0; index < failuresPerAddress; index += 1) {
      expect((await attempt(await openPage(), '198.51.100.7, 203.0.113.5', index)).status).toBe(200);
    }
    expect((await attempt(await openPage(), '203.0.113.5', 100)).status).toBe(429);
    // A different client behind the same proxy signs in as usual.
    expect((await attempt(await openPage(), '203.0.113.6', 101)).status).toBe(200);
    expect(await failuresFrom('203.0.113.5')).toBe(failuresPerAddress);
    expect(await failuresFrom('203.0.113.6')).toBe(1);
    expect(await failuresFrom('198.51.100.7')).toBe(0);
  });

  it('with no proxy trusted, a forged X-Forwarded-For is ignored: the peer is counted and recorded', async () => {
    trusted = parseTrustedProxies(undefined);
    const before = await failuresFrom('127.0.0.1');
    for (let index = 0; index < failuresPerAddress; index += 1) {
      expect((await attempt(await openPage(), `203.0.113.${10 + index}`, 200 + index)).status).toBe(200);
    }
    // Changing the header each time does not escape the address throttle.
    expect((await attempt(await openPage(), '203.0.113.99', 300)).status).toBe(429);
    expect(await failuresFrom('127.0.0.1')).toBe(before + failuresPerAddress);
    expect(await failuresFrom('203.0.113.10')).toBe(0);
  });
});
