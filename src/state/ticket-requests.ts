// What the ticket commands ask of the open ticket's screen (focus the composer, write an internal note, attach a
// file, load older comments, choose an assignee, edit one's last comment): a command sets the request, the screen showing that ticket
// reacts to it. Kept apart from the workspace's pane capabilities because only the ticket screen knows them.
import { proxy } from 'valtio';

export const ticketRequestKinds = ['reply', 'internalNote', 'attach', 'showOlder', 'assign', 'editLastComment'] as const;
export type TicketRequestKind = (typeof ticketRequestKinds)[number];

export type TicketRequest = { ticketId: string; kind: TicketRequestKind; seq: number };

export const ticketRequestStore = proxy({ request: null as TicketRequest | null });

let nextSeq = 1;

export function requestOfTicket(ticketId: string, kind: TicketRequestKind): void {
  ticketRequestStore.request = { ticketId, kind, seq: nextSeq++ };
}
