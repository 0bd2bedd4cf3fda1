import type { Command } from '../command.ts';

/** Offered only while the focused pane's screen declares 'save' (a record form with changes); the screen saves. */
export const saveCommand: Command = {
  id: 'record.save',
  title: 'Save changes',
  section: 'Record',
  keywords: ['save', 'store', 'apply', 'submit'],
  shortcut: '$mod+s',
  when: (ctx) => ctx.focusedPane?.capabilities.includes('save') === true,
  run: ({ state }) => state.paneRequest('save'),
};
