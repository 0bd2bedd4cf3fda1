// The browser session with a fake OIDC client: sign-in keeps the intended URL, the exchange loads user info
// and policy once, a failed refresh clears everything, says so and goes to '/'.
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { SessionUnavailableError } from '../../src/api/api-error.ts';
import { credentialsStore, isAuthorised } from '../../src/auth/credentials-store.ts';
import type { OidcClient, TokenSet } from '../../src/auth/oidc-client.ts';
import { oidcSettings } from '../../src/auth/oidc-settings.ts';
import { createSession, safeIntendedUrl, type SessionDeps } from '../../src/auth/session.ts';
import { sessionStore, setPermissions } from '../../src/state/session-store.ts';
import { internalPolicy, resetStores } from '../app/support.tsx';

function fakeOidc(overrides: Partial<OidcClient> = {}): OidcClient {
  return {
    createAuthorizationRequest: vi.fn(async () => ({ url: 'http://localhost/connect/authorize?x', state: 'state-1', codeVerifier: 'verifier-1' })),
    exchangeCode: vi.fn(async () => ({
      accessToken: 'access-1',
      expiresIn: 900,
      idToken: 'id-1',
      refreshToken: 'refresh-1',
      claims: { sub: 'u1', email: 'a@demo.test' },
    })),
    refresh: vi.fn(async () => ({ accessToken: 'access-2', expiresIn: 900, refreshToken: 'refresh-2' })),
    userInfo: vi.fn(async () => ({ sub: 'u1', email: 'a@demo.test', given_name: 'Ada' })),
    revoke: vi.fn(async () => undefined),
    endSessionUrl: vi.fn(async () => 'http://localhost/connect/endsession?id_token_hint=id-1'),
    ...overrides,
  };
}

function setup(oidc = fakeOidc(), overrides: Partial<SessionDeps> = {}) {
  let now = 1_000_000;
  const deps = {
    loadOidc: vi.fn(async () => oidc),
    fetchPolicy: vi.fn(async () => internalPolicy),
    now: () => now,
    storage: sessionStorage,
    assign: vi.fn(),
    navigateApp: vi.fn(),
    notify: vi.fn(),
    onCleared: vi.fn(),
    ...overrides,
  } satisfies SessionDeps;
  return {
    session: createSession(deps),
    deps,
    oidc,
    advance: (ms: number) => {
      now += ms;
    },
  };
}

describe('session', () => {
  beforeEach(() => resetStores());

  it('redirects to the provider keeping the whole intended URL with the PKCE state', async () => {
    const { session, deps } = setup();
    await session.beginSignIn('/transactions?panes=_,%2Fdashboard');
    expect(deps.assign).toHaveBeenCalledWith('http://localhost/connect/authorize?x');
    expect(JSON.parse(sessionStorage.getItem('portal.signIn') ?? '{}')).toMatchObject({
      state: 'state-1',
      codeVerifier: 'verifier-1',
      intended: '/transactions?panes=_,%2Fdashboard',
    });
  });

  it('completes sign-in: tokens in session storage, user info and policy loaded once, back to the intended URL', async () => {
    const { session, deps, oidc } = setup();
    await session.beginSignIn('/users');
    await expect(session.completeSignIn('http://localhost/sign-in?code=c&state=state-1')).resolves.toBe('/users');
    expect(oidc.exchangeCode).toHaveBeenCalledWith(new URL('http://localhost/sign-in?code=c&state=state-1'), 'state-1', 'verifier-1');
    expect(credentialsStore.credentials).toMatchObject({ accessToken: 'access-1', refreshToken: 'refresh-1', validUntilUtc: 1_000_000 + 900_000 });
    expect(sessionStore.userInfo?.given_name).toBe('Ada');
    expect(sessionStore.policy).toEqual(internalPolicy);
    expect(deps.fetchPolicy).toHaveBeenCalledTimes(1);
    expect(sessionStorage.getItem('portal.signIn')).toBeNull();
    expect(localStorage.getItem('portal.credentials')).toBeNull();
  });

  it('falls back to the ID token claims when userinfo refuses the token', async () => {
    const { session } = setup(
      fakeOidc({
        userInfo: vi.fn(async () => {
          throw new Error('invalid_token');
        }),
      }),
    );
    await session.beginSignIn('/dashboard');
    await session.completeSignIn('http://localhost/sign-in?code=c&state=state-1');
    expect(sessionStore.userInfo).toEqual({ sub: 'u1', email: 'a@demo.test' });
  });

  it('a failed authorise clears the session, says so and goes to /', async () => {
    const { session, deps } = setup(
      fakeOidc({
        exchangeCode: vi.fn(async () => {
          throw new Error('invalid_grant');
        }),
      }),
    );
    await session.beginSignIn('/dashboard');
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    await expect(session.completeSignIn('http://localhost/sign-in?code=c&state=state-1')).rejects.toThrow();
    expect(deps.notify).toHaveBeenCalledWith({ kind: 'danger', message: 'Could not refresh token, please login again.' });
    expect(deps.navigateApp).toHaveBeenCalledWith('/', { replace: true });
    expect(credentialsStore.credentials).toBeNull();
  });

  it('is authorised only while the access token is valid', () => {
    expect(isAuthorised(null, 0)).toBe(false);
    expect(isAuthorised({ accessToken: 'a', expiresIn: 60, validUntilUtc: 100 }, 99)).toBe(true);
    expect(isAuthorised({ accessToken: 'a', expiresIn: 60, validUntilUtc: 100 }, 100)).toBe(false);
    expect(isAuthorised({ accessToken: '', expiresIn: 60, validUntilUtc: 100 }, 0)).toBe(false);
  });

  it('refreshes an expired token once for concurrent callers and reloads the profile', async () => {
    const { session, oidc, deps, advance } = setup();
    await session.beginSignIn('/dashboard');
    await session.completeSignIn('http://localhost/sign-in?code=c&state=state-1');
    advance(900_000);
    const tokens = await Promise.all([session.getAccessToken(), session.getAccessToken(), session.refreshAccessToken()]);
    expect(tokens).toEqual(['access-2', 'access-2', 'access-2']);
    expect(oidc.refresh).toHaveBeenCalledTimes(1);
    expect(credentialsStore.credentials).toMatchObject({ refreshToken: 'refresh-2', idToken: 'id-1' });
    await vi.waitFor(() => expect(deps.fetchPolicy).toHaveBeenCalledTimes(2));
  });

  it('a failed refresh clears credentials, permissions, policy and user info, says so and goes to /', async () => {
    const { session, deps } = setup(
      fakeOidc({
        refresh: vi.fn(async () => {
          throw new Error('invalid_grant');
        }),
      }),
    );
    credentialsStore.credentials = { accessToken: 'a', refreshToken: 'r', expiresIn: 1, validUntilUtc: 0 };
    sessionStore.userInfo = { sub: 'u1' };
    sessionStore.policy = internalPolicy;
    setPermissions('all', ['Mapi.Users.Read']);
    await expect(session.getAccessToken()).rejects.toBeInstanceOf(SessionUnavailableError);
    expect(credentialsStore.credentials).toBeNull();
    expect(sessionStore).toMatchObject({ userInfo: null, policy: null, permissions: {} });
    expect(deps.notify).toHaveBeenCalledWith({ kind: 'danger', message: 'Could not refresh token, please login again.' });
    expect(deps.navigateApp).toHaveBeenCalledWith('/', { replace: true });
    expect(deps.onCleared).toHaveBeenCalled();
  });

  it('without a refresh token there is nothing to refresh: sign in', async () => {
    const { session } = setup();
    await expect(session.getAccessToken()).rejects.toBeInstanceOf(SessionUnavailableError);
    await expect(session.resume()).resolves.toBe('signIn');
  });

  it('stops redirecting after two failed sign-ins within a minute', async () => {
    const { session } = setup(
      fakeOidc({
        exchangeCode: vi.fn(async () => {
          throw new Error('bad');
        }),
      }),
    );
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    for (let attempt = 0; attempt < 2; attempt += 1) {
      await session.beginSignIn('/dashboard');
      await session.completeSignIn('http://localhost/sign-in?code=c&state=state-1').catch(() => undefined);
    }
    expect(session.signInIsLooping()).toBe(true);
  });

  it('signs out at the provider with the ID token hint', async () => {
    const { session, deps, oidc } = setup();
    credentialsStore.credentials = { accessToken: 'a', idToken: 'id-1', refreshToken: 'r', expiresIn: 900, validUntilUtc: 2_000_000 };
    await session.signOut('user');
    expect(oidc.endSessionUrl).toHaveBeenCalledWith('id-1');
    expect(deps.assign).toHaveBeenCalledWith('http://localhost/connect/endsession?id_token_hint=id-1');
    expect(credentialsStore.credentials).toBeNull();
    expect(session.signedOutState()).toEqual({ reason: 'user', resumeUrl: '/dashboard' });
  });

  it('after inactivity: revokes, goes to /signed-out and remembers the layout to resume', async () => {
    const { session, deps, oidc } = setup();
    credentialsStore.credentials = { accessToken: 'a', idToken: 'id-1', refreshToken: 'r', expiresIn: 900, validUntilUtc: 2_000_000 };
    await session.signOut('inactivity', '/users?panes=%2Fdashboard,_');
    expect(oidc.revoke).toHaveBeenCalledWith('r', 'refresh_token');
    expect(deps.navigateApp).toHaveBeenCalledWith('/signed-out', { replace: true });
    expect(session.signedOutState()).toEqual({ reason: 'inactivity', resumeUrl: '/users?panes=%2Fdashboard,_' });
  });

  it('a refresh still on its way when the tab signs out neither keeps its tokens nor reports a failure', async () => {
    let answer: (value: TokenSet) => void = () => undefined;
    const { session, deps } = setup(
      fakeOidc({
        refresh: vi.fn(
          () =>
            new Promise<TokenSet>((resolve) => {
              answer = resolve;
            }),
        ),
      }),
    );
    credentialsStore.credentials = { accessToken: 'a', idToken: 'id-1', refreshToken: 'r', expiresIn: 1, validUntilUtc: 0 };
    const refreshed = session.getAccessToken();
    await vi.waitFor(() => expect(deps.loadOidc).toHaveBeenCalled());
    await session.signOut('inactivity', '/transactions');
    answer({ accessToken: 'late', expiresIn: 900, refreshToken: 'late-r' });
    await expect(refreshed).rejects.toBeInstanceOf(SessionUnavailableError);
    expect(credentialsStore.credentials).toBeNull();
    expect(deps.notify).not.toHaveBeenCalled();
    expect(vi.mocked(deps.navigateApp).mock.calls).toEqual([['/signed-out', { replace: true }]]);
  });

  it("a refresh refused once the tab's own time without activity is up is the inactivity sign-out: /signed-out, not /", async () => {
    const { session, deps } = setup(
      fakeOidc({
        refresh: vi.fn(async () => {
          throw new Error('invalid_grant');
        }),
      }),
    );
    credentialsStore.credentials = { accessToken: 'a', refreshToken: 'r', expiresIn: 1, validUntilUtc: 0 };
    let timedOut = true;
    const forget = session.watchInactivity({ timedOut: () => timedOut, resumeUrl: () => '/payment-jobs' });
    await expect(session.getAccessToken()).rejects.toBeInstanceOf(SessionUnavailableError);
    await vi.waitFor(() => expect(deps.navigateApp).toHaveBeenCalledWith('/signed-out', { replace: true }));
    expect(deps.navigateApp).not.toHaveBeenCalledWith('/', { replace: true });
    expect(deps.notify).not.toHaveBeenCalled();
    expect(session.signedOutState()).toEqual({ reason: 'inactivity', resumeUrl: '/payment-jobs' });

    // Still active: the refusal is a failure, as before.
    timedOut = false;
    credentialsStore.credentials = { accessToken: 'a', refreshToken: 'r', expiresIn: 1, validUntilUtc: 0 };
    await expect(session.getAccessToken()).rejects.toBeInstanceOf(SessionUnavailableError);
    expect(deps.navigateApp).toHaveBeenLastCalledWith('/', { replace: true });
    forget();
  });

  it.each([
    ['/users?panes=_,%2Fx', '/users?panes=_,%2Fx'],
    ['//evil.test/x', '/dashboard'],
    ['https://evil.test', '/dashboard'],
    ['/sign-in?code=1', '/dashboard'],
    ['/', '/dashboard'],
    [null, '/dashboard'],
  ])('restores only same-origin app URLs: %s → %s', (value, expected) => {
    expect(safeIntendedUrl(value)).toBe(expected);
  });
});

describe('oidc settings', () => {
  it.each([
    ['http://localhost:3000', true],
    ['http://127.0.0.1:3000', true],
    ['http://portal.example', false],
    ['https://portal.example', false],
  ])('%s allows insecure requests: %s', (origin, expected) => {
    const settings = oidcSettings(origin);
    expect(settings.allowInsecureRequests).toBe(expected);
    expect(settings).toMatchObject({
      issuer: `${origin}/connect`,
      clientId: 'portal',
      redirectUri: `${origin}/sign-in`,
      postLogoutRedirectUri: `${origin}/signed-out`,
      scope: 'openid profile identity portal offline_access',
      resource: `${origin}/api/portal`,
    });
  });
});
