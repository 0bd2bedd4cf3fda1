// The approval queue: beneficiaries awaiting their four-eyes approval in every business the user reads
// (context-free), the longest waiting first. Filters (business by name, created, waiting at least, open alerts), sort
// and page live in the address, as the API reads them, so a filtered queue is a link. j / k move, Enter opens the
// beneficiary (where it is approved, with all the approval rules), Shift+Enter opens it beside; Escape in the filters
// goes to the list.
import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useLocation } from 'wouter';
import { beneficiaryApprovalListSpec } from '../../src/contract/beneficiaries.ts';
import type { BeneficiaryApproval } from '../../src/contract/beneficiary-schemas.ts';
import { calendarDate, weekStartsOn } from '../../src/contract/calendar-date.ts';
import { datePresetIds, datePresetLabels, datePresetRange, decodeDateRange, encodeDateRange, pickerBounds } from '../../src/contract/date-range-filter.ts';
import { compactFilters, listStateFromParams } from '../../src/contract/list-state.ts';
import { defaultPageSize, encodeFilter, encodeSort, pageSizes, parseFilter, parseListQuery, type SortKey } from '../../src/contract/list-query.ts';
import { formatDateTime, formatShortDate } from '../../src/format/dates.ts';
import { type PaneProps, usePaneCapabilities } from '../../src/state/pane-scope.tsx';
import type { DataTableColumn } from '../../src/ui/data-table/data-table.tsx';
import { DateRangePicker } from '../../src/ui/data-table/date-range-picker.tsx';
import { ChoiceFilter, DateRangeButton } from '../../src/ui/data-table/filter-fields.tsx';
import { OverviewTable } from '../../src/ui/data-table/overview-table.tsx';
import { tableStatusOf } from '../../src/ui/data-table/table-status.ts';
import { useRowCursor } from '../overview/row-cursor.ts';
import { beneficiaryPath } from './beneficiaries-pane.tsx';
import { beneficiaryQueries } from './beneficiary-queries.ts';
import '../../src/ui/data-table/data-table.css';
import '../watch-list/watch-list.css';

export const beneficiaryApprovalsPath = '/beneficiary-approvals';

/** 'Waiting at least' choices, in whole days (agedays [gte]N). */
export const waitingChoices = [1, 3, 7, 14, 30] as const;

export type ApprovalQueueView = {
  pageNumber: number;
  pageSize: number;
  sort: SortKey;
  /** the list filters as the API reads them (businessid, created, agedays, openalerts) */
  filters: Record<string, string>;
};

/** The queue's view from its address: what is valid is kept, the rest dropped (a stale or hand-edited link still opens). */
export function approvalQueueViewOf(search: string): ApprovalQueueView {
  const params = Object.fromEntries(new URLSearchParams(search));
  const state = listStateFromParams(params, beneficiaryApprovalListSpec);
  const sorted = params.sort === undefined ? null : parseListQuery({ sort: params.sort }, beneficiaryApprovalListSpec);
  const sort = sorted?.ok ? sorted.query.sort[0] : undefined;
  return {
    pageNumber: state.pageNumber,
    pageSize: state.pageSize,
    sort: sort ?? (beneficiaryApprovalListSpec.defaultSort[0] as SortKey),
    filters: state.filters,
  };
}

/** The address (and the API's query) of a view: defaults left out so links stay short. */
export function approvalQueueParams(view: ApprovalQueueView): Record<string, string> {
  const params: Record<string, string> = { ...compactFilters(view.filters) };
  const fallback = beneficiaryApprovalListSpec.defaultSort[0];
  if (view.sort.field !== fallback?.field || view.sort.descending !== fallback.descending) params.sort = encodeSort([view.sort]);
  if (view.pageNumber !== 1) params.pagenumber = String(view.pageNumber);
  if (view.pageSize !== defaultPageSize) params.pagesize = String(view.pageSize);
  return params;
}

/** The business ids a businessid filter names ([eq]A[and][eq]B), as given (ids keep their case). */
export function businessIdsOf(raw: string | undefined): string[] {
  const clauses = raw === undefined ? [] : parseFilter(raw);
  return typeof clauses === 'string' ? [] : [...new Set(clauses.filter((clause) => clause.operator === 'eq').map((clause) => clause.value))];
}

const businessFilterOf = (ids: readonly string[]) => (ids.length === 0 ? undefined : encodeFilter(ids.map((value) => ({ operator: 'eq' as const, value }))));
const waitingOf = (raw: string | undefined) => /^\[gte\](\d{1,5})$/.exec(raw ?? '')?.[1] ?? '';
const alertsOf = (raw: string | undefined) => (raw === '[eq]true' ? 'open' : raw === '[eq]false' ? 'none' : '');
const daysText = (days: number) => (days === 0 ? 'Less than a day' : days === 1 ? '1 day' : `${days} days`);

const columns: readonly DataTableColumn<BeneficiaryApproval>[] = [
  {
    id: 'name',
    header: 'Beneficiary',
    width: 'minmax(12rem, 1.4fr)',
    cell: (row) => (
      <a className="data-table-link is-name" href={beneficiaryPath(row.businessId, row.beneficiaryId)}>
        {row.name}
      </a>
    ),
  },
  {
    id: 'business',
    header: 'Business',
    width: 'minmax(11rem, 1.2fr)',
    sortField: 'business',
    cell: (row) => (
      <>
        {row.businessName} <span className="muted">({row.businessId})</span>
      </>
    ),
  },
  { id: 'waiting', header: 'Waiting', width: '8rem', sortField: 'age', priority: 1, cell: (row) => daysText(row.ageDays) },
  { id: 'created', header: 'Created', width: '11rem', cell: (row) => formatDateTime(row.createdUtc) },
  { id: 'createdBy', header: 'Created by', width: 'minmax(9rem, 1fr)', cell: (row) => row.createdBy },
  { id: 'openAlerts', header: 'Open alerts', width: '7rem', align: 'end', cell: (row) => row.openAlerts },
  {
    id: 'status',
    header: 'Status',
    width: 'minmax(11rem, 1fr)',
    // Four eyes: a row the user set up or last changed waits for someone else.
    cell: (row) => (row.changedByCaller ? 'Awaiting approval by someone else' : row.openAlerts > 0 ? 'Awaiting alert review' : 'Awaiting approval'),
  },
];

export function BeneficiaryApprovalsPane({ search }: PaneProps) {
  const view = useMemo(() => approvalQueueViewOf(search), [search]);
  const [, navigate] = useLocation();
  const list = useQuery(
    beneficiaryQueries.approvals({ pagenumber: String(view.pageNumber), pagesize: String(view.pageSize), sort: encodeSort([view.sort]), ...view.filters }),
  );
  const rows = useMemo(() => (list.isError ? [] : (list.data?.results ?? [])), [list.isError, list.data]);
  const [createdOpen, setCreatedOpen] = useState(false);
  const goTo = (next: ApprovalQueueView) => {
    const query = new URLSearchParams(approvalQueueParams(next)).toString();
    navigate(`${beneficiaryApprovalsPath}${query ? `?${query}` : ''}`);
  };
  const filter = (change: Record<string, string | undefined>) => goTo({ ...view, pageNumber: 1, filters: compactFilters({ ...view.filters, ...change }) });
  const { cursor, rowHandlers, table } = useRowCursor(rows, (row) => beneficiaryPath(row.businessId, row.beneficiaryId));
  usePaneCapabilities(createdOpen ? {} : { date: () => setCreatedOpen(true), ...rowHandlers() });

  const chosenBusinesses = businessIdsOf(view.filters.businessid);
  // The businesses with something pending, by name; a business named by the link but with nothing pending stays choosable.
  const businessOptions = [
    ...(list.data?.businesses ?? []).map((business) => ({ value: business.businessId, label: `${business.businessName} (${business.pending})` })),
    ...chosenBusinesses.filter((id) => !list.data?.businesses.some((business) => business.businessId === id)).map((id) => ({ value: id, label: id })),
  ];
  const created = decodeDateRange(view.filters.created);
  const today = calendarDate(new Date());
  const { min, max } = pickerBounds(today);
  const createdText =
    created.start || created.end
      ? `${created.start ? formatShortDate(`${created.start}T12:00:00`) : '…'} – ${created.end ? formatShortDate(`${created.end}T12:00:00`) : '…'}`
      : 'Any date';
  const filtered = Object.keys(view.filters).length > 0;

  return (
    <section className="risk-pane" aria-labelledby="approvals-title">
      <header className="risk-header">
        <h1 id="approvals-title">Beneficiary approvals</h1>
      </header>
      <p className="risk-note">Beneficiaries waiting for a second person to approve them, in every business you can see. Open one to approve it.</p>
      {/* A search form (filters apply as they change): j / k from its buttons move the row cursor, and focus with it;
          Escape goes to the list. An open filter's own Escape (in its portalled panel) only closes the panel. */}
      <form
        className="filter-bar"
        role="search"
        aria-label="Approval filters"
        onSubmit={(event) => event.preventDefault()}
        onKeyDown={(event) => {
          if (event.key !== 'Escape' || event.defaultPrevented || !event.currentTarget.contains(event.target as Node)) return;
          event.preventDefault();
          cursor.current?.focus();
        }}
      >
        <ChoiceFilter
          label="Business"
          options={businessOptions}
          selected={chosenBusinesses}
          onChange={(ids) => filter({ businessid: businessFilterOf(ids) })}
        />
        <DateRangeButton label="Created" summary={createdText} active={Boolean(created.start || created.end)} onOpen={() => setCreatedOpen(true)} />
        <label>
          Waiting at least{' '}
          <select
            value={waitingOf(view.filters.agedays)}
            onChange={(event) => filter({ agedays: event.target.value ? `[gte]${event.target.value}` : undefined })}
          >
            <option value="">Any time</option>
            {waitingChoices.map((days) => (
              <option key={days} value={String(days)}>
                {days === 1 ? '1 day' : `${days} days`}
              </option>
            ))}
          </select>
        </label>
        <label>
          Screening alerts{' '}
          <select
            value={alertsOf(view.filters.openalerts)}
            onChange={(event) => filter({ openalerts: event.target.value === 'open' ? '[eq]true' : event.target.value === 'none' ? '[eq]false' : undefined })}
          >
            <option value="">Any</option>
            <option value="open">With open alerts</option>
            <option value="none">Without open alerts</option>
          </select>
        </label>
        {filtered ? (
          <button type="button" className="button button-ghost" onClick={() => goTo({ ...view, pageNumber: 1, filters: {} })}>
            Clear filters
          </button>
        ) : null}
      </form>
      <OverviewTable
        {...table}
        resetKey={`${search}|${list.dataUpdatedAt}`}
        caption="Beneficiaries awaiting approval"
        noun="approvals"
        columns={columns}
        rowKey={(row) => row.beneficiaryId}
        rowHeader="name"
        status={tableStatusOf(list)}
        emptyMessage={filtered ? 'No beneficiary awaiting approval matches these filters.' : 'No beneficiary is awaiting approval.'}
        errorMessage="The approval queue could not be loaded."
        view={view}
        onSortChange={(sort) => goTo({ ...view, pageNumber: 1, sort })}
        total={list.data?.numberOfResults ?? 0}
        pageSizes={pageSizes}
        pagesLabel="Approval queue pages"
        pagerOnlyWithRows
        onPageChange={(next) => goTo({ ...view, pageNumber: next })}
        onPageSizeChange={(next) => goTo({ ...view, pageNumber: 1, pageSize: next })}
      />
      <DateRangePicker
        open={createdOpen}
        title="Created between"
        value={created}
        presets={datePresetIds.map((id) => ({ id, label: datePresetLabels[id], range: datePresetRange(id, today) }))}
        min={min}
        max={max}
        weekStartsOn={weekStartsOn}
        onApply={(next) => filter({ created: encodeDateRange(next) })}
        onClose={() => setCreatedOpen(false)}
      />
    </section>
  );
}
