// The imports of every screen but the first ones (src/app/routes.ts areaPane): a chunk of its own, so the entry
// carries a name per screen rather than its import and the list of chunks each one preloads.
import type { ComponentType } from 'react';
import type { PaneProps } from '../state/pane-scope.tsx';

type PaneModule = Promise<{ default: ComponentType<PaneProps> }>;

const areaPaneLoaders = {
  transactionsPane: (): PaneModule => import('../../panes/transactions/transactions-pane.tsx').then((module) => ({ default: module.TransactionsPane })),
  transactionDetailPane: (): PaneModule =>
    import('../../panes/transactions/transaction-detail-pane.tsx').then((module) => ({ default: module.TransactionDetailPane })),
  userNotificationsPane: (): PaneModule =>
    import('../../panes/notifications/user-notifications-pane.tsx').then((module) => ({ default: module.UserNotificationsPane })),
  userNotificationPane: (): PaneModule =>
    import('../../panes/notifications/user-notification-pane.tsx').then((module) => ({ default: module.UserNotificationPane })),
  reportQueuePane: (): PaneModule => import('../../panes/reporting-overview/report-queue-pane.tsx').then((module) => ({ default: module.ReportQueuePane })),
  outboxPane: (): PaneModule => import('../../panes/outbox/outbox-pane.tsx').then((module) => ({ default: module.OutboxPane })),
  outboxMessagePane: (): PaneModule => import('../../panes/outbox/outbox-message-pane.tsx').then((module) => ({ default: module.OutboxMessagePane })),
  ticketsPane: (): PaneModule => import('../../panes/tickets/tickets-pane.tsx').then((module) => ({ default: module.TicketsPane })),
  newTicketPane: (): PaneModule => import('../../panes/tickets/new-ticket-pane.tsx').then((module) => ({ default: module.NewTicketPane })),
  ticketDetailPane: (): PaneModule => import('../../panes/tickets/ticket-detail-pane.tsx').then((module) => ({ default: module.TicketDetailPane })),
  businessDetailPane: (): PaneModule => import('../../panes/business/business-detail-pane.tsx').then((module) => ({ default: module.BusinessDetailPane })),
  merchantDetailPane: (): PaneModule => import('../../panes/business/merchant-detail-pane.tsx').then((module) => ({ default: module.MerchantDetailPane })),
  configurationsPane: (): PaneModule => import('../../panes/configurations/configurations-pane.tsx').then((module) => ({ default: module.ConfigurationsPane })),
  configurationDetailPane: (): PaneModule =>
    import('../../panes/configurations/configuration-detail-pane.tsx').then((module) => ({ default: module.ConfigurationDetailPane })),
  hostedPageEditorPane: (): PaneModule =>
    import('../../panes/configurations/hosted-page-editor-pane.tsx').then((module) => ({ default: module.HostedPageEditorPane })),
  paymentJobsPane: (): PaneModule => import('../../panes/payment-jobs/payment-jobs-pane.tsx').then((module) => ({ default: module.PaymentJobsPane })),
  paymentJobDetailPane: (): PaneModule =>
    import('../../panes/payment-jobs/payment-job-detail-pane.tsx').then((module) => ({ default: module.PaymentJobDetailPane })),
  paymentTracePane: (): PaneModule => import('../../panes/payment-jobs/payment-trace-pane.tsx').then((module) => ({ default: module.PaymentTracePane })),
  usersPane: (): PaneModule => import('../../panes/users/users-pane.tsx').then((module) => ({ default: module.UsersPane })),
  userDetailPane: (): PaneModule => import('../../panes/users/user-detail-pane.tsx').then((module) => ({ default: module.UserDetailPane })),
  userAddPane: (): PaneModule => import('../../panes/users/user-add-pane.tsx').then((module) => ({ default: module.UserAddPane })),
  profilePane: (): PaneModule => import('../../panes/users/profile-pane.tsx').then((module) => ({ default: module.ProfilePane })),
  userInvitePage: (): PaneModule => import('./user-invite-route.tsx').then((module) => ({ default: module.UserInviteRoute })),
  newNotificationPane: (): PaneModule =>
    import('../../panes/notifications/notification-editor-pane.tsx').then((module) => ({ default: module.NewNotificationPane })),
  editNotificationPane: (): PaneModule =>
    import('../../panes/notifications/notification-editor-pane.tsx').then((module) => ({ default: module.EditNotificationPane })),
  statementPane: (): PaneModule => import('../../panes/reporting/statement-pane.tsx').then((module) => ({ default: module.StatementPane })),
  batchReportPane: (): PaneModule => import('../../panes/reporting/batch-report-pane.tsx').then((module) => ({ default: module.BatchReportPane })),
  batchDetailPane: (): PaneModule => import('../../panes/reporting/batch-report-pane.tsx').then((module) => ({ default: module.BatchDetailPane })),
  pricingPlanPane: (): PaneModule => import('../../panes/reporting/account-panes.tsx').then((module) => ({ default: module.PricingPlanPane })),
  internalAccountsPane: (): PaneModule => import('../../panes/reporting/account-panes.tsx').then((module) => ({ default: module.InternalAccountsPane })),
  merchantAccountsPane: (): PaneModule => import('../../panes/reporting/account-panes.tsx').then((module) => ({ default: module.MerchantAccountsPane })),
  merchantAccountDetailPane: (): PaneModule =>
    import('../../panes/reporting/account-panes.tsx').then((module) => ({ default: module.MerchantAccountDetailPane })),
  businessAccountsPane: (): PaneModule => import('../../panes/reporting/account-panes.tsx').then((module) => ({ default: module.BusinessAccountsPane })),
  businessAccountDetailPane: (): PaneModule =>
    import('../../panes/reporting/account-panes.tsx').then((module) => ({ default: module.BusinessAccountDetailPane })),
  transferDetailPane: (): PaneModule => import('../../panes/reporting/transfer-detail-pane.tsx').then((module) => ({ default: module.TransferDetailPane })),
  watchListPane: (): PaneModule => import('../../panes/watch-list/watch-list-pane.tsx').then((module) => ({ default: module.WatchListPane })),
  watchEntryPane: (): PaneModule => import('../../panes/watch-list/watch-entry-pane.tsx').then((module) => ({ default: module.WatchEntryPane })),
  beneficiariesPane: (): PaneModule => import('../../panes/beneficiaries/beneficiaries-pane.tsx').then((module) => ({ default: module.BeneficiariesPane })),
  beneficiaryDetailPane: (): PaneModule =>
    import('../../panes/beneficiaries/beneficiary-detail-pane.tsx').then((module) => ({ default: module.BeneficiaryDetailPane })),
  screeningAlertsPane: (): PaneModule =>
    import('../../panes/beneficiaries/screening-alerts-pane.tsx').then((module) => ({ default: module.ScreeningAlertsPane })),
  beneficiaryApprovalsPane: (): PaneModule =>
    import('../../panes/beneficiaries/beneficiary-approvals-pane.tsx').then((module) => ({ default: module.BeneficiaryApprovalsPane })),
  customersPane: (): PaneModule => import('../../panes/customers/customers-pane.tsx').then((module) => ({ default: module.CustomersPane })),
  customerDetailPane: (): PaneModule => import('../../panes/customers/customer-detail-pane.tsx').then((module) => ({ default: module.CustomerDetailPane })),
  virtualTerminalPane: (): PaneModule =>
    import('../../panes/virtual-terminal/virtual-terminal-pane.tsx').then((module) => ({ default: module.VirtualTerminalPane })),
  virtualTerminalSettingsPane: (): PaneModule =>
    import('../../panes/virtual-terminal/virtual-terminal-settings-pane.tsx').then((module) => ({ default: module.VirtualTerminalSettingsPane })),
  partnersPane: (): PaneModule => import('../../panes/partners/partners-pane.tsx').then((module) => ({ default: module.PartnersPane })),
  partnerDetailPane: (): PaneModule => import('../../panes/partners/partner-detail-pane.tsx').then((module) => ({ default: module.PartnerDetailPane })),
  newCommissionPlanPane: (): PaneModule =>
    import('../../panes/partners/new-commission-plan-pane.tsx').then((module) => ({ default: module.NewCommissionPlanPane })),
  commissionPlanPane: (): PaneModule => import('../../panes/partners/commission-plan-pane.tsx').then((module) => ({ default: module.CommissionPlanPane })),
  commissionTransactionsPane: (): PaneModule =>
    import('../../panes/partners/commission-transactions-pane.tsx').then((module) => ({ default: module.CommissionTransactionsPane })),
  partnerDeclinesPane: (): PaneModule => import('../../panes/partners/partner-declines-pane.tsx').then((module) => ({ default: module.PartnerDeclinesPane })),
  partnerBusinessPane: (): PaneModule => import('../../panes/partners/partner-frame-panes.tsx').then((module) => ({ default: module.PartnerBusinessPane })),
  partnerMerchantPane: (): PaneModule => import('../../panes/partners/partner-frame-panes.tsx').then((module) => ({ default: module.PartnerMerchantPane })),
  billingPane: (): PaneModule => import('../../panes/billing/billing-pane.tsx').then((module) => ({ default: module.BillingPane })),
  invoiceDetailPane: (): PaneModule => import('../../panes/billing/invoice-detail-pane.tsx').then((module) => ({ default: module.InvoiceDetailPane })),
  businessInvoicesPane: (): PaneModule => import('../../panes/billing/business-invoices-pane.tsx').then((module) => ({ default: module.BusinessInvoicesPane })),
  bulkJobPane: (): PaneModule => import('../../panes/bulk-jobs/bulk-job-pane.tsx').then((module) => ({ default: module.BulkJobPane })),
  apiReferencePane: (): PaneModule => import('../../panes/api-reference/api-reference-pane.tsx').then((module) => ({ default: module.ApiReferencePane })),
} satisfies Record<string, () => PaneModule>;

export type AreaPaneName = keyof typeof areaPaneLoaders;

export function loadAreaPane(name: AreaPaneName): PaneModule {
  return areaPaneLoaders[name]();
}
