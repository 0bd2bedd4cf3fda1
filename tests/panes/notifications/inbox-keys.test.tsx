// The inbox by keyboard: it opens with the first row focused (from the bell), u's request marks the focused
// row read or unread and focus stays on that row, and Escape on an open notification goes back to the inbox with
// that notification's row focused.
import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, type Mock, vi } from 'vitest';
import { Router, useSearch } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { toggleNotificationReadCommand } from '../../../commands/notifications/toggle-read.ts';
import { isAvailable } from '../../../commands/registry.ts';
import { UserNotificationPane } from '../../../panes/notifications/user-notification-pane.tsx';
import { UserNotificationsPane } from '../../../panes/notifications/user-notifications-pane.tsx';
import { inboxFocus } from '../../../panes/notifications/inbox-focus.ts';
import type { UserNotificationList } from '../../../src/contract/notification-schemas.ts';
import { PaneScopeContext } from '../../../src/state/pane-scope.tsx';
import { sendPaneRequest, workspaceStore } from '../../../src/state/workspace-store.ts';
import { baseContext, createServices, fakeApi, renderWithServices, resetStores, signIn } from '../../app/support.tsx';

vi.setConfig({ testTimeout: 20_000 });

const inbox = (unread: Record<string, boolean>): UserNotificationList => ({
  results: [
    {
      reference: 'NTF00002',
      title: 'New statement layout',
      publishedUtc: '2026-03-05T10:00:00.000Z',
      lastEditedUtc: '2026-03-05T10:00:00.000Z',
      unread: unread.NTF00002 ?? true,
    },
    {
      reference: 'NTF00001',
      title: 'Scheduled maintenance',
      publishedUtc: '2026-01-02T10:00:00.000Z',
      lastEditedUtc: '2026-01-02T10:00:00.000Z',
      unread: unread.NTF00001 ?? false,
    },
  ],
  numberOfResults: 2,
});

function render(node: React.ReactNode, path: string) {
  const location = memoryLocation({ path, record: true });
  const paneId = workspaceStore.panes[0]?.id ?? '';
  renderWithServices(
    <PaneScopeContext value={{ paneId }}>
      <Router hook={location.hook} searchHook={location.searchHook}>
        {node}
      </Router>
    </PaneScopeContext>,
    createServices(),
  );
  return location;
}

function Inbox() {
  return <UserNotificationsPane params={{}} search={useSearch()} capability="Notifications" />;
}

describe('the inbox by keyboard', () => {
  beforeEach(() => {
    resetStores();
    inboxFocus.reference = null;
    inboxFocus.page = '';
    signIn({ permissions: ['Portal.Notifications.Read'], paths: ['/notifications'] });
  });

  it('focuses the first row when it opens from the bell', async () => {
    fakeApi({ '/user/notifications': () => inbox({}) });
    render(<Inbox />, '/notifications');
    const first = await screen.findByRole('link', { name: 'New statement layout' });
    await waitFor(() => expect(document.activeElement).toBe(first));
  });

  it('offers u only where a pane declares it, and it marks the focused row, keeping focus on the row', async () => {
    expect(toggleNotificationReadCommand.shortcut).toBe('u');
    expect(
      isAvailable(
        toggleNotificationReadCommand,
        baseContext({ permissions: ['Portal.Notifications.Read'], focusedPane: { id: 'p', capabilities: ['toggleRead'] } }),
      ),
    ).toBe(true);
    expect(
      isAvailable(toggleNotificationReadCommand, baseContext({ permissions: ['Portal.Notifications.Read'], focusedPane: { id: 'p', capabilities: [] } })),
    ).toBe(false);
    let state: Record<string, boolean> = {};
    const api = fakeApi({ '/user/notifications': () => inbox(state) });
    (api.put as Mock).mockImplementation(async (path: string, body: { read: boolean }) => {
      const reference = path.split('/')[3] ?? '';
      state = { ...state, [reference]: !body.read };
      return undefined;
    });
    render(<Inbox />, '/notifications');
    const second = await screen.findByRole('link', { name: 'Scheduled maintenance' });
    await waitFor(() => expect(workspaceStore.panes[0]?.capabilities).toContain('toggleRead'));
    act(() => second.focus());
    act(() => sendPaneRequest('toggleRead'));
    const puts = () => (api.put as Mock).mock.calls.map((call) => call.slice(0, 2));
    await waitFor(() => expect(puts()).toEqual([['/user/notifications/NTF00001/read-state', { read: false }]]));
    await screen.findByRole('button', { name: 'Mark as read: Scheduled maintenance' });
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('link', { name: 'Scheduled maintenance' })));
    // The row's own button does the same, and focus comes back to the row, not the body.
    await userEvent.click(screen.getByRole('button', { name: 'Mark as read: Scheduled maintenance' }));
    await waitFor(() => expect(puts().at(-1)).toEqual(['/user/notifications/NTF00001/read-state', { read: true }]));
    await screen.findByRole('button', { name: 'Mark as unread: Scheduled maintenance' });
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('link', { name: 'Scheduled maintenance' })));
  });

  it('goes back from an open notification with Escape, to the inbox with its row focused', async () => {
    fakeApi({
      '/user/notifications/NTF00001': () => ({
        reference: 'NTF00001',
        title: 'Scheduled maintenance',
        content: JSON.stringify({ blocks: [{ type: 'paragraph', text: 'Sunday night.' }] }),
        publishedUtc: '2026-01-02T10:00:00.000Z',
        lastEditedUtc: '2026-01-02T10:00:00.000Z',
      }),
      '/user/notifications': () => inbox({}),
    });
    inboxFocus.page = '?pagenumber=1&pagesize=25';
    const location = render(<UserNotificationPane params={{ reference: 'NTF00001' }} search="" capability="Notification" />, '/notifications/NTF00001');
    const heading = await screen.findByRole('heading', { level: 1, name: 'Scheduled maintenance' });
    await waitFor(() => expect(document.activeElement).toBe(heading));
    await userEvent.keyboard('{Escape}');
    expect(location.history?.at(-1)).toBe('/notifications?pagenumber=1&pagesize=25');
    expect(inboxFocus.reference).toBe('NTF00001');
  });

  it('returns to the row last opened rather than the first', async () => {
    fakeApi({ '/user/notifications': () => inbox({}) });
    inboxFocus.reference = 'NTF00001';
    render(<Inbox />, '/notifications');
    const second = await screen.findByRole('link', { name: 'Scheduled maintenance' });
    await waitFor(() => expect(document.activeElement).toBe(second));
  });
});
