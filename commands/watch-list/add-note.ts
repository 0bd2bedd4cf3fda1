import type { Command } from '../command.ts';

/** Offered while a watch list entry is focused; the screen opens its note dialog. */
export const addWatchNoteCommand: Command = {
  id: 'watchList.addNote',
  title: 'Add a note to this watch list entry',
  section: 'Record',
  keywords: ['watch list', 'risk', 'note', 'comment'],
  shortcut: 'Shift+O',
  permissions: ['Mapi.AccountWatchList.Update'],
  when: (ctx) => ctx.focusedPane?.capabilities.includes('addNote') === true && !ctx.fieldFocused && !ctx.overlayOpen,
  run: ({ state }) => state.paneRequest('addNote'),
};
