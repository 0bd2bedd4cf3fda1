// Paging arithmetic, pure: how many pages, which three page buttons show, what the range label says.

export const visiblePageButtons = 3;
const numberFormat = new Intl.NumberFormat('en-GB');

export const formatCount = (value: number) => numberFormat.format(value);

export function pageCount(total: number, pageSize: number): number {
  return Math.max(1, Math.ceil(Math.max(0, total) / pageSize));
}

/** Up to three consecutive pages around the current one, clamped to the first and last page. */
export function visiblePages(current: number, pages: number, count = visiblePageButtons): number[] {
  const shown = Math.min(count, pages);
  const first = Math.min(Math.max(1, current - Math.floor(shown / 2)), pages - shown + 1);
  return Array.from({ length: shown }, (_, index) => first + index);
}

/** '26–50 of 1,234', 'about 2,000,000' when the total is an estimate, 'No results' when empty. */
export function rangeLabel(pageNumber: number, pageSize: number, rowsOnPage: number, total: number, estimate: boolean): string {
  if (rowsOnPage === 0) return total === 0 || !estimate ? 'No results' : 'No results on this page';
  const first = (pageNumber - 1) * pageSize + 1;
  const last = first + rowsOnPage - 1;
  return `${formatCount(first)}–${formatCount(last)} of ${estimate ? 'about ' : ''}${formatCount(total)}`;
}

/** A client-paged list: the rows of one page. */
export function pageSlice<Row>(rows: readonly Row[], pageNumber: number, pageSize: number): Row[] {
  const start = (pageNumber - 1) * pageSize;
  return rows.slice(start, start + pageSize);
}
