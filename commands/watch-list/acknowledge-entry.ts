import type { Command } from '../command.ts';

/** Offered while a watch list entry that is not yet acknowledged is focused, to those who may act on the list. */
export const acknowledgeWatchEntryCommand: Command = {
  id: 'watchList.acknowledge',
  title: 'Acknowledge this watch list entry',
  section: 'Record',
  keywords: ['watch list', 'risk', 'acknowledge', 'reviewed'],
  shortcut: 'Shift+A',
  permissions: ['Mapi.AccountWatchList.Update'],
  when: (ctx) => ctx.focusedPane?.capabilities.includes('acknowledge') === true && !ctx.fieldFocused && !ctx.overlayOpen,
  run: ({ state }) => state.paneRequest('acknowledge'),
};
