// The OAuth 2.0 / OpenID Connect client of the browser, on oauth4webapi: discovery, authorization code with
// PKCE S256 and state, code exchange, refresh, userinfo, revocation and the end-session URL. Tokens are DPoP-bound
// (RFC 9449): each sign-in makes a non-extractable key (src/api/dpop.ts), the authorization request names its
// thumbprint (dpop_jkt) and the code exchange, refreshes and userinfo carry proofs signed by it. Loaded through a
// dynamic import (sign-in, refresh and sign-out only), so it is not part of the first load.
import * as oauth from 'oauth4webapi';
import { currentDpopKey, newDpopKey, noteServerDate, serverClockSkewSeconds } from '../api/dpop.ts';
import type { UserInfo } from '../contract/policy.ts';
import type { OidcSettings } from './oidc-settings.ts';

export type TokenSet = {
  accessToken: string;
  expiresIn: number;
  idToken?: string;
  refreshToken?: string;
  /** validated ID token claims: the user info fallback */
  claims?: UserInfo;
};

export type AuthorizationRequest = { url: string; state: string; codeVerifier: string };

export type OidcClient = {
  createAuthorizationRequest: (options?: { forceLogin?: boolean }) => Promise<AuthorizationRequest>;
  exchangeCode: (callbackUrl: URL, expectedState: string, codeVerifier: string) => Promise<TokenSet>;
  refresh: (refreshToken: string) => Promise<TokenSet>;
  userInfo: (accessToken: string, expectedSubject: string) => Promise<UserInfo>;
  revoke: (token: string, hint: 'refresh_token' | 'access_token') => Promise<void>;
  endSessionUrl: (idToken: string | undefined) => Promise<string | null>;
};

function claimsOf(response: oauth.TokenEndpointResponse): UserInfo | undefined {
  const claims = oauth.getValidatedIdTokenClaims(response);
  if (!claims) return undefined;
  const pick = (name: string) => (typeof claims[name] === 'string' ? (claims[name] as string) : undefined);
  const info: UserInfo = { sub: claims.sub };
  for (const name of ['email', 'given_name', 'family_name', 'name'] as const) {
    const value = pick(name);
    if (value !== undefined) info[name] = value;
  }
  return info;
}

function toTokenSet(response: oauth.TokenEndpointResponse, previous?: { idToken?: string; claims?: UserInfo }): TokenSet {
  const tokens: TokenSet = { accessToken: response.access_token, expiresIn: response.expires_in ?? 300 };
  const idToken = response.id_token ?? previous?.idToken;
  if (idToken) tokens.idToken = idToken;
  if (response.refresh_token) tokens.refreshToken = response.refresh_token;
  const claims = claimsOf(response) ?? previous?.claims;
  if (claims) tokens.claims = claims;
  return tokens;
}

export function createOidcClient(settings: OidcSettings): OidcClient {
  const issuer = new URL(settings.issuer);
  const client: oauth.Client = { client_id: settings.clientId };
  const clientAuth = oauth.None();
  const insecure = settings.allowInsecureRequests ? { [oauth.allowInsecureRequests]: true } : {};
  let discovery: Promise<oauth.AuthorizationServer> | null = null;

  /** The tab's DPoP key for a token request or userinfo (none: a session from before DPoP, sent as bearer). */
  async function dpopOption(): Promise<{ DPoP?: oauth.DPoPHandle }> {
    const key = await currentDpopKey();
    return key ? { DPoP: dpopHandle(key.keyPair) } : {};
  }

  /** A proof maker dated by the server's clock as the tab knows it (src/api/dpop.ts). */
  function dpopHandle(keyPair: CryptoKeyPair): oauth.DPoPHandle {
    client[oauth.clockSkew] = serverClockSkewSeconds();
    return oauth.DPoP(client, keyPair);
  }

  /**
   * A token request, once more when its answer shows the tab's clock was off (a proof dated by a wrong clock is
   * refused; the answer's Date header says by how much).
   */
  async function withServerClock(send: () => Promise<Response>): Promise<Response> {
    const response = await send();
    if (noteServerDate(response.headers.get('date')) && !response.ok) return send();
    return response;
  }

  function server(): Promise<oauth.AuthorizationServer> {
    discovery ??= oauth
      .discoveryRequest(issuer, { ...insecure })
      .then((response) => oauth.processDiscoveryResponse(issuer, response))
      .catch((error: unknown) => {
        discovery = null;
        throw error;
      });
    return discovery;
  }

  return {
    async createAuthorizationRequest(options = {}) {
      const as = await server();
      if (!as.authorization_endpoint) throw new Error('The identity provider has no authorization endpoint.');
      const codeVerifier = oauth.generateRandomCodeVerifier();
      const state = oauth.generateRandomState();
      const url = new URL(as.authorization_endpoint);
      url.searchParams.set('client_id', settings.clientId);
      url.searchParams.set('redirect_uri', settings.redirectUri);
      url.searchParams.set('response_type', 'code');
      url.searchParams.set('scope', settings.scope);
      url.searchParams.set('state', state);
      url.searchParams.set('code_challenge', await oauth.calculatePKCECodeChallenge(codeVerifier));
      url.searchParams.set('code_challenge_method', 'S256');
      url.searchParams.set('resource', settings.resource);
      // A new key for the new session; the code is bound to it (only this tab's key can exchange it) when the key
      // outlives the trip to the provider (IndexedDB); else the exchange makes a key kept for this page only.
      const key = await newDpopKey();
      if (key.persisted) url.searchParams.set('dpop_jkt', await oauth.DPoP(client, key.keyPair).calculateThumbprint());
      // After an inactivity sign-out the person at the keyboard proves who they are again.
      if (options.forceLogin) url.searchParams.set('prompt', 'login consent');
      return { url: url.href, state, codeVerifier };
    },

    async exchangeCode(callbackUrl, expectedState, codeVerifier) {
      const as = await server();
      const parameters = oauth.validateAuthResponse(as, client, callbackUrl, expectedState);
      const key = (await currentDpopKey()) ?? (await newDpopKey());
      const response = await withServerClock(() =>
        oauth.authorizationCodeGrantRequest(as, client, clientAuth, parameters, settings.redirectUri, codeVerifier, {
          ...insecure,
          DPoP: dpopHandle(key.keyPair),
          additionalParameters: { resource: settings.resource },
        }),
      );
      return toTokenSet(await oauth.processAuthorizationCodeResponse(as, client, response));
    },

    async refresh(refreshToken) {
      const as = await server();
      const dpop = await dpopOption();
      const response = await withServerClock(async () =>
        oauth.refreshTokenGrantRequest(as, client, clientAuth, refreshToken, {
          ...insecure,
          ...(dpop.DPoP ? await dpopOption() : {}),
          additionalParameters: { resource: settings.resource },
        }),
      );
      return toTokenSet(await oauth.processRefreshTokenResponse(as, client, response));
    },

    async userInfo(accessToken, expectedSubject) {
      const as = await server();
      const response = await oauth.userInfoRequest(as, client, accessToken, { ...insecure, ...(await dpopOption()) });
      const info = await oauth.processUserInfoResponse(as, client, expectedSubject, response);
      const result: UserInfo = { sub: info.sub };
      if (typeof info.email === 'string') result.email = info.email;
      if (typeof info.given_name === 'string') result.given_name = info.given_name;
      if (typeof info.family_name === 'string') result.family_name = info.family_name;
      if (typeof info.name === 'string') result.name = info.name;
      return result;
    },

    async revoke(token, hint) {
      const as = await server();
      if (!as.revocation_endpoint) return;
      const response = await oauth.revocationRequest(as, client, clientAuth, token, { ...insecure, additionalParameters: { token_type_hint: hint } });
      await oauth.processRevocationResponse(response);
    },

    async endSessionUrl(idToken) {
      const as = await server();
      if (!as.end_session_endpoint) return null;
      const url = new URL(as.end_session_endpoint);
      url.searchParams.set('client_id', settings.clientId);
      url.searchParams.set('post_logout_redirect_uri', settings.postLogoutRedirectUri);
      if (idToken) url.searchParams.set('id_token_hint', idToken);
      return url.href;
    },
  };
}
