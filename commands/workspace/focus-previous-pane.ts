import type { Command } from '../command.ts';

export const focusPreviousPaneCommand: Command = {
  id: 'workspace.focusPreviousPane',
  title: 'Focus previous pane',
  section: 'Workspace',
  keywords: ['pane', 'left', 'switch', 'previous'],
  shortcut: 'Control+BracketLeft',
  when: (ctx) => ctx.paneCount > 1,
  run: ({ state }) => state.workspace.focusNext(-1),
};
