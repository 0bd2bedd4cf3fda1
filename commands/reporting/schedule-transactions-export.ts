import type { Command } from '../command.ts';

/** The overviews whose transactions export can be scheduled (a business, merchant or partner is addressed). */
const transactionRouteIds = ['transactions', 'partnerTransactions', 'partnerBusinessTransactions'];

/**
 * 'Schedule this export…' on the transactions overview: the view's filters and visible columns, daily, weekly or
 * monthly into My report queue, each run covering the period just ended. The pane declares 'schedule' only in a
 * business, merchant or partner context where the export may be queued.
 */
export const scheduleTransactionsExportCommand: Command = {
  id: 'transactions.scheduleExport',
  title: 'Schedule this export…',
  section: 'Table',
  keywords: ['schedule', 'recurring', 'daily', 'weekly', 'monthly', 'email', 'export', 'csv', 'xlsx'],
  permissions: ['Mapi.Transactions.Read', 'Portal.Reports.Create'],
  when: (ctx) => transactionRouteIds.includes(ctx.route?.id ?? '') && ctx.focusedPane?.capabilities.includes('schedule') === true,
  run: ({ state }) => state.paneRequest('schedule'),
};
