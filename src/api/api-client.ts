// The application's one Portal API client. The composition root (src/app) configures it with the session's
// token functions; query functions and commands use `api`.
import type { PortalApi, RequestOptions } from './http-client.ts';

let configured: PortalApi | null = null;

export function configureApi(client: PortalApi): void {
  configured = client;
}

function client(): PortalApi {
  if (!configured) throw new Error('The Portal API client is used before the app configured it.');
  return configured;
}

type Options<T> = Omit<RequestOptions<T>, 'method' | 'body'>;

export const api: PortalApi = {
  request: <T>(path: string, options?: RequestOptions<T>) => client().request<T>(path, options),
  get: <T>(path: string, options?: Options<T>) => client().get<T>(path, options),
  post: <T>(path: string, body?: unknown, options?: Options<T>) => client().post<T>(path, body, options),
  put: <T>(path: string, body?: unknown, options?: Options<T>) => client().put<T>(path, body, options),
  patch: <T>(path: string, body?: unknown, options?: Options<T>) => client().patch<T>(path, body, options),
  delete: <T>(path: string, options?: Options<T>) => client().delete<T>(path, options),
};
