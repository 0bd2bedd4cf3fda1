// My report queue: every export the user queued, newest first, as a dense table like the other overviews:
// its state (progress while generating), when it was queued and made, when it expires, what it holds (filters,
// columns, rows), and what can be done with it: download, delete, retry a failed one, cancel a queued one. j / k move
// the row cursor, Enter downloads a ready report. The list refreshes itself while work is in progress.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useId, useMemo, useState } from 'react';
import { calendarDate } from '../../src/contract/calendar-date.ts';
import { datePresetLabels, decodeDateRange, presetOfRange } from '../../src/contract/date-range-filter.ts';
import { decodeAmount } from '../../src/contract/amount-filter.ts';
import { decodeAnyOf, decodeSearchTerm } from '../../src/contract/list-state.ts';
import { channels, paymentMethods, paymentStatuses } from '../../src/contract/enumerations.ts';
import { pageSizes } from '../../src/contract/list-query.ts';
import { reportProgress, reportStateLabels, reportTypeLabels } from '../../src/contract/reports.ts';
import type { QueuedReport } from '../../src/contract/report-schemas.ts';
import { transactionColumnLabels, transactionKinds, type TransactionColumn } from '../../src/contract/transactions.ts';
import { formatDateTime, formatShortDate } from '../../src/format/dates.ts';
import { formatFileSize } from '../../src/format/file-size.ts';
import { formatPaymentMethod } from '../../src/format/payment-method.ts';
import { dismissToastsLinkingTo, showToast } from '../../src/state/toast-store.ts';
import { type PaneProps, usePaneCapabilities } from '../../src/state/pane-scope.tsx';
import type { DataTableColumn } from '../../src/ui/data-table/data-table.tsx';
import { OverviewTable } from '../../src/ui/data-table/overview-table.tsx';
import { formatCount } from '../../src/ui/data-table/pagination-model.ts';
import { cancelReport, deleteReport, downloadReport, reportQueries, retryReport } from './report-queries.ts';
import { ScheduledReports } from './scheduled-reports.tsx';
import { tableStatusOf } from '../../src/ui/data-table/table-status.ts';
import { useRowCursor } from '../overview/row-cursor.ts';
import '../../src/ui/data-table/data-table.css';
import '../transactions/transactions.css';

const stateTones: Record<string, string> = {
  queued: 'info',
  generating: 'warning',
  generated: 'success',
  failed: 'danger',
  cancelled: 'neutral',
  expired: 'neutral',
};
const day = (iso: string) => formatShortDate(`${iso}T12:00:00`);

/** The filters a report was made with, in words: 'Date: Last month · Status: Paid, Declined · Amount: from 10'. */
function idCount(text: string | undefined): number | null {
  if (text === undefined) return null;
  try {
    const ids: unknown = JSON.parse(text);
    return Array.isArray(ids) ? ids.length : null;
  } catch {
    return null;
  }
}

export function describeFilters(filters: Readonly<Record<string, string>>, today: string): string[] {
  const parts: string[] = [];
  const range = decodeDateRange(filters.date);
  if (range.start || range.end) {
    const preset = presetOfRange(range, today);
    parts.push(
      `Date: ${preset ? datePresetLabels[preset] : [range.start ? `from ${day(range.start)}` : null, range.end ? `until ${day(range.end)}` : null].filter(Boolean).join(' ')}`,
    );
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
    parts.push(
      `Amount: ${amount.mode === 'exact' ? amount.exact : [amount.min ? `from ${amount.min}` : null, amount.max ? `up to ${amount.max}` : null].filter(Boolean).join(' ')}`,
    );
  }
  if (filters.currency) parts.push(`Currency: ${decodeSearchTerm(filters.currency).toUpperCase()}`);
  if (filters.merchantid) parts.push(`Merchant: ${decodeSearchTerm(filters.merchantid)}`);
  if (filters.searchterm) parts.push(`Search: “${decodeSearchTerm(filters.searchterm)}”`);
  // A tickets or users export of picked rows (server/bulk/area-exports.ts keeps the picks under these keys).
  const picked = idCount(filters['selection.included']);
  if (picked !== null) parts.push(`Selected rows: ${picked}`);
  const left = idCount(filters['selection.excluded']);
  if (left !== null) parts.push(`Rows left out: ${left}`);
  return parts;
}

/** A report's actions, as its state allows: download, retry a failed one, cancel a queued one, delete. */
function ReportActions({ report, onChanged }: { report: QueuedReport; onChanged: () => void }) {
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
  const name = reportName(report);
  return (
    <span className="report-actions">
      {report.state === 'generated' ? (
        <button type="button" className="button button-small" disabled={act.isPending} onClick={() => act.mutate('download')}>
          Download<span className="visually-hidden"> {report.fileName}</span>
        </button>
      ) : null}
      {report.status === 'failed' ? (
        <button type="button" className="button button-small" aria-label={`Retry ${name}`} disabled={act.isPending} onClick={() => act.mutate('retry')}>
          Retry
        </button>
      ) : null}
      {report.status === 'queued' ? (
        <button type="button" className="button button-small" aria-label={`Cancel ${name}`} disabled={act.isPending} onClick={() => act.mutate('cancel')}>
          Cancel
        </button>
      ) : null}
      <button
        type="button"
        className="button button-ghost button-small"
        aria-label={`Delete ${name}`}
        disabled={act.isPending}
        onClick={() => act.mutate('delete')}
      >
        Delete
      </button>
    </span>
  );
}

const reportName = (report: QueuedReport) => `${reportTypeLabels[report.reportType] ?? report.reportType} ${report.fileType.toUpperCase()} ${report.id}`;

function reportColumns(today: string, onChanged: () => void): DataTableColumn<QueuedReport>[] {
  return [
    {
      id: 'report',
      header: 'Report',
      width: 'minmax(11rem, 1fr)',
      cell: (report) => (
        <span className="report-name">
          {reportTypeLabels[report.reportType] ?? report.reportType} · {report.fileType.toUpperCase()}
        </span>
      ),
    },
    { id: 'context', header: 'For', width: 'minmax(9rem, 1fr)', priority: 3, cell: (report) => report.context.title },
    {
      id: 'status',
      header: 'State',
      width: '12rem',
      cell: (report) => (
        <span className="report-state">
          <span className="status-chip" data-tone={stateTones[report.state]}>
            {reportStateLabels[report.state]}
          </span>
          {report.state === 'generating' ? (
            <>
              <progress max={100} value={reportProgress(report) ?? undefined} aria-label={`Progress of ${reportName(report)}`} />
              <span className="report-progress-text">
                {formatCount(report.processedRows)} of {formatCount(report.totalRows ?? 0)} rows
              </span>
            </>
          ) : null}
        </span>
      ),
    },
    { id: 'queued', header: 'Queued', width: '10.5rem', priority: 2, cell: (report) => formatDateTime(report.queuedAt) },
    {
      id: 'generated',
      header: 'Generated',
      width: '10.5rem',
      priority: 4,
      cell: (report) => (report.generatedAt ? formatDateTime(report.generatedAt) : 'N/A'),
    },
    {
      id: 'expires',
      header: 'Expires',
      width: '10.5rem',
      priority: 3,
      cell: (report) => (report.state === 'expired' ? 'Expired' : report.expirationDateTime ? formatDateTime(report.expirationDateTime) : 'N/A'),
    },
    {
      id: 'rows',
      header: 'Rows',
      width: '5.5rem',
      align: 'end',
      priority: 3,
      cell: (report) => (report.totalRows === null ? 'N/A' : formatCount(report.totalRows)),
    },
    {
      id: 'size',
      header: 'Size',
      width: '5.5rem',
      align: 'end',
      priority: 4,
      cell: (report) => (report.fileSize === null ? '' : formatFileSize(report.fileSize)),
    },
    {
      id: 'holds',
      header: 'Filters and columns',
      width: 'minmax(14rem, 2fr)',
      priority: 2,
      cell: (report) => {
        if (report.state === 'failed' && report.error) return <span className="report-error">{report.error}</span>;
        const filters = describeFilters(report.filters, today);
        const columns = report.columns.map((column) => transactionColumnLabels[column as TransactionColumn] ?? column);
        const text = `${filters.length > 0 ? filters.join(' · ') : 'No filters: every transaction'} — columns: ${columns.join(', ')}`;
        return (
          <span className="report-holds" title={text}>
            {text}
          </span>
        );
      },
    },
    { id: 'actions', header: 'Actions', width: '12rem', priority: 1, cell: (report) => <ReportActions report={report} onChanged={onChanged} /> },
  ];
}

/**
 * The report a link named (?report=RPT…: a scheduled report's 'ready' email links here), above the queue, whichever
 * page of the queue it is on: its state and, when ready, its download.
 */
function LinkedReport({ id }: { id: string }) {
  const report = useQuery(reportQueries.one(id));
  const data = report.data;
  return (
    <section className="linked-report" aria-label="The report you followed">
      {report.isError ? <p role="alert">The report you followed is not in your report queue (it may have been deleted).</p> : null}
      {data ? (
        <p>
          <strong>
            {reportTypeLabels[data.reportType] ?? data.reportType} · {data.fileType.toUpperCase()}
          </strong>{' '}
          ({data.context.title}):{' '}
          <span className="status-chip" data-tone={stateTones[data.state]}>
            {reportStateLabels[data.state]}
          </span>{' '}
          {data.state === 'generated' ? (
            <button
              type="button"
              className="button button-small"
              aria-label={`Download ${data.fileName ?? ''}`}
              onClick={() => downloadReport(data).catch(() => showToast({ kind: 'danger', message: 'The report could not be downloaded.' }))}
            >
              Download
            </button>
          ) : null}
        </p>
      ) : null}
    </section>
  );
}

export function ReportQueuePane({ search }: PaneProps) {
  const query = new URLSearchParams(search);
  const linkedId = /^RPT[0-9A-F]{1,32}$/.test(query.get('report') ?? '') ? query.get('report') : null;
  // The 'report queued' toast's link led here: it has done its job.
  useEffect(() => dismissToastsLinkingTo('/reporting-overview'), []);
  const titleId = useId();
  const queryClient = useQueryClient();
  const [page, setPage] = useState({ pageNumber: 1, pageSize: 25 });
  const list = useQuery(reportQueries.list(page.pageNumber, page.pageSize));
  const reports = useMemo(() => (list.isError ? [] : (list.data?.results ?? [])), [list.isError, list.data]);
  const total = list.isError ? 0 : (list.data?.numberOfResults ?? 0);
  const today = calendarDate(new Date());
  const refresh = () => void queryClient.invalidateQueries({ queryKey: reportQueries.all });
  const columns = useMemo(() => reportColumns(today, () => void queryClient.invalidateQueries({ queryKey: reportQueries.all })), [today, queryClient]);
  // Enter on a row downloads a ready report; a file has no 'beside', so Shift+Enter does the same. Other states have
  // nothing to open: the row says why (its state), and its actions sit at its end.
  const download = (report: QueuedReport) => {
    if (report.state !== 'generated') {
      showToast({ kind: 'info', message: `This report is ${reportStateLabels[report.state].toLowerCase()}: there is no file to download.` });
      return;
    }
    downloadReport(report).catch(() => showToast({ kind: 'danger', message: 'The report could not be downloaded.' }));
  };
  // The schedules below say which one Run now (Shift+R) would run, and only when the server would run it.
  const [runSchedule, setRunSchedule] = useState<(() => void) | null>(null);
  const onRunNowChange = useCallback((run: (() => void) | null) => setRunSchedule(() => run), []);
  const { rowHandlers, table } = useRowCursor(reports, { open: download });
  usePaneCapabilities({ ...rowHandlers(), ...(runSchedule ? { runSchedule } : {}) });
  return (
    <section className="report-queue" aria-labelledby={titleId}>
      <div className="report-queue-head">
        <h1 id={titleId}>My report queue</h1>
        <button type="button" className="button button-ghost" onClick={refresh}>
          Refresh
        </button>
      </div>
      {linkedId ? <LinkedReport id={linkedId} /> : null}
      <OverviewTable
        {...table}
        resetKey={`${page.pageNumber}|${page.pageSize}`}
        caption="Reports"
        noun="reports"
        emptyMessage="No reports yet. Export an overview and it appears here."
        errorMessage="Your reports could not be loaded."
        columns={columns}
        rowKey={(report) => report.id}
        rowHeader="report"
        status={tableStatusOf(list)}
        view={page}
        total={total}
        pageSizes={pageSizes}
        pagesLabel="Report pages"
        onPageChange={(pageNumber) => setPage({ ...page, pageNumber })}
        onPageSizeChange={(pageSize) => setPage({ pageNumber: 1, pageSize })}
      />
      <ScheduledReports focus={query.get('view') === 'schedules'} onRunNowChange={onRunNowChange} />
    </section>
  );
}
