// Every contract schema the browser checks answers against, by name. Only the validation worker
// (validation-worker.ts) imports this module, and the main thread only where no worker can run (tests): arktype
// (46 KB gzip) and building the schemas (about 100 ms of script on the bench machine) stay off the main thread.
// Callers name a schema (validate('transactionList', data)); the names and output types come from here.
import { contextBusinessPageSchema, contextBusinessSchema, contextConfigurationPageSchema, contextMerchantPageSchema, contextMerchantSchema, contextSearchPageSchema } from '../contract/context-responses.ts';
import { dashboardResponseSchema, declinesResponseSchema } from '../contract/dashboard.ts';
import { userNotificationDetail, userNotificationList } from '../contract/notification-schemas.ts';
import { permissionListSchema, policyStructureSchema, userInfoSchema } from '../contract/policy.ts';
import { queuedReport, queuedReportList } from '../contract/report-schemas.ts';
import { notificationStatusSchema, recordSearchSchema, userSettingSchema } from '../contract/shell-responses.ts';
import {
  accountStatement, businessAccountGroup, dailyBalances, businessAccountGroupList, ledgerReportQueued, ledgerTransferList, merchantAccountGroup, merchantAccountGroupList,
  pricingPlanList, remittance, settlementBatchDetail, settlementBatchList,
} from '../contract/ledger-schemas.ts';
import { cardNumberResponse, queuedExportResponse, transactionCount, transactionDetail, transactionList } from '../contract/transaction-schemas.ts';

export const contractSchemas = {
  policyStructure: policyStructureSchema,
  permissionList: permissionListSchema,
  userInfo: userInfoSchema,
  notificationStatus: notificationStatusSchema,
  userSetting: userSettingSchema,
  recordSearch: recordSearchSchema,
  contextBusinessPage: contextBusinessPageSchema,
  contextMerchantPage: contextMerchantPageSchema,
  contextSearchPage: contextSearchPageSchema,
  contextConfigurationPage: contextConfigurationPageSchema,
  contextBusiness: contextBusinessSchema,
  contextMerchant: contextMerchantSchema,
  transactionList,
  transactionCount,
  transactionDetail,
  cardNumber: cardNumberResponse,
  queuedExport: queuedExportResponse,
  queuedReportList,
  queuedReport,
  userNotificationList,
  userNotificationDetail,
  dashboardResponse: dashboardResponseSchema,
  declinesResponse: declinesResponseSchema,
  merchantAccountGroupList,
  merchantAccountGroup,
  businessAccountGroupList,
  businessAccountGroup,
  accountStatement,
  settlementBatchList,
  settlementBatchDetail,
  ledgerTransferList,
  remittance,
  pricingPlanList,
  ledgerReportQueued,
  dailyBalances,
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
