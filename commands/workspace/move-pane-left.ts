import type { Command } from '../command.ts';

export const movePaneLeftCommand: Command = {
  id: 'workspace.movePaneLeft',
  title: 'Move pane left',
  section: 'Workspace',
  keywords: ['pane', 'reorder', 'swap'],
  shortcut: 'Control+Shift+BracketLeft',
  when: (ctx) => ctx.paneCount > 1 && ctx.focusedIndex > 0,
  run: ({ state }) => state.workspace.move(-1),
};
