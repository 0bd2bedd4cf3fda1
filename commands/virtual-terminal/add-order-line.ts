import type { Command } from '../command.ts';

/** Adds an order line to the focused virtual terminal order (Shift+N is the generic 'New item' the form answers too). */
export const addOrderLineCommand: Command = {
  id: 'virtualTerminal.addOrderLine',
  title: 'Add order line',
  section: 'Record',
  keywords: ['virtual terminal', 'line', 'item', 'add', 'discount', 'shipping'],
  permissions: ['Portal.Moto.Create'],
  when: (ctx) => ctx.focusedPane?.capabilities.includes('submitOrder') === true,
  run: ({ state }) => state.paneRequest('newItem'),
};
