import type { Command } from '../command.ts';

/** Removes the order line holding focus (else the last one); offered while the order has more than one line. */
export const removeOrderLineCommand: Command = {
  id: 'virtualTerminal.removeOrderLine',
  title: 'Remove order line',
  section: 'Record',
  keywords: ['virtual terminal', 'line', 'remove', 'delete'],
  permissions: ['Portal.Moto.Create'],
  when: (ctx) => ctx.focusedPane?.capabilities.includes('removeOrderLine') === true,
  run: ({ state }) => state.paneRequest('removeOrderLine'),
};
