// The report queue (My report queue, /reporting-overview): queued exports, their progress, expiry and files.
import { ledgerReportTypes } from './ledger.ts';

export const reportStatuses = ['queued', 'generating', 'generated', 'failed', 'cancelled'] as const;
export type ReportStatus = (typeof reportStatuses)[number];
/** What a person sees: a generated report past its expiry shows Expired. */
export type ReportState = ReportStatus | 'expired';

export const reportExpiryDays = 14;
export const reportExpiryMs = reportExpiryDays * 24 * 60 * 60 * 1000;
/** A job whose lease lapses this many times (a node died while generating it) is given up as failed. */
export const maxReportAttempts = 3;

// The queue's answers' schemas (arktype) live in report-schemas.ts, so the queue's screen does not load arktype
// on the main thread (answers are checked in the validation worker).

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

export const reportTypeLabels: Record<string, string> = {
  transactions: 'Transactions',
  'payment-jobs': 'Payment jobs',
  tickets: 'Tickets',
  users: 'Users',
  ...ledgerReportTypes,
};
