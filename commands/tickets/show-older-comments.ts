import { requestOfTicket } from '../../src/state/ticket-requests.ts';
import type { Command } from '../command.ts';
import { focusedTicketId, onTicket } from './ticket-command.ts';

export const showOlderCommentsCommand: Command = {
  id: 'tickets.showOlderComments',
  title: 'Show older comments',
  section: 'Record',
  keywords: ['ticket', 'comments', 'history', 'earlier', 'more'],
  shortcut: 'Shift+O',
  permissions: ['Portal.Tickets.Read'],
  when: onTicket,
  run: (services) => {
    const ticketId = focusedTicketId(services.context());
    if (ticketId) requestOfTicket(ticketId, 'showOlder');
  },
};
