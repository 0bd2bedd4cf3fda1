// Bulk actions over a selection: what the client sends (a selection described by the overview's filters,
// plus explicit picks), what a job reports (progress, outcome, result file). The server runs every job (server/bulk/).
// The request's schema is in bulk-job-schemas.ts, so commands and screens that need these constants do not load arktype.

export const bulkAreas = ['payment-jobs', 'transactions', 'tickets', 'users'] as const;
export type BulkArea = (typeof bulkAreas)[number];

export const bulkActions = ['export', 'cancel', 'resend-links', 'status', 'assignee', 'lock'] as const;
export type BulkAction = (typeof bulkActions)[number];

/** Which actions each overview offers. */
export const bulkActionsOf: Record<BulkArea, readonly BulkAction[]> = {
  'payment-jobs': ['export', 'cancel', 'resend-links'],
  transactions: ['export'],
  tickets: ['export', 'status', 'assignee'],
  users: ['export', 'lock'],
};

export const bulkActionLabels: Record<BulkAction, string> = {
  export: 'Export',
  cancel: 'Cancel payment jobs',
  'resend-links': 'Resend payment links',
  status: 'Change status',
  assignee: 'Change assignee',
  lock: 'Lock users',
};

export const bulkJobStatuses = ['queued', 'running', 'completed', 'cancelled', 'failed'] as const;
export type BulkJobStatus = (typeof bulkJobStatuses)[number];
export const isBulkJobFinished = (status: BulkJobStatus) => status === 'completed' || status === 'cancelled' || status === 'failed';

/** Explicit picks a selection may carry (ids the browser names); 'all matching' needs none, whatever its size. */
export const maxPickedIds = 1000;
export const maxBulkFilters = 20;
export const maxClientKeyLength = 255;

/** A selection as the server receives it (bulk-job-schemas.ts checks it). */
export type BulkSelection = { allMatching: boolean; filters: Record<string, string>; includedIds: string[]; excludedIds: string[] };
export type BulkContext = { level: 'all' | 'partner' | 'business' | 'merchant'; partnerId?: string; businessId?: string; merchantId?: string };

export type BulkJob = {
  id: string;
  area: BulkArea;
  action: BulkAction;
  status: BulkJobStatus;
  cancelRequested: boolean;
  totalItems: number;
  processedItems: number;
  succeededItems: number;
  failedItems: number;
  createdAt: string;
  finishedAt: string | null;
  /** export: the report in My report queue that holds the file */
  reportId: string | null;
  /** a CSV of every item that failed and why, once the job has ended */
  resultFileName: string | null;
  error: string | null;
};

/** 0–100; a job of no items is done at once. */
export function bulkJobProgress(job: Pick<BulkJob, 'totalItems' | 'processedItems' | 'status'>): number {
  if (job.status === 'completed') return 100;
  if (job.totalItems === 0) return 0;
  return Math.min(100, Math.floor((job.processedItems / job.totalItems) * 100));
}

/** A bulk action's number in pane requests (commands ask the focused table for one by it). */
export const bulkActionIndex = Object.fromEntries(bulkActions.map((action, index) => [action, index])) as Record<BulkAction, number>;
