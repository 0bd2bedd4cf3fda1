import { requestOfTicket } from '../../src/state/ticket-requests.ts';
import type { Command } from '../command.ts';
import { focusedTicketId, onTicket } from './ticket-command.ts';

/** Focuses the composer for a reply the requester sees (Ctrl+Enter then sends it). */
export const replyToTicketCommand: Command = {
  id: 'tickets.reply',
  title: 'Reply to ticket',
  section: 'Record',
  keywords: ['ticket', 'reply', 'comment', 'answer', 'write'],
  shortcut: 'r',
  permissions: ['Portal.Tickets.Create'],
  when: onTicket,
  run: (services) => {
    const ticketId = focusedTicketId(services.context());
    if (ticketId) requestOfTicket(ticketId, 'reply');
  },
};
