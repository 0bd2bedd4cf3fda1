// Paging controls: previous, three page buttons around the current page, next, the page size and the range shown.
import { useEffect, useId } from 'react';
import { formatCount, pageCount, rangeLabel, visiblePages } from './pagination-model.ts';
import { useTableHost } from './table-host.ts';

export type PaginationProps = {
  /** names the navigation landmark: 'Transactions pages' */
  label: string;
  pageNumber: number;
  pageSize: number;
  pageSizes: readonly number[];
  rowsOnPage: number;
  total: number;
  totalIsEstimate?: boolean;
  onPageChange: (pageNumber: number) => void;
  onPageSizeChange: (pageSize: number) => void;
};

export function Pagination(props: PaginationProps) {
  const { label, pageNumber, pageSize, pageSizes, rowsOnPage, total, totalIsEstimate = false, onPageChange, onPageSizeChange } = props;
  const sizeId = useId();
  const pages = pageCount(total, pageSize);
  // With an estimated total, the last page is a guess: next stays possible while pages come back full.
  const hasNext = totalIsEstimate ? rowsOnPage === pageSize : pageNumber < pages;
  const lastPage = Math.max(pages, pageNumber);
  // The pane's table turns pages past its ends, and `]` / `[` turn them, through this pager (table-host.ts).
  const host = useTableHost();
  useEffect(() => {
    if (!host) return undefined;
    host.setPager({ pageNumber, hasNext, turn: onPageChange });
    return () => host.setPager(null);
  });
  return (
    <nav className="pagination" aria-label={label}>
      <p className="pagination-range" aria-live="polite">
        {rangeLabel(pageNumber, pageSize, rowsOnPage, total, totalIsEstimate)}
      </p>
      <div className="pagination-pages">
        <button
          type="button"
          className="button button-ghost"
          aria-label="Previous page"
          disabled={pageNumber <= 1}
          onClick={() => onPageChange(pageNumber - 1)}
        >
          Previous
        </button>
        {visiblePages(pageNumber, lastPage).map((page) => (
          <button
            key={page}
            type="button"
            className={`button pagination-page${page === pageNumber ? ' pagination-current' : ' button-ghost'}`}
            aria-current={page === pageNumber ? 'page' : undefined}
            aria-label={`Page ${formatCount(page)}`}
            onClick={() => onPageChange(page)}
          >
            {formatCount(page)}
          </button>
        ))}
        <button type="button" className="button button-ghost" aria-label="Next page" disabled={!hasNext} onClick={() => onPageChange(pageNumber + 1)}>
          Next
        </button>
      </div>
      <div className="pagination-size">
        <label htmlFor={sizeId}>Rows per page</label>
        <select id={sizeId} className="dt-select" value={pageSize} onChange={(event) => onPageSizeChange(Number(event.target.value))}>
          {pageSizes.map((size) => (
            <option key={size} value={size}>
              {size}
            </option>
          ))}
        </select>
      </div>
    </nav>
  );
}
