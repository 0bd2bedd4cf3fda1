import { requestOfTicket } from '../../src/state/ticket-requests.ts';
import type { Command } from '../command.ts';
import { focusedTicketId, onTicket } from './ticket-command.ts';

/** Opens the file picker of the ticket's composer (the keyboard way to attach; dropping files also works). */
export const attachFileToTicketCommand: Command = {
  id: 'tickets.attach',
  title: 'Attach files to ticket…',
  section: 'Record',
  keywords: ['ticket', 'attach', 'file', 'upload', 'screenshot', 'pdf'],
  shortcut: 'Shift+A',
  permissions: ['Portal.Tickets.Create'],
  when: onTicket,
  run: (services) => {
    const ticketId = focusedTicketId(services.context());
    if (ticketId) requestOfTicket(ticketId, 'attach');
  },
};
