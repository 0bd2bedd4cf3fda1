import {
  staffQueueViews,
  ticketQueueViewLabels,
  ticketQueueViewPath,
  ticketQueueViewShortcuts,
  ticketQueueViews,
  type TicketQueueView,
} from '../../src/contract/tickets.ts';
import { sessionStore } from '../../src/state/session-store.ts';
import type { Command } from '../command.ts';

/**
 * One command per view of the support queue (palette and a 'v' sequence): opens the tickets overview in the
 * focused pane with the view's filters; the overview keeps the scope (this context or all businesses) chosen last.
 */
export const ticketQueueViewCommands: readonly Command[] = ticketQueueViews.map(
  (view: TicketQueueView): Command => ({
    id: `tickets.view.${view}`,
    title: `Tickets: ${ticketQueueViewLabels[view]}`,
    section: 'Navigation',
    keywords: ['tickets', 'support', 'queue', 'view', ...ticketQueueViewLabels[view].toLowerCase().split(' ')],
    shortcut: ticketQueueViewShortcuts[view],
    // Assignment and the requester's flag are the support staff's queue.
    permissions: staffQueueViews.includes(view) ? ['Portal.Tickets.Read', 'Portal.Tickets.Read.Internal'] : ['Portal.Tickets.Read'],
    run: ({ navigate }) => navigate(ticketQueueViewPath(view, sessionStore.userInfo?.sub ?? null)),
  }),
);
