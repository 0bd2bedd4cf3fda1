// Billing: the invoices (table kit: j / k move, Enter opens, Shift+Enter opens beside; filters status,
// month, business and number, '/' focuses the number; a typed filter applies on Enter in its field) and the monthly
// run: choose a month (last month by default), preview each business's invoice from the ledger with a total per
// currency, then 'Create invoices' after a confirmation. Months and statuses use the portal's own controls.
import { type UseQueryResult, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type RefObject, useMemo, useRef, useState } from 'react';
import { useLocation } from 'wouter';
import { isApiError } from '../../src/api/api-error.ts';
import { invoiceKindLabels, invoiceStatusLabels, monthLabel, monthPattern, previousMonthOf, type InvoiceStatusName } from '../../src/contract/billing.ts';
import type { BillingPreview, InvoiceList, InvoiceListItem } from '../../src/contract/billing-schemas.ts';
import { defaultPageSize, pageSizes } from '../../src/contract/list-query.ts';
import { formatDate, formatShortDate } from '../../src/format/dates.ts';
import { formatMinorUnits } from '../../src/format/money.ts';
import { type PaneProps, type PaneRequestHandlers, usePaneCapabilities } from '../../src/state/pane-scope.tsx';
import { showToast } from '../../src/state/toast-store.ts';
import { useFocusRequest } from '../../src/ui/focus-request.ts';
import { ConfirmDialog } from '../../src/ui/confirm-dialog.tsx';
import type { DataTableColumn } from '../../src/ui/data-table/data-table.tsx';
import { OverviewTable } from '../../src/ui/data-table/overview-table.tsx';
import { ChoiceFilter } from '../../src/ui/data-table/filter-fields.tsx';
import { MonthField } from '../../src/ui/month-field.tsx';
import { Tabs } from '../../src/ui/tabs.tsx';
import { billingQueries, createBillingRun, previewBillingRun, type InvoiceListView } from './billing-queries.ts';
import { tableStatusOf } from '../../src/ui/data-table/table-status.ts';
import { type RowCursor, useRowCursor } from '../overview/row-cursor.ts';
import '../../src/ui/data-table/data-table.css';
import './billing.css';

export const invoicePath = (invoiceId: string) => `/billing/invoices/${encodeURIComponent(invoiceId)}`;
const listStatuses: readonly InvoiceStatusName[] = ['issued', 'overdue', 'paid'];
const businessPattern = /^[A-Za-z0-9_-]{1,64}$/;
const numberPattern = /^[A-Za-z0-9-]{1,20}$/;

/** The statuses of the status=issued,overdue parameter, known ones only, in their declared order. */
const statusesOf = (raw: string | null) => listStatuses.filter((status) => (raw ?? '').split(',').includes(status));

export type BillingView = InvoiceListView & { tab: 'invoices' | 'run'; runMonth: string | null };

export function billingViewOf(search: string): BillingView {
  const query = new URLSearchParams(search);
  const pageNumber = Number(query.get('pagenumber') ?? '1');
  const pageSize = Number(query.get('pagesize') ?? String(defaultPageSize));
  const status = query.get('status');
  const month = query.get('month');
  const business = query.get('business');
  const number = query.get('number');
  const runMonth = query.get('runmonth');
  return {
    tab: query.get('tab') === 'run' ? 'run' : 'invoices',
    pageNumber: Number.isInteger(pageNumber) && pageNumber >= 1 ? pageNumber : 1,
    pageSize: (pageSizes as readonly number[]).includes(pageSize) ? pageSize : defaultPageSize,
    status: statusesOf(status).join(',') || null,
    month: month && monthPattern.test(month) ? month : null,
    business: business && businessPattern.test(business) ? business : null,
    number: number && numberPattern.test(number) ? number : null,
    runMonth: runMonth && monthPattern.test(runMonth) ? runMonth : null,
  };
}

export function billingSearchOf(view: BillingView): string {
  const query = new URLSearchParams();
  if (view.tab === 'run') query.set('tab', 'run');
  if (view.runMonth) query.set('runmonth', view.runMonth);
  if (view.pageNumber !== 1) query.set('pagenumber', String(view.pageNumber));
  if (view.pageSize !== defaultPageSize) query.set('pagesize', String(view.pageSize));
  for (const key of ['status', 'month', 'business', 'number'] as const) if (view[key]) query.set(key, view[key] as string);
  const text = query.toString();
  return text ? `?${text}` : '';
}

export function InvoiceStatusText({ status }: { status: InvoiceStatusName }) {
  return (
    <span className="invoice-status" data-status={status}>
      {invoiceStatusLabels[status]}
    </span>
  );
}

// Sized to fit a 1280 px screen with one pane: dates short ('3 Nov 2026'; the invoice has them in full), the business
// name wrapping onto a second line rather than ellipsising.
const columns: readonly DataTableColumn<InvoiceListItem>[] = [
  {
    id: 'number',
    header: 'Number',
    cell: (row) => (
      <a className="data-table-link" href={invoicePath(row.invoiceId)}>
        {row.number}
      </a>
    ),
    width: '9.5rem',
  },
  { id: 'business', header: 'Business', cell: (row) => `${row.businessName} (${row.businessId})`, width: 'minmax(10.5rem, 2fr)', wrap: true },
  { id: 'month', header: 'Month', cell: (row) => monthLabel(row.month), width: '8.5rem' },
  { id: 'kind', header: 'Kind', cell: (row) => invoiceKindLabels[row.kind], width: '6.5rem' },
  { id: 'status', header: 'Status', cell: (row) => <InvoiceStatusText status={row.status} />, width: '6rem' },
  { id: 'issued', header: 'Issued', cell: (row) => <time dateTime={row.issuedUtc}>{formatShortDate(row.issuedUtc)}</time>, width: '7.5rem' },
  {
    id: 'due',
    header: 'Due',
    cell: (row) => (row.kind === 'invoice' ? <time dateTime={row.dueUtc}>{formatShortDate(row.dueUtc)}</time> : ''),
    width: '7.5rem',
  },
  { id: 'total', header: 'Total', align: 'end', cell: (row) => formatMinorUnits(row.totalMinor, row.currency), width: 'minmax(7rem, 1fr)' },
];

export function BillingPane({ search }: PaneProps) {
  const view = billingViewOf(search);
  const [, navigate] = useLocation();
  const go = (next: Partial<BillingView>) => navigate(`/billing${billingSearchOf({ ...view, ...next })}`);
  const runMonthField = useRef<HTMLInputElement>(null);
  const numberField = useRef<HTMLInputElement>(null);
  const active = view.tab === 'invoices';
  const list = useQuery({ ...billingQueries.invoices(view), enabled: active });
  const rows = useMemo(() => (list.isError ? [] : (list.data?.results ?? [])), [list.isError, list.data]);
  const rowCursor = useRowCursor(rows, (row) => invoicePath(row.invoiceId));
  const handlers: PaneRequestHandlers = {
    runBilling: () => {
      if (view.tab !== 'run') go({ tab: 'run' });
      setTimeout(() => runMonthField.current?.focus(), 0);
    },
    search: () => {
      if (view.tab !== 'invoices') go({ tab: 'invoices' });
      setTimeout(() => numberField.current?.focus(), 0);
    },
  };
  // Not while the list still shows the previous filter's rows: j and Enter would open an invoice the filter excludes.
  usePaneCapabilities({ ...handlers, ...rowCursor.rowHandlers(active && !list.isPlaceholderData) });
  const invoicesTab = <InvoicesSection key="invoices" view={view} go={go} numberField={numberField} list={list} rowCursor={rowCursor} />;
  return (
    <section className="billing-pane" aria-labelledby="billing-title">
      <header className="billing-header">
        <h1 id="billing-title">Billing</h1>
      </header>
      <Tabs
        label="Billing"
        tabs={[
          { id: 'invoices', label: 'Invoices' },
          { id: 'run', label: 'Run billing' },
        ]}
        contents={[invoicesTab, <RunSection key="run" view={view} go={go} monthField={runMonthField} />]}
        activeIndex={view.tab === 'run' ? 1 : 0}
        onActiveIndexChange={(index) => go({ tab: index === 1 ? 'run' : 'invoices' })}
      />
    </section>
  );
}

function InvoicesSection({
  view,
  go,
  numberField,
  list,
  rowCursor,
}: {
  view: BillingView;
  go: (next: Partial<BillingView>) => void;
  numberField: RefObject<HTMLInputElement | null>;
  list: UseQueryResult<InvoiceList>;
  rowCursor: RowCursor<InvoiceListItem>;
}) {
  const [numberText, setNumberText] = useState(view.number ?? '');
  const [businessText, setBusinessText] = useState(view.business ?? '');
  const monthDraft = useRef<{ value: string | null; problem: string | null }>({ value: view.month ?? '', problem: null });
  const [problem, setProblem] = useState<string | null>(null);
  /** Enter in a field (or Apply filters): every typed filter at once, or what is wrong with one. */
  const submitNumber = () => {
    const number = numberText.trim();
    const business = businessText.trim();
    const month = monthDraft.current;
    const wrong =
      number && !numberPattern.test(number)
        ? 'An invoice number has letters, digits and dashes, like INV-2026-000123.'
        : business && !businessPattern.test(business)
          ? 'A business ID has letters, digits, - and _.'
          : month.problem;
    setProblem(wrong);
    if (wrong) return;
    go({ number: number || null, business: business || null, month: month.value || null, pageNumber: 1 });
  };
  return (
    <div className="billing-section">
      <form
        className="billing-filters"
        aria-label="Invoice filters"
        onSubmit={(event) => {
          event.preventDefault();
          submitNumber();
        }}
      >
        <label>
          Invoice number
          <input
            ref={numberField}
            className="dt-input"
            type="search"
            value={numberText}
            placeholder="INV-2026-000123"
            maxLength={20}
            onChange={(event) => setNumberText(event.target.value)}
          />
        </label>
        <ChoiceFilter
          label="Status"
          options={listStatuses.map((status) => ({ value: status, label: invoiceStatusLabels[status] }))}
          selected={statusesOf(view.status)}
          onChange={(values) => go({ status: values.join(',') || null, pageNumber: 1 })}
        />
        <MonthField
          label="Month"
          value={view.month ?? ''}
          onChange={(change) => {
            monthDraft.current = change;
          }}
        />
        <label>
          Business ID
          <input className="dt-input" type="text" value={businessText} maxLength={64} onChange={(event) => setBusinessText(event.target.value)} />
        </label>
        {/* Enter in any field applies them all; the button is for the pointer. */}
        <button type="submit" className="button">
          Apply filters
        </button>
      </form>
      {problem ? (
        <p role="alert" className="billing-problem">
          {problem}
        </p>
      ) : null}
      <OverviewTable
        {...rowCursor.table}
        resetKey={`${JSON.stringify(view)}|${list.dataUpdatedAt}`}
        caption="Invoices"
        noun="invoices"
        emptyMessage="No invoices match these filters."
        columns={columns}
        rowKey={(row) => row.invoiceId}
        rowHeader="number"
        status={tableStatusOf(list)}
        view={view}
        total={list.data?.numberOfResults ?? 0}
        pageSizes={pageSizes}
        pagesLabel="Invoice pages"
        pagerOnlyWithRows
        onPageChange={(next) => go({ pageNumber: next })}
        onPageSizeChange={(next) => go({ pageNumber: 1, pageSize: next })}
      />
    </div>
  );
}

function RunSection({ view, go, monthField }: { view: BillingView; go: (next: Partial<BillingView>) => void; monthField: RefObject<HTMLInputElement | null> }) {
  const queryClient = useQueryClient();
  const month = view.runMonth ?? previousMonthOf(new Date());
  const [monthText, setMonthText] = useState(month);
  const [preview, setPreview] = useState<BillingPreview | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const runs = useQuery(billingQueries.runs());
  const createButton = useRef<HTMLButtonElement>(null);
  const previewRegion = useRef<HTMLElement>(null);
  const requestFocus = useFocusRequest();
  const previewing = useMutation({
    mutationFn: previewBillingRun,
    onMutate: () => {
      setProblem(null);
      setPreview(null);
    },
    onSuccess: (answer) => {
      setPreview(answer);
      // The next thing to do: create the invoices, or (nothing to create) read why in the preview.
      requestFocus(() => (createButton.current && !createButton.current.disabled ? createButton.current : previewRegion.current));
    },
  });
  const creating = useMutation({
    mutationFn: createBillingRun,
    onSuccess: async (run) => {
      setConfirming(false);
      await queryClient.invalidateQueries({ queryKey: billingQueries.all });
      const range = run.invoiceNumbers.length > 0 ? ` (${run.invoiceNumbers[0]} to ${run.invoiceNumbers.at(-1)})` : '';
      showToast({ kind: 'success', message: `Created ${run.invoiceCount} invoices for ${monthLabel(run.month)}${range}.` });
      setPreview(null);
      go({ tab: 'invoices', runMonth: null, month: run.month, pageNumber: 1, status: null, business: null, number: null });
    },
    onError: (error) => {
      setConfirming(false);
      if (isApiError(error) && error.status === 409) setProblem(error.messages[0] ?? 'This month has been billed already.');
    },
  });
  const submit = () => {
    if (!monthPattern.test(monthText)) {
      setProblem('Choose a month.');
      return;
    }
    if (previewing.isPending) return;
    if (monthText !== view.runMonth) go({ runMonth: monthText });
    previewing.mutate(monthText);
  };
  const totalInvoices = preview?.invoices.length ?? 0;
  return (
    <div className="billing-section">
      <p className="billing-note">
        Each business is invoiced per currency for the fees the ledger charged it in the month, plus the top-up to its pricing plan's monthly minimum. Payment
        services are exempt from VAT.
      </p>
      <form
        className="billing-run-form"
        aria-label="Billing run"
        onSubmit={(event) => {
          event.preventDefault();
          submit();
        }}
      >
        <MonthField label="Month" value={monthText} required inputRef={monthField} onChange={(change) => setMonthText(change.value ?? '')} />
        <button type="submit" className="button" aria-disabled={previewing.isPending}>
          Preview
        </button>
        {preview ? (
          <button
            type="button"
            ref={createButton}
            className="button button-primary"
            disabled={preview.alreadyRun || totalInvoices === 0 || creating.isPending}
            onClick={() => setConfirming(true)}
          >
            Create invoices
          </button>
        ) : null}
      </form>
      {problem ? (
        <p role="alert" className="billing-problem">
          {problem}
        </p>
      ) : null}
      {previewing.isPending ? <p role="status">Reading the ledger…</p> : null}
      {preview ? (
        <section ref={previewRegion} tabIndex={-1} aria-label="Preview" className="billing-preview">
          <PreviewTable preview={preview} />
        </section>
      ) : null}
      <h2>Runs</h2>
      {runs.data && runs.data.results.length > 0 ? (
        <table className="billing-table">
          <caption className="visually-hidden">Billing runs</caption>
          <thead>
            <tr>
              <th scope="col">Month</th>
              <th scope="col">Invoices</th>
              <th scope="col">Created by</th>
              <th scope="col">Created</th>
            </tr>
          </thead>
          <tbody>
            {runs.data.results.map((run) => (
              <tr key={run.runId}>
                <th scope="row">{monthLabel(run.month)}</th>
                <td>{run.invoiceCount}</td>
                <td>{run.createdBy}</td>
                <td>{formatDate(run.createdUtc)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : (
        <p>{runs.isPending ? 'Loading runs…' : 'No month has been billed yet.'}</p>
      )}
      <ConfirmDialog
        open={confirming}
        tone="primary"
        title={`Create invoices for ${monthLabel(preview?.month ?? month)}?`}
        text={`${totalInvoices} invoices will be issued with the next numbers. Issued invoices cannot be changed; corrections are made by credit note.`}
        confirmLabel="Create invoices"
        cancelLabel="Cancel"
        onConfirm={() => {
          if (preview) creating.mutate(preview.month);
        }}
        onCancel={() => setConfirming(false)}
      />
    </div>
  );
}

function PreviewTable({ preview }: { preview: BillingPreview }) {
  const label = monthLabel(preview.month);
  return (
    <>
      {preview.alreadyRun ? (
        <p role="alert" className="billing-problem">
          {label} has been billed already: the preview shows what the ledger holds now.
        </p>
      ) : null}
      {preview.invoices.length === 0 ? (
        <p>No fees were charged in {label}: there is nothing to invoice.</p>
      ) : (
        <table className="billing-table">
          <caption>{`Preview: ${preview.invoices.length} draft invoices for ${label}`}</caption>
          <thead>
            <tr>
              <th scope="col">Business</th>
              <th scope="col">Currency</th>
              <th scope="col">Lines</th>
              <th scope="col" className="amount">
                Transactions
              </th>
              <th scope="col" className="amount">
                Volume
              </th>
              <th scope="col" className="amount">
                Fees
              </th>
              <th scope="col" className="amount">
                Minimum top-up
              </th>
              <th scope="col" className="amount">
                Total
              </th>
            </tr>
          </thead>
          <tbody>
            {preview.invoices.map((invoice) => (
              <tr key={`${invoice.businessId}-${invoice.currency}`}>
                <th scope="row">
                  {invoice.businessName} ({invoice.businessId})
                </th>
                <td>{invoice.currency}</td>
                <td>{invoice.lines.length}</td>
                <td className="amount">{invoice.lines.reduce((sum, line) => sum + line.transactionCount, 0)}</td>
                <td className="amount">
                  {formatMinorUnits(
                    invoice.lines.reduce((sum, line) => sum + line.volumeMinor, 0),
                    invoice.currency,
                  )}
                </td>
                <td className="amount">{formatMinorUnits(invoice.feesMinor, invoice.currency)}</td>
                <td className="amount">{formatMinorUnits(invoice.minimumTopUpMinor, invoice.currency)}</td>
                <td className="amount">{formatMinorUnits(invoice.totalMinor, invoice.currency)}</td>
              </tr>
            ))}
          </tbody>
          <tfoot>
            {preview.totals.map((total) => (
              <tr key={total.currency}>
                <th scope="row">{`Total ${total.currency} (${total.invoiceCount} invoices)`}</th>
                <td>{total.currency}</td>
                <td />
                <td />
                <td />
                <td className="amount">{formatMinorUnits(total.feesMinor, total.currency)}</td>
                <td className="amount">{formatMinorUnits(total.minimumTopUpMinor, total.currency)}</td>
                <td className="amount">{formatMinorUnits(total.totalMinor, total.currency)}</td>
              </tr>
            ))}
          </tfoot>
        </table>
      )}
    </>
  );
}
