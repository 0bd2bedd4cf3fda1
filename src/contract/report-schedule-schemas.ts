// Scheduled statements' schemas (arktype): the body that creates one, the change that pauses or resumes one, and
// the answers. Rules and constants: report-schedules.ts.
import { type } from 'arktype';
import { ledgerReportFileTypes } from './ledger.ts';
import { scheduleFrequencies, schedulableReportTypes } from './report-schedules.ts';
import { exportFileTypes, transactionColumns } from './transactions.ts';

const transactionOrdering = type({ '+': 'reject', OrderingField: 'string <= 32', OrderingDirection: "'Ascending' | 'Descending'" });

const timingFields = {
  frequency: type.enumerated(...scheduleFrequencies),
  'weekday?': '1 <= number.integer <= 7',
  'dayOfMonth?': '1 <= number.integer <= 31',
  hour: '0 <= number.integer <= 23',
  timeZone: '0 < string <= 64',
  emailWhenReady: 'boolean',
} as const;

/** A statement or ledger report of one account group. */
export const statementScheduleBody = type({
  '+': 'reject',
  reportType: type.enumerated(...schedulableReportTypes),
  fileType: type.enumerated(...ledgerReportFileTypes),
  businessId: '0 < string <= 64',
  'merchantId?': '0 < string <= 64',
  accountNumber: '0 < string <= 40',
  ...timingFields,
});
export type StatementScheduleBody = typeof statementScheduleBody.infer;

/**
 * A transactions export of a business, a merchant (businessId and merchantId) or a partner's businesses (partnerId):
 * the overview's filters (as POST …/full/reports takes them), columns and sort.
 */
export const transactionsScheduleBody = type({
  '+': 'reject',
  reportType: "'transactions'",
  fileType: type.enumerated(...exportFileTypes),
  'businessId?': '0 < string <= 64',
  'merchantId?': '0 < string <= 64',
  'partnerId?': '0 < string <= 64',
  columns: type
    .enumerated(...transactionColumns)
    .array()
    .atLeastLength(1)
    .atMostLength(transactionColumns.length),
  'filters?': type({ '[string]': 'string <= 512' }),
  /** the overview's sort, as the export takes it; absent: newest first */
  'ordering?': transactionOrdering,
  ...timingFields,
});
export type TransactionsScheduleBody = typeof transactionsScheduleBody.infer;

export const reportScheduleBody = statementScheduleBody.or(transactionsScheduleBody);
export type ReportScheduleBody = typeof reportScheduleBody.infer;

export const reportScheduleChange = type({ '+': 'reject', paused: 'boolean', version: 'number.integer >= 1' });
export type ReportScheduleChange = typeof reportScheduleChange.infer;

export const reportSchedule = type({
  id: 'string',
  reportType: 'string',
  fileType: "'csv' | 'xlsx' | 'pdf' | 'xml'",
  context: type({ level: "'business' | 'merchant'", businessId: 'string', 'merchantId?': 'string', title: 'string' }).or({
    level: "'partner'",
    partnerId: 'string',
    title: 'string',
  }),
  accountNumber: 'string',
  /** a transactions schedule's columns and filters (the period replaces any date range) */
  'columns?': 'string[]',
  'filters?': type({ '[string]': 'string' }),
  'ordering?': transactionOrdering,
  frequency: type.enumerated(...scheduleFrequencies),
  weekday: 'number | null',
  dayOfMonth: 'number | null',
  hour: 'number',
  timeZone: 'string',
  description: 'string',
  emailWhenReady: 'boolean',
  paused: 'boolean',
  nextRunAt: 'string | null',
  lastRunAt: 'string | null',
  lastOutcome: "'queued' | 'generated' | 'failed' | null",
  lastError: 'string | null',
  lastReportId: 'string | null',
  /** the caller may queue a run now ('Run now'): the report's permissions in its context, as making the schedule checks them */
  mayRunNow: 'boolean',
  version: 'number',
  createdAt: 'string',
});
export type ReportSchedule = typeof reportSchedule.infer;

export const reportScheduleList = type({ results: reportSchedule.array(), numberOfResults: 'number' });
export type ReportScheduleList = typeof reportScheduleList.infer;

/** 'Run now' answered: the queued report (in the owner's report queue) and the period the run covers (the schedule's zone). */
export const reportScheduleRun = type({
  scheduleId: 'string',
  reportId: 'string',
  /** the first and last local day the run covers: the period that just ended, as a timed run's */
  periodFirstDay: 'string',
  periodLastDay: 'string',
  schedule: reportSchedule,
});
export type ReportScheduleRun = typeof reportScheduleRun.infer;
