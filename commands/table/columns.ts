import type { Command } from '../command.ts';

/** Offered only while the focused pane's screen declares 'columns'; the screen reacts to the request. */
export const columnsCommand: Command = {
  id: 'table.columns',
  title: 'Choose columns',
  section: 'Table',
  keywords: ['columns', 'fields', 'sort'],
  shortcut: 'Shift+C',
  when: (ctx) => ctx.focusedPane?.capabilities.includes('columns') === true,
  run: ({ state }) => state.paneRequest('columns'),
};
