// The transactions overview: every transaction of the applied context (or the route's partner or business), with
// server paging, sorting, filters and filter presets, a column chooser, and exports into the report queue. The
// whole table state lives in the pane's URL, so a link reproduces the view.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useId, useMemo, useRef, useState } from 'react';
import { useSnapshot } from 'valtio';
import { useLocation } from 'wouter';
import { saveUserSetting, userSettingQueries } from '../../src/api/user-setting-queries.ts';
import type { ContextSelections } from '../../src/contract/context.ts';
import { channels, paymentMethods, paymentStatuses } from '../../src/contract/enumerations.ts';
import {
  amountProblems, calendarDate, changeListState, columnChoice, columnChoiceOf, columnsSettingKey, compactFilters, type DateRange,
  datePresetIds, datePresetLabels, datePresetRange, dateRangeProblem, decodeAmount, decodeAnyOf, decodeDateRange, decodeSearchTerm,
  encodeAmount, encodeAnyOf, encodeDateRange, encodeSearchTerm, filterPresetsOf, filterPresetsSettingKey, type ListState,
  listStateFromParams, listStateToParams, pickerBounds, presetNameProblem, presetOfRange, removePreset, savePreset, weekStartsOn,
} from '../../src/contract/filters.ts';
import { rowRequests, tableRowsCapability } from '../../src/contract/table-rows.ts';
import { encodeOrdering, pageSizes } from '../../src/contract/list-query.ts';
import { messages } from '../../src/contract/messages.ts';
import { defaultTransactionColumns, transactionColumnLabels, transactionColumns, transactionListSpec, type TransactionColumn, type TransactionListItem } from '../../src/contract/transactions.ts';
import { formatShortDate } from '../../src/format/dates.ts';
import { formatPaymentMethod } from '../../src/format/payment-method.ts';
import { contextPath, contextStore } from '../../src/state/context-store.ts';
import { type PaneProps, type PaneRequestHandlers, usePaneCapabilities, usePaneScope } from '../../src/state/pane-scope.tsx';
import { showToast, toastDurations } from '../../src/state/toast-store.ts';
import { openBeside, type PaneCapability } from '../../src/state/workspace-store.ts';
import { ColumnChooser } from '../../src/ui/data-table/column-chooser.tsx';
import { CursorDataTable, type RowCursorHandle } from '../../src/ui/data-table/cursor-data-table.tsx';
import { DateRangePicker } from '../../src/ui/data-table/date-range-picker.tsx';
import { ExportDialog } from '../../src/ui/data-table/export-dialog.tsx';
import { AmountField, type AmountValue, ChoiceFilter, DateRangeButton, SearchField } from '../../src/ui/data-table/filter-fields.tsx';
import { FilterPresets } from '../../src/ui/data-table/filter-presets.tsx';
import { Pagination } from '../../src/ui/data-table/pagination.tsx';
import { transactionListColumnIds, transactionListColumns } from './transaction-columns.tsx';
import { queueTransactionExport, transactionQueries } from './transaction-queries.ts';
import '../../src/ui/data-table/data-table.css';
import './transactions.css';

/** The page name of user settings: transactionsFilterPresets, transactionsColumns. */
export const transactionsPage = 'transactions';
const searchDebounceMs = 400;
const rowsCapability: PaneCapability = tableRowsCapability;

export function contextPrefixOf(params: Readonly<Record<string, string | undefined>>, applied: ContextSelections): string {
  if (params.partnerId && params.businessId) return `/businesses/${encodeURIComponent(params.businessId)}`;
  if (params.partnerId) return `/partners/${encodeURIComponent(params.partnerId)}`;
  return contextPath(applied) ?? '';
}

const statusOptions = paymentStatuses.map((value) => ({ value, label: value.charAt(0).toUpperCase() + value.slice(1) }));
const channelOptions = channels.map((value) => ({ value, label: value }));
const methodOptions = paymentMethods.map((value) => ({ value, label: formatPaymentMethod(value) }));

function rangeSummary(range: DateRange, today: string): string {
  const preset = presetOfRange(range, today);
  if (preset) return datePresetLabels[preset];
  if (range.start && range.end) return range.start === range.end ? formatShortDate(`${range.start}T12:00:00`) : `${formatShortDate(`${range.start}T12:00:00`)} – ${formatShortDate(`${range.end}T12:00:00`)}`;
  if (range.start) return `From ${formatShortDate(`${range.start}T12:00:00`)}`;
  if (range.end) return `Until ${formatShortDate(`${range.end}T12:00:00`)}`;
  return 'Any date';
}

function newIdentifier(): string {
  return globalThis.crypto?.randomUUID?.() ?? `preset-${Date.now()}-${Math.random().toString(36).slice(2)}`;
}

export function TransactionsPane({ params, search }: PaneProps) {
  const [location, navigate] = useLocation();
  const scope = usePaneScope();
  const queryClient = useQueryClient();
  const { applied } = useSnapshot(contextStore);
  const contextPrefix = contextPrefixOf(params, applied as ContextSelections);
  const state = useMemo(() => listStateFromParams(Object.fromEntries(new URLSearchParams(search)), transactionListSpec), [search]);
  const today = calendarDate(new Date());

  const setState = (next: ListState, options: { replace?: boolean } = {}) => {
    const query = new URLSearchParams(listStateToParams(next, transactionListSpec)).toString();
    navigate(`${location}${query ? `?${query}` : ''}`, options.replace ? { replace: true } : undefined);
  };
  const applyFilters = (patch: Record<string, string | undefined>, options: { replace?: boolean } = {}) => {
    setState(changeListState(state, { filters: compactFilters({ ...state.filters, ...patch }) }), options);
  };

  // The list.
  const list = useQuery(transactionQueries.list(contextPrefix, state));
  const failed = list.isError;
  const rows: readonly TransactionListItem[] = failed ? [] : list.data?.results ?? [];
  const total = failed ? 0 : list.data?.numberOfResults ?? 0;
  const totalIsEstimate = !failed && (list.data?.numberOfResultsIsEstimate ?? false);

  // Columns, remembered per user.
  const columnsKey = columnsSettingKey(transactionsPage);
  const columnSetting = useQuery(userSettingQueries.detail(columnsKey));
  const defaultVisible = defaultTransactionColumns.filter((column) => transactionListColumnIds.includes(column));
  const { order, visible } = columnChoiceOf(columnSetting.data, transactionListColumnIds, defaultVisible);
  const shownColumns = order.filter((id) => visible.includes(id))
    .map((id) => transactionListColumns.find((column) => column.id === id))
    .filter((column): column is (typeof transactionListColumns)[number] => column !== undefined);
  const saveColumns = (nextOrder: readonly string[], nextVisible: readonly string[]) => {
    const value = columnChoice(nextOrder, nextVisible);
    queryClient.setQueryData(userSettingQueries.detail(columnsKey).queryKey, value);
    void saveUserSetting(columnsKey, value).catch(() => queryClient.invalidateQueries({ queryKey: userSettingQueries.detail(columnsKey).queryKey }));
  };

  // Filter drafts: typed values apply 400 ms after the last key (or on Enter) when valid.
  const [searchDraft, setSearchDraft] = useState(() => decodeSearchTerm(state.filters.searchterm));
  const [amountDraft, setAmountDraft] = useState<AmountValue>(() => decodeAmount(state.filters.amount));
  const appliedSearch = state.filters.searchterm;
  const appliedAmount = state.filters.amount;
  useEffect(() => {
    if (encodeSearchTerm(searchDraft) !== appliedSearch) setSearchDraft(decodeSearchTerm(appliedSearch));
  }, [appliedSearch]); // the draft follows the URL when the URL changes (a preset, back, a link)
  useEffect(() => {
    if (encodeAmount(amountDraft) !== appliedAmount) setAmountDraft(decodeAmount(appliedAmount));
  }, [appliedAmount]);
  const amountIssues = amountProblems(amountDraft);
  const amountValid = Object.keys(amountIssues).length === 0;
  const draftFilters = compactFilters({ ...state.filters, searchterm: encodeSearchTerm(searchDraft), amount: amountValid ? encodeAmount(amountDraft) : state.filters.amount });
  const pendingKey = JSON.stringify([encodeSearchTerm(searchDraft), amountValid ? encodeAmount(amountDraft) : appliedAmount]);
  const appliedKey = JSON.stringify([appliedSearch, appliedAmount]);
  useEffect(() => {
    if (pendingKey === appliedKey) return undefined;
    const timer = setTimeout(() => applyFilters({ searchterm: encodeSearchTerm(searchDraft), amount: amountValid ? encodeAmount(amountDraft) : appliedAmount }, { replace: true }), searchDebounceMs);
    return () => clearTimeout(timer);
  });
  const submitFilters = (event: FormEvent) => {
    event.preventDefault();
    if (amountValid) applyFilters({ searchterm: encodeSearchTerm(searchDraft), amount: encodeAmount(amountDraft) });
  };

  const range = decodeDateRange(state.filters.date);
  const formProblem = !amountValid ? 'Correct the amount first.' : dateRangeProblem(range);

  // Presets, remembered per user.
  const presetsKey = filterPresetsSettingKey(transactionsPage);
  const presetSetting = useQuery(userSettingQueries.detail(presetsKey));
  const presets = filterPresetsOf(presetSetting.data);
  const storePresets = useMutation({
    mutationFn: (next: ReturnType<typeof filterPresetsOf>) => saveUserSetting(presetsKey, next),
    onSuccess: (_result, next) => queryClient.setQueryData(userSettingQueries.detail(presetsKey).queryKey, next),
  });

  // Dialogs and panels.
  const [filtersOpen, setFiltersOpen] = useState(Boolean(state.filters.status || state.filters.channel || state.filters.paymentmethod || state.filters.amount));
  const [dateOpen, setDateOpen] = useState(false);
  const [columnsOpen, setColumnsOpen] = useState(false);
  const [exportOpen, setExportOpen] = useState(false);
  const searchInput = useRef<HTMLInputElement>(null);
  const filterPanel = useRef<HTMLDivElement>(null);
  const root = useRef<HTMLDivElement>(null);
  const filterPanelId = useId();

  // The row cursor lives in the table (a move renders the table alone); the row commands reach it through a handle.
  const rowCursor = useRef<RowCursorHandle>(null);
  const pageKey = `${search}|${list.dataUpdatedAt}`;
  const openRow = (row: TransactionListItem | undefined, beside: boolean) => {
    if (!row) return;
    const path = `/transactions/${encodeURIComponent(row.reference)}`;
    if (beside) openBeside(path, scope ? { afterPaneId: scope.paneId } : {});
    else navigate(path);
  };

  // The keyboard: Enter on a focused button (in the pane, a popover or a dialog) stays the button's: the row
  // commands look at the focus when the key is pressed (the command context's controlFocused), so the pane does
  // not follow the focus in its own state (which rendered it again whenever focus moved, a palette opening
  // included). Its own dialogs withdraw the rows while open.
  const dialogOpen = dateOpen || columnsOpen || exportOpen;

  const handlers: PaneRequestHandlers = {
    search: () => searchInput.current?.focus(),
    filters: () => {
      setFiltersOpen(true);
      requestAnimationFrame(() => filterPanel.current?.querySelector<HTMLElement>('button, input')?.focus());
    },
    date: () => setDateOpen(true),
    columns: () => setColumnsOpen(true),
    export: () => setExportOpen(true),
  };
  if (!dialogOpen && rows.length > 0) {
    handlers[rowsCapability] = (argument) => {
      if (argument === rowRequests.open || argument === rowRequests.openBeside) {
        openRow(rows[rowCursor.current?.index() ?? 0], argument === rowRequests.openBeside);
        return;
      }
      rowCursor.current?.move(argument === rowRequests.previous ? -1 : 1);
    };
  }
  usePaneCapabilities(handlers);

  // Export.
  const allExportColumns = transactionColumns;
  const visibleExportColumns = shownColumns.map((column) => column.id).filter((id): id is TransactionColumn => (transactionColumns as readonly string[]).includes(id));
  const exactTotal = list.data && !list.data.numberOfResultsIsEstimate && !failed ? list.data.numberOfResults : null;
  const count = useQuery({ ...transactionQueries.count(contextPrefix, state.filters), enabled: exportOpen && exactTotal === null });
  const queueExport = useMutation({
    mutationFn: (choice: { fileType: 'xlsx' | 'csv'; columns: 'visible' | 'all' }) => queueTransactionExport(contextPrefix, {
      fileType: choice.fileType,
      columns: [...(choice.columns === 'all' ? allExportColumns : visibleExportColumns)],
      filters: state.filters,
      ordering: encodeOrdering(state.sort),
    }),
    onSuccess: () => {
      setExportOpen(false);
      void queryClient.invalidateQueries({ queryKey: ['reports'] });
      showToast({ kind: 'info', message: messages.reportQueued, durationMs: toastDurations.long, link: { href: '/reporting-overview', label: 'Open my report queue' } });
    },
  });

  const activeFilterCount = ['status', 'channel', 'paymentmethod', 'amount'].filter((key) => state.filters[key]).length;
  const { min, max } = pickerBounds(today);

  return (
    <div ref={root} className="transactions-pane">
      <header className="transactions-header">
        <h1>Transactions</h1>
        <div className="transactions-tools">
          <FilterPresets
            presets={presets}
            saveBlockedBy={formProblem}
            nameProblem={presetNameProblem}
            onApply={(identifier) => {
              const preset = presets.find((candidate) => candidate.identifier === identifier);
              if (!preset) return;
              setState(changeListState(state, { filters: preset.filters }));
              showToast({ kind: 'success', message: `Filter preset '${preset.name}' applied.` });
            }}
            onRemove={(identifier) => {
              const preset = presets.find((candidate) => candidate.identifier === identifier);
              storePresets.mutate(removePreset(presets, identifier), {
                onSuccess: () => showToast({ kind: 'success', message: `Filter preset '${preset?.name ?? ''}' removed.` }),
              });
            }}
            onSave={(name) => {
              const { presets: next, preset } = savePreset(presets, { name, filters: draftFilters }, newIdentifier());
              storePresets.mutate(next, { onSuccess: () => showToast({ kind: 'success', message: `Filter preset '${preset.name}' saved.` }) });
            }}
          />
          <button type="button" className="button" onClick={() => setColumnsOpen(true)}>Columns</button>
          <button type="button" className="button button-primary" onClick={() => setExportOpen(true)}>Export</button>
        </div>
      </header>

      <form className="filter-bar" role="search" aria-label="Transaction filters" onSubmit={submitFilters}>
        <SearchField label="Search reference, payment job or customer email" placeholder="Search reference, payment job or email" value={searchDraft} onChange={setSearchDraft} inputRef={searchInput} />
        <DateRangeButton label="Date" summary={rangeSummary(range, today)} active={Boolean(range.start || range.end)} onOpen={() => setDateOpen(true)} />
        <button type="button" className={`button${activeFilterCount > 0 ? ' filter-choice is-active' : ''}`} aria-expanded={filtersOpen} aria-controls={filterPanelId} onClick={() => setFiltersOpen(!filtersOpen)}>
          Filters{activeFilterCount > 0 ? ` (${activeFilterCount})` : ''}
        </button>
        {Object.keys(state.filters).length > 0 ? (
          <button type="button" className="button button-ghost" onClick={() => { setSearchDraft(''); setState(changeListState(state, { filters: {} })); }}>Clear filters</button>
        ) : null}
        <button type="submit" className="visually-hidden" tabIndex={-1}>Apply filters</button>
        {filtersOpen ? (
          <div ref={filterPanel} id={filterPanelId} className="filter-panel">
            <ChoiceFilter label="Status" options={statusOptions} selected={decodeAnyOf(state.filters.status, paymentStatuses)} onChange={(values) => applyFilters({ status: encodeAnyOf(values) })} />
            <ChoiceFilter label="Channel" options={channelOptions} selected={decodeAnyOf(state.filters.channel, channels)} onChange={(values) => applyFilters({ channel: encodeAnyOf(values) })} />
            <ChoiceFilter label="Payment method" options={methodOptions} selected={decodeAnyOf(state.filters.paymentmethod, paymentMethods)} onChange={(values) => applyFilters({ paymentmethod: encodeAnyOf(values) })} />
            <AmountField value={amountDraft} problems={amountIssues} onChange={setAmountDraft} />
          </div>
        ) : null}
      </form>

      <CursorDataTable
        cursorHandle={rowCursor}
        resetKey={pageKey}
        caption="Transactions"
        columns={shownColumns}
        rows={rows}
        rowKey={(row) => row.reference}
        rowHeader="reference"
        status={failed ? 'error' : list.isPending ? 'loading' : list.isPlaceholderData ? 'updating' : 'ready'}
        emptyMessage={Object.keys(state.filters).length > 0 ? 'No transactions match these filters.' : 'There are no transactions here yet.'}
        errorMessage="The transactions could not be loaded."
        sort={state.sort}
        onSortChange={(sort) => setState(changeListState(state, { sort }))}
        onOpen={(row, { beside }) => openRow(row, beside)}
        firstRowNumber={(state.pageNumber - 1) * state.pageSize + 1}
        totalRows={total}
      />
      <Pagination
        label="Transaction pages"
        pageNumber={state.pageNumber}
        pageSize={state.pageSize}
        pageSizes={pageSizes}
        rowsOnPage={rows.length}
        total={total}
        totalIsEstimate={totalIsEstimate}
        onPageChange={(pageNumber) => setState(changeListState(state, { pageNumber }))}
        onPageSizeChange={(pageSize) => setState(changeListState(state, { pageSize }))}
      />

      <DateRangePicker
        open={dateOpen}
        title="Transaction dates"
        value={range}
        presets={datePresetIds.map((id) => ({ id, label: datePresetLabels[id], range: datePresetRange(id, today) }))}
        min={min}
        max={max}
        weekStartsOn={weekStartsOn}
        onApply={(next) => applyFilters({ date: encodeDateRange(next) })}
        onClose={() => setDateOpen(false)}
      />
      <ColumnChooser
        open={columnsOpen}
        onClose={() => setColumnsOpen(false)}
        columns={transactionListColumns.map((column) => ({ id: column.id, label: column.label }))}
        order={order}
        visible={visible}
        onChange={saveColumns}
        onReset={() => saveColumns(transactionListColumnIds, defaultVisible)}
      />
      <ExportDialog
        open={exportOpen}
        onClose={() => setExportOpen(false)}
        noun="transactions"
        rowCount={exactTotal ?? count.data?.numberOfResults ?? null}
        rowCountFailed={count.isError}
        visibleColumns={visibleExportColumns.map((id) => transactionColumnLabels[id])}
        allColumns={allExportColumns.map((id) => transactionColumnLabels[id])}
        busy={queueExport.isPending}
        onExport={(choice) => queueExport.mutate(choice)}
      />
    </div>
  );
}
