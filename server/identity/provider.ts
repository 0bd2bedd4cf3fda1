// The OpenID Connect provider of the portal: certified oidc-provider v9 mounted under /connect, its state in
// PostgreSQL/PGlite (adapter.ts), our own sign-in page (pages.ts) and the Portal API's token verifier.
//
// Decisions worth knowing:
// - Endpoints: /connect/authorize, /connect/token, /connect/userinfo, /connect/endsession, /connect/jwks,
//   /connect/revocation; discovery at /connect/.well-known/openid-configuration (the root /.well-known forms
//   answer the same document). The issuer is `${publicUrl}/connect`.
// - Proxy: every URL the provider builds comes from PUBLIC_URL, never from the request. `proxy` is on and the
//   X-Forwarded-Proto/Host headers are overwritten from PUBLIC_URL before the provider sees a request, so a
//   TLS-terminating load balancer works (secure cookies when PUBLIC_URL is https) and a forged Host is ignored.
// - Cookie keys are derived (HMAC-SHA256) from the signing keys stored in the database: every node agrees.
// - Access tokens: resource indicators with `defaultResource` = apiAudience and `useGrantedResource` = true, so
//   every token response carries a JWT access token for the Portal API (aud = apiAudience, typ at+jwt, 15 min),
//   whether or not the client sends `resource` at the token endpoint.
// - Userinfo (docs/stack.md: oidc-provider refuses a JWT issued for an API at userinfo): /connect/userinfo accepts
//   that same Portal API access token. A bearer JWT is verified here (verifyAccessToken: signature, issuer,
//   audience, at+jwt, expiry), must carry `openid`, and the claims released are those of the token's scopes
//   (same scope → claims table as the provider). Opaque tokens still go to oidc-provider's own userinfo.
//   In addition `conformIdTokenClaims: false` puts the same claims in the ID token, so the browser can show
//   the user's name without a call.
// - offline_access is only kept by oidc-provider when prompt=consent. For the first-party client an authorize
//   request asking for offline_access without prompt gets prompt=consent added, and the interaction handler
//   grants consent automatically (creates the Grant with the requested OIDC and resource scopes).
// - Refresh tokens rotate on every use (1 day each, sliding); presenting an already-used one makes
//   oidc-provider revoke the whole grant (every refresh token of the family). All tokens are bound to the
//   sign-in session (`expiresWithSession`), so sign-out at /connect/endsession ends them too; the session and
//   grant live 1 day.
// - DPoP (RFC 9449) is on: the browser's token requests carry a proof by its non-extractable key, so its access
//   and refresh tokens are bound to that key (the API and userinfo check proofs: server/http/dpop.ts). PAR is off.
//
// This file is the provider's configuration (createProvider); the requests under /connect and /.well-known reach it
// through the router of the sign-in pages (server/sign-in/router.ts), which also answers the interaction, password and
// email-link pages and the userinfo calls made with the Portal API's token.
import { createHmac } from 'node:crypto';
import { createLocalJWKSet, jwtVerify, type JWK } from 'jose';
import Provider, { errors, type Configuration, type KoaContextWithOIDC } from 'oidc-provider';
import type { CardKeys } from '../cards/card-keys.ts';
import type { Database } from '../db/client.ts';
import { createAccounts, type Accounts, type UserClaims } from './accounts.ts';
import { recordSignInEvent, sourceOf } from './sign-in-guard.ts';
import { logger } from '../log.ts';
import { clientAddressOf } from '../client-address.ts';
import { createAdapterClass } from './adapter.ts';
import { loadSigningKeys } from './keys.ts';
import { contentSecurityPolicy, errorPage, messagePage, signOutPage } from './pages.ts';

export type IdentityOptions = {
  database: Database;
  publicUrl: string;
  clientId: string;
  issuer: string;
  apiAudience: string;
  /** opens the sealed TOTP secrets of two-factor sign-in (server/users/second-factor.ts); without it enrolled users cannot sign in */
  cardKeys?: CardKeys;
};

/** What a verified Portal API access token says: whose, which scopes, under which grant, bound to which key, how signed in. */
export type AccessTokenClaims = { userId: string; scopes: string[]; grantId: string; jkt?: string; amr: string[] };

/** The configured provider and what the router in front of it needs. */
export type OidcProvider = {
  provider: Provider;
  accounts: Accounts;
  /** verifies a bearer access token for the Portal API: signature (jose, local JWKS), issuer, audience = apiAudience, expiry, typ at+jwt. Returns the user id (sub) and scopes, throws on anything wrong */
  verifyAccessToken: (token: string) => Promise<AccessTokenClaims>;
  /** the issuer's path (/connect) */
  mount: string;
  publicOrigin: URL;
  homeHref: string;
  /** the Content-Security-Policy of every page under the mount */
  csp: string;
};

export const supportedScopes = ['openid', 'profile', 'email', 'identity', 'portal', 'offline_access'] as const;

/** Which claims each scope releases (ID token and userinfo alike). */
export const claimsByScope: Record<string, (keyof UserClaims)[]> = {
  openid: ['sub'],
  email: ['email'],
  profile: ['name', 'given_name', 'family_name'],
  identity: ['email', 'name', 'given_name', 'family_name'],
  portal: [],
};

const ttl = {
  AccessToken: 15 * 60,
  AuthorizationCode: 60,
  IdToken: 60 * 60,
  RefreshToken: 24 * 60 * 60,
  Session: 24 * 60 * 60,
  Grant: 24 * 60 * 60,
  Interaction: 60 * 60,
};

/** Cookie signing keys from the signing keys in the database, so every node signs and checks cookies alike. */
function deriveCookieKeys(privateKeys: JWK[]): string[] {
  return [...privateKeys]
    .sort((a, b) => String(a.kid).localeCompare(String(b.kid)))
    .map((jwk) => {
      if (!jwk.d) throw new Error('signing key without private part');
      return createHmac('sha256', Buffer.from(jwk.d, 'base64url')).update('payments-portal/oidc-provider/cookie-keys/v1').digest('base64url');
    });
}

/**
 * How the session behind a token being issued signed in: the amr of the authorization code (first tokens) or of the
 * refresh token (later ones, which carry the sign-in's amr across rotations). Nothing when neither names one.
 */
function signInMethodsOf(ctx: KoaContextWithOIDC | undefined): { amr?: string[] } {
  const entities = ctx?.oidc?.entities as { AuthorizationCode?: { amr?: unknown }; RefreshToken?: { amr?: unknown } } | undefined;
  const amr = entities?.AuthorizationCode?.amr ?? entities?.RefreshToken?.amr;
  return Array.isArray(amr) ? { amr: amr.filter((method): method is string => typeof method === 'string') } : {};
}

/** The claims a token's scopes release (ID token and userinfo alike). */
export function releasedClaims(claims: UserClaims, scopes: Iterable<string>): Partial<UserClaims> {
  const released: Partial<UserClaims> = { sub: claims.sub };
  for (const scope of scopes) {
    for (const name of claimsByScope[scope] ?? []) released[name] = claims[name];
  }
  return released;
}

export async function createProvider(options: IdentityOptions): Promise<OidcProvider> {
  const { database, publicUrl, clientId, issuer, apiAudience } = options;
  const publicOrigin = new URL(publicUrl);
  const mount = new URL(issuer).pathname.replace(/\/$/, '');
  const csp = contentSecurityPolicy(publicUrl);
  const homeHref = `${publicUrl}/`;

  const [{ privateJwks, publicJwks }, accounts] = await Promise.all([loadSigningKeys(database), createAccounts(database, publicUrl)]);
  const jwks = createLocalJWKSet(publicJwks);
  const algorithms = [...new Set(publicJwks.keys.map((key) => key.alg ?? 'RS256'))];

  async function verifyAccessToken(token: string): Promise<AccessTokenClaims> {
    const { payload } = await jwtVerify(token, jwks, {
      issuer,
      audience: apiAudience,
      typ: 'at+jwt',
      algorithms,
      requiredClaims: ['sub', 'exp', 'iat'],
      clockTolerance: 5,
    });
    if (typeof payload.sub !== 'string' || payload.sub.length === 0) throw new Error('access token without subject');
    const scopes = typeof payload.scope === 'string' ? payload.scope.split(' ').filter(Boolean) : [];
    // The grant the token was issued under (extraTokenClaims): checked on use, so a revoked grant ends the token.
    if (typeof payload.gid !== 'string' || payload.gid.length === 0) throw new Error('access token without grant');
    // DPoP: a token issued to a proof names the key's thumbprint; it is honoured only with a proof by that key.
    const cnf = payload.cnf as { jkt?: unknown } | undefined;
    if (cnf !== undefined && (typeof cnf !== 'object' || cnf === null || typeof cnf.jkt !== 'string'))
      throw new Error('access token bound to an unsupported key');
    // How the session signed in (extraTokenClaims): 'otp' when with the second factor; decisions needing it read this.
    const amr = Array.isArray(payload.amr) ? payload.amr.filter((method): method is string => typeof method === 'string') : [];
    return { userId: payload.sub, scopes, grantId: payload.gid, ...(cnf ? { jkt: cnf.jkt as string } : {}), amr };
  }

  const scope = supportedScopes.join(' ');

  const configuration: Configuration = {
    adapter: createAdapterClass(database),
    clients: [
      {
        client_id: clientId,
        client_name: 'Payments portal',
        application_type: 'web',
        token_endpoint_auth_method: 'none',
        redirect_uris: [`${publicUrl}/sign-in`],
        post_logout_redirect_uris: [`${publicUrl}/`, `${publicUrl}/sign-out`, `${publicUrl}/signed-out`],
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        scope,
      },
    ],
    clientBasedCORS: (_ctx, origin) => origin === publicOrigin.origin,
    jwks: privateJwks as Configuration['jwks'],
    cookies: {
      keys: deriveCookieKeys(privateJwks.keys),
      long: { httpOnly: true, sameSite: 'lax' },
      short: { httpOnly: true, sameSite: 'lax' },
    },
    routes: {
      authorization: '/authorize',
      token: '/token',
      userinfo: '/userinfo',
      end_session: '/endsession',
      jwks: '/jwks',
      revocation: '/revocation',
    },
    responseTypes: ['code'],
    pkce: { required: () => true },
    scopes: [...supportedScopes],
    claims: claimsByScope,
    conformIdTokenClaims: false,
    findAccount: async (_ctx, sub) => {
      const claims = await accounts.claimsFor(sub);
      if (!claims) return undefined;
      return { accountId: sub, claims: () => claims };
    },
    interactions: {
      url: (_ctx, interaction) => `${mount}/interaction/${interaction.uid}`,
    },
    features: {
      devInteractions: { enabled: false },
      // Sender-constrained tokens (RFC 9449): a token request with a DPoP proof gets an access token bound to the
      // proof's key (cnf.jkt) and, this being a public client, a refresh token only that key can use.
      dPoP: { enabled: true },
      pushedAuthorizationRequests: { enabled: false },
      userinfo: { enabled: true },
      revocation: {
        enabled: true,
        allowedPolicy: (_ctx, client, token) => token.clientId === client.clientId,
      },
      rpInitiatedLogout: {
        enabled: true,
        logoutSource: (ctx, form) => {
          ctx.type = 'html';
          ctx.body = signOutPage({ form, cancelHref: homeHref });
        },
        postLogoutSuccessSource: (ctx) => {
          ctx.type = 'html';
          ctx.body = messagePage({
            title: 'Signed out',
            message: 'You have signed out of the payments portal.',
            link: { href: homeHref, text: 'Sign in again' },
          });
        },
      },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => apiAudience,
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx, resourceIndicator) => {
          if (resourceIndicator !== apiAudience) throw new errors.InvalidTarget();
          return { scope, audience: apiAudience, accessTokenFormat: 'jwt', accessTokenTTL: ttl.AccessToken };
        },
      },
    },
    // JWT access tokens name their grant, so the API can refuse them once the grant is revoked (sign-out, a replayed
    // refresh token, a locked account) instead of honouring them until they expire.
    // They also say how the session signed in (amr, from the code or refresh token they were issued for), so the API can
    // ask for a sign-in with the second factor (approving a beneficiary) without trusting the client.
    extraTokenClaims: (ctx, token) => (token.kind === 'AccessToken' && token.grantId ? { gid: token.grantId, ...signInMethodsOf(ctx) } : undefined),
    rotateRefreshToken: true,
    expiresWithSession: () => true,
    ttl,
    renderError: (ctx, out) => {
      ctx.type = 'html';
      ctx.body = errorPage({ description: out.error_description ?? out.error, homeHref });
    },
  };

  const provider = new Provider(issuer, configuration);
  provider.proxy = true;
  provider.on('server_error', (_ctx: unknown, error: Error) => logger.error({ component: 'identity', err: error }, 'server error'));
  // Sign-out at the end-session endpoint is a sign-in event too (PCI DSS 10.2.1): whose session, from where.
  provider.on('end_session.success', (ctx: KoaContextWithOIDC) => {
    const accountId = ctx.oidc.session?.accountId;
    if (!accountId) return;
    void recordSignInEvent(database.db, 'SignedOut', { userId: accountId }, sourceOf(clientAddressOf(ctx.req), ctx.req.headers['user-agent'])).catch(
      (error: unknown) => logger.error({ component: 'identity', err: error }, 'sign-out audit failed'),
    );
  });
  // Every response of the provider carries the CSP; its own auto-submitting forms add their script hash to it.
  provider.use(async (ctx, next) => {
    ctx.set('Content-Security-Policy', csp);
    ctx.set('X-Content-Type-Options', 'nosniff');
    await next();
  });

  return { provider, accounts, verifyAccessToken, mount, publicOrigin, homeHref, csp };
}
