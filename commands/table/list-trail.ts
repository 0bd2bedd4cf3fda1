// Lists beyond the row cursor: on a record opened from a list Esc goes back to the list (its cursor and
// focus on that record's row) while j / k open the list's next and previous records. Registered with the areas'
// commands (after the first screen), so the shell's first load does not grow. `]` / `[` are in page-keys.ts.
import { listTrailOf, stepListTrail } from '../../src/state/pager.ts';
import { tableRowsCapability } from '../../src/contract/table-rows.ts';
import type { Command, CommandContext } from '../command.ts';

const free = (ctx: CommandContext) => !ctx.fieldFocused && !ctx.controlFocused && !ctx.overlayOpen;
const trail = (ctx: CommandContext) => listTrailOf(ctx.focusedPane?.id, ctx.route?.path);
/** j / k belong to the row cursor where the record itself shows a list. */
const onRecord = (ctx: CommandContext) => free(ctx) && trail(ctx) !== undefined && !(ctx.focusedPane?.capabilities ?? []).includes(tableRowsCapability);

export const backToListCommand: Command = {
  id: 'table.backToList',
  title: 'Back to the list',
  section: 'Table',
  keywords: ['back', 'list', 'overview', 'escape', 'return'],
  shortcut: 'Escape',
  when: (ctx) => !ctx.overlayOpen && !ctx.fieldFocused && trail(ctx) !== undefined,
  run: ({ context, navigate }) => {
    const found = trail(context());
    if (found) return navigate(found.listPath);
    return undefined;
  },
};

export const nextRecordCommand: Command = {
  id: 'table.nextRecord',
  title: 'Next record of the list',
  section: 'Table',
  keywords: ['next', 'record', 'down', 'list'],
  shortcut: 'j',
  when: onRecord,
  run: ({ context }) => {
    const found = trail(context());
    if (found) stepListTrail(found, 1);
  },
};

export const previousRecordCommand: Command = {
  id: 'table.previousRecord',
  title: 'Previous record of the list',
  section: 'Table',
  keywords: ['previous', 'record', 'up', 'list'],
  shortcut: 'k',
  when: onRecord,
  run: ({ context }) => {
    const found = trail(context());
    if (found) stepListTrail(found, -1);
  },
};

export const listTrailCommands: readonly Command[] = [backToListCommand, nextRecordCommand, previousRecordCommand];
