// The batch report (/reporting/batch-report/{accountNumber?}): the settlement batches of a merchant account group,
// paged and sorted, filtered by status (Any, Open, Closed) and period, each opening its detail
// (/reporting/batch-report/{accountNumber}/batch/{batchId}: totals and movements). Both download through the report queue,
// and both offer the settlement details (one row per transaction) of a month or of the batch.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useSnapshot } from 'valtio';
import { useLocation } from 'wouter';
import type { ContextSelections } from '../../src/contract/context.ts';
import { calendarDate, weekStartsOn } from '../../src/contract/calendar-date.ts';
import { datePresetIds, datePresetLabels, datePresetRange, decodeDateRange, encodeDateRange, pickerBounds } from '../../src/contract/date-range-filter.ts';
import { changeListState, compactFilters, type ListState, listStateFromParams, listStateToParams } from '../../src/contract/list-state.ts';
import type { SettlementBatch } from '../../src/contract/ledger-schemas.ts';
import { batchListSpec, batchStatuses } from '../../src/contract/ledger.ts';
import { pageSizes } from '../../src/contract/list-query.ts';
import { messages } from '../../src/contract/messages.ts';
import { tableRowsCapability } from '../../src/contract/table-rows.ts';
import { formatShortDate } from '../../src/format/dates.ts';
import { formatMoney } from '../../src/format/money.ts';
import { contextStore } from '../../src/state/context-store.ts';
import { type PaneProps, type PaneRequestHandlers, usePaneCapabilities, usePaneScope } from '../../src/state/pane-scope.tsx';
import { showToast, toastDurations } from '../../src/state/toast-store.ts';
import { openBeside } from '../../src/state/workspace-store.ts';
import { CursorDataTable, type RowCursorHandle } from '../../src/ui/data-table/cursor-data-table.tsx';
import type { DataTableColumn } from '../../src/ui/data-table/data-table.tsx';
import { DateRangePicker } from '../../src/ui/data-table/date-range-picker.tsx';
import { DateRangeButton } from '../../src/ui/data-table/filter-fields.tsx';
import { Pagination } from '../../src/ui/data-table/pagination.tsx';
import { DownloadDialog, type LedgerFileType } from './download-dialog.tsx';
import { monthFilter, SettlementDetailsDialog, type SettlementDetailsFileType } from './settlement-details-dialog.tsx';
import { ledgerQueries, merchantGroupsPath, queueLedgerReport } from './ledger-queries.ts';
import { movementColumns } from './statement-pane.tsx';
import { tableStatusOf } from '../../src/ui/data-table/table-status.ts';
import { rowRequestHandler } from '../overview/row-cursor.ts';
import '../../src/ui/data-table/data-table.css';
// The overview's header and tools (shared with the transactions overview).
import '../../src/ui/data-table/overview.css';
import '../transactions/transactions.css';
import './reporting.css';

const batchPath = (accountNumber: string, batchId: string) =>
  `/reporting/batch-report/${encodeURIComponent(accountNumber)}/batch/${encodeURIComponent(batchId)}`;

function batchColumns(): DataTableColumn<SettlementBatch>[] {
  const money = (value: number, row: SettlementBatch) => formatMoney(value, row.currency);
  return [
    {
      id: 'date',
      header: 'Date',
      sortField: 'date',
      width: 'minmax(8rem, 1fr)',
      cell: (row) => (
        <a className="data-table-link" href={batchPath(row.accountNumber, row.batchId)} tabIndex={-1}>
          {formatShortDate(row.date)}
        </a>
      ),
    },
    {
      id: 'status',
      header: 'Status',
      width: '6rem',
      cell: (row) => (
        <span className="status-chip" data-tone={row.status === 'Open' ? 'warning' : 'neutral'}>
          {row.status}
        </span>
      ),
    },
    { id: 'salesCount', header: 'Sales', align: 'end', width: '5rem', cell: (row) => String(row.salesCount) },
    { id: 'sales', header: 'Sales amount', sortField: 'sales', align: 'end', width: 'minmax(7rem, 1fr)', cell: (row) => money(row.salesAmount, row) },
    { id: 'refunds', header: 'Refunds', align: 'end', width: 'minmax(6rem, 1fr)', cell: (row) => money(row.refundsAmount, row) },
    { id: 'fees', header: 'Fees', align: 'end', width: 'minmax(6rem, 1fr)', cell: (row) => money(row.feesAmount, row) },
    { id: 'reserve', header: 'Reserve', align: 'end', width: 'minmax(6rem, 1fr)', cell: (row) => money(row.reserveAmount, row) },
    { id: 'net', header: 'Net', sortField: 'net', align: 'end', width: 'minmax(7rem, 1fr)', cell: (row) => money(row.netAmount, row) },
  ];
}

/** Queues the settlement details (one row per transaction) of a batch, or of a month of the account group. */
function useSettlementDetails(path: string, onQueued: () => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ fileType, month }: { fileType: SettlementDetailsFileType; month: string | null }) =>
      queueLedgerReport(`${path}/settlement-details`, fileType, month ? monthFilter(month) : {}),
    onSuccess: () => {
      onQueued();
      void queryClient.invalidateQueries({ queryKey: ['reports'] });
      showToast({
        kind: 'info',
        message: messages.reportQueued,
        durationMs: toastDurations.long,
        link: { href: '/reporting-overview', label: 'Open my report queue' },
      });
    },
  });
}

function useMerchantContext() {
  const { applied } = useSnapshot(contextStore);
  return { businessId: (applied as ContextSelections).business?.id ?? null, merchantId: (applied as ContextSelections).merchant?.id ?? null };
}

export function BatchReportPane({ params, search }: PaneProps) {
  const [location, navigate] = useLocation();
  const scope = usePaneScope();
  const queryClient = useQueryClient();
  const { businessId, merchantId } = useMerchantContext();
  const accountNumber = params.accountNumber ?? null;
  const groups = useQuery({
    ...ledgerQueries.merchantGroups(businessId ?? '', merchantId ?? ''),
    enabled: Boolean(businessId && merchantId && !accountNumber),
  });
  const only = groups.data?.results.length === 1 ? groups.data.results[0]?.accountNumber : undefined;
  useEffect(() => {
    if (!accountNumber && only) navigate(`/reporting/batch-report/${encodeURIComponent(only)}`, { replace: true });
  }, [accountNumber, only, navigate]);
  const state = useMemo(() => listStateFromParams(Object.fromEntries(new URLSearchParams(search)), batchListSpec), [search]);
  const setState = (next: ListState) => {
    const query = new URLSearchParams(listStateToParams(next, batchListSpec)).toString();
    navigate(`${location}${query ? `?${query}` : ''}`);
  };
  const list = useQuery({
    ...ledgerQueries.batches(businessId ?? '', merchantId ?? '', accountNumber ?? '', state),
    enabled: Boolean(businessId && merchantId && accountNumber),
  });
  const rows = list.isError ? [] : (list.data?.results ?? []);
  const total = list.isError ? 0 : (list.data?.numberOfResults ?? 0);
  const today = calendarDate(new Date());
  const range = decodeDateRange(state.filters.date);
  const [dateOpen, setDateOpen] = useState(false);
  const [downloadOpen, setDownloadOpen] = useState(false);
  const [detailsOpen, setDetailsOpen] = useState(false);
  const details = useSettlementDetails(`${merchantGroupsPath(businessId ?? '', merchantId ?? '')}/${encodeURIComponent(accountNumber ?? '')}`, () =>
    setDetailsOpen(false),
  );
  const rowCursor = useRef<RowCursorHandle>(null);
  const columns = useMemo(batchColumns, []);
  const openRow = (row: SettlementBatch | undefined, beside: boolean) => {
    if (!row) return;
    const path = batchPath(row.accountNumber, row.batchId);
    if (beside) openBeside(path, scope ? { afterPaneId: scope.paneId } : {});
    else navigate(path);
  };
  const handlers: PaneRequestHandlers = accountNumber
    ? { date: () => setDateOpen(true), export: () => setDownloadOpen(true), settlementDetails: () => setDetailsOpen(true) }
    : {};
  if (accountNumber && !dateOpen && !downloadOpen && !detailsOpen && rows.length > 0) {
    handlers[tableRowsCapability] = rowRequestHandler(rowCursor, rows, openRow);
  }
  usePaneCapabilities(handlers);
  const download = useMutation({
    mutationFn: (fileType: LedgerFileType) =>
      queueLedgerReport(
        `${merchantGroupsPath(businessId ?? '', merchantId ?? '')}/${encodeURIComponent(accountNumber ?? '')}/batches`,
        fileType === 'camt053' ? 'csv' : fileType,
        compactFilters({ date: state.filters.date, status: state.filters.status }),
      ),
    onSuccess: () => {
      setDownloadOpen(false);
      void queryClient.invalidateQueries({ queryKey: ['reports'] });
      showToast({
        kind: 'info',
        message: messages.reportQueued,
        durationMs: toastDurations.long,
        link: { href: '/reporting-overview', label: 'Open my report queue' },
      });
    },
  });

  if (!businessId || !merchantId)
    return (
      <div className="reporting-pane">
        <h1>Batch report</h1>
        <p>Choose a merchant in the context to see its settlement batches.</p>
      </div>
    );
  if (!accountNumber) {
    return (
      <div className="reporting-pane">
        <h1>Batch report</h1>
        {groups.isPending ? <p role="status">Loading the account groups…</p> : null}
        {groups.isError ? <p role="alert">The account groups could not be loaded.</p> : null}
        {(groups.data?.results.length ?? 0) > 1 ? (
          <nav aria-label="Account groups">
            <p>Choose an account group.</p>
            <ul className="reporting-choices">
              {groups.data?.results.map((group) => (
                <li key={group.accountNumber}>
                  <a className="button" href={`/reporting/batch-report/${encodeURIComponent(group.accountNumber)}`}>
                    {group.accountNumber} · {group.currency}
                  </a>
                </li>
              ))}
            </ul>
          </nav>
        ) : null}
        {groups.data?.results.length === 0 ? <p>There are no account groups here yet.</p> : null}
      </div>
    );
  }
  const status = (state.filters.status ?? '').replace(/^\[eq\]/, '') || 'Any';
  const periodText = range.start && range.end ? `${formatShortDate(`${range.start}T12:00:00`)} – ${formatShortDate(`${range.end}T12:00:00`)}` : 'Any date';
  const { min, max } = pickerBounds(today);
  return (
    <div className="reporting-pane">
      <header className="overview-header">
        <h1>Batch report {accountNumber}</h1>
        <div className="overview-tools">
          <button type="button" className="button" onClick={() => setDetailsOpen(true)}>
            Download settlement details…
          </button>
          <button type="button" className="button button-primary" onClick={() => setDownloadOpen(true)}>
            Download report…
          </button>
        </div>
      </header>
      <div className="filter-bar" role="search" aria-label="Batch filters">
        <DateRangeButton label="Period" summary={periodText} active={Boolean(range.start || range.end)} onOpen={() => setDateOpen(true)} />
        <label>
          Batch status{' '}
          <select
            value={status}
            onChange={(event) =>
              setState(
                changeListState(state, {
                  filters: compactFilters({ ...state.filters, status: event.target.value === 'Any' ? undefined : `[eq]${event.target.value}` }),
                }),
              )
            }
          >
            {batchStatuses.map((value) => (
              <option key={value} value={value}>
                {value}
              </option>
            ))}
          </select>
        </label>
      </div>
      <CursorDataTable
        cursorHandle={rowCursor}
        resetKey={`${search}|${list.dataUpdatedAt}`}
        caption="Settlement batches"
        columns={columns}
        rows={rows}
        rowKey={(row) => row.batchId}
        rowHeader="date"
        status={tableStatusOf(list)}
        emptyMessage="There are no batches in this period."
        errorMessage="The batches could not be loaded."
        sort={state.sort}
        onSortChange={(sort) => setState(changeListState(state, { sort }))}
        onOpen={(row, { beside }) => openRow(row, beside)}
        firstRowNumber={(state.pageNumber - 1) * state.pageSize + 1}
        totalRows={total}
      />
      <Pagination
        label="Batch pages"
        pageNumber={state.pageNumber}
        pageSize={state.pageSize}
        pageSizes={pageSizes}
        rowsOnPage={rows.length}
        total={total}
        totalIsEstimate={false}
        onPageChange={(pageNumber) => setState(changeListState(state, { pageNumber }))}
        onPageSizeChange={(pageSize) => setState(changeListState(state, { pageSize }))}
      />
      <DateRangePicker
        open={dateOpen}
        title="Batch period"
        value={range}
        presets={datePresetIds.map((id) => ({ id, label: datePresetLabels[id], range: datePresetRange(id, today) }))}
        min={min}
        max={max}
        weekStartsOn={weekStartsOn}
        onApply={(next) => setState(changeListState(state, { filters: compactFilters({ ...state.filters, date: encodeDateRange(next) }) }))}
        onClose={() => setDateOpen(false)}
      />
      <DownloadDialog
        open={downloadOpen}
        title="Download settlement batch overview"
        summary={`${total} batches, ${periodText}, status ${status}.`}
        busy={download.isPending}
        onClose={() => setDownloadOpen(false)}
        onDownload={(fileType) => download.mutate(fileType)}
      />
      <SettlementDetailsDialog
        open={detailsOpen}
        defaultMonth={(range.start ?? today).slice(0, 7)}
        busy={details.isPending}
        onClose={() => setDetailsOpen(false)}
        onDownload={(request) => details.mutate(request)}
      />
    </div>
  );
}

export function BatchDetailPane({ params, search }: PaneProps) {
  const [location, navigate] = useLocation();
  const scope = usePaneScope();
  const queryClient = useQueryClient();
  const { businessId, merchantId } = useMerchantContext();
  const accountNumber = params.accountNumber ?? '';
  const batchId = params.batchId ?? '';
  const paging = new URLSearchParams(search);
  const pageNumber = Math.max(1, Number(paging.get('pagenumber') ?? 1) || 1);
  const pageSize = pageSizes.find((size) => String(size) === paging.get('pagesize')) ?? 25;
  const batch = useQuery({
    ...ledgerQueries.batch(businessId ?? '', merchantId ?? '', accountNumber, batchId, pageNumber, pageSize),
    enabled: Boolean(businessId && merchantId),
  });
  const [downloadOpen, setDownloadOpen] = useState(false);
  const [detailsOpen, setDetailsOpen] = useState(false);
  const details = useSettlementDetails(
    `${merchantGroupsPath(businessId ?? '', merchantId ?? '')}/${encodeURIComponent(accountNumber)}/batches/${encodeURIComponent(batchId)}`,
    () => setDetailsOpen(false),
  );
  const rowCursor = useRef<RowCursorHandle>(null);
  const data = batch.isError ? undefined : batch.data;
  const columns = useMemo(() => movementColumns(data?.currency ?? 'GBP').filter((column) => column.id !== 'batch'), [data?.currency]);
  const rows = data?.results ?? [];
  const openRow = (row: (typeof rows)[number] | undefined, beside: boolean) => {
    if (!row?.transactionReference) return;
    const path = `/transactions/${encodeURIComponent(row.transactionReference)}`;
    if (beside) openBeside(path, scope ? { afterPaneId: scope.paneId } : {});
    else navigate(path);
  };
  const handlers: PaneRequestHandlers = { export: () => setDownloadOpen(true), settlementDetails: () => setDetailsOpen(true) };
  if (!downloadOpen && !detailsOpen && rows.length > 0) {
    handlers[tableRowsCapability] = rowRequestHandler(rowCursor, rows, openRow);
  }
  usePaneCapabilities(handlers);
  const download = useMutation({
    mutationFn: (fileType: LedgerFileType) =>
      queueLedgerReport(
        `${merchantGroupsPath(businessId ?? '', merchantId ?? '')}/${encodeURIComponent(accountNumber)}/batches/${encodeURIComponent(batchId)}`,
        fileType === 'camt053' ? 'csv' : fileType,
        {},
      ),
    onSuccess: () => {
      setDownloadOpen(false);
      void queryClient.invalidateQueries({ queryKey: ['reports'] });
      showToast({
        kind: 'info',
        message: messages.reportQueued,
        durationMs: toastDurations.long,
        link: { href: '/reporting-overview', label: 'Open my report queue' },
      });
    },
  });
  const setPage = (next: { pageNumber?: number; pageSize?: number }) => {
    const query = new URLSearchParams({ pagenumber: String(next.pageNumber ?? 1), pagesize: String(next.pageSize ?? pageSize) }).toString();
    navigate(`${location}?${query}`);
  };
  if (!businessId || !merchantId)
    return (
      <div className="reporting-pane">
        <h1>Batch {batchId}</h1>
        <p>Choose a merchant in the context to see its settlement batches.</p>
      </div>
    );
  const money = (value: number) => formatMoney(value, data?.currency ?? 'GBP');
  return (
    <div className="reporting-pane">
      <header className="overview-header">
        <h1>Batch {batchId}</h1>
        <div className="overview-tools">
          <a className="button" href={`/reporting/batch-report/${encodeURIComponent(accountNumber)}`}>
            All batches
          </a>
          <button type="button" className="button" onClick={() => setDetailsOpen(true)}>
            Download settlement details…
          </button>
          <button type="button" className="button button-primary" onClick={() => setDownloadOpen(true)}>
            Download batch detail…
          </button>
        </div>
      </header>
      {batch.isError ? <p role="alert">The batch could not be loaded.</p> : null}
      {data ? (
        <section aria-label="Batch totals" className="reporting-summary">
          <dl>
            <div>
              <dt>Date</dt>
              <dd>{formatShortDate(data.date)}</dd>
            </div>
            <div>
              <dt>Status</dt>
              <dd>{data.status}</dd>
            </div>
            <div>
              <dt>Sales ({data.salesCount})</dt>
              <dd>{money(data.salesAmount)}</dd>
            </div>
            <div>
              <dt>Refunds</dt>
              <dd>{money(data.refundsAmount)}</dd>
            </div>
            <div>
              <dt>Fees</dt>
              <dd>{money(data.feesAmount)}</dd>
            </div>
            <div>
              <dt>Reserve</dt>
              <dd>{money(data.reserveAmount)}</dd>
            </div>
            <div>
              <dt>{data.status === 'Closed' ? 'Paid out' : 'Net so far'}</dt>
              <dd>{money(data.netAmount)}</dd>
            </div>
          </dl>
        </section>
      ) : null}
      <CursorDataTable
        cursorHandle={rowCursor}
        resetKey={`${search}|${batch.dataUpdatedAt}`}
        caption="Batch movements on the trading account"
        columns={columns}
        rows={rows}
        rowKey={(row) => String(row.id)}
        rowHeader="date"
        status={tableStatusOf(batch)}
        emptyMessage="This batch has no movements."
        errorMessage="The batch could not be loaded."
        onOpen={(row, { beside }) => openRow(row, beside)}
        firstRowNumber={(pageNumber - 1) * pageSize + 1}
        totalRows={data?.numberOfResults ?? 0}
      />
      <Pagination
        label="Batch movement pages"
        pageNumber={pageNumber}
        pageSize={pageSize}
        pageSizes={pageSizes}
        rowsOnPage={rows.length}
        total={data?.numberOfResults ?? 0}
        totalIsEstimate={false}
        onPageChange={(next) => setPage({ pageNumber: next })}
        onPageSizeChange={(size) => setPage({ pageSize: size })}
      />
      <DownloadDialog
        open={downloadOpen}
        title="Download batch detail"
        summary={`Batch ${batchId}: ${data?.numberOfResults ?? 0} movements.`}
        busy={download.isPending}
        onClose={() => setDownloadOpen(false)}
        onDownload={(fileType) => download.mutate(fileType)}
      />
      <SettlementDetailsDialog
        open={detailsOpen}
        batchId={batchId}
        defaultMonth={(data?.date ?? '').slice(0, 7)}
        busy={details.isPending}
        onClose={() => setDetailsOpen(false)}
        onDownload={(request) => details.mutate(request)}
      />
    </div>
  );
}
