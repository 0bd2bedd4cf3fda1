// A bulk job's screen (/bulk-jobs/{jobId}, context-free): what it does, its progress (a progressbar with
// aria-valuenow, live), cancel while it runs, and once it has ended its result file (every failed item and why) and,
// for an export, the way to its report in My report queue.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from 'wouter';
import { bulkActionLabels, bulkJobProgress, isBulkJobFinished, type BulkJob } from '../../src/contract/bulk-jobs.ts';
import type { PaneProps } from '../../src/state/pane-scope.tsx';
import { showToast } from '../../src/state/toast-store.ts';
import { formatCount } from '../../src/ui/data-table/pagination-model.ts';
import { bulkJobQueries, cancelBulkJob, downloadBulkResult } from './bulk-job-queries.ts';
import './bulk-jobs.css';

const statusLabels: Record<BulkJob['status'], string> = {
  queued: 'Waiting to start',
  running: 'Running',
  completed: 'Finished',
  cancelled: 'Cancelled',
  failed: 'Failed',
};
const areaNouns: Record<BulkJob['area'], string> = { 'payment-jobs': 'payment jobs', transactions: 'transactions', tickets: 'tickets', users: 'users' };

export function BulkJobView({ jobId }: { jobId: string }) {
  const queryClient = useQueryClient();
  const job = useQuery(bulkJobQueries.detail(jobId));
  const cancel = useMutation({
    mutationFn: () => cancelBulkJob(jobId),
    onSuccess: (next) => {
      queryClient.setQueryData(bulkJobQueries.detail(jobId).queryKey, next);
      showToast({ kind: 'success', message: next.status === 'cancelled' ? 'The bulk job was cancelled.' : 'The bulk job stops after the item it is on.' });
    },
  });
  const download = useMutation({ mutationFn: (value: BulkJob) => downloadBulkResult(value) });
  if (job.isPending) return <p role="status">Loading the bulk job…</p>;
  if (job.isError || !job.data) return <p role="alert">The bulk job could not be loaded.</p>;
  const value = job.data;
  const finished = isBulkJobFinished(value.status);
  const progress = bulkJobProgress(value);
  const title = `${bulkActionLabels[value.action]}${value.action === 'export' ? ` ${areaNouns[value.area]}` : ''}`;
  return (
    <section className="bulk-job" aria-labelledby={`bulk-job-${value.id}`}>
      <h1 id={`bulk-job-${value.id}`}>{title}</h1>
      <p className="bulk-job-status">
        {statusLabels[value.status]}
        {value.cancelRequested && !finished ? ' — stopping' : ''}
      </p>
      <div
        className="bulk-job-progress"
        role="progressbar"
        aria-label={`${title}: progress`}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={progress}
        aria-valuetext={`${formatCount(value.processedItems)} of ${formatCount(value.totalItems)} done`}
      >
        <div className="bulk-job-progress-bar" style={{ inlineSize: `${progress}%` }} />
      </div>
      <p role="status" aria-live="polite">
        {formatCount(value.processedItems)} of {formatCount(value.totalItems)} done: {formatCount(value.succeededItems)} succeeded,{' '}
        {formatCount(value.failedItems)} failed.
      </p>
      {value.error ? <p role="alert">{value.error}</p> : null}
      <div className="bulk-job-actions">
        {!finished ? (
          <button type="button" className="button" disabled={cancel.isPending || value.cancelRequested} onClick={() => cancel.mutate()}>
            Cancel job
          </button>
        ) : null}
        {finished ? (
          <button type="button" className="button" disabled={download.isPending} onClick={() => download.mutate(value)}>
            Download result
          </button>
        ) : null}
        {value.reportId ? (
          <Link className="button button-ghost" href="/reporting-overview">
            Open My report queue
          </Link>
        ) : null}
      </div>
    </section>
  );
}

export function BulkJobPane({ params }: PaneProps) {
  return (
    <div className="bulk-job-pane">
      <BulkJobView jobId={params.jobId ?? ''} />
    </div>
  );
}
