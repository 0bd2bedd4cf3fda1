import { ticketPriorities, type TicketPriority } from '../../src/contract/tickets.ts';
import type { Command } from '../command.ts';
import { changeTicket, onTicket } from './ticket-command.ts';

const label = (priority: TicketPriority) => (priority === 'Unknown' ? 'No priority' : priority);

export const setTicketPriorityCommands: readonly Command[] = ticketPriorities.map(
  (priority: TicketPriority): Command => ({
    id: `tickets.priority.${priority}`,
    title: `Set ticket priority: ${label(priority)}`,
    section: 'Record',
    keywords: ['ticket', 'priority', 'urgency', label(priority).toLowerCase()],
    permissions: ['Portal.Tickets.Create'],
    when: onTicket,
    run: (services) => changeTicket(services, () => ({ priority }), `Ticket priority set to ${label(priority)}.`),
  }),
);
