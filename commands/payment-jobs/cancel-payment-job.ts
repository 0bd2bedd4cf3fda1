import type { Command } from '../command.ts';

/** Cancels a job with nothing paid, permanently, after the confirmation tick. */
export const cancelPaymentJobCommand: Command = {
  id: 'paymentJob.cancelJob',
  title: 'Cancel payment job…',
  section: 'Record',
  keywords: ['cancel', 'payment job', 'order', 'stop'],
  shortcut: 'Shift+K',
  permissions: ['Portal.PaymentJobs.Cancel'],
  // Declared by the payment job detail only while the focused job allows it (the server checks again).
  when: (ctx) => ctx.focusedPane?.capabilities.includes('cancelJob') === true,
  run: ({ state }) => state.paneRequest('cancelJob'),
};
