import type { Command } from '../command.ts';

/**
 * On the users overview: the export dialog of the selection, or of every user matching the filters (the server writes
 * only whom the user may read, with the roles they may see).
 */
export const exportUsersCommand: Command = {
  id: 'users.export',
  title: 'Export users…',
  section: 'Table',
  keywords: ['export', 'download', 'csv', 'xlsx', 'report', 'users', 'people'],
  // The export is a report job: the server checks both (server/bulk/areas.ts).
  permissions: ['Mapi.Users.Read', 'Portal.Reports.Create'],
  when: (ctx) => ctx.route?.id === 'users' && ctx.focusedPane?.capabilities.includes('export') === true,
  run: ({ state }) => state.paneRequest('export'),
};
