// What every ticket command shares: it is offered while the focused pane shows one ticket, and acts on that ticket
// (through the API, re-reading its version first) or asks the ticket's screen to do something (the composer).
import { validate } from '../../src/api/validate.ts';
import type { TicketDetail, TicketUpdateBody } from '../../src/contract/ticket-schemas.ts';
import type { CommandContext, CommandServices } from '../command.ts';

/** The id of the ticket the focused pane shows, or null. */
export function focusedTicketId(ctx: CommandContext): string | null {
  if (ctx.route?.id !== 'ticketDetail') return null;
  const match = /^\/tickets\/([^/?#]+)/.exec(ctx.route.path);
  if (!match?.[1]) return null;
  try {
    return decodeURIComponent(match[1]);
  } catch {
    return null;
  }
}

export const onTicket = (ctx: CommandContext) => focusedTicketId(ctx) !== null;

const ticketPath = (ticketId: string) => `/tickets/${encodeURIComponent(ticketId)}`;

/** Reads the ticket as it is now, applies one change and saves it with that version (a 409 asks the user). */
export async function changeTicket(services: CommandServices, change: (ticket: TicketDetail) => Partial<TicketUpdateBody>, done: string): Promise<void> {
  const ticketId = focusedTicketId(services.context());
  if (!ticketId) return;
  const ticket = await validate('ticketDetail', await services.api.get<unknown>(ticketPath(ticketId)));
  const body: TicketUpdateBody = {
    type: ticket.type,
    priority: ticket.priority,
    status: ticket.status,
    subject: ticket.subject,
    description: ticket.description,
    assigneeId: ticket.assignee?.userId ?? null,
    version: ticket.version,
    ...change(ticket),
  };
  await services.api.put<unknown>(ticketPath(ticketId), body);
  await services.queryClient.invalidateQueries({ queryKey: ['tickets'] });
  services.state.toast({ kind: 'success', message: done });
}
