import type { Command } from '../command.ts';

/** Starts a new order in the focused virtual terminal, keeping the customer (the result panel offers clearing it). */
export const newOrderCommand: Command = {
  id: 'virtualTerminal.newOrder',
  title: 'New order (same customer)',
  section: 'Record',
  keywords: ['virtual terminal', 'new order', 'next', 'clear'],
  permissions: ['Portal.Moto.Create'],
  when: (ctx) => ctx.focusedPane?.capabilities.includes('newOrder') === true,
  run: ({ state }) => state.paneRequest('newOrder'),
};
