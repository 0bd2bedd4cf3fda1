import type { Command } from '../command.ts';

export const focusSearchCommand: Command = {
  id: 'help.focusSearch',
  title: 'Focus search',
  section: 'Help',
  keywords: ['find', 'filter', 'search box'],
  shortcut: '/',
  when: (ctx) => ctx.focusedPane?.capabilities.includes('search') === true,
  run: ({ state }) => state.paneRequest('search'),
};
