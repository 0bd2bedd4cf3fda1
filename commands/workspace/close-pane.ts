import type { Command } from '../command.ts';

export const closePaneCommand: Command = {
  id: 'workspace.closePane',
  title: 'Close pane',
  section: 'Workspace',
  keywords: ['pane', 'close', 'remove', 'split'],
  shortcut: 'Alt+KeyW',
  when: (ctx) => ctx.paneCount > 1,
  run: ({ state }) => state.workspace.closePane(),
};
