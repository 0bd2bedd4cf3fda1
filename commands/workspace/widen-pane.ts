import type { Command } from '../command.ts';

export const widenPaneCommand: Command = {
  id: 'workspace.widenPane',
  title: 'Widen pane by 10%',
  section: 'Workspace',
  keywords: ['pane', 'resize', 'grow', 'bigger', 'width'],
  shortcut: 'Alt+Shift+ArrowRight',
  when: (ctx) => ctx.paneCount > 1,
  run: ({ state }) => state.workspace.resize(10),
};
