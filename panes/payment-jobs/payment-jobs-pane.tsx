// The payment jobs overview of the applied context (/payment-jobs: the business's, merchant's or partner's jobs,
// filterable by configuration) and of one configuration (/configurations/{id}/payments, its Payments tab): status
// tabs as a merchant sorts payments (open, authorised and not captured, paid, refunded, failed), server paging and
// sorting, a search that finds a job by reference, order number or customer email, filters for date,
// status and payment method, filter presets and a column chooser remembered per user. The table state lives in the
// pane's URL, so a link reproduces the view.
import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useEffect, useState } from 'react';
import { useSnapshot } from 'valtio';
import type { ContextSelections } from '../../src/contract/context.ts';
import { paymentMethods, paymentStatuses } from '../../src/contract/enumerations.ts';
import { decodeDateRange, encodeDateRange } from '../../src/contract/date-range-filter.ts';
import { decodeAnyOf, encodeAnyOf } from '../../src/contract/list-state.ts';
import { paymentJobListSpec, paymentJobTabs, type PaymentJobTab } from '../../src/contract/payment-jobs.ts';
import type { PaymentJobListItem } from '../../src/contract/payment-job-schemas.ts';
import { paymentJobTabLabels, paymentStatusOptions } from '../../src/contract/payment-job-labels.ts';
import { configurationQueries } from '../../src/api/configuration-queries.ts';
import { formatMoney } from '../../src/format/money.ts';
import { formatPaymentMethod } from '../../src/format/payment-method.ts';
import { contextPath, contextStore } from '../../src/state/context-store.ts';
import { type PaneProps, type PaneRequestHandlers, usePaneCapabilities, usePaneScope } from '../../src/state/pane-scope.tsx';
import { openBeside } from '../../src/state/workspace-store.ts';
import { ColumnChooser } from '../../src/ui/data-table/column-chooser.tsx';
import type { DataTableColumn } from '../../src/ui/data-table/data-table.tsx';
import { ChoiceFilter, DateRangeButton, SearchField } from '../../src/ui/data-table/filter-fields.tsx';
import { useDebouncedApply, useFilterDraft } from '../../src/ui/data-table/filter-draft.ts';
import { OverviewTable } from '../../src/ui/data-table/overview-table.tsx';
import { showToast } from '../../src/state/toast-store.ts';
import { formatShortDateTime } from '../../src/format/dates.ts';
import { StatusChip } from './payment-job-format.tsx';
import { bulkActionIndex, type BulkAction, type BulkJob } from '../../src/contract/bulk-jobs.ts';
import { permissionScope, sessionStore } from '../../src/state/session-store.ts';
import { ExportDialog } from '../../src/ui/data-table/export-dialog.tsx';
import { SelectionBar, selectionText } from '../../src/ui/data-table/selection-bar.tsx';
import {
  emptySelection,
  hasSelection,
  pickedRows,
  selectAllMatching,
  selectedCount,
  selectionRequest,
  type RowSelection,
} from '../../src/ui/data-table/selection-model.ts';
import { BulkActionDialog } from '../bulk-jobs/bulk-action-dialog.tsx';
import { bulkContextOf, startBulkJob } from '../bulk-jobs/bulk-job-queries.ts';
import { OverviewDatePicker } from '../overview/overview-dates.tsx';
import { DatabaseFilterPresets } from '../overview/database-presets.tsx';
import { useOverviewState } from '../overview/use-overview-state.ts';
import { paymentJobQueries } from './payment-job-queries.ts';
import '../../src/ui/data-table/data-table.css';
import '../../src/ui/data-table/overview.css';
import './payment-jobs.css';

// The filter says what the chips say: one label per status (src/contract/payment-job-labels.ts).
const statusOptions = paymentStatusOptions;
const methodOptions = paymentMethods.map((value) => ({ value, label: formatPaymentMethod(value) }));

/** What a search term is: an email (has @), an order number (ORD-…) or a reference; the filter it sets. */
export function searchFilters(term: string): Record<string, string | undefined> {
  const value = term.trim();
  const none = { reference: undefined, ordernumber: undefined, email: undefined };
  if (value === '') return none;
  if (/^ORD-/i.test(value)) return { ...none, ordernumber: `[eq]${value.toUpperCase()}` };
  // References are opaque capitals and digits (PJ0123456789); typed in any case they are still references.
  if (!value.includes('@') && /^(PJ[0-9A-F]+|[A-Z0-9_-]+)$/i.test(value) && (/^PJ/i.test(value) || value === value.toUpperCase()))
    return { ...none, reference: `[eq]${value.toUpperCase()}` };
  return { ...none, email: `[eq]${value}` };
}
const searchOf = (filters: Record<string, string>) => (filters.email ?? filters.ordernumber ?? filters.reference ?? '').replace(/^\[eq\]/, '');

/** A job's detail lives under its configuration, whichever overview listed it. */
export const paymentJobPath = (row: Pick<PaymentJobListItem, 'configurationId' | 'reference'>) =>
  `/configurations/${encodeURIComponent(row.configurationId)}/payments/${encodeURIComponent(row.reference)}`;

export const paymentJobColumnsList: readonly DataTableColumn<PaymentJobListItem>[] = [
  {
    id: 'createDateTimeUtc',
    header: 'Created',
    sortField: 'createDateTimeUtc',
    width: 'minmax(10.5rem, 1fr)',
    cell: (row) => <time dateTime={row.createDateTimeUtc}>{formatShortDateTime(row.createDateTimeUtc)}</time>,
  },
  {
    id: 'reference',
    header: 'Reference',
    sortField: 'reference',
    width: 'minmax(9rem, 1fr)',
    cell: (row) => (
      <a className="data-table-link" href={paymentJobPath(row)} tabIndex={-1}>
        {row.reference}
      </a>
    ),
  },
  { id: 'orderNumber', header: 'Order number', sortField: 'orderNumber', width: 'minmax(8rem, 1fr)', cell: (row) => row.orderNumber },
  { id: 'customer', header: 'Customer', width: 'minmax(9rem, 1.2fr)', cell: (row) => row.customer ?? '—' },
  { id: 'emailAddress', header: 'Email', width: 'minmax(10rem, 1.4fr)', cell: (row) => row.emailAddress ?? '—' },
  { id: 'amount', header: 'Amount', sortField: 'amount', align: 'end', width: 'minmax(7rem, 0.8fr)', cell: (row) => formatMoney(row.amount, row.currency) },
  { id: 'status', header: 'Status', sortField: 'status', width: '7.5rem', cell: (row) => <StatusChip status={row.status} /> },
  {
    id: 'paymentMethod',
    header: 'Payment method',
    width: 'minmax(8rem, 1fr)',
    cell: (row) => (row.paymentMethod ? formatPaymentMethod(row.paymentMethod) : '—'),
  },
  { id: 'merchant', header: 'Merchant', width: 'minmax(9rem, 1fr)', cell: (row) => row.merchantName },
  {
    id: 'paidDateTimeUtc',
    header: 'Paid',
    width: 'minmax(10.5rem, 1fr)',
    cell: (row) => (row.paidDateTimeUtc ? formatShortDateTime(row.paidDateTimeUtc) : '—'),
  },
  {
    id: 'expirationDateTimeUtc',
    header: 'Expires',
    width: 'minmax(10.5rem, 1fr)',
    cell: (row) => (row.expirationDateTimeUtc ? formatShortDateTime(row.expirationDateTimeUtc) : '—'),
  },
  { id: 'configurationId', header: 'Configuration', width: '9rem', cell: (row) => row.configurationId },
];
const columnIds = paymentJobColumnsList.map((column) => column.id);
const defaultVisibleColumns = columnIds.slice(0, 9);
/** The page name of its filter presets and user settings (paymentJobsColumns). */
export const paymentJobsPage = 'paymentJobs';

export function PaymentJobsPane({ params, search }: PaneProps) {
  const scope = usePaneScope();
  const { applied } = useSnapshot(contextStore);
  const contextPrefix = contextPath(applied as ContextSelections) ?? '';
  // On a configuration's Payments tab the route's configuration always filters the list; on the context's overview
  // the configuration is a filter like the others.
  const lockedConfiguration = params.configurationId ?? null;
  const requestStateOf = <T extends { filters: Record<string, string> }>(listState: T): T =>
    lockedConfiguration === null ? listState : { ...listState, filters: { ...listState.filters, configurationid: `[eq]${lockedConfiguration}` } };
  const overview = useOverviewState({
    search,
    listSpec: paymentJobListSpec,
    query: (listState) => ({
      ...paymentJobQueries.list(contextPrefix, requestStateOf(listState)),
      enabled: contextPrefix !== '' && lockedConfiguration !== '',
    }),
    rowPath: paymentJobPath,
    columns: paymentJobColumnsList,
    columnChoice: { page: paymentJobsPage, defaultVisible: defaultVisibleColumns },
    selectionScope: contextPrefix,
  });
  const { state, applyFilters, rows, total, totalIsEstimate, selection, setSelection, shownColumns } = overview;
  const requestState = requestStateOf(state);
  const activeTab: PaymentJobTab | 'all' = (decodeAnyOf(state.filters.tab, paymentJobTabs)[0] as PaymentJobTab | undefined) ?? 'all';
  const showTab = (tab: PaymentJobTab | 'all') => applyFilters({ tab: tab === 'all' ? undefined : `[eq]${tab}` });
  // The configurations to filter by: a merchant's own list; with a business or partner, the ID is typed.
  const merchantIds = applied.business?.id && applied.merchant?.id ? { businessId: applied.business.id, merchantId: applied.merchant.id } : null;
  const configurations = useQuery({
    ...configurationQueries.list(merchantIds?.businessId ?? '', merchantIds?.merchantId ?? '', { pagesize: '100' }),
    enabled: lockedConfiguration === null && merchantIds !== null,
  });
  const configurationFilter = (state.filters.configurationid ?? '').replace(/^\[eq\]/, '');
  const [configurationDraft, setConfigurationDraft] = useFilterDraft(
    configurationFilter,
    (applied) => applied,
    () => false,
  );

  const appliedSearch = searchOf(state.filters);
  const sameSearch = (draft: string, applied: string) => draft.trim().toUpperCase() === applied.toUpperCase();
  const [searchDraft, setSearchDraft] = useFilterDraft(appliedSearch, (applied) => applied, sameSearch);
  useDebouncedApply(searchDraft.trim().toUpperCase(), appliedSearch.toUpperCase(), () => applyFilters(searchFilters(searchDraft), { replace: true }));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    applyFilters(searchFilters(searchDraft));
  };

  const [dateOpen, setDateOpen] = useState(false);
  const [filtersOpen, setFiltersOpen] = useState(
    Boolean(state.filters.status || state.filters.paymentmethod || (lockedConfiguration === null && state.filters.configurationid)),
  );
  // Shift+F shows the filters and the first one takes the keyboard, once the panel is there.
  const [filterFocusRequest, setFilterFocusRequest] = useState(0);
  useEffect(() => {
    if (filterFocusRequest > 0) overview.filterPanel.current?.querySelector<HTMLElement>('button, input, select')?.focus();
  }, [filterFocusRequest, overview.filterPanel]);

  const { permissions: permissionsByScope } = useSnapshot(sessionStore);
  const permissions = permissionsByScope[permissionScope(applied as ContextSelections).key] ?? [];
  const [bulkOpen, setBulkOpen] = useState<BulkAction | null>(null);
  const offered = (action: BulkAction) =>
    action === 'export'
      ? permissions.includes('Portal.Reports.Create')
      : action === 'cancel'
        ? permissions.includes('Portal.PaymentJobs.Cancel')
        : action === 'resend-links'
          ? permissions.includes('Portal.PaymentJobs.MailPaymentLink')
          : false;
  const bulkContext = bulkContextOf(applied as ContextSelections);
  const startAction = (action: BulkAction, key: string, params?: { fileType?: 'csv' | 'xlsx'; columns?: string[] }) => {
    if (!bulkContext) return Promise.reject(new Error('Choose a business or merchant first.'));
    // An export holds the rows picked when the export was opened, else every matching row; the other actions act on
    // the selection.
    const chosen = action === 'export' ? (exportSelection ?? selectAllMatching()) : selection;
    return startBulkJob({ area: 'payment-jobs', action, context: bulkContext, selection: selectionRequest(chosen, requestState.filters), params }, key);
  };
  const started = (job: BulkJob) => {
    setBulkOpen(null);
    if (job.action !== 'export') setSelection(emptySelection);
    showToast({
      kind: 'success',
      message: job.action === 'export' ? 'The export is being made: it will wait for you in My report queue.' : 'The bulk job has started.',
    });
    openBeside(`/bulk-jobs/${encodeURIComponent(job.id)}`, scope ? { afterPaneId: scope.paneId } : {});
  };
  const [exportKey, setExportKey] = useState('');
  const [exportSelection, setExportSelection] = useState<RowSelection | null>(null);
  const handlers: PaneRequestHandlers = {
    search: () => overview.searchInput.current?.focus(),
    statusTab: (index) => showTab(index === undefined || index <= 0 ? 'all' : (paymentJobTabs[index - 1] ?? 'all')),
    filters: () => {
      setFiltersOpen(true);
      setFilterFocusRequest((request) => request + 1);
    },
    date: () => setDateOpen(true),
    columns: () => overview.setColumnsOpen(true),
    ...overview.selectionHandlers,
    bulkAction: (argument) => {
      const action = (Object.entries(bulkActionIndex).find(([, index]) => index === argument)?.[0] ?? null) as BulkAction | null;
      if (action && offered(action) && (action === 'export' || hasSelection(selection))) openBulk(action);
    },
  };
  if (offered('export')) handlers.export = () => openBulk('export');
  usePaneCapabilities({ ...handlers, ...overview.rowHandlers(!dateOpen && !overview.columnsOpen) });
  function openBulk(action: BulkAction) {
    if (action === 'export') {
      // Rows picked: the export holds those, and says so.
      setExportSelection(pickedRows(selection));
      setExportKey(globalThis.crypto?.randomUUID?.() ?? `export-${Date.now()}`);
    }
    setBulkOpen(action);
  }
  const count = selectedCount(selection, total);
  const countText = selectionText(selection, total);

  const range = decodeDateRange(state.filters.createdatetimeutc);
  const title = lockedConfiguration === null ? 'Payment jobs' : 'Payments';
  if (contextPrefix === '')
    return (
      <div className="overview-pane">
        <h1>{title}</h1>
        <p role="alert">Choose a business, merchant or partner first.</p>
      </div>
    );

  return (
    <div className="overview-pane">
      <header className="overview-header">
        <h1>
          {title}
          {lockedConfiguration !== null ? <span className="field-hint"> of configuration {lockedConfiguration}</span> : null}
        </h1>
        <div className="payment-jobs-tools">
          <DatabaseFilterPresets
            page={paymentJobsPage}
            businessId={applied.business?.id ?? null}
            filters={state.filters}
            onApply={overview.showFilters}
            defaultApplies={Object.keys(state.filters).length === 0}
          />
          <button type="button" className="button" onClick={() => overview.setColumnsOpen(true)}>
            Columns
          </button>
        </div>
        {offered('export') ? (
          <button type="button" className="button" onClick={() => openBulk('export')}>
            Export
          </button>
        ) : null}
      </header>
      <div className="status-tabs" role="group" aria-label="Payment job status">
        {(['all', ...paymentJobTabs] as const).map((tab) => (
          <button key={tab} type="button" className="button status-tab" aria-pressed={activeTab === tab} onClick={() => showTab(tab)}>
            {tab === 'all' ? 'All' : paymentJobTabLabels[tab]}
          </button>
        ))}
      </div>
      <form className="filter-bar" role="search" aria-label="Payment job filters" onSubmit={submit}>
        <SearchField
          label="Search reference, order number or customer email"
          placeholder="Reference, order number or email"
          value={searchDraft}
          onChange={setSearchDraft}
          inputRef={overview.searchInput}
          keys={{
            onClear: () => applyFilters(searchFilters('')),
            onLeave: () => overview.cursor.current?.focus(),
            onOpen: appliedSearch === '' && rows.length > 0 ? overview.openCursorRow : undefined,
          }}
        />
        <DateRangeButton
          label="Created"
          summary={range.start || range.end ? `${range.start ?? '…'} – ${range.end ?? '…'}` : 'Any date'}
          active={Boolean(range.start || range.end)}
          onOpen={() => setDateOpen(true)}
        />
        <button type="button" className="button" aria-expanded={filtersOpen} onClick={() => setFiltersOpen(!filtersOpen)}>
          Filters
        </button>
        {Object.keys(state.filters).length > 0 ? (
          <button
            type="button"
            className="button button-ghost"
            onClick={() => {
              setSearchDraft('');
              overview.showFilters({});
            }}
          >
            Clear filters
          </button>
        ) : null}
        <button type="submit" className="visually-hidden" tabIndex={-1}>
          Apply filters
        </button>
        {filtersOpen ? (
          <div className="filter-panel" ref={overview.filterPanel}>
            <ChoiceFilter
              label="Status"
              options={statusOptions}
              selected={decodeAnyOf(state.filters.status, paymentStatuses)}
              onChange={(values) => applyFilters({ status: encodeAnyOf(values) })}
            />
            <ChoiceFilter
              label="Payment method"
              options={methodOptions}
              selected={decodeAnyOf(state.filters.paymentmethod, paymentMethods)}
              onChange={(values) => applyFilters({ paymentmethod: encodeAnyOf(values) })}
            />
            {lockedConfiguration === null && merchantIds !== null ? (
              <label className="dt-field">
                Configuration{' '}
                <select
                  value={configurationFilter}
                  onChange={(event) => applyFilters({ configurationid: event.target.value ? `[eq]${event.target.value}` : undefined })}
                >
                  <option value="">Any configuration</option>
                  {(configurations.data?.results ?? []).map((configuration) => (
                    <option key={configuration.configurationId} value={configuration.configurationId}>
                      {configuration.tradeName} ({configuration.configurationId})
                    </option>
                  ))}
                  {configurationFilter &&
                  !(configurations.data?.results ?? []).some((configuration) => configuration.configurationId === configurationFilter) ? (
                    <option value={configurationFilter}>{configurationFilter}</option>
                  ) : null}
                </select>
              </label>
            ) : null}
            {lockedConfiguration === null && merchantIds === null ? (
              <label className="dt-field">
                Configuration ID{' '}
                <input
                  type="text"
                  value={configurationDraft}
                  autoComplete="off"
                  onChange={(event) => setConfigurationDraft(event.target.value)}
                  onBlur={() => {
                    const value = configurationDraft.trim();
                    if (value !== configurationFilter) applyFilters({ configurationid: value ? `[eq]${value}` : undefined });
                  }}
                  onKeyDown={(event) => {
                    if (event.key === 'Enter') {
                      event.preventDefault();
                      const value = configurationDraft.trim();
                      applyFilters({ configurationid: value ? `[eq]${value}` : undefined });
                    }
                  }}
                />
              </label>
            ) : null}
          </div>
        ) : null}
      </form>
      <SelectionBar
        selection={selection}
        total={total}
        noun="payment jobs"
        onSelectAllMatching={() => setSelection(selectAllMatching())}
        onClear={() => setSelection(emptySelection)}
      >
        {offered('export') ? (
          <button type="button" className="button" onClick={() => openBulk('export')}>
            Export selected…
          </button>
        ) : null}
        {offered('cancel') ? (
          <button type="button" className="button" onClick={() => openBulk('cancel')}>
            Cancel payment jobs…
          </button>
        ) : null}
        {offered('resend-links') ? (
          <button type="button" className="button" onClick={() => openBulk('resend-links')}>
            Resend payment links…
          </button>
        ) : null}
      </SelectionBar>
      <OverviewTable
        {...overview.table}
        caption="Payment jobs"
        columns={shownColumns}
        rowKey={(row) => row.reference}
        rowHeader="reference"
        noun="payment jobs"
        pagesLabel="Payment job pages"
      />
      <BulkActionDialog
        open={bulkOpen === 'cancel' || bulkOpen === 'resend-links'}
        title={bulkOpen === 'cancel' ? 'Cancel payment jobs' : 'Resend payment links'}
        summary={
          bulkOpen === 'cancel'
            ? `${countText}: each one with nothing paid yet will be cancelled (${count === 1 ? 'it' : 'they'} can no longer be paid).`
            : `${countText}: the shopper of each open one is mailed its payment link again.`
        }
        confirmation={bulkOpen === 'cancel' ? 'I understand that cancelling is permanent.' : undefined}
        onClose={() => setBulkOpen(null)}
        onStart={(key) => startAction(bulkOpen ?? 'cancel', key)}
        onStarted={started}
      />
      <ExportDialog
        open={bulkOpen === 'export'}
        onClose={() => setBulkOpen(null)}
        rowCount={exportSelection ? selectedCount(exportSelection, total) : total}
        rowCountIsEstimate={!exportSelection && totalIsEstimate}
        selectedOnly={exportSelection !== null}
        visibleColumns={shownColumns.map((column) => column.header)}
        allColumns={paymentJobColumnsList.map((column) => column.header)}
        noun="payment jobs"
        busy={false}
        onExport={(choice) => {
          const columns = (choice.columns === 'visible' ? shownColumns : paymentJobColumnsList).map((column) => column.id);
          void startAction('export', exportKey, { fileType: choice.fileType, columns }).then(started, () =>
            showToast({ kind: 'danger', message: 'The export could not be queued.' }),
          );
        }}
      />
      <ColumnChooser {...overview.columnChooser} />
      <OverviewDatePicker
        open={dateOpen}
        title="Payment job dates"
        value={range}
        onApply={(next) => applyFilters({ createdatetimeutc: encodeDateRange(next) })}
        onClose={() => setDateOpen(false)}
      />
    </div>
  );
}
