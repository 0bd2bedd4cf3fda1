import type { Command } from '../command.ts';

/** Offered only while the focused pane's screen declares 'date'; the screen reacts to the request. */
export const dateFilterCommand: Command = {
  id: 'table.dateFilter',
  title: 'Choose dates',
  section: 'Table',
  keywords: ['date', 'period', 'range', 'interval'],
  shortcut: 'Shift+D',
  when: (ctx) => ctx.focusedPane?.capabilities.includes('date') === true,
  run: ({ state }) => state.paneRequest('date'),
};
