import type { Command } from '../command.ts';

/** Routes whose screen downloads a statement or ledger report (Shift+X, table.export, opens the same dialog). */
export const ledgerDownloadRouteIds = [
  'tradingAccount',
  'reserveAccount',
  'securityAccount',
  'remittanceAccount',
  'invoiceAccount',
  'costStatement',
  'businessAccount',
  'batchReport',
  'batchDetail',
] as const;

/** 'Download statement…' by name in the palette, where a statement, batch report or batch is focused. */
export const downloadStatementCommand: Command = {
  id: 'reporting.downloadStatement',
  title: 'Download statement…',
  section: 'Table',
  keywords: ['statement', 'pdf', 'csv', 'xlsx', 'download', 'report', 'batch', 'account'],
  permissions: ['Portal.Reports.Create'],
  when: (ctx) => (ledgerDownloadRouteIds as readonly string[]).includes(ctx.route?.id ?? '') && ctx.focusedPane?.capabilities.includes('export') === true,
  run: ({ state }) => state.paneRequest('export'),
};
