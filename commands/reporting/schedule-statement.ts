import type { Command } from '../command.ts';

const statementRouteIds = ['tradingAccount', 'reserveAccount', 'securityAccount', 'remittanceAccount', 'invoiceAccount', 'costStatement', 'businessAccount'];

/** 'Schedule statement…' where a statement is focused: daily, weekly or monthly into My report queue. */
export const scheduleStatementCommand: Command = {
  id: 'reporting.scheduleStatement',
  title: 'Schedule statement…',
  section: 'Table',
  keywords: ['schedule', 'recurring', 'daily', 'weekly', 'monthly', 'statement', 'email', 'camt'],
  permissions: ['Portal.Reports.Create'],
  when: (ctx) => statementRouteIds.includes(ctx.route?.id ?? '') && ctx.focusedPane?.capabilities.includes('schedule') === true,
  run: ({ state }) => state.paneRequest('schedule'),
};

/** The scheduled statements, in My report queue. */
export const openScheduledReportsCommand: Command = {
  id: 'reporting.openScheduledReports',
  title: 'Scheduled statements and reports',
  section: 'Navigation',
  keywords: ['schedules', 'scheduled', 'recurring', 'report queue', 'pause', 'delete'],
  permissions: ['Portal.Reports.Create'],
  run: ({ navigate }, args) => navigate('/reporting-overview?view=schedules', args?.beside ? { beside: true } : undefined),
};
