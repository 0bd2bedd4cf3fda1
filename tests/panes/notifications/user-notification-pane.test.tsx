// Notifications as the user reads them, against a fake Portal API: hostile text in a title or the content shows
// as literal text (no element is made of it), opening one refreshes the bell's count, and the list links rows.
import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { notificationQueries } from '../../../src/api/notification-queries.ts';
import type { UserNotificationDetail, UserNotificationList } from '../../../src/contract/notifications.ts';
import { UserNotificationPane } from '../../../panes/notifications/user-notification-pane.tsx';
import { UserNotificationsPane } from '../../../panes/notifications/user-notifications-pane.tsx';
import { createServices, fakeApi, renderWithServices, resetStores, signIn } from '../../app/support.tsx';

const script = '<script>alert(1)</script>';
const image = '<img src=x onerror=alert(1)>';

const hostile = (): UserNotificationDetail => ({
  reference: 'NTF00005',
  title: `Security notice ${script}`,
  content: JSON.stringify({ blocks: [
    { type: 'paragraph', text: `Never share your password. ${image} Our staff will never ask for it.` },
    { type: 'list', items: [script, image] },
    { type: 'paragraph', text: script },
  ] }),
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
    const heading = await screen.findByRole('heading', { level: 1 }, { timeout: 5000 });
    expect(heading.textContent).toBe(`Security notice ${script}`);
    expect(screen.getByText(`Never share your password. ${image} Our staff will never ask for it.`).tagName).toBe('P');
    const list = screen.getByRole('list');
    expect(within(list).getAllByRole('listitem').map((item) => item.textContent)).toEqual([script, image]);
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
    fakeApi({ '/user/notifications/NTF404': () => { throw new ApiError({ status: 404, messages: ['The requested record was not found.'], kind: 'http', handled: true }); } });
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
        { reference: 'NTF00005', title: `Security notice ${script}`, publishedUtc: '2026-03-05T10:00:00.000Z', lastEditedUtc: '2026-03-05T10:00:00.000Z', unread: true },
        { reference: 'NTF00001', title: 'Scheduled maintenance', publishedUtc: '2026-01-02T10:00:00.000Z', lastEditedUtc: '2026-01-02T10:00:00.000Z', unread: false },
      ],
      numberOfResults: 2,
    };
    const { container } = renderWithServices(<UserNotificationsPane params={{}} search="" capability="Notifications" />, (fakeApi({ '/user/notifications': () => answer }), createServices()));
    const table = await screen.findByRole('table', { name: 'Notifications' });
    const link = within(table).getByRole('link', { name: `Security notice ${script}` });
    expect(link.getAttribute('href')).toBe('/notifications/NTF00005');
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows.map((row) => within(row).getAllByRole('cell').map((cell) => cell.textContent))).toEqual([['5 March 2026', 'Unread', ''], ['2 January 2026', 'Read', 'Mark as unread']]);
    expect(container.querySelector('script, img')).toBeNull();
  });
});
