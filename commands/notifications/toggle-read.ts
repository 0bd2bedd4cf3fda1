import type { Command } from '../command.ts';

/**
 * 'Mark as read' or 'Mark as unread' for one notification: the inbox's focused row, or the notification open. The
 * screen decides which (it knows the row's state) and keeps focus on the row.
 */
export const toggleNotificationReadCommand: Command = {
  id: 'notifications.toggleRead',
  title: 'Mark this notification as read or unread',
  section: 'Record',
  keywords: ['notifications', 'read', 'unread', 'inbox', 'bell', 'mark'],
  shortcut: 'u',
  permissions: ['Portal.Notifications.Read'],
  when: (ctx) => ctx.focusedPane?.capabilities.includes('toggleRead') === true && !ctx.fieldFocused && !ctx.overlayOpen,
  run: ({ state }) => state.paneRequest('toggleRead'),
};
