// The Portal API's operations for its OpenAPI document (server/api/openapi.ts): method + path (exactly as the Hono
// router registers it, under /api/portal) → its tag, summary and the contract schemas (src/contract/) of its
// parameters, body and answer. Nothing here is a schema of its own: every shape is an arktype type the contract
// exports, or a list query spec the handler parses with. tests/server/api/openapi.test.ts fails when the router has
// a route this table does not describe, or the table describes one the router lacks.
import type { Type } from 'arktype';
import { type } from 'arktype';
import * as billingSchemas from '../../src/contract/billing-schemas.ts';
import { businessInvoiceListSpec, invoiceListSpec } from '../../src/contract/billing.ts';
import { eventIdPattern, replayMsPattern } from '../../src/contract/live-events.ts';
import * as bulkJobSchemas from '../../src/contract/bulk-job-schemas.ts';
import * as beneficiarySchemas from '../../src/contract/beneficiary-schemas.ts';
import { beneficiaryApprovalListSpec, beneficiaryListSpec, screeningAlertListSpec } from '../../src/contract/beneficiaries.ts';
import * as configurationSchemas from '../../src/contract/configuration-schemas.ts';
import { businessListSpec, merchantListSpec } from '../../src/contract/configurations.ts';
import * as contextResponses from '../../src/contract/context-responses.ts';
import * as customerSchemas from '../../src/contract/customer-schemas.ts';
import * as dashboard from '../../src/contract/dashboard.ts';
import * as auditEvents from '../../src/contract/audit-events.ts';
import * as errors from '../../src/contract/errors.ts';
import * as filterPresetSchemas from '../../src/contract/filter-presets.ts';
import { presetPagePattern } from '../../src/contract/filter-presets.ts';
import { enumerationNames } from '../../src/contract/enumerations.ts';
import { merchantAccountKinds, batchListSpec, movementListSpec, transferListSpec } from '../../src/contract/ledger.ts';
import * as ledgerSchemas from '../../src/contract/ledger-schemas.ts';
import type { ListQuerySpec } from '../../src/contract/list-query.ts';
import * as openApiSchemas from '../../src/contract/openapi-schemas.ts';
import * as notificationSchemas from '../../src/contract/notification-schemas.ts';
import { notificationStatuses } from '../../src/contract/notifications.ts';
import * as outboxSchemas from '../../src/contract/outbox-schemas.ts';
import { outboxListSpec } from '../../src/contract/outbox.ts';
import * as paymentJobSchemas from '../../src/contract/payment-job-schemas.ts';
import { paymentJobListSpec } from '../../src/contract/payment-jobs.ts';
import * as partnerSchemas from '../../src/contract/partner-schemas.ts';
import { partnerBusinessListSpec, partnerListSpec } from '../../src/contract/partners.ts';
import * as policy from '../../src/contract/policy.ts';
import * as reportSchemas from '../../src/contract/report-schemas.ts';
import * as reportScheduleSchemas from '../../src/contract/report-schedule-schemas.ts';
import * as shellResponses from '../../src/contract/shell-responses.ts';
import * as ticketSchemas from '../../src/contract/ticket-schemas.ts';
import { ticketListSpec } from '../../src/contract/tickets.ts';
import * as transactionSchemas from '../../src/contract/transaction-schemas.ts';
import { transactionListSpec } from '../../src/contract/transactions.ts';
import * as userSchemas from '../../src/contract/user-schemas.ts';
import { userListSpec } from '../../src/contract/users.ts';
import * as virtualTerminalSchemas from '../../src/contract/virtual-terminal-schemas.ts';
import * as watchListSchemas from '../../src/contract/watch-list-schemas.ts';
import { watchListSpec } from '../../src/contract/watch-list.ts';
import { contextListPath } from '../http/context-list.ts';
import { runListSpec } from './billing.ts';
import { contextLists } from './context-lists.ts';
import { auditQuery } from './payment-jobs.ts';
import { merchantQuery, searchQuery } from './search.ts';
import { settingBody } from './user-settings.ts';

// biome-ignore lint/suspicious/noExplicitAny: any contract schema, whatever it infers and in whichever scope it was made
export type Schema = Type<any, any>;

/** Contract modules whose exported types become named components (#/components/schemas/<export name>). */
export const schemaModules: Record<string, Record<string, unknown>> = {
  errors,
  auditEvents,
  beneficiarySchemas,
  configurationSchemas,
  contextResponses,
  customerSchemas,
  dashboard,
  ledgerSchemas,
  notificationSchemas,
  outboxSchemas,
  paymentJobSchemas,
  policy,
  reportSchemas,
  shellResponses,
  ticketSchemas,
  transactionSchemas,
  userSchemas,
  virtualTerminalSchemas,
  watchListSchemas,
  openApiSchemas,
  partnerSchemas,
  billingSchemas,
  bulkJobSchemas,
  reportScheduleSchemas,
  server: { auditQuery, searchQuery, settingBody, merchantQuery },
};

/** A query parameter the handler reads itself (not through a list spec or an object type). */
export type QueryParameter = { name: string; schema: Schema; required?: boolean; description?: string };

/** What a success answers: a contract schema (JSON), or a body of another kind. */
export type Answer = Schema | { file: string } | 'event-stream' | 'none' | 'untyped';

export type Operation = {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** as Hono registers it, without /api/portal */
  path: string;
  tag: string;
  summary: string;
  /** a list query spec (paging, sort, filters), an object type (each key a parameter) or single parameters */
  query?: ListQuerySpec | Schema | QueryParameter[];
  body?: Schema | 'multipart';
  response: Answer;
  /** success status (default 200; 204 when the response is 'none') */
  status?: number;
  /** no bearer token needed */
  public?: boolean;
};

/** Path parameters whose values are a closed set. */
export const pathParameterSchemas: Record<string, Schema> = {
  name: type.enumerated(...enumerationNames),
  kind: type.enumerated(...merchantAccountKinds),
};

const tags = {
  user: 'Signed-in user',
  settings: 'User settings',
  reference: 'Reference data',
  context: 'Context',
  search: 'Search',
  dashboard: 'Dashboard',
  transactions: 'Transactions',
  paymentJobs: 'Payment jobs',
  reports: 'Reports',
  notifications: 'Notifications',
  outbox: 'Outbox',
  users: 'User administration',
  support: 'Support',
  businesses: 'Businesses and merchants',
  configurations: 'Configurations',
  images: 'Images',
  apiKeys: 'API keys',
  ledger: 'Settlement ledger',
  customers: 'Customers',
  beneficiaries: 'Beneficiaries and screening',
  watchList: 'Account watch list',
  events: 'Live events',
  virtualTerminal: 'Virtual terminal',
  partners: 'Partners and commission',
  billing: 'Billing and invoices',
  bulkJobs: 'Bulk jobs',
} as const;

const pageParameters: QueryParameter[] = [
  { name: 'pageNumber', schema: type(/^\d{1,7}$/), description: 'from 1' },
  { name: 'pageSize', schema: type("'10' | '25' | '50' | '100'") },
];
const noFilters: ListQuerySpec = { filters: {}, sortable: [], defaultSort: [] };
const versionQuery: QueryParameter[] = [
  { name: 'version', schema: type(/^\d{1,9}$/), required: true, description: 'the version as last read (409 when stale)' },
];
const liveOnly: QueryParameter = { name: 'liveOnly', schema: type("'true' | 'false'") };

const ops: Operation[] = [];
const add = (...operations: Operation[]) => ops.push(...operations);
const at = (prefixes: readonly string[], make: (prefix: string) => Operation[]) =>
  prefixes.forEach((prefix) => {
    add(...make(prefix));
  });

const business = '/businesses/:businessId';
const merchant = `${business}/merchants/:merchantId`;
const partner = '/partners/:partnerId';

// The signed-in user (server/api/user.ts, user-settings.ts, user-notifications.ts)
add(
  {
    method: 'GET',
    path: '/user/policy-structure',
    tag: tags.user,
    summary: 'The caller’s policy: partner, businesses, merchants and roles',
    response: policy.policyStructureSchema,
  },
  { method: 'GET', path: '/user/permissions', tag: tags.user, summary: 'Every permission the caller holds anywhere', response: policy.permissionListSchema },
  {
    method: 'GET',
    path: `/user${partner}/permissions`.replace('/user/partners/', '/user/partner/'),
    tag: tags.user,
    summary: 'The caller’s permissions in a partner',
    response: policy.permissionListSchema,
  },
  {
    method: 'GET',
    path: `/user${business}/permissions`,
    tag: tags.user,
    summary: 'The caller’s permissions in a business',
    response: policy.permissionListSchema,
  },
  {
    method: 'GET',
    path: `/user${merchant}/permissions`,
    tag: tags.user,
    summary: 'The caller’s permissions in a merchant',
    response: policy.permissionListSchema,
  },
  { method: 'GET', path: '/user/businesses', tag: tags.user, summary: 'The businesses the caller’s policy names', response: 'untyped' },
  { method: 'GET', path: '/user/contexts', tag: tags.user, summary: 'Every context the caller’s policy grants explicitly', response: 'untyped' },
  {
    method: 'GET',
    path: '/user/notifications/status',
    tag: tags.notifications,
    summary: 'Unread notifications and messages of the caller',
    response: shellResponses.notificationStatusSchema,
  },
  {
    method: 'GET',
    path: '/user-settings/:key',
    tag: tags.settings,
    summary: 'One setting of the caller (value null when not set)',
    response: shellResponses.userSettingSchema,
  },
  {
    method: 'PUT',
    path: '/user-settings/:key',
    tag: tags.settings,
    summary: 'Save one setting of the caller',
    body: settingBody,
    response: shellResponses.userSettingSchema,
  },
  { method: 'DELETE', path: '/user-settings/:key', tag: tags.settings, summary: 'Forget one setting of the caller', response: 'none' },
  {
    method: 'GET',
    path: '/enumerations/:name',
    tag: tags.reference,
    summary: 'A list of values (countries, currencies, …) and their names',
    response: 'untyped',
  },
  {
    method: 'POST',
    path: '/audit-events',
    tag: tags.reference,
    summary: 'Record a client-side event (printing, revealing) in the audit trail',
    body: auditEvents.auditEventBody,
    response: type({ id: 'string' }),
    status: 201,
  },
);

// Context (server/api/context.ts), search (search.ts)
add(
  {
    method: 'GET',
    path: '/context/businesses',
    tag: tags.context,
    summary: 'Businesses the caller may work in',
    query: [...pageParameters, liveOnly],
    response: contextResponses.contextBusinessPageSchema,
  },
  {
    method: 'GET',
    path: '/context/businesses/:businessId',
    tag: tags.context,
    summary: 'One business of the context',
    response: contextResponses.contextBusinessSchema,
  },
  {
    method: 'GET',
    path: '/context/businesses/:businessId/merchants',
    tag: tags.context,
    summary: 'Merchants of a business the caller may work in',
    query: [...pageParameters, liveOnly],
    response: contextResponses.contextMerchantPageSchema,
  },
  {
    method: 'GET',
    path: '/context/businesses/:businessId/merchants/:merchantId',
    tag: tags.context,
    summary: 'One merchant of the context',
    response: contextResponses.contextMerchantSchema,
  },
  {
    method: 'GET',
    path: '/context/businesses/:businessId/merchants/:merchantId/configurations',
    tag: tags.context,
    summary: 'Configurations of a merchant of the context',
    query: pageParameters,
    response: contextResponses.contextConfigurationPageSchema,
  },
  {
    method: 'GET',
    path: '/context/search',
    tag: tags.context,
    summary: 'Search businesses and merchants by name',
    query: [...pageParameters, liveOnly, { name: 'searchTerm', schema: type('0 < string <= 100'), required: true }],
    response: contextResponses.contextSearchPageSchema,
  },
  {
    method: 'GET',
    path: '/context/records/transactions/:reference',
    tag: tags.context,
    summary: 'The context a transaction belongs to (404 when the caller may not read it)',
    response: contextResponses.recordContextSchema,
  },
  {
    method: 'GET',
    path: '/context/records/configurations/:configurationId/payment-jobs/:paymentJobReference',
    tag: tags.context,
    summary: 'The context a payment job belongs to (404 when the caller may not read it)',
    response: contextResponses.recordContextSchema,
  },
  {
    method: 'GET',
    path: '/context/records/tickets/:ticketId',
    tag: tags.context,
    summary: 'The context a support ticket belongs to (404 when the caller may not read it)',
    response: contextResponses.recordContextSchema,
  },
  {
    method: 'GET',
    path: '/search',
    tag: tags.search,
    summary: 'Search records by reference or name',
    query: searchQuery,
    response: shellResponses.recordSearchSchema,
  },
  {
    method: 'GET',
    path: '/search/merchants',
    tag: tags.search,
    summary: 'Merchant names the caller may see, by prefix (completes merchant:…)',
    query: merchantQuery,
    response: shellResponses.searchMerchantsSchema,
  },
);

// Dashboard (server/api/dashboard.ts)
at([business, merchant, partner], (prefix) => [
  {
    method: 'POST',
    path: `${prefix}/dashboard`,
    tag: tags.dashboard,
    summary: 'Statistics over a period',
    body: dashboard.dashboardRequestSchema,
    response: dashboard.dashboardResponseSchema,
  },
  {
    method: 'POST',
    path: `${prefix}/dashboard/declines`,
    tag: tags.dashboard,
    summary: 'Decline reasons over a period',
    body: dashboard.declinesRequestSchema,
    response: dashboard.declinesResponseSchema,
  },
  {
    method: 'POST',
    path: `${prefix}/dashboard/breakdown`,
    tag: tags.dashboard,
    summary: 'A period broken down by merchant, payment method or status',
    body: dashboard.breakdownRequestSchema,
    response: dashboard.breakdownResponseSchema,
  },
]);
add({
  method: 'GET',
  path: `${partner}/dashboard`,
  tag: tags.dashboard,
  summary: 'Statistics over a period (query form)',
  query: [
    { name: 'startDate', schema: type(/^\d{4}-\d{2}-\d{2}$/), required: true },
    { name: 'endDate', schema: type(/^\d{4}-\d{2}-\d{2}$/), required: true },
    { name: 'interval', schema: type('string'), required: true },
    { name: 'currency', schema: type(/^[A-Z]{3}$/) },
    { name: 'dateBasis', schema: type("'paymentDate' | 'activityDate'") },
  ],
  response: dashboard.dashboardResponseSchema,
});

// Transactions (server/api/transactions.ts)
at(['', business, merchant, partner], (prefix) => [
  {
    method: 'GET',
    path: `${prefix}/transactions`,
    tag: tags.transactions,
    summary: 'Transactions (filtered, sorted, paged)',
    query: transactionListSpec,
    response: transactionSchemas.transactionList,
  },
  {
    method: 'GET',
    path: `${prefix}/transactions/count`,
    tag: tags.transactions,
    summary: 'How many transactions match the filters',
    query: transactionListSpec,
    response: transactionSchemas.transactionCount,
  },
  {
    method: 'POST',
    path: `${prefix}/transactions/full/reports`,
    tag: tags.transactions,
    summary: 'Queue an export of the matching transactions',
    body: transactionSchemas.transactionExportBody,
    response: transactionSchemas.queuedExportResponse,
    status: 202,
  },
  {
    method: 'GET',
    path: `${prefix}/transactions/:reference`,
    tag: tags.transactions,
    summary: 'One transaction',
    response: transactionSchemas.transactionDetail,
  },
  {
    method: 'GET',
    path: `${prefix}/transactions/:reference/maskedCardNumber`,
    tag: tags.transactions,
    summary: 'The masked card number of a transaction',
    response: transactionSchemas.maskedCardNumberResponse,
  },
  {
    method: 'GET',
    path: `${prefix}/transactions/:reference/cardNumber`,
    tag: tags.transactions,
    summary: 'The full card number (audited)',
    response: transactionSchemas.cardNumberResponse,
  },
]);

// Payment jobs (server/api/payment-jobs.ts)
at([business, merchant, partner], (prefix) => {
  const job = `${prefix}/payment-jobs/:paymentJobReference`;
  const payment = `${job}/payments/:paymentId`;
  return [
    {
      method: 'GET',
      path: `${prefix}/payment-jobs`,
      tag: tags.paymentJobs,
      summary: 'Payment jobs (filtered, sorted, paged)',
      query: paymentJobListSpec,
      response: paymentJobSchemas.paymentJobList,
    },
    { method: 'GET', path: job, tag: tags.paymentJobs, summary: 'One payment job with its payments and refunds', response: paymentJobSchemas.paymentJobDetail },
    {
      method: 'GET',
      path: `${prefix}/traces/:traceReference`,
      tag: tags.paymentJobs,
      summary: 'The trace of a payment (gateway calls and answers)',
      response: paymentJobSchemas.paymentTrace,
    },
    {
      method: 'GET',
      path: `${prefix}/audit-events`,
      tag: tags.paymentJobs,
      summary: 'Payment audit events',
      query: auditQuery,
      response: paymentJobSchemas.auditEventList,
    },
    {
      method: 'POST',
      path: `${payment}/actions/capture`,
      tag: tags.paymentJobs,
      summary: 'Capture a reserved payment',
      body: paymentJobSchemas.captureBody,
      response: paymentJobSchemas.paymentActionAnswer,
    },
    {
      method: 'POST',
      path: `${payment}/actions/refund`,
      tag: tags.paymentJobs,
      summary: 'Refund a paid payment',
      body: paymentJobSchemas.refundBody,
      response: paymentJobSchemas.paymentActionAnswer,
    },
    {
      method: 'POST',
      path: `${payment}/refunds/:refundId/actions/cancel`,
      tag: tags.paymentJobs,
      summary: 'Cancel a pending refund',
      body: paymentJobSchemas.cancelRefundBody,
      response: paymentJobSchemas.paymentActionAnswer,
    },
    {
      method: 'POST',
      path: `${payment}/actions/void`,
      tag: tags.paymentJobs,
      summary: 'Void a reserved payment',
      body: paymentJobSchemas.voidBody,
      response: paymentJobSchemas.paymentActionAnswer,
    },
    {
      method: 'POST',
      path: `${job}/actions/cancel`,
      tag: tags.paymentJobs,
      summary: 'Cancel a payment job',
      body: paymentJobSchemas.cancelJobBody,
      response: paymentJobSchemas.paymentActionAnswer,
    },
    {
      method: 'POST',
      path: `${payment}/actions/mail-payment-link`,
      tag: tags.paymentJobs,
      summary: 'Email the payment link to the shopper',
      body: paymentJobSchemas.mailPaymentLinkBody,
      response: paymentJobSchemas.paymentActionAnswer,
    },
    {
      method: 'POST',
      path: `${job}/actions/expire`,
      tag: tags.paymentJobs,
      summary: 'Expire a payment job’s payment link now',
      body: paymentJobSchemas.expireLinkBody,
      response: paymentJobSchemas.paymentActionAnswer,
    },
  ];
});

// Reports (server/api/reports.ts)
add(
  {
    method: 'GET',
    path: '/reports',
    tag: tags.reports,
    summary: 'The caller’s queued and finished reports',
    query: noFilters,
    response: reportSchemas.queuedReportList,
  },
  { method: 'GET', path: '/reports/:id', tag: tags.reports, summary: 'One report and its progress', response: reportSchemas.queuedReport },
  { method: 'GET', path: '/reports/:id/download', tag: tags.reports, summary: 'Download a finished report', response: { file: 'application/octet-stream' } },
  { method: 'DELETE', path: '/reports/:id', tag: tags.reports, summary: 'Delete (or cancel) a report', response: 'none' },
  { method: 'POST', path: '/reports/:id/retry', tag: tags.reports, summary: 'Queue a failed report again', response: reportSchemas.queuedReport },
  { method: 'POST', path: '/reports/:id/cancel', tag: tags.reports, summary: 'Cancel a queued or generating report', response: reportSchemas.queuedReport },
  {
    method: 'GET',
    path: '/report-schedules',
    tag: tags.reports,
    summary: 'The caller’s scheduled statements and reports',
    response: reportScheduleSchemas.reportScheduleList,
  },
  {
    method: 'POST',
    path: '/report-schedules',
    tag: tags.reports,
    summary: 'Schedule a statement or report (daily, weekly, monthly) into the report queue',
    body: reportScheduleSchemas.reportScheduleBody,
    response: reportScheduleSchemas.reportSchedule,
    status: 201,
  },
  {
    method: 'PATCH',
    path: '/report-schedules/:id',
    tag: tags.reports,
    summary: 'Pause or resume a schedule (with its version)',
    body: reportScheduleSchemas.reportScheduleChange,
    response: reportScheduleSchemas.reportSchedule,
  },
  { method: 'DELETE', path: '/report-schedules/:id', tag: tags.reports, summary: 'Delete a schedule', response: 'none' },
  {
    method: 'POST',
    path: '/report-schedules/:id/runs',
    tag: tags.reports,
    summary: 'Run a schedule now: one run of the period just ended into the report queue (Idempotency-Key: a retry answers 200 the same run)',
    response: reportScheduleSchemas.reportScheduleRun,
    status: 202,
  },
);

// Notifications (user-notifications.ts, notifications.ts), outbox (outbox.ts)
add(
  {
    method: 'GET',
    path: '/user/notifications',
    tag: tags.notifications,
    summary: 'The caller’s notifications (paged)',
    query: noFilters,
    response: notificationSchemas.userNotificationList,
  },
  {
    method: 'GET',
    path: '/user/notifications/:reference',
    tag: tags.notifications,
    summary: 'One notification of the caller',
    response: notificationSchemas.userNotificationDetail,
  },
  {
    method: 'PUT',
    path: '/user/notifications/read-state',
    tag: tags.notifications,
    summary: 'Mark all as read',
    body: notificationSchemas.readStateBody,
    response: 'none',
  },
  {
    method: 'PUT',
    path: '/user/notifications/:reference/read-state',
    tag: tags.notifications,
    summary: 'Mark one as read or unread',
    body: notificationSchemas.readStateBody,
    response: 'none',
  },
  {
    method: 'GET',
    path: '/notifications',
    tag: tags.notifications,
    summary: 'Authored notifications (authors only)',
    query: { filters: { status: { kind: { oneOf: notificationStatuses }, operators: ['eq'] } }, sortable: [], defaultSort: [] },
    response: notificationSchemas.authoredNotificationList,
  },
  {
    method: 'POST',
    path: '/notifications',
    tag: tags.notifications,
    summary: 'Write a notification',
    body: notificationSchemas.notificationBody,
    response: notificationSchemas.createdNotification,
    status: 201,
  },
  {
    method: 'GET',
    path: '/notifications/audience',
    tag: tags.notifications,
    summary: 'Businesses and partners to address, by name or id (authors only)',
    query: [
      { name: 'term', schema: type('string <= 100'), required: false },
      { name: 'ids', schema: type('string <= 4000'), required: false },
    ],
    response: notificationSchemas.audienceCandidateList,
  },
  {
    method: 'GET',
    path: '/notifications/:reference',
    tag: tags.notifications,
    summary: 'One authored notification',
    response: notificationSchemas.authoredNotification,
  },
  {
    method: 'PUT',
    path: '/notifications/:reference',
    tag: tags.notifications,
    summary: 'Change or publish a notification',
    body: notificationSchemas.notificationUpdateBody,
    response: notificationSchemas.authoredNotification,
  },
  { method: 'DELETE', path: '/notifications/:reference', tag: tags.notifications, summary: 'Delete a draft notification', response: 'none' },
  {
    method: 'GET',
    path: '/outbox',
    tag: tags.outbox,
    summary: 'Emails the portal sent (paged)',
    query: outboxListSpec,
    response: outboxSchemas.outboxMessageList,
  },
  { method: 'GET', path: '/outbox/:id', tag: tags.outbox, summary: 'One sent email', response: outboxSchemas.outboxMessageDetail },
);

// User administration and the caller's account (server/api/users.ts)
add(
  { method: 'GET', path: '/user/users', tag: tags.users, summary: 'Users the caller administers', query: userListSpec, response: userSchemas.userList },
  { method: 'GET', path: '/user/role-groups', tag: tags.users, summary: 'Roles grouped by level', response: userSchemas.roleGroupList },
  { method: 'GET', path: '/users/:userId', tag: tags.users, summary: 'One user and their policy', response: userSchemas.userDetail },
  {
    method: 'POST',
    path: '/users',
    tag: tags.users,
    summary: 'Invite users with a policy',
    body: userSchemas.inviteUsersBody,
    response: userSchemas.invitedUsers,
    status: 201,
  },
  {
    method: 'PUT',
    path: '/users/:userId',
    tag: tags.users,
    summary: 'Change a user’s name and policy',
    body: userSchemas.updateUserBody,
    response: userSchemas.userDetail,
  },
  { method: 'PATCH', path: '/users', tag: tags.user, summary: 'Change the caller’s own profile', body: userSchemas.updateOwnProfileBody, response: 'untyped' },
  { method: 'PUT', path: '/user/password', tag: tags.user, summary: 'Change the caller’s password', body: userSchemas.changePasswordBody, response: 'none' },
  {
    method: 'POST',
    path: '/users/:userId/password-reset-email',
    tag: tags.users,
    summary: 'Send a user a password reset email',
    response: type({ sent: 'boolean' }),
    status: 202,
  },
  {
    method: 'PUT',
    path: '/users/:userId/login',
    tag: tags.users,
    summary: 'Lock or unlock a user’s sign-in',
    body: userSchemas.userLoginBody,
    response: userSchemas.userDetail,
  },
  { method: 'POST', path: '/users/:userId/invitation', tag: tags.users, summary: 'Send an invitation again', response: type({ sent: 'boolean' }), status: 202 },
  { method: 'DELETE', path: '/users/:userId/invitation', tag: tags.users, summary: 'Revoke a pending invitation', response: 'none' },
  { method: 'DELETE', path: '/users/:userId', tag: tags.users, summary: 'Delete a user', body: userSchemas.deleteUserBody, response: 'none' },
  { method: 'GET', path: '/users/:userId/audit-events', tag: tags.users, summary: 'What happened to a user’s account', response: userSchemas.userAuditEvents },
  { method: 'GET', path: '/user/sessions', tag: tags.user, summary: 'The caller’s signed-in sessions', response: userSchemas.userSessions },
  {
    method: 'POST',
    path: '/user/sessions/revocation',
    tag: tags.user,
    summary: 'Sign out everywhere',
    body: userSchemas.signOutEverywhereBody,
    response: 'none',
  },
  { method: 'GET', path: '/user/second-factor', tag: tags.user, summary: 'Whether the caller uses a second factor', response: userSchemas.secondFactorStatus },
  {
    method: 'POST',
    path: '/user/second-factor/enrolment',
    tag: tags.user,
    summary: 'Start enrolling an authenticator app',
    body: userSchemas.secondFactorEnrolmentBody,
    response: userSchemas.secondFactorEnrolment,
  },
  {
    method: 'POST',
    path: '/user/second-factor/enrolment/confirm',
    tag: tags.user,
    summary: 'Confirm the authenticator with a code',
    body: userSchemas.secondFactorCodeBody,
    response: userSchemas.recoveryCodes,
  },
  {
    method: 'POST',
    path: '/user/second-factor/removal',
    tag: tags.user,
    summary: 'Remove the caller’s second factor',
    body: userSchemas.secondFactorRemovalBody,
    response: 'none',
  },
  { method: 'DELETE', path: '/users/:userId/second-factor', tag: tags.users, summary: 'Reset a user’s second factor', response: 'none' },
  { method: 'GET', path: `${partner}/users`, tag: tags.users, summary: 'Users of a partner', query: userListSpec, response: userSchemas.userList },
  {
    method: 'POST',
    path: `${partner}/users`,
    tag: tags.users,
    summary: 'Invite users to a partner',
    body: userSchemas.invitePartnerUsersBody,
    response: userSchemas.invitedUsers,
    status: 201,
  },
  {
    method: 'PUT',
    path: `${partner}/users/:userId`,
    tag: tags.users,
    summary: 'Change a partner user’s roles',
    body: userSchemas.partnerUserBody,
    response: userSchemas.userDetail,
  },
);

// Support (server/api/tickets.ts)
add({ method: 'GET', path: '/ticket-assignees', tag: tags.support, summary: 'Staff a ticket may be assigned to', response: ticketSchemas.ticketAssignees });
at(['', partner, business, merchant], (prefix) => {
  const ticket = `${prefix}/tickets/:ticketId`;
  const comment = `${ticket}/comments/:commentId`;
  return [
    {
      method: 'GET',
      path: `${prefix}/tickets`,
      tag: tags.support,
      summary: 'Tickets (filtered, sorted, paged)',
      query: ticketListSpec,
      response: ticketSchemas.ticketList,
    },
    {
      method: 'POST',
      path: `${prefix}/tickets`,
      tag: tags.support,
      summary: 'Open a ticket',
      body: ticketSchemas.ticketBody,
      response: ticketSchemas.createdTicket,
      status: 201,
    },
    { method: 'GET', path: ticket, tag: tags.support, summary: 'One ticket', response: ticketSchemas.ticketDetail },
    { method: 'PUT', path: ticket, tag: tags.support, summary: 'Change a ticket', body: ticketSchemas.ticketUpdateBody, response: ticketSchemas.ticketDetail },
    { method: 'DELETE', path: ticket, tag: tags.support, summary: 'Delete a ticket', response: 'none' },
    {
      method: 'GET',
      path: `${ticket}/attachments/:attachmentId`,
      tag: tags.support,
      summary: 'Download a ticket’s attachment',
      response: { file: 'application/octet-stream' },
    },
    {
      method: 'POST',
      path: `${ticket}/attachments`,
      tag: tags.support,
      summary: 'Attach a file to a ticket',
      body: 'multipart',
      response: ticketSchemas.ticketAttachment,
      status: 201,
    },
    { method: 'DELETE', path: `${ticket}/attachments/:attachmentId`, tag: tags.support, summary: 'Remove a ticket’s attachment', response: 'none' },
    {
      method: 'GET',
      path: `${ticket}/comments`,
      tag: tags.support,
      summary: 'Comments of a ticket (newest first, in batches)',
      query: [{ name: 'before', schema: type('string <= 64'), description: 'a comment id: the batch older than it' }],
      response: ticketSchemas.ticketCommentPage,
    },
    {
      method: 'POST',
      path: `${ticket}/comments`,
      tag: tags.support,
      summary: 'Comment on a ticket',
      body: ticketSchemas.ticketCommentBody,
      response: ticketSchemas.createdComment,
      status: 201,
    },
    { method: 'GET', path: comment, tag: tags.support, summary: 'One comment', response: ticketSchemas.ticketComment },
    {
      method: 'PUT',
      path: comment,
      tag: tags.support,
      summary: 'Edit a comment',
      body: ticketSchemas.ticketCommentUpdateBody,
      response: ticketSchemas.ticketComment,
    },
    { method: 'DELETE', path: comment, tag: tags.support, summary: 'Delete a comment', response: 'none' },
    {
      method: 'GET',
      path: `${comment}/attachments/:attachmentId`,
      tag: tags.support,
      summary: 'Download a comment’s attachment',
      response: { file: 'application/octet-stream' },
    },
    {
      method: 'POST',
      path: `${comment}/attachments`,
      tag: tags.support,
      summary: 'Attach a file to a comment',
      body: 'multipart',
      response: ticketSchemas.ticketAttachment,
      status: 201,
    },
    { method: 'DELETE', path: `${comment}/attachments/:attachmentId`, tag: tags.support, summary: 'Remove a comment’s attachment', response: 'none' },
  ];
});

// Businesses, merchants, configurations (businesses.ts, configurations.ts)
const paymentMethodPath = `${merchant}/configurations/:configurationId/:paymentMethod{(?:afterpay|applepay|bancontact|card|directdebit|googlepay|ideal|klarnapaylater|klarnapaynow|klarnasliceit|paypal|samsungpay|sepabanktransfer|clicktopay|wallet)}`;
add(
  {
    method: 'GET',
    path: '/businesses',
    tag: tags.businesses,
    summary: 'Businesses (filtered, sorted, paged)',
    query: businessListSpec,
    response: configurationSchemas.businessList,
  },
  { method: 'GET', path: business, tag: tags.businesses, summary: 'One business', response: configurationSchemas.businessDetail },
  {
    method: 'PUT',
    path: business,
    tag: tags.businesses,
    summary: 'Change a business',
    body: configurationSchemas.businessUpdateBody,
    response: configurationSchemas.businessDetail,
  },
  {
    method: 'GET',
    path: `${business}/merchants`,
    tag: tags.businesses,
    summary: 'Merchants of a business',
    query: merchantListSpec,
    response: configurationSchemas.merchantList,
  },
  { method: 'GET', path: merchant, tag: tags.businesses, summary: 'One merchant', response: configurationSchemas.merchantDetail },
  {
    method: 'PUT',
    path: merchant,
    tag: tags.businesses,
    summary: 'Change a merchant',
    body: configurationSchemas.merchantUpdateBody,
    response: configurationSchemas.merchantDetail,
  },
  {
    method: 'POST',
    path: `${merchant}/configurations`,
    tag: tags.configurations,
    summary: 'Create a configuration',
    body: configurationSchemas.configurationCreateBody,
    response: configurationSchemas.configurationDetail,
    status: 201,
  },
  {
    method: 'GET',
    path: `${merchant}/configurations/:configurationId`,
    tag: tags.configurations,
    summary: 'One configuration',
    response: configurationSchemas.configurationDetail,
  },
  {
    method: 'PUT',
    path: `${merchant}/configurations/:configurationId`,
    tag: tags.configurations,
    summary: 'Change a configuration',
    body: configurationSchemas.configurationUpdateBody,
    response: configurationSchemas.configurationDetail,
  },
  {
    method: 'DELETE',
    path: `${merchant}/configurations/:configurationId`,
    tag: tags.configurations,
    summary: 'Delete a configuration without payments',
    query: versionQuery,
    response: 'none',
  },
  {
    method: 'GET',
    path: `${merchant}/hosted-pages`,
    tag: tags.configurations,
    summary: 'Hosted payment pages of a merchant',
    query: [{ name: 'configurationId', schema: type('string') }],
    response: configurationSchemas.hostedPageList,
  },
  {
    method: 'GET',
    path: `${merchant}/hosted-pages/:reference`,
    tag: tags.configurations,
    summary: 'One hosted payment page',
    response: configurationSchemas.hostedPageAnswer,
  },
  {
    method: 'POST',
    path: `${merchant}/hosted-pages`,
    tag: tags.configurations,
    summary: 'Create a hosted payment page',
    body: configurationSchemas.hostedPageCreateBody,
    response: configurationSchemas.hostedPageAnswer,
    status: 201,
  },
  {
    method: 'PUT',
    path: `${merchant}/hosted-pages/:reference`,
    tag: tags.configurations,
    summary: 'Change a hosted payment page',
    body: configurationSchemas.hostedPageUpdateBody,
    response: configurationSchemas.hostedPageAnswer,
  },
  {
    method: 'DELETE',
    path: `${merchant}/hosted-pages/:reference`,
    tag: tags.configurations,
    summary: 'Delete a hosted payment page',
    query: versionQuery,
    response: 'none',
  },
  {
    method: 'GET',
    path: paymentMethodPath,
    tag: tags.configurations,
    summary: 'A payment method’s settings in a configuration',
    response: configurationSchemas.paymentMethodAnswer,
  },
  {
    method: 'PUT',
    path: paymentMethodPath,
    tag: tags.configurations,
    summary: 'Change a payment method’s settings',
    body: configurationSchemas.paymentMethodUpdateBody,
    response: configurationSchemas.paymentMethodAnswer,
  },
);

// Images (images.ts) and API keys (api-keys.ts)
add({
  method: 'GET',
  path: '/images/:imageReference',
  tag: tags.images,
  summary: 'An uploaded image (public: shown by <img> tags)',
  response: { file: 'image/*' },
  public: true,
});
at([business, merchant, `${merchant}/configurations/:configurationId`], (prefix) => [
  {
    method: 'POST',
    path: `${prefix}/images`,
    tag: tags.images,
    summary: 'Upload an image (base64, up to 5 MB)',
    body: configurationSchemas.imageUploadBody,
    response: configurationSchemas.imageUploadAnswer,
    status: 201,
  },
  { method: 'DELETE', path: `${prefix}/images/:imageReference`, tag: tags.images, summary: 'Delete an image', response: 'none' },
]);
const keys = `${merchant}/configurations/:configurationId/api-keys`;
add(
  { method: 'GET', path: keys, tag: tags.apiKeys, summary: 'API keys of a configuration', response: configurationSchemas.apiKeyList },
  {
    method: 'POST',
    path: keys,
    tag: tags.apiKeys,
    summary: 'Create an API key (its secret is shown once)',
    body: configurationSchemas.apiKeyCreateBody,
    response: configurationSchemas.apiKeyCreated,
    status: 201,
  },
  {
    method: 'POST',
    path: `${keys}/:keyId/replacement`,
    tag: tags.apiKeys,
    summary: 'Start replacing a key',
    response: configurationSchemas.apiKeyCreated,
    status: 201,
  },
  {
    method: 'POST',
    path: `${keys}/:keyId/replacement/complete`,
    tag: tags.apiKeys,
    summary: 'Finish a replacement: when the old key stops',
    body: configurationSchemas.apiKeyReplacementCompleteBody,
    response: configurationSchemas.apiKeyReplacementCompleted,
  },
  { method: 'DELETE', path: `${keys}/:keyId`, tag: tags.apiKeys, summary: 'Revoke an API key', response: 'none' },
);

// The settlement ledger (account-groups.ts)
const group = `${merchant}/merchant-accountgroups/:accountNumber`;
const businessGroup = `${business}/business-accountgroups/:accountNumber`;
const categoryOnly: ListQuerySpec = { ...movementListSpec, filters: { category: movementListSpec.filters.category as never } };
add(
  {
    method: 'GET',
    path: `${business}/merchant-accountgroups`,
    tag: tags.ledger,
    summary: 'Answers 404: merchant account groups are read per merchant',
    response: ledgerSchemas.merchantAccountGroupList,
  },
  {
    method: 'GET',
    path: `${merchant}/merchant-accountgroups`,
    tag: tags.ledger,
    summary: 'Account groups of a merchant',
    response: ledgerSchemas.merchantAccountGroupList,
  },
  { method: 'GET', path: group, tag: tags.ledger, summary: 'One account group and its balances', response: ledgerSchemas.merchantAccountGroup },
  {
    method: 'GET',
    path: `${group}/statements/:kind`,
    tag: tags.ledger,
    summary: 'Statement of one account of the group',
    query: movementListSpec,
    response: ledgerSchemas.accountStatement,
  },
  {
    method: 'GET',
    path: `${group}/statements/:kind/balances`,
    tag: tags.ledger,
    summary: 'Daily balances of one account',
    query: movementListSpec,
    response: ledgerSchemas.dailyBalances,
  },
  {
    method: 'GET',
    path: `${group}/statements/:kind/camt053`,
    tag: tags.ledger,
    summary: 'The statement as ISO 20022 camt.053',
    query: movementListSpec,
    response: { file: 'application/xml' },
  },
  {
    method: 'GET',
    path: `${group}/costs`,
    tag: tags.ledger,
    summary: 'Statement of the costs account',
    query: movementListSpec,
    response: ledgerSchemas.accountStatement,
  },
  {
    method: 'POST',
    path: `${group}/statements/:kind/reports`,
    tag: tags.ledger,
    summary: 'Queue a statement report',
    body: ledgerSchemas.ledgerReportBody,
    response: ledgerSchemas.ledgerReportQueued,
    status: 202,
  },
  {
    method: 'POST',
    path: `${group}/costs/reports`,
    tag: tags.ledger,
    summary: 'Queue a costs report',
    body: ledgerSchemas.ledgerReportBody,
    response: ledgerSchemas.ledgerReportQueued,
    status: 202,
  },
  {
    method: 'GET',
    path: `${group}/transfers`,
    tag: tags.ledger,
    summary: 'Transfers of the group',
    query: transferListSpec,
    response: ledgerSchemas.ledgerTransferList,
  },
  {
    method: 'POST',
    path: `${group}/transfers/reports`,
    tag: tags.ledger,
    summary: 'Queue a transfers report',
    body: ledgerSchemas.ledgerReportBody,
    response: ledgerSchemas.ledgerReportQueued,
    status: 202,
  },
  {
    method: 'GET',
    path: `${group}/batches`,
    tag: tags.ledger,
    summary: 'Settlement batches of the group',
    query: batchListSpec,
    response: ledgerSchemas.settlementBatchList,
  },
  {
    method: 'POST',
    path: `${group}/batches/reports`,
    tag: tags.ledger,
    summary: 'Queue a settlement batch overview',
    body: ledgerSchemas.ledgerReportBody,
    response: ledgerSchemas.ledgerReportQueued,
    status: 202,
  },
  {
    method: 'GET',
    path: `${group}/batches/:batchId`,
    tag: tags.ledger,
    summary: 'One settlement batch and its movements',
    query: categoryOnly,
    response: ledgerSchemas.settlementBatchDetail,
  },
  {
    method: 'POST',
    path: `${group}/batches/:batchId/reports`,
    tag: tags.ledger,
    summary: 'Queue a settlement batch report',
    body: ledgerSchemas.ledgerReportBody,
    response: ledgerSchemas.ledgerReportQueued,
    status: 202,
  },
  {
    method: 'POST',
    path: `${group}/batches/:batchId/settlement-details/reports`,
    tag: tags.ledger,
    summary: 'Queue the settlement details of a batch: one row per transaction (CSV, XLSX)',
    body: ledgerSchemas.ledgerReportBody,
    response: ledgerSchemas.ledgerReportQueued,
    status: 202,
  },
  {
    method: 'POST',
    path: `${group}/settlement-details/reports`,
    tag: tags.ledger,
    summary: 'Queue the settlement details of a period’s batches (default: this month): one row per transaction (CSV, XLSX)',
    body: ledgerSchemas.ledgerReportBody,
    response: ledgerSchemas.ledgerReportQueued,
    status: 202,
  },
  {
    method: 'GET',
    path: `${business}/business-accountgroups`,
    tag: tags.ledger,
    summary: 'Account groups of a business',
    response: ledgerSchemas.businessAccountGroupList,
  },
  { method: 'GET', path: businessGroup, tag: tags.ledger, summary: 'One business account group', response: ledgerSchemas.businessAccountGroup },
  {
    method: 'GET',
    path: `${businessGroup}/statement`,
    tag: tags.ledger,
    summary: 'Statement of the business account',
    query: movementListSpec,
    response: ledgerSchemas.accountStatement,
  },
  {
    method: 'GET',
    path: `${businessGroup}/statement/balances`,
    tag: tags.ledger,
    summary: 'Daily balances of the business account',
    query: movementListSpec,
    response: ledgerSchemas.dailyBalances,
  },
  {
    method: 'GET',
    path: `${businessGroup}/statement/camt053`,
    tag: tags.ledger,
    summary: 'The business statement as ISO 20022 camt.053',
    query: movementListSpec,
    response: { file: 'application/xml' },
  },
  {
    method: 'POST',
    path: `${businessGroup}/statement/reports`,
    tag: tags.ledger,
    summary: 'Queue a business statement report',
    body: ledgerSchemas.ledgerReportBody,
    response: ledgerSchemas.ledgerReportQueued,
    status: 202,
  },
  {
    method: 'GET',
    path: `${businessGroup}/remittance`,
    tag: tags.ledger,
    summary: 'The automatic remittance of the group',
    response: ledgerSchemas.remittance,
  },
  {
    method: 'POST',
    path: `${businessGroup}/remittance`,
    tag: tags.ledger,
    summary: 'Change the automatic remittance',
    body: ledgerSchemas.remittanceUpdateBody,
    response: ledgerSchemas.remittance,
  },
  {
    method: 'GET',
    path: `${businessGroup}/transfers`,
    tag: tags.ledger,
    summary: 'Transfers of the business group',
    query: transferListSpec,
    response: ledgerSchemas.ledgerTransferList,
  },
  {
    method: 'GET',
    path: `${businessGroup}/transfers/:transferId`,
    tag: tags.ledger,
    summary: 'One business transfer: its remittance text and the payouts it pays',
    response: ledgerSchemas.transferDetail,
  },
  {
    method: 'POST',
    path: `${businessGroup}/transfers/reports`,
    tag: tags.ledger,
    summary: 'Queue a business transfers report',
    body: ledgerSchemas.ledgerReportBody,
    response: ledgerSchemas.ledgerReportQueued,
    status: 202,
  },
  {
    method: 'GET',
    path: '/ledger/internal-accounts',
    tag: tags.ledger,
    summary: 'The platform’s internal accounts (internal staff)',
    response: ledgerSchemas.internalAccountList,
  },
  { method: 'GET', path: `${business}/pricing-plan`, tag: tags.ledger, summary: 'The business’s pricing plans', response: ledgerSchemas.pricingPlanList },
);

// Customers (customers.ts), beneficiaries and screening (beneficiaries.ts), watch list (watch-list.ts)
const customers = `${merchant}/customers`;
const beneficiaries = `${business}/beneficiaries`;
// The lists declared once under each context they serve (context-lists.ts).
add(
  ...contextLists.flatMap((list) =>
    list.contexts.map(
      (kind): Operation => ({
        method: 'GET',
        path: contextListPath(kind, list.path),
        tag: list.openApi.tag,
        summary: list.openApi.summaries[kind] ?? list.path,
        query: list.resource.spec,
        response: list.openApi.response,
      }),
    ),
  ),
);
add(
  { method: 'GET', path: `${customers}/:customerId`, tag: tags.customers, summary: 'One customer', response: customerSchemas.customer },
  {
    method: 'POST',
    path: customers,
    tag: tags.customers,
    summary: 'Store a customer',
    body: customerSchemas.customerBody,
    response: customerSchemas.customer,
    status: 201,
  },
  {
    method: 'PUT',
    path: `${customers}/:customerId`,
    tag: tags.customers,
    summary: 'Change a customer',
    body: customerSchemas.customerUpdateBody,
    response: customerSchemas.customer,
  },
  { method: 'DELETE', path: `${customers}/:customerId`, tag: tags.customers, summary: 'Erase a customer and their data', response: 'none' },
  {
    method: 'GET',
    path: `${customers}/:customerId/data`,
    tag: tags.customers,
    summary: 'Data kept about a customer',
    response: customerSchemas.customerDataList,
  },
  { method: 'DELETE', path: `${customers}/:customerId/data/:dataId`, tag: tags.customers, summary: 'Erase one data item', response: 'none' },
  {
    method: 'GET',
    path: `${customers}/:customerId/export`,
    tag: tags.customers,
    summary: 'Everything kept about a customer (subject access)',
    response: { file: 'application/json' },
  },
  {
    method: 'GET',
    path: beneficiaries,
    tag: tags.beneficiaries,
    summary: 'Beneficiaries of a business',
    query: beneficiaryListSpec,
    response: beneficiarySchemas.beneficiaryList,
  },
  {
    method: 'GET',
    path: `${beneficiaries}/:beneficiaryId`,
    tag: tags.beneficiaries,
    summary: 'One beneficiary and its screening alerts',
    response: beneficiarySchemas.beneficiary,
  },
  {
    method: 'POST',
    path: beneficiaries,
    tag: tags.beneficiaries,
    summary: 'Add a beneficiary (screened at once)',
    body: beneficiarySchemas.beneficiaryBody,
    response: beneficiarySchemas.beneficiary,
    status: 201,
  },
  {
    method: 'PUT',
    path: `${beneficiaries}/:beneficiaryId`,
    tag: tags.beneficiaries,
    summary: 'Change a beneficiary (screened again)',
    body: beneficiarySchemas.beneficiaryUpdateBody,
    response: beneficiarySchemas.beneficiary,
  },
  {
    method: 'PUT',
    path: `${beneficiaries}/:beneficiaryId/status`,
    tag: tags.beneficiaries,
    summary: 'Approve or reject a beneficiary (four eyes)',
    body: beneficiarySchemas.beneficiaryStatusBody,
    response: beneficiarySchemas.beneficiary,
  },
  {
    method: 'PUT',
    path: `${beneficiaries}/:beneficiaryId/alerts/:alertId`,
    tag: tags.beneficiaries,
    summary: 'Confirm or dismiss a screening alert',
    body: beneficiarySchemas.alertDecisionBody,
    response: beneficiarySchemas.beneficiary,
  },
  {
    method: 'GET',
    path: '/beneficiary-approvals',
    tag: tags.beneficiaries,
    summary: 'Beneficiaries awaiting approval in every business the caller reads',
    query: beneficiaryApprovalListSpec,
    response: beneficiarySchemas.beneficiaryApprovalList,
  },
  {
    method: 'GET',
    path: '/screening-alerts',
    tag: tags.beneficiaries,
    summary: 'Every business’s screening alerts (risk analysts)',
    query: screeningAlertListSpec,
    response: beneficiarySchemas.screeningAlertList,
  },
  { method: 'GET', path: '/screening/settings', tag: tags.beneficiaries, summary: 'The screening sensitivity', response: beneficiarySchemas.screeningSettings },
  {
    method: 'PUT',
    path: '/screening/settings',
    tag: tags.beneficiaries,
    summary: 'Change the screening sensitivity',
    body: beneficiarySchemas.screeningSettingsBody,
    response: beneficiarySchemas.screeningSettings,
  },
  {
    method: 'GET',
    path: '/account-watch-list',
    tag: tags.watchList,
    summary: 'Merchants on the watch list (internal staff)',
    query: watchListSpec,
    response: watchListSchemas.watchListList,
  },
  {
    method: 'GET',
    path: '/account-watch-list/:merchantId',
    tag: tags.watchList,
    summary: 'One watched merchant, its signals and notes',
    response: watchListSchemas.watchListEntryDetail,
  },
  {
    method: 'PUT',
    path: '/account-watch-list/:merchantId/status',
    tag: tags.watchList,
    summary: 'Acknowledge or clear a watched merchant',
    body: watchListSchemas.watchStatusBody,
    response: watchListSchemas.watchListEntryDetail,
  },
  {
    method: 'POST',
    path: '/account-watch-list/:merchantId/notes',
    tag: tags.watchList,
    summary: 'Note on a watched merchant',
    body: watchListSchemas.watchNoteBody,
    response: watchListSchemas.watchListNote,
    status: 201,
  },
  {
    method: 'POST',
    path: '/account-watch-list/:merchantId/ticket',
    tag: tags.watchList,
    summary: 'Escalate a watched merchant to a support ticket in its business',
    body: watchListSchemas.watchEscalateBody,
    response: watchListSchemas.watchEscalation,
    status: 201,
  },
);

// Live events (events/event-routes.ts), virtual terminal (virtual-terminal.ts)
const terminal = `${merchant}/configurations/:configurationId/virtual-terminal`;
add(
  {
    method: 'GET',
    path: '/events',
    tag: tags.events,
    summary: 'Server-sent events of changes the caller may see',
    query: [
      { name: 'lastEventId', schema: type(eventIdPattern) },
      { name: 'replayMs', schema: type(replayMsPattern) },
    ],
    response: 'event-stream',
  },
  {
    method: 'GET',
    path: `${terminal}/settings`,
    tag: tags.virtualTerminal,
    summary: 'Virtual terminal settings of a configuration',
    response: virtualTerminalSchemas.virtualTerminalSettingsAnswer,
  },
  {
    method: 'PUT',
    path: `${terminal}/settings`,
    tag: tags.virtualTerminal,
    summary: 'Change the virtual terminal settings',
    body: virtualTerminalSchemas.virtualTerminalSettingsBody,
    response: virtualTerminalSchemas.virtualTerminalSettingsAnswer,
  },
  {
    method: 'POST',
    path: `${terminal}/orders`,
    tag: tags.virtualTerminal,
    summary: 'Take a card payment (mail or telephone order)',
    body: virtualTerminalSchemas.virtualTerminalOrderBody,
    response: virtualTerminalSchemas.virtualTerminalOrderAnswer,
    status: 201,
  },
  {
    method: 'POST',
    path: `${terminal}/orders/:paymentJobReference/attempts`,
    tag: tags.virtualTerminal,
    summary: 'Try a declined order again (a new payment on the same payment job)',
    body: virtualTerminalSchemas.virtualTerminalAttemptBody,
    response: virtualTerminalSchemas.virtualTerminalOrderAnswer,
    status: 201,
  },
  {
    method: 'GET',
    path: `${terminal}/customers/:customerId/saved-cards`,
    tag: tags.virtualTerminal,
    summary: 'Saved cards of a stored customer',
    response: virtualTerminalSchemas.savedCardList,
  },
  {
    method: 'DELETE',
    path: `${terminal}/customers/:customerId/saved-cards/:savedCardId`,
    tag: tags.virtualTerminal,
    summary: 'Forget a saved card',
    response: 'none',
  },
);

// Partners and commission (partners.ts), billing (billing.ts), step-up (step-up.ts), bulk jobs (bulk-jobs.ts)
const invoice = '/billing/invoices/:invoiceId';
add(
  {
    method: 'GET',
    path: '/partners',
    tag: tags.partners,
    summary: 'Partners (filtered, sorted, paged)',
    query: partnerListSpec,
    response: partnerSchemas.partnerList,
  },
  { method: 'GET', path: partner, tag: tags.partners, summary: 'One partner with its counts and commission plans', response: partnerSchemas.partnerDetail },
  {
    method: 'GET',
    path: `${partner}/businesses`,
    tag: tags.partners,
    summary: 'Businesses of a partner',
    query: partnerBusinessListSpec,
    response: configurationSchemas.businessList,
  },
  {
    method: 'GET',
    path: `${partner}/commission-plans`,
    tag: tags.partners,
    summary: 'Commission plans of a partner',
    response: partnerSchemas.commissionPlanList,
  },
  {
    method: 'GET',
    path: `${partner}/commission-plans/:planId`,
    tag: tags.partners,
    summary: 'One commission plan, its rules and the commission earned per month',
    response: partnerSchemas.commissionPlanDetail,
  },
  {
    method: 'GET',
    path: `${partner}/commission-plans/:planId/transactions`,
    tag: tags.partners,
    summary: 'One month’s commission per transaction (paged), with the month’s totals',
    query: [
      { name: 'month', schema: type(/^\d{4}-(0[1-9]|1[0-2])$/), description: 'YYYY-MM (default: this month)' },
      { name: 'currency', schema: type(/^[A-Z]{3}$/), description: 'default: every currency' },
      ...pageParameters,
    ],
    response: partnerSchemas.commissionTransactionList,
  },
  {
    method: 'POST',
    path: `${partner}/commission-plans`,
    tag: tags.partners,
    summary: 'Create a commission plan with its rules',
    body: partnerSchemas.commissionPlanCreateBody,
    response: partnerSchemas.commissionPlanDetail,
    status: 201,
  },
  {
    method: 'PUT',
    path: `${partner}/commission-plans/:planId`,
    tag: tags.partners,
    summary: 'Change a commission plan and its rules (version rule)',
    body: partnerSchemas.commissionPlanUpdateBody,
    response: partnerSchemas.commissionPlanDetail,
  },
  {
    method: 'DELETE',
    path: `${partner}/commission-plans/:planId`,
    tag: tags.partners,
    summary: 'Delete a commission plan that has not started (version rule)',
    query: versionQuery,
    response: 'none',
  },
  {
    method: 'POST',
    path: `${partner}/declines`,
    tag: tags.partners,
    summary: 'Decline reasons over a period, broken down by business',
    body: partnerSchemas.partnerDeclinesRequest,
    response: partnerSchemas.partnerDeclines,
  },
  {
    method: 'GET',
    path: '/billing/runs',
    tag: tags.billing,
    summary: 'Billing runs (newest month first)',
    query: runListSpec,
    response: billingSchemas.billingRunList,
  },
  {
    method: 'POST',
    path: '/billing/runs/preview',
    tag: tags.billing,
    summary: 'The draft invoices a run of a month would issue',
    body: billingSchemas.billingMonthBody,
    response: billingSchemas.billingPreview,
  },
  {
    method: 'POST',
    path: '/billing/runs',
    tag: tags.billing,
    summary: 'Bill a month that has ended (once per month)',
    body: billingSchemas.billingMonthBody,
    response: billingSchemas.createdBillingRun,
    status: 201,
  },
  {
    method: 'GET',
    path: '/billing/invoices',
    tag: tags.billing,
    summary: 'Invoices and credit notes (filtered, sorted, paged)',
    query: invoiceListSpec,
    response: billingSchemas.invoiceList,
  },
  { method: 'GET', path: invoice, tag: tags.billing, summary: 'One invoice or credit note with its lines', response: billingSchemas.invoiceDetail },
  { method: 'GET', path: `${invoice}/pdf`, tag: tags.billing, summary: 'An invoice or credit note as PDF', response: { file: 'application/pdf' } },
  {
    method: 'PUT',
    path: `${invoice}/status`,
    tag: tags.billing,
    summary: 'Mark an invoice paid',
    body: billingSchemas.invoiceStatusBody,
    response: billingSchemas.invoiceDetail,
  },
  {
    method: 'POST',
    path: `${invoice}/credit-notes`,
    tag: tags.billing,
    summary: 'Credit an invoice (all or part of what is left)',
    body: billingSchemas.creditNoteBody,
    response: billingSchemas.invoiceDetail,
    status: 201,
  },
  {
    method: 'GET',
    path: `${business}/invoices`,
    tag: tags.billing,
    summary: 'The business’s own invoices',
    query: businessInvoiceListSpec,
    response: billingSchemas.invoiceList,
  },
  {
    method: 'GET',
    path: `${business}/invoices/:invoiceId/pdf`,
    tag: tags.billing,
    summary: 'One of the business’s invoices as PDF',
    response: { file: 'application/pdf' },
  },
  {
    method: 'POST',
    path: '/user/step-up',
    tag: tags.user,
    summary: 'Confirm it is you (password, and code) before a sensitive action',
    body: userSchemas.stepUpBody,
    response: userSchemas.stepUpAnswer,
  },
  {
    method: 'POST',
    path: '/bulk-jobs',
    tag: tags.bulkJobs,
    summary: 'Start a bulk action over a selection (Idempotency-Key: a retry answers the first job)',
    body: bulkJobSchemas.createBulkJobBody,
    response: bulkJobSchemas.createdBulkJob,
    status: 202,
  },
  { method: 'GET', path: '/bulk-jobs', tag: tags.bulkJobs, summary: 'The caller’s latest bulk jobs', response: bulkJobSchemas.bulkJobList },
  { method: 'GET', path: '/bulk-jobs/:jobId', tag: tags.bulkJobs, summary: 'One bulk job and its progress', response: bulkJobSchemas.bulkJobSchema },
  {
    method: 'POST',
    path: '/bulk-jobs/:jobId/cancel',
    tag: tags.bulkJobs,
    summary: 'Cancel a bulk job (items already done stay done)',
    response: bulkJobSchemas.bulkJobSchema,
  },
  {
    method: 'GET',
    path: '/bulk-jobs/:jobId/result',
    tag: tags.bulkJobs,
    summary: 'The result file of an ended job (CSV of the items that failed and why)',
    response: { file: 'text/csv' },
  },
);

// Filter presets in the database and the overview's totals (server/api/filter-presets.ts, transactions.ts)
const presetPage: QueryParameter = {
  name: 'page',
  schema: type(presetPagePattern),
  required: true,
  description: 'the page the presets filter, such as transactions',
};
add(
  {
    method: 'GET',
    path: '/filter-presets',
    tag: tags.transactions,
    summary: 'The presets the caller may use on a page (personal, shared with the business, with a role)',
    query: [presetPage, { name: 'businessId', schema: type('string <= 64') }],
    response: filterPresetSchemas.storedPresetList,
  },
  {
    method: 'POST',
    path: '/filter-presets',
    tag: tags.transactions,
    summary: 'Save a personal (or, for internal staff, a role) preset',
    body: filterPresetSchemas.personalPresetBody,
    response: filterPresetSchemas.storedPreset,
    status: 201,
  },
  {
    method: 'GET',
    path: `${business}/filter-presets`,
    tag: tags.transactions,
    summary: 'The presets shared with a business on a page',
    query: [presetPage],
    response: filterPresetSchemas.storedPresetList,
  },
  {
    method: 'POST',
    path: `${business}/filter-presets`,
    tag: tags.transactions,
    summary: 'Share a preset with everyone on a business',
    body: filterPresetSchemas.businessPresetBody,
    response: filterPresetSchemas.storedPreset,
    status: 201,
  },
  {
    method: 'PUT',
    path: '/filter-presets/:presetId',
    tag: tags.transactions,
    summary: 'Change a preset (its owner or an admin; 409 when stale)',
    body: filterPresetSchemas.presetUpdateBody,
    response: filterPresetSchemas.storedPreset,
  },
  {
    method: 'DELETE',
    path: '/filter-presets/:presetId',
    tag: tags.transactions,
    summary: 'Remove a preset (its owner or an admin)',
    query: versionQuery,
    response: 'none',
  },
);
at(['', business, merchant, partner], (prefix) => [
  {
    method: 'GET',
    path: `${prefix}/transactions/totals`,
    tag: tags.transactions,
    summary: 'Totals of the matching transactions in one currency, as the dashboard counts them',
    query: transactionListSpec,
    response: transactionSchemas.transactionTotals,
  },
]);

// This document (openapi.ts)
add({
  method: 'GET',
  path: '/openapi.json',
  tag: tags.reference,
  summary: 'This API reference as an OpenAPI 3.1 document',
  response: openApiSchemas.openApiDocument,
});

export const portalOperations: readonly Operation[] = ops;
export const operationTags: readonly string[] = Object.values(tags);
export const errorReportSchema = errors.errorReportSchema;
