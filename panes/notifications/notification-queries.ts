// The caller's notifications (TkDodo-style query factory), validated against the contract (in the validation worker).
// Keys sit under the bell's ['notifications'] key, so invalidating it refreshes list, detail and count alike.
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api } from '../../src/api/api-client.ts';
import { notificationQueries } from '../../src/api/notification-queries.ts';
import { validate } from '../../src/api/validate.ts';

export const userNotificationQueries = {
  all: [...notificationQueries.all, 'user'] as const,
  list: (pageNumber: number, pageSize: number) =>
    queryOptions({
      queryKey: [...userNotificationQueries.all, 'list', { pageNumber, pageSize }] as const,
      queryFn: async ({ signal }) =>
        validate(
          'userNotificationList',
          await api.get<unknown>('/user/notifications', { query: { pagenumber: String(pageNumber), pagesize: String(pageSize) }, signal }),
        ),
      placeholderData: keepPreviousData,
      staleTime: 15_000,
    }),
  detail: (reference: string) =>
    queryOptions({
      queryKey: [...userNotificationQueries.all, 'detail', reference] as const,
      queryFn: async ({ signal }) =>
        validate('userNotificationDetail', await api.get<unknown>(`/user/notifications/${encodeURIComponent(reference)}`, { signal })),
      staleTime: 60_000,
    }),
};
