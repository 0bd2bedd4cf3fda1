import type { Command } from '../command.ts';

/** Offered while a watch list entry not yet on monitoring is focused. */
export const monitorMerchantCommand: Command = {
  id: 'watchList.monitor',
  title: 'Put this merchant on monitoring',
  section: 'Record',
  keywords: ['watch list', 'risk', 'monitor', 'monitoring'],
  shortcut: 'Shift+W',
  permissions: ['Mapi.AccountWatchList.Update'],
  when: (ctx) => ctx.focusedPane?.capabilities.includes('monitor') === true && !ctx.fieldFocused && !ctx.overlayOpen,
  run: ({ state }) => state.paneRequest('monitor'),
};
