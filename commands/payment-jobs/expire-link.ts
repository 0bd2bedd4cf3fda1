import type { Command } from '../command.ts';

/** Expires an open job's payment link at once, after asking (a link sent to the wrong address). */
export const expirePaymentLinkCommand: Command = {
  id: 'paymentJob.expireLink',
  title: 'Expire payment link now…',
  section: 'Record',
  keywords: ['expire', 'payment link', 'link', 'revoke', 'invalidate', 'stop'],
  permissions: ['Portal.PaymentJobs.Cancel'],
  // Declared by the payment job detail only while the focused job has an open link (the server checks again).
  when: (ctx) => ctx.focusedPane?.capabilities.includes('expireLink') === true,
  run: ({ state }) => state.paneRequest('expireLink'),
};
