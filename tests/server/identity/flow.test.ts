// The whole browser flow against a real HTTP server: discovery, authorize with PKCE, our sign-in page,
// automatic consent, code exchange, userinfo, refresh rotation and reuse detection, lockout and sign-out.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { and, eq } from 'drizzle-orm';
import { decodeProtectedHeader } from 'jose';
import * as oauth from 'oauth4webapi';
import { getRequestListener } from '@hono/node-server';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createApp } from '../../../server/app.ts';
import { createTestDatabase, testCardKeys } from '../support.ts';
import type { Database } from '../../../server/db/client.ts';
import { auditEvents, oidcPayloads, outboundEmails, signInAttempts, users } from '../../../server/db/schema.ts';
import { attemptsPerInteraction, failuresPerAddress } from '../../../server/identity/sign-in-guard.ts';
import { lockoutThreshold } from '../../../server/identity/accounts.ts';
import { createAdapterClass, purgeExpiredPayloads, revokeAccountAccess, startPayloadPurge } from '../../../server/identity/adapter.ts';
import { hashPassword } from '../../../server/identity/passwords.ts';
import { createIdentity, signInPostsPerAddress, type Identity } from '../../../server/sign-in/router.ts';
import { parseTrustedProxies, withClientAddress } from '../../../server/client-address.ts';

const invalidMessage = 'The email address or password is incorrect.';
const insecure = { [oauth.allowInsecureRequests]: true } as const;
const client: oauth.Client = { client_id: 'portal' };
const clientAuth = oauth.None();

let server: Server;
let database: Database;
let identity: Identity;
let publicUrl: string;
let issuer: string;
let apiAudience: string;
let redirectUri: string;
let as: oauth.AuthorizationServer;
let apiListener: ReturnType<typeof getRequestListener>;

async function addUser(id: string, email: string, password = 'portal-demo') {
  await database.db.insert(users).values({
    id,
    email,
    givenName: 'Dana',
    familyName: 'Demo',
    passwordHash: await hashPassword(password),
  });
}

/** A browser: a tiny cookie jar (names only, every cookie to every request) and manual redirects. */
class Browser {
  readonly cookies = new Map<string, string>();

  async request(url: string, init: { method?: string; body?: URLSearchParams; headers?: Record<string, string> } = {}) {
    const headers: Record<string, string> = { ...init.headers };
    if (this.cookies.size) headers.cookie = [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    if (init.body) headers['content-type'] = 'application/x-www-form-urlencoded';
    const response = await fetch(url, {
      method: init.method ?? 'GET',
      headers,
      body: init.body?.toString(),
      redirect: 'manual',
    });
    for (const line of response.headers.getSetCookie()) {
      const [pair = '', ...attributes] = line.split(';');
      const index = pair.indexOf('=');
      const name = pair.slice(0, index).trim();
      const value = pair.slice(index + 1).trim();
      const expires = attributes.find((a) => a.trim().toLowerCase().startsWith('expires='));
      const gone = !value || (expires && new Date(expires.split('=')[1] ?? '').getTime() < Date.now());
      if (gone) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return response;
  }

  /** Follows redirects inside the provider; stops at a page or at a redirect out of /connect. */
  async follow(url: string, init: { method?: string; body?: URLSearchParams; headers?: Record<string, string> } = {}) {
    let response = await this.request(url, init);
    let current = url;
    for (let hops = 0; hops < 10 && response.status >= 300 && response.status < 400; hops += 1) {
      const location = new URL(response.headers.get('location') ?? '', current).href;
      if (!location.startsWith(`${publicUrl}/connect/`)) return { location, response };
      current = location;
      response = await this.request(current);
    }
    return { location: undefined, response, url: current };
  }
}

async function authorizeUrl(extra: Record<string, string> = {}) {
  const codeVerifier = oauth.generateRandomCodeVerifier();
  const state = oauth.generateRandomState();
  const url = new URL(as.authorization_endpoint!);
  url.searchParams.set('client_id', client.client_id);
  url.searchParams.set('redirect_uri', redirectUri);
  url.searchParams.set('response_type', 'code');
  url.searchParams.set('scope', 'openid profile identity portal offline_access');
  url.searchParams.set('resource', apiAudience);
  url.searchParams.set('state', state);
  url.searchParams.set('code_challenge', await oauth.calculatePKCECodeChallenge(codeVerifier));
  url.searchParams.set('code_challenge_method', 'S256');
  for (const [name, value] of Object.entries(extra)) url.searchParams.set(name, value);
  return { url: url.href, codeVerifier, state };
}

/** Opens the sign-in page of a fresh authorization request. */
async function openSignIn(browser: Browser) {
  const request = await authorizeUrl();
  const { response, url } = await browser.follow(request.url);
  expect(response.status).toBe(200);
  expect(url).toMatch(/\/connect\/interaction\/[^/]+$/);
  return { ...request, interactionUrl: url!, response, html: await response.text() };
}

async function submit(browser: Browser, interactionUrl: string, email: string, password: string, headers: Record<string, string> = {}) {
  return browser.follow(interactionUrl, { method: 'POST', body: new URLSearchParams({ email, password }), headers });
}

function alertText(html: string): string | undefined {
  return /<p class="alert" role="alert">([^<]*)<\/p>/.exec(html)?.[1];
}

async function signIn(email: string, password = 'portal-demo') {
  const browser = new Browser();
  const started = await openSignIn(browser);
  const { location } = await submit(browser, started.interactionUrl, email, password);
  expect(location).toBeDefined();
  expect(location!.startsWith(redirectUri)).toBe(true);
  const params = oauth.validateAuthResponse(as, client, new URL(location!), started.state);
  const response = await oauth.authorizationCodeGrantRequest(as, client, clientAuth, params, redirectUri, started.codeVerifier, {
    ...insecure,
    additionalParameters: { resource: apiAudience },
  });
  return { browser, tokens: await oauth.processAuthorizationCodeResponse(as, client, response) };
}

async function refresh(refreshToken: string) {
  const response = await oauth.refreshTokenGrantRequest(as, client, clientAuth, refreshToken, insecure);
  return oauth.processRefreshTokenResponse(as, client, response);
}

async function expectInvalidGrant(promise: Promise<unknown>) {
  await expect(promise).rejects.toMatchObject({ error: 'invalid_grant' });
}

beforeAll(async () => {
  database = await createTestDatabase('pglite');
  // As main.ts: the client's address resolved first (this test's client is its own trusted proxy, so a burst can
  // come from many addresses through X-Forwarded-For).
  server = createServer(
    withClientAddress((req, res) => {
      const path = req.url ?? '/';
      if (path.startsWith('/connect') || path.startsWith('/.well-known/')) identity.handle(req, res);
      else void apiListener(req, res);
    }, parseTrustedProxies('loopback')),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  publicUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  issuer = `${publicUrl}/connect`;
  apiAudience = `${publicUrl}/api/portal`;
  redirectUri = `${publicUrl}/sign-in`;
  identity = await createIdentity({ database, publicUrl, clientId: 'portal', issuer, apiAudience });
  // The real Portal API behind the same server, verifying tokens as main.ts does.
  apiListener = getRequestListener(createApp({ database, cardKeys: testCardKeys, verifyAccessToken: identity.verifyAccessToken, publicUrl }).fetch);
  await addUser('u-demo', 'demo@example.com');

  const issuerUrl = new URL(issuer);
  as = await oauth.processDiscoveryResponse(issuerUrl, await oauth.discoveryRequest(issuerUrl, insecure));
}, 60_000);

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await database.close();
});

describe('discovery', () => {
  it('publishes the /connect endpoints, S256 only and code only', () => {
    expect(as.issuer).toBe(issuer);
    expect(as.authorization_endpoint).toBe(`${issuer}/authorize`);
    expect(as.token_endpoint).toBe(`${issuer}/token`);
    expect(as.userinfo_endpoint).toBe(`${issuer}/userinfo`);
    expect(as.end_session_endpoint).toBe(`${issuer}/endsession`);
    expect(as.jwks_uri).toBe(`${issuer}/jwks`);
    expect(as.code_challenge_methods_supported).toEqual(['S256']);
    expect(as.response_types_supported).toEqual(['code']);
    expect(as.scopes_supported).toEqual(expect.arrayContaining(['openid', 'profile', 'email', 'identity', 'portal', 'offline_access']));
  });

  it('answers the root .well-known form with the same document', async () => {
    const response = await fetch(`${publicUrl}/.well-known/openid-configuration`);
    expect(response.status).toBe(200);
    expect((await response.json()).issuer).toBe(issuer);
  });
});

describe('sign-in page', () => {
  it('is plain en-GB HTML with labelled fields, no inline script or style, and a strict CSP', async () => {
    const { html, response } = await openSignIn(new Browser());
    expect(html).toContain('<html lang="en-GB">');
    expect(html).toMatch(/<h1>[^<]+<\/h1>/);
    expect(html).toContain('<label for="email">Email</label>');
    expect(html).toContain('<input id="email" name="email" type="email"');
    expect(html).toContain('<label for="password">Password</label>');
    expect(html).toContain('<input id="password" name="password" type="password"');
    expect(html).toContain('<button type="submit">Sign in</button>');
    // Keyboard first: typing on arrival goes into the email field.
    expect(html).toMatch(/<input id="email"[^>]*\sautofocus>/);
    expect(html).not.toMatch(/<input id="password"[^>]*\sautofocus/);
    expect(html).not.toMatch(/<script|<style|\sstyle=|\son[a-z]+=/i);
    expect(response.headers.get('content-security-policy')).toBe(
      `default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; frame-ancestors 'none'; form-action 'self' ${publicUrl}`,
    );
    const css = await fetch(`${publicUrl}/connect/assets/sign-in.css`);
    expect(css.status).toBe(200);
    expect(css.headers.get('content-type')).toMatch(/^text\/css/);
  });
});

describe('malformed addresses', () => {
  it('answers a sign-in page address with a broken escape with 404, not a server error', async () => {
    for (const path of ['/connect/interaction/%E0%A4%A', '/connect/interaction/%', '/connect/interaction/%ZZ']) {
      const response = await fetch(`${publicUrl}${path}`);
      expect(response.status, path).toBe(404);
      expect(await response.json()).toEqual({ error: 'not_found' });
    }
    // Plain http here: no Strict-Transport-Security (tests/server/platform/security-headers.test.ts has https).
    expect((await fetch(`${publicUrl}/connect/interaction/%E0%A4%A`)).headers.get('strict-transport-security')).toBeNull();
  });
});

describe('authorization code flow', () => {
  let firstRefreshToken: string;

  it('signs in and returns a JWT access token for the API, an ID token and a refresh token', async () => {
    const { tokens } = await signIn('demo@example.com');
    expect(tokens.token_type.toLowerCase()).toBe('bearer');
    expect(tokens.expires_in).toBe(900);
    expect(tokens.id_token).toBeTypeOf('string');
    expect(tokens.refresh_token).toBeTypeOf('string');
    expect(tokens.scope?.split(' ')).toEqual(expect.arrayContaining(['openid', 'offline_access', 'portal']));

    expect(decodeProtectedHeader(tokens.access_token).typ).toBe('at+jwt');
    const verified = await identity.verifyAccessToken(tokens.access_token);
    expect(verified.userId).toBe('u-demo');
    expect(verified.scopes).toEqual(expect.arrayContaining(['openid', 'profile', 'identity', 'portal']));

    const idClaims = oauth.getValidatedIdTokenClaims(tokens)!;
    expect(idClaims.sub).toBe('u-demo');
    expect(idClaims.email).toBe('demo@example.com');
    expect(idClaims.name).toBe('Dana Demo');

    const userinfo = await oauth.processUserInfoResponse(as, client, 'u-demo', await oauth.userInfoRequest(as, client, tokens.access_token, insecure));
    expect(userinfo).toMatchObject({ sub: 'u-demo', email: 'demo@example.com', given_name: 'Dana', family_name: 'Demo' });

    firstRefreshToken = tokens.refresh_token!;
  });

  it('rotates the refresh token, and reuse of a used one revokes the whole family', async () => {
    const rotated = await refresh(firstRefreshToken);
    expect(rotated.refresh_token).toBeTypeOf('string');
    expect(rotated.refresh_token).not.toBe(firstRefreshToken);
    // No resource sent on refresh: still an access token for the API.
    expect((await identity.verifyAccessToken(rotated.access_token)).userId).toBe('u-demo');

    await expectInvalidGrant(refresh(firstRefreshToken));
    await expectInvalidGrant(refresh(rotated.refresh_token!));
  });

  it('refuses tokens that are not access tokens for the API', async () => {
    const { tokens } = await signIn('demo@example.com');
    await expect(identity.verifyAccessToken(tokens.id_token!)).rejects.toThrow();
    await expect(identity.verifyAccessToken(`${tokens.access_token.slice(0, -4)}AAAA`)).rejects.toThrow();
    await expect(identity.verifyAccessToken('not-a-token')).rejects.toThrow();
    const response = await fetch(as.userinfo_endpoint!, { headers: { authorization: `Bearer ${tokens.id_token}` } });
    expect(response.status).toBe(401);
  });

  it('refuses the plain PKCE method and the implicit flow', async () => {
    const plain = await authorizeUrl({ code_challenge: oauth.generateRandomCodeVerifier(), code_challenge_method: 'plain' });
    const refusedPlain = await new Browser().follow(plain.url);
    expect(refusedPlain.location).toBeDefined();
    const plainParams = new URL(refusedPlain.location!).searchParams;
    expect(plainParams.get('error')).toBe('invalid_request');
    expect(plainParams.get('code')).toBeNull();

    const implicit = await authorizeUrl({ response_type: 'token' });
    const refusedImplicit = await new Browser().follow(implicit.url);
    expect(refusedImplicit.location).toBeDefined();
    // An implicit request answers in the fragment (its default response mode).
    const implicitUrl = new URL(refusedImplicit.location!);
    const implicitParams = new URLSearchParams(implicitUrl.hash.slice(1) || implicitUrl.search);
    expect(implicitParams.get('error')).toBe('unsupported_response_type');
    expect(implicitParams.get('access_token')).toBeNull();
  });

  it('authorizes again in the same browser without the sign-in page (session and grant reused)', async () => {
    const { browser } = await signIn('demo@example.com');
    const again = await authorizeUrl();
    const { location } = await browser.follow(again.url);
    expect(location?.startsWith(redirectUri)).toBe(true);
    const params = oauth.validateAuthResponse(as, client, new URL(location!), again.state);
    const response = await oauth.authorizationCodeGrantRequest(as, client, clientAuth, params, redirectUri, again.codeVerifier, insecure);
    const tokens = await oauth.processAuthorizationCodeResponse(as, client, response);
    expect(tokens.refresh_token).toBeTypeOf('string');
    expect((await identity.verifyAccessToken(tokens.access_token)).userId).toBe('u-demo');
  });

  it('ends refresh tokens at sign-out', async () => {
    const { browser, tokens } = await signIn('demo@example.com');
    const endSession = new URL(as.end_session_endpoint!);
    endSession.searchParams.set('id_token_hint', tokens.id_token!);
    endSession.searchParams.set('post_logout_redirect_uri', `${publicUrl}/signed-out`);
    const confirm = await browser.request(endSession.href);
    expect(confirm.status).toBe(200);
    expect(confirm.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    const page = await confirm.text();
    expect(page).toContain('<html lang="en-GB">');
    const form = /<form id="op.logoutForm" method="post" action="([^"]+)"><input type="hidden" name="xsrf" value="([^"]+)"\/>/.exec(page);
    expect(form).not.toBeNull();
    const done = await browser.request(form![1]!, { method: 'POST', body: new URLSearchParams({ xsrf: form![2]!, logout: 'yes' }) });
    expect(done.status).toBe(303);
    expect(done.headers.get('location')).toBe(`${publicUrl}/signed-out`);
    await expectInvalidGrant(refresh(tokens.refresh_token!));
  });
});

describe('sessions that end', () => {
  const callApi = (accessToken: string) => fetch(`${publicUrl}/api/portal/user/permissions`, { headers: { authorization: `Bearer ${accessToken}` } });
  /** Polls until the API refuses the token; the time it took (a revoked grant is trusted for at most a few seconds). */
  async function refusedWithin(accessToken: string, ms: number): Promise<number> {
    const started = Date.now();
    for (;;) {
      if ((await callApi(accessToken)).status === 401) return Date.now() - started;
      if (Date.now() - started > ms) throw new Error(`the token was still accepted after ${ms} ms`);
      await new Promise((done) => setTimeout(done, 200));
    }
  }
  async function endSession(browser: Browser, idToken: string) {
    const endSessionUrl = new URL(as.end_session_endpoint!);
    endSessionUrl.searchParams.set('id_token_hint', idToken);
    endSessionUrl.searchParams.set('post_logout_redirect_uri', `${publicUrl}/signed-out`);
    const page = await (await browser.request(endSessionUrl.href)).text();
    const form = /<form id="op.logoutForm" method="post" action="([^"]+)"><input type="hidden" name="xsrf" value="([^"]+)"\/>/.exec(page);
    expect((await browser.request(form![1]!, { method: 'POST', body: new URLSearchParams({ xsrf: form![2]!, logout: 'yes' }) })).status).toBe(303);
  }

  it('access tokens name their grant', async () => {
    const { tokens } = await signIn('demo@example.com');
    const verified = await identity.verifyAccessToken(tokens.access_token);
    const [grant] = await database.db
      .select()
      .from(oidcPayloads)
      .where(and(eq(oidcPayloads.type, 'Grant'), eq(oidcPayloads.id, verified.grantId)));
    expect(grant).toBeDefined();
  });

  it("a signed-out session's access token stops working within seconds", async () => {
    const { browser, tokens } = await signIn('demo@example.com');
    expect((await callApi(tokens.access_token)).status).toBe(200);
    await endSession(browser, tokens.id_token!);
    const tookMs = await refusedWithin(tokens.access_token, 7_000);
    console.log(`signed-out access token refused after ${tookMs} ms`);
  });

  it('a replayed refresh token ends the access tokens of its whole family', async () => {
    const { tokens } = await signIn('demo@example.com');
    const rotated = await refresh(tokens.refresh_token!);
    expect((await callApi(rotated.access_token)).status).toBe(200);
    await expectInvalidGrant(refresh(tokens.refresh_token!));
    await refusedWithin(rotated.access_token, 7_000);
    await refusedWithin(tokens.access_token, 7_000);
  });

  it('revoking the refresh token (the inactivity sign-out) ends the provider session: the next sign-in asks for the password', async () => {
    const { browser, tokens } = await signIn('demo@example.com');
    const revoked = await oauth.revocationRequest(as, client, clientAuth, tokens.refresh_token!, {
      ...insecure,
      additionalParameters: { token_type_hint: 'refresh_token' },
    });
    await oauth.processRevocationResponse(revoked);
    const again = await authorizeUrl();
    const { location, url } = await browser.follow(again.url);
    expect(location, 'no code without a password').toBeUndefined();
    expect(url).toMatch(/\/connect\/interaction\/[^/]+$/);
  });

  it('a locked account loses its access token and its refresh token at once', async () => {
    await addUser('u-locked-out', 'locked-out@example.com');
    const { tokens } = await signIn('locked-out@example.com');
    expect((await callApi(tokens.access_token)).status).toBe(200);
    await database.db
      .update(users)
      .set({ lockoutEndDateUtc: new Date(Date.now() + 15 * 60_000) })
      .where(eq(users.id, 'u-locked-out'));
    expect((await callApi(tokens.access_token)).status, 'the principal of a locked account is refused').toBe(401);
    await expectInvalidGrant(refresh(tokens.refresh_token!));
  });

  it("revoking an account's access (lock, deletion, lost roles) ends its sessions: nothing comes back after an unlock", async () => {
    await addUser('u-revoked', 'revoked@example.com');
    const { browser, tokens } = await signIn('revoked@example.com');
    expect(await revokeAccountAccess(database.db, 'u-revoked')).toBeGreaterThan(0);
    await refusedWithin(tokens.access_token, 7_000);
    await expectInvalidGrant(refresh(tokens.refresh_token!));
    const again = await authorizeUrl();
    const { location, url } = await browser.follow(again.url);
    expect(location, 'the provider cookie signs nobody in').toBeUndefined();
    expect(url).toMatch(/\/connect\/interaction\/[^/]+$/);
  });
});

describe('wrong credentials and lockout', () => {
  // Each test starts with empty throttle windows (they all come from this one address).
  beforeEach(async () => {
    await database.db.delete(signInAttempts);
  });

  it('shows the error for a wrong password, keeping the email', async () => {
    await addUser('u-wrong', 'wrong@example.com');
    const browser = new Browser();
    const { interactionUrl } = await openSignIn(browser);
    const { response, location } = await submit(browser, interactionUrl, 'wrong@example.com', 'not-it');
    expect(location).toBeUndefined();
    const html = await response.text();
    expect(alertText(html)).toBe(invalidMessage);
    expect(html).toContain('value="wrong@example.com"');
    // The email is kept, so the password is where typing goes next.
    expect(html).toMatch(/<input id="password"[^>]*\sautofocus>/);
    expect(html).not.toMatch(/<input id="email"[^>]*\sautofocus/);
    const [row] = await database.db.select().from(users).where(eq(users.id, 'u-wrong'));
    expect(row?.failedSignIns).toBe(1);

    // The right password afterwards works and resets the counter.
    const again = await submit(browser, interactionUrl, 'wrong@example.com', 'portal-demo');
    expect(again.location?.startsWith(redirectUri)).toBe(true);
    const [after] = await database.db.select().from(users).where(eq(users.id, 'u-wrong'));
    expect(after?.failedSignIns).toBe(0);
  });

  it('gives an unknown email the same message as a wrong password', async () => {
    const browser = new Browser();
    const { interactionUrl } = await openSignIn(browser);
    const unknown = await submit(browser, interactionUrl, 'nobody@example.com', 'portal-demo');
    const wrong = await submit(browser, interactionUrl, 'demo@example.com', 'not-it');
    expect(alertText(await unknown.response.text())).toBe(invalidMessage);
    expect(alertText(await wrong.response.text())).toBe(invalidMessage);
  });

  it('escapes what the user typed', async () => {
    const browser = new Browser();
    const { interactionUrl } = await openSignIn(browser);
    const { response } = await submit(browser, interactionUrl, '"><script>alert(1)</script>', 'x');
    const html = await response.text();
    expect(html).not.toContain('<script>');
    expect(html).toContain('&quot;&gt;&lt;script&gt;');
  });

  it('locks the account after five wrong passwords, refusing even the right one, with the same message as any failure', async () => {
    await addUser('u-lock', 'lock@example.com');
    const browser = new Browser();
    const { interactionUrl } = await openSignIn(browser);
    const alerts: (string | undefined)[] = [];
    for (let attempt = 1; attempt <= 5; attempt += 1) {
      const { response } = await submit(browser, interactionUrl, 'lock@example.com', `wrong-${attempt}`);
      alerts.push(alertText(await response.text()));
    }
    expect(alerts).toEqual(Array.from({ length: 5 }, () => invalidMessage));

    const [row] = await database.db.select().from(users).where(eq(users.id, 'u-lock'));
    const until = row!.lockoutEndDateUtc!;
    expect(until.getTime() - Date.now()).toBeGreaterThan(14 * 60_000);
    expect(until.getTime() - Date.now()).toBeLessThanOrEqual(15 * 60_000);

    // Locked: the right password is refused with the message of a wrong one (the page does not tell that the
    // account exists, let alone that it is locked); the holder is told by email.
    const right = await submit(browser, interactionUrl, 'lock@example.com', 'portal-demo');
    expect(right.location).toBeUndefined();
    expect(alertText(await right.response.text())).toBe(invalidMessage);
    const mail = await database.db.select().from(outboundEmails).where(eq(outboundEmails.recipient, 'lock@example.com'));
    expect(mail.map((one) => one.template)).toEqual(['accountLocked']);
    expect(mail[0]!.text).toContain('locked until');
  });

  it('a burst of 20 wrong passwords and the right one sent at once on one page (from 21 addresses): all counted, the right one refused, locked once', async () => {
    await addUser('u-burst', 'burst@example.com');
    const browser = new Browser();
    const { interactionUrl } = await openSignIn(browser);
    const passwords = [...Array.from({ length: 20 }, (_, index) => `wrong-${index}`), 'portal-demo'];
    const answers = await Promise.all(
      passwords.map((password, index) => submit(browser, interactionUrl, 'burst@example.com', password, { 'x-forwarded-for': `192.0.2.${index + 1}` })),
    );
    expect(answers.every((answer) => answer.location === undefined)).toBe(true);
    const alerts = await Promise.all(answers.map(async (answer) => alertText(await answer.response.text())));
    // Past 10 attempts on one email the throttle answers before any password is checked; the rest are plain failures.
    for (const alert of alerts) expect(alert === invalidMessage || /^Too many attempts\. Try again after \d{2}:\d{2}\.$/.test(alert ?? '')).toBe(true);
    expect(alerts.filter((alert) => alert === invalidMessage).length).toBeGreaterThanOrEqual(lockoutThreshold);
    const [row] = await database.db.select().from(users).where(eq(users.id, 'u-burst'));
    expect(row!.lockoutEndDateUtc!.getTime()).toBeGreaterThan(Date.now());
    const locks = await database.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.event, 'AccountLocked'), eq(auditEvents.userId, 'u-burst')));
    expect(locks).toHaveLength(1);
  });

  it('answers an unknown email, a wrong password and a locked account alike, in similar time', async () => {
    await addUser('u-timing', 'timing@example.com');
    await database.db
      .update(users)
      .set({ lockoutEndDateUtc: new Date(Date.now() + 10 * 60_000) })
      .where(eq(users.id, 'u-lock'));
    const browser = new Browser();
    const cases = {
      unknown: ['nobody-at-all@example.com', 'portal-demo'],
      wrong: ['timing@example.com', 'not-it'],
      locked: ['lock@example.com', 'portal-demo'],
    } as const;
    const runs: Record<string, { ms: number; alert: string | null | undefined; status: number }[]> = { unknown: [], wrong: [], locked: [] };
    // The cases take turns (so a busy moment of the machine falls on all of them), each attempt on a new page (a
    // page's fourth attempt is slowed on purpose: growingDelayMs); only the post is timed.
    for (let round = 0; round < 3; round += 1) {
      for (const [name, [email, password]] of Object.entries(cases)) {
        const { interactionUrl } = await openSignIn(browser);
        const started = performance.now();
        const { response } = await submit(browser, interactionUrl, email, password);
        const html = await response.text();
        runs[name]!.push({ ms: performance.now() - started, alert: alertText(html), status: response.status });
      }
    }
    const medians: Record<string, number> = {};
    for (const [name, timings] of Object.entries(runs)) {
      expect(timings.map((one) => [one.status, one.alert])).toEqual(timings.map(() => [200, invalidMessage]));
      medians[name] = timings.map((one) => one.ms).sort((a, b) => a - b)[1]!;
    }
    // Each does one scrypt check: the slowest is not twice the fastest.
    const values = Object.values(medians);
    expect(Math.max(...values)).toBeLessThan(2 * Math.min(...values) + 20);
  });

  it('a flood from one address is cut at the door: a few posts in progress, the rest 429 at once without touching the database', async () => {
    const browser = new Browser();
    const { interactionUrl } = await openSignIn(browser);
    const flood = { 'x-forwarded-for': '198.51.100.66' };
    const answers = await Promise.all(Array.from({ length: 30 }, (_, index) => submit(browser, interactionUrl, `flood-${index}@example.com`, 'guess', flood)));
    const refused = answers.filter((answer) => answer.response.status === 429);
    expect(refused.length).toBeGreaterThanOrEqual(30 - 2 * signInPostsPerAddress);
    for (const answer of refused) {
      expect(answer.response.headers.get('retry-after')).toBe('1');
      expect(alertText(await answer.response.text())).toBe('Too many requests. Please wait a few minutes and try again.');
    }
    // Only what got through was written down; another address is not held up.
    const written = await database.db.select().from(signInAttempts).where(eq(signInAttempts.address, '198.51.100.66'));
    expect(written).toHaveLength(30 - refused.length);
    const other = await submit(browser, interactionUrl, 'demo@example.com', 'portal-demo', { 'x-forwarded-for': '198.51.100.67' });
    expect(other.location?.startsWith(redirectUri)).toBe(true);
  });

  it('throttles one address after 20 failures in 15 minutes whatever the emails, saying when to try again', async () => {
    const browser = new Browser();
    // A sprayer takes a new sign-in page for every guess (one page takes at most attemptsPerInteraction).
    for (let index = 0; index < failuresPerAddress; index += 1)
      await submit(browser, (await openSignIn(browser)).interactionUrl, `spray-${index}@example.com`, 'Summer2026!');
    const { interactionUrl } = await openSignIn(browser);
    const { response } = await submit(browser, interactionUrl, 'demo@example.com', 'portal-demo');
    expect(response.status).toBe(429);
    expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(alertText(await response.text())).toMatch(/^Too many attempts\. Try again after \d{2}:\d{2}\.$/);
    // The window slides: once its oldest failures are older than 15 minutes, sign-in works again.
    await database.db.update(signInAttempts).set({ attemptedAt: new Date(Date.now() - 16 * 60_000) });
    const ok = await submit(browser, interactionUrl, 'demo@example.com', 'portal-demo');
    expect(ok.location?.startsWith(redirectUri)).toBe(true);
  });

  it('a sign-in page takes at most 10 attempts, slowed after the third; the next, even the right password, is told to start again', async () => {
    const browser = new Browser();
    const { interactionUrl } = await openSignIn(browser);
    // Unknown emails on purpose: no account is locked by them and the per-email throttle does not apply.
    for (let index = 0; index < attemptsPerInteraction; index += 1) {
      const { response } = await submit(browser, interactionUrl, `page-${index}@example.com`, 'guess', { 'x-forwarded-for': `203.0.113.${index + 1}` });
      expect(alertText(await response.text())).toBe(invalidMessage);
    }
    const spent = await submit(browser, interactionUrl, 'demo@example.com', 'portal-demo', { 'x-forwarded-for': '203.0.113.99' });
    expect(spent.response.status).toBe(429);
    expect(spent.location).toBeUndefined();
    const html = await spent.response.text();
    expect(html).toContain('Too many attempts on this page. Open the portal again to sign in.');
    expect(html).not.toContain('name="password"');
    const recorded = await database.db.select().from(auditEvents).where(eq(auditEvents.event, 'SignInThrottled'));
    expect(recorded.some((event) => (event.metaData as Record<string, unknown>).interactionSpent === true)).toBe(true);
    // A new page from the portal signs in.
    const again = await openSignIn(browser);
    const ok = await submit(browser, again.interactionUrl, 'demo@example.com', 'portal-demo', { 'x-forwarded-for': '203.0.113.99' });
    expect(ok.location?.startsWith(redirectUri)).toBe(true);
  });

  it('records sign-in, failure, lockout and sign-out in the audit trail with the address and user agent', async () => {
    const signedOutBefore = (
      await database.db
        .select()
        .from(auditEvents)
        .where(and(eq(auditEvents.event, 'SignedOut'), eq(auditEvents.userId, 'u-demo')))
    ).length;
    const { tokens, browser } = await signIn('demo@example.com');
    const events = await database.db.select().from(auditEvents).where(eq(auditEvents.userId, 'u-demo'));
    const succeeded = events.filter((event) => event.event === 'SignInSucceeded').at(-1);
    expect(succeeded?.metaData).toMatchObject({
      targetUserId: 'u-demo',
      clientAddress: expect.stringMatching(/127\.0\.0\.1|::1/),
      userAgent: expect.any(String),
    });
    const failed = await database.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.event, 'SignInFailed'), eq(auditEvents.userId, 'anonymous')));
    expect(failed.length).toBeGreaterThan(0);
    expect(failed[0]!.metaData).toMatchObject({ reason: 'unknownAccount', email: expect.any(String) });
    const locked = await database.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.event, 'AccountLocked'), eq(auditEvents.userId, 'u-lock')));
    expect(locked).toHaveLength(1);
    // Sign-out at the end-session endpoint.
    const endSession = new URL(as.end_session_endpoint!);
    endSession.searchParams.set('id_token_hint', tokens.id_token!);
    endSession.searchParams.set('post_logout_redirect_uri', `${publicUrl}/signed-out`);
    const page = await (await browser.request(endSession.href)).text();
    const form = /<form id="op.logoutForm" method="post" action="([^"]+)"><input type="hidden" name="xsrf" value="([^"]+)"\/>/.exec(page);
    expect(form).not.toBeNull();
    expect((await browser.request(form![1]!, { method: 'POST', body: new URLSearchParams({ xsrf: form![2]!, logout: 'yes' }) })).status).toBe(303);
    await vi.waitFor(async () => {
      const signedOut = await database.db
        .select()
        .from(auditEvents)
        .where(and(eq(auditEvents.event, 'SignedOut'), eq(auditEvents.userId, 'u-demo')));
      expect(signedOut).toHaveLength(signedOutBefore + 1);
      expect(signedOut.at(-1)!.metaData).toMatchObject({ targetUserId: 'u-demo', clientAddress: expect.any(String) });
    });
  });
});

describe('provider state', () => {
  it('lives in the oidc_payloads table', async () => {
    const rows = await database.db.select({ type: oidcPayloads.type }).from(oidcPayloads);
    const types = new Set(rows.map((row) => row.type));
    for (const type of ['Session', 'Grant', 'Interaction', 'RefreshToken']) expect(types.has(type)).toBe(true);
  });

  it('ignores expired rows', async () => {
    const Adapter = createAdapterClass(database);
    const sessions = new Adapter('Session');
    await sessions.upsert('s-expired', { uid: 'uid-expired', accountId: 'u-demo' }, 60);
    expect(await sessions.find('s-expired')).toMatchObject({ accountId: 'u-demo' });
    expect(await sessions.findByUid('uid-expired')).toMatchObject({ accountId: 'u-demo' });
    await database.db
      .update(oidcPayloads)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(oidcPayloads.id, 's-expired'));
    expect(await sessions.find('s-expired')).toBeUndefined();
    expect(await sessions.findByUid('uid-expired')).toBeUndefined();
    await purgeExpiredPayloads(database);
    expect(await database.db.select().from(oidcPayloads).where(eq(oidcPayloads.id, 's-expired'))).toHaveLength(0);
  });

  it('purges expired rows at start and on its interval, keeps live ones, and reports a failure without throwing', async () => {
    const Adapter = createAdapterClass(database);
    const sessions = new Adapter('Session');
    await sessions.upsert('s-old', { accountId: 'u-demo' }, 60);
    await sessions.upsert('s-live', { accountId: 'u-demo' }, 60);
    await database.db
      .update(oidcPayloads)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(oidcPayloads.id, 's-old'));
    const lines: string[] = [];
    const purge = startPayloadPurge(database, { intervalMs: 50, log: (line) => lines.push(line) });
    try {
      await vi.waitFor(() => expect(lines.some((line) => /^purged \d+ expired identity records$/.test(line))).toBe(true));
      expect(await database.db.select().from(oidcPayloads).where(eq(oidcPayloads.id, 's-old'))).toHaveLength(0);
      expect(await sessions.find('s-live')).toMatchObject({ accountId: 'u-demo' });
      // Expires later: the interval takes it too.
      await database.db
        .update(oidcPayloads)
        .set({ expiresAt: new Date(Date.now() - 1000) })
        .where(eq(oidcPayloads.id, 's-live'));
      await vi.waitFor(() => expect(lines.filter((line) => line.startsWith('purged')).length).toBeGreaterThanOrEqual(2));
      expect(await database.db.select().from(oidcPayloads).where(eq(oidcPayloads.id, 's-live'))).toHaveLength(0);
    } finally {
      purge.stop();
    }
    const broken = {
      ...database,
      db: {
        delete: () => {
          throw new Error('database is down');
        },
      },
    } as unknown as typeof database;
    const failures: string[] = [];
    startPayloadPurge(broken, { intervalMs: 60_000, log: (line) => failures.push(line) }).stop();
    await vi.waitFor(() => expect(failures).toEqual(['purging expired identity records failed: database is down']));
  });

  it('marks consumed rows and revokes by grant', async () => {
    const Adapter = createAdapterClass(database);
    const codes = new Adapter('AuthorizationCode');
    await codes.upsert('c-1', { grantId: 'g-test', accountId: 'u-demo' }, 60);
    await codes.upsert('c-2', { grantId: 'g-test', accountId: 'u-demo' }, 60);
    await codes.consume('c-1');
    expect((await codes.find('c-1'))?.consumed).toBeTruthy();
    expect((await codes.find('c-2'))?.consumed).toBeUndefined();
    await codes.revokeByGrantId('g-test');
    expect(await codes.find('c-1')).toBeUndefined();
    expect(await codes.find('c-2')).toBeUndefined();
  });
});
