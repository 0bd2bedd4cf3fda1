// "A locked user's open tab stays on screen until its next call: sign it out through the live events stream." The
// stream's account-locked event signs the tab out at once (no reconnect, nothing else applied after it), the session
// goes straight to /signed-out (the server has ended the sessions: no provider round trip), and the signed-out page
// says why.
import { QueryClient } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { startLiveEvents } from '../../src/app/live-events.ts';
import { credentialsStore } from '../../src/auth/credentials-store.ts';
import type { OidcClient } from '../../src/auth/oidc-client.ts';
import { createSession } from '../../src/auth/session.ts';
import { SignedOutPane } from '../../panes/signed-out/signed-out-pane.tsx';
import { resetStores } from './support.tsx';

/** A fetch answering the events stream with these chunks, then staying open. */
function streamingFetch(chunks: string[]) {
  return vi.fn(
    async () =>
      new Response(
        new ReadableStream<Uint8Array>({
          start(controller) {
            for (const chunk of chunks) controller.enqueue(new TextEncoder().encode(chunk));
          },
        }),
        { status: 200, headers: { 'content-type': 'text/event-stream' } },
      ),
  );
}

describe('the live sign-out', () => {
  beforeEach(() => resetStores());
  afterEach(() => vi.unstubAllGlobals());

  it('signs the tab out on account-locked, and neither reconnects nor applies what follows', async () => {
    const fetch = streamingFetch([
      'event: ready\ndata: {}\nretry: 3000\n\n',
      'id: 11\nevent: notifications\ndata: {}\n\n',
      'id: 12\nevent: account-locked\ndata: {}\n\nid: 13\nevent: record\ndata: {"resource":"user","id":"USR00042"}\n\n',
    ]);
    vi.stubGlobal('fetch', fetch);
    const queryClient = new QueryClient();
    const invalidate = vi.spyOn(queryClient, 'invalidateQueries');
    const session = { getAccessToken: vi.fn(async () => 'access-1'), signOut: vi.fn(async () => undefined) };
    const stop = startLiveEvents(session, queryClient);
    await vi.waitFor(() => expect(session.signOut).toHaveBeenCalledWith('locked'));
    expect(invalidate.mock.calls.map(([filters]) => filters?.queryKey)).toEqual([['notifications']]);
    // Well past the first reconnect pause (1 s): the stream is not opened again.
    await new Promise((resolve) => setTimeout(resolve, 1300));
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(session.signOut).toHaveBeenCalledTimes(1);
    stop();
  });

  it('the session goes straight to /signed-out, remembering why, without the provider', async () => {
    const oidc = { revoke: vi.fn(async () => undefined), endSessionUrl: vi.fn(async () => 'http://localhost/connect/endsession') } as unknown as OidcClient;
    const deps = {
      loadOidc: vi.fn(async () => oidc),
      fetchPolicy: vi.fn(),
      now: () => 1_000_000,
      storage: sessionStorage,
      assign: vi.fn(),
      navigateApp: vi.fn(),
      notify: vi.fn(),
      onCleared: vi.fn(),
    };
    const session = createSession(deps);
    credentialsStore.credentials = { accessToken: 'a', idToken: 'id-1', refreshToken: 'r', expiresIn: 900, validUntilUtc: 2_000_000 };
    await session.signOut('locked');
    expect(credentialsStore.credentials).toBeNull();
    expect(deps.onCleared).toHaveBeenCalled();
    expect(deps.navigateApp).toHaveBeenCalledWith('/signed-out', { replace: true });
    expect(deps.assign).not.toHaveBeenCalled();
    expect(oidc.endSessionUrl).not.toHaveBeenCalled();
    expect(session.signedOutState()).toEqual({ reason: 'locked', resumeUrl: '/dashboard' });
  });

  it('the signed-out page says the account was locked and offers to sign in again', () => {
    render(<SignedOutPane reason="locked" onSignIn={vi.fn()} />);
    expect(screen.getByRole('heading', { name: 'You are signed out' })).toBeTruthy();
    expect(screen.getByRole('alert').textContent).toBe('Your account has been locked, so you have been signed out. Ask your administrator to unlock it.');
    expect(screen.getByRole('button', { name: 'Sign in again' })).toBeTruthy();
  });
});
