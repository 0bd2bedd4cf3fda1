// DPoP (RFC 9449): the browser's tokens are bound to its non-extractable key, so a copied access token or
// refresh token is refused without that key. The real provider and the real Portal API behind one HTTP server; the
// browser's own proof code (src/api/dpop.ts) makes the proofs.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { decodeJwt } from 'jose';
import * as oauth from 'oauth4webapi';
import { getRequestListener } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../../server/app.ts';
import type { Database } from '../../../server/db/client.ts';
import { users } from '../../../server/db/schema.ts';
import { hashPassword } from '../../../server/identity/passwords.ts';
import { createIdentity, type Identity } from '../../../server/sign-in/router.ts';
import { dpopProof, newDpopKey, type DpopKey } from '../../../src/api/dpop.ts';
import { createTestDatabase, testCardKeys } from '../support.ts';

const insecure = { [oauth.allowInsecureRequests]: true } as const;
const client: oauth.Client = { client_id: 'portal' };
const clientAuth = oauth.None();

let server: Server;
let database: Database;
let identity: Identity;
let publicUrl: string;
let apiAudience: string;
let redirectUri: string;
let as: oauth.AuthorizationServer;

/** Cookies and manual redirects: enough of a browser for the sign-in page. */
class Browser {
  readonly cookies = new Map<string, string>();
  async request(url: string, init: { method?: string; body?: URLSearchParams } = {}) {
    const headers: Record<string, string> = {};
    if (this.cookies.size) headers.cookie = [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    if (init.body) headers['content-type'] = 'application/x-www-form-urlencoded';
    const response = await fetch(url, { method: init.method ?? 'GET', headers, body: init.body?.toString(), redirect: 'manual' });
    for (const line of response.headers.getSetCookie()) {
      const [pair = ''] = line.split(';');
      const index = pair.indexOf('=');
      const value = pair.slice(index + 1).trim();
      if (value) this.cookies.set(pair.slice(0, index).trim(), value);
      else this.cookies.delete(pair.slice(0, index).trim());
    }
    return response;
  }
  async follow(url: string, init: { method?: string; body?: URLSearchParams } = {}) {
    let response = await this.request(url, init);
    let current = url;
    for (let hops = 0; hops < 10 && response.status >= 300 && response.status < 400; hops += 1) {
      const location = new URL(response.headers.get('location') ?? '', current).href;
      if (!location.startsWith(`${publicUrl}/connect/`)) return { location, url: current };
      current = location;
      response = await this.request(current);
    }
    return { location: undefined, url: current };
  }
}

/** Signs in as the browser app does: dpop_jkt on the authorization request, a proof at the code exchange. */
async function signIn(key: DpopKey, options: { bindCode?: boolean } = {}) {
  const browser = new Browser();
  const codeVerifier = oauth.generateRandomCodeVerifier();
  const state = oauth.generateRandomState();
  const url = new URL(as.authorization_endpoint!);
  for (const [name, value] of Object.entries({
    client_id: 'portal',
    redirect_uri: redirectUri,
    response_type: 'code',
    scope: 'openid profile identity portal offline_access',
    resource: apiAudience,
    state,
    code_challenge: await oauth.calculatePKCECodeChallenge(codeVerifier),
    code_challenge_method: 'S256',
  }))
    url.searchParams.set(name, value);
  if (options.bindCode !== false) url.searchParams.set('dpop_jkt', await oauth.DPoP(client, key.keyPair).calculateThumbprint());
  const page = await browser.follow(url.href);
  const { location } = await browser.follow(page.url, { method: 'POST', body: new URLSearchParams({ email: 'dpop@example.com', password: 'portal-demo' }) });
  const params = oauth.validateAuthResponse(as, client, new URL(location!), state);
  return { params, codeVerifier };
}

async function exchange(params: URLSearchParams, codeVerifier: string, key: DpopKey | null) {
  const response = await oauth.authorizationCodeGrantRequest(as, client, clientAuth, params, redirectUri, codeVerifier, {
    ...insecure,
    additionalParameters: { resource: apiAudience },
    ...(key ? { DPoP: oauth.DPoP(client, key.keyPair) } : {}),
  });
  return oauth.processAuthorizationCodeResponse(as, client, response);
}

async function refresh(refreshToken: string, key: DpopKey | null) {
  const response = await oauth.refreshTokenGrantRequest(as, client, clientAuth, refreshToken, {
    ...insecure,
    ...(key ? { DPoP: oauth.DPoP(client, key.keyPair) } : {}),
  });
  return oauth.processRefreshTokenResponse(as, client, response);
}

const apiPath = '/api/portal/user/permissions';
const callApi = (headers: Record<string, string>, path = apiPath, method = 'GET') => fetch(`${publicUrl}${path}`, { method, headers });
const withProof = async (key: DpopKey, token: string, options: { method?: string; url?: string; ath?: string } = {}) => ({
  authorization: `DPoP ${token}`,
  dpop: await dpopProof(key, options.method ?? 'GET', options.url ?? `${publicUrl}${apiPath}`, options.ath ?? token),
});

beforeAll(async () => {
  database = await createTestDatabase('pglite');
  let apiListener: ReturnType<typeof getRequestListener> | undefined;
  server = createServer((req, res) => {
    const path = req.url ?? '/';
    if (path.startsWith('/connect') || path.startsWith('/.well-known/')) identity.handle(req, res);
    else void apiListener!(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  publicUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  apiAudience = `${publicUrl}/api/portal`;
  redirectUri = `${publicUrl}/sign-in`;
  identity = await createIdentity({ database, publicUrl, clientId: 'portal', issuer: `${publicUrl}/connect`, apiAudience });
  apiListener = getRequestListener(createApp({ database, cardKeys: testCardKeys, verifyAccessToken: identity.verifyAccessToken, publicUrl }).fetch);
  await database.db
    .insert(users)
    .values({ id: 'u-dpop', email: 'dpop@example.com', givenName: 'Dee', familyName: 'Pop', passwordHash: await hashPassword('portal-demo') });
  const issuerUrl = new URL(`${publicUrl}/connect`);
  as = await oauth.processDiscoveryResponse(issuerUrl, await oauth.discoveryRequest(issuerUrl, insecure));
}, 60_000);

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await database.close();
});

describe('DPoP-bound tokens', () => {
  it('the browser key is non-extractable and the provider announces DPoP', async () => {
    const key = await newDpopKey();
    expect(key.keyPair.privateKey.extractable).toBe(false);
    await expect(crypto.subtle.exportKey('jwk', key.keyPair.privateKey)).rejects.toThrow();
    expect(as.dpop_signing_alg_values_supported).toContain('ES256');
  });

  it('a token request with a proof gets tokens bound to the key, honoured with proofs by it', async () => {
    const key = await newDpopKey();
    const { params, codeVerifier } = await signIn(key);
    const tokens = await exchange(params, codeVerifier, key);
    expect(tokens.token_type.toLowerCase()).toBe('dpop');
    expect((decodeJwt(tokens.access_token).cnf as { jkt?: string } | undefined)?.jkt).toBe(await oauth.DPoP(client, key.keyPair).calculateThumbprint());
    expect((await callApi(await withProof(key, tokens.access_token))).status).toBe(200);
    // A new proof for every call: the same proof twice is a replay.
    const proof = await withProof(key, tokens.access_token);
    expect((await callApi(proof)).status).toBe(200);
    const replayed = await callApi(proof);
    expect(replayed.status).toBe(401);
    expect(replayed.headers.get('www-authenticate')).toMatch(/^DPoP error="invalid_dpop_proof"/);
    // Userinfo takes the same token with a proof for its own address.
    const info = await fetch(`${publicUrl}/connect/userinfo`, { headers: await withProof(key, tokens.access_token, { url: `${publicUrl}/connect/userinfo` }) });
    expect(info.status).toBe(200);
    expect((await info.json()).sub).toBe('u-dpop');
  });

  it("a stolen access token without the key is refused: as bearer, without a proof, with the thief's own key, or with a proof made for another call", async () => {
    const key = await newDpopKey();
    const { params, codeVerifier } = await signIn(key);
    const { access_token: stolen } = await exchange(params, codeVerifier, key);
    const thief = await newDpopKey();
    const refusals = await Promise.all([
      callApi({ authorization: `Bearer ${stolen}` }),
      callApi({ authorization: `DPoP ${stolen}` }),
      callApi(await withProof(thief, stolen)),
      callApi(await withProof(key, stolen, { method: 'POST' })),
      callApi(await withProof(key, stolen, { url: `${publicUrl}/api/portal/user` })),
      callApi(await withProof(key, stolen, { ath: 'another-token' })),
      fetch(`${publicUrl}/connect/userinfo`, { headers: { authorization: `Bearer ${stolen}` } }),
      fetch(`${publicUrl}/connect/userinfo`, { headers: await withProof(thief, stolen, { url: `${publicUrl}/connect/userinfo` }) }),
    ]);
    expect(refusals.map((response) => response.status)).toEqual([401, 401, 401, 401, 401, 401, 401, 401]);
    const body = await refusals[0]!.json();
    expect(body.errorReport.errors[0].message).toBe('The access token is bound to a DPoP key: send it with the DPoP scheme and a proof.');
    // The owner, with the key, still gets through.
    expect((await callApi(await withProof(key, stolen))).status).toBe(200);
  });

  it('a stolen refresh token without the key gets nothing; with the key it rotates and stays bound', async () => {
    const key = await newDpopKey();
    const { params, codeVerifier } = await signIn(key);
    const tokens = await exchange(params, codeVerifier, key);
    const thief = await newDpopKey();
    await expect(refresh(tokens.refresh_token!, null)).rejects.toMatchObject({ error: 'invalid_grant' });
    await expect(refresh(tokens.refresh_token!, thief)).rejects.toMatchObject({ error: 'invalid_grant' });
    const rotated = await refresh(tokens.refresh_token!, key);
    expect(rotated.token_type.toLowerCase()).toBe('dpop');
    expect((await callApi({ authorization: `Bearer ${rotated.access_token}` })).status).toBe(401);
    expect((await callApi(await withProof(key, rotated.access_token))).status).toBe(200);
  });

  it('a code bound with dpop_jkt cannot be exchanged with another key or none', async () => {
    const key = await newDpopKey();
    const first = await signIn(key);
    await expect(exchange(first.params, first.codeVerifier, await newDpopKey())).rejects.toMatchObject({ error: 'invalid_grant' });
    const second = await signIn(key);
    await expect(exchange(second.params, second.codeVerifier, null)).rejects.toMatchObject({ error: 'invalid_grant' });
  });

  it('an unbound (bearer) token cannot pose as a DPoP one', async () => {
    const key = await newDpopKey();
    const { params, codeVerifier } = await signIn(key, { bindCode: false });
    const tokens = await exchange(params, codeVerifier, null);
    expect(decodeJwt(tokens.access_token).cnf).toBeUndefined();
    expect((await callApi({ authorization: `Bearer ${tokens.access_token}` })).status).toBe(200);
    expect((await callApi(await withProof(key, tokens.access_token))).status).toBe(401);
  });
});
