// One notification: title, dates and its content blocks (paragraphs and lists), always rendered as React text,
// never as markup. Opening it marks it read on the server, so the bell's unread count is refreshed. Escape goes back
// to the inbox with this notification's row focused; u ('Mark as unread') marks it unread and goes back too.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type KeyboardEvent, useEffect, useId, useRef } from 'react';
import { useLocation } from 'wouter';
import { isApiError } from '../../src/api/api-error.ts';
import { notificationQueries } from '../../src/api/notification-queries.ts';
import { parseNotificationContent } from '../../src/contract/notifications.ts';
import { formatDateTime } from '../../src/format/dates.ts';
import { type PaneProps, usePaneCapabilities } from '../../src/state/pane-scope.tsx';
import { showToast } from '../../src/state/toast-store.ts';
import { setNotificationRead } from './authoring-queries.ts';
import { inboxFocus } from './inbox-focus.ts';
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
  const [, navigate] = useLocation();
  const heading = useRef<HTMLHeadingElement>(null);
  const backToInbox = () => {
    inboxFocus.reference = reference;
    const page = inboxFocus.page;
    navigate(`/notifications${page}`);
  };
  const markUnread = useMutation({
    mutationFn: () => setNotificationRead(reference, false),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: notificationQueries.all });
      showToast({ kind: 'success', message: 'Marked as unread.' });
      backToInbox();
    },
  });
  usePaneCapabilities(
    openedReference
      ? {
          toggleRead: () => {
            if (!markUnread.isPending) markUnread.mutate();
          },
        }
      : {},
  );
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key !== 'Escape' || event.defaultPrevented || event.target instanceof HTMLInputElement) return;
    event.preventDefault();
    backToInbox();
  };
  // Focus the title when the notification shows, so Escape and reading start here.
  useEffect(() => {
    if (openedReference) heading.current?.focus({ preventScroll: true });
  }, [openedReference]);

  // The server recorded the read with this answer: the bell's count and the list's markers are now stale.
  useEffect(() => {
    if (!openedReference) return;
    void queryClient.invalidateQueries({ queryKey: notificationQueries.status().queryKey });
    void queryClient.invalidateQueries({ queryKey: [...userNotificationQueries.all, 'list'] });
  }, [openedReference, queryClient]);

  if (detail.isPending)
    return (
      <div className="notification-detail">
        <Skeleton lines={4} label="Loading the notification" />
      </div>
    );
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
    <article className="notification-detail" aria-labelledby={titleId} onKeyDown={onKeyDown}>
      <h1 id={titleId} ref={heading} tabIndex={-1}>
        {notification.title}
      </h1>
      <dl className="notification-dates">
        <div>
          <dt>Published</dt>
          <dd>{formatDateTime(notification.publishedUtc)}</dd>
        </div>
        <div>
          <dt>Last edited</dt>
          <dd>{formatDateTime(notification.lastEditedUtc)}</dd>
        </div>
      </dl>
      <NotificationContentView blocks={blocks} />
      <p className="notification-detail-actions">
        <a
          href={`/notifications${inboxFocus.page}`}
          onClick={() => {
            inboxFocus.reference = reference;
          }}
        >
          All notifications
        </a>{' '}
        <span className="notification-hint">(Escape)</span>{' '}
        <button
          type="button"
          className="button button-ghost"
          aria-keyshortcuts="u"
          aria-disabled={markUnread.isPending}
          onClick={() => {
            if (!markUnread.isPending) markUnread.mutate();
          }}
        >
          Mark as unread
        </button>
      </p>
    </article>
  );
}
