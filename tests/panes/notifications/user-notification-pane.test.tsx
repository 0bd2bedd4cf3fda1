// Notifications as the user reads them, against a fake Portal API: hostile text in a title or the content shows
// as literal text (no element is made of it), opening one refreshes the bell's count, and the list links rows.
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { notificationQueries } from '../../../src/api/notification-queries.ts';
import type { UserNotificationDetail, UserNotificationList } from '../../../src/contract/notification-schemas.ts';
import { UserNotificationPane } from '../../../panes/notifications/user-notification-pane.tsx';
import { UserNotificationsPane } from '../../../panes/notifications/user-notifications-pane.tsx';
import { createServices, fakeApi, renderWithServices, resetStores, signIn } from '../../app/support.tsx';
import { markAllNotificationsReadCommand } from '../../../commands/notifications/mark-all-read.ts';
import { isAvailable } from '../../../commands/registry.ts';
import { toastStore } from '../../../src/state/toast-store.ts';
import { baseContext } from '../../app/support.tsx';

const script = '<script>alert(1)</script>';
const image = '<img src=x onerror=alert(1)>';

const hostile = (): UserNotificationDetail => ({
  reference: 'NTF00005',
  title: `Security notice ${script}`,
  content: JSON.stringify({
    blocks: [
      { type: 'paragraph', text: `Never share your password. ${image} Our staff will never ask for it.` },
      { type: 'list', items: [script, image] },
      { type: 'paragraph', text: script },
    ],
  }),
  publishedUtc: '2026-03-05T10:00:00.000Z',
  lastEditedUtc: '2026-03-05T10:00:00.000Z',
});

describe('one notification', () => {
  beforeEach(() => {
    resetStores();
    signIn({ permissions: ['Portal.Notifications.Read'], paths: ['/notifications/NTF00005'] });
  });

  it('renders hostile title and content as literal text, never as elements', async () => {
    fakeApi({ '/user/notifications/NTF00005': () => hostile() });
    const { container } = renderWithServices(<UserNotificationPane params={{ reference: 'NTF00005' }} search="" capability="Notification" />);
    // The first answer of a file loads the contract schemas (arktype) on the main thread: over a second on a busy machine.
    const heading = await screen.findByRole('heading', { level: 1 });
    expect(heading.textContent).toBe(`Security notice ${script}`);
    expect(screen.getByText(`Never share your password. ${image} Our staff will never ask for it.`).tagName).toBe('P');
    const list = screen.getByRole('list');
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual([script, image]);
    expect(screen.getAllByText(script).length).toBeGreaterThanOrEqual(2);
    expect(container.querySelector('img, script, iframe, object')).toBeNull();
    expect(container.querySelector('[onerror]')).toBeNull();
    expect(screen.getAllByText('5 March 2026, 10:00')).toHaveLength(2);
  });

  it('refreshes the bell’s unread count once the notification is open', async () => {
    let statusCalls = 0;
    fakeApi({
      '/user/notifications/NTF00005': () => hostile(),
      '/user/notifications/status': () => {
        statusCalls += 1;
        return { totalUnreadCount: statusCalls === 1 ? 3 : 2, passwordExpiresInXDays: null, latestUnread: null };
      },
    });
    const services = createServices();
    await services.queryClient.fetchQuery(notificationQueries.status());
    expect(services.queryClient.getQueryData(notificationQueries.status().queryKey)?.totalUnreadCount).toBe(3);
    renderWithServices(<UserNotificationPane params={{ reference: 'NTF00005' }} search="" capability="Notification" />, services);
    await screen.findByRole('heading', { level: 1 });
    // Without a mounted bell the query is only marked stale; the bell refetches it on its next render.
    await waitFor(() => expect(services.queryClient.getQueryState(notificationQueries.status().queryKey)?.isInvalidated).toBe(true));
    await services.queryClient.refetchQueries({ queryKey: notificationQueries.status().queryKey });
    expect(services.queryClient.getQueryData(notificationQueries.status().queryKey)?.totalUnreadCount).toBe(2);
  });

  it('says when the notification is not there', async () => {
    const { ApiError } = await import('../../../src/api/api-error.ts');
    fakeApi({
      '/user/notifications/NTF404': () => {
        throw new ApiError({ status: 404, messages: ['The requested record was not found.'], kind: 'http', handled: true });
      },
    });
    renderWithServices(<UserNotificationPane params={{ reference: 'NTF404' }} search="" capability="Notification" />);
    expect((await screen.findByRole('alert')).textContent).toBe('The requested record was not found.');
  });
});

describe('the notifications list', () => {
  beforeEach(() => {
    resetStores();
    signIn({ permissions: ['Portal.Notifications.Read'], paths: ['/notifications'] });
  });

  it('lists titles as links with the published date and an unread marker', async () => {
    const answer: UserNotificationList = {
      results: [
        {
          reference: 'NTF00005',
          title: `Security notice ${script}`,
          publishedUtc: '2026-03-05T10:00:00.000Z',
          lastEditedUtc: '2026-03-05T10:00:00.000Z',
          unread: true,
        },
        {
          reference: 'NTF00001',
          title: 'Scheduled maintenance',
          publishedUtc: '2026-01-02T10:00:00.000Z',
          lastEditedUtc: '2026-01-02T10:00:00.000Z',
          unread: false,
        },
      ],
      numberOfResults: 2,
    };
    fakeApi({ '/user/notifications': () => answer });
    const { container } = renderWithServices(<UserNotificationsPane params={{}} search="" capability="Notifications" />, createServices());
    const table = await screen.findByRole('table', { name: 'Notifications' });
    const link = within(table).getByRole('link', { name: `Security notice ${script}` });
    expect(link.getAttribute('href')).toBe('/notifications/NTF00005');
    const rows = within(table).getAllByRole('row').slice(1);
    expect(
      rows.map((row) =>
        within(row)
          .getAllByRole('cell')
          .map((cell) => cell.textContent),
      ),
    ).toEqual([
      ['5 March 2026', 'Unread', 'Mark as read'],
      ['2 January 2026', 'Read', 'Mark as unread'],
    ]);
    expect(container.querySelector('script, img')).toBeNull();
  });

  const page = (unread: boolean): UserNotificationList => ({
    results: [
      { reference: 'NTF00001', title: 'Scheduled maintenance', publishedUtc: '2026-01-02T10:00:00.000Z', lastEditedUtc: '2026-01-02T10:00:00.000Z', unread },
    ],
    numberOfResults: 21,
  });

  it('marks all as read from the button: one request, the list and the bell refreshed, a toast', async () => {
    let marked = false;
    const api = fakeApi({
      '/user/notifications': () => page(false),
      // The unread one is on another page: the bell's count enables the button all the same.
      '/user/notifications/status': () => ({ totalUnreadCount: marked ? 0 : 1, passwordExpiresInXDays: null, latestUnread: null }),
    });
    (api.put as ReturnType<typeof vi.fn>).mockImplementation(async () => {
      marked = true;
      return undefined;
    });
    renderWithServices(<UserNotificationsPane params={{}} search="" capability="Notifications" />);
    await screen.findByRole('table', { name: 'Notifications' });
    const button = screen.getByRole('button', { name: 'Mark all as read' });
    await waitFor(() => expect(button.getAttribute('aria-disabled')).toBe('false'));
    const statusCalls = () => api.get.mock.calls.filter(([path]) => path === '/user/notifications/status').length;
    const before = statusCalls();
    await userEvent.click(button);
    expect((api.put as ReturnType<typeof vi.fn>).mock.calls.map((call) => call.slice(0, 2))).toEqual([['/user/notifications/read-state', { read: true }]]);
    await waitFor(() => expect(toastStore.toasts.map((toast) => toast.message)).toContain('All notifications are marked as read.'));
    await waitFor(() => expect(statusCalls()).toBeGreaterThan(before));
    // Off, but still focused and focusable (aria-disabled): focus stays on the button, not the page's body.
    await waitFor(() => expect(button.getAttribute('aria-disabled')).toBe('true'));
    expect(document.activeElement).toBe(button);
    await userEvent.click(button);
    expect(api.put).toHaveBeenCalledTimes(1);
  });

  it('keeps the button off when nothing is unread', async () => {
    fakeApi({
      '/user/notifications': () => page(false),
      '/user/notifications/status': () => ({ totalUnreadCount: 0, passwordExpiresInXDays: null, latestUnread: null }),
    });
    renderWithServices(<UserNotificationsPane params={{}} search="" capability="Notifications" />);
    await screen.findByRole('table', { name: 'Notifications' });
    await waitFor(() => expect(screen.getByRole('button', { name: 'Mark all as read' }).getAttribute('aria-disabled')).toBe('true'));
  });

  it('marks all as read from the palette, anywhere, for readers of notifications', async () => {
    const command = markAllNotificationsReadCommand;
    expect(isAvailable(command, baseContext({ permissions: ['Portal.Notifications.Read'] }))).toBe(true);
    expect(isAvailable(command, baseContext({ permissions: [] }))).toBe(false);
    expect(isAvailable(command, baseContext({ permissions: ['Portal.Notifications.Read'], signedIn: false }))).toBe(false);
    const api = fakeApi({});
    const services = createServices();
    const invalidate = vi.spyOn(services.queryClient, 'invalidateQueries');
    await command.run({ ...services.commandServices, api, queryClient: services.queryClient }, {});
    expect(api.put).toHaveBeenCalledWith('/user/notifications/read-state', { read: true });
    expect(invalidate).toHaveBeenCalledWith({ queryKey: notificationQueries.all });
    expect(toastStore.toasts.map((toast) => toast.message)).toContain('All notifications are marked as read.');
    expect(services.registry.get('notifications.markAllRead')).toBe(command);
  });
});
