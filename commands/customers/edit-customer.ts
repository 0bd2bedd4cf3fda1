import type { Command } from '../command.ts';

/** On a customer, to those who may change customers (Shift+E is the generic Edit the screen answers). */
export const editCustomerCommand: Command = {
  id: 'customer.edit',
  title: 'Edit this customer',
  section: 'Record',
  keywords: ['customer', 'change', 'address', 'email', 'phone', 'name'],
  permissions: ['Mapi.Customers.Update'],
  when: (ctx) => ctx.route?.id === 'customerDetail' && ctx.focusedPane?.capabilities.includes('edit') === true && !ctx.overlayOpen,
  run: ({ state }) => state.paneRequest('edit'),
};
