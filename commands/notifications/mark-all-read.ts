import type { Command } from '../command.ts';

/**
 * 'Mark all as read' from anywhere: every notification the caller may read is marked read on the server (per user,
 * never per browser), and the bell, the inbox and any open notification refresh (their keys sit under
 * ['notifications']). The inbox's button does the same.
 */
export const markAllNotificationsReadCommand: Command = {
  id: 'notifications.markAllRead',
  title: 'Mark all notifications as read',
  section: 'Record',
  keywords: ['notifications', 'read', 'unread', 'bell', 'clear', 'inbox'],
  permissions: ['Portal.Notifications.Read'],
  when: (ctx) => ctx.signedIn,
  run: async ({ api, queryClient, state }) => {
    await api.put<unknown>('/user/notifications/read-state', { read: true });
    await queryClient.invalidateQueries({ queryKey: ['notifications'] });
    state.toast({ kind: 'success', message: 'All notifications are marked as read.' });
  },
};
