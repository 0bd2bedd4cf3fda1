// `]` / `[` turn the focused pane's page where no pane command claims the keys (the dashboard's periods do). With the
// first load's commands (all-commands.ts), not the areas': a list's keys work from its first moment, as j past the
// last row does (the browser journey pressed `]` before the areas' commands had arrived, and nothing happened).
import { pagerOf, turnPage } from '../../src/state/pager.ts';
import type { Command, CommandContext } from '../command.ts';

const free = (ctx: CommandContext) => !ctx.fieldFocused && !ctx.controlFocused && !ctx.overlayOpen;
const paged = (ctx: CommandContext) => free(ctx) && pagerOf(ctx.focusedPane?.id) !== undefined && ctx.route?.id !== 'dashboard';

export const nextPageCommand: Command = {
  id: 'table.nextPage',
  title: 'Next page',
  section: 'Table',
  keywords: ['page', 'next', 'forward', 'more'],
  shortcut: 'BracketRight',
  when: paged,
  run: ({ context }) => {
    turnPage(context().focusedPane?.id, 1);
  },
};

export const previousPageCommand: Command = {
  id: 'table.previousPage',
  title: 'Previous page',
  section: 'Table',
  keywords: ['page', 'previous', 'back'],
  shortcut: 'BracketLeft',
  when: paged,
  run: ({ context }) => {
    turnPage(context().focusedPane?.id, -1);
  },
};
