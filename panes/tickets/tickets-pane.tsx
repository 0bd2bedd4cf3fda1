// The support tickets overview: the applied context's tickets (staff may widen it to every business they reach),
// with server paging, sorting, filters on status, type, priority, assignee and dates, filter presets and a column
// chooser. The whole table state lives in the pane's URL, so a link reproduces the view. Shift+N opens a new ticket.
import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useEffect, useId, useState } from 'react';
import { useSnapshot } from 'valtio';
import { useLocation } from 'wouter';
import type { ContextSelections } from '../../src/contract/context.ts';
import { calendarDate } from '../../src/contract/calendar-date.ts';
import { decodeDateRange, encodeDateRange } from '../../src/contract/date-range-filter.ts';
import { compactFilters, decodeAnyOf, decodeSearchTerm, encodeAnyOf, encodeSearchTerm } from '../../src/contract/list-state.ts';
import {
  staffQueueViews,
  ticketExportColumnLabels,
  ticketExportColumns,
  ticketListSpec,
  ticketPriorities,
  ticketQueueViewFilters,
  ticketQueueViewLabels,
  ticketQueueViewOf,
  ticketQueueViews,
  ticketQueueViewShortcuts,
  ticketStatuses,
  ticketStatusLabels,
  ticketTypeLabels,
  ticketTypes,
  type TicketExportColumn,
  type TicketQueueView,
} from '../../src/contract/tickets.ts';
import type { TicketListItem } from '../../src/contract/ticket-schemas.ts';
import { contextPath, contextStore } from '../../src/state/context-store.ts';
import { type PaneProps, type PaneRequestHandlers, usePaneCapabilities, usePaneScope } from '../../src/state/pane-scope.tsx';
import { sessionStore } from '../../src/state/session-store.ts';
import { showToast } from '../../src/state/toast-store.ts';
import { openBeside } from '../../src/state/workspace-store.ts';
import { ColumnChooser } from '../../src/ui/data-table/column-chooser.tsx';
import { ChoiceFilter, DateRangeButton, SearchField } from '../../src/ui/data-table/filter-fields.tsx';
import { useDebouncedApply, useFilterDraft } from '../../src/ui/data-table/filter-draft.ts';
import { OverviewTable } from '../../src/ui/data-table/overview-table.tsx';
import { defaultTicketColumns, ticketListColumns } from './ticket-columns.tsx';
import { useGrantedHere } from './granted.ts';
import { ticketQueries } from './ticket-queries.ts';
import { bulkActionIndex, type BulkAction, type BulkJob } from '../../src/contract/bulk-jobs.ts';
import { SelectionBar } from '../../src/ui/data-table/selection-bar.tsx';
import {
  emptySelection,
  hasSelection,
  selectAllMatching,
  selectedCount,
  selectionRequest,
  type RowSelection,
} from '../../src/ui/data-table/selection-model.ts';
import { BulkActionDialog } from '../bulk-jobs/bulk-action-dialog.tsx';
import { bulkContextOf, startBulkJob } from '../bulk-jobs/bulk-job-queries.ts';
import { ExportDialog, type ExportChoice } from '../../src/ui/data-table/export-dialog.tsx';
import { dateRangeSummary, OverviewDatePicker } from '../overview/overview-dates.tsx';
import { DatabaseFilterPresets } from '../overview/database-presets.tsx';
import { useOverviewState } from '../overview/use-overview-state.ts';
import '../../src/ui/data-table/data-table.css';
import '../../src/ui/form-field.css';
import '../../src/ui/data-table/overview.css';
import './tickets.css';

/** The page name of its filter presets and user settings (ticketsColumns). */
export const ticketsPage = 'tickets';

const statusOptions = ticketStatuses.map((value) => ({ value, label: ticketStatusLabels[value] }));
const typeOptions = ticketTypes.map((value) => ({ value, label: ticketTypeLabels[value] }));
const priorityOptions = ticketPriorities.map((value) => ({ value, label: value === 'Unknown' ? 'No priority' : value }));

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
  const [, navigate] = useLocation();
  const scope = usePaneScope();
  const { applied } = useSnapshot(contextStore);
  const granted = useGrantedHere();
  const staff = granted.includes('Portal.Tickets.Read.Internal');
  const searchParams = new URLSearchParams(search);
  // Staff's queue across every business they reach: ?scope=all (the context-free /tickets call). Without a context
  // (internal staff may open tickets before picking a business) it is the only queue there is.
  const hasContext = contextPath(applied as ContextSelections) !== null;
  const everyBusiness = staff && (!hasContext || searchParams.get('scope') === 'all');
  const contextPrefix = everyBusiness ? '' : (contextPath(applied as ContextSelections) ?? '');
  const today = calendarDate(new Date());
  const userId = useSnapshot(sessionStore).userInfo?.sub ?? null;
  const overview = useOverviewState({
    search,
    listSpec: ticketListSpec,
    keptParams: everyBusiness ? { scope: 'all' } : {},
    query: (listState) => ticketQueries.list(contextPrefix, listState),
    rowPath: (row: TicketListItem) => `/tickets/${encodeURIComponent(row.ticketId)}`,
    columns: ticketListColumns,
    columnChoice: { page: ticketsPage, defaultVisible: defaultTicketColumns },
    selectionScope: contextPrefix,
  });
  const { state, setState, applyFilters, rows, total, selection, setSelection, shownColumns } = overview;
  const showScope = (all: boolean, options: { replace?: boolean } = {}) => {
    if (staff) rememberTicketScope(userId, all ? 'all' : 'context');
    setState({ ...state, pageNumber: 1 }, { ...options, params: all ? { scope: 'all' } : {} });
  };
  // A URL without a scope ('g s', a view command) opens the scope staff chose last.
  const scopeMissing = staff && hasContext && !searchParams.has('scope') && rememberedTicketScope(userId) === 'all';
  // biome-ignore lint/correctness/useExhaustiveDependencies: once per URL without a scope; showScope is new each render
  useEffect(() => {
    if (scopeMissing) showScope(true, { replace: true });
  }, [scopeMissing]);

  // Search applies 400 ms after the last key (or on Enter).
  const appliedSearch = state.filters.searchterm ?? '';
  const [searchDraft, setSearchDraft] = useFilterDraft(appliedSearch, decodeSearchTerm, (draft, applied) => (encodeSearchTerm(draft) ?? '') === applied);
  useDebouncedApply(encodeSearchTerm(searchDraft) ?? '', appliedSearch, () => applyFilters({ searchterm: encodeSearchTerm(searchDraft) }, { replace: true }));
  const submitFilters = (event: FormEvent) => {
    event.preventDefault();
    applyFilters({ searchterm: encodeSearchTerm(searchDraft) });
  };

  const range = decodeDateRange(state.filters.createdutc);

  const [filtersOpen, setFiltersOpen] = useState(Boolean(state.filters.status || state.filters.type || state.filters.priority || state.filters.assignee));
  const [dateOpen, setDateOpen] = useState(false);
  const filterPanelId = useId();

  const canCreate = granted.includes('Portal.Tickets.Create');

  // Bulk actions on the selection. The server checks each ticket as the single update does (a requester may
  // only close their own; the workflow and the queue are staff's) and lists the refused ones in the job's result.
  // Jobs run in a context the server resolves; staff's 'All businesses' queue has none.
  const bulkContext = everyBusiness ? null : bulkContextOf(applied as ContextSelections);
  const offered = (action: BulkAction) =>
    bulkContext !== null &&
    (action === 'status' ? canCreate : action === 'assignee' ? staff && canCreate : action === 'export' ? granted.includes('Portal.Reports.Create') : false);
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
    void startBulkJob(
      {
        area: 'tickets',
        action: 'export',
        context: bulkContext,
        selection: selectionRequest(exportSelection, state.filters),
        params: { fileType: choice.fileType, columns },
      },
      exportKey,
    ).then(started, () => showToast({ kind: 'danger', message: 'The export could not be queued.' }));
  };
  const startAction = (key: string) => {
    if (!bulkContext || !bulkOpen) return Promise.reject(new Error('Choose a business or merchant first.'));
    const params = bulkOpen === 'status' ? { status: bulkStatus } : { assigneeId: bulkAssignee === '' ? null : bulkAssignee };
    return startBulkJob({ area: 'tickets', action: bulkOpen, context: bulkContext, selection: selectionRequest(selection, state.filters), params }, key);
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
  const selectedTickets = selectedCount(selection, total);
  const ticketsNoun = (count: number) => `${new Intl.NumberFormat('en-GB').format(count)} ${count === 1 ? 'ticket' : 'tickets'}`;

  const dialogOpen = dateOpen || overview.columnsOpen || bulkOpen !== null;
  const handlers: PaneRequestHandlers = {
    search: () => overview.searchInput.current?.focus(),
    filters: () => {
      setFiltersOpen(true);
      requestAnimationFrame(() => overview.filterPanel.current?.querySelector<HTMLElement>('button, input, select')?.focus());
    },
    date: () => setDateOpen(true),
    columns: () => overview.setColumnsOpen(true),
    ...overview.selectionHandlers,
    bulkAction: (argument) => {
      const action = (Object.entries(bulkActionIndex).find(([, index]) => index === argument)?.[0] ?? null) as BulkAction | null;
      if (action === 'export' && offered('export')) openExport();
      else if (action && offered(action) && hasSelection(selection)) setBulkOpen(action);
    },
  };
  if (offered('export')) handlers.export = openExport;
  if (canCreate) handlers.newItem = () => navigate('/tickets/add');
  usePaneCapabilities({ ...handlers, ...overview.rowHandlers(!dialogOpen) });

  const assigneeOptions = [{ value: 'none', label: 'Unassigned' }, ...(userId && staff ? [{ value: userId, label: 'Assigned to me' }] : [])];
  const activeFilterCount = ['status', 'type', 'priority', 'assignee'].filter((key) => state.filters[key]).length;
  // The queue's views: the same filters in the URL, one click (or a 'v' sequence) away.
  const views = ticketQueueViews.filter((view) => staff || !staffQueueViews.includes(view));
  const activeView = ticketQueueViewOf(state.filters, userId);
  const showView = (view: TicketQueueView) => applyFilters(ticketQueueViewFilters(view, userId));

  return (
    <div className="overview-pane tickets-pane">
      <header className="overview-header">
        <h1>Support tickets</h1>
        <div className="overview-tools">
          {staff && hasContext ? (
            <div className="tickets-scope" role="group" aria-label="Which tickets">
              <button
                type="button"
                className={`button${everyBusiness ? '' : ' filter-choice is-active'}`}
                aria-pressed={!everyBusiness}
                onClick={() => showScope(false)}
              >
                This context
              </button>
              <button
                type="button"
                className={`button${everyBusiness ? ' filter-choice is-active' : ''}`}
                aria-pressed={everyBusiness}
                onClick={() => showScope(true)}
              >
                All businesses
              </button>
            </div>
          ) : null}
          <DatabaseFilterPresets
            page={ticketsPage}
            businessId={everyBusiness ? null : ((applied as ContextSelections).business?.id ?? null)}
            filters={compactFilters({ ...state.filters, searchterm: encodeSearchTerm(searchDraft) })}
            onApply={overview.showFilters}
            defaultApplies={Object.keys(state.filters).length === 0}
          />
          <button type="button" className="button" onClick={() => overview.setColumnsOpen(true)}>
            Columns
          </button>
          {offered('export') ? (
            <button type="button" className="button" onClick={openExport}>
              Export
            </button>
          ) : null}
          {canCreate ? (
            <a className="button button-primary" href="/tickets/add">
              New ticket
            </a>
          ) : null}
        </div>
      </header>

      <div className="ticket-views" role="group" aria-label="Queue views">
        {views.map((view) => (
          <button
            key={view}
            type="button"
            className={`button${activeView === view ? ' filter-choice is-active' : ''}`}
            aria-pressed={activeView === view}
            title={`${ticketQueueViewLabels[view]} (${ticketQueueViewShortcuts[view]})`}
            onClick={() => showView(view)}
          >
            {ticketQueueViewLabels[view]}
          </button>
        ))}
      </div>

      <form className="filter-bar" role="search" aria-label="Ticket filters" onSubmit={submitFilters}>
        <SearchField
          label="Search subject or ticket id"
          placeholder="Search subject or ticket id"
          value={searchDraft}
          onChange={setSearchDraft}
          inputRef={overview.searchInput}
          keys={{
            onClear: () => applyFilters({ searchterm: encodeSearchTerm('') }),
            onLeave: () => overview.cursor.current?.focus(),
            onOpen: !appliedSearch && rows.length > 0 ? overview.openCursorRow : undefined,
          }}
        />
        <DateRangeButton label="Created" summary={dateRangeSummary(range, today)} active={Boolean(range.start || range.end)} onOpen={() => setDateOpen(true)} />
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
              label="Status"
              options={statusOptions}
              selected={decodeAnyOf(state.filters.status, ticketStatuses)}
              onChange={(values) => applyFilters({ status: encodeAnyOf(values) })}
            />
            <ChoiceFilter
              label="Type"
              options={typeOptions}
              selected={decodeAnyOf(state.filters.type, ticketTypes)}
              onChange={(values) => applyFilters({ type: encodeAnyOf(values) })}
            />
            <ChoiceFilter
              label="Priority"
              options={priorityOptions}
              selected={decodeAnyOf(state.filters.priority, ticketPriorities)}
              onChange={(values) => applyFilters({ priority: encodeAnyOf(values) })}
            />
            <ChoiceFilter
              label="Assignee"
              options={assigneeOptions}
              selected={decodeAnyOf(
                state.filters.assignee,
                assigneeOptions.map((option) => option.value),
              )}
              onChange={(values) => applyFilters({ assignee: encodeAnyOf(values) })}
            />
          </div>
        ) : null}
      </form>

      <SelectionBar
        selection={selection}
        total={total}
        noun="tickets"
        onSelectAllMatching={() => setSelection(selectAllMatching())}
        onClear={() => setSelection(emptySelection)}
      >
        {offered('export') ? (
          <button type="button" className="button" onClick={openExport}>
            Export selected…
          </button>
        ) : null}
        {offered('status') ? (
          <button type="button" className="button" onClick={() => setBulkOpen('status')}>
            Change status…
          </button>
        ) : null}
        {offered('assignee') ? (
          <button type="button" className="button" onClick={() => setBulkOpen('assignee')}>
            Change assignee…
          </button>
        ) : null}
      </SelectionBar>
      <OverviewTable
        {...overview.table}
        selection={bulkContext ? overview.table.selection : undefined}
        caption="Support tickets"
        columns={shownColumns}
        rowKey={(row) => row.ticketId}
        rowHeader="ticketId"
        noun="tickets"
        pagesLabel="Ticket pages"
      />
      <OverviewDatePicker
        open={dateOpen}
        title="Ticket creation dates"
        value={range}
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
        summary={
          bulkOpen === 'assignee'
            ? `${ticketsNoun(selectedTickets)} will be assigned to the support staff member you choose.`
            : `${ticketsNoun(selectedTickets)} will get the status you choose; their requesters are emailed the change.`
        }
        onClose={() => setBulkOpen(null)}
        onStart={startAction}
        onStarted={started}
      >
        {bulkOpen === 'assignee' ? (
          <div className="form-field">
            <label htmlFor={`${filterPanelId}-bulk-assignee`}>New assignee</label>
            <select id={`${filterPanelId}-bulk-assignee`} value={bulkAssignee} onChange={(event) => setBulkAssignee(event.target.value)}>
              <option value="">Unassigned</option>
              {(assignees.data?.results ?? []).map((person) => (
                <option key={person.userId} value={person.userId}>
                  {person.name}
                </option>
              ))}
            </select>
          </div>
        ) : (
          <div className="form-field">
            <label htmlFor={`${filterPanelId}-bulk-status`}>New status</label>
            <select id={`${filterPanelId}-bulk-status`} value={bulkStatus} onChange={(event) => setBulkStatus(event.target.value)}>
              {statusOptions.map((option) => (
                <option key={option.value} value={option.value}>
                  {option.label}
                </option>
              ))}
            </select>
          </div>
        )}
      </BulkActionDialog>
      <ColumnChooser {...overview.columnChooser} />
    </div>
  );
}
