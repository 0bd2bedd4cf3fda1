// The bell's unread count and the on-load messages (latest unread notification, password expiry).
import { queryOptions } from '@tanstack/react-query';
import type { NotificationStatus } from '../contract/shell-responses.ts';
import { api } from './api-client.ts';
import { validate } from './validate.ts';

export const notificationQueries = {
  all: ['notifications'] as const,
  status: () =>
    queryOptions({
      queryKey: [...notificationQueries.all, 'status'] as const,
      queryFn: async ({ signal }): Promise<NotificationStatus> =>
        // A background poll that fails says nothing; the bell keeps its last count.
        validate('notificationStatus', await api.get<unknown>('/user/notifications/status', { signal, handleErrors: false })),
      staleTime: 30_000,
      refetchInterval: 60_000,
      refetchIntervalInBackground: false,
    }),
};
