// The client half of a list declared under the spec's {context} (server/http/context-list.ts): which context a screen
// shows from its route's parameters, the Portal API path of the list there, and one page of it as a query (the answer
// checked against its contract schema, by name, in the validation worker). A new overview asks for its rows with
// contextListQuery and needs no query factory of its own.
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api } from './api-client.ts';
import type { SchemaName } from './contract-schemas.ts';
import { validate } from './validate.ts';

/** Whose rows a list shows: one merchant's, every merchant's of a business, or every business's of a partner. */
export type ListScope =
  | { level: 'merchant'; businessId: string; merchantId: string }
  | { level: 'business'; businessId: string }
  | { level: 'partner'; partnerId: string };

/** The scope a route's parameters name: a partner, a merchant of a business, or a business. */
export function listScopeOf(params: Readonly<Record<string, string | undefined>>): ListScope {
  if (params.partnerId) return { level: 'partner', partnerId: params.partnerId };
  if (params.merchantId) return { level: 'merchant', businessId: params.businessId ?? '', merchantId: params.merchantId };
  return { level: 'business', businessId: params.businessId ?? '' };
}

const e = encodeURIComponent;

/** The Portal API path of a list ('customers') under a scope. */
export function contextListPath(scope: ListScope, path: string): string {
  switch (scope.level) {
    case 'merchant':
      return `/businesses/${e(scope.businessId)}/merchants/${e(scope.merchantId)}/${path}`;
    case 'business':
      return `/businesses/${e(scope.businessId)}/${path}`;
    case 'partner':
      return `/partners/${e(scope.partnerId)}/${path}`;
  }
}

/** Every page of a declared list, under every scope: what a write that changes its rows invalidates. */
export const contextListKey = (path: string) => ['contextList', path] as const;

/** One page of a declared list: its list parameters (pagenumber, pagesize, sort, filters) as the server reads them. */
export const contextListQuery = <N extends SchemaName>(path: string, schema: N, scope: ListScope, parameters: Readonly<Record<string, string>>) =>
  queryOptions({
    queryKey: [...contextListKey(path), contextListPath(scope, path), parameters] as const,
    queryFn: async ({ signal }) => validate(schema, await api.get<unknown>(contextListPath(scope, path), { query: { ...parameters }, signal })),
    placeholderData: keepPreviousData,
    staleTime: 10_000,
  });
