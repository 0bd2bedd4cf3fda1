// A business's own invoices and credit notes, for its owner and finance users: the list with status and
// totals, each PDF one keystroke away (Enter on a row downloads it).
import { useMutation, useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useLocation } from 'wouter';
import { invoiceKindLabels, monthLabel } from '../../src/contract/billing.ts';
import type { InvoiceListItem } from '../../src/contract/billing-schemas.ts';
import { defaultPageSize, pageSizes } from '../../src/contract/list-query.ts';
import { formatDate } from '../../src/format/dates.ts';
import { formatMinorUnits } from '../../src/format/money.ts';
import { type PaneProps, usePaneCapabilities } from '../../src/state/pane-scope.tsx';
import type { DataTableColumn } from '../../src/ui/data-table/data-table.tsx';
import { OverviewTable } from '../../src/ui/data-table/overview-table.tsx';
import { InvoiceStatusText } from './billing-pane.tsx';
import { billingQueries, businessPdfPath, downloadInvoicePdf } from './billing-queries.ts';
import { tableStatusOf } from '../../src/ui/data-table/table-status.ts';
import { useRowCursor } from '../overview/row-cursor.ts';
import '../../src/ui/data-table/data-table.css';
import './billing.css';

export function BusinessInvoicesPane({ params, search }: PaneProps) {
  const businessId = params.businessId ?? '';
  const [, navigate] = useLocation();
  const query = new URLSearchParams(search);
  const pageNumber = Math.max(1, Number(query.get('pagenumber') ?? '1') || 1);
  const requestedSize = Number(query.get('pagesize') ?? String(defaultPageSize));
  const pageSize = (pageSizes as readonly number[]).includes(requestedSize) ? requestedSize : defaultPageSize;
  const list = useQuery(billingQueries.businessInvoices(businessId, pageNumber, pageSize));
  const rows = useMemo(() => (list.isError ? [] : (list.data?.results ?? [])), [list.isError, list.data]);
  const download = useMutation({ mutationFn: (row: InvoiceListItem) => downloadInvoicePdf(businessPdfPath(businessId, row.invoiceId), row.number) });
  const columns: readonly DataTableColumn<InvoiceListItem>[] = [
    { id: 'number', header: 'Number', cell: (row) => row.number, width: '11rem' },
    { id: 'month', header: 'Month', cell: (row) => monthLabel(row.month) },
    { id: 'kind', header: 'Kind', cell: (row) => invoiceKindLabels[row.kind] },
    { id: 'status', header: 'Status', cell: (row) => <InvoiceStatusText status={row.status} /> },
    { id: 'issued', header: 'Issued', cell: (row) => formatDate(row.issuedUtc) },
    { id: 'due', header: 'Due', cell: (row) => (row.kind === 'invoice' ? formatDate(row.dueUtc) : '') },
    { id: 'total', header: 'Total', align: 'end', cell: (row) => formatMinorUnits(row.totalMinor, row.currency) },
    {
      id: 'pdf',
      header: 'PDF',
      cell: (row) => <button type="button" className="button" onClick={() => download.mutate(row)}>{`Download ${row.number}`}</button>,
    },
  ];
  // Enter (and Shift+Enter: a file has no 'beside') downloads the row's PDF.
  const { rowHandlers, table } = useRowCursor(rows, { open: (row) => download.mutate(row) });
  usePaneCapabilities(rowHandlers());
  const goTo = (next: { pageNumber: number; pageSize: number }) =>
    navigate(`/business/${encodeURIComponent(businessId)}/invoices?pagenumber=${next.pageNumber}&pagesize=${next.pageSize}`);
  return (
    <section className="billing-pane" aria-labelledby="business-invoices-title">
      <h1 id="business-invoices-title">Invoices</h1>
      <p className="billing-note">Monthly invoices of the fees charged to this business, and credit notes correcting them. Enter on a row downloads its PDF.</p>
      <OverviewTable
        {...table}
        resetKey={`${search}|${list.dataUpdatedAt}`}
        caption="Invoices of this business"
        noun="invoices"
        emptyMessage="No invoices yet."
        columns={columns}
        rowKey={(row) => row.invoiceId}
        rowHeader="number"
        status={tableStatusOf(list)}
        view={{ pageNumber, pageSize }}
        total={list.data?.numberOfResults ?? 0}
        pageSizes={pageSizes}
        pagesLabel="Invoice pages"
        pagerOnlyWithRows
        onPageChange={(next) => goTo({ pageNumber: next, pageSize })}
        onPageSizeChange={(next) => goTo({ pageNumber: 1, pageSize: next })}
      />
    </section>
  );
}
