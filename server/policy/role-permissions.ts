// The one role → permission table. The server enforces it on every call; the client only mirrors it.
import { permissionNames, type PermissionName, type RoleName } from '../../src/contract/permissions.ts';

const businessRead: PermissionName[] = [
  'Mapi.Business.Read',
  'Mapi.Merchant.Read',
  'Portal.Notifications.Read',
  'Portal.Tickets.Read',
  'Portal.Tickets.Create',
];
const transactionRead: PermissionName[] = [
  'Mapi.Transactions.Read',
  'Mapi.Transaction.Read',
  'Portal.PaymentJobs.Read',
  'Portal.Traces.Read',
  'Mapi.MerchantDashboardReport.Read',
  'Portal.Reports.Create',
];
/** Money-moving payment actions: capture, refund (and cancelling a refund still requested), void. */
const paymentOperations: PermissionName[] = ['Portal.Payments.Capture', 'Portal.Payments.Refund', 'Portal.Payments.Void'];
const financeRead: PermissionName[] = [
  'Mapi.MerchantAccountGroups.Read',
  'Mapi.MerchantAccountPricingPlan.Read',
  'Mapi.GatewayFees.Read',
  'Mapi.BagsExternal.Read',
];
const internalRead: PermissionName[] = [
  ...businessRead,
  ...transactionRead,
  ...financeRead,
  'Mapi.Partners.Read',
  'Mapi.Partner.Read',
  'Mapi.Users.Read',
  'Mapi.Beneficiary.Read',
  'Portal.Terminals.Read',
  'Mapi.BagsExternal.Read',
  'Mapi.InternalMerchantAccounts.Read',
  'Portal.Tickets.Read.Internal',
  'Portal.Settings.Read',
  'Mapi.Configurations.Read',
  'Mapi.Customers.Read',
];

export const rolePermissions: Record<RoleName, readonly PermissionName[]> = {
  TechnicalAdmin: permissionNames,
  CustomerService: [
    ...internalRead,
    'Portal.Notifications.Create',
    'Mapi.Users.Create',
    'Mapi.Users.Update',
    'Mapi.Business.Update',
    'Mapi.Customers.Update',
    ...paymentOperations,
    'Portal.PaymentJobs.Cancel',
    'Portal.PaymentJobs.MailPaymentLink',
  ],
  // Read only means no write anywhere: not even a ticket, a comment or an internal note.
  InternalReadOnly: [...internalRead.filter((permission) => permission !== 'Portal.Tickets.Create'), 'Mapi.AccountWatchList.Read'],
  RiskAnalyst: [
    ...internalRead,
    'Mapi.AccountWatchList.Read',
    'Mapi.Transaction.CardNumber.Read',
    'Mapi.AccountWatchList.Update',
    'Mapi.Beneficiary.Approve',
    'Mapi.Screening.Resolve',
  ],
  // API keys: support keeps managing them; Owner and External developer manage their own merchants' keys.
  Implementations: [...internalRead, 'Mapi.Configurations.Update', 'Portal.Settings.Update', 'Mapi.Business.Update', 'Mapi.ApiKeys.Manage'],
  FinanceAdmin: [...internalRead, 'Billing.Invoices.Create', 'Mapi.CommissionPlans.Update'],
  OperationalSupervisor: [...internalRead, 'Portal.PaymentJobs.Cancel', ...paymentOperations, 'Portal.PaymentJobs.MailPaymentLink'],
  Owner: [
    ...businessRead,
    ...transactionRead,
    ...financeRead,
    'Mapi.Beneficiary.Read',
    'Portal.Terminals.Read',
    'Portal.Moto.Create',
    'Mapi.Users.Read',
    'Mapi.Users.Create',
    'Mapi.Users.Update',
    'Mapi.Users.Delete',
    'Portal.Settings.Read',
    'Portal.Settings.Update',
    'Mapi.Configurations.Read',
    'Mapi.Configurations.Update',
    'Portal.PaymentJobs.Cancel',
    ...paymentOperations,
    'Portal.PaymentJobs.MailPaymentLink',
    'Mapi.Customers.Read',
    'Mapi.Customers.Update',
    'Mapi.Beneficiary.Create',
    'Mapi.Beneficiary.Approve',
    'Mapi.ApiKeys.Manage',
  ],
  Finance: [...businessRead, ...transactionRead, ...financeRead, ...paymentOperations],
  ExternalDeveloper: [
    ...businessRead,
    ...transactionRead,
    'Mapi.Configurations.Read',
    'Mapi.Configurations.Update',
    'Portal.Settings.Read',
    'Portal.Settings.Update',
    'Mapi.ApiKeys.Manage',
  ],
  Sales: [...businessRead, ...transactionRead, 'Portal.PaymentJobs.Cancel', 'Portal.PaymentJobs.MailPaymentLink'],
  VirtualTerminal: [
    'Portal.Moto.Create',
    'Portal.Terminals.Read',
    'Portal.Notifications.Read',
    'Portal.Settings.Read',
    'Mapi.Configurations.Read',
    'Mapi.Customers.Read',
    'Portal.PaymentJobs.Read',
  ],
};

/** Granted at partner level, a role also reads the partner itself. */
export const partnerLevelExtras: readonly PermissionName[] = ['Mapi.Partner.Read'];

export function permissionsOfRoles(roles: readonly string[]): Set<PermissionName> {
  const granted = new Set<PermissionName>();
  for (const role of roles) for (const permission of rolePermissions[role as RoleName] ?? []) granted.add(permission);
  return granted;
}
