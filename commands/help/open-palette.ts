import type { Command } from '../command.ts';

export const openPaletteCommand: Command = {
  id: 'help.openPalette',
  title: 'Open command palette',
  section: 'Help',
  keywords: ['search', 'command', 'run', 'find', 'go to'],
  shortcut: '$mod+k',
  when: (ctx) => ctx.signedIn,
  run: ({ state }) => state.openOverlay('palette'),
};
