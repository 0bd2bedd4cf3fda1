import type { Command } from '../command.ts';

/** Offered only while the focused pane's screen declares 'delete'; the screen asks for confirmation first. */
export const deleteCommand: Command = {
  id: 'record.delete',
  title: 'Delete this record',
  section: 'Record',
  keywords: ['delete', 'remove', 'discard'],
  when: (ctx) => ctx.focusedPane?.capabilities.includes('delete') === true,
  run: ({ state }) => state.paneRequest('delete'),
};
