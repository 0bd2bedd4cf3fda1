import type { Command } from '../command.ts';

/** Offered only while the focused pane's screen declares 'edit'; the screen reacts to the request. */
export const editCommand: Command = {
  id: 'record.edit',
  title: 'Edit',
  section: 'Record',
  keywords: ['change', 'modify', 'update'],
  shortcut: 'Shift+E',
  when: (ctx) => ctx.focusedPane?.capabilities.includes('edit') === true,
  run: ({ state }) => state.paneRequest('edit'),
};
