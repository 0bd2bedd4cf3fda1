import type { Command } from '../command.ts';

/**
 * On the tickets overview: the export dialog of the selection, or of every ticket matching the filters (the screen
 * declares 'export' only where the user may make reports; the server writes internal notes for staff only).
 */
export const exportTicketsCommand: Command = {
  id: 'tickets.export',
  title: 'Export tickets…',
  section: 'Table',
  keywords: ['export', 'download', 'csv', 'xlsx', 'report', 'tickets', 'support'],
  // The export is a report job: the server checks both (server/bulk/areas.ts).
  permissions: ['Portal.Tickets.Read', 'Portal.Reports.Create'],
  when: (ctx) => ctx.route?.id === 'tickets' && ctx.focusedPane?.capabilities.includes('export') === true,
  run: ({ state }) => state.paneRequest('export'),
};
