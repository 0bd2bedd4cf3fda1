// The areas' commands (payment jobs, tickets, users, reporting, configurations, customers, beneficiaries, the watch
// list…): loaded by the shell once the first screen is up (src/app/shell-services.tsx) and registered then, so they
// are not part of the first load. A new area adds its commands here, not to all-commands.ts.
import type { Command } from './command.ts';
import { switchToMerchantCommand } from './configurations/switch-to-merchant.ts';
import { paymentJobCommands } from './payment-jobs/payment-job-commands.ts';
import { downloadStatementCommand } from './reporting/download-statement.ts';
import { downloadSettlementDetailsCommand } from './reporting/download-settlement-details.ts';
import { openBatchReportCommand } from './reporting/open-batch-report.ts';
import { openScheduledReportsCommand, scheduleStatementCommand } from './reporting/schedule-statement.ts';
import { scheduleTransactionsExportCommand } from './reporting/schedule-transactions-export.ts';
import { runScheduleNowCommand } from './reporting/run-schedule-now.ts';
import { ticketCommands } from './tickets/ticket-commands.ts';
import { userCommands } from './users/user-commands.ts';
import { acknowledgeWatchEntryCommand } from './watch-list/acknowledge-entry.ts';
import { monitorMerchantCommand } from './watch-list/monitor-merchant.ts';
import { addWatchNoteCommand } from './watch-list/add-note.ts';
import { approveBeneficiaryCommand } from './beneficiaries/approve-beneficiary.ts';
import { resolveScreeningAlertCommand } from './beneficiaries/resolve-alert.ts';
import { exportCustomerDataCommand } from './customers/export-customer-data.ts';
import { eraseCustomerCommand } from './customers/erase-customer.ts';
import { addCustomerCommand } from './customers/add-customer.ts';
import { editCustomerCommand } from './customers/edit-customer.ts';
import { virtualTerminalCommands } from './virtual-terminal/virtual-terminal-commands.ts';
import { partnerCommands } from './partners/partner-commands.ts';
import { billingCommands } from './billing/billing-commands.ts';
import { bulkCommands } from './bulk/bulk-commands.ts';
import { openApiReferenceCommand } from './developers/open-api-reference.ts';
import { listTrailCommands } from './table/list-trail.ts';
import { escalateWatchEntryCommand } from './watch-list/escalate-entry.ts';
import { markAllNotificationsReadCommand } from './notifications/mark-all-read.ts';
import { toggleNotificationReadCommand } from './notifications/toggle-read.ts';
import { hostedPageCommands } from './configurations/hosted-page-commands.ts';

export const areaCommands: readonly Command[] = [
  switchToMerchantCommand,
  ...ticketCommands,
  downloadStatementCommand,
  downloadSettlementDetailsCommand,
  openBatchReportCommand,
  scheduleStatementCommand,
  scheduleTransactionsExportCommand,
  openScheduledReportsCommand,
  runScheduleNowCommand,
  ...paymentJobCommands,
  ...userCommands,
  acknowledgeWatchEntryCommand,
  monitorMerchantCommand,
  addWatchNoteCommand,
  approveBeneficiaryCommand,
  resolveScreeningAlertCommand,
  exportCustomerDataCommand,
  eraseCustomerCommand,
  addCustomerCommand,
  editCustomerCommand,
  ...virtualTerminalCommands,
  ...partnerCommands,
  ...billingCommands,
  ...bulkCommands,
  openApiReferenceCommand,
  ...listTrailCommands,
  escalateWatchEntryCommand,
  markAllNotificationsReadCommand,
  toggleNotificationReadCommand,
  ...hostedPageCommands,
];
