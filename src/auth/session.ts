// The browser session: sign-in (authorization code + PKCE through oauth4webapi), the code exchange on
// /sign-in, refresh (once, shared by concurrent callers), user info and policy loaded once after each
// sign-in or refresh, sign-out at the provider, and clearing everything on failure.
import { messages } from '../contract/messages.ts';
import type { AuthorizationPolicy, UserInfo } from '../contract/policy.ts';
import { SessionUnavailableError } from '../api/api-error.ts';
import { forgetDpopKey } from '../api/dpop.ts';
import { clearSessionProfile, sessionStore, setProfile } from '../state/session-store.ts';
import type { ToastInput } from '../state/toast-store.ts';
import { credentialsStore, isAuthorised, type Credentials } from './credentials-store.ts';
import type { OidcClient, TokenSet } from './oidc-client.ts';

/** 'locked': the server ended the session because the account was locked (the live events stream said so). */
export type SignOutReason = 'user' | 'inactivity' | 'locked';

export type SessionDeps = {
  loadOidc: () => Promise<OidcClient>;
  fetchPolicy: () => Promise<AuthorizationPolicy>;
  now: () => number;
  storage: Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;
  /** leave the app for the provider */
  assign: (url: string) => void;
  /** navigate inside the app */
  navigateApp: (url: string, options?: { replace?: boolean }) => void;
  notify: (toast: ToastInput) => void;
  /** forget everything else of the session: cached queries, applied context, open overlays */
  onCleared?: () => void;
};

type PendingSignIn = { state: string; codeVerifier: string; intended: string; createdAt: number };

const pendingKey = 'portal.signIn';
const resumeKey = 'portal.resume';
const reasonKey = 'portal.signedOutReason';
const failuresKey = 'portal.signInFailures';
/** a token this close to its end is refreshed before use rather than sent to fail */
const expiryMarginMs = 10_000;
const loopWindowMs = 60_000;

export type Session = ReturnType<typeof createSession>;

/** Only same-origin paths are ever restored after sign-in. */
export function safeIntendedUrl(value: string | null | undefined): string {
  if (!value?.startsWith('/') || value.startsWith('//') || value.includes('\\')) return '/dashboard';
  const path = value.split('?')[0] ?? '';
  if (['/', '/sign-in', '/sign-out', '/signed-out'].includes(path)) return '/dashboard';
  return value;
}

/** What the tab's inactivity watch tells the session (inactivity-watch.tsx): whether its time is up, and where to resume. */
export type InactivityProbe = { timedOut: () => boolean; resumeUrl: () => string };

export function createSession(deps: SessionDeps) {
  let refreshing: Promise<string> | null = null;
  /** Counts sign-outs: a refresh begun before one neither stores its tokens nor reports its failure after it. */
  let signOuts = 0;
  let inactivity: InactivityProbe | null = null;

  function store(tokens: TokenSet): Credentials {
    const credentials: Credentials = {
      accessToken: tokens.accessToken,
      expiresIn: tokens.expiresIn,
      validUntilUtc: deps.now() + tokens.expiresIn * 1000,
    };
    if (tokens.idToken) credentials.idToken = tokens.idToken;
    if (tokens.refreshToken) credentials.refreshToken = tokens.refreshToken;
    if (tokens.claims) credentials.claims = tokens.claims;
    credentialsStore.credentials = credentials;
    return credentials;
  }

  function clear(): void {
    refreshing = null;
    credentialsStore.credentials = null;
    // The session's DPoP key goes with its tokens (a new sign-in makes a new one).
    void forgetDpopKey().catch(() => undefined);
    clearSessionProfile();
    deps.onCleared?.();
  }

  function recentFailures(): number[] {
    try {
      const list = JSON.parse(deps.storage.getItem(failuresKey) ?? '[]') as unknown;
      return Array.isArray(list) ? list.filter((at): at is number => typeof at === 'number' && deps.now() - at < loopWindowMs) : [];
    } catch {
      return [];
    }
  }

  /** A failed authorise or refresh: clear credentials, permissions, policy and user info; tell; go to /. */
  function fail(): void {
    deps.storage.setItem(failuresKey, JSON.stringify([...recentFailures(), deps.now()]));
    clear();
    deps.notify({ kind: 'danger', message: messages.refreshTokenError });
    deps.navigateApp('/', { replace: true });
  }

  async function loadUserInfo(oidc: OidcClient, credentials: Credentials): Promise<UserInfo> {
    const subject = credentials.claims?.sub;
    try {
      if (subject) return await oidc.userInfo(credentials.accessToken, subject);
    } catch {
      // A provider that refuses the API's token at userinfo: the ID token's claims say the same.
    }
    if (credentials.claims) return credentials.claims;
    throw new Error('Neither userinfo nor the ID token identify the user.');
  }

  /** User info and policy, once after each sign-in or refresh. */
  async function loadProfile(oidc: OidcClient, credentials: Credentials): Promise<void> {
    const [userInfo, policy] = await Promise.all([loadUserInfo(oidc, credentials), deps.fetchPolicy()]);
    setProfile(userInfo, policy);
  }

  async function refreshAccessToken(): Promise<string> {
    const signOutsBefore = signOuts;
    const endedMeanwhile = () => signOuts !== signOutsBefore;
    refreshing ??= (async () => {
      const refreshToken = credentialsStore.credentials?.refreshToken;
      if (!refreshToken) throw new SessionUnavailableError();
      const oidc = await deps.loadOidc();
      const previous = credentialsStore.credentials;
      const tokens = await oidc.refresh(refreshToken);
      if (endedMeanwhile()) throw new SessionUnavailableError();
      const credentials = store({
        ...tokens,
        ...((tokens.idToken ?? previous?.idToken) ? { idToken: tokens.idToken ?? previous?.idToken } : {}),
        ...((tokens.claims ?? previous?.claims) ? { claims: tokens.claims ?? previous?.claims } : {}),
      } as TokenSet);
      // Loaded after the token is handed out: requests waiting for it need not wait for the profile too.
      void loadProfile(oidc, credentials).catch(() => undefined);
      return credentials.accessToken;
    })()
      .catch((error: unknown) => {
        // Signed out while the refresh was on its way (another tab's sign-out for inactivity revokes the grant this
        // tab's tokens share): the sign-out has already said where to go. A refusal once this tab's own time is up is
        // that sign-out, not a failure: /signed-out, not the sign-in page.
        if (!endedMeanwhile()) {
          if (inactivity?.timedOut()) void session.signOut('inactivity', inactivity.resumeUrl());
          else fail();
        }
        throw error instanceof SessionUnavailableError ? error : new SessionUnavailableError(messages.refreshTokenError);
      })
      .finally(() => {
        refreshing = null;
      });
    return refreshing;
  }

  const session = {
    isAuthorised: () => isAuthorised(credentialsStore.credentials, deps.now()),
    hasRefreshToken: () => Boolean(credentialsStore.credentials?.refreshToken),
    hasProfile: () => sessionStore.userInfo !== null && sessionStore.policy !== null,
    /** two failed sign-ins within a minute: stop redirecting automatically (a loop helps no one) */
    signInIsLooping: () => recentFailures().length >= 2,

    async beginSignIn(intendedUrl: string, options: { forceLogin?: boolean } = {}): Promise<void> {
      const oidc = await deps.loadOidc();
      const request = await oidc.createAuthorizationRequest(options);
      const pending: PendingSignIn = {
        state: request.state,
        codeVerifier: request.codeVerifier,
        intended: safeIntendedUrl(intendedUrl),
        createdAt: deps.now(),
      };
      deps.storage.setItem(pendingKey, JSON.stringify(pending));
      deps.assign(request.url);
    },

    /** /sign-in: exchanges the code, loads user info and policy, answers the URL to go to. */
    async completeSignIn(callbackUrl: string): Promise<string> {
      try {
        const pending = JSON.parse(deps.storage.getItem(pendingKey) ?? 'null') as PendingSignIn | null;
        if (!pending?.state || !pending.codeVerifier) throw new Error('No sign-in is in progress in this tab.');
        deps.storage.removeItem(pendingKey);
        const oidc = await deps.loadOidc();
        const credentials = store(await oidc.exchangeCode(new URL(callbackUrl), pending.state, pending.codeVerifier));
        await loadProfile(oidc, credentials);
        deps.storage.removeItem(failuresKey);
        deps.storage.removeItem(reasonKey);
        deps.storage.removeItem(resumeKey);
        return safeIntendedUrl(pending.intended);
      } catch (error) {
        console.error('[session] sign-in failed', error);
        fail();
        throw error;
      }
    },

    /** For the HTTP client: a token valid for a while yet, refreshing first if needed. */
    async getAccessToken(): Promise<string> {
      const credentials = credentialsStore.credentials;
      if (credentials && isAuthorised(credentials, deps.now() + expiryMarginMs)) return credentials.accessToken;
      if (credentials?.refreshToken) return refreshAccessToken();
      throw new SessionUnavailableError();
    },

    refreshAccessToken,

    /** The shell's start: ready when authorised with a profile; otherwise one refresh attempt. */
    async resume(): Promise<'ready' | 'signIn'> {
      const credentials = credentialsStore.credentials;
      if (credentials && !isAuthorised(credentials, deps.now()) && !credentials.refreshToken) {
        credentialsStore.credentials = null;
      }
      if (!credentialsStore.credentials) return 'signIn';
      if (!isAuthorised(credentialsStore.credentials, deps.now())) await refreshAccessToken();
      if (!(sessionStore.userInfo && sessionStore.policy)) {
        const current = credentialsStore.credentials;
        if (!current) return 'signIn';
        await loadProfile(await deps.loadOidc(), current);
      }
      return 'ready';
    },

    /**
     * Ends the session. By the user: at the provider's end-session endpoint. After inactivity: tokens revoked, straight
     * to /signed-out. Locked: the server has already ended every session of the account, straight to /signed-out.
     */
    async signOut(reason: SignOutReason, resumeUrl?: string): Promise<void> {
      signOuts += 1;
      const credentials = credentialsStore.credentials;
      deps.storage.setItem(reasonKey, reason);
      if (reason === 'inactivity' && resumeUrl) deps.storage.setItem(resumeKey, safeIntendedUrl(resumeUrl));
      else deps.storage.removeItem(resumeKey);
      clear();
      let oidc: OidcClient | null = null;
      try {
        oidc = await deps.loadOidc();
      } catch {
        oidc = null;
      }
      if (reason === 'inactivity' || reason === 'locked' || !oidc) {
        if (reason === 'inactivity' && oidc && credentials?.refreshToken) await oidc.revoke(credentials.refreshToken, 'refresh_token').catch(() => undefined);
        deps.navigateApp('/signed-out', { replace: true });
        return;
      }
      const url = await oidc.endSessionUrl(credentials?.idToken).catch(() => null);
      if (url && credentials?.idToken) deps.assign(url);
      else deps.navigateApp('/signed-out', { replace: true });
    },

    /** What /signed-out shows and where "Sign in again" leads. */
    signedOutState(): { reason: SignOutReason; resumeUrl: string } {
      const stored = deps.storage.getItem(reasonKey);
      const reason: SignOutReason = stored === 'inactivity' || stored === 'locked' ? stored : 'user';
      return { reason, resumeUrl: safeIntendedUrl(deps.storage.getItem(resumeKey)) };
    },

    /** The tab's inactivity watch, while it runs; returns the function that forgets it. */
    watchInactivity(probe: InactivityProbe): () => void {
      inactivity = probe;
      return () => {
        if (inactivity === probe) inactivity = null;
      };
    },

    clear,
    fail,
  };
  return session;
}
