import type { Command } from '../command.ts';

export const narrowPaneCommand: Command = {
  id: 'workspace.narrowPane',
  title: 'Narrow pane by 10%',
  section: 'Workspace',
  keywords: ['pane', 'resize', 'shrink', 'smaller', 'width'],
  shortcut: 'Alt+Shift+ArrowLeft',
  when: (ctx) => ctx.paneCount > 1,
  run: ({ state }) => state.workspace.resize(-10),
};
