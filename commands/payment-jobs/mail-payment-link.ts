import type { Command } from '../command.ts';

/** Emails the shopper a link to pay an open job. */
export const mailPaymentLinkCommand: Command = {
  id: 'paymentJob.mailPaymentLink',
  title: 'Mail payment link…',
  section: 'Record',
  keywords: ['email', 'send', 'payment link', 'pay by link'],
  shortcut: 'Shift+M',
  permissions: ['Portal.PaymentJobs.MailPaymentLink'],
  // Declared by the payment job detail only while the focused job allows it (the server checks again).
  when: (ctx) => ctx.focusedPane?.capabilities.includes('mailPaymentLink') === true,
  run: ({ state }) => state.paneRequest('mailPaymentLink'),
};
