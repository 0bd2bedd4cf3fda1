import type { Command } from '../command.ts';

/** Offered while a watch list entry not yet escalated is focused; the screen opens its 'Escalate to a ticket' dialog. */
export const escalateWatchEntryCommand: Command = {
  id: 'watchList.escalate',
  title: 'Escalate this watch list entry to a ticket',
  section: 'Record',
  keywords: ['watch list', 'risk', 'escalate', 'ticket', 'support', 'merchant'],
  shortcut: 'Shift+U',
  permissions: ['Mapi.AccountWatchList.Update'],
  when: (ctx) => ctx.focusedPane?.capabilities.includes('escalate') === true && !ctx.fieldFocused && !ctx.overlayOpen,
  run: ({ state }) => state.paneRequest('escalate'),
};
