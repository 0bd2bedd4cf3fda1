// The one HTTP client, through what the user sees: toasts for 4xx and 5xx, the conflict modal for 409,
// nothing for cancelled requests, a silent refresh-and-retry for 401.
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useSnapshot } from 'valtio';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { decodeProtectedHeader, EmbeddedJWK, jwtVerify } from 'jose';
import { ApiError, SessionUnavailableError } from '../../src/api/api-error.ts';
import { forgetDpopKey, newDpopKey } from '../../src/api/dpop.ts';
import { createHttpClient, type HttpClientDeps } from '../../src/api/http-client.ts';
import { ConfirmationHost } from '../../src/app/confirmation-host.tsx';
import { requestConfirmation } from '../../src/state/shell-store.ts';
import { dismissToast, showToast, toastStore } from '../../src/state/toast-store.ts';
import { ToastRegion } from '../../src/ui/toast-region.tsx';
import { renderWithServices, resetStores } from '../app/support.tsx';

function Toasts() {
  const { toasts } = useSnapshot(toastStore);
  return <ToastRegion toasts={toasts} onDismiss={dismissToast} />;
}

const json = (status: number, body: unknown) =>
  new Response(body === undefined ? null : JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json' },
  });
const report = (...messages: string[]) => ({ errorReport: { errors: messages.map((message) => ({ message, translatedMessage: message })) } });

function setup(responses: ((input: string, init: RequestInit) => Response | Promise<Response>)[], overrides: Partial<HttpClientDeps> = {}) {
  const calls: { url: string; headers: Headers }[] = [];
  const fetch = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = String(input);
    calls.push({ url, headers: new Headers(init?.headers) });
    const next = responses.shift();
    if (!next) throw new Error(`unexpected request ${url}`);
    return next(url, init ?? {});
  });
  const deps: HttpClientDeps = {
    baseURL: 'http://localhost/api/portal',
    getAccessToken: vi.fn(async () => 'old-token'),
    refreshAccessToken: vi.fn(async () => 'new-token'),
    confirmConflict: () => requestConfirmation('conflict'),
    onConflictDiscarded: vi.fn(),
    notify: (toast) => {
      showToast(toast);
    },
    timeZone: () => 'Europe/London',
    fetch: fetch as unknown as typeof globalThis.fetch,
    ...overrides,
  };
  renderWithServices(
    <>
      <ConfirmationHost />
      <Toasts />
    </>,
  );
  return { client: createHttpClient(deps), calls, deps };
}

describe('http client', () => {
  beforeEach(() => {
    resetStores();
  });

  it('sends the bearer token and the Time-Zone header', async () => {
    const { client, calls } = setup([() => json(200, { ok: true })]);
    await expect(client.get('/user/permissions', { query: { pagesize: 10, empty: undefined } })).resolves.toEqual({ ok: true });
    expect(calls[0]?.url).toBe('http://localhost/api/portal/user/permissions?pagesize=10');
    expect(calls[0]?.headers.get('authorization')).toBe('Bearer old-token');
    expect(calls[0]?.headers.get('time-zone')).toBe('Europe/London');
  });

  it("with the session's DPoP key, sends the token with the DPoP scheme and a fresh proof for the method and address", async () => {
    const key = await newDpopKey();
    try {
      const { client, calls } = setup([() => json(200, { ok: true }), () => json(200, { ok: true })]);
      await client.post('/transactions/search', { a: 1 }, { query: { page: 2 } });
      await client.post('/transactions/search', { a: 1 });
      expect(calls[0]?.headers.get('authorization')).toBe('DPoP old-token');
      const proof = calls[0]!.headers.get('dpop')!;
      const header = decodeProtectedHeader(proof);
      expect(header).toMatchObject({ typ: 'dpop+jwt', alg: 'ES256', jwk: key.publicJwk });
      const { payload } = await jwtVerify(proof, EmbeddedJWK, { typ: 'dpop+jwt' });
      expect(payload).toMatchObject({ htm: 'POST', htu: 'http://localhost/api/portal/transactions/search' });
      expect(payload.ath).toBe(Buffer.from(await crypto.subtle.digest('SHA-256', new TextEncoder().encode('old-token'))).toString('base64url'));
      expect(calls[1]!.headers.get('dpop')).not.toBe(proof);
    } finally {
      await forgetDpopKey();
    }
  });

  it('on 401 refreshes once and retries with the new token, telling no one', async () => {
    const { client, calls, deps } = setup([() => json(401, report('expired')), () => json(200, { ok: 1 })]);
    await expect(client.get('/x')).resolves.toEqual({ ok: 1 });
    expect(deps.refreshAccessToken).toHaveBeenCalledTimes(1);
    expect(calls.map((call) => call.headers.get('authorization'))).toEqual(['Bearer old-token', 'Bearer new-token']);
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('when the refresh fails, rejects quietly (the session has told the user)', async () => {
    const { client } = setup([() => json(401, report('expired'))], {
      refreshAccessToken: vi.fn(async () => {
        throw new SessionUnavailableError();
      }),
    });
    await expect(client.get('/x')).rejects.toMatchObject({ kind: 'session', handled: true });
    expect(toastStore.toasts).toEqual([]);
  });

  it('on 409 shows the conflict modal; Discard changes proceeds with the caller’s choice', async () => {
    const user = userEvent.setup();
    const { client, deps } = setup([() => json(409, report('Someone updated this view'))]);
    const result = client.put('/configurations/C1', { version: 3 }, { onConflictConfirmed: async () => 'reloaded' });
    const dialog = await screen.findByRole('alertdialog', { name: 'Someone updated this view' });
    expect(dialog).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Discard changes' }));
    await expect(result).resolves.toBe('reloaded');
    expect(deps.onConflictDiscarded).toHaveBeenCalled();
    expect(toastStore.toasts).toEqual([]);
  });

  it('on 409, Stay rejects the request and keeps the user’s changes', async () => {
    const user = userEvent.setup();
    const { client, deps } = setup([() => json(409, report('Someone updated this view'))]);
    const rejected = expect(client.put('/configurations/C1', { version: 3 })).rejects.toMatchObject({ status: 409, kind: 'conflictKept', handled: true });
    await user.click(await screen.findByRole('button', { name: 'Stay' }));
    await rejected;
    expect(deps.onConflictDiscarded).not.toHaveBeenCalled();
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
  });

  it('on other 4xx shows each errorReport message as a danger toast for 5 s', async () => {
    const { client } = setup([() => json(400, report('Amount is required', 'Currency is invalid'))]);
    await expect(client.post('/x', {})).rejects.toMatchObject({ status: 400, handled: true, messages: ['Amount is required', 'Currency is invalid'] });
    const alerts = await screen.findAllByRole('alert');
    expect(alerts.map((alert) => alert.textContent)).toEqual([expect.stringContaining('Amount is required'), expect.stringContaining('Currency is invalid')]);
    expect(toastStore.toasts.every((toast) => toast.kind === 'danger' && toast.durationMs === 5000)).toBe(true);
  });

  it('on a 4xx without an error report, and on 5xx, shows the general message', async () => {
    const { client } = setup([() => json(404, { nothing: true }), () => json(503, report('Service down'))]);
    await expect(client.get('/a')).rejects.toBeInstanceOf(ApiError);
    await expect(client.get('/b')).rejects.toMatchObject({ status: 503 });
    const alerts = await screen.findAllByRole('alert');
    expect(alerts.map((alert) => alert.textContent)).toEqual([expect.stringContaining('Whoops! Something went wrong.')]);
  });

  it('shows the general message when the network fails', async () => {
    const { client } = setup([
      () => {
        throw new TypeError('Failed to fetch');
      },
    ]);
    await expect(client.get('/x')).rejects.toMatchObject({ kind: 'network', handled: true });
    expect((await screen.findByRole('alert')).textContent).toContain('Whoops! Something went wrong.');
  });

  it('stays silent about cancelled requests', async () => {
    const controller = new AbortController();
    const { client } = setup([
      (_url, init) =>
        new Promise<Response>((_resolve, reject) => {
          init.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
        }),
    ]);
    const pending = client.get('/slow', { signal: controller.signal });
    await vi.waitFor(() => expect(toastStore.toasts).toEqual([]));
    await new Promise((resolve) => setTimeout(resolve, 10));
    controller.abort();
    await expect(pending).rejects.toMatchObject({ kind: 'aborted', handled: true });
    expect(toastStore.toasts).toEqual([]);
  });

  it('does not send a request that was cancelled before it left', async () => {
    const controller = new AbortController();
    controller.abort();
    const { client, calls } = setup([]);
    await expect(client.get('/x', { signal: controller.signal })).rejects.toMatchObject({ kind: 'aborted' });
    expect(calls).toEqual([]);
    expect(toastStore.toasts).toEqual([]);
  });

  it('hands failures to the caller when asked: all of them, or those a predicate leaves out', async () => {
    const { client } = setup([() => json(400, report('Bad')), () => json(404, report('Not set')), () => json(400, report('Bad key'))]);
    await expect(client.get('/a', { handleErrors: false })).rejects.toMatchObject({ status: 400, handled: false, messages: ['Bad'] });
    await expect(client.get('/user-settings/x', { handleErrors: (status) => status !== 404 })).rejects.toMatchObject({ status: 404, handled: false });
    expect(toastStore.toasts).toEqual([]);
    await expect(client.get('/user-settings/%', { handleErrors: (status) => status !== 404 })).rejects.toMatchObject({ status: 400, handled: true });
    expect(toastStore.toasts.map((toast) => toast.message)).toEqual(['Bad key']);
  });
});
