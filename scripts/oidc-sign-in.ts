// Signs a demo user in against a running portal exactly as a browser would (authorize with PKCE S256, the
// provider's sign-in form, code exchange) and returns real tokens — for fault suites and benchmarks.
import * as oauth from 'oauth4webapi';

const client: oauth.Client = { client_id: 'portal' };

/** A browser's cookies for a fetch that does not follow redirects (tests follow them themselves). */
export class CookieJar {
  readonly cookies = new Map<string, string>();
  /** headers sent with every request (a benchmark's X-Forwarded-For, say) */
  readonly extraHeaders: Record<string, string>;
  constructor(extraHeaders: Record<string, string> = {}) {
    this.extraHeaders = extraHeaders;
  }
  async fetch(url: string, init: { method?: string; body?: URLSearchParams } = {}) {
    const headers: Record<string, string> = { ...this.extraHeaders };
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
}

export type SignedIn = { accessToken: string; refreshToken: string | undefined; idToken: string | undefined };

async function discover(baseUrl: string) {
  const issuer = new URL(`${baseUrl}/connect`);
  const options = baseUrl.startsWith('http://') ? { [oauth.allowInsecureRequests]: true } : {};
  const as = await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, { ...options, algorithm: 'oidc' }));
  return { as, options };
}

/** A refresh-token grant, as the browser app makes one: new tokens (the refresh token rotates). */
export async function refresh(baseUrl: string, refreshToken: string): Promise<SignedIn> {
  const { as, options } = await discover(baseUrl);
  const response = await oauth.refreshTokenGrantRequest(as, client, oauth.None(), refreshToken, {
    ...options,
    additionalParameters: { resource: `${baseUrl}/api/portal` },
  });
  const tokens = await oauth.processRefreshTokenResponse(as, client, response);
  return { accessToken: tokens.access_token, refreshToken: tokens.refresh_token, idToken: tokens.id_token };
}

export async function signIn(baseUrl: string, email: string, password = 'portal-demo', options: { headers?: Record<string, string> } = {}): Promise<SignedIn> {
  const { as, options: discovered } = await discover(baseUrl);
  const redirectUri = `${baseUrl}/sign-in`;
  const resource = `${baseUrl}/api/portal`;
  const codeVerifier = oauth.generateRandomCodeVerifier();
  const state = oauth.generateRandomState();
  const authorize = new URL(as.authorization_endpoint ?? '');
  for (const [name, value] of Object.entries({
    client_id: client.client_id,
    redirect_uri: redirectUri,
    response_type: 'code',
    scope: 'openid profile identity portal offline_access',
    resource,
    state,
    code_challenge: await oauth.calculatePKCECodeChallenge(codeVerifier),
    code_challenge_method: 'S256',
  }))
    authorize.searchParams.set(name, value);

  const jar = new CookieJar(options.headers);
  let url = authorize.href;
  let response = await jar.fetch(url);
  for (let hops = 0; hops < 10 && response.status >= 300 && response.status < 400; hops += 1) {
    url = new URL(response.headers.get('location') ?? '', url).href;
    response = await jar.fetch(url);
  }
  if (response.status !== 200) throw new Error(`sign-in page answered ${response.status}`);
  response = await jar.fetch(url, { method: 'POST', body: new URLSearchParams({ email, password }) });
  for (let hops = 0; hops < 10 && response.status >= 300 && response.status < 400; hops += 1) {
    url = new URL(response.headers.get('location') ?? '', url).href;
    if (url.startsWith(redirectUri)) break;
    response = await jar.fetch(url);
  }
  if (!url.startsWith(redirectUri)) throw new Error(`sign-in of ${email} did not return to the client (status ${response.status})`);
  const params = oauth.validateAuthResponse(as, client, new URL(url), state);
  const tokenResponse = await oauth.authorizationCodeGrantRequest(as, client, oauth.None(), params, redirectUri, codeVerifier, {
    ...discovered,
    additionalParameters: { resource },
  });
  const tokens = await oauth.processAuthorizationCodeResponse(as, client, tokenResponse);
  return { accessToken: tokens.access_token, refreshToken: tokens.refresh_token, idToken: tokens.id_token };
}
