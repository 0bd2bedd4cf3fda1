import type { Command } from '../command.ts';

/** Captures an authorised payment (all or part of it). */
export const capturePaymentCommand: Command = {
  id: 'paymentJob.capture',
  title: 'Capture…',
  section: 'Record',
  keywords: ['capture', 'settle', 'authorisation', 'payment'],
  shortcut: 'Shift+P',
  permissions: ['Portal.Payments.Capture'],
  // Declared by the payment job detail only while the focused job allows it (the server checks again).
  when: (ctx) => ctx.focusedPane?.capabilities.includes('capture') === true,
  run: ({ state }) => state.paneRequest('capture'),
};
