import type { Command } from '../command.ts';

/** Offered only while the focused pane's screen declares 'export'; the screen reacts to the request. */
export const exportCommand: Command = {
  id: 'table.export',
  title: 'Export…',
  section: 'Table',
  keywords: ['download', 'xlsx', 'csv', 'report'],
  shortcut: 'Shift+X',
  when: (ctx) => ctx.focusedPane?.capabilities.includes('export') === true,
  run: ({ state }) => state.paneRequest('export'),
};
