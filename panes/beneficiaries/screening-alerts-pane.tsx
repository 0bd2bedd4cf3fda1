// The risk analyst's queue of screening alerts across businesses (context-free), open ones first by default.
// Each row opens its beneficiary, where the alert is resolved.
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useLocation } from 'wouter';
import { screeningAlertStatuses, screeningAlertStatusLabels } from '../../src/contract/beneficiaries.ts';
import type { ScreeningAlert } from '../../src/contract/beneficiary-schemas.ts';
import { defaultPageSize, pageSizes } from '../../src/contract/list-query.ts';
import { formatDateTime } from '../../src/format/dates.ts';
import { type PaneProps, usePaneCapabilities } from '../../src/state/pane-scope.tsx';
import type { DataTableColumn } from '../../src/ui/data-table/data-table.tsx';
import { OverviewTable } from '../../src/ui/data-table/overview-table.tsx';
import { beneficiaryPath } from './beneficiaries-pane.tsx';
import { beneficiaryQueries } from './beneficiary-queries.ts';
import { tableStatusOf } from '../../src/ui/data-table/table-status.ts';
import { useRowCursor } from '../overview/row-cursor.ts';
import '../../src/ui/data-table/data-table.css';
import '../watch-list/watch-list.css';

const columns: readonly DataTableColumn<ScreeningAlert>[] = [
  {
    id: 'beneficiary',
    header: 'Beneficiary',
    cell: (row) => (
      <a className="data-table-link is-name" href={beneficiaryPath(row.businessId, row.beneficiaryId)}>
        {row.beneficiaryName}
      </a>
    ),
  },
  { id: 'listed', header: 'Listed as', cell: (row) => `${row.listedName} (${row.list === 'pep' ? 'PEP' : 'sanctions'})` },
  { id: 'score', header: 'Score', align: 'end', cell: (row) => `${Math.round(row.score * 100)}%` },
  {
    id: 'business',
    header: 'Business',
    cell: (row) => (
      <>
        {row.businessName} <span className="muted">({row.businessId})</span>
      </>
    ),
  },
  { id: 'status', header: 'Status', cell: (row) => screeningAlertStatusLabels[row.status] },
  { id: 'created', header: 'Raised', cell: (row) => formatDateTime(row.createdUtc) },
];

export function ScreeningAlertsPane({ search }: PaneProps) {
  const query = new URLSearchParams(search);
  const statusParam = query.get('status') ?? 'open';
  const status = (screeningAlertStatuses as readonly string[]).includes(statusParam) ? statusParam : null;
  const pageNumber = Math.max(1, Number(query.get('pagenumber')) || 1);
  const pageSize = (pageSizes as readonly number[]).includes(Number(query.get('pagesize'))) ? Number(query.get('pagesize')) : defaultPageSize;
  const [, navigate] = useLocation();
  const list = useQuery(beneficiaryQueries.alerts(status, pageNumber, pageSize));
  const rows = useMemo(() => (list.isError ? [] : (list.data?.results ?? [])), [list.isError, list.data]);
  const goTo = (next: { pageNumber: number; pageSize: number; status: string }) =>
    navigate(
      `/screening-alerts?${new URLSearchParams({ status: next.status, pagenumber: String(next.pageNumber), pagesize: String(next.pageSize) }).toString()}`,
    );
  const { rowHandlers, table } = useRowCursor(rows, (row) => beneficiaryPath(row.businessId, row.beneficiaryId));
  usePaneCapabilities(rowHandlers());
  return (
    <section className="risk-pane" aria-labelledby="alerts-title">
      <header className="risk-header">
        <h1 id="alerts-title">Screening alerts</h1>
        <label>
          Status{' '}
          <select value={status ?? 'all'} onChange={(event) => goTo({ pageNumber: 1, pageSize, status: event.target.value })}>
            <option value="all">All</option>
            {screeningAlertStatuses.map((value) => (
              <option key={value} value={value}>
                {screeningAlertStatusLabels[value]}
              </option>
            ))}
          </select>
        </label>
      </header>
      <OverviewTable
        {...table}
        resetKey={`${search}|${list.dataUpdatedAt}`}
        caption="Screening alerts"
        noun="screening alerts"
        columns={columns}
        rowKey={(row) => row.alertId}
        rowHeader="beneficiary"
        status={tableStatusOf(list)}
        emptyMessage="No screening alerts here."
        view={{ pageNumber, pageSize }}
        total={list.data?.numberOfResults ?? 0}
        pageSizes={pageSizes}
        pagesLabel="Screening alert pages"
        pagerOnlyWithRows
        onPageChange={(next) => goTo({ pageNumber: next, pageSize, status: status ?? 'all' })}
        onPageSizeChange={(next) => goTo({ pageNumber: 1, pageSize: next, status: status ?? 'all' })}
      />
    </section>
  );
}
