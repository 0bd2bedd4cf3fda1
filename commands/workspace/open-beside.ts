import type { Command } from '../command.ts';

/** Opens the focused view again in a new pane to its right (then navigate either one). */
export const openBesideCommand: Command = {
  id: 'workspace.openBeside',
  title: 'Open this view in a new pane beside',
  section: 'Workspace',
  keywords: ['split', 'pane', 'side by side', 'duplicate', 'new pane'],
  shortcut: '$mod+Backslash',
  when: (ctx) => ctx.signedIn && ctx.route !== null && ctx.paneCount < ctx.maxPanes,
  run: ({ context, state }) => {
    const route = context().route;
    if (route) state.workspace.openBeside(route.path);
  },
};
