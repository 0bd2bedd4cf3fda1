// Invitations, resets and expired passwords against a real HTTP server with the provider and the Portal API, on PGlite and PostgreSQL: 'Forgot your
// password?' and the emailed reset link, a reset sent by an administrator, the change forced at sign-in when a
// password has expired, and an invitation accepted from its email link followed by a sign-in with a standard OpenID
// Connect client library (oauth4webapi) that sees only the inviting business; TOTP sign-in through the same client.
// Every email is sent by the mail worker through a real SMTP server started here (smtp-server) and read from what
// arrived there, decoded as a mail client would; the outbox row it came from is found by its Message-ID.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import * as oauth from 'oauth4webapi';
import { CookieJar } from '../../../scripts/oidc-sign-in.ts';
import { getRequestListener } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createApp } from '../../../server/app.ts';
import type { Database } from '../../../server/db/client.ts';
import * as schema from '../../../server/db/schema.ts';
import { hashPassword } from '../../../server/identity/passwords.ts';
import { createIdentity, type Identity } from '../../../server/sign-in/router.ts';
import { currentCode } from '../../../server/users/second-factor.ts';
import { openMailTransport, type MailTransport } from '../../../server/mail/transport.ts';
import { startMailWorker, type MailWorker } from '../../../server/mail/worker.ts';
import { headerOf, linkTo, plainTextOf } from '../mail/read-mail.ts';
import { startSmtpTestServer, type SmtpTestServer } from '../mail/smtp-test-server.ts';
import { createTestDatabase, databaseKinds, testCardKeys } from '../support.ts';
import { now } from '../../../server/clock.ts';

const insecure = { [oauth.allowInsecureRequests]: true } as const;
const client: oauth.Client = { client_id: 'portal' };
const oldPassword = 'Granite-otter-lamp-2041';
const newPassword = 'Saffron-meadow-violin-77';

let server: Server;
let database: Database;
let identity: Identity;
let publicUrl: string;
let issuer: string;
let apiAudience: string;
let redirectUri: string;
let as: oauth.AuthorizationServer;
let smtp: SmtpTestServer;
let mailTransport: MailTransport;
let mailWorker: MailWorker;

class Browser extends CookieJar {
  request(url: string, init: { method?: string; body?: URLSearchParams } = {}) {
    return this.fetch(url, init);
  }
  async follow(url: string, init: { method?: string; body?: URLSearchParams } = {}) {
    let response = await this.request(url, init);
    let current = url;
    for (let hops = 0; hops < 10 && response.status >= 300 && response.status < 400; hops += 1) {
      const location = new URL(response.headers.get('location') ?? '', current).href;
      if (!location.startsWith(`${publicUrl}/connect/`)) return { location, response, url: current };
      current = location;
      response = await this.request(current);
    }
    return { location: undefined, response, url: current };
  }
}

async function startSignIn(browser: Browser) {
  const codeVerifier = oauth.generateRandomCodeVerifier();
  const state = oauth.generateRandomState();
  const url = new URL(as.authorization_endpoint ?? '');
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
  const { response, url: interactionUrl } = await browser.follow(url.href);
  return { codeVerifier, state, interactionUrl, html: await response.text() };
}

async function finish(started: { codeVerifier: string; state: string }, location: string | undefined) {
  expect(location?.startsWith(redirectUri)).toBe(true);
  const params = oauth.validateAuthResponse(as, client, new URL(location ?? ''), started.state);
  const response = await oauth.authorizationCodeGrantRequest(as, client, oauth.None(), params, redirectUri, started.codeVerifier, {
    ...insecure,
    additionalParameters: { resource: apiAudience },
  });
  return oauth.processAuthorizationCodeResponse(as, client, response);
}

async function signIn(email: string, password: string) {
  const browser = new Browser();
  const started = await startSignIn(browser);
  const { location } = await browser.follow(started.interactionUrl, { method: 'POST', body: new URLSearchParams({ email, password }) });
  return finish(started, location);
}

async function api(token: string, method: string, path: string, body?: unknown) {
  return fetch(`${publicUrl}/api/portal${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
}

/**
 * The newest message for `recipient` that arrived at the SMTP server once the worker sent what was due: its decoded
 * plain text and subject, and the template and status of the outbox row named by its Message-ID.
 */
async function lastEmail(recipient: string) {
  await mailWorker.drain();
  const mail = smtp.received.filter((message) => message.to.some((to) => to.toLowerCase() === recipient.toLowerCase())).at(-1);
  if (!mail) return undefined;
  const outboxId = /^<([^@>]+)@/.exec(headerOf(mail.raw, 'Message-ID') ?? '')?.[1] ?? '';
  const [row] = await database.query<{ template: string; status: string }>('SELECT template, status FROM outbound_emails WHERE id = $1', [outboxId]);
  return { text: plainTextOf(mail.raw), subject: headerOf(mail.raw, 'Subject'), template: row?.template, status: row?.status };
}
/** The invitation page's question, with the link's secret in a POST body (never in a logged path). */
const lookupInvitation = (inviteId: string) =>
  fetch(`${publicUrl}/api/public/user-invites/lookup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ inviteId }),
  });
const linkIn = (text: string, path: string) => linkTo(text, path) ?? new URL('about:blank');
const hidden = (html: string, name: string) => new RegExp(`name="${name}" value="([^"]*)"`).exec(html)?.[1] ?? '';

for (const kind of databaseKinds)
  describe(`on ${kind}`, () => {
    beforeAll(async () => {
      database = await createTestDatabase(kind);
      smtp = await startSmtpTestServer();
      mailTransport = openMailTransport({ smtpUrl: smtp.url, log: () => {} });
      // Polls never: each test sends what is due (drain) before reading the SMTP server.
      mailWorker = startMailWorker({ database, transport: mailTransport, from: 'Payments portal <no-reply@portal.test>', pollMs: 60_000 });
      await mailWorker.stop();
      let apiListener: ReturnType<typeof getRequestListener> | undefined;
      server = createServer((req, res) => {
        const path = req.url ?? '/';
        if (path.startsWith('/connect') || path.startsWith('/.well-known/')) identity.handle(req, res);
        else void apiListener?.(req, res);
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      publicUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      issuer = `${publicUrl}/connect`;
      apiAudience = `${publicUrl}/api/portal`;
      redirectUri = `${publicUrl}/sign-in`;
      identity = await createIdentity({ database, publicUrl, clientId: 'portal', issuer, apiAudience, cardKeys: testCardKeys });
      apiListener = getRequestListener(createApp({ database, cardKeys: testCardKeys, verifyAccessToken: identity.verifyAccessToken, publicUrl }).fetch);
      const passwordHash = await hashPassword(oldPassword);
      await database.db.insert(schema.businesses).values([
        { id: 'B9', name: 'Nine Elms Bikes Ltd' },
        { id: 'B8', name: 'Other Ltd' },
      ]);
      await database.db.insert(schema.merchants).values([{ id: 'M9', businessId: 'B9', name: 'Nine Elms Online', currencies: ['GBP'] }]);
      await database.db.insert(schema.users).values([
        { id: 'u-forgot', email: 'forgot@example.com', givenName: 'Fran', familyName: 'Forget', passwordHash },
        {
          id: 'u-expired',
          email: 'expired@example.com',
          givenName: 'Ezra',
          familyName: 'Old',
          passwordHash,
          passwordExpiresUtc: new Date(Date.now() - 86_400_000),
        },
        { id: 'u-owner9', email: 'owner9@example.com', givenName: 'Opal', familyName: 'Nine', passwordHash },
        { id: 'u-totp', email: 'totp@example.com', givenName: 'Tess', familyName: 'Otp', passwordHash },
        { id: 'u-admin9', email: 'admin9@example.com', givenName: 'Ada', familyName: 'Admin', passwordHash, internal: true },
        { id: 'u-reset', email: 'reset@example.com', givenName: 'Rae', familyName: 'Set', passwordHash },
      ]);
      await database.db.insert(schema.userRoles).values([
        { userId: 'u-owner9', role: 'Owner', level: 'business', businessId: 'B9' },
        { userId: 'u-expired', role: 'Finance', level: 'business', businessId: 'B8' },
        { userId: 'u-totp', role: 'Finance', level: 'business', businessId: 'B8' },
        { userId: 'u-admin9', role: 'TechnicalAdmin', level: 'root' },
        { userId: 'u-reset', role: 'Finance', level: 'business', businessId: 'B9' },
      ]);
      const issuerUrl = new URL(issuer);
      as = await oauth.processDiscoveryResponse(issuerUrl, await oauth.discoveryRequest(issuerUrl, insecure));
    }, 60_000);

    afterAll(async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      mailTransport.close();
      await smtp.close();
      await database.close();
    });

    describe('forgot your password', () => {
      it('links from the sign-in page, emails a single-use link, and the new password signs in', async () => {
        const started = await startSignIn(new Browser());
        expect(started.html).toContain('<a href="/connect/forgot-password">Forgot your password?</a>');
        const form = await fetch(`${publicUrl}/connect/forgot-password`);
        expect(await form.text()).toContain('<label for="email">Email</label>');
        const known = await (
          await fetch(`${publicUrl}/connect/forgot-password`, { method: 'POST', body: new URLSearchParams({ email: 'Forgot@Example.com' }) })
        ).text();
        const unknown = await (
          await fetch(`${publicUrl}/connect/forgot-password`, { method: 'POST', body: new URLSearchParams({ email: 'ghost@example.com' }) })
        ).text();
        expect(known).toBe(unknown);
        expect(known).toContain('If an account exists for this email address');
        expect(await lastEmail('ghost@example.com')).toBeUndefined();
        const mail = await lastEmail('forgot@example.com');
        expect(mail).toMatchObject({ template: 'passwordReset', status: 'sent', subject: 'Reset your payments portal password' });
        expect(mail?.text).toContain('It can be used once and is valid for 15 minutes.');
        const link = linkIn(mail?.text ?? '', '/connect/reset-password');
        expect(link.pathname).toBe('/connect/reset-password');
        const page = await (await fetch(link)).text();
        const token = hidden(page, 'token');
        expect(token).toBe(link.searchParams.get('token'));
        const post = (password: string, confirm = password) =>
          fetch(`${publicUrl}/connect/reset-password`, { method: 'POST', body: new URLSearchParams({ token, password, confirm }) });
        expect(await (await post(newPassword, 'different-thing-here')).text()).toContain('The two passwords are not the same.');
        expect(await (await post('password12345')).text()).toContain('The password is too easy to guess.');
        const done = await post(newPassword);
        expect(await done.text()).toContain('Your password has been changed.');
        const again = await post('Another-quiet-lantern-58');
        expect(again.status).toBe(410);
        expect(await again.text()).toContain('Oops that link has expired.');
        const tokens = await signIn('forgot@example.com', newPassword);
        expect((await identity.verifyAccessToken(tokens.access_token)).userId).toBe('u-forgot');
      });
    });

    describe('a reset sent by an administrator', () => {
      it('an owner sends a user of the business a reset email; its link sets a new password that signs in, once', async () => {
        const owner = await signIn('owner9@example.com', oldPassword);
        const sent = await api(owner.access_token, 'POST', '/users/u-reset/password-reset-email');
        expect(sent.status).toBe(202);
        const mail = await lastEmail('reset@example.com');
        expect(mail).toMatchObject({ template: 'passwordReset', status: 'sent', subject: 'Reset your payments portal password' });
        const link = linkIn(mail?.text ?? '', '/connect/reset-password');
        expect(link.origin).toBe(publicUrl);
        const token = hidden(await (await fetch(link)).text(), 'token');
        expect(token).toBe(link.searchParams.get('token'));
        const chosen = 'Harbour-kestrel-pencil-31';
        const done = await fetch(`${publicUrl}/connect/reset-password`, {
          method: 'POST',
          body: new URLSearchParams({ token, password: chosen, confirm: chosen }),
        });
        expect(await done.text()).toContain('Your password has been changed.');
        const reused = await fetch(`${publicUrl}/connect/reset-password`, {
          method: 'POST',
          body: new URLSearchParams({ token, password: 'Another-quiet-lantern-58', confirm: 'Another-quiet-lantern-58' }),
        });
        expect(reused.status).toBe(410);
        expect((await identity.verifyAccessToken((await signIn('reset@example.com', chosen)).access_token)).userId).toBe('u-reset');
        await expect(signIn('reset@example.com', oldPassword)).rejects.toThrow();
        const [audit] = await database.query<{ n: string }>(
          `SELECT count(*) AS n FROM audit_events WHERE event = 'PasswordResetEmailSent' AND meta_data->>'targetUserId' = 'u-reset'`,
        );
        expect(Number(audit?.n)).toBe(1);
      });
    });

    describe('expired password', () => {
      it('asks for a new password after the right expired one, then finishes the sign-in', async () => {
        const browser = new Browser();
        const started = await startSignIn(browser);
        const first = await browser.follow(started.interactionUrl, {
          method: 'POST',
          body: new URLSearchParams({ email: 'expired@example.com', password: oldPassword }),
        });
        expect(first.location).toBeUndefined();
        const html = await first.response.text();
        expect(html).toContain('<h1>Your password has expired</h1>');
        const ticket = hidden(html, 'ticket');
        expect(ticket.length).toBeGreaterThan(30);
        const weak = await browser.follow(started.interactionUrl, {
          method: 'POST',
          body: new URLSearchParams({ ticket, password: oldPassword, confirm: oldPassword }),
        });
        expect(await weak.response.text()).toContain('The new password must differ from the current one.');
        const changed = await browser.follow(started.interactionUrl, {
          method: 'POST',
          body: new URLSearchParams({ ticket, password: newPassword, confirm: newPassword }),
        });
        const tokens = await finish(started, changed.location);
        expect((await identity.verifyAccessToken(tokens.access_token)).userId).toBe('u-expired');
        const [row] = await database.db.select().from(schema.users).where(eq(schema.users.id, 'u-expired'));
        expect(row?.passwordExpiresUtc?.getTime()).toBeGreaterThan(Date.now() + 100 * 86_400_000);
        await expect(signIn('expired@example.com', oldPassword)).rejects.toThrow();
      });
    });

    describe('invitation', () => {
      it('an owner invites; the invitee accepts from the email link, signs in and sees only that business', async () => {
        const owner = await signIn('owner9@example.com', oldPassword);
        const invited = await api(owner.access_token, 'POST', '/users', {
          emails: ['new.finance@example.com'],
          policy: { roles: [], businessPolicies: [{ businessId: 'B9', roles: ['Finance'], merchantPolicies: [] }] },
        });
        expect(invited.status).toBe(201);
        const invitation = await lastEmail('new.finance@example.com');
        const [business] = await database.db.select().from(schema.businesses).where(eq(schema.businesses.id, 'B9'));
        expect(invitation).toMatchObject({
          template: 'userInvitation',
          status: 'sent',
          subject: `Opal Nine invited you to ${business?.name} on the payments portal`,
        });
        expect(invitation?.text).toContain(`Opal Nine has invited you to the payments portal, as Finance of ${business?.name}.`);
        const link = linkIn(invitation?.text ?? '', '/user-invite');
        expect(link.origin).toBe(publicUrl);
        expect(link.pathname).toBe('/user-invite');
        const inviteId = link.searchParams.get('InviteId') ?? '';
        expect((await lookupInvitation(inviteId)).status).toBe(200);
        // Before accepting there is no password: nothing signs in.
        await expect(signIn('new.finance@example.com', newPassword)).rejects.toThrow();
        const accept = await fetch(`${publicUrl}/api/public/user-invites/accept`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ inviteId, givenName: 'Nell', familyName: 'Finch', password: newPassword }),
        });
        expect(accept.status).toBe(200);
        expect(await accept.json()).toEqual({ message: 'Your account is ready. We have sent you a welcome email; signing you in now.' });
        const welcome = await lastEmail('new.finance@example.com');
        expect(welcome).toMatchObject({ template: 'userWelcome', status: 'sent', subject: 'Welcome to the payments portal' });
        expect(welcome?.text).toContain('Welcome, Nell');
        // The link is single-use: the page's call and a second acceptance say it has expired.
        const reopened = await lookupInvitation(inviteId);
        expect(reopened.status).toBe(410);
        expect(JSON.stringify(await reopened.json())).toContain('Oops that link has expired.');
        const again = await fetch(`${publicUrl}/api/public/user-invites/accept`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ inviteId, givenName: 'Eve', familyName: 'Again', password: 'Copper-heron-window-93' }),
        });
        expect(again.status).toBe(410);
        const invitee = await signIn('new.finance@example.com', newPassword);
        const businesses = (await (await api(invitee.access_token, 'GET', '/user/businesses')).json()) as { results: { businessId: string }[] };
        expect(businesses.results.map((business) => business.businessId)).toEqual(['B9']);
        expect((await api(invitee.access_token, 'GET', '/user/businesses/B8/permissions')).status).toBe(404);
      });
    });

    describe('signed in right after accepting an invitation', () => {
      async function userIdOf(email: string) {
        const [row] = await database.db.select({ id: schema.users.id }).from(schema.users).where(eq(schema.users.email, email));
        return row?.id ?? '';
      }
      async function invite(emails: string[]) {
        const owner = await signIn('owner9@example.com', oldPassword);
        expect(
          (
            await api(owner.access_token, 'POST', '/users', {
              emails,
              policy: { roles: [], businessPolicies: [{ businessId: 'B9', roles: ['Finance'], merchantPolicies: [] }] },
            })
          ).status,
        ).toBe(201);
        const ids: string[] = [];
        for (const email of emails) ids.push(linkIn((await lastEmail(email))?.text ?? '', '/user-invite').searchParams.get('InviteId') ?? '');
        return ids;
      }
      /** The portal's sign-in (asking for the login) in `browser`: where the provider sends it, and the page it shows if it stops. */
      async function portalSignIn(browser: Browser) {
        const codeVerifier = oauth.generateRandomCodeVerifier();
        const state = oauth.generateRandomState();
        const url = new URL(as.authorization_endpoint ?? '');
        for (const [name, value] of Object.entries({
          client_id: 'portal',
          redirect_uri: redirectUri,
          response_type: 'code',
          scope: 'openid profile identity portal offline_access',
          prompt: 'login consent',
          resource: apiAudience,
          state,
          code_challenge: await oauth.calculatePKCECodeChallenge(codeVerifier),
          code_challenge_method: 'S256',
        }))
          url.searchParams.set(name, value);
        const { location, response } = await browser.follow(url.href);
        return { codeVerifier, state, location, html: await response.text() };
      }

      it('the acceptance’s single-use cookie signs the invitee in once, within minutes, and nothing else does', async () => {
        const [first = '', second = ''] = await invite(['ida.wren@example.com', 'late.wren@example.com']);
        const browser = new Browser();
        // The page posts JSON; the cookie comes back HttpOnly, SameSite=Strict and only for the provider's interaction pages.
        const response = await fetch(`${publicUrl}/api/public/user-invites/accept`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ inviteId: first, givenName: 'Ida', familyName: 'Wren', password: newPassword }),
        });
        expect(response.status).toBe(200);
        const cookie = response.headers.getSetCookie().find((line) => line.startsWith('portal_invitation_sign_in=')) ?? '';
        expect(cookie).toMatch(/; Max-Age=300/);
        expect(cookie).toMatch(/; Path=\/connect\/interaction/);
        expect(cookie).toMatch(/; HttpOnly/);
        expect(cookie).toMatch(/; SameSite=Strict/);
        const secret = /^portal_invitation_sign_in=([^;]+)/.exec(cookie)?.[1] ?? '';
        expect(secret.length).toBeGreaterThan(30);
        const [stored] = await database.db
          .select()
          .from(schema.userInvitations)
          .where(eq(schema.userInvitations.userId, await userIdOf('ida.wren@example.com')));
        expect(stored?.signInTokenHash).not.toContain(secret);

        // A copy of the cookie in a second browser, used after the first: the ordinary sign-in page.
        const copy = new Browser();
        copy.cookies.set('portal_invitation_sign_in', secret);
        browser.cookies.set('portal_invitation_sign_in', secret);
        const started = await portalSignIn(browser);
        const tokens = await finish(started, started.location);
        expect((await identity.verifyAccessToken(tokens.access_token)).userId).toBe(await userIdOf('ida.wren@example.com'));
        const businesses = (await (await api(tokens.access_token, 'GET', '/user/businesses')).json()) as { results: { businessId: string }[] };
        expect(businesses.results.map((business) => business.businessId)).toEqual(['B9']);
        // used: the cookie is cleared and the hand-off is spent
        expect(browser.cookies.has('portal_invitation_sign_in')).toBe(false);
        const replayed = await portalSignIn(copy);
        expect(replayed.location).toBeUndefined();
        expect(replayed.html).toContain('name="password"');
        const audits = await database.db
          .select()
          .from(schema.auditEvents)
          .where(eq(schema.auditEvents.userId, await userIdOf('ida.wren@example.com')));
        expect(audits.filter((audit) => audit.event === 'SignInSucceeded').map((audit) => (audit.metaData as { invitation?: boolean }).invitation)).toEqual([
          true,
        ]);

        // A made-up cookie, and one past its minutes, sign no one in.
        const forged = new Browser();
        forged.cookies.set('portal_invitation_sign_in', 'x'.repeat(43));
        expect((await portalSignIn(forged)).location).toBeUndefined();
        const late = new Browser();
        const lateAccept = await fetch(`${publicUrl}/api/public/user-invites/accept`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ inviteId: second, givenName: 'Lee', familyName: 'Wren', password: newPassword }),
        });
        const lateSecret =
          /^portal_invitation_sign_in=([^;]+)/.exec(
            lateAccept.headers.getSetCookie().find((line) => line.startsWith('portal_invitation_sign_in=')) ?? '',
          )?.[1] ?? '';
        await database.db
          .update(schema.userInvitations)
          .set({ signInExpiresAt: new Date(0) })
          .where(eq(schema.userInvitations.userId, await userIdOf('late.wren@example.com')));
        late.cookies.set('portal_invitation_sign_in', lateSecret);
        const stale = await portalSignIn(late);
        expect(stale.location).toBeUndefined();
        expect(stale.html).toContain('name="password"');
      });

      it('refuses the hand-off of an account locked since the acceptance, and records the refusal as a locked sign-in', async () => {
        const [inviteId = ''] = await invite(['locked.wren@example.com']);
        const accepted = await fetch(`${publicUrl}/api/public/user-invites/accept`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ inviteId, givenName: 'Lou', familyName: 'Wren', password: newPassword }),
        });
        expect(accepted.status).toBe(200);
        const secret =
          /^portal_invitation_sign_in=([^;]+)/.exec(accepted.headers.getSetCookie().find((line) => line.startsWith('portal_invitation_sign_in=')) ?? '')?.[1] ??
          '';
        const userId = await userIdOf('locked.wren@example.com');
        await database.db
          .update(schema.users)
          .set({ lockoutEndDateUtc: new Date(now().getTime() + 3_600_000) })
          .where(eq(schema.users.id, userId));
        const browser = new Browser();
        browser.cookies.set('portal_invitation_sign_in', secret);
        const refused = await portalSignIn(browser);
        expect(refused.location).toBeUndefined();
        expect(refused.html).toContain('name="password"');
        const audits = await database.db.select().from(schema.auditEvents).where(eq(schema.auditEvents.userId, userId));
        expect(audits.filter((audit) => audit.event === 'SignInSucceeded')).toEqual([]);
        expect(audits.filter((audit) => audit.event === 'SignInFailed').map((audit) => audit.metaData)).toEqual([
          expect.objectContaining({ reason: 'locked', invitation: true, targetUserId: userId }),
        ]);
      });
    });

    describe('two-factor sign-in (TOTP)', () => {
      it('enrols from the profile calls, then asks for a code at sign-in; a code works once, recovery codes once each; an admin reset is audited', async () => {
        const first = await signIn('totp@example.com', oldPassword);
        // A password-only sign-in's tokens do not claim the second factor (approving a beneficiary asks for it).
        expect((await identity.verifyAccessToken(first.access_token)).amr).not.toContain('otp');
        expect((await api(first.access_token, 'POST', '/user/second-factor/enrolment', { currentPassword: 'not-the-password' })).status).toBe(400);
        const started = await api(first.access_token, 'POST', '/user/second-factor/enrolment', { currentPassword: oldPassword });
        expect(started.status).toBe(200);
        const enrolment = (await started.json()) as { otpauthUri: string; secret: string; qrCodeDataUrl: string };
        expect(enrolment.otpauthUri).toMatch(/^otpauth:\/\/totp\/Payments%20portal:totp%40example\.com\?/);
        expect(enrolment.qrCodeDataUrl).toMatch(/^data:image\/png;base64,/);
        const [stored] = await database.query<{ sealed: string }>(`SELECT sealed FROM user_second_factors WHERE user_id = 'u-totp'`);
        expect(stored?.sealed).not.toContain(enrolment.secret);
        expect((await api(first.access_token, 'POST', '/user/second-factor/enrolment/confirm', { code: '000000' })).status).toBe(400);
        const confirmed = await api(first.access_token, 'POST', '/user/second-factor/enrolment/confirm', { code: currentCode(enrolment.secret) });
        expect(confirmed.status).toBe(200);
        const { recoveryCodes } = (await confirmed.json()) as { recoveryCodes: string[] };
        expect(recoveryCodes).toHaveLength(10);
        expect(new Set(recoveryCodes).size).toBe(10);

        // The password alone no longer signs in: the provider asks for the code.
        const browser = new Browser();
        const started2 = await startSignIn(browser);
        const afterPassword = await browser.follow(started2.interactionUrl, {
          method: 'POST',
          body: new URLSearchParams({ email: 'totp@example.com', password: oldPassword }),
        });
        expect(afterPassword.location).toBeUndefined();
        const page = await afterPassword.response.text();
        expect(page).toContain('<h1>Two-factor sign-in</h1>');
        expect(page).toContain('autocomplete="one-time-code"');
        const challenge = hidden(page, 'challenge');
        const wrong = await browser.follow(started2.interactionUrl, { method: 'POST', body: new URLSearchParams({ challenge, code: '123456' }) });
        expect(await wrong.response.text()).toContain('That code is not right.');
        // The code used to confirm the enrolment is spent: the next one (30 s on) is accepted.
        const usedAgain = await browser.follow(started2.interactionUrl, {
          method: 'POST',
          body: new URLSearchParams({ challenge, code: currentCode(enrolment.secret) }),
        });
        expect(await usedAgain.response.text()).toContain('That code is not right.');
        const next = await browser.follow(started2.interactionUrl, {
          method: 'POST',
          body: new URLSearchParams({ challenge, code: currentCode(enrolment.secret, Date.now() + 30_000) }),
        });
        const tokens = await finish(started2, next.location);
        expect(await identity.verifyAccessToken(tokens.access_token)).toMatchObject({ userId: 'u-totp', amr: ['pwd', 'otp'] });
        // The access tokens of later refreshes still say the session signed in with the second factor.
        const refreshed = await oauth.processRefreshTokenResponse(
          as,
          client,
          await oauth.refreshTokenGrantRequest(as, client, oauth.None(), tokens.refresh_token ?? '', insecure),
        );
        expect((await identity.verifyAccessToken(refreshed.access_token)).amr).toEqual(['pwd', 'otp']);

        // A recovery code signs in once.
        const viaRecovery = async () => {
          const recoveryBrowser = new Browser();
          const flow = await startSignIn(recoveryBrowser);
          const step = await recoveryBrowser.follow(flow.interactionUrl, {
            method: 'POST',
            body: new URLSearchParams({ email: 'totp@example.com', password: oldPassword }),
          });
          const ticket = hidden(await step.response.text(), 'challenge');
          const answer = await recoveryBrowser.follow(flow.interactionUrl, {
            method: 'POST',
            body: new URLSearchParams({ challenge: ticket, code: recoveryCodes[0] ?? '' }),
          });
          return { flow, answer };
        };
        const once = await viaRecovery();
        expect((await identity.verifyAccessToken((await finish(once.flow, once.answer.location)).access_token)).userId).toBe('u-totp');
        const twice = await viaRecovery();
        expect(twice.answer.location).toBeUndefined();
        expect(await twice.answer.response.text()).toContain('That code is not right.');

        // A technical admin resets the second factor: audited, and the password alone signs in again.
        const admin = await signIn('admin9@example.com', oldPassword);
        expect((await api(admin.access_token, 'DELETE', '/users/u-totp/second-factor')).status).toBe(204);
        const [audit] = await database.query<{ n: string }>(
          `SELECT count(*) AS n FROM audit_events WHERE event = 'SecondFactorReset' AND meta_data->>'targetUserId' = 'u-totp'`,
        );
        expect(Number(audit?.n)).toBe(1);
        expect((await identity.verifyAccessToken((await signIn('totp@example.com', oldPassword)).access_token)).userId).toBe('u-totp');
        // Only technical admins reset; an owner cannot.
        const owner = await signIn('owner9@example.com', oldPassword);
        expect([403, 404]).toContain((await api(owner.access_token, 'DELETE', '/users/u-totp/second-factor')).status);
      });
    });

    describe('email change', () => {
      it('applies a new email address only from the link sent to it, once', async () => {
        const tokens = await signIn('forgot@example.com', newPassword);
        const me = (await (await api(tokens.access_token, 'GET', '/users/u-forgot')).json()) as { version: number };
        // A bare token does not move the account: the current password (or a step-up) is needed.
        expect((await api(tokens.access_token, 'PATCH', '/users', { version: me.version, email: 'fran.new@example.com' })).status).toBe(403);
        expect(
          (await api(tokens.access_token, 'PATCH', '/users', { version: me.version, email: 'fran.new@example.com', currentPassword: 'not-the-password' }))
            .status,
        ).toBe(400);
        expect(
          (await api(tokens.access_token, 'PATCH', '/users', { version: me.version, email: 'fran.new@example.com', currentPassword: newPassword })).status,
        ).toBe(200);
        // The address in use is told at once, with a link that undoes the change.
        const notice = await lastEmail('forgot@example.com');
        expect(notice).toMatchObject({ template: 'emailChangeRequested', subject: 'Your payments portal email address is being changed' });
        expect(notice?.text).toContain('fran.new@example.com');
        expect(linkIn(notice?.text ?? '', '/connect/undo-email-change').searchParams.get('token')?.length).toBeGreaterThan(30);
        const link = linkIn((await lastEmail('fran.new@example.com'))?.text ?? '', '/connect/confirm-email');
        expect(link.pathname).toBe('/connect/confirm-email');
        // Opening the link (a mail scanner's GET) changes nothing; the button does.
        const page = await (await fetch(link)).text();
        expect(page).toContain('Confirm this address');
        await expect(signIn('fran.new@example.com', newPassword)).rejects.toThrow();
        const token = hidden(page, 'token');
        const confirmed = await fetch(`${publicUrl}/connect/confirm-email`, { method: 'POST', body: new URLSearchParams({ token }) });
        expect(await confirmed.text()).toContain('Your email address has been changed.');
        const again = await fetch(`${publicUrl}/connect/confirm-email`, { method: 'POST', body: new URLSearchParams({ token }) });
        expect(again.status).toBe(410);
        expect((await lastEmail('forgot@example.com'))?.template).toBe('emailChanged');
        expect((await identity.verifyAccessToken((await signIn('fran.new@example.com', newPassword)).access_token)).userId).toBe('u-forgot');
        await expect(signIn('forgot@example.com', newPassword)).rejects.toThrow();
      });

      it('a borrowed session moves the account, confirms and asks for a reset: the old address gets the reset too, and its undo link takes the account back and ends every session', async () => {
        const owner = await signIn('owner9@example.com', oldPassword);
        const me = (await (await api(owner.access_token, 'GET', '/users/u-owner9')).json()) as { version: number };
        expect(
          (await api(owner.access_token, 'PATCH', '/users', { version: me.version, email: 'thief@example.net', currentPassword: oldPassword })).status,
        ).toBe(200);
        const undo = linkIn((await lastEmail('owner9@example.com'))?.text ?? '', '/connect/undo-email-change');
        const confirmLink = linkIn((await lastEmail('thief@example.net'))?.text ?? '', '/connect/confirm-email');
        const confirmed = await fetch(`${publicUrl}/connect/confirm-email`, {
          method: 'POST',
          body: new URLSearchParams({ token: confirmLink.searchParams.get('token') ?? '' }),
        });
        expect(confirmed.status).toBe(200);
        // Within a day of the change, a reset asked for the new address also goes to the old one.
        await fetch(`${publicUrl}/connect/forgot-password`, { method: 'POST', body: new URLSearchParams({ email: 'thief@example.net' }) });
        const toThief = await lastEmail('thief@example.net');
        const toOwner = await lastEmail('owner9@example.com');
        expect(toThief?.template).toBe('passwordReset');
        expect(toOwner?.template).toBe('passwordReset');
        expect(linkIn(toOwner?.text ?? '', '/connect/reset-password').searchParams.get('token')).toBe(
          linkIn(toThief?.text ?? '', '/connect/reset-password').searchParams.get('token'),
        );
        // The undo page changes nothing on GET; its button takes the account back.
        const page = await (await fetch(undo)).text();
        expect(page).toContain('Undo the change');
        const undone = await fetch(`${publicUrl}/connect/undo-email-change`, { method: 'POST', body: new URLSearchParams({ token: hidden(page, 'token') }) });
        expect(undone.status).toBe(200);
        expect(await undone.text()).toContain('The change of your email address is undone');
        const [row] = await database.db.select().from(schema.users).where(eq(schema.users.id, 'u-owner9'));
        expect(row?.email).toBe('owner9@example.com');
        // The session that made the change has ended, and the reset link no longer works.
        // (The API remembers a live grant for a few seconds.)
        await vi.waitFor(async () => expect((await api(owner.access_token, 'GET', '/users/u-owner9')).status).toBe(401), { timeout: 10_000, interval: 250 });
        const reset = linkIn(toThief?.text ?? '', '/connect/reset-password');
        expect((await fetch(reset)).status).toBe(410);
        expect((await lastEmail('owner9@example.com'))?.template).toBe('emailChangeUndone');
        const again = await fetch(`${publicUrl}/connect/undo-email-change`, { method: 'POST', body: new URLSearchParams({ token: hidden(page, 'token') }) });
        expect(again.status).toBe(410);
        expect((await identity.verifyAccessToken((await signIn('owner9@example.com', oldPassword)).access_token)).userId).toBe('u-owner9');
      });
    });
  });
