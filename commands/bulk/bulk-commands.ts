// Selection and bulk actions of an overview table: offered while the focused pane's table takes a
// selection (it declares the capabilities); x and Shift+x are the table's own keys while it has focus.
import type { Command } from '../command.ts';
import { bulkActionIndex } from '../../src/contract/bulk-jobs.ts';

const declares = (capability: string) => (ctx: Parameters<NonNullable<Command['when']>>[0]) =>
  ctx.focusedPane?.capabilities.includes(capability as never) === true;

export const toggleRowSelectionCommand: Command = {
  id: 'table.selectRow',
  title: 'Select or unselect the row',
  section: 'Table',
  keywords: ['select', 'check', 'x', 'bulk'],
  when: declares('selectRow'),
  run: ({ state }) => state.paneRequest('selectRow', 0),
};
export const selectRangeCommand: Command = {
  id: 'table.selectRange',
  title: 'Select rows up to the cursor',
  section: 'Table',
  keywords: ['select', 'range', 'shift', 'bulk'],
  when: declares('selectRow'),
  run: ({ state }) => state.paneRequest('selectRow', 1),
};
export const selectAllMatchingCommand: Command = {
  id: 'table.selectAllMatching',
  title: 'Select all matching',
  section: 'Table',
  keywords: ['select all', 'every', 'bulk', 'filter'],
  when: declares('selectAllMatching'),
  run: ({ state }) => state.paneRequest('selectAllMatching'),
};
export const clearSelectionCommand: Command = {
  id: 'table.clearSelection',
  title: 'Clear selection',
  section: 'Table',
  keywords: ['unselect', 'deselect', 'none'],
  when: declares('clearSelection'),
  run: ({ state }) => state.paneRequest('clearSelection'),
};

const bulk = (id: string, title: string, keywords: string[], index: number): Command => ({
  id: `bulk.${id}`,
  title,
  section: 'Table',
  keywords: ['bulk', 'selected', ...keywords],
  when: declares('bulkAction'),
  run: ({ state }) => state.paneRequest('bulkAction', index),
});

export const bulkCommands: readonly Command[] = [
  toggleRowSelectionCommand,
  selectRangeCommand,
  selectAllMatchingCommand,
  clearSelectionCommand,
  bulk('export', 'Export selected…', ['export', 'csv', 'xlsx', 'download'], bulkActionIndex.export),
  bulk('cancel', 'Cancel selected payment jobs…', ['cancel', 'payment jobs'], bulkActionIndex.cancel),
  bulk('resendLinks', 'Resend payment links to selected…', ['mail', 'payment link', 'resend'], bulkActionIndex['resend-links']),
  bulk('status', 'Change status of selected…', ['status', 'tickets'], bulkActionIndex.status),
  bulk('assignee', 'Change assignee of selected…', ['assignee', 'assign', 'tickets'], bulkActionIndex.assignee),
  bulk('lock', 'Lock selected users…', ['lock', 'users', 'block'], bulkActionIndex.lock),
];
