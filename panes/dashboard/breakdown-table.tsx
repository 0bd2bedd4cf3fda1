// The period broken down by merchant, payment method or status ('a dashboard that explains a drop'): a
// sortable table under the chart whose rows add up to the totals beside it (POST {context}/dashboard/breakdown,
// the same definitions). Enter on a row opens the transactions overview filtered to that row, the period and the
// currency (Shift+Enter beside), as a bar does. Loaded lazily once the dashboard's figures are on screen: nothing
// here is in the dashboard's first load.
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { useMemo, useRef, useState } from 'react';
import { useLocation } from 'wouter';
import { api } from '../../src/api/api-client.ts';
import { validate } from '../../src/api/validate.ts';
import { measureLabels, shownMeasures, type DashboardPeriod } from '../../src/contract/dashboard-intervals.ts';
import { breakdownDimensions, type BreakdownDimension, type BreakdownRow } from '../../src/contract/dashboard.ts';
import { displayStatusLabel } from '../../src/contract/transactions.ts';
import { formatPaymentMethod } from '../../src/format/payment-method.ts';
import { openBeside } from '../../src/state/workspace-store.ts';
import { CursorDataTable, type RowCursorHandle } from '../../src/ui/data-table/cursor-data-table.tsx';
import type { DataTableColumn, DataTableSort } from '../../src/ui/data-table/data-table.tsx';
import { formatMeasure } from './dashboard-format.ts';
// The table kit's look (its sortable headers, cells and rows): without it the headers were the browser's bare buttons.
import '../../src/ui/data-table/data-table.css';

export const dimensionLabels: Record<BreakdownDimension, string> = { merchant: 'Merchant', paymentMethod: 'Payment method', status: 'Status' };

export const breakdownQuery = (context: string, period: DashboardPeriod, currency: string, by: BreakdownDimension) =>
  queryOptions({
    queryKey: ['dashboard', context, 'breakdown', period.startDate, period.endDate, currency, by] as const,
    queryFn: async ({ signal }) =>
      validate(
        'breakdownResponse',
        await api.post<unknown>(
          `${context}/dashboard/breakdown`,
          {
            by,
            currency,
            dateRange: { startDate: period.startDate, endDate: period.endDate },
          },
          { signal },
        ),
      ),
    staleTime: 60_000,
  });

const filterNames: Record<BreakdownDimension, string> = { merchant: 'merchantid', paymentMethod: 'paymentmethod', status: 'status' };

/**
 * The overview's address for a row: the row's payments in the period's instants (end exclusive) and the currency,
 * of any status for a merchant or payment method (the table counts them all), of its own status for a status row.
 */
export function breakdownTransactionsLink(by: BreakdownDimension, key: string, range: { startDate: string; endDate: string }, currency: string): string {
  const lastInstant = new Date(Date.parse(range.endDate) - 1).toISOString();
  const filters = new URLSearchParams({
    date: `[gte]${new Date(Date.parse(range.startDate)).toISOString()}[and][lte]${lastInstant}`,
    currency: `[eq]${currency.toLowerCase()}`,
    kind: '[eq]payment',
    [filterNames[by]]: `[eq]${key}`,
  });
  return `/transactions?${filters.toString()}`;
}

/**
 * A row's name as the rest of the portal shows it: the merchant's name (the server's), a payment method's display
 * name ('Apple Pay', not 'applePay'), a status as the overview's chips read ('Partially refunded').
 */
export function breakdownLabel(by: BreakdownDimension, row: Pick<BreakdownRow, 'key' | 'label'>): string {
  if (by === 'paymentMethod') return formatPaymentMethod(row.key);
  if (by === 'status') return displayStatusLabel(row.key);
  return row.label;
}

type SortField = 'label' | (typeof shownMeasures)[number] | 'count';

export function sortRows(rows: readonly BreakdownRow[], sort: DataTableSort): BreakdownRow[] {
  const field = sort.field as SortField;
  const direction = sort.descending ? -1 : 1;
  return [...rows].sort((a, b) => {
    const order = field === 'label' ? a.label.localeCompare(b.label, 'en-GB') : a[field] - b[field];
    return order * direction || a.label.localeCompare(b.label, 'en-GB');
  });
}

type Props = {
  context: string;
  period: DashboardPeriod;
  currency: string;
  /** the period as instants: the first bucket's start and the last one's end */
  range: { startDate: string; endDate: string };
};

export function BreakdownTable({ context, period, currency, range }: Props) {
  const [by, setBy] = useState<BreakdownDimension>('merchant');
  const [sort, setSort] = useState<DataTableSort>({ field: 'volume', descending: true });
  const cursor = useRef<RowCursorHandle>(null);
  const [, navigate] = useLocation();
  const breakdown = useQuery({ ...breakdownQuery(context, period, currency, by), placeholderData: keepPreviousData });
  const shownBy = breakdown.data?.by ?? by;

  const columns = useMemo<DataTableColumn<BreakdownRow>[]>(
    () => [
      { id: 'label', header: dimensionLabels[shownBy], cell: (row) => row.label, sortField: 'label', width: 'minmax(10rem, 2fr)', wrap: true },
      ...shownMeasures.map(
        (measure): DataTableColumn<BreakdownRow> => ({
          id: measure,
          header: measureLabels[measure],
          cell: (row) => formatMeasure(row[measure], measure, currency),
          align: 'end',
          sortField: measure,
          width: 'minmax(7rem, 1fr)',
          priority: measure === 'volume' ? 1 : 2,
        }),
      ),
      {
        id: 'count',
        header: 'Payments',
        cell: (row) => formatMeasure(row.count, 'salesCount', currency),
        align: 'end',
        sortField: 'count',
        width: '7rem',
        priority: 3,
      },
    ],
    [shownBy, currency],
  );
  const rows = useMemo(() => {
    const shown = breakdown.data;
    return sortRows(
      (shown?.rows ?? []).map((row) => ({ ...row, label: breakdownLabel(shown?.by ?? 'merchant', row) })),
      sort,
    );
  }, [breakdown.data, sort]);
  const status = breakdown.isError ? 'error' : breakdown.data === undefined ? 'loading' : breakdown.isPlaceholderData ? 'updating' : 'ready';

  return (
    <section className="dashboard-declines dashboard-breakdown" aria-labelledby="dashboard-breakdown-title">
      <h2 id="dashboard-breakdown-title">Breakdown</h2>
      <label>
        Break down by{' '}
        <select value={by} onChange={(event) => setBy(event.target.value as BreakdownDimension)}>
          {breakdownDimensions.map((name) => (
            <option key={name} value={name}>
              {dimensionLabels[name]}
            </option>
          ))}
        </select>
      </label>
      <CursorDataTable
        caption={`${currency} payments by ${dimensionLabels[shownBy].toLowerCase()}. Enter opens a row's transactions, Shift+Enter beside`}
        columns={columns}
        rows={rows}
        rowKey={(row) => row.key}
        status={status}
        emptyMessage={`No payments in ${currency} in this period.`}
        errorMessage="The breakdown could not be loaded."
        sort={sort}
        // A figure's column starts largest first (the row that explains a drop on top); the name column A to Z.
        onSortChange={(next) => setSort(next.field === sort.field ? next : { field: next.field, descending: next.field !== 'label' })}
        cursorHandle={cursor}
        resetKey={`${shownBy}|${period.startDate}|${period.endDate}|${currency}|${sort.field}|${sort.descending}`}
        onOpen={(row, { beside }) => {
          const link = breakdownTransactionsLink(shownBy, row.key, range, currency);
          if (beside) openBeside(link);
          else navigate(link);
        }}
      />
    </section>
  );
}
