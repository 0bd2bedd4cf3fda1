import { requestOfTicket } from '../../src/state/ticket-requests.ts';
import type { Command } from '../command.ts';
import { focusedTicketId, onTicket } from './ticket-command.ts';

/** Opens the user's own latest comment on the ticket for editing (Ctrl+Enter saves, Escape cancels). */
export const editLastCommentCommand: Command = {
  id: 'tickets.editLastComment',
  title: 'Edit my last comment',
  section: 'Record',
  keywords: ['ticket', 'comment', 'edit', 'correct', 'fix', 'typo'],
  permissions: ['Portal.Tickets.Create'],
  when: onTicket,
  run: (services) => {
    const ticketId = focusedTicketId(services.context());
    if (ticketId) requestOfTicket(ticketId, 'editLastComment');
  },
};
