// The caller's notifications, newest first: title, publication date and whether it is still unread. Each row is a
// link to the notification; the first row (or the one last opened) takes focus when the inbox opens from the bell,
// j / k move between rows and Enter (Shift+Enter: beside) opens one. 'Mark all as read', and per row 'Mark as read' /
// 'Mark as unread' (u on the focused row), change the caller's read state on the server; focus stays on the row
// (the buttons say aria-disabled while busy rather than disabled, which would drop focus to the page's body). Authors (Portal.Notifications.Create) also
// get the 'Written' view (?view=authored): every notification in any status, with its readers and an edit link.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useId, useRef } from 'react';
import { useLocation } from 'wouter';
import { defaultPageSize, pageSizes } from '../../src/contract/list-query.ts';
import type { UserNotificationSummary } from '../../src/contract/notification-schemas.ts';
import { formatDate } from '../../src/format/dates.ts';
import { type PaneProps, type PaneRequestHandlers, usePaneCapabilities, usePaneScope } from '../../src/state/pane-scope.tsx';
import { openBeside } from '../../src/state/workspace-store.ts';
import { Pagination } from '../../src/ui/data-table/pagination.tsx';
import { Skeleton } from '../../src/ui/skeleton.tsx';
import { useSnapshot } from 'valtio';
import { notificationQueries } from '../../src/api/notification-queries.ts';
import type { ContextSelections } from '../../src/contract/context.ts';
import { notificationStatusLabels } from '../../src/contract/notifications.ts';
import { contextStore } from '../../src/state/context-store.ts';
import { permissionScope, sessionStore } from '../../src/state/session-store.ts';
import { showToast } from '../../src/state/toast-store.ts';
import { authoringQueries, markAllNotificationsRead, setNotificationRead } from './authoring-queries.ts';
import { userNotificationQueries } from './notification-queries.ts';
import { inboxFocus } from './inbox-focus.ts';
import { linkCursor, useRowCursor } from '../overview/row-cursor.ts';
import '../../src/ui/data-table/data-table.css';
import './notifications.css';

export const notificationPath = (reference: string) => `/notifications/${encodeURIComponent(reference)}`;

/** pagenumber and pagesize from the pane's own query; anything invalid falls back to the first page. */
export function pageOf(search: string): { pageNumber: number; pageSize: number } {
  const query = new URLSearchParams(search);
  const pageNumber = Number(query.get('pagenumber') ?? '1');
  const pageSize = Number(query.get('pagesize') ?? String(defaultPageSize));
  return {
    pageNumber: Number.isInteger(pageNumber) && pageNumber >= 1 ? pageNumber : 1,
    pageSize: (pageSizes as readonly number[]).includes(pageSize) ? pageSize : defaultPageSize,
  };
}

function AuthoredNotifications({
  pageNumber,
  pageSize,
  goTo,
}: {
  pageNumber: number;
  pageSize: number;
  goTo: (next: { pageNumber: number; pageSize: number }) => void;
}) {
  const list = useQuery(authoringQueries.list(pageNumber, pageSize));
  const headingId = useId();
  const rows = list.data?.results ?? [];
  return (
    <section aria-labelledby={headingId} className="notifications-pane">
      <h2 id={headingId} className="visually-hidden">
        Notifications written
      </h2>
      {list.isPending ? <Skeleton lines={5} label="Loading notifications" /> : null}
      {list.isError ? <p role="alert">The notifications could not be loaded.</p> : null}
      {list.isSuccess && rows.length === 0 ? <p className="notifications-empty">No notification has been written yet.</p> : null}
      {rows.length > 0 ? (
        <table className="notifications-table" aria-labelledby={headingId}>
          <thead>
            <tr>
              <th scope="col">Title</th>
              <th scope="col">Status</th>
              <th scope="col">Readers</th>
              <th scope="col">Published</th>
              <th scope="col">Last edited</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={row.reference}>
                <th scope="row">
                  <a className="data-table-link data-table-text-link" href={`/notifications/edit/${encodeURIComponent(row.reference)}`}>
                    {row.title}
                  </a>
                </th>
                <td>
                  {notificationStatusLabels[row.status]}
                  {row.status === 'readyForPublication' && row.publishAtUtc ? ` (at ${formatDate(row.publishAtUtc)})` : ''}
                </td>
                <td>
                  {row.viewRestriction === 'internalUsers' ? 'Internal users' : row.audience ? 'Some businesses' : 'All users'} · {row.readCount} read
                </td>
                <td>{formatDate(row.publishedUtc)}</td>
                <td>{formatDate(row.lastEditedUtc)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      {list.data && list.data.numberOfResults > 0 ? (
        <Pagination
          label="Written notifications pages"
          pageNumber={pageNumber}
          pageSize={pageSize}
          pageSizes={pageSizes}
          rowsOnPage={rows.length}
          total={list.data.numberOfResults}
          onPageChange={(next) => goTo({ pageNumber: next, pageSize })}
          onPageSizeChange={(next) => goTo({ pageNumber: 1, pageSize: next })}
        />
      ) : null}
    </section>
  );
}

export function UserNotificationsPane({ search }: PaneProps) {
  const { pageNumber, pageSize } = pageOf(search);
  const queryClient = useQueryClient();
  const { applied } = useSnapshot(contextStore);
  const session = useSnapshot(sessionStore);
  const author = (session.permissions[permissionScope(applied as ContextSelections).key] ?? []).includes('Portal.Notifications.Create');
  const authoredView = author && new URLSearchParams(search).get('view') === 'authored';
  const refreshAll = () => queryClient.invalidateQueries({ queryKey: notificationQueries.all });
  const markAll = useMutation({
    mutationFn: markAllNotificationsRead,
    onSuccess: () => {
      void refreshAll();
      showToast({ kind: 'success', message: 'All notifications are marked as read.' });
    },
  });
  const tableRef = useRef<HTMLTableElement>(null);
  const rowLink = useCallback(
    (reference: string) => tableRef.current?.querySelector<HTMLAnchorElement>(`tbody a[data-reference="${CSS.escape(reference)}"]`) ?? null,
    [],
  );
  const markRead = useMutation({
    mutationFn: ({ reference, read }: { reference: string; read: boolean }) => setNotificationRead(reference, read),
    onSuccess: async (_answer, { reference, read }) => {
      await refreshAll();
      showToast({ kind: 'success', message: read ? 'Marked as read.' : 'Marked as unread.' });
      rowLink(reference)?.focus();
    },
  });
  const [, navigate] = useLocation();
  const scope = usePaneScope();
  const list = useQuery(userNotificationQueries.list(pageNumber, pageSize));
  const headingId = useId();
  const rows: readonly UserNotificationSummary[] = list.isError ? [] : (list.data?.results ?? []);
  // Unread ones may sit on another page: the bell's count (the same query, already loaded by the shell) says so too.
  const status = useQuery(notificationQueries.status());
  const anyUnread = rows.some((row) => row.unread) || (status.data?.totalUnreadCount ?? 0) > 0;

  const goTo = (next: { pageNumber: number; pageSize: number }) =>
    navigate(`/notifications?${authoredView ? 'view=authored&' : ''}pagenumber=${next.pageNumber}&pagesize=${next.pageSize}`);

  // Opening from the bell (focus on the bell or nowhere): focus the row last opened here, else the first row.
  const firstReference = rows[0]?.reference;
  const focusedOnce = useRef(false);
  useEffect(() => {
    if (authoredView || !firstReference || focusedOnce.current) return;
    focusedOnce.current = true;
    const active = document.activeElement;
    const fromBell = !active || active === document.body || (active instanceof HTMLAnchorElement && active.getAttribute('href') === '/notifications');
    if (!fromBell && !inboxFocus.reference) return;
    const wanted = inboxFocus.reference ? rowLink(inboxFocus.reference) : null;
    inboxFocus.reference = null;
    (wanted ?? rowLink(firstReference))?.focus();
  }, [authoredView, firstReference, rowLink]);

  /** The row of the focused link or button, else the first. */
  const focusedRow = () => {
    const row = (document.activeElement as HTMLElement | null)?.closest('tr');
    const reference = row?.querySelector<HTMLAnchorElement>('a[data-reference]')?.dataset.reference;
    return rows.find((candidate) => candidate.reference === reference) ?? null;
  };
  const open = (reference: string, beside: boolean) => {
    inboxFocus.reference = reference;
    inboxFocus.page = search;
    if (beside) openBeside(notificationPath(reference), scope ? { afterPaneId: scope.paneId } : {});
    else navigate(notificationPath(reference));
  };

  const { rowHandlers } = useRowCursor(rows, { open: (row, beside) => open(row.reference, beside) }, { position: linkCursor(tableRef) });
  const handlers: PaneRequestHandlers = rowHandlers(!authoredView);
  if (rows.length > 0 && !authoredView) {
    handlers.toggleRead = () => {
      const row = focusedRow();
      if (row && !markRead.isPending) markRead.mutate({ reference: row.reference, read: row.unread });
    };
  }
  usePaneCapabilities(handlers);

  return (
    <section className="notifications-pane" aria-labelledby={headingId}>
      <header className="notifications-header">
        <h1 id={headingId}>Notifications</h1>
        <div className="notifications-actions">
          {author ? (
            <div className="notifications-views" role="group" aria-label="Which notifications">
              <a className={`button${authoredView ? '' : ' filter-choice is-active'}`} aria-current={authoredView ? undefined : 'page'} href="/notifications">
                Inbox
              </a>
              <a
                className={`button${authoredView ? ' filter-choice is-active' : ''}`}
                aria-current={authoredView ? 'page' : undefined}
                href="/notifications?view=authored"
              >
                Written
              </a>
            </div>
          ) : null}
          {!authoredView ? (
            <button
              type="button"
              className="button"
              aria-disabled={markAll.isPending || !anyUnread}
              onClick={() => {
                if (!markAll.isPending && anyUnread) markAll.mutate();
              }}
            >
              Mark all as read
            </button>
          ) : null}
          {author ? (
            <a className="button button-primary" href="/notifications/add">
              New notification
            </a>
          ) : null}
        </div>
      </header>
      {authoredView ? <AuthoredNotifications pageNumber={pageNumber} pageSize={pageSize} goTo={goTo} /> : null}
      {!authoredView && list.isPending ? <Skeleton lines={5} label="Loading notifications" /> : null}
      {!authoredView && list.isError ? <p role="alert">The notifications could not be loaded.</p> : null}
      {!authoredView && list.isSuccess && rows.length === 0 ? <p className="notifications-empty">There are no notifications.</p> : null}
      {!authoredView && rows.length > 0 ? (
        <table className="notifications-table" aria-labelledby={headingId} ref={tableRef}>
          <thead>
            <tr>
              <th scope="col">Title</th>
              <th scope="col">Published</th>
              <th scope="col">Status</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={row.reference} className={row.unread ? 'notification-unread' : undefined}>
                <th scope="row">
                  <a
                    className="data-table-link data-table-text-link"
                    href={notificationPath(row.reference)}
                    data-reference={row.reference}
                    onClick={() => {
                      inboxFocus.reference = row.reference;
                      inboxFocus.page = search;
                    }}
                  >
                    {row.title}
                  </a>
                </th>
                <td>{formatDate(row.publishedUtc)}</td>
                <td>{row.unread ? <span className="notification-unread-marker">Unread</span> : <span className="notification-read-marker">Read</span>}</td>
                <td>
                  <button
                    type="button"
                    className="button button-ghost"
                    aria-label={`${row.unread ? 'Mark as read' : 'Mark as unread'}: ${row.title}`}
                    aria-keyshortcuts="u"
                    aria-disabled={markRead.isPending}
                    onClick={() => {
                      if (!markRead.isPending) markRead.mutate({ reference: row.reference, read: row.unread });
                    }}
                  >
                    {row.unread ? 'Mark as read' : 'Mark as unread'}
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      {!authoredView && list.data && list.data.numberOfResults > 0 ? (
        <Pagination
          label="Notifications pages"
          pageNumber={pageNumber}
          pageSize={pageSize}
          pageSizes={pageSizes}
          rowsOnPage={rows.length}
          total={list.data.numberOfResults}
          onPageChange={(next) => goTo({ pageNumber: next, pageSize })}
          onPageSizeChange={(next) => goTo({ pageNumber: 1, pageSize: next })}
        />
      ) : null}
    </section>
  );
}
