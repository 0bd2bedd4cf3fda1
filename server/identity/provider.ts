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
import { createHmac } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createLocalJWKSet, jwtVerify, type JWK } from 'jose';
import Provider, { errors, type Configuration, type KoaContextWithOIDC } from 'oidc-provider';
import { eq } from 'drizzle-orm';
import type { CardKeys } from '../cards/card-keys.ts';
import { users } from '../db/schema.ts';
import type { Database } from '../db/client.ts';
import { createAccounts, type UserClaims } from './accounts.ts';
import { recordSignInEvent, sourceOf, type AttemptSource } from './sign-in-guard.ts';
import { strictTransportSecurity } from '../http/security-headers.ts';
import { createDpopVerifier, DpopError, dpopAlgorithms } from '../http/dpop.ts';
import { logger } from '../log.ts';
import { clientAddressOf } from '../client-address.ts';
import { createAdapterClass } from './adapter.ts';
import { loadSigningKeys } from './keys.ts';
import {
  contentSecurityPolicy, errorPage, expiredPasswordPage, forgotPasswordPage, formatLockoutEnd, messagePage, messages,
  confirmEmailPage, resetPasswordPage, secondFactorPage, signInCss, signInPage, signOutPage, stylesheetPath, undoEmailChangePage,
} from './pages.ts';
import { completePasswordReset, issueExpiredPasswordTicket, requestPasswordReset, usableReset } from '../users/password-reset.ts';
import { answerSignInChallenge, hasActiveSecondFactor, issueSignInChallenge } from '../users/second-factor.ts';
import { confirmEmailChange, undoEmailChange } from '../users/email-change.ts';
import { invitationSignInCookie, invitationSignInCookiePath, useInvitationSignIn } from '../users/invitations.ts';

export type Identity = {
  /** Node request listener for every path under /connect and /.well-known (mounted by the lead's main.ts before Hono) */
  handle: (req: IncomingMessage, res: ServerResponse) => void;
  /** verifies a bearer access token for the Portal API: signature (jose, local JWKS), issuer, audience = apiAudience, expiry, typ at+jwt. Returns the user id (sub) and scopes, throws on anything wrong */
  verifyAccessToken: (token: string) => Promise<{ userId: string; scopes: string[]; grantId: string; jkt?: string; amr: string[] }>;
};

export type IdentityOptions = {
  database: Database;
  publicUrl: string;
  clientId: string;
  issuer: string;
  apiAudience: string;
  /** opens the sealed TOTP secrets of two-factor sign-in (server/users/second-factor.ts); without it enrolled users cannot sign in */
  cardKeys?: CardKeys;
};

const resetRequestedMessage = 'If an account exists for this email address, we have sent it a link to reset the password. The link is valid for 15 minutes.';

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

const maxFormBytes = 16 * 1024;
/** sign-in form posts one client address may have in progress on one node; more answer 429 at once */
export const signInPostsPerAddress = 4;

class HttpError extends Error {
  readonly status: number;
  constructor(status: number, message: string) {
    super(message);
    this.status = status;
  }
}

/** Cookie signing keys from the signing keys in the database, so every node signs and checks cookies alike. */
function deriveCookieKeys(privateKeys: JWK[]): string[] {
  return [...privateKeys]
    .sort((a, b) => String(a.kid).localeCompare(String(b.kid)))
    .map((jwk) => {
      if (!jwk.d) throw new Error('signing key without private part');
      return createHmac('sha256', Buffer.from(jwk.d, 'base64url'))
        .update('payments-portal/oidc-provider/cookie-keys/v1')
        .digest('base64url');
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

function releasedClaims(claims: UserClaims, scopes: Iterable<string>): Partial<UserClaims> {
  const released: Partial<UserClaims> = { sub: claims.sub };
  for (const scope of scopes) {
    for (const name of claimsByScope[scope] ?? []) released[name] = claims[name];
  }
  return released;
}

/** One cookie of the request by name (the provider's own are read by the provider). */
function readCookie(req: IncomingMessage, name: string): string | undefined {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const at = part.indexOf('=');
    if (at <= 0 || part.slice(0, at).trim() !== name) continue;
    try {
      return decodeURIComponent(part.slice(at + 1).trim());
    } catch {
      return '';
    }
  }
  return undefined;
}

async function readForm(req: IncomingMessage): Promise<URLSearchParams> {
  const type = (req.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
  if (type !== 'application/x-www-form-urlencoded') throw new HttpError(415, 'unsupported content type');
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buffer = chunk as Buffer;
    size += buffer.length;
    if (size > maxFormBytes) throw new HttpError(413, 'form too large');
    chunks.push(buffer);
  }
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

export async function createIdentity(options: IdentityOptions): Promise<Identity> {
  const { database, publicUrl, clientId, issuer, apiAudience } = options;
  const publicOrigin = new URL(publicUrl);
  const mount = new URL(issuer).pathname.replace(/\/$/, '');
  const csp = contentSecurityPolicy(publicUrl);
  const homeHref = `${publicUrl}/`;

  const [{ privateJwks, publicJwks }, accounts] = await Promise.all([
    loadSigningKeys(database),
    createAccounts(database, publicUrl),
  ]);
  const jwks = createLocalJWKSet(publicJwks);
  const algorithms = [...new Set(publicJwks.keys.map((key) => key.alg ?? 'RS256'))];

  async function verifyAccessToken(token: string): Promise<{ userId: string; scopes: string[]; grantId: string; jkt?: string; amr: string[] }> {
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
    if (cnf !== undefined && (typeof cnf !== 'object' || cnf === null || typeof cnf.jkt !== 'string')) throw new Error('access token bound to an unsupported key');
    // How the session signed in (extraTokenClaims): 'otp' when with the second factor; decisions needing it read this.
    const amr = Array.isArray(payload.amr) ? payload.amr.filter((method): method is string => typeof method === 'string') : [];
    return { userId: payload.sub, scopes, grantId: payload.gid, ...(cnf ? { jkt: cnf.jkt as string } : {}), amr };
  }

  const scope = supportedScopes.join(' ');
  const checkDpop = createDpopVerifier();

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
    void recordSignInEvent(database.db, 'SignedOut', { userId: accountId }, sourceOf(clientAddressOf(ctx.req), ctx.req.headers['user-agent']))
      .catch((error: unknown) => logger.error({ component: 'identity', err: error }, 'sign-out audit failed'));
  });
  // Every response of the provider carries the CSP; its own auto-submitting forms add their script hash to it.
  provider.use(async (ctx, next) => {
    ctx.set('Content-Security-Policy', csp);
    ctx.set('X-Content-Type-Options', 'nosniff');
    await next();
  });
  const providerCallback = provider.callback();

  function sendHtml(res: ServerResponse, status: number, html: string): void {
    res.statusCode = status;
    res.setHeader('Content-Type', 'text/html; charset=utf-8');
    res.setHeader('Content-Security-Policy', csp);
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('X-Frame-Options', 'DENY');
    res.setHeader('Referrer-Policy', 'same-origin');
    res.setHeader('Cache-Control', 'no-store');
    res.end(html);
  }

  function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
    res.statusCode = status;
    res.setHeader('Content-Type', 'application/json; charset=utf-8');
    res.setHeader('Cache-Control', 'no-store');
    for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
    res.end(JSON.stringify(body));
  }

  function expired(res: ServerResponse): void {
    sendHtml(res, 400, messagePage({
      title: 'Sign in',
      message: messages.interactionExpired,
      link: { href: homeHref, text: 'Back to the portal' },
    }));
  }

  async function loadInteraction(req: IncomingMessage, res: ServerResponse, uid: string) {
    try {
      const interaction = await provider.interactionDetails(req, res);
      return interaction.uid === uid ? interaction : undefined;
    } catch {
      return undefined;
    }
  }

  /** First-party client: consent is granted without asking, for exactly what was requested. */
  async function grantConsent(
    req: IncomingMessage,
    res: ServerResponse,
    interaction: Awaited<ReturnType<typeof provider.interactionDetails>>,
  ): Promise<void> {
    const accountId = interaction.session?.accountId;
    if (!accountId || interaction.params.client_id !== clientId) {
      expired(res);
      return;
    }
    const details = interaction.prompt.details as {
      missingOIDCScope?: string[];
      missingOIDCClaims?: string[];
      missingResourceScopes?: Record<string, string[]>;
    };
    const existing = interaction.grantId ? await provider.Grant.find(interaction.grantId) : undefined;
    const grant = existing ?? new provider.Grant({ accountId, clientId });
    if (details.missingOIDCScope) grant.addOIDCScope(details.missingOIDCScope.join(' '));
    if (details.missingOIDCClaims) grant.addOIDCClaims(details.missingOIDCClaims);
    for (const [indicator, scopes] of Object.entries(details.missingResourceScopes ?? {})) {
      grant.addResourceScope(indicator, scopes.join(' '));
    }
    const grantId = await grant.save();
    await provider.interactionFinished(req, res, { consent: existing ? {} : { grantId } }, { mergeWithLastSubmission: true });
  }

  const signInPostsInProgress = new Map<string, number>();

  async function interactionRoute(req: IncomingMessage, res: ServerResponse, uid: string): Promise<void> {
    const action = `${mount}/interaction/${encodeURIComponent(uid)}`;

    if (req.method === 'GET' || req.method === 'HEAD') {
      const interaction = await loadInteraction(req, res, uid);
      if (!interaction) return expired(res);
      if (interaction.prompt.name === 'consent') return grantConsent(req, res, interaction);
      if (interaction.prompt.name !== 'login') return expired(res);
      if (readCookie(req, invitationSignInCookie) !== undefined) return invitationSignIn(req, res, uid, action);
      return sendHtml(res, 200, signInPage({ action, forgotHref }));
    }

    if (req.method !== 'POST') {
      res.setHeader('Allow', 'GET, POST');
      return sendJson(res, 405, { error: 'method_not_allowed' });
    }

    // The interaction cookie (signed, SameSite=Lax, scoped to this path) already ties the POST to this browser;
    // a foreign Origin is refused on top.
    const origin = req.headers.origin;
    if (origin && origin !== publicOrigin.origin) return sendHtml(res, 403, errorPage({ description: 'Forbidden.', homeHref }));

    // A flood from one client address (150 posts at once) is refused here, before it costs a database round trip or a
    // password check: at most a few of its posts are in progress on this node, the rest answer 429 at once. The
    // database throttles behind this still count what gets through, on every node.
    const address = clientAddressOf(req);
    const inProgress = signInPostsInProgress.get(address) ?? 0;
    if (inProgress >= signInPostsPerAddress) {
      res.setHeader('Retry-After', '1');
      return sendHtml(res, 429, signInPage({ action, error: messages.tooManyRequests, forgotHref }));
    }
    signInPostsInProgress.set(address, inProgress + 1);
    try {
      return await signInPost(req, res, uid, action);
    } finally {
      const left = (signInPostsInProgress.get(address) ?? 1) - 1;
      if (left > 0) signInPostsInProgress.set(address, left);
      else signInPostsInProgress.delete(address);
    }
  }

  /**
   * Right after accepting an invitation (server/users/invitations.ts): the acceptance's single-use cookie stands in
   * for the password just chosen, and everything after the password is as in signInPost (a second factor when the
   * account has one). The cookie is cleared whatever it holds; a spent or stale one shows the ordinary sign-in page.
   */
  async function invitationSignIn(req: IncomingMessage, res: ServerResponse, uid: string, action: string): Promise<void> {
    const secret = readCookie(req, invitationSignInCookie) ?? '';
    res.appendHeader('Set-Cookie', `${invitationSignInCookie}=; Path=${invitationSignInCookiePath(publicUrl)}; Max-Age=0; HttpOnly; SameSite=Strict${publicOrigin.protocol === 'https:' ? '; Secure' : ''}`);
    const handedOff = await useInvitationSignIn(database.db, secret);
    if (!handedOff) return sendHtml(res, 200, signInPage({ action, forgotHref }));
    const { userId } = handedOff;
    const source: AttemptSource = sourceOf(clientAddressOf(req), req.headers['user-agent']);
    // Locked since the invitation was accepted: refused and recorded like a locked account's password sign-in.
    if (handedOff.locked) {
      await recordSignInEvent(database.db, 'SignInFailed', { userId }, source, { reason: 'locked', invitation: true });
      return sendHtml(res, 200, signInPage({ action, forgotHref }));
    }
    if (await hasActiveSecondFactor(database.db, userId)) {
      if (!options.cardKeys) return sendHtml(res, 503, errorPage({ description: 'Two-factor sign-in is not available on this server.', homeHref }));
      const ticket = await issueSignInChallenge(database.db, userId, false);
      return sendHtml(res, 200, secondFactorPage({ action, challenge: ticket }));
    }
    await database.db.update(users).set({ lastSignInUtc: new Date() }).where(eq(users.id, userId));
    await recordSignInEvent(database.db, 'SignInSucceeded', { userId }, source, { methods: ['pwd'], invitation: true });
    await provider.interactionFinished(req, res, { login: { accountId: userId, amr: ['pwd'] } }, { mergeWithLastSubmission: false });
  }

  /** The sign-in page's form: email and password, the second factor's code, or a new password for an expired one. */
  async function signInPost(req: IncomingMessage, res: ServerResponse, uid: string, action: string): Promise<void> {
    const form = await readForm(req);
    const source: AttemptSource = sourceOf(clientAddressOf(req), req.headers['user-agent']);
    const interaction = await loadInteraction(req, res, uid);
    if (!interaction) return expired(res);
    if (interaction.prompt.name !== 'login') return expired(res);

    // Second factor after the right password: the single-use challenge ticket and a code (or a recovery code).
    const challenge = form.get('challenge');
    if (challenge !== null) {
      if (!options.cardKeys) return expired(res);
      const answered = await answerSignInChallenge(database, options.cardKeys, challenge, form.get('code') ?? '', { publicUrl, source });
      if (answered.outcome === 'expired') return expired(res);
      if (answered.outcome === 'wrong') {
        // A locked account (the tenth wrong code, counted across sign-ins) gets the same answer; its holder is emailed.
        await recordSignInEvent(database.db, 'SignInFailed', { userId: answered.userId }, source, { reason: answered.locked ? 'locked' : 'wrongCode' });
        return sendHtml(res, 200, secondFactorPage({ action, challenge, error: messages.wrongCode }));
      }
      if (answered.passwordExpired) {
        const [row] = await database.db.select({ email: users.email }).from(users).where(eq(users.id, answered.userId));
        const changeTicket = await issueExpiredPasswordTicket(database, { id: answered.userId, email: row?.email ?? '' });
        return sendHtml(res, 200, expiredPasswordPage({ action, ticket: changeTicket }));
      }
      await recordSignInEvent(database.db, 'SignInSucceeded', { userId: answered.userId }, source, { methods: ['pwd', 'otp'] });
      await provider.interactionFinished(req, res, { login: { accountId: answered.userId, acr: 'urn:portal:mfa', amr: ['pwd', 'otp'] } }, { mergeWithLastSubmission: false });
      return;
    }

    // Second step after a right but expired password: the single-use ticket from the first step and a new password.
    const ticket = form.get('ticket');
    if (ticket !== null) {
      const password = form.get('password') ?? '';
      if (password !== (form.get('confirm') ?? '')) return sendHtml(res, 200, expiredPasswordPage({ action, ticket, problems: [messages.passwordsDiffer] }));
      const changed = await completePasswordReset(database, ticket, password, 'ExpiredPasswordChanged');
      if (changed.outcome === 'expired') return expired(res);
      if (changed.outcome === 'refused') return sendHtml(res, 200, expiredPasswordPage({ action, ticket, problems: changed.problems }));
      await recordSignInEvent(database.db, 'SignInSucceeded', { userId: changed.userId }, source, { methods: ['pwd'], passwordChanged: true });
      await provider.interactionFinished(req, res, { login: { accountId: changed.userId } }, { mergeWithLastSubmission: false });
      return;
    }

    const email = form.get('email') ?? '';
    const password = form.get('password') ?? '';
    const result = await accounts.signIn(email, password, { source, interactionId: uid });

    if (result.outcome === 'success' && (await hasActiveSecondFactor(database.db, result.userId))) {
      if (!options.cardKeys) return sendHtml(res, 503, errorPage({ description: 'Two-factor sign-in is not available on this server.', homeHref }));
      const ticket = await issueSignInChallenge(database.db, result.userId, result.passwordExpired);
      return sendHtml(res, 200, secondFactorPage({ action, challenge: ticket }));
    }
    if (result.outcome === 'success' && result.passwordExpired) {
      const changeTicket = await issueExpiredPasswordTicket(database, { id: result.userId, email: result.email });
      return sendHtml(res, 200, expiredPasswordPage({ action, ticket: changeTicket }));
    }
    if (result.outcome === 'success') {
      await recordSignInEvent(database.db, 'SignInSucceeded', { userId: result.userId }, source, { methods: ['pwd'] });
      await provider.interactionFinished(req, res, { login: { accountId: result.userId } }, { mergeWithLastSubmission: false });
      return;
    }
    // One message for an unknown email, a wrong password and a locked account (the holder of a locked account is
    // told by email); only the throttle, which counts every email alike, says more: when to try again.
    if (result.outcome === 'throttled') {
      res.setHeader('Retry-After', String(Math.max(1, Math.ceil((result.retryAt.getTime() - Date.now()) / 1000))));
      return sendHtml(res, 429, signInPage({ action, email, error: messages.tooManyAttempts(formatLockoutEnd(result.retryAt)), forgotHref }));
    }
    if (result.outcome === 'interactionSpent') {
      // The page is done with: no form (a new one comes from the portal, through the authorization endpoint).
      return sendHtml(res, 429, errorPage({ description: messages.interactionSpent, homeHref }));
    }
    return sendHtml(res, 200, signInPage({ action, email, error: messages.invalidCredentials, forgotHref }));
  }

  const confirmEmailAction = `${mount}/confirm-email`;

  /**
   * A link's landing: GET shows a page with one button (a link scanner's visit changes nothing), and the button's
   * same-origin POST hands back the link's token. Null when the request was answered here (the page, 405, 403).
   */
  async function tokenOfButtonPost(req: IncomingMessage, res: ServerResponse, url: URL, page: (token: string) => string): Promise<string | null> {
    if (req.method === 'GET' || req.method === 'HEAD') {
      await sendHtml(res, 200, page(url.searchParams.get('token') ?? ''));
      return null;
    }
    if (req.method !== 'POST') {
      res.setHeader('Allow', 'GET, POST');
      await sendJson(res, 405, { error: 'method_not_allowed' });
      return null;
    }
    const origin = req.headers.origin;
    if (origin && origin !== publicOrigin.origin) {
      await sendHtml(res, 403, errorPage({ description: 'Forbidden.', homeHref }));
      return null;
    }
    return (await readForm(req)).get('token') ?? '';
  }

  /** The link sent to a new email address. */
  async function confirmEmailRoute(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const token = await tokenOfButtonPost(req, res, url, (shown) => confirmEmailPage({ action: confirmEmailAction, token: shown }));
    if (token === null) return;
    const outcome = await confirmEmailChange(database, publicUrl, token);
    const message = outcome === 'changed' ? messages.emailChanged : outcome === 'taken' ? messages.emailTaken : messages.linkExpired;
    return sendHtml(res, outcome === 'changed' ? 200 : 410, messagePage({ title: 'Confirm your new email address', message, link: { href: homeHref, text: 'Sign in' } }));
  }

  const undoEmailChangeAction = `${mount}/undo-email-change`;

  /** The link sent to the old address when an email change is asked for. */
  async function undoEmailChangeRoute(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const token = await tokenOfButtonPost(req, res, url, (shown) => undoEmailChangePage({ action: undoEmailChangeAction, token: shown }));
    if (token === null) return;
    const outcome = await undoEmailChange(database, publicUrl, token);
    const message = outcome === 'undone' ? messages.emailChangeUndone : outcome === 'taken' ? messages.emailChangeUndoTaken : messages.linkExpired;
    return sendHtml(res, outcome === 'undone' ? 200 : 410, messagePage({
      title: 'Undo the email address change', message, link: outcome === 'undone' ? { href: forgotHref, text: 'Choose a new password' } : { href: homeHref, text: 'Sign in' },
    }));
  }

  const forgotHref = `${mount}/forgot-password`;
  const resetAction = `${mount}/reset-password`;

  /** 'Forgot your password?' and the page its emailed link opens (no interaction needed: a link may be opened anywhere). */
  async function passwordRoute(req: IncomingMessage, res: ServerResponse, path: string, url: URL): Promise<void> {
    if (req.method !== 'GET' && req.method !== 'HEAD' && req.method !== 'POST') {
      res.setHeader('Allow', 'GET, POST');
      return sendJson(res, 405, { error: 'method_not_allowed' });
    }
    if (req.method === 'POST') {
      const origin = req.headers.origin;
      if (origin && origin !== publicOrigin.origin) return sendHtml(res, 403, errorPage({ description: 'Forbidden.', homeHref }));
    }
    if (path === forgotHref) {
      if (req.method !== 'POST') return sendHtml(res, 200, forgotPasswordPage({ action: forgotHref, signInHref: homeHref }));
      const form = await readForm(req);
      const outcome = await requestPasswordReset(database, publicUrl, form.get('email') ?? '', clientAddressOf(req));
      if (outcome === 'invalidEmail') return sendHtml(res, 200, forgotPasswordPage({ action: forgotHref, signInHref: homeHref, error: 'Enter an email address.' }));
      if (outcome === 'limited') return sendHtml(res, 429, forgotPasswordPage({ action: forgotHref, signInHref: homeHref, error: messages.tooManyRequests }));
      return sendHtml(res, 200, forgotPasswordPage({ action: forgotHref, signInHref: homeHref, message: resetRequestedMessage }));
    }
    if (req.method !== 'POST') {
      const token = url.searchParams.get('token') ?? '';
      if (!(await usableReset(database, token))) return sendHtml(res, 410, messagePage({ title: 'Choose a new password', message: messages.linkExpired, link: { href: `${forgotHref}`, text: 'Ask for a new link' } }));
      return sendHtml(res, 200, resetPasswordPage({ action: resetAction, token }));
    }
    const form = await readForm(req);
    const token = form.get('token') ?? '';
    const password = form.get('password') ?? '';
    if (password !== (form.get('confirm') ?? '')) return sendHtml(res, 200, resetPasswordPage({ action: resetAction, token, problems: [messages.passwordsDiffer] }));
    const result = await completePasswordReset(database, token, password);
    if (result.outcome === 'expired') return sendHtml(res, 410, messagePage({ title: 'Choose a new password', message: messages.linkExpired, link: { href: forgotHref, text: 'Ask for a new link' } }));
    if (result.outcome === 'refused') return sendHtml(res, 200, resetPasswordPage({ action: resetAction, token, problems: result.problems }));
    return sendHtml(res, 200, messagePage({ title: 'Password changed', message: messages.passwordChanged, link: { href: homeHref, text: 'Sign in' } }));
  }

  /** /connect/userinfo with the Portal API's JWT access token (see the note at the top). */
  async function userinfoWithApiToken(req: IncomingMessage, res: ServerResponse, scheme: 'Bearer' | 'DPoP', token: string): Promise<void> {
    const challenge = (error: string, description: string) =>
      `${scheme} realm="${issuer}", error="${error}", error_description="${description}"`;
    let verified: { userId: string; scopes: string[]; jkt?: string };
    try {
      verified = await verifyAccessToken(token);
    } catch {
      return sendJson(res, 401, { error: 'invalid_token', error_description: 'invalid token provided' }, {
        'WWW-Authenticate': challenge('invalid_token', 'invalid token provided'),
      });
    }
    // A DPoP-bound token only with a proof by its key (as at the Portal API, server/http/dpop.ts).
    if (verified.jkt !== undefined || scheme === 'DPoP') {
      try {
        if (verified.jkt === undefined || scheme !== 'DPoP') throw new DpopError('wrong scheme for this access token');
        const proof = req.headers.dpop;
        await checkDpop({ method: req.method ?? 'GET', url: `${issuer}/userinfo`, accessToken: token, proof: Array.isArray(proof) ? proof.join(',') : proof, jkt: verified.jkt });
      } catch (error) {
        if (!(error instanceof DpopError)) throw error;
        return sendJson(res, 401, { error: 'invalid_dpop_proof', error_description: error.message }, {
          'WWW-Authenticate': `DPoP realm="${issuer}", error="invalid_dpop_proof", algs="${dpopAlgorithms.join(' ')}"`,
        });
      }
    }
    if (!verified.scopes.includes('openid')) {
      return sendJson(res, 403, { error: 'insufficient_scope', error_description: 'access token missing openid scope' }, {
        'WWW-Authenticate': challenge('insufficient_scope', 'access token missing openid scope'),
      });
    }
    const claims = await accounts.claimsFor(verified.userId);
    if (!claims) {
      return sendJson(res, 401, { error: 'invalid_token', error_description: 'associated account not found' }, {
        'WWW-Authenticate': challenge('invalid_token', 'associated account not found'),
      });
    }
    return sendJson(res, 200, releasedClaims(claims, verified.scopes));
  }

  /** Hands a request to oidc-provider with the mount prefix stripped (the express convention it understands). */
  function toProvider(req: IncomingMessage, res: ServerResponse, innerUrl: string, originalUrl: string): Promise<void> {
    (req as IncomingMessage & { originalUrl?: string }).originalUrl = originalUrl;
    req.url = innerUrl;
    return providerCallback(req, res) as Promise<void>;
  }

  const discoveryDocuments = new Set(['openid-configuration', 'oauth-authorization-server']);

  async function route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const rawUrl = req.url ?? '/';
    const url = new URL(rawUrl, 'http://internal.invalid');
    const path = url.pathname;

    // URLs the provider builds come from PUBLIC_URL only (see the note at the top).
    req.headers['x-forwarded-proto'] = publicOrigin.protocol.slice(0, -1);
    req.headers['x-forwarded-host'] = publicOrigin.host;

    if (path === stylesheetPath) {
      res.statusCode = 200;
      res.setHeader('Content-Type', 'text/css; charset=utf-8');
      res.setHeader('Cache-Control', 'public, max-age=3600');
      res.setHeader('X-Content-Type-Options', 'nosniff');
      res.end(req.method === 'HEAD' ? undefined : signInCss);
      return;
    }

    const interaction = path.startsWith(`${mount}/interaction/`) ? path.slice(mount.length + '/interaction/'.length) : undefined;
    if (interaction !== undefined) {
      if (!interaction || interaction.includes('/')) return sendJson(res, 404, { error: 'not_found' });
      let uid: string;
      try {
        uid = decodeURIComponent(interaction);
      } catch {
        // A malformed escape (/interaction/%E0%A4%A) names no interaction: not found, not a server error.
        return sendJson(res, 404, { error: 'not_found' });
      }
      return interactionRoute(req, res, uid);
    }

    if (path === forgotHref || path === resetAction) return passwordRoute(req, res, path, url);
    if (path === confirmEmailAction) return confirmEmailRoute(req, res, url);
    if (path === undoEmailChangeAction) return undoEmailChangeRoute(req, res, url);

    if (path === `${mount}/userinfo`) {
      const bearer = /^(Bearer|DPoP)\s+([A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+)\s*$/i.exec(req.headers.authorization ?? '');
      if (bearer?.[1] && bearer[2] && (req.method === 'GET' || req.method === 'POST')) {
        return userinfoWithApiToken(req, res, bearer[1].toLowerCase() === 'dpop' ? 'DPoP' : 'Bearer', bearer[2]);
      }
    }

    if (path === `${mount}/authorize` && (req.method === 'GET' || req.method === 'HEAD')) {
      // Keep offline_access for the first-party client (see the note at the top).
      const params = url.searchParams;
      const scopes = params.get('scope')?.split(' ') ?? [];
      const prompt = params.get('prompt');
      if (params.get('client_id') === clientId && scopes.includes('offline_access') && params.getAll('prompt').length <= 1) {
        const prompts = prompt ? prompt.split(' ') : [];
        if (!prompts.includes('consent') && !prompts.includes('none')) {
          params.set('prompt', [...prompts, 'consent'].join(' '));
          return toProvider(req, res, `/authorize?${params.toString()}`, `${mount}/authorize?${params.toString()}`);
        }
      }
    }

    if (path === mount || path.startsWith(`${mount}/`)) {
      return toProvider(req, res, rawUrl.slice(mount.length) || '/', rawUrl);
    }

    if (path.startsWith('/.well-known/')) {
      const [, , document, ...rest] = path.split('/');
      const suffix = rest.length ? `/${rest.join('/')}` : '';
      if (document && discoveryDocuments.has(document) && (suffix === '' || suffix === mount)) {
        return toProvider(req, res, `/.well-known/${document}`, `${mount}/.well-known/${document}`);
      }
    }

    sendJson(res, 404, { error: 'not_found' });
  }

  // Browsers that reached the provider over https keep to https (PUBLIC_URL https: TLS ends at the balancer).
  const transportSecurity = issuer.startsWith('https://') ? strictTransportSecurity : null;

  function handle(req: IncomingMessage, res: ServerResponse): void {
    if (transportSecurity) res.setHeader('Strict-Transport-Security', transportSecurity);
    route(req, res).catch((error: unknown) => {
      if (error instanceof HttpError) {
        if (!res.headersSent) sendJson(res, error.status, { error: error.message });
        return;
      }
      logger.error({ component: 'identity', err: error }, 'request failed');
      if (!res.headersSent) sendJson(res, 500, { error: 'server_error' });
      else res.destroy();
    });
  }

  return { handle, verifyAccessToken };
}
