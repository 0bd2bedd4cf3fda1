import type { Command } from '../command.ts';

/** 'Export this customer's data': offered while a customer is focused; the screen downloads the JSON file. */
export const exportCustomerDataCommand: Command = {
  id: 'customer.exportData',
  title: "Export this customer's data",
  section: 'Record',
  keywords: ['customer', 'export', 'gdpr', 'data subject request', 'json', 'download'],
  shortcut: 'Shift+S',
  permissions: ['Mapi.Customers.Read'],
  when: (ctx) => ctx.focusedPane?.capabilities.includes('exportRecord') === true && !ctx.fieldFocused && !ctx.overlayOpen,
  run: ({ state }) => state.paneRequest('exportRecord'),
};
