// Bulk jobs: start one over a table's selection, follow it (the events stream's 'bulk-jobs' events
// refresh it, with a slow poll as the fallback while it runs), cancel it, download its result file.
import { queryOptions } from '@tanstack/react-query';
import { api } from '../../src/api/api-client.ts';
import { isBulkJobFinished, type BulkAction, type BulkArea, type BulkContext, type BulkJob, type BulkSelection } from '../../src/contract/bulk-jobs.ts';

function asBulkJob(value: unknown): BulkJob {
  const job = value as BulkJob;
  if (!job || typeof job.id !== 'string' || typeof job.status !== 'string' || typeof job.totalItems !== 'number')
    throw new Error('Unexpected answer for a bulk job.');
  return job;
}

export const bulkJobQueries = {
  all: ['bulk-jobs'] as const,
  detail: (jobId: string) =>
    queryOptions({
      queryKey: ['bulk-jobs', 'detail', jobId] as const,
      queryFn: async ({ signal }) => asBulkJob(await api.get<unknown>(`/bulk-jobs/${encodeURIComponent(jobId)}`, { signal })),
      // Live through the events stream; while running, a poll every 3 s is the fallback should the stream be down.
      refetchInterval: (query) => (query.state.data && isBulkJobFinished(query.state.data.status) ? false : 3000),
    }),
};

export type StartBulkJob = {
  area: BulkArea;
  action: BulkAction;
  context: BulkContext;
  selection: BulkSelection;
  params?: { status?: string; assigneeId?: string | null; fileType?: 'csv' | 'xlsx'; columns?: string[]; confirmed?: boolean };
};

/** Starts a job; the key is kept by the caller for the dialog's life, so a second press or a retry is the same job. */
export async function startBulkJob(request: StartBulkJob, idempotencyKey: string): Promise<BulkJob> {
  // A refusal (400, 403, 422) is shown in the dialog, with its reason.
  const answer = await api.post<{ job: unknown }>('/bulk-jobs', request, {
    headers: { 'Idempotency-Key': idempotencyKey },
    handleErrors: (status) => status !== 400 && status !== 403 && status !== 422,
  });
  return asBulkJob(answer.job);
}

export async function cancelBulkJob(jobId: string): Promise<BulkJob> {
  return asBulkJob(await api.post<unknown>(`/bulk-jobs/${encodeURIComponent(jobId)}/cancel`));
}

export async function downloadBulkResult(job: Pick<BulkJob, 'id' | 'resultFileName'>): Promise<void> {
  const blob = await api.get<Blob>(`/bulk-jobs/${encodeURIComponent(job.id)}/result`, { responseType: 'blob', headers: { Accept: '*/*' } });
  const url = URL.createObjectURL(blob);
  const anchor = document.createElement('a');
  anchor.href = url;
  anchor.download = job.resultFileName ?? `bulk-${job.id}.csv`;
  anchor.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** The applied context as a bulk job's context: the merchant when one is chosen, else the business, else the partner. */
export function bulkContextOf(applied: {
  business?: { id: string | null } | null;
  merchant?: { id: string | null } | null;
  partner?: { id: string | null } | null;
}): BulkContext | null {
  const businessId = applied.business?.id ?? null;
  const merchantId = applied.merchant?.id ?? null;
  if (businessId && merchantId) return { level: 'merchant', businessId, merchantId };
  if (businessId) return { level: 'business', businessId };
  if (applied.partner?.id) return { level: 'partner', partnerId: applied.partner.id };
  return null;
}
