import type { Command } from '../command.ts';

export const firstTabCommand: Command = {
  id: 'record.firstTab',
  title: 'Show first tab',
  section: 'Record',
  keywords: ['tab', 'switch'],
  shortcut: 'Shift+Digit1',
  when: (ctx) => ctx.focusedPane?.capabilities.includes('tabs') === true,
  run: ({ state }) => state.paneRequest('tabs', 0),
};
