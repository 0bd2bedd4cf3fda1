// The support tickets overview: the applied context's tickets (staff may widen it to every business they reach),
// with server paging, sorting, filters on status, type, priority, assignee and dates, filter presets and a column
// chooser. The whole table state lives in the pane's URL, so a link reproduces the view. Shift+N opens a new ticket.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useId, useMemo, useRef, useState } from 'react';
import { useSnapshot } from 'valtio';
import { useLocation } from 'wouter';
import { saveUserSetting, userSettingQueries } from '../../src/api/user-setting-queries.ts';
import type { ContextSelections } from '../../src/contract/context.ts';
import {
  calendarDate, changeListState, columnChoice, columnChoiceOf, columnsSettingKey, compactFilters, type DateRange, datePresetIds,
  datePresetLabels, datePresetRange, decodeAnyOf, decodeDateRange, decodeSearchTerm, encodeAnyOf, encodeDateRange, encodeSearchTerm,
  filterPresetsOf, filterPresetsSettingKey, type ListState, listStateFromParams, listStateToParams, pickerBounds, presetNameProblem,
  presetOfRange, removePreset, savePreset, weekStartsOn,
} from '../../src/contract/filters.ts';
import { pageSizes } from '../../src/contract/list-query.ts';
import { rowRequests, tableRowsCapability } from '../../src/contract/table-rows.ts';
import { staffQueueViews, ticketExportColumnLabels, ticketExportColumns, ticketListSpec, ticketPriorities, ticketQueueViewFilters, ticketQueueViewLabels, ticketQueueViewOf, ticketQueueViews, ticketQueueViewShortcuts, ticketStatuses, ticketStatusLabels, ticketTypeLabels, ticketTypes, type TicketExportColumn, type TicketQueueView } from '../../src/contract/tickets.ts';
import type { TicketListItem } from '../../src/contract/ticket-schemas.ts';
import { formatShortDate } from '../../src/format/dates.ts';
import { contextPath, contextStore } from '../../src/state/context-store.ts';
import { type PaneProps, type PaneRequestHandlers, usePaneCapabilities, usePaneScope } from '../../src/state/pane-scope.tsx';
import { sessionStore } from '../../src/state/session-store.ts';
import { showToast } from '../../src/state/toast-store.ts';
import { openBeside } from '../../src/state/workspace-store.ts';
import { ColumnChooser } from '../../src/ui/data-table/column-chooser.tsx';
import { CursorDataTable, type RowCursorHandle } from '../../src/ui/data-table/cursor-data-table.tsx';
import { DateRangePicker } from '../../src/ui/data-table/date-range-picker.tsx';
import { ChoiceFilter, DateRangeButton, SearchField } from '../../src/ui/data-table/filter-fields.tsx';
import { FilterPresets } from '../../src/ui/data-table/filter-presets.tsx';
import { Pagination } from '../../src/ui/data-table/pagination.tsx';
import { defaultTicketColumns, ticketListColumnIds, ticketListColumns } from './ticket-columns.tsx';
import { useGrantedHere } from './granted.ts';
import { ticketQueries } from './ticket-queries.ts';
import { bulkActionIndex, type BulkAction, type BulkJob } from '../../src/contract/bulk-jobs.ts';
import { SelectionBar } from '../../src/ui/data-table/selection-bar.tsx';
import { emptySelection, hasSelection, selectAllMatching, selectedCount, selectionRequest, type RowSelection } from '../../src/ui/data-table/selection-model.ts';
import { BulkActionDialog } from '../bulk-jobs/bulk-action-dialog.tsx';
import { bulkContextOf, startBulkJob } from '../bulk-jobs/bulk-job-queries.ts';
import { ExportDialog, type ExportChoice } from '../../src/ui/data-table/export-dialog.tsx';
import '../../src/ui/data-table/data-table.css';
import '../../src/ui/form-field.css';
// The overview's header and tools (shared with the transactions overview).
import '../transactions/transactions.css';
import './tickets.css';

/** The page name of user settings: ticketsFilterPresets, ticketsColumns. */
export const ticketsPage = 'tickets';
const searchDebounceMs = 400;

const statusOptions = ticketStatuses.map((value) => ({ value, label: ticketStatusLabels[value] }));
const typeOptions = ticketTypes.map((value) => ({ value, label: ticketTypeLabels[value] }));
const priorityOptions = ticketPriorities.map((value) => ({ value, label: value === 'Unknown' ? 'No priority' : value }));

function rangeSummary(range: DateRange, today: string): string {
  const preset = presetOfRange(range, today);
  if (preset) return datePresetLabels[preset];
  const day = (date: string) => formatShortDate(`${date}T12:00:00`);
  if (range.start && range.end) return range.start === range.end ? day(range.start) : `${day(range.start)} – ${day(range.end)}`;
  if (range.start) return `From ${day(range.start)}`;
  if (range.end) return `Until ${day(range.end)}`;
  return 'Any date';
}

function newIdentifier(): string {
  return globalThis.crypto?.randomUUID?.() ?? `preset-${Date.now()}-${Math.random().toString(36).slice(2)}`;
}

/** The export's columns for the overview's visible ones, in their order (Business shows the merchant too). */
export function visibleTicketExportColumns(visibleIds: readonly string[]): TicketExportColumn[] {
  const ids = visibleIds.flatMap((id) => (id === 'business' ? ['business', 'merchant'] : [id]));
  return ids.filter((id): id is TicketExportColumn => (ticketExportColumns as readonly string[]).includes(id));
}

/**
 * Staff's last scope choice (this context or all businesses), per user and browser: 'g s', a view command or a link
 * without ?scope= opens the queue the way they left it.
 */
const scopeMemoryKey = (userId: string | null) => `portal.tickets.scope.${userId ?? 'anonymous'}`;
export function rememberedTicketScope(userId: string | null): 'all' | 'context' {
  try {
    return globalThis.localStorage?.getItem(scopeMemoryKey(userId)) === 'all' ? 'all' : 'context';
  } catch {
    return 'context';
  }
}
function rememberTicketScope(userId: string | null, scope: 'all' | 'context') {
  try {
    globalThis.localStorage?.setItem(scopeMemoryKey(userId), scope);
  } catch {
    // storage refused (private mode): the URL still holds the choice
  }
}

export function TicketsPane({ search }: PaneProps) {
  const [location, navigate] = useLocation();
  const scope = usePaneScope();
  const queryClient = useQueryClient();
  const { applied } = useSnapshot(contextStore);
  const granted = useGrantedHere();
  const staff = granted.includes('Portal.Tickets.Read.Internal');
  const searchParams = useMemo(() => new URLSearchParams(search), [search]);
  // Staff's queue across every business they reach: ?scope=all (the context-free /tickets call). Without a context
  // (internal staff may open tickets before picking a business) it is the only queue there is.
  const hasContext = contextPath(applied as ContextSelections) !== null;
  const everyBusiness = staff && (!hasContext || searchParams.get('scope') === 'all');
  const contextPrefix = everyBusiness ? '' : contextPath(applied as ContextSelections) ?? '';
  const state = useMemo(() => listStateFromParams(Object.fromEntries(searchParams), ticketListSpec), [searchParams]);
  const today = calendarDate(new Date());
  const userId = useSnapshot(sessionStore).userInfo?.sub ?? null;

  const setState = (next: ListState, options: { replace?: boolean; all?: boolean } = {}) => {
    const params = listStateToParams(next, ticketListSpec);
    if (options.all !== undefined && staff) rememberTicketScope(userId, options.all ? 'all' : 'context');
    if (options.all ?? everyBusiness) params.scope = 'all';
    const query = new URLSearchParams(params).toString();
    navigate(`${location}${query ? `?${query}` : ''}`, options.replace ? { replace: true } : undefined);
  };
  // A URL without a scope ('g s', a view command) opens the scope staff chose last.
  const scopeMissing = staff && hasContext && !searchParams.has('scope') && rememberedTicketScope(userId) === 'all';
  useEffect(() => {
    if (scopeMissing) setState(state, { replace: true, all: true });
  }, [scopeMissing]); // eslint-disable-line react-hooks/exhaustive-deps -- once per URL without a scope
  const applyFilters = (patch: Record<string, string | undefined>, options: { replace?: boolean } = {}) => {
    setState(changeListState(state, { filters: compactFilters({ ...state.filters, ...patch }) }), options);
  };

  const list = useQuery(ticketQueries.list(contextPrefix, state));
  const failed = list.isError;
  const rows: readonly TicketListItem[] = failed ? [] : list.data?.results ?? [];
  const total = failed ? 0 : list.data?.numberOfResults ?? 0;

  // Columns, remembered per user.
  const columnsKey = columnsSettingKey(ticketsPage);
  const columnSetting = useQuery(userSettingQueries.detail(columnsKey));
  const { order, visible } = columnChoiceOf(columnSetting.data, ticketListColumnIds, defaultTicketColumns);
  const shownColumns = order.filter((id) => visible.includes(id))
    .map((id) => ticketListColumns.find((column) => column.id === id))
    .filter((column): column is (typeof ticketListColumns)[number] => column !== undefined);
  const saveColumns = (nextOrder: readonly string[], nextVisible: readonly string[]) => {
    const value = columnChoice(nextOrder, nextVisible);
    queryClient.setQueryData(userSettingQueries.detail(columnsKey).queryKey, value);
    void saveUserSetting(columnsKey, value).catch(() => queryClient.invalidateQueries({ queryKey: userSettingQueries.detail(columnsKey).queryKey }));
  };

  // Search applies 400 ms after the last key (or on Enter).
  const [searchDraft, setSearchDraft] = useState(() => decodeSearchTerm(state.filters.searchterm));
  const appliedSearch = state.filters.searchterm;
  useEffect(() => {
    if (encodeSearchTerm(searchDraft) !== appliedSearch) setSearchDraft(decodeSearchTerm(appliedSearch));
  }, [appliedSearch]); // the draft follows the URL when the URL changes (a preset, back, a link)
  useEffect(() => {
    if (encodeSearchTerm(searchDraft) === appliedSearch) return undefined;
    const timer = setTimeout(() => applyFilters({ searchterm: encodeSearchTerm(searchDraft) }, { replace: true }), searchDebounceMs);
    return () => clearTimeout(timer);
  });
  const submitFilters = (event: FormEvent) => {
    event.preventDefault();
    applyFilters({ searchterm: encodeSearchTerm(searchDraft) });
  };

  const range = decodeDateRange(state.filters.createdutc);

  // Presets, remembered per user.
  const presetsKey = filterPresetsSettingKey(ticketsPage);
  const presetSetting = useQuery(userSettingQueries.detail(presetsKey));
  const presets = filterPresetsOf(presetSetting.data);
  const storePresets = useMutation({
    mutationFn: (next: ReturnType<typeof filterPresetsOf>) => saveUserSetting(presetsKey, next),
    onSuccess: (_result, next) => queryClient.setQueryData(userSettingQueries.detail(presetsKey).queryKey, next),
  });

  const [filtersOpen, setFiltersOpen] = useState(Boolean(state.filters.status || state.filters.type || state.filters.priority || state.filters.assignee));
  const [dateOpen, setDateOpen] = useState(false);
  const [columnsOpen, setColumnsOpen] = useState(false);
  const searchInput = useRef<HTMLInputElement>(null);
  const filterPanel = useRef<HTMLDivElement>(null);
  const filterPanelId = useId();
  const rowCursor = useRef<RowCursorHandle>(null);
  const pageKey = `${search}|${list.dataUpdatedAt}`;

  const openRow = (row: TicketListItem | undefined, beside: boolean) => {
    if (!row) return;
    const path = `/tickets/${encodeURIComponent(row.ticketId)}`;
    if (beside) openBeside(path, scope ? { afterPaneId: scope.paneId } : {});
    else navigate(path);
  };
  const canCreate = granted.includes('Portal.Tickets.Create');

  // Selection and bulk actions: a description over the filters, kept across pages and sorts, cleared when
  // the filters or the context change. The server checks each ticket as the single update does (a requester may
  // only close their own; the workflow and the queue are staff's) and lists the refused ones in the job's result.
  const [selection, setSelection] = useState<RowSelection>(emptySelection);
  const filterKey = JSON.stringify(state.filters);
  useEffect(() => setSelection(emptySelection), [filterKey, contextPrefix]);
  // Jobs run in a context the server resolves; staff's 'All businesses' queue has none.
  const bulkContext = everyBusiness ? null : bulkContextOf(applied as ContextSelections);
  const offered = (action: BulkAction) => bulkContext !== null
    && (action === 'status' ? canCreate : action === 'assignee' ? staff && canCreate : action === 'export' ? granted.includes('Portal.Reports.Create') : false);
  const [bulkOpen, setBulkOpen] = useState<BulkAction | null>(null);
  const [bulkStatus, setBulkStatus] = useState<string>('Closed');
  const [bulkAssignee, setBulkAssignee] = useState<string>('');
  const assignees = useQuery({ ...ticketQueries.assignees(), enabled: bulkOpen === 'assignee' });
  // Export: the selection when there is one, else every ticket matching the filters, as a report in My
  // report queue made by the server (internal notes only for staff, checked per ticket there).
  const [exportSelection, setExportSelection] = useState<RowSelection>(emptySelection);
  const [exportKey, setExportKey] = useState('');
  const openExport = () => {
    setExportSelection(hasSelection(selection) ? selection : selectAllMatching());
    setExportKey(globalThis.crypto?.randomUUID?.() ?? `export-${Date.now()}`);
    setBulkOpen('export');
  };
  const startExport = (choice: ExportChoice) => {
    if (!bulkContext) return;
    const columns = choice.columns === 'visible' ? visibleTicketExportColumns(shownColumns.map((column) => column.id)) : [...ticketExportColumns];
    void startBulkJob({ area: 'tickets', action: 'export', context: bulkContext, selection: selectionRequest(exportSelection, state.filters), params: { fileType: choice.fileType, columns } }, exportKey)
      .then(started, () => showToast({ kind: 'danger', message: 'The export could not be queued.' }));
  };
  const startAction = (key: string) => {
    if (!bulkContext || !bulkOpen) return Promise.reject(new Error('Choose a business or merchant first.'));
    const params = bulkOpen === 'status' ? { status: bulkStatus } : { assigneeId: bulkAssignee === '' ? null : bulkAssignee };
    return startBulkJob({ area: 'tickets', action: bulkOpen, context: bulkContext, selection: selectionRequest(selection, state.filters), params }, key);
  };
  const started = (job: BulkJob) => {
    setBulkOpen(null);
    if (job.action !== 'export') setSelection(emptySelection);
    showToast({ kind: 'success', message: job.action === 'export' ? 'The export is being made: it will wait for you in My report queue.' : 'The bulk job has started.' });
    openBeside(`/bulk-jobs/${encodeURIComponent(job.id)}`, scope ? { afterPaneId: scope.paneId } : {});
  };
  const selectedTickets = selectedCount(selection, total);
  const ticketsNoun = (count: number) => `${new Intl.NumberFormat('en-GB').format(count)} ${count === 1 ? 'ticket' : 'tickets'}`;

  const dialogOpen = dateOpen || columnsOpen || bulkOpen !== null;
  const handlers: PaneRequestHandlers = {
    search: () => searchInput.current?.focus(),
    filters: () => {
      setFiltersOpen(true);
      requestAnimationFrame(() => filterPanel.current?.querySelector<HTMLElement>('button, input, select')?.focus());
    },
    date: () => setDateOpen(true),
    columns: () => setColumnsOpen(true),
    selectRow: (argument) => rowCursor.current?.toggle(argument === 1),
    selectAllMatching: () => setSelection(selectAllMatching()),
    clearSelection: () => setSelection(emptySelection),
    bulkAction: (argument) => {
      const action = (Object.entries(bulkActionIndex).find(([, index]) => index === argument)?.[0] ?? null) as BulkAction | null;
      if (action === 'export' && offered('export')) openExport();
      else if (action && offered(action) && hasSelection(selection)) setBulkOpen(action);
    },
  };
  if (offered('export')) handlers.export = openExport;
  if (canCreate) handlers.newItem = () => navigate('/tickets/add');
  if (!dialogOpen && rows.length > 0) {
    handlers[tableRowsCapability] = (argument) => {
      if (argument === rowRequests.open || argument === rowRequests.openBeside) {
        openRow(rows[rowCursor.current?.index() ?? 0], argument === rowRequests.openBeside);
        return;
      }
      rowCursor.current?.move(argument === rowRequests.previous ? -1 : 1);
    };
  }
  usePaneCapabilities(handlers);

  const assigneeOptions = [
    { value: 'none', label: 'Unassigned' },
    ...(userId && staff ? [{ value: userId, label: 'Assigned to me' }] : []),
  ];
  const activeFilterCount = ['status', 'type', 'priority', 'assignee'].filter((key) => state.filters[key]).length;
  // The queue's views: the same filters in the URL, one click (or a 'v' sequence) away.
  const views = ticketQueueViews.filter((view) => staff || !staffQueueViews.includes(view));
  const activeView = ticketQueueViewOf(state.filters, userId);
  const showView = (view: TicketQueueView) => applyFilters(ticketQueueViewFilters(view, userId));
  const { min, max } = pickerBounds(today);

  return (
    <div className="tickets-pane">
      <header className="transactions-header">
        <h1>Support tickets</h1>
        <div className="transactions-tools">
          {staff && hasContext ? (
            <div className="tickets-scope" role="group" aria-label="Which tickets">
              <button type="button" className={`button${everyBusiness ? '' : ' filter-choice is-active'}`} aria-pressed={!everyBusiness} onClick={() => setState(changeListState(state, {}), { all: false })}>This context</button>
              <button type="button" className={`button${everyBusiness ? ' filter-choice is-active' : ''}`} aria-pressed={everyBusiness} onClick={() => setState(changeListState(state, {}), { all: true })}>All businesses</button>
            </div>
          ) : null}
          <FilterPresets
            presets={presets}
            saveBlockedBy={undefined}
            nameProblem={presetNameProblem}
            onApply={(identifier) => {
              const preset = presets.find((candidate) => candidate.identifier === identifier);
              if (!preset) return;
              setState(changeListState(state, { filters: preset.filters }));
              showToast({ kind: 'success', message: `Filter preset '${preset.name}' applied.` });
            }}
            onRemove={(identifier) => {
              const preset = presets.find((candidate) => candidate.identifier === identifier);
              storePresets.mutate(removePreset(presets, identifier), { onSuccess: () => showToast({ kind: 'success', message: `Filter preset '${preset?.name ?? ''}' removed.` }) });
            }}
            onSave={(name) => {
              const { presets: next, preset } = savePreset(presets, { name, filters: compactFilters({ ...state.filters, searchterm: encodeSearchTerm(searchDraft) }) }, newIdentifier());
              storePresets.mutate(next, { onSuccess: () => showToast({ kind: 'success', message: `Filter preset '${preset.name}' saved.` }) });
            }}
          />
          <button type="button" className="button" onClick={() => setColumnsOpen(true)}>Columns</button>
          {offered('export') ? <button type="button" className="button" onClick={openExport}>Export</button> : null}
          {canCreate ? <a className="button button-primary" href="/tickets/add">New ticket</a> : null}
        </div>
      </header>

      <div className="ticket-views" role="group" aria-label="Queue views">
        {views.map((view) => (
          <button key={view} type="button" className={`button${activeView === view ? ' filter-choice is-active' : ''}`} aria-pressed={activeView === view}
            title={`${ticketQueueViewLabels[view]} (${ticketQueueViewShortcuts[view]})`} onClick={() => showView(view)}>
            {ticketQueueViewLabels[view]}
          </button>
        ))}
      </div>

      <form className="filter-bar" role="search" aria-label="Ticket filters" onSubmit={submitFilters}>
        <SearchField label="Search subject or ticket id" placeholder="Search subject or ticket id" value={searchDraft} onChange={setSearchDraft} inputRef={searchInput}
          keys={{
            onClear: () => applyFilters({ searchterm: encodeSearchTerm('') }),
            onLeave: () => rowCursor.current?.focus(),
            onOpen: !appliedSearch && rows.length > 0 ? () => openRow(rows[rowCursor.current?.index() ?? 0], false) : undefined,
          }} />
        <DateRangeButton label="Created" summary={rangeSummary(range, today)} active={Boolean(range.start || range.end)} onOpen={() => setDateOpen(true)} />
        <button type="button" className={`button${activeFilterCount > 0 ? ' filter-choice is-active' : ''}`} aria-expanded={filtersOpen} aria-controls={filterPanelId} onClick={() => setFiltersOpen(!filtersOpen)}>
          Filters{activeFilterCount > 0 ? ` (${activeFilterCount})` : ''}
        </button>
        {Object.keys(state.filters).length > 0 ? (
          <button type="button" className="button button-ghost" onClick={() => { setSearchDraft(''); setState(changeListState(state, { filters: {} })); }}>Clear filters</button>
        ) : null}
        <button type="submit" className="visually-hidden" tabIndex={-1}>Apply filters</button>
        {filtersOpen ? (
          <div ref={filterPanel} id={filterPanelId} className="filter-panel">
            <ChoiceFilter label="Status" options={statusOptions} selected={decodeAnyOf(state.filters.status, ticketStatuses)} onChange={(values) => applyFilters({ status: encodeAnyOf(values) })} />
            <ChoiceFilter label="Type" options={typeOptions} selected={decodeAnyOf(state.filters.type, ticketTypes)} onChange={(values) => applyFilters({ type: encodeAnyOf(values) })} />
            <ChoiceFilter label="Priority" options={priorityOptions} selected={decodeAnyOf(state.filters.priority, ticketPriorities)} onChange={(values) => applyFilters({ priority: encodeAnyOf(values) })} />
            <ChoiceFilter label="Assignee" options={assigneeOptions} selected={decodeAnyOf(state.filters.assignee, assigneeOptions.map((option) => option.value))} onChange={(values) => applyFilters({ assignee: encodeAnyOf(values) })} />
          </div>
        ) : null}
      </form>

      <SelectionBar selection={selection} total={total} noun="tickets" onSelectAllMatching={() => setSelection(selectAllMatching())} onClear={() => setSelection(emptySelection)}>
        {offered('export') ? <button type="button" className="button" onClick={openExport}>Export selected…</button> : null}
        {offered('status') ? <button type="button" className="button" onClick={() => setBulkOpen('status')}>Change status…</button> : null}
        {offered('assignee') ? <button type="button" className="button" onClick={() => setBulkOpen('assignee')}>Change assignee…</button> : null}
      </SelectionBar>
      <CursorDataTable
        cursorHandle={rowCursor}
        selection={bulkContext ? { value: selection, onChange: setSelection, rowLabel: (key) => `Select ${key}` } : undefined}
        resetKey={pageKey}
        caption="Support tickets"
        columns={shownColumns}
        rows={rows}
        rowKey={(row) => row.ticketId}
        rowHeader="ticketId"
        status={failed ? 'error' : list.isPending ? 'loading' : list.isPlaceholderData ? 'updating' : 'ready'}
        emptyMessage={Object.keys(state.filters).length > 0 ? 'No tickets match these filters.' : 'There are no tickets here yet.'}
        errorMessage="The tickets could not be loaded."
        sort={state.sort}
        onSortChange={(sort) => setState(changeListState(state, { sort }))}
        onOpen={(row, { beside }) => openRow(row, beside)}
        firstRowNumber={(state.pageNumber - 1) * state.pageSize + 1}
        totalRows={total}
      />
      <Pagination
        label="Ticket pages"
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
        title="Ticket creation dates"
        value={range}
        presets={datePresetIds.map((id) => ({ id, label: datePresetLabels[id], range: datePresetRange(id, today) }))}
        min={min}
        max={max}
        weekStartsOn={weekStartsOn}
        onApply={(next) => applyFilters({ createdutc: encodeDateRange(next) })}
        onClose={() => setDateOpen(false)}
      />
      <ExportDialog
        open={bulkOpen === 'export'}
        onClose={() => setBulkOpen(null)}
        rowCount={selectedCount(exportSelection, total)}
        selectedOnly={!exportSelection.allMatching || exportSelection.excluded.size > 0}
        visibleColumns={visibleTicketExportColumns(shownColumns.map((column) => column.id)).map((id) => ticketExportColumnLabels[id])}
        allColumns={ticketExportColumns.map((id) => ticketExportColumnLabels[id])}
        noun="tickets"
        busy={false}
        onExport={startExport}
      />
      <BulkActionDialog
        open={bulkOpen === 'status' || bulkOpen === 'assignee'}
        title={bulkOpen === 'assignee' ? 'Change assignee' : 'Change status'}
        summary={bulkOpen === 'assignee'
          ? `${ticketsNoun(selectedTickets)} will be assigned to the support staff member you choose.`
          : `${ticketsNoun(selectedTickets)} will get the status you choose; their requesters are emailed the change.`}
        onClose={() => setBulkOpen(null)}
        onStart={startAction}
        onStarted={started}
      >
        {bulkOpen === 'assignee' ? (
          <div className="form-field">
            <label htmlFor={`${filterPanelId}-bulk-assignee`}>New assignee</label>
            <select id={`${filterPanelId}-bulk-assignee`} value={bulkAssignee} onChange={(event) => setBulkAssignee(event.target.value)}>
              <option value="">Unassigned</option>
              {(assignees.data?.results ?? []).map((person) => <option key={person.userId} value={person.userId}>{person.name}</option>)}
            </select>
          </div>
        ) : (
          <div className="form-field">
            <label htmlFor={`${filterPanelId}-bulk-status`}>New status</label>
            <select id={`${filterPanelId}-bulk-status`} value={bulkStatus} onChange={(event) => setBulkStatus(event.target.value)}>
              {statusOptions.map((option) => <option key={option.value} value={option.value}>{option.label}</option>)}
            </select>
          </div>
        )}
      </BulkActionDialog>
      <ColumnChooser
        open={columnsOpen}
        onClose={() => setColumnsOpen(false)}
        columns={ticketListColumns.map((column) => ({ id: column.id, label: column.label }))}
        order={order}
        visible={visible}
        onChange={saveColumns}
        onReset={() => saveColumns(ticketListColumnIds, defaultTicketColumns)}
      />
    </div>
  );
}
