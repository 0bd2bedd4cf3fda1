import type { Command } from '../command.ts';

/** Opens the payment job the last order made, beside the virtual terminal. */
export const openOrderResultCommand: Command = {
  id: 'virtualTerminal.openOrderResult',
  title: 'Open the order’s payment job beside',
  section: 'Record',
  keywords: ['virtual terminal', 'payment job', 'result', 'open', 'beside'],
  permissions: ['Portal.PaymentJobs.Read'],
  when: (ctx) => ctx.focusedPane?.capabilities.includes('openOrderResult') === true,
  run: ({ state }) => state.paneRequest('openOrderResult'),
};
