// The caller's policy and permissions. The session loads them at defined moments (after sign-in or a
// refresh; once per context) and keeps them in session storage, so these are plain fetchers plus query
// options for screens that want to show them.
import { queryOptions } from '@tanstack/react-query';
import type { AuthorizationPolicy } from '../contract/policy.ts';
import { api } from './api-client.ts';
import { validate } from './validate.ts';

export async function fetchPolicy(signal?: AbortSignal): Promise<AuthorizationPolicy> {
  const data = await api.get<unknown>('/user/policy-structure', signal ? { signal } : {});
  return (await validate('policyStructure', data)).portalPolicy;
}

/** `path` from permissionScope(): /user/permissions, /user/partner/{id}/permissions, … */
export async function fetchPermissions(path: string, signal?: AbortSignal): Promise<string[]> {
  const data = await api.get<unknown>(path, signal ? { signal } : {});
  return (await validate('permissionList', data)).permissions;
}

export const userQueries = {
  all: ['user'] as const,
  policy: () =>
    queryOptions({
      queryKey: [...userQueries.all, 'policy'] as const,
      queryFn: ({ signal }) => fetchPolicy(signal),
      staleTime: Number.POSITIVE_INFINITY,
    }),
  permissions: (path: string) =>
    queryOptions({
      queryKey: [...userQueries.all, 'permissions', path] as const,
      queryFn: ({ signal }) => fetchPermissions(path, signal),
      staleTime: Number.POSITIVE_INFINITY,
    }),
};
