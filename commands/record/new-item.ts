import type { Command } from '../command.ts';

/** Offered only while the focused pane's screen declares 'newItem'; the screen reacts to the request. */
export const newItemCommand: Command = {
  id: 'record.newItem',
  title: 'New item',
  section: 'Record',
  keywords: ['add', 'create', 'new'],
  shortcut: 'Shift+N',
  when: (ctx) => ctx.focusedPane?.capabilities.includes('newItem') === true,
  run: ({ state }) => state.paneRequest('newItem'),
};
