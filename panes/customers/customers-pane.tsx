// A merchant's stored customers (issue 22): search by reference, name or email; j / k, Enter, Shift+Enter.
// Creating and editing customers from this screen is not built yet (the API takes them; the virtual terminal will).
import { useQuery } from '@tanstack/react-query';
import { useMemo, useRef, useState } from 'react';
import { useLocation } from 'wouter';
import type { CustomerListItem } from '../../src/contract/customers.ts';
import { defaultPageSize, pageSizes } from '../../src/contract/list-query.ts';
import { rowRequests, tableRowsCapability } from '../../src/contract/table-rows.ts';
import { formatDate } from '../../src/format/dates.ts';
import { type PaneProps, type PaneRequestHandlers, usePaneCapabilities, usePaneScope } from '../../src/state/pane-scope.tsx';
import { openBeside } from '../../src/state/workspace-store.ts';
import { CursorDataTable, type RowCursorHandle } from '../../src/ui/data-table/cursor-data-table.tsx';
import type { DataTableColumn } from '../../src/ui/data-table/data-table.tsx';
import { Pagination } from '../../src/ui/data-table/pagination.tsx';
import { customerQueries } from './customer-queries.ts';
import '../../src/ui/data-table/data-table.css';
import '../watch-list/watch-list.css';

export const customerPath = (businessId: string, merchantId: string, customerId: string) =>
  `/business/${encodeURIComponent(businessId)}/merchants/${encodeURIComponent(merchantId)}/customers/${encodeURIComponent(customerId)}`;

export function CustomersPane({ params, search }: PaneProps) {
  const businessId = params.businessId ?? '';
  const merchantId = params.merchantId ?? '';
  const query = new URLSearchParams(search);
  const pageNumber = Math.max(1, Number(query.get('pagenumber')) || 1);
  const pageSize = (pageSizes as readonly number[]).includes(Number(query.get('pagesize'))) ? Number(query.get('pagesize')) : defaultPageSize;
  const searchTerm = (query.get('search') ?? '').slice(0, 100);
  const [draft, setDraft] = useState(searchTerm);
  const [, navigate] = useLocation();
  const scope = usePaneScope();
  const list = useQuery(customerQueries.list(businessId, merchantId, pageNumber, pageSize, searchTerm));
  const rows = useMemo(() => (list.isError ? [] : list.data?.results ?? []), [list.isError, list.data]);
  const rowCursor = useRef<RowCursorHandle>(null);
  const searchField = useRef<HTMLInputElement>(null);
  const here = `/business/${encodeURIComponent(businessId)}/merchants/${encodeURIComponent(merchantId)}/customers`;
  const goTo = (next: { pageNumber: number; pageSize: number; search: string }) => {
    const params = new URLSearchParams({ pagenumber: String(next.pageNumber), pagesize: String(next.pageSize) });
    if (next.search) params.set('search', next.search);
    navigate(`${here}?${params.toString()}`);
  };
  const columns: readonly DataTableColumn<CustomerListItem>[] = [
    { id: 'name', header: 'Customer', cell: (row) => <a className="data-table-link" href={customerPath(businessId, merchantId, row.customerId)}>{`${row.lastName}, ${row.firstName}`}</a> },
    { id: 'reference', header: 'Reference', cell: (row) => row.reference },
    { id: 'email', header: 'Email', cell: (row) => row.emailAddress ?? '' },
    { id: 'city', header: 'City', cell: (row) => [row.city, row.countryIso3166Alpha2].filter(Boolean).join(', ') },
    { id: 'created', header: 'Customer since', cell: (row) => formatDate(row.createdUtc) },
  ];
  const openRow = (row: CustomerListItem | undefined, beside: boolean) => {
    if (!row) return;
    const path = customerPath(businessId, merchantId, row.customerId);
    if (beside) openBeside(path, scope ? { afterPaneId: scope.paneId } : {});
    else navigate(path);
  };
  const handlers: PaneRequestHandlers = { search: () => searchField.current?.focus() };
  if (rows.length > 0) {
    handlers[tableRowsCapability] = (argument) => {
      if (argument === rowRequests.open || argument === rowRequests.openBeside) { openRow(rows[rowCursor.current?.index() ?? 0], argument === rowRequests.openBeside); return; }
      rowCursor.current?.move(argument === rowRequests.previous ? -1 : 1);
    };
  }
  usePaneCapabilities(handlers);
  return (
    <section className="risk-pane" aria-labelledby="customers-title">
      <header className="risk-header"><h1 id="customers-title">Customers</h1></header>
      <form role="search" aria-label="Customer search" className="risk-actions" onSubmit={(event) => { event.preventDefault(); goTo({ pageNumber: 1, pageSize, search: draft.trim() }); }}>
        <label>Search reference, name or email <input ref={searchField} type="search" value={draft} maxLength={100} onChange={(event) => setDraft(event.target.value)} /></label>
        <button type="submit" className="button">Search</button>
      </form>
      <p className="not-built-note">Adding and editing customers on this screen is not built yet; customers come from the virtual terminal and the API.</p>
      <CursorDataTable cursorHandle={rowCursor} resetKey={`${search}|${list.dataUpdatedAt}`} caption="Customers" columns={columns} rows={rows}
        rowKey={(row) => row.customerId} rowHeader="name"
        status={list.isError ? 'error' : list.isPending ? 'loading' : list.isPlaceholderData ? 'updating' : 'ready'}
        emptyMessage={searchTerm ? 'No customer matches this search.' : 'This merchant has no stored customers.'} errorMessage="The customers could not be loaded."
        onOpen={(row, { beside }) => openRow(row, beside)} firstRowNumber={(pageNumber - 1) * pageSize + 1} totalRows={list.data?.numberOfResults ?? 0} />
      {list.data && list.data.numberOfResults > 0 ? (
        <Pagination label="Customer pages" pageNumber={pageNumber} pageSize={pageSize} pageSizes={pageSizes} rowsOnPage={rows.length} total={list.data.numberOfResults}
          onPageChange={(next) => goTo({ pageNumber: next, pageSize, search: searchTerm })} onPageSizeChange={(next) => goTo({ pageNumber: 1, pageSize: next, search: searchTerm })} />
      ) : null}
    </section>
  );
}
