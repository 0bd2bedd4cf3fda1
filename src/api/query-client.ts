// TanStack Query defaults: no retries of answers the server gave on purpose (4xx), one retry of network
// hiccups, no refetch storms on focus (error toasts would repeat).
import { QueryClient } from '@tanstack/react-query';
import { isApiError } from './api-error.ts';

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 30_000,
        refetchOnWindowFocus: false,
        retry: (failureCount, error) => {
          if (isApiError(error) && (error.kind === 'http' || error.kind === 'session' || error.kind === 'drift' || error.kind === 'aborted')) return false;
          return failureCount < 1;
        },
      },
      mutations: { retry: false },
    },
  });
}
