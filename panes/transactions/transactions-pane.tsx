// The transactions overview: every transaction of the applied context (or the route's partner or business), with
// server paging, sorting, filters and filter presets, a column chooser, and exports into the report queue (once, or
// scheduled: 'Schedule this export…' in a business, merchant or partner). The whole table state lives in the pane's
// URL, so a link reproduces the view. A card is found by its last four or first six digits (the Card field), and the
// masked card is a column to choose. Opened from the palette's record search, the list shows what the preview showed:
// its scope (scope=all: everything the user may see), an amount without a currency compared in each row's own
// currency, and a note naming whatever the query could not use.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useId, useRef, useState } from 'react';
import { useSnapshot } from 'valtio';
import { describeScheduleOrdering } from '../../src/contract/report-schedules.ts';
import type { ContextSelections } from '../../src/contract/context.ts';
import { channels, paymentMethods, paymentStatuses } from '../../src/contract/enumerations.ts';
import { calendarDate } from '../../src/contract/calendar-date.ts';
import { dateRangeProblem, decodeDateRange, encodeDateRange } from '../../src/contract/date-range-filter.ts';
import { amountProblems, decodeAmount, encodeAmount } from '../../src/contract/amount-filter.ts';
import { compactFilters, decodeAnyOf, decodeSearchTerm, encodeAnyOf, encodeSearchTerm } from '../../src/contract/list-state.ts';
import { encodeFilter, encodeOrdering, parseFilter } from '../../src/contract/list-query.ts';
import { messages } from '../../src/contract/messages.ts';
import {
  amountInOwnCurrencyMessage,
  cardFilterOf,
  defaultTransactionColumns,
  maskedCardFilter,
  overviewCurrencies,
  searchScopeParameter,
  transactionColumnLabels,
  transactionColumns,
  transactionKinds,
  transactionListSpec,
  unusedSearchParameter,
  type TransactionColumn,
} from '../../src/contract/transactions.ts';
import type { TransactionListItem } from '../../src/contract/transaction-schemas.ts';
import { measureDescriptions } from '../../src/contract/dashboard-intervals.ts';
import { formatMinorUnits } from '../../src/format/money.ts';
import { formatPaymentMethod } from '../../src/format/payment-method.ts';
import { contextPath, contextStore } from '../../src/state/context-store.ts';
import { permissionScope, sessionStore } from '../../src/state/session-store.ts';
import { type PaneProps, type PaneRequestHandlers, usePaneCapabilities, usePaneScope } from '../../src/state/pane-scope.tsx';
import { showToast, toastDurations } from '../../src/state/toast-store.ts';
import { openBeside } from '../../src/state/workspace-store.ts';
import { ColumnChooser } from '../../src/ui/data-table/column-chooser.tsx';
import { ExportDialog } from '../../src/ui/data-table/export-dialog.tsx';
import { AmountField, type AmountValue, ChoiceFilter, DateRangeButton, SearchField, searchFieldKeyDown } from '../../src/ui/data-table/filter-fields.tsx';
import { useDebouncedApply, useFilterDraft } from '../../src/ui/data-table/filter-draft.ts';
import { OverviewTable } from '../../src/ui/data-table/overview-table.tsx';
import { transactionListColumnIds, transactionListColumns } from './transaction-columns.tsx';
import { queueTransactionExport, transactionQueries } from './transaction-queries.ts';
import { bulkActionIndex, type BulkAction, type BulkContext, type BulkJob } from '../../src/contract/bulk-jobs.ts';
import { SelectionBar } from '../../src/ui/data-table/selection-bar.tsx';
import { emptySelection, pickedRows, selectAllMatching, selectedCount, selectionRequest, type RowSelection } from '../../src/ui/data-table/selection-model.ts';
import { DatabaseFilterPresets } from '../overview/database-presets.tsx';
import { dateRangeSummary, OverviewDatePicker } from '../overview/overview-dates.tsx';
import { useOverviewState } from '../overview/use-overview-state.ts';
import { bulkContextOf, startBulkJob } from '../bulk-jobs/bulk-job-queries.ts';
import { ScheduleDialog, type TransactionsScheduleTarget } from '../reporting/schedule-dialog.tsx';
import '../../src/ui/data-table/data-table.css';
import '../../src/ui/data-table/overview.css';
import './transactions.css';

/** The filters the Filters panel holds (its button counts them). */
const filterPanelKeys = ['kind', 'currency', 'status', 'channel', 'paymentmethod', 'amount'] as const;

/** The page name of its filter presets and user settings (transactionsColumns). */
export const transactionsPage = 'transactions';

export function contextPrefixOf(params: Readonly<Record<string, string | undefined>>, applied: ContextSelections): string {
  if (params.partnerId && params.businessId) return `/businesses/${encodeURIComponent(params.businessId)}`;
  if (params.partnerId) return `/partners/${encodeURIComponent(params.partnerId)}`;
  return contextPath(applied) ?? '';
}

/** The bulk job context of the pane's rows: the partner frame's business or partner, else the applied context. */
export function transactionBulkContext(params: Readonly<Record<string, string | undefined>>, applied: ContextSelections): BulkContext | null {
  if (params.partnerId && params.businessId) return { level: 'business', businessId: params.businessId };
  if (params.partnerId) return { level: 'partner', partnerId: params.partnerId };
  return bulkContextOf(applied);
}

const statusOptions = paymentStatuses.map((value) => ({ value, label: value.charAt(0).toUpperCase() + value.slice(1) }));
const channelOptions = channels.map((value) => ({ value, label: value }));
const methodOptions = paymentMethods.map((value) => ({ value, label: formatPaymentMethod(value) }));
const kindOptions = transactionKinds.map((value) => ({ value, label: value.charAt(0).toUpperCase() + value.slice(1) }));
const currencyOptions = overviewCurrencies.map((value) => ({ value, label: value }));

/** The first [eq] value of a filter parameter ('[eq]4242' → '4242'). */
function firstValue(raw: string | undefined): string | undefined {
  if (!raw) return undefined;
  const clauses = parseFilter(raw);
  return Array.isArray(clauses) ? clauses[0]?.value : undefined;
}

/** The Card field's text for the applied card filters: '4242', '424242' or '424242…4242'. */
export function cardTextOf(filters: Readonly<Record<string, string | undefined>>): string {
  const last4 = firstValue(filters.last4);
  const bin = firstValue(filters.bin);
  if (last4 && bin) return maskedCardFilter(bin, last4);
  return last4 ?? bin ?? '';
}

const filterLabels: Record<string, string> = { kind: 'Type', currency: 'Currency', status: 'Status', channel: 'Channel', paymentmethod: 'Payment method' };
const optionLabels: Record<string, readonly { value: string; label: string }[]> = {
  kind: kindOptions,
  currency: currencyOptions,
  status: statusOptions,
  channel: channelOptions,
  paymentmethod: methodOptions,
};

/** One filter in words for the preset list: 'Type: Refund', 'Amount ≥ 50', 'Search: “TX6”'. */
function describeFilter(name: string, value: string, today: string): string | undefined {
  const options = optionLabels[name];
  if (options) {
    const labels = decodeAnyOf(
      value,
      options.map((option) => option.value),
    ).map((chosen) => options.find((option) => option.value === chosen)?.label ?? chosen);
    return labels.length > 0 ? `${filterLabels[name]}: ${labels.join(', ')}` : undefined;
  }
  if (name === 'amount') {
    const amount = decodeAmount(value);
    if (amount.mode === 'exact') return `Amount = ${amount.exact}`;
    return [amount.min ? `Amount ≥ ${amount.min}` : '', amount.max ? `Amount ≤ ${amount.max}` : ''].filter(Boolean).join(', ') || undefined;
  }
  if (name === 'date') return `Date: ${dateRangeSummary(decodeDateRange(value), today)}`;
  if (name === 'searchterm') return `Search: “${decodeSearchTerm(value)}”`;
  if (name === 'last4') return `Card: ${maskedCardFilter(undefined, firstValue(value))}`;
  if (name === 'bin') return `Card: ${maskedCardFilter(firstValue(value), undefined)}`;
  return undefined;
}

export function TransactionsPane({ params, search }: PaneProps) {
  const scope = usePaneScope();
  const queryClient = useQueryClient();
  const { applied } = useSnapshot(contextStore);
  const searchParams = new URLSearchParams(search);
  // From the palette's record search: its scope (everything the user may see) and what it could not use.
  const allScope = searchParams.get(searchScopeParameter.name) === searchScopeParameter.all;
  const unusedFromSearch = searchParams.get(unusedSearchParameter)?.trim() ?? '';
  const narrowerPrefix = contextPrefixOf(params, applied as ContextSelections);
  const contextPrefix = allScope ? '' : narrowerPrefix;
  const today = calendarDate(new Date());
  const overview = useOverviewState({
    search,
    listSpec: transactionListSpec,
    keptParams: {
      ...(allScope ? { [searchScopeParameter.name]: searchScopeParameter.all } : {}),
      ...(unusedFromSearch ? { [unusedSearchParameter]: unusedFromSearch } : {}),
    },
    query: (listState) => transactionQueries.list(contextPrefix, listState),
    rowPath: (row: TransactionListItem) => `/transactions/${encodeURIComponent(row.reference)}`,
    columns: transactionListColumns,
    columnChoice: { page: transactionsPage, defaultVisible: defaultTransactionColumns.filter((column) => transactionListColumnIds.includes(column)) },
    selectionScope: contextPrefix,
  });
  const { state, applyFilters, list, rows, total, selection, setSelection, shownColumns } = overview;

  // An amount without exactly one currency compares each row in its own currency (as the palette's preview does); a
  // note under the filters says so.
  const requestState = state;
  const failed = list.isError;

  // Totals, with one currency chosen: the dashboard's measures, counted as the dashboard counts them.
  const singleCurrency = decodeAnyOf(requestState.filters.currency, overviewCurrencies).length === 1;
  const totals = useQuery({ ...transactionQueries.totals(contextPrefix, requestState.filters), enabled: singleCurrency });

  // Filter drafts: typed values apply 400 ms after the last key (or on Enter) when valid.
  const appliedSearch = state.filters.searchterm;
  const [searchDraft, setSearchDraft] = useFilterDraft(appliedSearch ?? '', decodeSearchTerm, (draft, applied) => (encodeSearchTerm(draft) ?? '') === applied);
  const appliedAmount = state.filters.amount;
  const [amountDraft, setAmountDraft] = useFilterDraft<AmountValue>(
    appliedAmount ?? '',
    (applied) => decodeAmount(applied || undefined),
    (draft, applied) => (encodeAmount(draft) ?? '') === applied,
  );
  const appliedCard = { last4: state.filters.last4, bin: state.filters.bin };
  // The Card field: 4 digits are the last four, 6 the first six, a masked number either or both. Its text stays as
  // typed while it means the applied filters (several last fours from the palette show the first and are kept).
  const cardPatchOf = (draft: string) => {
    const parsed = cardFilterOf(draft);
    if (draft === cardTextOf(state.filters) || (parsed && 'problem' in parsed)) return appliedCard;
    return {
      last4: parsed && 'last4' in parsed && parsed.last4 ? encodeFilter([{ operator: 'eq', value: parsed.last4 }]) : undefined,
      bin: parsed && 'bin' in parsed && parsed.bin ? encodeFilter([{ operator: 'eq', value: parsed.bin }]) : undefined,
    };
  };
  const cardKeyOf = (patch: { last4?: string; bin?: string }) => `${patch.last4 ?? ''}|${patch.bin ?? ''}`;
  const [cardDraft, setCardDraft] = useFilterDraft(
    cardKeyOf(appliedCard),
    () => cardTextOf(state.filters),
    (draft, applied) => cardKeyOf(cardPatchOf(draft)) === applied,
  );
  const cardParsed = cardFilterOf(cardDraft);
  const cardProblem = cardParsed && 'problem' in cardParsed ? cardParsed.problem : null;
  const cardPatch = cardPatchOf(cardDraft);
  const chosenCurrencies = decodeAnyOf(state.filters.currency, overviewCurrencies);
  const amountIssues = amountProblems(amountDraft);
  const amountValid = Object.keys(amountIssues).length === 0;
  const draftFilters = compactFilters({
    ...state.filters,
    searchterm: encodeSearchTerm(searchDraft),
    amount: amountValid ? encodeAmount(amountDraft) : state.filters.amount,
    ...cardPatch,
  });
  const pendingKey = JSON.stringify([encodeSearchTerm(searchDraft), amountValid ? encodeAmount(amountDraft) : appliedAmount, cardPatch.last4, cardPatch.bin]);
  const appliedKey = JSON.stringify([appliedSearch, appliedAmount, appliedCard.last4, appliedCard.bin]);
  useDebouncedApply(pendingKey, appliedKey, () =>
    applyFilters(
      { searchterm: encodeSearchTerm(searchDraft), amount: amountValid ? encodeAmount(amountDraft) : appliedAmount, ...cardPatch },
      { replace: true },
    ),
  );
  const submitFilters = (event: FormEvent) => {
    event.preventDefault();
    if (amountValid) applyFilters({ searchterm: encodeSearchTerm(searchDraft), amount: encodeAmount(amountDraft), ...cardPatch });
  };

  const range = decodeDateRange(state.filters.date);
  const formProblem = !amountValid ? 'Correct the amount first.' : (cardProblem ?? dateRangeProblem(range));

  // Presets, saved in the database (<DatabaseFilterPresets>): mine, my roles', and those shared with the business of
  // the route or the applied context. Applying one also shows its search in the field.
  const businessId = params.partnerId && !params.businessId ? null : (params.businessId ?? (applied as ContextSelections).business?.id ?? null);
  const applyPresetFilters = (filters: Record<string, string>, options: { replace?: boolean }) => {
    setSearchDraft(decodeSearchTerm(filters.searchterm));
    overview.showFilters(filters, options);
  };

  // Dialogs and panels.
  const [filtersOpen, setFiltersOpen] = useState(filterPanelKeys.some((key) => state.filters[key]));
  const [dateOpen, setDateOpen] = useState(false);
  const [exportOpen, setExportOpen] = useState(false);
  const root = useRef<HTMLDivElement>(null);
  const filterPanelId = useId();
  const cardFieldId = useId();

  // The keyboard: Enter on a focused button (in the pane, a popover or a dialog) stays the button's: the row
  // commands look at the focus when the key is pressed (the command context's controlFocused), so the pane does
  // not follow the focus in its own state (which rendered it again whenever focus moved, a palette opening
  // included). Its own dialogs withdraw the rows while open.
  const [scheduleOpen, setScheduleOpen] = useState(false);
  const dialogOpen = dateOpen || overview.columnsOpen || exportOpen || scheduleOpen;

  // Selection: a description over the filters, kept across pages and sorts, cleared when the filters or
  // the context change. Picked rows are exported as a bulk export job (a report in My report queue, the server
  // keeping only the picks within the context); with nothing picked, Export queues every matching row as before.
  const bulkContext = allScope ? null : transactionBulkContext(params, applied as ContextSelections);
  const visibleExportColumns = shownColumns
    .map((column) => column.id)
    .filter((id): id is TransactionColumn => (transactionColumns as readonly string[]).includes(id));
  // A scheduled export addresses a business, a merchant or a partner's businesses where the export may be queued; in a
  // partner's frame the applied context's permissions say nothing about it, so the server's answer decides (shown in
  // the dialog). Context-free views (an internal user's whole book) are not scheduled.
  const { permissions: permissionsByScope } = useSnapshot(sessionStore);
  const contextPermissions = permissionsByScope[permissionScope(applied as ContextSelections).key] ?? [];
  const mayQueueExport = allScope
    ? false
    : params.partnerId !== undefined || (contextPermissions.includes('Mapi.Transactions.Read') && contextPermissions.includes('Portal.Reports.Create'));
  const scheduleContext = !mayQueueExport
    ? null
    : bulkContext?.level === 'partner' && bulkContext.partnerId
      ? { partnerId: bulkContext.partnerId }
      : bulkContext?.businessId && (bulkContext.level === 'business' || bulkContext.level === 'merchant')
        ? { businessId: bulkContext.businessId, ...(bulkContext.level === 'merchant' && bulkContext.merchantId ? { merchantId: bulkContext.merchantId } : {}) }
        : null;
  const scheduleTarget: TransactionsScheduleTarget | null = scheduleContext
    ? {
        reportType: 'transactions',
        ...scheduleContext,
        columns: visibleExportColumns.length > 0 ? visibleExportColumns : [...transactionColumns],
        // Each run's period replaces the view's date range; the view's sort is kept.
        filters: compactFilters({ ...requestState.filters, date: undefined }),
        ordering: encodeOrdering(state.sort),
      }
    : null;
  const [exportSelection, setExportSelection] = useState<RowSelection | null>(null);
  const [exportKey, setExportKey] = useState('');
  function openExport() {
    setExportSelection(pickedRows(selection));
    setExportKey(globalThis.crypto?.randomUUID?.() ?? `export-${Date.now()}`);
    setExportOpen(true);
  }
  const exportStarted = (job: BulkJob) => {
    setExportOpen(false);
    void queryClient.invalidateQueries({ queryKey: ['reports'] });
    showToast({
      kind: 'info',
      message: messages.reportQueued,
      durationMs: toastDurations.long,
      link: { href: '/reporting-overview', label: 'Open my report queue' },
    });
    openBeside(`/bulk-jobs/${encodeURIComponent(job.id)}`, scope ? { afterPaneId: scope.paneId } : {});
  };

  const handlers: PaneRequestHandlers = {
    search: () => overview.searchInput.current?.focus(),
    filters: () => {
      setFiltersOpen(true);
      requestAnimationFrame(() => overview.filterPanel.current?.querySelector<HTMLElement>('button, input, select')?.focus());
    },
    date: () => setDateOpen(true),
    columns: () => overview.setColumnsOpen(true),
    export: () => openExport(),
  };
  if (scheduleTarget) handlers.schedule = () => setScheduleOpen(true);
  if (bulkContext) {
    Object.assign(handlers, overview.selectionHandlers);
    handlers.bulkAction = (argument) => {
      const action = (Object.entries(bulkActionIndex).find(([, index]) => index === argument)?.[0] ?? null) as BulkAction | null;
      if (action === 'export') openExport();
    };
  }
  usePaneCapabilities({ ...handlers, ...overview.rowHandlers(!dialogOpen) });

  // Export.
  const allExportColumns = transactionColumns;
  const exactTotal = list.data && !list.data.numberOfResultsIsEstimate && !failed ? list.data.numberOfResults : null;
  const count = useQuery({ ...transactionQueries.count(contextPrefix, requestState.filters), enabled: exportOpen && exactTotal === null });
  const queueExport = useMutation({
    mutationFn: (choice: { fileType: 'xlsx' | 'csv'; columns: 'visible' | 'all' }) =>
      queueTransactionExport(contextPrefix, {
        fileType: choice.fileType,
        columns: [...(choice.columns === 'all' ? allExportColumns : visibleExportColumns)],
        filters: requestState.filters,
        ordering: encodeOrdering(state.sort),
      }),
    onSuccess: () => {
      setExportOpen(false);
      void queryClient.invalidateQueries({ queryKey: ['reports'] });
      showToast({
        kind: 'info',
        message: messages.reportQueued,
        durationMs: toastDurations.long,
        link: { href: '/reporting-overview', label: 'Open my report queue' },
      });
    },
  });

  const activeFilterCount = filterPanelKeys.filter((key) => state.filters[key]).length;

  return (
    <div ref={root} className="overview-pane">
      <header className="overview-header">
        <h1>Transactions</h1>
        <div className="overview-tools">
          <DatabaseFilterPresets
            page={transactionsPage}
            businessId={businessId}
            filters={draftFilters}
            onApply={applyPresetFilters}
            defaultApplies={Object.keys(state.filters).length === 0}
            saveBlockedBy={formProblem}
            describeFilter={(name, value) => describeFilter(name, value, today)}
            relativeDates={{ today }}
          />
          <button type="button" className="button" onClick={() => overview.setColumnsOpen(true)}>
            Columns
          </button>
          {scheduleTarget ? (
            <button type="button" className="button" onClick={() => setScheduleOpen(true)}>
              Schedule this export…
            </button>
          ) : null}
          <button type="button" className="button button-primary" onClick={openExport}>
            Export
          </button>
        </div>
      </header>

      <form className="filter-bar" role="search" aria-label="Transaction filters" onSubmit={submitFilters}>
        <SearchField
          label="Search reference, payment job or customer email"
          placeholder="Search reference, payment job or email"
          value={searchDraft}
          onChange={setSearchDraft}
          inputRef={overview.searchInput}
          keys={{
            onClear: () => applyFilters({ searchterm: encodeSearchTerm('') }),
            onLeave: () => overview.cursor.current?.focus(),
            onOpen: !appliedSearch && rows.length > 0 ? overview.openCursorRow : undefined,
          }}
        />
        <div className="dt-field filter-card">
          <label htmlFor={cardFieldId} className="visually-hidden">
            Card: last four or first six digits
          </label>
          <input
            id={cardFieldId}
            type="search"
            className="dt-input"
            inputMode="numeric"
            autoComplete="off"
            maxLength={24}
            placeholder="Card: last 4 or first 6"
            value={cardDraft}
            aria-invalid={cardProblem !== null}
            aria-describedby={cardProblem ? `${cardFieldId}-problem` : undefined}
            onChange={(event) => setCardDraft(event.target.value)}
            onKeyDown={(event) => searchFieldKeyDown(event, cardDraft, { onLeave: () => overview.cursor.current?.focus() }, setCardDraft)}
          />
        </div>
        <DateRangeButton label="Date" summary={dateRangeSummary(range, today)} active={Boolean(range.start || range.end)} onOpen={() => setDateOpen(true)} />
        <button
          type="button"
          className={`button${activeFilterCount > 0 ? ' filter-choice is-active' : ''}`}
          aria-expanded={filtersOpen}
          aria-controls={filterPanelId}
          onClick={() => setFiltersOpen(!filtersOpen)}
        >
          Filters{activeFilterCount > 0 ? ` (${activeFilterCount})` : ''}
        </button>
        {Object.keys(state.filters).length > 0 ? (
          <button
            type="button"
            className="button button-ghost"
            onClick={() => {
              setSearchDraft('');
              setCardDraft('');
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
          <div ref={overview.filterPanel} id={filterPanelId} className="filter-panel">
            <ChoiceFilter
              label="Type"
              options={kindOptions}
              selected={decodeAnyOf(state.filters.kind, transactionKinds)}
              onChange={(values) => applyFilters({ kind: encodeAnyOf(values) })}
            />
            <ChoiceFilter
              label="Currency"
              options={currencyOptions}
              selected={chosenCurrencies}
              onChange={(values) => applyFilters({ currency: encodeAnyOf(values) })}
            />
            <ChoiceFilter
              label="Status"
              options={statusOptions}
              selected={decodeAnyOf(state.filters.status, paymentStatuses)}
              onChange={(values) => applyFilters({ status: encodeAnyOf(values) })}
            />
            <ChoiceFilter
              label="Channel"
              options={channelOptions}
              selected={decodeAnyOf(state.filters.channel, channels)}
              onChange={(values) => applyFilters({ channel: encodeAnyOf(values) })}
            />
            <ChoiceFilter
              label="Payment method"
              options={methodOptions}
              selected={decodeAnyOf(state.filters.paymentmethod, paymentMethods)}
              onChange={(values) => applyFilters({ paymentmethod: encodeAnyOf(values) })}
            />
            <AmountField value={amountDraft} problems={amountIssues} onChange={setAmountDraft} />
          </div>
        ) : null}
        {cardProblem ? (
          <p id={`${cardFieldId}-problem`} className="filter-currency-problem">
            {cardProblem}
          </p>
        ) : null}
      </form>
      {(allScope && narrowerPrefix !== '') || unusedFromSearch || (state.filters.amount && chosenCurrencies.length !== 1) ? (
        <div className="transactions-notes">
          {allScope && narrowerPrefix !== '' ? <p>As the search looked: every transaction you may see, not only the context you chose.</p> : null}
          {unusedFromSearch ? (
            <p>
              Not used from the search: <code>{unusedFromSearch}</code>. The list shows what the rest of the query found.
            </p>
          ) : null}
          {state.filters.amount && chosenCurrencies.length !== 1 ? <p>{amountInOwnCurrencyMessage}</p> : null}
        </div>
      ) : null}

      {singleCurrency && totals.data ? (
        <p className="transactions-totals" role="group" aria-label="Totals of these filters, as the dashboard counts them">
          <span title={measureDescriptions.volume}>Volume {formatMinorUnits(totals.data.volume, totals.data.currency)}</span>
          {' · '}
          <span title="The paid refunds of those payments, whenever made">Refunds {formatMinorUnits(-totals.data.refunds, totals.data.currency)}</span>
          {' · '}
          {totals.data.chargebacks > 0 ? (
            <>
              <span title="The chargebacks of those payments (the shoppers' banks took the money back)">
                Chargebacks {formatMinorUnits(-totals.data.chargebacks, totals.data.currency)}
              </span>
              {' · '}
            </>
          ) : null}
          <span title={measureDescriptions.revenue}>Revenue {formatMinorUnits(totals.data.revenue, totals.data.currency)}</span>
          {' · '}
          <span title={measureDescriptions.unsuccessfulVolume}>Unsuccessful {formatMinorUnits(totals.data.unsuccessfulVolume, totals.data.currency)}</span>
        </p>
      ) : null}
      {bulkContext ? (
        <SelectionBar
          selection={selection}
          total={total}
          noun="transactions"
          onSelectAllMatching={() => setSelection(selectAllMatching())}
          onClear={() => setSelection(emptySelection)}
        >
          <button type="button" className="button" onClick={openExport}>
            Export selected…
          </button>
        </SelectionBar>
      ) : null}
      <OverviewTable
        {...overview.table}
        selection={bulkContext ? overview.table.selection : undefined}
        caption="Transactions"
        columns={shownColumns}
        rowKey={(row) => row.reference}
        rowHeader="reference"
        noun="transactions"
        pagesLabel="Transaction pages"
      />

      <OverviewDatePicker
        open={dateOpen}
        title="Transaction dates"
        value={range}
        onApply={(next) => applyFilters({ date: encodeDateRange(next) })}
        onClose={() => setDateOpen(false)}
      />
      <ColumnChooser {...overview.columnChooser} />
      {scheduleTarget ? (
        <ScheduleDialog open={scheduleOpen} title="Schedule this export" target={scheduleTarget} onClose={() => setScheduleOpen(false)}>
          <p>Columns: {scheduleTarget.columns.map((column) => transactionColumnLabels[column]).join(', ')}.</p>
          <p>Rows: {describeScheduleOrdering(scheduleTarget.ordering) || 'newest first'}.</p>
          {state.filters.date ? <p>This view's date range ({dateRangeSummary(range, today)}) is not part of the schedule.</p> : null}
        </ScheduleDialog>
      ) : null}
      <ExportDialog
        open={exportOpen}
        onClose={() => setExportOpen(false)}
        noun="transactions"
        rowCount={exportSelection ? selectedCount(exportSelection, total) : (exactTotal ?? count.data?.numberOfResults ?? null)}
        rowCountFailed={!exportSelection && count.isError}
        selectedOnly={exportSelection !== null}
        visibleColumns={visibleExportColumns.map((id) => transactionColumnLabels[id])}
        allColumns={allExportColumns.map((id) => transactionColumnLabels[id])}
        busy={queueExport.isPending}
        onExport={(choice) => {
          if (!exportSelection || !bulkContext) {
            queueExport.mutate(choice);
            return;
          }
          const columns = [...(choice.columns === 'all' ? allExportColumns : visibleExportColumns)];
          void startBulkJob(
            {
              area: 'transactions',
              action: 'export',
              context: bulkContext,
              selection: selectionRequest(exportSelection, requestState.filters),
              params: { fileType: choice.fileType, columns },
            },
            exportKey,
          ).then(exportStarted, () => showToast({ kind: 'danger', message: 'The export could not be queued.' }));
        }}
      />
    </div>
  );
}
