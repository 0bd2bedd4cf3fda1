// Notifications as their authors see them (every status), and the reader's read-state changes. Keys sit under the
// bell's ['notifications'] key, so a publication refreshes the bell, the inbox and these lists alike.
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api } from '../../src/api/api-client.ts';
import { notificationQueries } from '../../src/api/notification-queries.ts';
import { validate } from '../../src/api/validate.ts';
import type { NotificationBody, NotificationUpdateBody } from '../../src/contract/notification-schemas.ts';

export const authoringQueries = {
  all: [...notificationQueries.all, 'authoring'] as const,
  list: (pageNumber: number, pageSize: number) =>
    queryOptions({
      queryKey: [...authoringQueries.all, 'list', { pageNumber, pageSize }] as const,
      queryFn: async ({ signal }) =>
        validate(
          'authoredNotificationList',
          await api.get<unknown>('/notifications', { query: { pagenumber: String(pageNumber), pagesize: String(pageSize) }, signal }),
        ),
      placeholderData: keepPreviousData,
      staleTime: 10_000,
    }),
  detail: (reference: string) =>
    queryOptions({
      queryKey: [...authoringQueries.all, 'detail', reference] as const,
      queryFn: async ({ signal }) => validate('authoredNotification', await api.get<unknown>(`/notifications/${encodeURIComponent(reference)}`, { signal })),
      staleTime: 0,
    }),
};

export async function createNotification(body: NotificationBody) {
  return validate('createdNotification', await api.post<unknown>('/notifications', body));
}

export async function updateNotification(reference: string, body: NotificationUpdateBody) {
  return validate('authoredNotification', await api.put<unknown>(`/notifications/${encodeURIComponent(reference)}`, body));
}

export async function deleteNotification(reference: string) {
  await api.delete<unknown>(`/notifications/${encodeURIComponent(reference)}`);
}

/** 'Mark as unread' (read: false) for one notification, kept on the server for this user. */
export async function setNotificationRead(reference: string, read: boolean) {
  await api.put<unknown>(`/user/notifications/${encodeURIComponent(reference)}/read-state`, { read });
}

export async function markAllNotificationsRead() {
  await api.put<unknown>('/user/notifications/read-state', { read: true });
}
