// One account statement screen for every account kind (/reporting/{kind}-account/{accountNumber?}, the cost
// statement and the business account): without an account number, the context's account groups to choose from
// (a single one is chosen at once); then the balance summary, the movements (paging, sort, date range with presets,
// category filter) and 'Download statement…' (PDF, Excel, CSV through the report queue; Shift+X).
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useEffectEvent, useMemo, useRef, useState } from 'react';
import { useSnapshot } from 'valtio';
import { useLocation } from 'wouter';
import type { ContextSelections } from '../../src/contract/context.ts';
import { calendarDate, weekStartsOn } from '../../src/contract/calendar-date.ts';
import { datePresetIds, datePresetLabels, datePresetRange, decodeDateRange, encodeDateRange, pickerBounds } from '../../src/contract/date-range-filter.ts';
import {
  changeListState,
  compactFilters,
  decodeAnyOf,
  encodeAnyOf,
  type ListState,
  listStateFromParams,
  listStateToParams,
} from '../../src/contract/list-state.ts';
import type { StatementMovement } from '../../src/contract/ledger-schemas.ts';
import {
  accountKindLabels,
  entryCategories,
  entryCategoryLabels,
  movementListSpec,
  statementKindOfSlug,
  statementReportTypeOf,
  statementRouteSlugs,
  type StatementAccountKind,
} from '../../src/contract/ledger.ts';
import { pageSizes } from '../../src/contract/list-query.ts';
import { messages } from '../../src/contract/messages.ts';
import { tableRowsCapability } from '../../src/contract/table-rows.ts';
import { formatShortDate, formatShortDateTime } from '../../src/format/dates.ts';
import { formatMoney } from '../../src/format/money.ts';
import { contextStore } from '../../src/state/context-store.ts';
import { type PaneProps, type PaneRequestHandlers, usePaneCapabilities, usePaneScope } from '../../src/state/pane-scope.tsx';
import { showToast, toastDurations } from '../../src/state/toast-store.ts';
import { openBeside } from '../../src/state/workspace-store.ts';
import { CursorDataTable, type RowCursorHandle } from '../../src/ui/data-table/cursor-data-table.tsx';
import type { DataTableColumn } from '../../src/ui/data-table/data-table.tsx';
import { DateRangePicker } from '../../src/ui/data-table/date-range-picker.tsx';
import { DateRangeButton } from '../../src/ui/data-table/filter-fields.tsx';
import { Pagination } from '../../src/ui/data-table/pagination.tsx';
import { BalanceChart } from './balance-chart.tsx';
import { DownloadDialog, type LedgerFileType } from './download-dialog.tsx';
import { ScheduleDialog, type StatementScheduleTarget } from './schedule-dialog.tsx';
import { ledgerQueries, queueLedgerReport, statementPath, type StatementSource } from './ledger-queries.ts';
import { rowRequestHandler } from '../overview/row-cursor.ts';
import '../../src/ui/data-table/data-table.css';
// The overview's header and tools (shared with the transactions overview).
import '../../src/ui/data-table/overview.css';
import '../transactions/transactions.css';
import './reporting.css';

const zoneFormats = new Map<string, Intl.DateTimeFormat>();
/** A movement's date and time in the business's zone ('5 Mar 2026, 00:03'), as the statement's days are cut. */
const whenIn = (iso: string, timeZone: string) => {
  let formatter = zoneFormats.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-GB', {
      day: 'numeric',
      month: 'short',
      year: 'numeric',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
      timeZone,
    });
    zoneFormats.set(timeZone, formatter);
  }
  return formatter.format(new Date(iso));
};

export function movementColumns(currency: string, timeZone?: string): (DataTableColumn<StatementMovement> & { label: string })[] {
  return [
    {
      id: 'date',
      label: 'Date',
      header: 'Date',
      sortField: 'date',
      width: 'minmax(10rem, 1fr)',
      cell: (row) => <time dateTime={row.date}>{timeZone ? whenIn(row.date, timeZone) : formatShortDateTime(row.date)}</time>,
    },
    { id: 'category', label: 'Movement', header: 'Movement', width: 'minmax(9rem, 1fr)', cell: (row) => entryCategoryLabels[row.category] },
    {
      id: 'amount',
      label: 'Amount',
      header: 'Amount',
      sortField: 'amount',
      align: 'end',
      width: 'minmax(7rem, 0.8fr)',
      cell: (row) => formatMoney(row.amount, currency),
    },
    {
      id: 'balance',
      label: 'Balance',
      header: 'Balance',
      align: 'end',
      width: 'minmax(7rem, 0.8fr)',
      cell: (row) => formatMoney(row.runningBalance, currency),
    },
    {
      id: 'transaction',
      label: 'Transaction',
      header: 'Transaction',
      width: 'minmax(8rem, 1fr)',
      cell: (row) =>
        row.transactionReference ? (
          <a className="data-table-link" href={`/transactions/${encodeURIComponent(row.transactionReference)}`} tabIndex={-1}>
            {row.transactionReference}
          </a>
        ) : (
          '—'
        ),
    },
    { id: 'batch', label: 'Batch', header: 'Batch', width: 'minmax(10rem, 1.2fr)', cell: (row) => row.batchId ?? '—' },
  ];
}

/** The statement kind of the pane: from its route's capability ('Trading account', 'Cost statement') or its path. */
export function statementKindOf(capability: string, location: string): StatementAccountKind | null {
  const byCapability = (Object.entries(accountKindLabels) as [StatementAccountKind, string][]).find(([, label]) => label === capability)?.[0];
  if (byCapability) return byCapability;
  const slug = /^\/reporting\/([a-z-]+)/.exec(location)?.[1] ?? '';
  return statementKindOfSlug(slug);
}

/** Without a date filter a statement shows the current month. */
export function withDefaultPeriod(state: ListState, today: string): ListState {
  if (state.filters.date) return state;
  return { ...state, filters: { ...state.filters, date: encodeDateRange(datePresetRange('thisMonth', today)) ?? '' } };
}

const categoryOptions = entryCategories.map((value) => ({ value, label: entryCategoryLabels[value] }));

export function StatementPane({ params, search, capability }: PaneProps) {
  const [location, navigate] = useLocation();
  const kind = statementKindOf(capability, location) ?? 'trading';
  const { applied } = useSnapshot(contextStore);
  const businessId = (applied as ContextSelections).business?.id ?? null;
  const merchantId = (applied as ContextSelections).merchant?.id ?? null;
  const accountNumber = params.accountNumber ?? null;
  const title = accountKindLabels[kind];

  if (!businessId || (kind !== 'business' && !merchantId)) {
    return (
      <div className="reporting-pane">
        <h1>{title}</h1>
        <p>Choose a merchant in the context to see its accounts.</p>
      </div>
    );
  }
  if (!accountNumber)
    return (
      <AccountChooser
        kind={kind}
        businessId={businessId}
        merchantId={merchantId}
        onChoose={(number, replace) =>
          navigate(`/reporting/${statementRouteSlugs[kind]}/${encodeURIComponent(number)}`, replace ? { replace: true } : undefined)
        }
      />
    );
  const source: StatementSource =
    kind === 'business'
      ? { owner: 'business', businessId, accountNumber }
      : { owner: 'merchant', businessId, merchantId: merchantId as string, accountNumber, kind };
  return <Statement key={`${kind}/${accountNumber}`} title={title} source={source} search={search} location={location} navigate={navigate} />;
}

function AccountChooser({
  kind,
  businessId,
  merchantId,
  onChoose,
}: {
  kind: StatementAccountKind;
  businessId: string;
  merchantId: string | null;
  onChoose: (accountNumber: string, replace: boolean) => void;
}) {
  const merchantGroups = useQuery({ ...ledgerQueries.merchantGroups(businessId, merchantId ?? ''), enabled: kind !== 'business' && merchantId !== null });
  const businessGroups = useQuery({ ...ledgerQueries.businessGroups(businessId), enabled: kind === 'business' });
  const choices =
    kind === 'business'
      ? (businessGroups.data?.results ?? []).map((group) => ({
          accountNumber: group.accountNumber,
          label: `${group.accountNumber} · ${group.currency} · ${group.businessName}`,
        }))
      : (merchantGroups.data?.results ?? [])
          // Invoice accounts: only those the server lists as in use (gross settlement, or entries such as top-ups).
          .filter((group) => kind !== 'invoice' || group.balances.some((balance) => balance.kind === 'invoice'))
          .map((group) => ({ accountNumber: group.accountNumber, label: `${group.accountNumber} · ${group.currency} · ${group.merchantName}` }));
  const loading = kind === 'business' ? businessGroups.isPending : merchantGroups.isPending;
  const failed = kind === 'business' ? businessGroups.isError : merchantGroups.isError;
  const only = choices.length === 1 ? choices[0]?.accountNumber : undefined;
  // A single account group is chosen for the user, once when it is known (the parent's handler is new on each render).
  const chooseOnly = useEffectEvent(onChoose);
  useEffect(() => {
    if (only) chooseOnly(only, true);
  }, [only]);
  return (
    <div className="reporting-pane">
      <h1>{accountKindLabels[kind]}</h1>
      {loading ? <p role="status">Loading the account groups…</p> : null}
      {failed ? <p role="alert">The account groups could not be loaded.</p> : null}
      {!loading && !failed && choices.length === 0 ? (
        <p>
          {kind === 'invoice'
            ? 'No invoice account is in use here: the fees are deducted from the payouts and nothing has been invoiced.'
            : 'There are no account groups here yet.'}
        </p>
      ) : null}
      {choices.length > 1 ? (
        <nav aria-label="Account groups">
          <p>Choose an account group.</p>
          <ul className="reporting-choices">
            {choices.map((choice) => (
              <li key={choice.accountNumber}>
                <a className="button" href={`/reporting/${statementRouteSlugs[kind]}/${encodeURIComponent(choice.accountNumber)}`}>
                  {choice.label}
                </a>
              </li>
            ))}
          </ul>
        </nav>
      ) : null}
    </div>
  );
}

function Statement({
  title,
  source,
  search,
  location,
  navigate,
}: {
  title: string;
  source: StatementSource;
  search: string;
  location: string;
  navigate: (to: string, options?: { replace?: boolean }) => void;
}) {
  const scope = usePaneScope();
  const queryClient = useQueryClient();
  const today = calendarDate(new Date());
  const urlState = useMemo(() => listStateFromParams(Object.fromEntries(new URLSearchParams(search)), movementListSpec), [search]);
  const state = withDefaultPeriod(urlState, today);
  const setState = (next: ListState) => {
    const query = new URLSearchParams(listStateToParams(next, movementListSpec)).toString();
    navigate(`${location}${query ? `?${query}` : ''}`);
  };
  const statement = useQuery(ledgerQueries.statement(source, state));
  const failed = statement.isError;
  const data = failed ? undefined : statement.data;
  const rows = data?.results ?? [];
  const currency = data?.currency ?? 'GBP';
  const columns = useMemo(() => movementColumns(currency, data?.timeZone), [currency, data?.timeZone]);
  const range = decodeDateRange(state.filters.date);
  const [dateOpen, setDateOpen] = useState(false);
  const [downloadOpen, setDownloadOpen] = useState(false);
  const [scheduleOpen, setScheduleOpen] = useState(false);
  const scheduleTarget: StatementScheduleTarget =
    source.owner === 'business'
      ? { reportType: 'businessAccount', businessId: source.businessId, accountNumber: source.accountNumber }
      : {
          reportType: statementReportTypeOf[source.kind] as StatementScheduleTarget['reportType'],
          businessId: source.businessId,
          merchantId: source.merchantId,
          accountNumber: source.accountNumber,
        };
  const rowCursor = useRef<RowCursorHandle>(null);

  const openRow = (row: StatementMovement | undefined, beside: boolean) => {
    if (!row) return;
    const path = row.transactionReference
      ? `/transactions/${encodeURIComponent(row.transactionReference)}`
      : row.batchId && source.owner === 'merchant'
        ? `/reporting/batch-report/${encodeURIComponent(source.accountNumber)}/batch/${encodeURIComponent(row.batchId)}`
        : null;
    if (!path) return;
    if (beside) openBeside(path, scope ? { afterPaneId: scope.paneId } : {});
    else navigate(path);
  };
  const handlers: PaneRequestHandlers = { date: () => setDateOpen(true), export: () => setDownloadOpen(true), schedule: () => setScheduleOpen(true) };
  if (!dateOpen && !downloadOpen && !scheduleOpen && rows.length > 0) {
    handlers[tableRowsCapability] = rowRequestHandler(rowCursor, rows, openRow);
  }
  usePaneCapabilities(handlers);

  const download = useMutation({
    mutationFn: async (fileType: LedgerFileType) => {
      // camt.053 goes through the report queue as every statement file does (file type 'xml'); it holds every category.
      if (fileType === 'camt053') return queueLedgerReport(statementPath(source), 'xml', compactFilters({ date: state.filters.date }));
      return queueLedgerReport(statementPath(source), fileType, compactFilters({ date: state.filters.date, category: state.filters.category }));
    },
    onSuccess: () => {
      setDownloadOpen(false);
      void queryClient.invalidateQueries({ queryKey: ['reports'] });
      showToast({
        kind: 'info',
        message: messages.reportQueued,
        durationMs: toastDurations.long,
        link: { href: '/reporting-overview', label: 'Open my report queue' },
      });
    },
  });
  const periodText = range.start && range.end ? `${formatShortDate(`${range.start}T12:00:00`)} – ${formatShortDate(`${range.end}T12:00:00`)}` : 'Any date';
  const { min, max } = pickerBounds(today);

  return (
    <div className="reporting-pane">
      <header className="overview-header">
        <h1>
          {title} {source.accountNumber}
        </h1>
        <div className="overview-tools">
          <button type="button" className="button" onClick={() => setScheduleOpen(true)}>
            Schedule statement…
          </button>
          <button type="button" className="button button-primary" onClick={() => setDownloadOpen(true)}>
            Download statement…
          </button>
        </div>
      </header>
      <div className="filter-bar" role="search" aria-label="Statement filters">
        <DateRangeButton label="Period" summary={periodText} active onOpen={() => setDateOpen(true)} />
        <label className="reporting-select">
          Movements{' '}
          <select
            value={decodeAnyOf(state.filters.category, entryCategories)[0] ?? ''}
            onChange={(event) =>
              setState(
                changeListState(state, {
                  filters: compactFilters({ ...state.filters, category: event.target.value ? encodeAnyOf([event.target.value]) : undefined }),
                }),
              )
            }
          >
            <option value="">All movements</option>
            {categoryOptions.map((option) => (
              <option key={option.value} value={option.value}>
                {option.label}
              </option>
            ))}
          </select>
        </label>
      </div>
      <section aria-label="Balances" className="reporting-summary">
        <dl>
          <div>
            <dt>Opening balance</dt>
            <dd data-testid="opening-balance">{data ? formatMoney(data.openingBalance, currency) : '…'}</dd>
          </div>
          <div>
            <dt>Movements</dt>
            <dd>{data ? formatMoney(data.closingBalance - data.openingBalance, currency) : '…'}</dd>
          </div>
          <div>
            <dt>Closing balance</dt>
            <dd data-testid="closing-balance">{data ? formatMoney(data.closingBalance, currency) : '…'}</dd>
          </div>
        </dl>
        {data?.timeZone ? (
          <p className="reporting-zone">Days and times in {data.timeZone}, the business's time zone (statements, batches, invoices and files follow it).</p>
        ) : null}
        {data && data.totals.length > 0 ? (
          <table className="reporting-totals">
            <caption>Totals per movement</caption>
            <thead>
              <tr>
                <th scope="col">Movement</th>
                <th scope="col">Count</th>
                <th scope="col">Amount</th>
              </tr>
            </thead>
            <tbody>
              {entryCategories
                .filter((category) => data.totals.some((row) => row.category === category))
                .map((category) => {
                  const total = data.totals.find((row) => row.category === category);
                  return (
                    <tr key={category}>
                      <th scope="row">{entryCategoryLabels[category]}</th>
                      <td>{total?.count ?? 0}</td>
                      <td>{formatMoney(total?.amount ?? 0, currency)}</td>
                    </tr>
                  );
                })}
            </tbody>
          </table>
        ) : null}
        <BalanceChart source={source} date={state.filters.date} title={title} />
      </section>
      <CursorDataTable
        cursorHandle={rowCursor}
        resetKey={`${search}|${statement.dataUpdatedAt}`}
        caption={`${title} movements`}
        columns={columns}
        rows={rows}
        rowKey={(row) => String(row.id)}
        rowHeader="date"
        status={failed ? 'error' : statement.isPending ? 'loading' : statement.isPlaceholderData ? 'updating' : 'ready'}
        emptyMessage="There are no movements in this period."
        errorMessage="The statement could not be loaded."
        sort={state.sort}
        onSortChange={(sort) => setState(changeListState(state, { sort }))}
        onOpen={(row, { beside }) => openRow(row, beside)}
        firstRowNumber={(state.pageNumber - 1) * state.pageSize + 1}
        totalRows={data?.numberOfResults ?? 0}
      />
      <Pagination
        label="Statement pages"
        pageNumber={state.pageNumber}
        pageSize={state.pageSize}
        pageSizes={pageSizes}
        rowsOnPage={rows.length}
        total={data?.numberOfResults ?? 0}
        totalIsEstimate={false}
        onPageChange={(pageNumber) => setState(changeListState(state, { pageNumber }))}
        onPageSizeChange={(pageSize) => setState(changeListState(state, { pageSize }))}
      />
      <DateRangePicker
        open={dateOpen}
        title="Statement period"
        value={range}
        presets={datePresetIds.map((id) => ({ id, label: datePresetLabels[id], range: datePresetRange(id, today) }))}
        min={min}
        max={max}
        weekStartsOn={weekStartsOn}
        onApply={(next) => setState(changeListState(state, { filters: compactFilters({ ...state.filters, date: encodeDateRange(next) }) }))}
        onClose={() => setDateOpen(false)}
      />
      <DownloadDialog
        open={downloadOpen}
        title="Download statement"
        summary={`${title} ${source.accountNumber}, ${periodText}: ${data?.numberOfResults ?? 0} movements, opening and closing balance.`}
        busy={download.isPending}
        camt053
        onClose={() => setDownloadOpen(false)}
        onDownload={(fileType) => download.mutate(fileType)}
      />
      <ScheduleDialog open={scheduleOpen} title="Schedule statement" target={scheduleTarget} camt053 onClose={() => setScheduleOpen(false)} />
    </div>
  );
}
