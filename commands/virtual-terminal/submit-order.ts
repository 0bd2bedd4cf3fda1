import type { Command } from '../command.ts';

/** Charges the order in the focused virtual terminal (the form's own Ctrl+Enter does the same). */
export const submitOrderCommand: Command = {
  id: 'virtualTerminal.submitOrder',
  title: 'Charge order',
  section: 'Record',
  keywords: ['virtual terminal', 'moto', 'charge', 'submit', 'pay', 'order'],
  permissions: ['Portal.Moto.Create'],
  when: (ctx) => ctx.focusedPane?.capabilities.includes('submitOrder') === true,
  run: ({ state }) => state.paneRequest('submitOrder'),
};
