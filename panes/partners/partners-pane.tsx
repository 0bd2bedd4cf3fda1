// The partners overview (Mapi.Partners.Read): every partner with its businesses and commission plans;
// search by name ('/' focuses it), sortable headers, j / k or arrows move the row cursor, Enter opens the partner,
// Shift+Enter opens it beside. The list state lives in the address, so every view is a link.
import { useQuery } from '@tanstack/react-query';
import { useMemo, useRef, useState } from 'react';
import { useLocation } from 'wouter';
import type { PartnerListItem } from '../../src/contract/partner-schemas.ts';
import { defaultPageSize, pageSizes } from '../../src/contract/list-query.ts';
import { formatDate } from '../../src/format/dates.ts';
import { type PaneProps, usePaneCapabilities } from '../../src/state/pane-scope.tsx';
import type { DataTableColumn, DataTableSort } from '../../src/ui/data-table/data-table.tsx';
import { OverviewTable } from '../../src/ui/data-table/overview-table.tsx';
import { partnerPath, partnerQueries } from './partner-queries.ts';
import { tableStatusOf } from '../../src/ui/data-table/table-status.ts';
import { useRowCursor } from '../overview/row-cursor.ts';
import '../../src/ui/data-table/data-table.css';
import './partners.css';

const columns: readonly DataTableColumn<PartnerListItem>[] = [
  {
    id: 'name',
    header: 'Partner',
    width: 'minmax(14rem, 2fr)',
    sortField: 'name',
    cell: (row) => (
      <a className="data-table-link is-name" href={partnerPath(row.partnerId)}>
        {row.partnerName}
      </a>
    ),
  },
  { id: 'id', header: 'Partner ID', width: 'minmax(8rem, 1fr)', sortField: 'id', cell: (row) => row.partnerId },
  { id: 'businesses', header: 'Businesses', width: '8rem', align: 'end', sortField: 'businesses', cell: (row) => String(row.businessCount) },
  { id: 'live', header: 'Live businesses', width: '9rem', align: 'end', cell: (row) => String(row.liveBusinessCount) },
  { id: 'plans', header: 'Commission plans', width: '10rem', align: 'end', cell: (row) => String(row.commissionPlanCount) },
  { id: 'created', header: 'Partner since', width: '9rem', cell: (row) => formatDate(row.createDateTimeUtc) },
];

type ListView = { name: string; sort: DataTableSort; pageNumber: number; pageSize: number };

/** The view from the address: unknown values fall back to the defaults (the server would refuse them). */
export function partnerViewOf(search: string): ListView {
  const query = new URLSearchParams(search);
  const sortParam = query.get('sort') ?? 'name';
  const field = sortParam.replace(/^-/, '');
  const sort = ['name', 'id', 'businesses'].includes(field) ? { field, descending: sortParam.startsWith('-') } : { field: 'name', descending: false };
  const pageSize = (pageSizes as readonly number[]).includes(Number(query.get('pagesize'))) ? Number(query.get('pagesize')) : defaultPageSize;
  return { name: (query.get('name') ?? '').slice(0, 100), sort, pageNumber: Math.max(1, Number(query.get('pagenumber')) || 1), pageSize };
}

export function PartnersPane({ search }: PaneProps) {
  const view = partnerViewOf(search);
  const [, navigate] = useLocation();
  const [term, setTerm] = useState(view.name);
  const searchInput = useRef<HTMLInputElement>(null);
  const request = {
    pagenumber: String(view.pageNumber),
    pagesize: String(view.pageSize),
    sort: `${view.sort.descending ? '-' : ''}${view.sort.field}`,
    ...(view.name.trim() ? { name: `[eq]${view.name.trim()}` } : {}),
  };
  const list = useQuery(partnerQueries.list(request));
  const rows = useMemo(() => (list.isError ? [] : (list.data?.results ?? [])), [list.isError, list.data]);

  const goTo = (next: ListView) => {
    const params = new URLSearchParams();
    if (next.name.trim()) params.set('name', next.name.trim());
    if (next.sort.field !== 'name' || next.sort.descending) params.set('sort', `${next.sort.descending ? '-' : ''}${next.sort.field}`);
    if (next.pageNumber !== 1) params.set('pagenumber', String(next.pageNumber));
    if (next.pageSize !== defaultPageSize) params.set('pagesize', String(next.pageSize));
    const query = params.toString();
    navigate(`/partners${query ? `?${query}` : ''}`);
  };
  const { rowHandlers, table } = useRowCursor(rows, (row) => partnerPath(row.partnerId));
  usePaneCapabilities({ search: () => searchInput.current?.focus(), ...rowHandlers() });

  return (
    <section className="partners-pane" aria-labelledby="partners-title">
      <header className="partners-header">
        <h1 id="partners-title">Partners</h1>
        <form
          className="partners-tools"
          role="search"
          onSubmit={(event) => {
            event.preventDefault();
            goTo({ ...view, name: term, pageNumber: 1 });
          }}
        >
          <label>
            Partner name
            <input ref={searchInput} type="search" value={term} maxLength={100} onChange={(event) => setTerm(event.target.value)} />
          </label>
          <button type="submit" className="button">
            Search
          </button>
        </form>
      </header>
      <OverviewTable
        {...table}
        resetKey={`${search}|${list.dataUpdatedAt}`}
        caption="Partners"
        noun="partners"
        emptyMessage={view.name ? `No partner's name contains '${view.name}'.` : 'There are no partners.'}
        columns={columns}
        rowKey={(row) => row.partnerId}
        rowHeader="name"
        status={tableStatusOf(list)}
        view={view}
        total={list.data?.numberOfResults ?? 0}
        pageSizes={pageSizes}
        pagesLabel="Partner pages"
        pagerOnlyWithRows
        onSortChange={(sort) => goTo({ ...view, sort, pageNumber: 1 })}
        onPageChange={(pageNumber) => goTo({ ...view, pageNumber })}
        onPageSizeChange={(pageSize) => goTo({ ...view, pageSize, pageNumber: 1 })}
      />
    </section>
  );
}
