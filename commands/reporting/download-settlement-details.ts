import type { Command } from '../command.ts';

/** 'Download settlement details (CSV/XLSX)…' on the batch report (a month) and on a batch (that batch). */
export const downloadSettlementDetailsCommand: Command = {
  id: 'reporting.downloadSettlementDetails',
  title: 'Download settlement details (CSV/XLSX)…',
  section: 'Table',
  keywords: ['settlement', 'details', 'transactions', 'fees', 'net', 'payout', 'reconciliation', 'csv', 'xlsx', 'batch', 'month'],
  shortcut: 'Shift+G',
  permissions: ['Mapi.MerchantAccountGroups.Read', 'Portal.Reports.Create'],
  when: (ctx) => ['batchReport', 'batchDetail'].includes(ctx.route?.id ?? '') && ctx.focusedPane?.capabilities.includes('settlementDetails') === true,
  run: ({ state }) => state.paneRequest('settlementDetails'),
};
