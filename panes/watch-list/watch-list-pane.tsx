// The account watch list: merchants whose risk signals cross the thresholds, highest score first, with
// the signals behind each score and a 30-day trend. j / k move, Enter opens the entry, Shift+Enter opens it beside.
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useLocation } from 'wouter';
import { defaultPageSize, pageSizes } from '../../src/contract/list-query.ts';
import { isPositiveWatchStatus, watchEntryStatuses, watchEntryStatusLabels, type WatchEntryStatusName } from '../../src/contract/watch-list.ts';
import type { WatchListEntry } from '../../src/contract/watch-list-schemas.ts';
import { formatDateTime } from '../../src/format/dates.ts';
import { type PaneProps, usePaneCapabilities } from '../../src/state/pane-scope.tsx';
import type { DataTableColumn } from '../../src/ui/data-table/data-table.tsx';
import { OverviewTable } from '../../src/ui/data-table/overview-table.tsx';
import { Sparkline, trendLabel } from './sparkline.tsx';
import { signalText } from './watch-list-format.ts';
import { watchListQueries } from './watch-list-queries.ts';
import { tableStatusOf } from '../../src/ui/data-table/table-status.ts';
import { useRowCursor } from '../overview/row-cursor.ts';
import '../../src/ui/data-table/data-table.css';
import './watch-list.css';

export const watchEntryPath = (merchantId: string) => `/account-watch-list/${encodeURIComponent(merchantId)}`;

export function watchListViewOf(search: string): { pageNumber: number; pageSize: number; status: WatchEntryStatusName | null } {
  const query = new URLSearchParams(search);
  const pageNumber = Number(query.get('pagenumber') ?? '1');
  const pageSize = Number(query.get('pagesize') ?? String(defaultPageSize));
  const status = query.get('status');
  return {
    pageNumber: Number.isInteger(pageNumber) && pageNumber >= 1 ? pageNumber : 1,
    pageSize: (pageSizes as readonly number[]).includes(pageSize) ? pageSize : defaultPageSize,
    status: (watchEntryStatuses as readonly string[]).includes(status ?? '') ? (status as WatchEntryStatusName) : null,
  };
}

/** Spec: the score is success-coloured when the status is positive, else danger. */
export function ScoreText({ score, status }: { score: number; status: WatchEntryStatusName }) {
  const tone = isPositiveWatchStatus(status) ? 'success' : 'danger';
  return (
    <span className="watch-score" data-tone={tone}>
      {score}
    </span>
  );
}

// The signals take the room (two lines of a row, then the detail has them all); names wrap rather than ellipsise.
const columns: readonly DataTableColumn<WatchListEntry>[] = [
  {
    id: 'merchant',
    header: 'Merchant',
    width: 'minmax(11rem, 1.3fr)',
    wrap: true,
    cell: (row) => (
      <a className="data-table-link is-name" href={watchEntryPath(row.merchantId)}>
        {row.merchantName}
      </a>
    ),
  },
  { id: 'business', header: 'Business', width: 'minmax(10rem, 1fr)', wrap: true, cell: (row) => row.businessName },
  { id: 'score', header: 'Score', align: 'end', width: '5rem', cell: (row) => <ScoreText score={row.score} status={row.status} /> },
  {
    id: 'signals',
    header: 'Signals',
    width: 'minmax(14rem, 2.6fr)',
    wrap: true,
    cell: (row) => (row.signals.length === 0 ? 'None now' : row.signals.map((signal) => signalText(signal.signal, signal.value, signal.threshold)).join('; ')),
  },
  { id: 'trend', header: 'Trend', width: '8rem', cell: (row) => <Sparkline values={row.trend} label={trendLabel(row.trend)} /> },
  { id: 'status', header: 'Status', width: '8rem', wrap: true, cell: (row) => watchEntryStatusLabels[row.status] },
];

export function WatchListPane({ search }: PaneProps) {
  const view = watchListViewOf(search);
  const [, navigate] = useLocation();
  const list = useQuery(watchListQueries.list(view.pageNumber, view.pageSize, view.status));
  const rows = useMemo(() => (list.isError ? [] : (list.data?.results ?? [])), [list.isError, list.data]);
  const goTo = (next: { pageNumber: number; pageSize: number; status: string | null }) => {
    const query = new URLSearchParams({ pagenumber: String(next.pageNumber), pagesize: String(next.pageSize) });
    if (next.status) query.set('status', next.status);
    navigate(`/account-watch-list?${query.toString()}`);
  };
  const { rowHandlers, table } = useRowCursor(rows, (row) => watchEntryPath(row.merchantId));
  usePaneCapabilities(rowHandlers());

  return (
    <section className="watch-list-pane" aria-labelledby="watch-list-title">
      <header className="watch-list-header">
        <h1 id="watch-list-title">Account watch list</h1>
        <label>
          Status{' '}
          <select value={view.status ?? ''} onChange={(event) => goTo({ pageNumber: 1, pageSize: view.pageSize, status: event.target.value || null })}>
            <option value="">All</option>
            {watchEntryStatuses.map((status) => (
              <option key={status} value={status}>
                {watchEntryStatusLabels[status]}
              </option>
            ))}
          </select>
        </label>
      </header>
      <p className="watch-list-note">
        Merchants whose chargeback proxy, refund ratio, decline rate, volume or small declines cross the thresholds, from daily signals
        {list.data?.signalsRefreshedUtc ? ` refreshed ${formatDateTime(list.data.signalsRefreshedUtc)}` : ''}.
      </p>
      <OverviewTable
        {...table}
        resetKey={`${search}|${list.dataUpdatedAt}`}
        caption="Account watch list"
        noun="watch list"
        emptyMessage="No merchant crosses the thresholds."
        columns={columns}
        rowKey={(row) => row.merchantId}
        rowHeader="merchant"
        status={tableStatusOf(list)}
        view={view}
        total={list.data?.numberOfResults ?? 0}
        pageSizes={pageSizes}
        pagesLabel="Watch list pages"
        pagerOnlyWithRows
        onPageChange={(next) => goTo({ ...view, pageNumber: next })}
        onPageSizeChange={(next) => goTo({ ...view, pageNumber: 1, pageSize: next })}
      />
    </section>
  );
}
