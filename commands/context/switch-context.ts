import type { Command } from '../command.ts';

/** Opens the context selection panel as a dialog over the current screen. */
export const switchContextCommand: Command = {
  id: 'context.switch',
  title: 'Switch context…',
  section: 'Context',
  keywords: ['business', 'merchant', 'configuration', 'partner', 'change', 'select', 'context', 'recent', 'favourite', 'favorite'],
  when: (ctx) => ctx.signedIn,
  run: ({ state }) => state.openOverlay('contextSwitcher'),
};
