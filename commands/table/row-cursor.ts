// The row cursor of a table pane: j and k move it (the table also takes ↑ ↓ Home End while it has focus), Enter
// opens the row, Shift+Enter opens it in a new pane beside. Offered while the focused pane shows rows and no
// field or control holds the keyboard (read when the key is pressed: Enter on a focused button stays the
// button's).
import type { PaneCapability } from '../../src/state/workspace-store.ts';
import { rowRequests, tableRowsCapability } from '../../src/contract/table-rows.ts';
import type { Command, CommandContext } from '../command.ts';

const rows: PaneCapability = tableRowsCapability;

export const rowsAvailable = (ctx: CommandContext) =>
  (ctx.focusedPane?.capabilities ?? []).includes(rows) && !ctx.fieldFocused && !ctx.controlFocused && !ctx.overlayOpen;

/** j / k also from the list's filter bar (its buttons): the cursor moves, and focus with it, as in Linear. */
const cursorMovable = (ctx: CommandContext) =>
  rowsAvailable(ctx) || (ctx.filterBarFocused === true && !ctx.fieldFocused && !ctx.overlayOpen && (ctx.focusedPane?.capabilities ?? []).includes(rows));

export const nextRowCommand: Command = {
  id: 'table.nextRow',
  title: 'Next row',
  section: 'Table',
  keywords: ['down', 'cursor', 'move', 'row'],
  shortcut: 'j',
  when: cursorMovable,
  run: ({ state }) => state.paneRequest(rows, rowRequests.next),
};

export const previousRowCommand: Command = {
  id: 'table.previousRow',
  title: 'Previous row',
  section: 'Table',
  keywords: ['up', 'cursor', 'move', 'row'],
  shortcut: 'k',
  when: cursorMovable,
  run: ({ state }) => state.paneRequest(rows, rowRequests.previous),
};

export const openRowCommand: Command = {
  id: 'table.openRow',
  title: 'Open the highlighted row',
  section: 'Table',
  keywords: ['open', 'detail', 'row', 'enter'],
  shortcut: 'Enter',
  when: rowsAvailable,
  run: ({ state }) => state.paneRequest(rows, rowRequests.open),
};

export const openRowBesideCommand: Command = {
  id: 'table.openBeside',
  title: 'Open the highlighted row in a new pane beside',
  section: 'Table',
  keywords: ['open', 'beside', 'split', 'side by side', 'pane', 'row'],
  shortcut: 'Shift+Enter',
  when: (ctx) => rowsAvailable(ctx) && ctx.paneCount < ctx.maxPanes,
  run: ({ state }) => state.paneRequest(rows, rowRequests.openBeside),
};

export const rowCursorCommands: readonly Command[] = [nextRowCommand, previousRowCommand, openRowCommand, openRowBesideCommand];
