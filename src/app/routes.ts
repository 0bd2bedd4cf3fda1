// THE route table: every route of section 2 of the shell document, one row each. The router (wouter, per
// pane), the guard, the side menu, the palette's navigation commands and the breadcrumb all read it.
//
// Permission decisions (the spec names permissions for some routes only; the rest are ours, chosen to
// match the server's role table in server/policy/role-permissions.ts):
//
// | route                                                            | permissions                                  | context   | notes |
// |------------------------------------------------------------------|----------------------------------------------|-----------|-------|
// | /dashboard                                                       | none                                         | required  | landing route: must open for every role (VT users too); statistics check Mapi.MerchantDashboardReport.Read themselves |
// | /transactions, /transactions/{ref}                               | Mapi.Transactions.Read / Mapi.Transaction.Read | free    | spec: context-free |
// | /reporting-overview (report queue)                               | Portal.Reports.Create                        | free      | whoever can queue a report sees the queue |
// | /reporting/{kind}-account/{n?}, cost-statement, batch-report     | Mapi.MerchantAccountGroups.Read              | required  | account groups are the merchant's |
// | /reporting/internal-accounts                                     | Mapi.InternalMerchantAccounts.Read           | free      | the provider's own accounts; internal staff (root roles) only |
// | /reporting/business-account/{n?}                                 | Mapi.MerchantAccountGroups.Read              | required  | + automatic remittance off |
// | /reporting/invoice-account/{n?}                                  | Mapi.MerchantAccountGroups.Read              | required  | spec: gross settlement only; also net-settled top-ups: the pane offers the accounts in use |
// | /configurations, /configurations/{id}                            | Mapi.Configurations.Read                     | required  | |
// | /configurations/{id}/hosted-payment-page/{ref}                   | Mapi.Configurations.Update                   | required  | editor layout; editing only |
// | /payment-jobs                                                    | Portal.PaymentJobs.Read                      | required  | the applied business's, merchant's or partner's payment jobs (like /transactions); path ours |
// | /configurations/{id}/payments, …/{ref}                           | Portal.PaymentJobs.Read                      | required  | the configuration's Payments tab; the detail |
// | /configurations/{id}/payments/{ref}/trace/{trace}                | Portal.Traces.Read                           | required  | |
// | /configurations/{id}/virtual-terminal                            | Portal.Moto.Create                           | required  | menu hidden when virtualTerminalMenuEnabled is false; its command opens a configuration with the terminal on |
// | /configurations/{id}/virtual-terminal/settings                   | Portal.Settings.Read                         | required  | path chosen by us (spec: not shown) |
// | /business, /business/{id}/merchants                              | —                                            | —         | redirect to not-found (spec) |
// | /business/{id}                                                   | Mapi.Business.Read                           | required  | + a role at root, partner or business level |
// | /business/{id}/merchants/{mid}                                   | Mapi.Merchant.Read                           | required  | + a role at root, partner, business or merchant level |
// | /business/{id}/pricing-plan                                      | Mapi.MerchantAccountPricingPlan.Read         | required  | |
// | …/merchant-accounts-overview, …/{merchantAccountId}              | Mapi.MerchantAccountGroups.Read              | required  | |
// | …/business-accounts-overview, …/{businessAccountId} (numeric)    | Mapi.BagsExternal.Read                       | required  | + automatic remittance off |
// | /context, /context/apply                                         | none                                         | free      | |
// | /notifications, /notifications/{ref}                             | Portal.Notifications.Read                    | free      | spec: context-free |
// | /notifications/add, /notifications/edit/{ref}                    | Portal.Notifications.Create                  | free      | |
// | /partners                                                        | Mapi.Partners.Read                           | required  | |
// | /partners/{id}, commissions, declines, business, merchant        | Mapi.Partner.Read (+ Business/Merchant.Read) | required  | |
// | /partners/{id}/transactions, …/business/{bid}/transactions       | Mapi.Partner.Read + Mapi.Transactions.Read   | required  | |
// | /partners/{id}/commissions/new                                   | Mapi.Partner.Read + Mapi.CommissionPlans.Update | required | a new commission plan |
// | /partners/{id}/users/add, /partners/{id}/users/{userId}          | Mapi.Users.Create / Mapi.Users.Read          | required  | |
// | /profile                                                         | none                                         | free      | spec: context-free |
// | /outbox, /outbox/{emailId}                                       | Portal.Outbox.Read (Technical admin)         | free      | the mail outbox |
// | /tickets, /tickets/{id}                                          | Portal.Tickets.Read                          | free      | without a context: every ticket the user reaches (staff's queue; an emailed link opens at once) |
// | /tickets/add                                                     | Portal.Tickets.Create                        | required  | Report bug / Give feedback open it with ?type= |
// | /users, /users/{id}                                              | Mapi.Users.Read                              | free      | spec: context-free |
// | /users/add                                                       | Mapi.Users.Create                            | free      | |
// | /account-watch-list                                              | Mapi.AccountWatchList.Read                   | free      | spec |
// | /billing                                                         | Billing.Invoices.Create                      | free      | spec; menu hidden with a business selected |
// | /account-watch-list/{merchantId}                                 | Mapi.AccountWatchList.Read                   | free      | one entry |
// | /screening-alerts                                                | Mapi.Screening.Resolve                       | free      | the analysts' alert queue |
// | /beneficiary-approvals                                           | Mapi.Beneficiary.Read                        | free      | beneficiaries awaiting approval in every business the user reads |
// | /business/{id}/beneficiaries, …/{beneficiaryId}                  | Mapi.Beneficiary.Read                        | free      | the path names the business; later a tab of the business detail |
// | /business/{id}/merchants/{mid}/customers, …/{customerId}         | Mapi.Customers.Read                          | free      | the path names the merchant; later a tab of the merchant detail |
// | /business/{id}/customers, /partners/{id}/customers               | Mapi.Customers.Read (+ Mapi.Partner.Read)    | free/required | every merchant's customers of the business or partner; a row opens the merchant's customer |
// | /developers/api (#operationId or ?operation=)                    | none (any signed-in user)                    | free      | the API reference, rendered from /api/portal/openapi.json |
import { type ComponentType, lazy, type LazyExoticComponent } from 'react';
import type { CommandContext } from '../../commands/command.ts';
import type { ContextKey, RouteCommandBehaviour } from '../../commands/navigation/route-commands.ts';
import { goToVirtualTerminal } from '../../commands/virtual-terminal/go-to-virtual-terminal.ts';
import type { PermissionName } from '../contract/permissions.ts';
import type { PaneProps } from '../state/pane-scope.tsx';

export type Layout = 'default' | 'editor' | 'simple';

export type MenuSectionId =
  | 'dashboard'
  | 'transactions'
  | 'reporting'
  | 'configurations'
  | 'configuration'
  | 'business'
  | 'virtualTerminal'
  | 'users'
  | 'billing'
  | 'watchList'
  | 'support'
  | 'partners';

export type MenuSection = { id: MenuSectionId; label: string; index: number };

/** The side menu's sections in the documented order and indices. */
export const menuSections: readonly MenuSection[] = [
  { id: 'dashboard', label: 'Dashboard', index: 10 },
  { id: 'transactions', label: 'Transactions', index: 30 },
  { id: 'reporting', label: 'Reporting', index: 40 },
  { id: 'configurations', label: 'Configurations', index: 50 },
  { id: 'configuration', label: 'Configuration', index: 51 },
  { id: 'business', label: 'Business', index: 60 },
  { id: 'virtualTerminal', label: 'Virtual terminal', index: 65 },
  { id: 'users', label: 'Users', index: 70 },
  { id: 'billing', label: 'Billing', index: 80 },
  { id: 'watchList', label: 'Watch list', index: 90 },
  { id: 'support', label: 'Support', index: 100 },
  { id: 'partners', label: 'Partners', index: 150 },
];

/** Conditions beyond permissions; 'noPermission' failures say so, 'notFound' ones just do not exist here. */
export type RouteCondition =
  | { kind: 'camAutoRemittanceOff' }
  | { kind: 'grossSettlement' }
  | { kind: 'businessAccess'; param: string }
  | { kind: 'merchantAccess'; businessParam: string; merchantParam: string };

export type RouteDefinition = {
  id: string;
  /** wouter pattern: '/transactions/:transactionReference', optional ':accountNumber?' */
  pattern: string;
  /** what the screen is, in the domain's words (menu, palette, 'Not built yet — …') */
  capability: string;
  /** the pane's title and breadcrumb label */
  title: (params: Readonly<Record<string, string | undefined>>) => string;
  pane: LazyExoticComponent<ComponentType<PaneProps>>;
  permissions: readonly PermissionName[];
  layout: Layout;
  /** no sign-in needed */
  public?: boolean;
  /** no selected context needed */
  contextFree?: boolean;
  /** the spec redirects this path to not-found */
  redirect?: 'notFound';
  conditions?: readonly RouteCondition[];
  /** parameter formats, e.g. numeric account ids */
  paramRules?: Readonly<Record<string, RegExp>>;
  /** parameters the menu and palette fill from the applied context */
  contextParams?: Readonly<Record<string, ContextKey>>;
  menu?: { section: MenuSectionId; index: number; label: string; visible?: (ctx: CommandContext) => boolean };
  /** a palette command (and optional go-to shortcut) for routes reachable without typing an id */
  command?: { title: string; keywords: readonly string[]; shortcut?: string; behaviour?: RouteCommandBehaviour };
};

/**
 * Every screen but the first ones (dashboard, sign-in, context, not-found) loads through area-panes.ts: the entry
 * holds the module (and, where it is not the file's name, the export) of each screen instead of its import and the list of chunks it preloads, and
 * area-panes.ts (requested with the first such screen, or once the first screen has settled) finds the module by its
 * file name: 'customers/customers-pane' is panes/customers/customers-pane.tsx. A new screen is its pane file and its
 * row here; tests/app/area-panes.test.ts loads every one named.
 */
export const areaPaneModules: { module: string; name: string }[] = [];
/** The component a module exports under its file's name, unless named: 'customers/customers-pane' → CustomersPane. */
const exportNameOf = (module: string) =>
  (module.split('/').at(-1) ?? '')
    .split('-')
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join('');
function areaPane(module: string, name = exportNameOf(module)) {
  areaPaneModules.push({ module, name });
  return lazy(() => import('./area-panes.ts').then((loaded) => loaded.loadAreaPane(module, name)));
}
const dashboardPane = lazy(() => import('../../panes/dashboard/statistics-pane.tsx').then((module) => ({ default: module.StatisticsDashboardPane })));
const transactionsPane = areaPane('transactions/transactions-pane');
const transactionDetailPane = areaPane('transactions/transaction-detail-pane');
const userNotificationsPane = areaPane('notifications/user-notifications-pane');
const userNotificationPane = areaPane('notifications/user-notification-pane');
const reportQueuePane = areaPane('reporting-overview/report-queue-pane');
const outboxPane = areaPane('outbox/outbox-pane');
const outboxMessagePane = areaPane('outbox/outbox-message-pane');
const ticketsPane = areaPane('tickets/tickets-pane');
const newTicketPane = areaPane('tickets/new-ticket-pane');
const ticketDetailPane = areaPane('tickets/ticket-detail-pane');
const businessDetailPane = areaPane('business/business-detail-pane');
const merchantDetailPane = areaPane('business/merchant-detail-pane');
const configurationsPane = areaPane('configurations/configurations-pane');
const configurationDetailPane = areaPane('configurations/configuration-detail-pane');
const hostedPageEditorPane = areaPane('configurations/hosted-page-editor-pane');
const paymentJobsPane = areaPane('payment-jobs/payment-jobs-pane');
const paymentJobDetailPane = areaPane('payment-jobs/payment-job-detail-pane');
const paymentTracePane = areaPane('payment-jobs/payment-trace-pane');
const usersPane = areaPane('users/users-pane');
const userDetailPane = areaPane('users/user-detail-pane');
const userAddPane = areaPane('users/user-add-pane');
const profilePane = areaPane('users/profile-pane');
const userInvitePage = areaPane('./user-invite-route');
const newNotificationPane = areaPane('notifications/notification-editor-pane', 'NewNotificationPane');
const editNotificationPane = areaPane('notifications/notification-editor-pane', 'EditNotificationPane');
const virtualTerminalPane = areaPane('virtual-terminal/virtual-terminal-pane');
const virtualTerminalSettingsPane = areaPane('virtual-terminal/virtual-terminal-settings-pane');
const bulkJobPane = areaPane('bulk-jobs/bulk-job-pane');
const notFoundPane = lazy(() => import('../../panes/not-found/not-found-pane.tsx').then((module) => ({ default: module.NotFoundPane })));
const statementPane = areaPane('reporting/statement-pane');
const batchReportPane = areaPane('reporting/batch-report-pane');
const batchDetailPane = areaPane('reporting/batch-report-pane', 'BatchDetailPane');
const pricingPlanPane = areaPane('reporting/account-panes', 'PricingPlanPane');
const internalAccountsPane = areaPane('reporting/account-panes', 'InternalAccountsPane');
const merchantAccountsPane = areaPane('reporting/account-panes', 'MerchantAccountsPane');
const merchantAccountDetailPane = areaPane('reporting/account-panes', 'MerchantAccountDetailPane');
const businessAccountsPane = areaPane('reporting/account-panes', 'BusinessAccountsPane');
const businessAccountDetailPane = areaPane('reporting/account-panes', 'BusinessAccountDetailPane');
const transferDetailPane = areaPane('reporting/transfer-detail-pane');
const watchListPane = areaPane('watch-list/watch-list-pane');
const watchEntryPane = areaPane('watch-list/watch-entry-pane');
const beneficiariesPane = areaPane('beneficiaries/beneficiaries-pane');
const beneficiaryDetailPane = areaPane('beneficiaries/beneficiary-detail-pane');
const screeningAlertsPane = areaPane('beneficiaries/screening-alerts-pane');
const beneficiaryApprovalsPane = areaPane('beneficiaries/beneficiary-approvals-pane');
const customersPane = areaPane('customers/customers-pane');
const customerDetailPane = areaPane('customers/customer-detail-pane');
const billingPane = areaPane('billing/billing-pane');
const invoiceDetailPane = areaPane('billing/invoice-detail-pane');
const businessInvoicesPane = areaPane('billing/business-invoices-pane');
const apiReferencePane = areaPane('api-reference/api-reference-pane');
const contextPane = lazy(() => import('../context/context-page.tsx').then((module) => ({ default: module.ContextPage })));
const contextApplyPane = lazy(() => import('../context/context-apply-page.tsx').then((module) => ({ default: module.ContextApplyPage })));
const rootPane = lazy(() => import('./root-route.tsx').then((module) => ({ default: module.RootRoute })));
const signInPane = lazy(() => import('./sign-in-route.tsx').then((module) => ({ default: module.SignInRoute })));
const signOutPane = lazy(() => import('./sign-out-route.tsx').then((module) => ({ default: module.SignOutRoute })));
const signedOutPane = lazy(() => import('./signed-out-route.tsx').then((module) => ({ default: module.SignedOutRoute })));

const noBusinessSelected = (ctx: CommandContext) => ctx.context.businessId === null;
const noConfigurationSelected = (ctx: CommandContext) => ctx.context.configurationId === null;
const virtualTerminalEnabled = (ctx: CommandContext) => ctx.context.virtualTerminalMenuEnabled === true;

const account = (id: string, kind: string, capability: string, index: number, conditions?: RouteCondition[], keywords: string[] = []): RouteDefinition => ({
  id,
  pattern: `/reporting/${kind}/:accountNumber?`,
  capability,
  title: ({ accountNumber }) => (accountNumber ? `${capability} ${accountNumber}` : capability),
  pane: kind === 'batch-report' ? batchReportPane : statementPane,
  permissions: ['Mapi.MerchantAccountGroups.Read'],
  layout: 'default',
  ...(conditions ? { conditions } : {}),
  menu: { section: 'reporting', index, label: capability },
  command: { title: `Go to ${capability.toLowerCase()}`, keywords: ['reporting', 'account', 'statement', ...keywords] },
});

export const routes: readonly RouteDefinition[] = [
  // Public (simple layout, outside the workspace)
  { id: 'root', pattern: '/', capability: 'Start', title: () => 'Start', pane: rootPane, permissions: [], layout: 'simple', public: true },
  { id: 'signIn', pattern: '/sign-in', capability: 'Sign in', title: () => 'Sign in', pane: signInPane, permissions: [], layout: 'simple', public: true },
  { id: 'signOut', pattern: '/sign-out', capability: 'Sign out', title: () => 'Sign out', pane: signOutPane, permissions: [], layout: 'simple', public: true },
  {
    id: 'signedOut',
    pattern: '/signed-out',
    capability: 'Signed out',
    title: () => 'Signed out',
    pane: signedOutPane,
    permissions: [],
    layout: 'simple',
    public: true,
  },
  {
    id: 'userInvite',
    pattern: '/user-invite',
    capability: 'Account creation from an invitation',
    title: () => 'Invitation',
    pane: userInvitePage,
    permissions: [],
    layout: 'simple',
    public: true,
  },
  { id: 'notFound', pattern: '/404', capability: 'Not found', title: () => 'Not found', pane: notFoundPane, permissions: [], layout: 'default', public: true },

  // Dashboard
  {
    id: 'dashboard',
    pattern: '/dashboard',
    capability: 'Statistics dashboard',
    title: () => 'Dashboard',
    pane: dashboardPane,
    permissions: [],
    layout: 'default',
    menu: { section: 'dashboard', index: 1, label: 'Dashboard' },
    command: { title: 'Go to dashboard', keywords: ['home', 'statistics', 'chart', 'overview'], shortcut: 'g d' },
  },

  // Transactions (context-free)
  {
    id: 'transactions',
    pattern: '/transactions',
    capability: 'Transactions overview',
    title: () => 'Transactions',
    pane: transactionsPane,
    permissions: ['Mapi.Transactions.Read'],
    layout: 'default',
    contextFree: true,
    menu: { section: 'transactions', index: 1, label: 'Transactions' },
    command: { title: 'Go to transactions', keywords: ['payments', 'sales', 'overview', 'list'], shortcut: 'g t' },
  },
  {
    id: 'transactionDetail',
    pattern: '/transactions/:transactionReference',
    capability: 'Transaction detail',
    title: ({ transactionReference }) => `Transaction ${transactionReference ?? ''}`,
    pane: transactionDetailPane,
    permissions: ['Mapi.Transaction.Read'],
    layout: 'default',
    contextFree: true,
  },

  // Reporting
  {
    id: 'reportQueue',
    pattern: '/reporting-overview',
    capability: 'Report queue',
    title: () => 'My report queue',
    pane: reportQueuePane,
    permissions: ['Portal.Reports.Create'],
    layout: 'default',
    contextFree: true,
    menu: { section: 'reporting', index: 1, label: 'Report queue' },
    command: { title: 'Go to my report queue', keywords: ['reports', 'exports', 'downloads', 'queue'], shortcut: 'g q' },
  },
  account('businessAccount', 'business-account', 'Business account', 2, [{ kind: 'camAutoRemittanceOff' }]),
  account('tradingAccount', 'trading-account', 'Trading account', 3),
  account('reserveAccount', 'reserve-account', 'Reserve account', 4),
  account('securityAccount', 'security-account', 'Security account', 5),
  account('remittanceAccount', 'remittance-account', 'Remittance account', 6, undefined, ['payout']),
  // Not only under gross settlement: a net-settled merchant's monthly minimum top-ups are invoiced there too.
  // The pane offers the invoice accounts the server lists as in use; an unused one answers 404.
  account('invoiceAccount', 'invoice-account', 'Invoice account', 7, undefined, ['billing']),
  account('costStatement', 'cost-statement', 'Cost statement', 8, undefined, ['fees', 'costs']),
  account('batchReport', 'batch-report', 'Batch report', 9, undefined, ['settlement', 'batches']),
  {
    id: 'internalAccounts',
    pattern: '/reporting/internal-accounts',
    capability: 'Internal accounts',
    title: () => 'Internal accounts',
    pane: internalAccountsPane,
    permissions: ['Mapi.InternalMerchantAccounts.Read'],
    layout: 'default',
    contextFree: true,
    menu: { section: 'reporting', index: 10, label: 'Internal accounts' },
    command: { title: 'Go to internal accounts', keywords: ['provider', 'clearing', 'bank', 'internal', 'ledger'] },
  },
  {
    id: 'batchDetail',
    pattern: '/reporting/batch-report/:accountNumber/batch/:batchId',
    capability: 'Batch detail',
    title: ({ batchId }) => `Batch ${batchId ?? ''}`,
    pane: batchDetailPane,
    permissions: ['Mapi.MerchantAccountGroups.Read'],
    layout: 'default',
  },

  // Configurations
  {
    id: 'configurations',
    pattern: '/configurations',
    capability: 'Configurations overview',
    title: () => 'Configurations',
    pane: configurationsPane,
    permissions: ['Mapi.Configurations.Read'],
    layout: 'default',
    menu: { section: 'configurations', index: 1, label: 'Configurations', visible: noConfigurationSelected },
    command: { title: 'Go to configurations', keywords: ['settings', 'payment methods', 'setup'], shortcut: 'g c' },
  },
  {
    id: 'configurationDetail',
    pattern: '/configurations/:configurationId',
    capability: 'Configuration detail',
    title: ({ configurationId }) => `Configuration ${configurationId ?? ''}`,
    pane: configurationDetailPane,
    permissions: ['Mapi.Configurations.Read'],
    layout: 'default',
    contextParams: { configurationId: 'configuration' },
    menu: { section: 'configuration', index: 1, label: 'Configuration details' },
    command: { title: 'Go to configuration details', keywords: ['configuration', 'settings', 'payment methods'] },
  },
  {
    id: 'hostedPaymentPage',
    pattern: '/configurations/:configurationId/hosted-payment-page/:hostedPaymentPageReference',
    capability: 'Hosted payment page editor',
    title: ({ hostedPaymentPageReference }) => `Hosted payment page ${hostedPaymentPageReference ?? ''}`,
    pane: hostedPageEditorPane,
    permissions: ['Mapi.Configurations.Update'],
    layout: 'editor',
  },
  {
    // One overview per context: the applied business's, merchant's or partner's payment jobs, filterable by configuration.
    id: 'paymentJobsOverview',
    pattern: '/payment-jobs',
    capability: 'Payment jobs overview',
    title: () => 'Payment jobs',
    pane: paymentJobsPane,
    permissions: ['Portal.PaymentJobs.Read'],
    layout: 'default',
    menu: { section: 'transactions', index: 2, label: 'Payment jobs' },
    command: { title: 'Go to payment jobs', keywords: ['payments', 'orders', 'payment jobs', 'open', 'refunds', 'authorisations'], shortcut: 'g j' },
  },
  {
    id: 'paymentJobs',
    pattern: '/configurations/:configurationId/payments',
    capability: 'Configuration payment jobs',
    title: () => 'Payments',
    pane: paymentJobsPane,
    permissions: ['Portal.PaymentJobs.Read'],
    layout: 'default',
    contextParams: { configurationId: 'configuration' },
    menu: { section: 'configuration', index: 2, label: 'Payments' },
    command: { title: "Go to this configuration's payment jobs", keywords: ['payments', 'orders', 'payment jobs', 'configuration'] },
  },
  {
    id: 'paymentJobDetail',
    pattern: '/configurations/:configurationId/payments/:paymentJobReference',
    capability: 'Payment job detail',
    title: ({ paymentJobReference }) => `Payment job ${paymentJobReference ?? ''}`,
    pane: paymentJobDetailPane,
    permissions: ['Portal.PaymentJobs.Read'],
    layout: 'default',
  },
  {
    id: 'paymentJobTrace',
    pattern: '/configurations/:configurationId/payments/:paymentJobReference/trace/:traceReference',
    capability: 'Payment trace',
    title: ({ traceReference }) => `Trace ${traceReference ?? ''}`,
    pane: paymentTracePane,
    permissions: ['Portal.Traces.Read'],
    layout: 'default',
  },
  {
    id: 'virtualTerminal',
    pattern: '/configurations/:configurationId/virtual-terminal',
    capability: 'Virtual terminal order entry',
    title: () => 'Virtual terminal',
    pane: virtualTerminalPane,
    permissions: ['Portal.Moto.Create'],
    layout: 'default',
    contextParams: { configurationId: 'configuration' },
    menu: { section: 'virtualTerminal', index: 1, label: 'New order', visible: virtualTerminalEnabled },
    // The command picks a configuration whose terminal is on (the context's may be the web shop's), asking when several are.
    command: {
      title: 'Go to virtual terminal',
      keywords: ['moto', 'order', 'phone', 'card payment', 'terminal'],
      shortcut: 'g v',
      behaviour: goToVirtualTerminal,
    },
  },
  {
    id: 'virtualTerminalSettings',
    pattern: '/configurations/:configurationId/virtual-terminal/settings',
    capability: 'Virtual terminal settings',
    title: () => 'Virtual terminal settings',
    pane: virtualTerminalSettingsPane,
    permissions: ['Portal.Settings.Read'],
    layout: 'default',
    contextParams: { configurationId: 'configuration' },
    menu: { section: 'virtualTerminal', index: 2, label: 'Settings', visible: virtualTerminalEnabled },
    command: { title: 'Go to virtual terminal settings', keywords: ['moto', 'terminal', 'settings'] },
  },

  // Business and merchants
  {
    id: 'businessOverview',
    pattern: '/business',
    capability: 'Business overview',
    title: () => 'Business',
    pane: notFoundPane,
    permissions: [],
    layout: 'default',
    redirect: 'notFound',
  },
  {
    id: 'businessDetail',
    pattern: '/business/:businessId',
    capability: 'Business detail',
    title: ({ businessId }) => `Business ${businessId ?? ''}`,
    pane: businessDetailPane,
    permissions: ['Mapi.Business.Read'],
    layout: 'default',
    contextParams: { businessId: 'business' },
    conditions: [{ kind: 'businessAccess', param: 'businessId' }],
    menu: { section: 'business', index: 1, label: 'Business details' },
    command: { title: 'Go to business details', keywords: ['company', 'business', 'details'], shortcut: 'g b' },
  },
  {
    id: 'businessMerchants',
    pattern: '/business/:businessId/merchants',
    capability: 'Merchants overview',
    title: () => 'Merchants',
    pane: notFoundPane,
    permissions: [],
    layout: 'default',
    redirect: 'notFound',
  },
  {
    id: 'merchantDetail',
    pattern: '/business/:businessId/merchants/:merchantId',
    capability: 'Merchant detail',
    title: ({ merchantId }) => `Merchant ${merchantId ?? ''}`,
    pane: merchantDetailPane,
    permissions: ['Mapi.Merchant.Read'],
    layout: 'default',
    contextParams: { businessId: 'business', merchantId: 'merchant' },
    conditions: [{ kind: 'merchantAccess', businessParam: 'businessId', merchantParam: 'merchantId' }],
    menu: { section: 'business', index: 2, label: 'Merchant details' },
    command: { title: 'Go to merchant details', keywords: ['merchant', 'shop', 'details'], shortcut: 'g m' },
  },
  {
    id: 'pricingPlan',
    pattern: '/business/:businessId/pricing-plan',
    capability: 'Pricing plan',
    title: () => 'Pricing plan',
    pane: pricingPlanPane,
    permissions: ['Mapi.MerchantAccountPricingPlan.Read'],
    layout: 'default',
    contextParams: { businessId: 'business' },
    menu: { section: 'business', index: 3, label: 'Pricing plan' },
    command: { title: 'Go to pricing plan', keywords: ['fees', 'pricing', 'tariff'] },
  },
  {
    id: 'merchantAccounts',
    pattern: '/business/:businessId/merchants/:merchantId/merchant-accounts-overview',
    capability: 'Merchant accounts overview',
    title: () => 'Merchant accounts',
    pane: merchantAccountsPane,
    permissions: ['Mapi.MerchantAccountGroups.Read'],
    layout: 'default',
    contextParams: { businessId: 'business', merchantId: 'merchant' },
    menu: { section: 'business', index: 4, label: 'Merchant accounts' },
    command: { title: 'Go to merchant accounts', keywords: ['accounts', 'account groups', 'balances'] },
  },
  {
    id: 'merchantAccountDetail',
    pattern: '/business/:businessId/merchants/:merchantId/merchant-accounts-overview/:merchantAccountId',
    capability: 'Merchant account detail',
    title: ({ merchantAccountId }) => `Merchant account ${merchantAccountId ?? ''}`,
    pane: merchantAccountDetailPane,
    permissions: ['Mapi.MerchantAccountGroups.Read'],
    layout: 'default',
  },
  {
    id: 'businessAccounts',
    pattern: '/business/:businessId/merchants/:merchantId/business-accounts-overview',
    capability: 'Business accounts overview',
    title: () => 'Business accounts',
    pane: businessAccountsPane,
    permissions: ['Mapi.BagsExternal.Read'],
    layout: 'default',
    contextParams: { businessId: 'business', merchantId: 'merchant' },
    conditions: [{ kind: 'camAutoRemittanceOff' }],
    menu: { section: 'business', index: 5, label: 'Business accounts' },
    command: { title: 'Go to business accounts', keywords: ['accounts', 'remittance', 'balances'] },
  },
  {
    id: 'businessAccountDetail',
    pattern: '/business/:businessId/merchants/:merchantId/business-accounts-overview/:businessAccountId',
    capability: 'Business account detail',
    title: ({ businessAccountId }) => `Business account ${businessAccountId ?? ''}`,
    pane: businessAccountDetailPane,
    permissions: ['Mapi.BagsExternal.Read'],
    layout: 'default',
    conditions: [{ kind: 'camAutoRemittanceOff' }],
    paramRules: { businessAccountId: /^\d+$/ },
  },
  {
    id: 'businessTransferDetail',
    pattern: '/business/:businessId/merchants/:merchantId/business-accounts-overview/:businessAccountId/transfers/:transferId',
    capability: 'Business transfer detail',
    title: ({ transferId }) => `Transfer ${transferId ?? ''}`,
    pane: transferDetailPane,
    permissions: ['Mapi.BagsExternal.Read'],
    layout: 'default',
    conditions: [{ kind: 'camAutoRemittanceOff' }],
    paramRules: { businessAccountId: /^\d+$/ },
  },

  // Context selection
  {
    id: 'context',
    pattern: '/context',
    capability: 'Context selection',
    title: () => 'Select context',
    pane: contextPane,
    permissions: [],
    layout: 'default',
    contextFree: true,
    command: { title: 'Go to context selection', keywords: ['business', 'merchant', 'choose', 'context'], shortcut: 'g x' },
  },
  {
    id: 'contextApply',
    pattern: '/context/apply',
    capability: 'Context application',
    title: () => 'Applying context',
    pane: contextApplyPane,
    permissions: [],
    layout: 'default',
    contextFree: true,
  },

  // Notifications (context-free)
  {
    id: 'notifications',
    pattern: '/notifications',
    capability: 'Notifications',
    title: () => 'Notifications',
    pane: userNotificationsPane,
    permissions: ['Portal.Notifications.Read'],
    layout: 'default',
    contextFree: true,
    command: { title: 'Go to notifications', keywords: ['news', 'messages', 'announcements', 'bell'], shortcut: 'g n' },
  },
  {
    id: 'notificationAdd',
    pattern: '/notifications/add',
    capability: 'New notification',
    title: () => 'New notification',
    pane: newNotificationPane,
    permissions: ['Portal.Notifications.Create'],
    layout: 'default',
    contextFree: true,
    command: { title: 'Create notification', keywords: ['new', 'announce', 'publish'] },
  },
  {
    id: 'notificationEdit',
    pattern: '/notifications/edit/:reference',
    capability: 'Notification editing',
    title: ({ reference }) => `Edit notification ${reference ?? ''}`,
    pane: editNotificationPane,
    permissions: ['Portal.Notifications.Create'],
    layout: 'default',
    contextFree: true,
  },
  {
    id: 'notificationDetail',
    pattern: '/notifications/:reference',
    capability: 'Notification',
    title: ({ reference }) => `Notification ${reference ?? ''}`,
    pane: userNotificationPane,
    permissions: ['Portal.Notifications.Read'],
    layout: 'default',
    contextFree: true,
  },

  // Partners
  {
    id: 'partners',
    pattern: '/partners',
    capability: 'Partners overview',
    title: () => 'Partners',
    pane: areaPane('partners/partners-pane'),
    permissions: ['Mapi.Partners.Read'],
    layout: 'default',
    menu: { section: 'partners', index: 1, label: 'Partners' },
    command: { title: 'Go to partners', keywords: ['resellers', 'partners', 'commission'], shortcut: 'g p' },
  },
  {
    id: 'partnerDetail',
    pattern: '/partners/:partnerId',
    capability: 'Partner detail',
    title: ({ partnerId }) => `Partner ${partnerId ?? ''}`,
    pane: areaPane('partners/partner-detail-pane'),
    permissions: ['Mapi.Partner.Read'],
    layout: 'default',
    contextParams: { partnerId: 'partner' },
    command: { title: 'Go to my partner', keywords: ['partner', 'details'] },
  },
  {
    id: 'partnerUserAdd',
    pattern: '/partners/:partnerId/users/add',
    capability: 'New partner user',
    title: () => 'New partner user',
    pane: userAddPane,
    permissions: ['Mapi.Users.Create'],
    layout: 'default',
  },
  {
    id: 'partnerUser',
    pattern: '/partners/:partnerId/users/:userId',
    capability: 'Partner user',
    title: ({ userId }) => `User ${userId ?? ''}`,
    pane: userDetailPane,
    permissions: ['Mapi.Users.Read'],
    layout: 'default',
  },
  {
    id: 'partnerCommissionNew',
    pattern: '/partners/:partnerId/commissions/new',
    capability: 'New commission plan',
    title: () => 'New commission plan',
    pane: areaPane('partners/new-commission-plan-pane'),
    permissions: ['Mapi.Partner.Read', 'Mapi.CommissionPlans.Update'],
    layout: 'default',
  },
  {
    id: 'partnerCommissionTransactions',
    pattern: '/partners/:partnerId/commissions/:commissionPlanId/transactions/:month',
    capability: 'Commission per transaction',
    title: ({ month }) => `Commission per transaction ${month ?? ''}`,
    pane: areaPane('partners/commission-transactions-pane'),
    permissions: ['Mapi.Partner.Read'],
    layout: 'default',
  },
  {
    id: 'partnerCommission',
    pattern: '/partners/:partnerId/commissions/:commissionPlanId',
    capability: 'Commission plan',
    title: ({ commissionPlanId }) => `Commission plan ${commissionPlanId ?? ''}`,
    pane: areaPane('partners/commission-plan-pane'),
    permissions: ['Mapi.Partner.Read'],
    layout: 'default',
  },
  {
    id: 'partnerDeclines',
    pattern: '/partners/:partnerId/declines',
    capability: 'Partner declines',
    title: () => 'Declines',
    pane: areaPane('partners/partner-declines-pane'),
    permissions: ['Mapi.Partner.Read'],
    layout: 'default',
  },
  {
    id: 'partnerTransactions',
    pattern: '/partners/:partnerId/transactions',
    capability: 'Partner transactions',
    title: () => 'Partner transactions',
    pane: transactionsPane,
    permissions: ['Mapi.Partner.Read', 'Mapi.Transactions.Read'],
    layout: 'default',
  },
  {
    id: 'partnerBusiness',
    pattern: '/partners/:partnerId/business/:businessId',
    capability: "Partner's business",
    title: ({ businessId }) => `Business ${businessId ?? ''}`,
    pane: areaPane('partners/partner-frame-panes', 'PartnerBusinessPane'),
    permissions: ['Mapi.Partner.Read', 'Mapi.Business.Read'],
    layout: 'default',
  },
  {
    id: 'partnerMerchant',
    pattern: '/partners/:partnerId/business/:businessId/merchant/:merchantId',
    capability: "Partner's merchant",
    title: ({ merchantId }) => `Merchant ${merchantId ?? ''}`,
    pane: areaPane('partners/partner-frame-panes', 'PartnerMerchantPane'),
    permissions: ['Mapi.Partner.Read', 'Mapi.Merchant.Read'],
    layout: 'default',
  },
  {
    id: 'partnerBusinessTransactions',
    pattern: '/partners/:partnerId/business/:businessId/transactions',
    capability: 'Business transactions within a partner',
    title: () => 'Business transactions',
    pane: transactionsPane,
    permissions: ['Mapi.Partner.Read', 'Mapi.Transactions.Read'],
    layout: 'default',
  },

  // Profile (context-free)
  {
    id: 'outbox',
    pattern: '/outbox',
    capability: 'Outbox',
    title: () => 'Outbox',
    pane: outboxPane,
    permissions: ['Portal.Outbox.Read'],
    layout: 'default',
    contextFree: true,
    command: { title: 'Go to outbox', keywords: ['email', 'mail', 'sent', 'messages', 'smtp'] },
  },
  {
    id: 'outboxMessage',
    pattern: '/outbox/:emailId',
    capability: 'Email',
    title: ({ emailId }) => `Email ${emailId ?? ''}`,
    pane: outboxMessagePane,
    permissions: ['Portal.Outbox.Read'],
    layout: 'default',
    contextFree: true,
  },
  {
    id: 'profile',
    pattern: '/profile',
    capability: 'My profile',
    title: () => 'My profile',
    pane: profilePane,
    permissions: [],
    layout: 'default',
    contextFree: true,
    command: { title: 'Go to my profile', keywords: ['account', 'password', 'me', 'settings'] },
  },

  // Support
  {
    id: 'tickets',
    pattern: '/tickets',
    capability: 'Support tickets',
    title: () => 'Support',
    pane: ticketsPane,
    permissions: ['Portal.Tickets.Read'],
    layout: 'default',
    contextFree: true,
    menu: { section: 'support', index: 1, label: 'Tickets' },
    command: { title: 'Go to support tickets', keywords: ['help', 'support', 'tickets', 'issues'], shortcut: 'g s' },
  },
  {
    id: 'ticketAdd',
    pattern: '/tickets/add',
    capability: 'New support ticket',
    title: () => 'New ticket',
    pane: newTicketPane,
    permissions: ['Portal.Tickets.Create'],
    layout: 'default',
    menu: { section: 'support', index: 2, label: 'New ticket' },
    command: { title: 'Create support ticket', keywords: ['help', 'support', 'ask', 'question'] },
  },
  {
    id: 'ticketDetail',
    pattern: '/tickets/:ticketId',
    capability: 'Support ticket',
    title: ({ ticketId }) => `Ticket ${ticketId ?? ''}`,
    pane: ticketDetailPane,
    permissions: ['Portal.Tickets.Read'],
    layout: 'default',
    contextFree: true,
  },

  // Users (context-free)
  {
    id: 'users',
    pattern: '/users',
    capability: 'Users overview',
    title: () => 'Users',
    pane: usersPane,
    permissions: ['Mapi.Users.Read'],
    layout: 'default',
    contextFree: true,
    menu: { section: 'users', index: 1, label: 'Users' },
    command: { title: 'Go to users', keywords: ['people', 'team', 'members', 'access'], shortcut: 'g u' },
  },
  {
    id: 'userAdd',
    pattern: '/users/add',
    capability: 'New user',
    title: () => 'New user',
    pane: userAddPane,
    permissions: ['Mapi.Users.Create'],
    layout: 'default',
    contextFree: true,
    command: { title: 'Invite user', keywords: ['new user', 'add user', 'team'] },
  },
  {
    id: 'userDetail',
    pattern: '/users/:userId',
    capability: 'User detail',
    title: ({ userId }) => `User ${userId ?? ''}`,
    pane: userDetailPane,
    permissions: ['Mapi.Users.Read'],
    layout: 'default',
    contextFree: true,
  },

  // Billing, watch list (context-free)
  {
    id: 'billing',
    pattern: '/billing',
    capability: 'Billing',
    title: () => 'Billing',
    pane: billingPane,
    permissions: ['Billing.Invoices.Create'],
    layout: 'default',
    contextFree: true,
    menu: { section: 'billing', index: 1, label: 'Billing', visible: noBusinessSelected },
    command: { title: 'Go to billing', keywords: ['invoices', 'billing'], shortcut: 'g i' },
  },
  // Billing: one invoice, and a business's own invoices for its owner and finance users
  {
    id: 'invoiceDetail',
    pattern: '/billing/invoices/:invoiceId',
    capability: 'Invoice',
    title: ({ invoiceId }) => `Invoice ${invoiceId ?? ''}`,
    pane: invoiceDetailPane,
    permissions: ['Billing.Invoices.Create'],
    layout: 'default',
    contextFree: true,
  },
  {
    id: 'businessInvoices',
    pattern: '/business/:businessId/invoices',
    capability: 'Invoices',
    title: () => 'Invoices',
    pane: businessInvoicesPane,
    permissions: ['Mapi.MerchantAccountPricingPlan.Read'],
    layout: 'default',
    contextFree: true,
    contextParams: { businessId: 'business' },
    conditions: [{ kind: 'businessAccess', param: 'businessId' }],
    command: { title: "Go to this business's invoices", keywords: ['invoices', 'billing', 'fees', 'pdf'] },
  },
  {
    id: 'watchList',
    pattern: '/account-watch-list',
    capability: 'Account watch list',
    title: () => 'Account watch list',
    pane: watchListPane,
    permissions: ['Mapi.AccountWatchList.Read'],
    layout: 'default',
    contextFree: true,
    menu: { section: 'watchList', index: 1, label: 'Watch list' },
    command: { title: 'Go to account watch list', keywords: ['risk', 'fraud', 'sanctions', 'watch'], shortcut: 'g w' },
  },

  // Risk area: watch list entries, screening alerts, beneficiaries, customers
  {
    id: 'watchListEntry',
    pattern: '/account-watch-list/:merchantId',
    capability: 'Watch list entry',
    title: ({ merchantId }) => `Watch list: ${merchantId ?? ''}`,
    pane: watchEntryPane,
    permissions: ['Mapi.AccountWatchList.Read'],
    layout: 'default',
    contextFree: true,
  },
  {
    id: 'screeningAlerts',
    pattern: '/screening-alerts',
    capability: 'Screening alerts',
    title: () => 'Screening alerts',
    pane: screeningAlertsPane,
    permissions: ['Mapi.Screening.Resolve'],
    layout: 'default',
    contextFree: true,
    menu: { section: 'watchList', index: 2, label: 'Screening alerts' },
    command: { title: 'Go to screening alerts', keywords: ['sanctions', 'pep', 'screening', 'alerts', 'beneficiary'] },
  },
  {
    id: 'beneficiaryApprovals',
    pattern: '/beneficiary-approvals',
    capability: 'Beneficiary approvals',
    title: () => 'Beneficiary approvals',
    pane: beneficiaryApprovalsPane,
    permissions: ['Mapi.Beneficiary.Read'],
    layout: 'default',
    contextFree: true,
    menu: { section: 'watchList', index: 3, label: 'Beneficiary approvals' },
    command: { title: 'Go to beneficiary approvals', keywords: ['beneficiary', 'approve', 'approval', 'four eyes', 'pending', 'queue', 'payee', 'payout'] },
  },
  {
    id: 'beneficiaries',
    pattern: '/business/:businessId/beneficiaries',
    capability: 'Beneficiaries',
    title: () => 'Beneficiaries',
    pane: beneficiariesPane,
    // The path names its business: a risk analyst arrives from the alert queue without choosing a context first.
    permissions: ['Mapi.Beneficiary.Read'],
    layout: 'default',
    contextFree: true,
    contextParams: { businessId: 'business' },
    conditions: [{ kind: 'businessAccess', param: 'businessId' }],
    command: { title: 'Go to beneficiaries', keywords: ['beneficiary', 'payee', 'payout', 'iban', 'sanctions'] },
  },
  {
    id: 'beneficiaryDetail',
    pattern: '/business/:businessId/beneficiaries/:beneficiaryId',
    capability: 'Beneficiary',
    title: ({ beneficiaryId }) => `Beneficiary ${beneficiaryId ?? ''}`,
    pane: beneficiaryDetailPane,
    permissions: ['Mapi.Beneficiary.Read'],
    layout: 'default',
    contextFree: true,
    conditions: [{ kind: 'businessAccess', param: 'businessId' }],
  },
  {
    id: 'customers',
    pattern: '/business/:businessId/merchants/:merchantId/customers',
    capability: 'Customers',
    title: () => 'Customers',
    pane: customersPane,
    permissions: ['Mapi.Customers.Read'],
    layout: 'default',
    contextFree: true,
    contextParams: { businessId: 'business', merchantId: 'merchant' },
    conditions: [{ kind: 'merchantAccess', businessParam: 'businessId', merchantParam: 'merchantId' }],
    command: { title: 'Go to customers', keywords: ['customers', 'shoppers', 'saved cards', 'gdpr', 'data subject'] },
  },
  {
    // The spec's {context}/customers for a business or a partner: one list across their merchants.
    id: 'businessCustomers',
    pattern: '/business/:businessId/customers',
    capability: "Business's customers",
    title: () => 'Customers',
    pane: customersPane,
    permissions: ['Mapi.Customers.Read'],
    layout: 'default',
    contextFree: true,
    contextParams: { businessId: 'business' },
    conditions: [{ kind: 'businessAccess', param: 'businessId' }],
    command: { title: "Go to this business's customers", keywords: ['customers', 'shoppers', 'all merchants', 'business', 'gdpr'] },
  },
  {
    id: 'partnerCustomers',
    pattern: '/partners/:partnerId/customers',
    capability: "Partner's customers",
    title: () => 'Customers',
    pane: customersPane,
    permissions: ['Mapi.Partner.Read', 'Mapi.Customers.Read'],
    layout: 'default',
    contextParams: { partnerId: 'partner' },
    command: { title: "Go to this partner's customers", keywords: ['customers', 'shoppers', 'all merchants', 'partner'] },
  },
  {
    id: 'customerDetail',
    pattern: '/business/:businessId/merchants/:merchantId/customers/:customerId',
    capability: 'Customer',
    title: ({ customerId }) => `Customer ${customerId ?? ''}`,
    pane: customerDetailPane,
    permissions: ['Mapi.Customers.Read'],
    layout: 'default',
    contextFree: true,
    conditions: [{ kind: 'merchantAccess', businessParam: 'businessId', merchantParam: 'merchantId' }],
  },
  // A bulk job over a table's selection: its creator's alone (the server answers 404 to anyone else).
  {
    id: 'bulkJob',
    pattern: '/bulk-jobs/:jobId',
    capability: 'Bulk job',
    title: () => 'Bulk job',
    pane: bulkJobPane,
    permissions: [],
    layout: 'default',
    contextFree: true,
  },
  // The API reference for developers: any signed-in user; its palette command is in commands/developers/.
  {
    id: 'apiReference',
    pattern: '/developers/api',
    capability: 'API reference',
    title: () => 'API reference',
    pane: apiReferencePane,
    permissions: [],
    layout: 'default',
    contextFree: true,
  },
];
