import { requestOfTicket } from '../../src/state/ticket-requests.ts';
import type { Command } from '../command.ts';
import { focusedTicketId, onTicket } from './ticket-command.ts';

/** Moves focus to the ticket's assignee picker. */
export const chooseTicketAssigneeCommand: Command = {
  id: 'tickets.chooseAssignee',
  title: 'Change ticket assignee…',
  section: 'Record',
  keywords: ['ticket', 'assign', 'assignee', 'hand over', 'owner'],
  // The server needs the write permission and support staff (the read-only role reads, never writes).
  permissions: ['Portal.Tickets.Create', 'Portal.Tickets.Read.Internal'],
  when: onTicket,
  run: (services) => {
    const ticketId = focusedTicketId(services.context());
    if (ticketId) requestOfTicket(ticketId, 'assign');
  },
};
