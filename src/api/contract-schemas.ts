// Every contract schema the browser checks answers against, by name. Only the validation worker
// (validation-worker.ts) imports this module, and the main thread only where no worker can run (tests): arktype
// (46 KB gzip) and building the schemas (about 100 ms of script on the bench machine) stay off the main thread.
// Callers name a schema (validate('transactionList', data)); the names and output types come from here.
import {
  contextBusinessPageSchema,
  contextBusinessSchema,
  contextConfigurationPageSchema,
  contextMerchantPageSchema,
  contextMerchantSchema,
  contextSearchPageSchema,
  recordContextSchema,
} from '../contract/context-responses.ts';
import { breakdownResponseSchema, dashboardResponseSchema, declinesResponseSchema } from '../contract/dashboard.ts';
import { outboxMessageDetail, outboxMessageList } from '../contract/outbox-schemas.ts';
import {
  audienceCandidateList,
  authoredNotification,
  authoredNotificationList,
  createdNotification,
  userNotificationDetail,
  userNotificationList,
} from '../contract/notification-schemas.ts';
import { permissionListSchema, policyStructureSchema, userInfoSchema } from '../contract/policy.ts';
import { queuedReport, queuedReportList } from '../contract/report-schemas.ts';
import { reportSchedule, reportScheduleList, reportScheduleRun } from '../contract/report-schedule-schemas.ts';
import { notificationStatusSchema, recordSearchSchema, searchMerchantsSchema, userSettingSchema } from '../contract/shell-responses.ts';
import {
  apiKeyCreated,
  apiKeyList,
  apiKeyReplacementCompleted,
  businessDetail,
  businessList,
  configurationDetail,
  configurationList,
  hostedPageAnswer,
  hostedPageList,
  imageUploadAnswer,
  merchantDetail,
  merchantList,
  paymentMethodAnswer,
} from '../contract/configuration-schemas.ts';
import {
  accountStatement,
  businessAccountGroup,
  dailyBalances,
  businessAccountGroupList,
  ledgerReportQueued,
  ledgerTransferList,
  merchantAccountGroup,
  merchantAccountGroupList,
  internalAccountList,
  pricingPlanList,
  remittance,
  settlementBatchDetail,
  settlementBatchList,
  transferDetail,
} from '../contract/ledger-schemas.ts';
import { auditEventList, paymentActionAnswer, paymentJobDetail, paymentJobList, paymentTrace } from '../contract/payment-job-schemas.ts';
import {
  invitationPreview,
  invitedUsers,
  recoveryCodes,
  roleGroupList,
  secondFactorEnrolment,
  secondFactorStatus,
  userAuditEvents,
  userDetail,
  userList,
  userSessions,
} from '../contract/user-schemas.ts';
import { cardNumberResponse, queuedExportResponse, transactionCount, transactionDetail, transactionList } from '../contract/transaction-schemas.ts';
import {
  createdComment,
  createdTicket,
  ticketAssignees,
  ticketAttachment,
  ticketComment,
  ticketCommentPage,
  ticketDetail,
  ticketList,
} from '../contract/ticket-schemas.ts';
import { customer, customerDataList, customerList } from '../contract/customer-schemas.ts';
import { beneficiary, beneficiaryApprovalList, beneficiaryList, screeningAlertList, screeningSettings } from '../contract/beneficiary-schemas.ts';
import { watchListEntryDetail, watchListList } from '../contract/watch-list-schemas.ts';
import {
  commissionPlanDetail,
  commissionPlanList,
  commissionTransactionList,
  partnerDeclines,
  partnerDetail,
  partnerList,
} from '../contract/partner-schemas.ts';
import { billingPreview, billingRunList, createdBillingRun, invoiceDetail, invoiceList } from '../contract/billing-schemas.ts';
import { openApiDocument } from '../contract/openapi-schemas.ts';
import { storedPreset, storedPresetList } from '../contract/filter-presets.ts';
import { transactionTotals } from '../contract/transaction-schemas.ts';

export const contractSchemas = {
  policyStructure: policyStructureSchema,
  permissionList: permissionListSchema,
  userInfo: userInfoSchema,
  notificationStatus: notificationStatusSchema,
  userSetting: userSettingSchema,
  recordSearch: recordSearchSchema,
  searchMerchants: searchMerchantsSchema,
  contextBusinessPage: contextBusinessPageSchema,
  contextMerchantPage: contextMerchantPageSchema,
  contextSearchPage: contextSearchPageSchema,
  contextConfigurationPage: contextConfigurationPageSchema,
  contextBusiness: contextBusinessSchema,
  contextMerchant: contextMerchantSchema,
  recordContext: recordContextSchema,
  transactionList,
  transactionCount,
  transactionDetail,
  cardNumber: cardNumberResponse,
  queuedExport: queuedExportResponse,
  queuedReportList,
  queuedReport,
  userNotificationList,
  userNotificationDetail,
  outboxMessageList,
  outboxMessageDetail,
  dashboardResponse: dashboardResponseSchema,
  declinesResponse: declinesResponseSchema,
  breakdownResponse: breakdownResponseSchema,
  ticketList,
  ticketDetail,
  ticketCommentPage,
  ticketComment,
  ticketAttachment,
  ticketAssignees,
  createdTicket,
  createdComment,
  businessList,
  businessDetail,
  merchantList,
  merchantDetail,
  configurationList,
  configurationDetail,
  paymentMethodAnswer,
  hostedPageList,
  hostedPageAnswer,
  imageUpload: imageUploadAnswer,
  apiKeyList,
  apiKeyCreated,
  apiKeyReplacementCompleted,
  merchantAccountGroupList,
  merchantAccountGroup,
  businessAccountGroupList,
  businessAccountGroup,
  accountStatement,
  settlementBatchList,
  settlementBatchDetail,
  ledgerTransferList,
  transferDetail,
  remittance,
  pricingPlanList,
  ledgerReportQueued,
  paymentJobList,
  paymentJobDetail,
  paymentTrace,
  paymentActionAnswer,
  auditEventList,
  userList,
  userDetail,
  invitedUsers,
  invitationPreview,
  roleGroupList,
  secondFactorStatus,
  secondFactorEnrolment,
  recoveryCodes,
  authoredNotificationList,
  authoredNotification,
  createdNotification,
  audienceCandidateList,
  // risk area
  customerList,
  customerDetail: customer,
  customerDataList,
  beneficiaryList,
  beneficiaryDetail: beneficiary,
  screeningAlertList,
  beneficiaryApprovalList,
  screeningSettings,
  watchListList,
  watchListEntryDetail,
  userAuditEvents,
  userSessions,
  dailyBalances,
  // partners
  partnerList,
  partnerDetail,
  commissionPlanList,
  commissionPlanDetail,
  commissionTransactionList,
  partnerDeclines,
  // billing
  billingPreview,
  billingRunList,
  createdBillingRun,
  invoiceList,
  invoiceDetail,
  openApiDocument,
  storedPreset,
  storedPresetList,
  transactionTotals,
  reportSchedule,
  reportScheduleList,
  reportScheduleRun,
  internalAccountList,
};

export type SchemaName = keyof typeof contractSchemas;
/** What a schema hands on after checking (its morphs applied, where it has any). */
export type SchemaOutput<N extends SchemaName> = (typeof contractSchemas)[N]['infer'];

/** Checks an answer against the named schema: its output, or an Error whose message says what is wrong. */
export function checkAgainstContract<N extends SchemaName>(name: N, data: unknown): SchemaOutput<N> {
  const schema = (contractSchemas as Record<string, { assert: (value: unknown) => unknown } | undefined>)[name];
  if (!schema) throw new Error(`there is no contract schema named ${String(name)}`);
  return schema.assert(data) as SchemaOutput<N>;
}
