import type { Command } from '../command.ts';

/** Offered only while the focused pane's screen declares 'filters'; the screen reacts to the request. */
export const filtersCommand: Command = {
  id: 'table.filters',
  title: 'Show filters',
  section: 'Table',
  keywords: ['filter', 'presets', 'narrow'],
  shortcut: 'Shift+F',
  when: (ctx) => ctx.focusedPane?.capabilities.includes('filters') === true,
  run: ({ state }) => state.paneRequest('filters'),
};
