import type { Command } from '../command.ts';

export const movePaneRightCommand: Command = {
  id: 'workspace.movePaneRight',
  title: 'Move pane right',
  section: 'Workspace',
  keywords: ['pane', 'reorder', 'swap'],
  shortcut: 'Control+Shift+BracketRight',
  when: (ctx) => ctx.paneCount > 1 && ctx.focusedIndex < ctx.paneCount - 1,
  run: ({ state }) => state.workspace.move(1),
};
