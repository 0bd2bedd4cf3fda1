// The identity's request router: every request under /connect and /.well-known (main.ts mounts it before Hono). It
// answers the pages of a sign-in itself (the interaction: email and password, the second factor, an expired password,
// an accepted invitation's hand-off; 'Forgot your password?' and its link; the links of an email change), the
// userinfo calls made with the Portal API's JWT access token, and hands everything else to the provider configured in
// server/identity/provider.ts (see the decisions noted there: proxy headers from PUBLIC_URL, offline_access, userinfo).
// The flows behind the pages are the users' (server/users/: password reset, second factor, email change,
// invitations); the pages' HTML is server/identity/pages.ts.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { eq } from 'drizzle-orm';
import { users } from '../db/schema.ts';
import { createProvider, releasedClaims, type AccessTokenClaims, type IdentityOptions } from '../identity/provider.ts';
import { recordSignInEvent, sourceOf, type AttemptSource } from '../identity/sign-in-guard.ts';
import {
  confirmEmailPage,
  errorPage,
  expiredPasswordPage,
  forgotPasswordPage,
  formatLockoutEnd,
  messagePage,
  messages,
  resetPasswordPage,
  secondFactorPage,
  signInCss,
  signInPage,
  stylesheetPath,
  undoEmailChangePage,
} from '../identity/pages.ts';
import { strictTransportSecurity } from '../http/security-headers.ts';
import { createDpopVerifier, DpopError, dpopAlgorithms } from '../http/dpop.ts';
import { logger } from '../log.ts';
import { clientAddressOf } from '../client-address.ts';
import { completePasswordReset, issueExpiredPasswordTicket, requestPasswordReset, usableReset } from '../users/password-reset.ts';
import { answerSignInChallenge, hasActiveSecondFactor, issueSignInChallenge } from '../users/second-factor.ts';
import { confirmEmailChange, undoEmailChange } from '../users/email-change.ts';
import { invitationSignInCookie, invitationSignInCookiePath, spendInvitationSignIn } from '../users/invitations.ts';

export type Identity = {
  /** Node request listener for every path under /connect and /.well-known (mounted by the lead's main.ts before Hono) */
  handle: (req: IncomingMessage, res: ServerResponse) => void;
  /** verifies a bearer access token for the Portal API: signature (jose, local JWKS), issuer, audience = apiAudience, expiry, typ at+jwt. Returns the user id (sub) and scopes, throws on anything wrong */
  verifyAccessToken: (token: string) => Promise<AccessTokenClaims>;
};

const resetRequestedMessage = 'If an account exists for this email address, we have sent it a link to reset the password. The link is valid for 15 minutes.';

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
  const { database, publicUrl, clientId, issuer } = options;
  const { provider, accounts, verifyAccessToken, mount, publicOrigin, homeHref, csp } = await createProvider(options);
  const checkDpop = createDpopVerifier();
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
    sendHtml(
      res,
      400,
      messagePage({
        title: 'Sign in',
        message: messages.interactionExpired,
        link: { href: homeHref, text: 'Back to the portal' },
      }),
    );
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
  async function grantConsent(req: IncomingMessage, res: ServerResponse, interaction: Awaited<ReturnType<typeof provider.interactionDetails>>): Promise<void> {
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
      if (readCookie(req, invitationSignInCookie) !== undefined) return invitationSignIn(req, res, action);
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
  async function invitationSignIn(req: IncomingMessage, res: ServerResponse, action: string): Promise<void> {
    const secret = readCookie(req, invitationSignInCookie) ?? '';
    res.appendHeader(
      'Set-Cookie',
      `${invitationSignInCookie}=; Path=${invitationSignInCookiePath(publicUrl)}; Max-Age=0; HttpOnly; SameSite=Strict${publicOrigin.protocol === 'https:' ? '; Secure' : ''}`,
    );
    const handedOff = await spendInvitationSignIn(database.db, secret);
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
      await provider.interactionFinished(
        req,
        res,
        { login: { accountId: answered.userId, acr: 'urn:portal:mfa', amr: ['pwd', 'otp'] } },
        { mergeWithLastSubmission: false },
      );
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
    return sendHtml(
      res,
      outcome === 'changed' ? 200 : 410,
      messagePage({ title: 'Confirm your new email address', message, link: { href: homeHref, text: 'Sign in' } }),
    );
  }

  const undoEmailChangeAction = `${mount}/undo-email-change`;

  /** The link sent to the old address when an email change is asked for. */
  async function undoEmailChangeRoute(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const token = await tokenOfButtonPost(req, res, url, (shown) => undoEmailChangePage({ action: undoEmailChangeAction, token: shown }));
    if (token === null) return;
    const outcome = await undoEmailChange(database, publicUrl, token);
    const message = outcome === 'undone' ? messages.emailChangeUndone : outcome === 'taken' ? messages.emailChangeUndoTaken : messages.linkExpired;
    return sendHtml(
      res,
      outcome === 'undone' ? 200 : 410,
      messagePage({
        title: 'Undo the email address change',
        message,
        link: outcome === 'undone' ? { href: forgotHref, text: 'Choose a new password' } : { href: homeHref, text: 'Sign in' },
      }),
    );
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
      if (outcome === 'invalidEmail')
        return sendHtml(res, 200, forgotPasswordPage({ action: forgotHref, signInHref: homeHref, error: 'Enter an email address.' }));
      if (outcome === 'limited') return sendHtml(res, 429, forgotPasswordPage({ action: forgotHref, signInHref: homeHref, error: messages.tooManyRequests }));
      return sendHtml(res, 200, forgotPasswordPage({ action: forgotHref, signInHref: homeHref, message: resetRequestedMessage }));
    }
    if (req.method !== 'POST') {
      const token = url.searchParams.get('token') ?? '';
      if (!(await usableReset(database, token)))
        return sendHtml(
          res,
          410,
          messagePage({ title: 'Choose a new password', message: messages.linkExpired, link: { href: `${forgotHref}`, text: 'Ask for a new link' } }),
        );
      return sendHtml(res, 200, resetPasswordPage({ action: resetAction, token }));
    }
    const form = await readForm(req);
    const token = form.get('token') ?? '';
    const password = form.get('password') ?? '';
    if (password !== (form.get('confirm') ?? ''))
      return sendHtml(res, 200, resetPasswordPage({ action: resetAction, token, problems: [messages.passwordsDiffer] }));
    const result = await completePasswordReset(database, token, password);
    if (result.outcome === 'expired')
      return sendHtml(
        res,
        410,
        messagePage({ title: 'Choose a new password', message: messages.linkExpired, link: { href: forgotHref, text: 'Ask for a new link' } }),
      );
    if (result.outcome === 'refused') return sendHtml(res, 200, resetPasswordPage({ action: resetAction, token, problems: result.problems }));
    return sendHtml(res, 200, messagePage({ title: 'Password changed', message: messages.passwordChanged, link: { href: homeHref, text: 'Sign in' } }));
  }

  /** /connect/userinfo with the Portal API's JWT access token (see the note at the top). */
  async function userinfoWithApiToken(req: IncomingMessage, res: ServerResponse, scheme: 'Bearer' | 'DPoP', token: string): Promise<void> {
    const challenge = (error: string, description: string) => `${scheme} realm="${issuer}", error="${error}", error_description="${description}"`;
    let verified: { userId: string; scopes: string[]; jkt?: string };
    try {
      verified = await verifyAccessToken(token);
    } catch {
      return sendJson(
        res,
        401,
        { error: 'invalid_token', error_description: 'invalid token provided' },
        {
          'WWW-Authenticate': challenge('invalid_token', 'invalid token provided'),
        },
      );
    }
    // A DPoP-bound token only with a proof by its key (as at the Portal API, server/http/dpop.ts).
    if (verified.jkt !== undefined || scheme === 'DPoP') {
      try {
        if (verified.jkt === undefined || scheme !== 'DPoP') throw new DpopError('wrong scheme for this access token');
        const proof = req.headers.dpop;
        await checkDpop({
          method: req.method ?? 'GET',
          url: `${issuer}/userinfo`,
          accessToken: token,
          proof: Array.isArray(proof) ? proof.join(',') : proof,
          jkt: verified.jkt,
        });
      } catch (error) {
        if (!(error instanceof DpopError)) throw error;
        return sendJson(
          res,
          401,
          { error: 'invalid_dpop_proof', error_description: error.message },
          {
            'WWW-Authenticate': `DPoP realm="${issuer}", error="invalid_dpop_proof", algs="${dpopAlgorithms.join(' ')}"`,
          },
        );
      }
    }
    if (!verified.scopes.includes('openid')) {
      return sendJson(
        res,
        403,
        { error: 'insufficient_scope', error_description: 'access token missing openid scope' },
        {
          'WWW-Authenticate': challenge('insufficient_scope', 'access token missing openid scope'),
        },
      );
    }
    const claims = await accounts.claimsFor(verified.userId);
    if (!claims) {
      return sendJson(
        res,
        401,
        { error: 'invalid_token', error_description: 'associated account not found' },
        {
          'WWW-Authenticate': challenge('invalid_token', 'associated account not found'),
        },
      );
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
