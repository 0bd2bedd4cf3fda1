// The caller's notifications (TkDodo-style query factory), validated against the contract loaded lazily.
// Keys sit under the bell's ['notifications'] key, so invalidating it refreshes list, detail and count alike.
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api } from '../../src/api/api-client.ts';
import { notificationQueries } from '../../src/api/notification-queries.ts';
import { validate } from '../../src/api/validate.ts';

const contract = () => import('../../src/contract/notifications.ts');
const listSchema = () => contract().then((module) => module.userNotificationList);
const detailSchema = () => contract().then((module) => module.userNotificationDetail);

export const userNotificationQueries = {
  all: [...notificationQueries.all, 'user'] as const,
  list: (pageNumber: number, pageSize: number) => queryOptions({
    queryKey: [...userNotificationQueries.all, 'list', { pageNumber, pageSize }] as const,
    queryFn: async ({ signal }) => validate(listSchema, await api.get<unknown>('/user/notifications', { query: { pagenumber: String(pageNumber), pagesize: String(pageSize) }, signal })),
    placeholderData: keepPreviousData,
    staleTime: 15_000,
  }),
  detail: (reference: string) => queryOptions({
    queryKey: [...userNotificationQueries.all, 'detail', reference] as const,
    queryFn: async ({ signal }) => validate(detailSchema, await api.get<unknown>(`/user/notifications/${encodeURIComponent(reference)}`, { signal })),
    staleTime: 60_000,
  }),
};
