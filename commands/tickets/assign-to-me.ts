import { sessionStore } from '../../src/state/session-store.ts';
import type { Command } from '../command.ts';
import { changeTicket, onTicket } from './ticket-command.ts';

/** The assignee is the signed-in staff member (the server checks they are support staff). */
export const assignTicketToMeCommand: Command = {
  id: 'tickets.assignToMe',
  title: 'Assign ticket to me',
  section: 'Record',
  keywords: ['ticket', 'assign', 'assignee', 'take', 'mine'],
  // The server needs the write permission and support staff (the read-only role reads, never writes).
  permissions: ['Portal.Tickets.Create', 'Portal.Tickets.Read.Internal'],
  when: onTicket,
  run: async (services) => {
    const userId = sessionStore.userInfo?.sub;
    if (!userId) return;
    await changeTicket(services, () => ({ assigneeId: userId }), 'Ticket assigned to you.');
  },
};
