// Permission and role names shared by the server (enforcement) and the client (hiding what would be refused).

export const permissionNames = [
  'Mapi.AccountWatchList.Read',
  'Billing.Invoices.Create',
  'Mapi.Business.Read',
  'Mapi.Merchant.Read',
  'Mapi.GatewayFees.Read',
  'Mapi.MerchantAccountGroups.Read',
  'Mapi.MerchantAccountPricingPlan.Read',
  'Mapi.Beneficiary.Read',
  'Portal.Terminals.Read',
  'Mapi.MerchantDashboardReport.Read',
  'Portal.Notifications.Create',
  'Portal.Notifications.Read',
  'Mapi.Partners.Read',
  'Mapi.Partner.Read',
  'Mapi.Users.Read',
  'Mapi.Users.Create',
  'Mapi.Transactions.Read',
  'Mapi.Transaction.Read',
  'Portal.PaymentJobs.Read',
  'Portal.Traces.Read',
  'Mapi.BagsExternal.Read',
  'Mapi.InternalMerchantAccounts.Read',
  'Portal.Tickets.Read.Internal',
  'Portal.Tickets.Create',
  'Portal.Moto.Create',
  'Portal.Settings.Read',
  'Portal.Settings.Update',
  // Needed by capabilities the spec names without a permission (our decision, docs/decisions/0003-role-and-permission-names.md).
  'Portal.Tickets.Read',
  'Mapi.Transaction.CardNumber.Read',
  'Mapi.Configurations.Read',
  'Mapi.Configurations.Update',
  'Portal.Reports.Create',
  'Mapi.Users.Update',
  'Mapi.Users.Delete',
  'Portal.PaymentJobs.Cancel',
  'Portal.Outbox.Read',
  // Editing business and merchant details, and managing a configuration's API keys (docs/decisions/0059-who-edits-businesses-and-manages-api-keys.md).
  'Mapi.Business.Update',
  'Mapi.ApiKeys.Manage',
  // The risk area: customers, beneficiary set-up and approval, screening alerts, watch list actions.
  'Mapi.Customers.Read',
  'Mapi.Customers.Update',
  'Mapi.Beneficiary.Create',
  'Mapi.Beneficiary.Approve',
  'Mapi.Screening.Resolve',
  'Mapi.AccountWatchList.Update',
  // Changing a partner's commission plan: finance admins, never the partner (docs/decisions/0167-who-changes-a-commission-plan-a-new-permission.md).
  'Mapi.CommissionPlans.Update',
  // Payment operations (docs/decisions/0067-permissions-for-payment-operations.md).
  'Portal.Payments.Capture',
  'Portal.Payments.Refund',
  'Portal.Payments.Void',
  'Portal.PaymentJobs.MailPaymentLink',
] as const;

export type PermissionName = (typeof permissionNames)[number];

export const roleNames = [
  'CustomerService',
  'Finance',
  'ExternalDeveloper',
  'FinanceAdmin',
  'Owner',
  'Sales',
  'TechnicalAdmin',
  'Implementations',
  'VirtualTerminal',
  'InternalReadOnly',
  'RiskAnalyst',
  'OperationalSupervisor',
] as const;

export type RoleName = (typeof roleNames)[number];

export type RoleKind = 'internal' | 'business' | 'merchant';

/** Section 6 of the shell document: which levels a role may be granted at. */
export const roleKinds: Record<RoleName, readonly RoleKind[]> = {
  CustomerService: ['internal'],
  Finance: ['business', 'merchant'],
  ExternalDeveloper: ['business', 'merchant'],
  FinanceAdmin: ['internal'],
  Owner: ['business'],
  Sales: ['business', 'merchant'],
  TechnicalAdmin: ['internal'],
  Implementations: ['internal'],
  VirtualTerminal: ['business', 'merchant'],
  InternalReadOnly: ['internal'],
  RiskAnalyst: ['internal'],
  OperationalSupervisor: ['internal'],
};

export const roleLabels: Record<RoleName, string> = {
  CustomerService: 'Customer service',
  Finance: 'Finance',
  ExternalDeveloper: 'External developer',
  FinanceAdmin: 'Finance admin',
  Owner: 'Owner',
  Sales: 'Sales',
  TechnicalAdmin: 'Technical admin',
  Implementations: 'Implementations',
  VirtualTerminal: 'Virtual terminal',
  InternalReadOnly: 'Internal read only',
  RiskAnalyst: 'Risk analyst',
  OperationalSupervisor: 'Operational supervisor',
};
