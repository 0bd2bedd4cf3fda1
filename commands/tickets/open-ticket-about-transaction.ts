import type { Command } from '../command.ts';

/** From a transaction's detail: a new dispute ticket about it, beside the transaction. */
export const openTicketAboutTransactionCommand: Command = {
  id: 'tickets.openAboutTransaction',
  title: 'Open a ticket about this',
  section: 'Record',
  keywords: ['ticket', 'support', 'dispute', 'question', 'transaction', 'help'],
  permissions: ['Portal.Tickets.Create'],
  when: (ctx) => ctx.route?.id === 'transactionDetail' && ctx.context.businessId !== null,
  run: ({ context, navigate }) => {
    const match = /^\/transactions\/([^/?#]+)/.exec(context().route?.path ?? '');
    if (!match?.[1]) return undefined;
    return navigate(`/tickets/add?type=dispute&transaction=${match[1]}`, { beside: true });
  },
};
