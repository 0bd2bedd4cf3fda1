// The application's one Portal API client. The composition root (src/app) configures it with the session's
// token functions; query functions and commands use `api`.
import type { PortalApi, RequestOptions } from './http-client.ts';

let configured: PortalApi | null = null;
let configuredGateway: PortalApi | null = null;

/** The Portal API client, and the payment gateway's (base /api/gateway: the virtual terminal's orders, spec section 7). */
export function configureApi(client: PortalApi, gatewayClient: PortalApi = client): void {
  configured = client;
  configuredGateway = gatewayClient;
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

function gatewayClient(): PortalApi {
  if (!configuredGateway) throw new Error('The gateway client is used before the app configured it.');
  return configuredGateway;
}

/** Calls to the payment gateway base (/api/gateway), signed in like the Portal API; 4xx messages as the spec says. */
export const gatewayApi: Pick<PortalApi, 'get' | 'post' | 'delete'> = {
  get: <T>(path: string, options?: Options<T>) => gatewayClient().get<T>(path, options),
  post: <T>(path: string, body?: unknown, options?: Options<T>) => gatewayClient().post<T>(path, body, options),
  delete: <T>(path: string, options?: Options<T>) => gatewayClient().delete<T>(path, options),
};
