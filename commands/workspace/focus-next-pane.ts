import type { Command } from '../command.ts';

export const focusNextPaneCommand: Command = {
  id: 'workspace.focusNextPane',
  title: 'Focus next pane',
  section: 'Workspace',
  keywords: ['pane', 'right', 'switch', 'next'],
  shortcut: 'Control+BracketRight',
  when: (ctx) => ctx.paneCount > 1,
  run: ({ state }) => state.workspace.focusNext(1),
};
