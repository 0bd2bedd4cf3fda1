// One notification: title, dates and its content blocks (paragraphs and lists), always rendered as React text,
// never as markup. Opening it marks it read on the server, so the bell's unread count is refreshed.
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId } from 'react';
import { isApiError } from '../../src/api/api-error.ts';
import { notificationQueries } from '../../src/api/notification-queries.ts';
import { parseNotificationContent } from '../../src/contract/notifications.ts';
import { formatDateTime } from '../../src/format/dates.ts';
import type { PaneProps } from '../../src/state/pane-scope.tsx';
import { Skeleton } from '../../src/ui/skeleton.tsx';
import { NotificationContentView } from './notification-content.tsx';
import { userNotificationQueries } from './notification-queries.ts';
import './notifications.css';

export function UserNotificationPane({ params }: PaneProps) {
  const reference = params.reference ?? '';
  const queryClient = useQueryClient();
  const detail = useQuery(userNotificationQueries.detail(reference));
  const titleId = useId();
  const openedReference = detail.data?.reference;

  // The server recorded the read with this answer: the bell's count and the list's markers are now stale.
  useEffect(() => {
    if (!openedReference) return;
    void queryClient.invalidateQueries({ queryKey: notificationQueries.status().queryKey });
    void queryClient.invalidateQueries({ queryKey: [...userNotificationQueries.all, 'list'] });
  }, [openedReference, queryClient]);

  if (detail.isPending) return <div className="notification-detail"><Skeleton lines={4} label="Loading the notification" /></div>;
  if (detail.isError) {
    const notFound = isApiError(detail.error) && detail.error.status === 404;
    return (
      <div className="notification-detail">
        <h1>Notification {reference}</h1>
        <p role="alert">{notFound ? 'The requested record was not found.' : 'The notification could not be loaded.'}</p>
      </div>
    );
  }
  const notification = detail.data;
  const blocks = parseNotificationContent(notification.content);
  return (
    <article className="notification-detail" aria-labelledby={titleId}>
      <h1 id={titleId}>{notification.title}</h1>
      <dl className="notification-dates">
        <div><dt>Published</dt><dd>{formatDateTime(notification.publishedUtc)}</dd></div>
        <div><dt>Last edited</dt><dd>{formatDateTime(notification.lastEditedUtc)}</dd></div>
      </dl>
      <NotificationContentView blocks={blocks} />
      <p><a href="/notifications">All notifications</a></p>
    </article>
  );
}
