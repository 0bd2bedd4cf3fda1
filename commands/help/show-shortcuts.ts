import type { Command } from '../command.ts';

export const showShortcutsCommand: Command = {
  id: 'help.showShortcuts',
  title: 'Show keyboard shortcuts',
  section: 'Help',
  keywords: ['keyboard', 'keys', 'hotkeys', 'help', 'cheat sheet'],
  shortcut: '[Shift]+?',
  when: (ctx) => ctx.signedIn,
  run: ({ state }) => state.openOverlay('shortcutHelp'),
};
