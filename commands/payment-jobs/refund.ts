import type { Command } from '../command.ts';

/** Refunds all or part of a captured payment; the amount is pre-filled with what remains. */
export const refundPaymentCommand: Command = {
  id: 'paymentJob.refund',
  title: 'Refund…',
  section: 'Record',
  keywords: ['refund', 'return', 'money back', 'payment'],
  shortcut: 'Shift+R',
  permissions: ['Portal.Payments.Refund'],
  // Declared by the payment job detail only while the focused job allows it (the server checks again).
  when: (ctx) => ctx.focusedPane?.capabilities.includes('refund') === true,
  run: ({ state }) => state.paneRequest('refund'),
};
