import { ticketStatuses, ticketStatusLabels, type TicketStatus } from '../../src/contract/tickets.ts';
import type { Command } from '../command.ts';
import { changeTicket, onTicket } from './ticket-command.ts';

/** One command per status; staff run the workflow (a requester closes their own ticket from the screen). */
export const setTicketStatusCommands: readonly Command[] = ticketStatuses.map(
  (status: TicketStatus): Command => ({
    id: `tickets.status.${status}`,
    title: `Set ticket status: ${ticketStatusLabels[status]}`,
    section: 'Record',
    keywords: [
      'ticket',
      'status',
      'workflow',
      ticketStatusLabels[status].toLowerCase(),
      ...(status === 'Closed' ? ['close', 'resolve'] : []),
      ...(status === 'Open' ? ['reopen'] : []),
    ],
    // The server needs the write permission and support staff (the read-only role reads, never writes).
    permissions: ['Portal.Tickets.Create', 'Portal.Tickets.Read.Internal'],
    when: onTicket,
    run: (services) => changeTicket(services, () => ({ status }), `Ticket status set to ${ticketStatusLabels[status]}.`),
  }),
);
