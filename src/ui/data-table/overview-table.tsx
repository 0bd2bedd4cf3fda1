// An overview's list: the cursor table over one server page and the pager under it, fed by one view (page, page size,
// sort). The messages follow the overview's noun: 'No tickets match these filters.', 'The tickets could not be loaded.'
// (a list may say its own instead).
import { CursorDataTable, type CursorDataTableProps } from './cursor-data-table.tsx';
import type { DataTableSort } from './data-table.tsx';
import { Pagination } from './pagination.tsx';

export type OverviewView = { pageNumber: number; pageSize: number; sort?: DataTableSort };

export type OverviewTableProps<Row> = Omit<CursorDataTableProps<Row>, 'sort' | 'firstRowNumber' | 'totalRows' | 'emptyMessage' | 'errorMessage'> & {
  view: OverviewView;
  /** the rows in words, plural: 'transactions' */
  noun: string;
  /** whether filters narrow the list (the empty message says so) */
  filtered?: boolean;
  /** the list's own words where the noun's do not fit: 'No merchant crosses the thresholds.' */
  emptyMessage?: string;
  errorMessage?: string;
  total: number;
  totalIsEstimate?: boolean;
  pageSizes: readonly number[];
  /** names the pager's landmark: 'Transaction pages' */
  pagesLabel: string;
  onPageChange: (pageNumber: number) => void;
  onPageSizeChange: (pageSize: number) => void;
  /** the pager only once the list has rows to page through (smaller lists); else always, loading included */
  pagerOnlyWithRows?: boolean;
};

export function OverviewTable<Row>(props: OverviewTableProps<Row>) {
  const {
    view,
    noun,
    filtered = false,
    emptyMessage,
    errorMessage,
    total,
    totalIsEstimate = false,
    pageSizes,
    pagesLabel,
    onPageChange,
    onPageSizeChange,
    pagerOnlyWithRows = false,
    ...table
  } = props;
  return (
    <>
      <CursorDataTable
        {...table}
        emptyMessage={emptyMessage ?? (filtered ? `No ${noun} match these filters.` : `There are no ${noun} here yet.`)}
        errorMessage={errorMessage ?? `The ${noun} could not be loaded.`}
        sort={view.sort}
        firstRowNumber={(view.pageNumber - 1) * view.pageSize + 1}
        totalRows={total}
      />
      {pagerOnlyWithRows && total === 0 ? null : (
        <Pagination
          label={pagesLabel}
          pageNumber={view.pageNumber}
          pageSize={view.pageSize}
          pageSizes={pageSizes}
          rowsOnPage={table.rows.length}
          total={total}
          totalIsEstimate={totalIsEstimate}
          onPageChange={onPageChange}
          onPageSizeChange={onPageSizeChange}
        />
      )}
    </>
  );
}
