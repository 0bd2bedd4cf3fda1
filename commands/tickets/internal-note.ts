import { requestOfTicket } from '../../src/state/ticket-requests.ts';
import type { Command } from '../command.ts';
import { focusedTicketId, onTicket } from './ticket-command.ts';

/** Focuses the composer in internal-note mode: only support staff will see the note. */
export const internalNoteCommand: Command = {
  id: 'tickets.internalNote',
  title: 'Add internal note to ticket',
  section: 'Record',
  keywords: ['ticket', 'internal', 'note', 'private', 'staff'],
  shortcut: 'Shift+R',
  permissions: ['Portal.Tickets.Create', 'Portal.Tickets.Read.Internal'],
  when: onTicket,
  run: (services) => {
    const ticketId = focusedTicketId(services.context());
    if (ticketId) requestOfTicket(ticketId, 'internalNote');
  },
};
