import type { Command } from '../command.ts';

/** Offered while a customer is focused to those who may change customers; the screen asks for confirmation first. */
export const eraseCustomerCommand: Command = {
  id: 'customer.erase',
  title: 'Erase this customer and all their data',
  section: 'Record',
  keywords: ['customer', 'delete', 'erase', 'gdpr', 'right to be forgotten'],
  shortcut: 'Shift+Backspace',
  permissions: ['Mapi.Customers.Update'],
  when: (ctx) => ctx.focusedPane?.capabilities.includes('eraseRecord') === true && !ctx.fieldFocused && !ctx.overlayOpen,
  run: ({ state }) => state.paneRequest('eraseRecord'),
};
