// On load (once per session): an info message linking to the latest unread notification, and a danger
// message when the password expires within 1 to 7 days.
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { notificationQueries } from '../api/notification-queries.ts';
import { passwordExpiresMessage, unreadNotificationMessage } from '../contract/messages.ts';
import type { NotificationStatus } from '../contract/shell-responses.ts';
import { markNoticesShown, sessionStore } from '../state/session-store.ts';
import { showToast, type ToastInput } from '../state/toast-store.ts';

export function noticesFor(status: NotificationStatus): ToastInput[] {
  const notices: ToastInput[] = [];
  if (status.latestUnread) {
    notices.push({
      kind: 'info',
      message: unreadNotificationMessage(status.latestUnread.title),
      link: { href: `/notifications/${encodeURIComponent(status.latestUnread.reference)}`, label: 'Read it' },
    });
  }
  const days = status.passwordExpiresInXDays;
  if (days !== null && days >= 1 && days <= 7) {
    notices.push({ kind: 'danger', message: passwordExpiresMessage(days), link: { href: '/profile', label: 'Change it in your profile' } });
  }
  return notices;
}

export function useOnLoadNotices(enabled: boolean): void {
  const status = useQuery({ ...notificationQueries.status(), enabled });
  useEffect(() => {
    if (!status.data || sessionStore.noticesShown) return;
    markNoticesShown();
    for (const notice of noticesFor(status.data)) showToast(notice);
  }, [status.data]);
}
