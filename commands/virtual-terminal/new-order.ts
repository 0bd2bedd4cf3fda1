import type { Command } from '../command.ts';

/** Starts a new order in the focused virtual terminal, keeping the customer (the result panel offers clearing it). */
export const newOrderCommand: Command = {
  id: 'virtualTerminal.newOrder',
  title: 'New order (same customer)',
  section: 'Record',
  keywords: ['virtual terminal', 'new order', 'next', 'clear', 'same customer', 'again'],
  // Alt, not Shift: Shift+N adds an order line; from the result panel (where a charge leaves the focus) one chord.
  shortcut: 'Alt+KeyN',
  permissions: ['Portal.Moto.Create'],
  when: (ctx) => ctx.focusedPane?.capabilities.includes('newOrder') === true,
  run: ({ state }) => state.paneRequest('newOrder'),
};

/** Starts a new order with the customer cleared (the next caller), as the result panel's 'New order, new customer'. */
export const newOrderNewCustomerCommand: Command = {
  id: 'virtualTerminal.newOrderNewCustomer',
  title: 'New order (new customer)',
  section: 'Record',
  keywords: ['virtual terminal', 'new order', 'next caller', 'clear customer', 'reset'],
  permissions: ['Portal.Moto.Create'],
  when: (ctx) => ctx.focusedPane?.capabilities.includes('newOrder') === true,
  // 1 = newCustomerOrder of the virtual terminal pane (a command may not import a pane).
  run: ({ state }) => state.paneRequest('newOrder', 1),
};
