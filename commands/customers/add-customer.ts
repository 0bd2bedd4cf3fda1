import type { Command } from '../command.ts';

/** On a merchant's customers, to those who may change customers (Shift+N is the generic New item the screen answers). */
export const addCustomerCommand: Command = {
  id: 'customer.add',
  title: 'Add a customer',
  section: 'Record',
  keywords: ['customer', 'new', 'create', 'shopper', 'store'],
  permissions: ['Mapi.Customers.Update'],
  when: (ctx) => ctx.route?.id === 'customers' && ctx.focusedPane?.capabilities.includes('newItem') === true && !ctx.overlayOpen,
  run: ({ state }) => state.paneRequest('newItem'),
};
