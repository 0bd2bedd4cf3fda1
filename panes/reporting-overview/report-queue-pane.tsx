// My report queue: every export the user queued, newest first, with its state (progress while generating), when
// it was queued and made, when it expires, what it holds (filters, columns, rows), and what can be done with it:
// download, delete, retry a failed one, cancel a queued one. The list refreshes itself while work is in progress.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { datePresetLabels, decodeAmount, decodeAnyOf, decodeDateRange, decodeSearchTerm, calendarDate, presetOfRange } from '../../src/contract/filters.ts';
import { channels, paymentMethods, paymentStatuses } from '../../src/contract/enumerations.ts';
import { pageSizes } from '../../src/contract/list-query.ts';
import { reportProgress, reportStateLabels, reportTypeLabels, type QueuedReport } from '../../src/contract/reports.ts';
import { transactionColumnLabels, transactionKinds, type TransactionColumn } from '../../src/contract/transactions.ts';
import { formatDateTime, formatShortDate } from '../../src/format/dates.ts';
import { formatFileSize } from '../../src/format/file-size.ts';
import { formatPaymentMethod } from '../../src/format/payment-method.ts';
import { showToast } from '../../src/state/toast-store.ts';
import type { PaneProps } from '../../src/state/pane-scope.tsx';
import { Pagination } from '../../src/ui/data-table/pagination.tsx';
import { formatCount } from '../../src/ui/data-table/pagination-model.ts';
import { cancelReport, deleteReport, downloadReport, reportQueries, retryReport } from './report-queries.ts';
import '../../src/ui/data-table/data-table.css';
import '../transactions/transactions.css';

const stateTones: Record<string, string> = { queued: 'info', generating: 'warning', generated: 'success', failed: 'danger', cancelled: 'neutral', expired: 'neutral' };
const day = (iso: string) => formatShortDate(`${iso}T12:00:00`);

/** The filters a report was made with, in words: 'Date: Last month · Status: Paid, Declined · Amount: from 10'. */
export function describeFilters(filters: Readonly<Record<string, string>>, today: string): string[] {
  const parts: string[] = [];
  const range = decodeDateRange(filters.date);
  if (range.start || range.end) {
    const preset = presetOfRange(range, today);
    parts.push(`Date: ${preset ? datePresetLabels[preset] : [range.start ? `from ${day(range.start)}` : null, range.end ? `until ${day(range.end)}` : null].filter(Boolean).join(' ')}`);
  }
  const choices: [string, string, readonly string[], (value: string) => string][] = [
    ['status', 'Status', paymentStatuses, (value) => value.charAt(0).toUpperCase() + value.slice(1)],
    ['channel', 'Channel', channels, (value) => value],
    ['paymentmethod', 'Payment method', paymentMethods, formatPaymentMethod],
    ['kind', 'Type', transactionKinds, (value) => value.charAt(0).toUpperCase() + value.slice(1)],
  ];
  for (const [key, label, allowed, show] of choices) {
    const values = decodeAnyOf(filters[key], allowed);
    if (values.length > 0) parts.push(`${label}: ${values.map(show).join(', ')}`);
  }
  if (filters.amount) {
    const amount = decodeAmount(filters.amount);
    parts.push(`Amount: ${amount.mode === 'exact' ? amount.exact : [amount.min ? `from ${amount.min}` : null, amount.max ? `up to ${amount.max}` : null].filter(Boolean).join(' ')}`);
  }
  if (filters.currency) parts.push(`Currency: ${decodeSearchTerm(filters.currency).toUpperCase()}`);
  if (filters.merchantid) parts.push(`Merchant: ${decodeSearchTerm(filters.merchantid)}`);
  if (filters.searchterm) parts.push(`Search: “${decodeSearchTerm(filters.searchterm)}”`);
  return parts;
}

function ReportCard({ report, today, onChanged }: { report: QueuedReport; today: string; onChanged: () => void }) {
  const titleId = useId();
  const progress = reportProgress(report);
  const act = useMutation({
    mutationFn: async (action: 'download' | 'delete' | 'retry' | 'cancel') => {
      if (action === 'download') await downloadReport(report);
      else if (action === 'delete') await deleteReport(report.id);
      else if (action === 'retry') await retryReport(report.id);
      else await cancelReport(report.id);
      return action;
    },
    onSuccess: (action) => {
      if (action === 'delete') showToast({ kind: 'success', message: 'The report has been deleted.' });
      if (action === 'retry') showToast({ kind: 'success', message: 'The report has been queued again.' });
      if (action === 'cancel') showToast({ kind: 'success', message: 'The report has been cancelled.' });
      if (action !== 'download') onChanged();
    },
  });
  const type = reportTypeLabels[report.reportType] ?? report.reportType;
  const filters = describeFilters(report.filters, today);
  const columns = report.columns.map((column) => transactionColumnLabels[column as TransactionColumn] ?? column);
  return (
    <li className="report-card" aria-labelledby={titleId}>
      <div className="report-card-head">
        <span id={titleId} className="report-card-title">
          {type} · {report.fileType.toUpperCase()} · {report.context.title}
        </span>
        <span className="status-chip" data-tone={stateTones[report.state]}>{reportStateLabels[report.state]}</span>
      </div>
      {report.state === 'generating' ? (
        <div className="report-progress">
          <progress max={100} value={progress ?? undefined} aria-labelledby={titleId} />
          <span>{formatCount(report.processedRows)} of {formatCount(report.totalRows ?? 0)} rows</span>
        </div>
      ) : null}
      <dl className="report-card-meta">
        <div><dt>Queued</dt><dd>{formatDateTime(report.queuedAt)}</dd></div>
        <div><dt>Generated</dt><dd>{report.generatedAt ? formatDateTime(report.generatedAt) : 'N/A'}</dd></div>
        <div><dt>Expires</dt><dd>{report.state === 'expired' ? 'Expired' : report.expirationDateTime ? formatDateTime(report.expirationDateTime) : 'N/A'}</dd></div>
        <div><dt>Rows</dt><dd>{report.totalRows === null ? 'N/A' : formatCount(report.totalRows)}</dd></div>
        {report.fileSize !== null ? <div><dt>Size</dt><dd>{formatFileSize(report.fileSize)}</dd></div> : null}
      </dl>
      <p className="report-card-filters">{filters.length > 0 ? filters.join(' · ') : 'No filters: every transaction'} — columns: {columns.join(', ')}</p>
      {report.state === 'failed' && report.error ? <p className="report-error">{report.error}</p> : null}
      <div className="report-card-actions">
        {report.state === 'generated' ? (
          <button type="button" className="button button-primary" disabled={act.isPending} onClick={() => act.mutate('download')}>
            Download<span className="visually-hidden"> {report.fileName}</span>
          </button>
        ) : null}
        {report.status === 'failed' ? <button type="button" className="button" disabled={act.isPending} onClick={() => act.mutate('retry')}>Retry</button> : null}
        {report.status === 'queued' ? <button type="button" className="button" disabled={act.isPending} onClick={() => act.mutate('cancel')}>Cancel report</button> : null}
        <button type="button" className="button button-ghost" disabled={act.isPending} onClick={() => act.mutate('delete')}>Delete</button>
      </div>
    </li>
  );
}

export function ReportQueuePane(_props: PaneProps) {
  const titleId = useId();
  const queryClient = useQueryClient();
  const [page, setPage] = useState({ pageNumber: 1, pageSize: 25 });
  const list = useQuery(reportQueries.list(page.pageNumber, page.pageSize));
  const reports = list.isError ? [] : list.data?.results ?? [];
  const total = list.isError ? 0 : list.data?.numberOfResults ?? 0;
  const today = calendarDate(new Date());
  const refresh = () => void queryClient.invalidateQueries({ queryKey: reportQueries.all });
  return (
    <section className="report-queue" aria-labelledby={titleId}>
      <div className="report-queue-head">
        <h1 id={titleId}>My report queue</h1>
        <button type="button" className="button button-ghost" onClick={refresh}>Refresh</button>
      </div>
      {list.isPending ? <p role="status">Loading your reports…</p> : reports.length === 0 ? (
        <p>{list.isError ? 'Your reports could not be loaded.' : 'No reports yet. Export an overview and it appears here.'}</p>
      ) : (
        <ul className="report-queue-list" aria-label="Reports">
          {reports.map((report) => <ReportCard key={report.id} report={report} today={today} onChanged={refresh} />)}
        </ul>
      )}
      <Pagination
        label="Report pages"
        pageNumber={page.pageNumber}
        pageSize={page.pageSize}
        pageSizes={pageSizes}
        rowsOnPage={reports.length}
        total={total}
        onPageChange={(pageNumber) => setPage({ ...page, pageNumber })}
        onPageSizeChange={(pageSize) => setPage({ pageNumber: 1, pageSize })}
      />
    </section>
  );
}
