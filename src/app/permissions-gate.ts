// The permissions of the applied context: fetched once per context and kept in session storage for the
// session (spec). A context the user cannot reach (404) is dropped, which sends them to context selection.
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useSnapshot } from 'valtio';
import { isApiError } from '../api/api-error.ts';
import { userQueries } from '../api/user-queries.ts';
import type { ContextSelections } from '../contract/context.ts';
import { clearContext, contextStore } from '../state/context-store.ts';
import { permissionScope, sessionStore, setPermissions } from '../state/session-store.ts';

export type PermissionsState = { status: 'loaded' | 'loading' | 'error'; retry: () => void };

export function usePermissionsOfAppliedContext(): PermissionsState {
  const { applied } = useSnapshot(contextStore);
  const { permissions } = useSnapshot(sessionStore);
  const scope = permissionScope(applied as ContextSelections);
  const known = permissions[scope.key] !== undefined;
  const query = useQuery({ ...userQueries.permissions(scope.path), enabled: !known });

  useEffect(() => {
    if (query.data && !known) setPermissions(scope.key, query.data);
  }, [query.data, known, scope.key]);

  useEffect(() => {
    if (query.error && isApiError(query.error) && (query.error.status === 404 || query.error.status === 403) && scope.key !== 'all') clearContext();
  }, [query.error, scope.key]);

  if (known) return { status: 'loaded', retry: () => undefined };
  return { status: query.isError ? 'error' : 'loading', retry: () => void query.refetch() };
}
