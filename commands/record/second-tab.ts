import type { Command } from '../command.ts';

export const secondTabCommand: Command = {
  id: 'record.secondTab',
  title: 'Show second tab',
  section: 'Record',
  keywords: ['tab', 'switch'],
  shortcut: 'Shift+Digit2',
  when: (ctx) => ctx.focusedPane?.capabilities.includes('tabs') === true,
  run: ({ state }) => state.paneRequest('tabs', 1),
};
