// The report queue (My report queue, /reporting-overview): queued exports, their progress, expiry and files.
import { type } from 'arktype';
import { pageSizes } from './list-query.ts';

export const reportStatuses = ['queued', 'generating', 'generated', 'failed', 'cancelled'] as const;
export type ReportStatus = (typeof reportStatuses)[number];
/** What a person sees: a generated report past its expiry shows Expired. */
export type ReportState = ReportStatus | 'expired';

export const reportExpiryDays = 14;
export const reportExpiryMs = reportExpiryDays * 24 * 60 * 60 * 1000;
/** A job whose lease lapses this many times (a node died while generating it) is given up as failed. */
export const maxReportAttempts = 3;

export const reportContext = type({
  level: "'all' | 'partner' | 'business' | 'merchant'",
  'partnerId?': 'string',
  'businessId?': 'string',
  'merchantId?': 'string',
  /** the business, merchant or partner name at queue time, for display */
  title: 'string',
  /** the IANA zone the date filters were given in */
  timeZone: 'string',
});
export type ReportContext = typeof reportContext.infer;

export const queuedReport = type({
  id: 'string',
  reportType: 'string',
  fileType: "'csv' | 'xlsx' | 'pdf'",
  status: type.enumerated(...reportStatuses),
  state: type.enumerated(...reportStatuses, 'expired'),
  context: reportContext,
  filters: type({ '[string]': 'string' }),
  ordering: type({ OrderingField: 'string', OrderingDirection: "'Ascending' | 'Descending'" }).or('null'),
  columns: 'string[]',
  startDate: 'string | null',
  endDate: 'string | null',
  totalRows: 'number | null',
  processedRows: 'number',
  attempts: 'number',
  queuedAt: 'string',
  generatedAt: 'string | null',
  expirationDateTime: 'string | null',
  deletedAt: 'string | null',
  fileName: 'string | null',
  fileSize: 'number | null',
  error: 'string | null',
});
export type QueuedReport = typeof queuedReport.infer;

export const queuedReportList = type({ results: queuedReport.array(), numberOfResults: 'number' });
export type QueuedReportList = typeof queuedReportList.infer;

export const reportListPageSizes = pageSizes;

/** Expired when its expiry is in the past; with no explicit expiry, 14 days after generation. */
export function reportState(report: { status: ReportStatus; generatedAt: string | null; expirationDateTime: string | null }, now: Date): ReportState {
  if (report.status !== 'generated') return report.status;
  const expiry = report.expirationDateTime ?? (report.generatedAt ? new Date(Date.parse(report.generatedAt) + reportExpiryMs).toISOString() : null);
  return expiry !== null && Date.parse(expiry) <= now.getTime() ? 'expired' : 'generated';
}

/** Whether a list still has work in progress (the queue page polls while it does). */
export const hasReportsInProgress = (reports: readonly { status: ReportStatus }[]) =>
  reports.some((report) => report.status === 'queued' || report.status === 'generating');

/** 0–100 while generating; null when the total is unknown. */
export function reportProgress(report: { totalRows: number | null; processedRows: number; status: ReportStatus }): number | null {
  if (report.status === 'generated') return 100;
  if (report.totalRows === null) return null;
  if (report.totalRows === 0) return report.status === 'generating' ? 0 : null;
  return Math.min(100, Math.floor((report.processedRows / report.totalRows) * 100));
}

export const reportStateLabels: Record<ReportState, string> = {
  queued: 'Queued',
  generating: 'Generating',
  generated: 'Ready',
  failed: 'Failed',
  cancelled: 'Cancelled',
  expired: 'Expired',
};

export const reportTypeLabels: Record<string, string> = { transactions: 'Transactions' };
