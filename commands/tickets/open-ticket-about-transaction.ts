import { validate } from '../../src/api/validate.ts';
import type { Command } from '../command.ts';

/** From a transaction's detail: a new dispute ticket about it, in its own business and merchant, beside it. */
export const openTicketAboutTransactionCommand: Command = {
  id: 'tickets.openAboutTransaction',
  title: 'Open a ticket about this',
  section: 'Record',
  keywords: ['ticket', 'support', 'dispute', 'question', 'transaction', 'help'],
  permissions: ['Portal.Tickets.Create'],
  when: (ctx) => ctx.route?.id === 'transactionDetail',
  run: async ({ context, navigate, api }) => {
    const match = /^\/transactions\/([^/?#]+)/.exec(context().route?.path ?? '');
    if (!match?.[1]) return undefined;
    const transaction = await validate('transactionDetail', await api.get<unknown>(`/transactions/${match[1]}`));
    const query = new URLSearchParams({
      type: 'dispute',
      transaction: transaction.reference,
      business: transaction.businessId,
      merchant: transaction.merchantId,
    });
    return navigate(`/tickets/add?${query.toString()}`, { beside: true });
  },
};
