// The one HTTP client of the Portal API (an ofetch instance): the access token (DPoP with a proof, or bearer), Time-Zone header; 401 → refresh
// once and retry; 409 → the conflict modal (confirm proceeds, cancel rejects); other 4xx → each errorReport
// message as a danger toast for 5 s (or the general message); 5xx and network failures → the general
// message; aborted requests stay silent. `handleErrors: false` (or a predicate) hands failures to the caller.
import { FetchError, ofetch } from 'ofetch';
import { messages } from '../contract/messages.ts';
import type { ToastInput } from '../state/toast-store.ts';
import { authorizationHeaders, noteServerDate } from './dpop.ts';
import { ApiError, errorReportMessages, SessionUnavailableError } from './api-error.ts';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export type RequestOptions<T = unknown> = {
  method?: HttpMethod;
  query?: Record<string, string | number | boolean | undefined | null>;
  body?: unknown;
  signal?: AbortSignal;
  headers?: Record<string, string>;
  /** false: the caller handles every failure; a predicate: handle only statuses it accepts (e.g. not 404) */
  handleErrors?: boolean | ((status: number) => boolean);
  /** 409 and the user chose to discard their changes: what proceeding means for this call (retry, reload…) */
  onConflictConfirmed?: () => Promise<T> | T;
  responseType?: 'json' | 'blob' | 'text';
};

export type PortalApi = {
  request: <T>(path: string, options?: RequestOptions<T>) => Promise<T>;
  get: <T>(path: string, options?: Omit<RequestOptions<T>, 'method' | 'body'>) => Promise<T>;
  post: <T>(path: string, body?: unknown, options?: Omit<RequestOptions<T>, 'method' | 'body'>) => Promise<T>;
  put: <T>(path: string, body?: unknown, options?: Omit<RequestOptions<T>, 'method' | 'body'>) => Promise<T>;
  patch: <T>(path: string, body?: unknown, options?: Omit<RequestOptions<T>, 'method' | 'body'>) => Promise<T>;
  delete: <T>(path: string, options?: Omit<RequestOptions<T>, 'method' | 'body'>) => Promise<T>;
};

export type HttpClientDeps = {
  baseURL: string;
  /** a valid access token, refreshing first when it has expired; throws SessionUnavailableError when there is none */
  getAccessToken: () => Promise<string>;
  /** after a 401: refresh once (shared by concurrent callers); throws SessionUnavailableError on failure */
  refreshAccessToken: () => Promise<string>;
  /** the conflict modal: true = Discard changes (proceed), false = Stay (reject) */
  confirmConflict: () => Promise<boolean>;
  /** the user discarded their changes: reload what the views show */
  onConflictDiscarded?: () => void;
  notify: (toast: ToastInput) => void;
  timeZone?: () => string;
  fetch?: typeof globalThis.fetch;
  timeoutMs?: number;
};

export const errorToastMs = 5000;

function resolvedTimeZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  } catch {
    return 'UTC';
  }
}

function isAbort(error: unknown, signal: AbortSignal | undefined): boolean {
  if (signal?.aborted) return true;
  const cause = (error as { cause?: unknown } | null)?.cause;
  const name = (error as { name?: string } | null)?.name;
  return name === 'AbortError' || (cause as { name?: string } | null)?.name === 'AbortError';
}

export function createHttpClient(deps: HttpClientDeps): PortalApi {
  const fetcher = ofetch.create(
    {
      baseURL: deps.baseURL,
      retry: 0,
      timeout: deps.timeoutMs ?? 60_000,
      // The server's clock, for dating DPoP proofs (a 401 for a proof dated by a wrong clock is then retried right).
      onResponse: ({ response }) => {
        noteServerDate(response.headers.get('date'));
      },
    },
    deps.fetch ? { fetch: deps.fetch } : undefined,
  );
  const timeZone = deps.timeZone ?? resolvedTimeZone;

  async function send<T>(path: string, options: RequestOptions<T>, token: string): Promise<T> {
    const query = options.query ? Object.fromEntries(Object.entries(options.query).filter(([, value]) => value !== undefined && value !== null)) : undefined;
    const method = options.method ?? 'GET';
    // DPoP (src/api/dpop.ts): the proof names the method and the address without its query.
    const address = `${deps.baseURL.replace(/\/$/, '')}/${path.replace(/^\//, '')}`;
    const authorization = await authorizationHeaders(method, address, token);
    return (await fetcher(path, {
      method,
      ...(query ? { query } : {}),
      ...(options.body !== undefined ? { body: options.body as Record<string, unknown> } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
      responseType: options.responseType ?? 'json',
      headers: { Accept: 'application/json', ...options.headers, ...authorization, 'Time-Zone': timeZone() },
    })) as T;
  }

  async function sendWithRefresh<T>(path: string, options: RequestOptions<T>): Promise<T> {
    options.signal?.throwIfAborted();
    const token = await deps.getAccessToken();
    options.signal?.throwIfAborted();
    try {
      return await send(path, options, token);
    } catch (error) {
      if (error instanceof FetchError && error.status === 401 && !isAbort(error, options.signal)) {
        const refreshed = await deps.refreshAccessToken();
        return send(path, options, refreshed);
      }
      throw error;
    }
  }

  function shouldHandle(options: RequestOptions<unknown>, status: number): boolean {
    const { handleErrors = true } = options;
    return typeof handleErrors === 'function' ? handleErrors(status) : handleErrors;
  }

  async function request<T>(path: string, options: RequestOptions<T> = {}): Promise<T> {
    try {
      return await sendWithRefresh(path, options);
    } catch (error) {
      if (error instanceof SessionUnavailableError) {
        throw new ApiError({ status: 401, messages: [error.message], kind: 'session', handled: true });
      }
      if (isAbort(error, options.signal)) {
        throw new ApiError({ status: 0, messages: [], kind: 'aborted', handled: true });
      }
      const status = error instanceof FetchError ? (error.status ?? 0) : 0;
      const reported = error instanceof FetchError ? errorReportMessages(error.data) : [];
      const handle = shouldHandle(options as RequestOptions<unknown>, status);

      if (status === 409 && handle) {
        const discard = await deps.confirmConflict();
        if (!discard) throw new ApiError({ status, messages: reported, kind: 'conflictKept', handled: true });
        deps.onConflictDiscarded?.();
        if (options.onConflictConfirmed) return options.onConflictConfirmed();
        throw new ApiError({ status, messages: reported, kind: 'conflictDiscarded', handled: true });
      }

      const kind = status === 0 ? 'network' : 'http';
      if (!handle) throw new ApiError({ status, messages: reported, kind, handled: false });
      if (status >= 400 && status < 500 && reported.length > 0) {
        for (const message of reported) deps.notify({ kind: 'danger', message, durationMs: errorToastMs });
      } else {
        deps.notify({ kind: 'danger', message: messages.generalError, durationMs: errorToastMs });
      }
      throw new ApiError({ status, messages: reported, kind, handled: true });
    }
  }

  return {
    request,
    get: (path, options) => request(path, { ...options, method: 'GET' }),
    post: (path, body, options) => request(path, { ...options, method: 'POST', body }),
    put: (path, body, options) => request(path, { ...options, method: 'PUT', body }),
    patch: (path, body, options) => request(path, { ...options, method: 'PATCH', body }),
    delete: (path, options) => request(path, { ...options, method: 'DELETE' }),
  };
}
