import { act, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { DataTable, type DataTableColumn, type DataTableSort, nextSort } from '../../../src/ui/data-table/data-table.tsx';
import { Pagination } from '../../../src/ui/data-table/pagination.tsx';
import { pageCount, pageSlice, rangeLabel, visiblePages } from '../../../src/ui/data-table/pagination-model.ts';

type Row = { id: string; amount: number };
const columns: DataTableColumn<Row>[] = [
  { id: 'id', header: 'Reference', cell: (row) => <a href={`/rows/${row.id}`}>{row.id}</a>, sortField: 'reference' },
  { id: 'amount', header: 'Amount', cell: (row) => row.amount.toFixed(2), align: 'end', sortField: 'amount' },
];
const rows = (count: number): Row[] => Array.from({ length: count }, (_, index) => ({ id: `TX${String(index + 1).padStart(5, '0')}`, amount: index }));

function Harness({
  count = 5,
  onOpen = vi.fn(),
  status = 'ready' as const,
  onSort = vi.fn(),
}: {
  count?: number;
  onOpen?: (row: Row, options: { beside: boolean }) => void;
  status?: 'ready' | 'loading' | 'error';
  onSort?: (sort: DataTableSort) => void;
}) {
  const [cursor, setCursor] = useState(0);
  const [sort, setSort] = useState<DataTableSort>({ field: 'reference', descending: false });
  return (
    <DataTable
      caption="Transactions"
      columns={columns}
      rows={status === 'ready' ? rows(count) : []}
      rowKey={(row) => row.id}
      status={status}
      emptyMessage="Nothing here."
      errorMessage="Could not load."
      sort={sort}
      onSortChange={(next) => {
        setSort(next);
        onSort(next);
      }}
      cursor={cursor}
      onCursorChange={setCursor}
      onOpen={onOpen}
    />
  );
}

/** A table holding its own cursor, given a new array of the same columns on every render. */
function Counting({ amountColumn, rows: shown }: { amountColumn: DataTableColumn<Row>; rows: Row[] }) {
  const [cursor, setCursor] = useState(0);
  return (
    <DataTable
      caption="Transactions"
      // A new array of the same columns on every render, as a pane that filters its columns passes.
      columns={[columns[0] as DataTableColumn<Row>, amountColumn]}
      rows={shown}
      rowKey={(row) => row.id}
      status="ready"
      emptyMessage="Nothing here."
      cursor={cursor}
      onCursorChange={setCursor}
      onOpen={vi.fn()}
    />
  );
}

describe('DataTable', () => {
  it('is a grid named by its caption, with column headers and a row header per row', () => {
    render(<Harness />);
    const grid = screen.getByRole('grid', { name: 'Transactions' });
    expect(
      within(grid)
        .getAllByRole('columnheader')
        .map((header) => header.textContent),
    ).toEqual(['Reference↑', 'Amount↕']);
    expect(
      within(grid)
        .getAllByRole('rowheader')
        .map((cell) => cell.textContent),
    ).toEqual(['TX00001', 'TX00002', 'TX00003', 'TX00004', 'TX00005']);
    expect(grid.getAttribute('aria-rowcount')).toBe('6');
  });

  it("wraps the text of a wrap column onto a second line, and is never narrower than its columns' minimums", () => {
    const wrapped: DataTableColumn<Row>[] = [
      { id: 'id', header: 'Reference', cell: (row) => row.id, width: '8rem' },
      { id: 'merchant', header: 'Merchant', cell: () => 'Meadowbank Veterinary Practice Glasgow', width: 'minmax(12rem, 3fr)', wrap: true },
    ];
    const { container } = render(
      <DataTable
        caption="Transactions"
        columns={wrapped}
        rows={rows(2)}
        rowKey={(row) => row.id}
        status="ready"
        emptyMessage="Nothing here."
        cursor={0}
        onCursorChange={vi.fn()}
        onOpen={vi.fn()}
      />,
    );
    const grid = screen.getByRole('grid', { name: 'Transactions' });
    const merchantCells = within(grid).getAllByRole('gridcell');
    expect(merchantCells.map((cell) => cell.classList.contains('data-table-wrap'))).toEqual([true, true]);
    expect(
      within(grid)
        .getAllByRole('rowheader')
        .some((cell) => cell.classList.contains('data-table-wrap')),
    ).toBe(false);
    // 8rem + 12rem: the grid's min-width (not its max-content width, which would widen the flexible column).
    expect((container.querySelector('.data-table') as HTMLElement).style.getPropertyValue('--data-table-min-width')).toBe('320px');
  });

  it('keeps the previous rows while the next view loads, marked busy (status updating)', () => {
    const table = (status: 'updating' | 'ready') => (
      <DataTable
        caption="Transactions"
        columns={columns}
        rows={rows(3)}
        rowKey={(row) => row.id}
        status={status}
        emptyMessage="Nothing here."
        cursor={0}
        onCursorChange={vi.fn()}
        onOpen={vi.fn()}
      />
    );
    const { rerender } = render(table('updating'));
    const grid = screen.getByRole('grid', { name: 'Transactions' });
    expect(grid.getAttribute('aria-busy')).toBe('true');
    expect(within(grid).getAllByRole('rowheader')).toHaveLength(3);
    rerender(table('ready'));
    expect(grid.getAttribute('aria-busy')).toBeNull();
  });

  it('says how it is sorted and sorts by a header', async () => {
    const onSort = vi.fn();
    render(<Harness onSort={onSort} />);
    expect(screen.getByRole('columnheader', { name: /Reference/ }).getAttribute('aria-sort')).toBe('ascending');
    expect(screen.getByRole('columnheader', { name: /Amount/ }).getAttribute('aria-sort')).toBe('none');
    await userEvent.click(screen.getByRole('button', { name: /Amount/ }));
    expect(onSort).toHaveBeenLastCalledWith({ field: 'amount', descending: true });
    expect(screen.getByRole('columnheader', { name: /Amount/ }).getAttribute('aria-sort')).toBe('descending');
    await userEvent.click(screen.getByRole('button', { name: /Amount/ }));
    expect(onSort).toHaveBeenLastCalledWith({ field: 'amount', descending: false });
  });

  it('moves a row cursor with arrows, j and k, Home and End, and opens rows with Enter and Shift+Enter', async () => {
    const onOpen = vi.fn();
    render(<Harness onOpen={onOpen} />);
    const rowOf = (name: string) => screen.getByRole('rowheader', { name }).closest('tr') as HTMLElement;
    expect(rowOf('TX00001').getAttribute('tabindex')).toBe('0');
    rowOf('TX00001').focus();
    await userEvent.keyboard('{ArrowDown}j');
    expect(rowOf('TX00003').getAttribute('aria-selected')).toBe('true');
    await userEvent.keyboard('k');
    expect(rowOf('TX00002').getAttribute('aria-selected')).toBe('true');
    await userEvent.keyboard('{End}');
    expect(rowOf('TX00005').getAttribute('aria-selected')).toBe('true');
    await userEvent.keyboard('{ArrowDown}');
    expect(rowOf('TX00005').getAttribute('aria-selected')).toBe('true');
    await userEvent.keyboard('{Home}');
    rowOf('TX00001').focus();
    await userEvent.keyboard('{Enter}');
    expect(onOpen).toHaveBeenLastCalledWith(expect.objectContaining({ id: 'TX00001' }), { beside: false });
    await userEvent.keyboard('{Shift>}{Enter}{/Shift}');
    expect(onOpen).toHaveBeenLastCalledWith(expect.objectContaining({ id: 'TX00001' }), { beside: true });
  });

  it('moves the cursor to a clicked row', async () => {
    render(<Harness />);
    await userEvent.click(screen.getByRole('gridcell', { name: '3.00' }));
    expect(screen.getByRole('rowheader', { name: 'TX00004' }).closest('tr')?.getAttribute('aria-selected')).toBe('true');
  });

  it('opens a row on double click and moves the cursor to a row that takes focus', async () => {
    const onOpen = vi.fn();
    render(<Harness onOpen={onOpen} />);
    const rowOf = (name: string) => screen.getByRole('rowheader', { name }).closest('tr') as HTMLElement;
    await userEvent.dblClick(screen.getByRole('gridcell', { name: '2.00' }));
    expect(onOpen).toHaveBeenLastCalledWith(expect.objectContaining({ id: 'TX00003' }), { beside: false });
    expect(rowOf('TX00003').getAttribute('aria-selected')).toBe('true');
    act(() => rowOf('TX00005').focus());
    expect(rowOf('TX00005').getAttribute('aria-selected')).toBe('true');
    expect(rowOf('TX00003').getAttribute('aria-selected')).toBe('false');
  });

  it('renders again only the rows whose cursor state changed, and lays rows out in the body’s flow', async () => {
    const amountCell = vi.fn((row: Row) => row.amount.toFixed(2));
    const amountColumn: DataTableColumn<Row> = { id: 'amount', header: 'Amount', cell: amountCell };
    const fiveRows = rows(5);
    render(<Counting amountColumn={amountColumn} rows={fiveRows} />);
    const rendered = amountCell.mock.calls.length;
    act(() => (screen.getByRole('rowheader', { name: 'TX00001' }).closest('tr') as HTMLElement).focus());
    await userEvent.keyboard('{ArrowDown}');
    expect(screen.getByRole('rowheader', { name: 'TX00002' }).closest('tr')?.getAttribute('aria-selected')).toBe('true');
    expect(
      amountCell.mock.calls
        .slice(rendered)
        .map(([row]) => row.id)
        .sort(),
    ).toEqual(['TX00001', 'TX00002']);
    // No row carries a position of its own (a per-row transform made every new row a new style to resolve).
    for (const row of screen.getAllByRole('row').slice(1)) expect(row.getAttribute('style')).toBeNull();
  });

  it('renders only a window of a long list', () => {
    render(<Harness count={10_000} />);
    const rendered = screen.getAllByRole('rowheader').length;
    expect(rendered).toBeGreaterThan(10);
    expect(rendered).toBeLessThan(200);
    expect(screen.getByRole('grid').getAttribute('aria-rowcount')).toBe('10001');
  });

  it('says when there is nothing, when it failed, and when it loads', () => {
    const { rerender } = render(<Harness count={0} />);
    expect(screen.getByRole('gridcell', { name: 'Nothing here.' })).toBeTruthy();
    rerender(<Harness status="error" />);
    expect(screen.getByRole('gridcell', { name: 'Could not load.' })).toBeTruthy();
    rerender(<Harness status="loading" />);
    expect(screen.getByRole('grid').getAttribute('aria-busy')).toBe('true');
    expect(screen.getByRole('status').textContent).toContain('Loading…');
  });

  it('starts a new sort column with the order people expect of it', () => {
    expect(nextSort(null, 'date')).toEqual({ field: 'date', descending: true });
    expect(nextSort({ field: 'date', descending: true }, 'date')).toEqual({ field: 'date', descending: false });
    expect(nextSort({ field: 'date', descending: true }, 'reference')).toEqual({ field: 'reference', descending: false });
  });
});

describe('paging', () => {
  it.each([
    [1, 10, [1, 2, 3]],
    [2, 10, [1, 2, 3]],
    [5, 10, [4, 5, 6]],
    [10, 10, [8, 9, 10]],
    [1, 1, [1]],
    [2, 2, [1, 2]],
  ])('on page %d of %d shows %j', (current, pages, shown) => {
    expect(visiblePages(current, pages)).toEqual(shown);
  });

  it('counts pages and labels the range', () => {
    expect(pageCount(0, 25)).toBe(1);
    expect(pageCount(26, 25)).toBe(2);
    expect(rangeLabel(2, 25, 25, 1234, false)).toBe('26–50 of 1,234');
    expect(rangeLabel(1, 25, 25, 2_000_000, true)).toBe('1–25 of about 2,000,000');
    expect(rangeLabel(1, 25, 0, 0, false)).toBe('No results');
    expect(pageSlice(['a', 'b', 'c', 'd'], 2, 3)).toEqual(['d']);
  });

  it('offers previous, three pages, next and the page sizes', async () => {
    const onPageChange = vi.fn();
    const onPageSizeChange = vi.fn();
    render(
      <Pagination
        label="Transaction pages"
        pageNumber={4}
        pageSize={25}
        pageSizes={[10, 25, 50, 100]}
        rowsOnPage={25}
        total={1000}
        onPageChange={onPageChange}
        onPageSizeChange={onPageSizeChange}
      />,
    );
    const nav = screen.getByRole('navigation', { name: 'Transaction pages' });
    expect(
      within(nav)
        .getAllByRole('button', { name: /^Page/ })
        .map((button) => button.textContent),
    ).toEqual(['3', '4', '5']);
    expect(within(nav).getByRole('button', { name: 'Page 4' }).getAttribute('aria-current')).toBe('page');
    await userEvent.click(within(nav).getByRole('button', { name: 'Next page' }));
    expect(onPageChange).toHaveBeenLastCalledWith(5);
    await userEvent.click(within(nav).getByRole('button', { name: 'Page 3' }));
    expect(onPageChange).toHaveBeenLastCalledWith(3);
    await userEvent.selectOptions(within(nav).getByRole('combobox', { name: 'Rows per page' }), '100');
    expect(onPageSizeChange).toHaveBeenLastCalledWith(100);
    expect(within(nav).getByText('76–100 of 1,000')).toBeTruthy();
  });

  it('keeps next open while an estimated total is not reached', () => {
    render(
      <Pagination
        label="Pages"
        pageNumber={1}
        pageSize={25}
        pageSizes={[25]}
        rowsOnPage={25}
        total={10_001}
        totalIsEstimate
        onPageChange={vi.fn()}
        onPageSizeChange={vi.fn()}
      />,
    );
    expect((screen.getByRole('button', { name: 'Next page' }) as HTMLButtonElement).disabled).toBe(false);
    expect((screen.getByRole('button', { name: 'Previous page' }) as HTMLButtonElement).disabled).toBe(true);
    expect(screen.getByText('1–25 of about 10,001')).toBeTruthy();
  });
});

describe('DataTable while flinging', () => {
  it('draws rows as placeholders while the window flings past and every row in full once it is still', async () => {
    const { container } = render(<Harness count={2_000} />);
    const scroller = container.querySelector('.data-table-scroll') as HTMLElement;
    let top = 0;
    Object.defineProperty(scroller, 'scrollTop', {
      configurable: true,
      get: () => top,
      set: (value: number) => {
        top = value;
      },
    });
    const grid = screen.getByRole('grid', { name: 'Transactions' });
    const placeholders = () => grid.querySelectorAll('tr[aria-busy="true"]').length;
    const scrollTo = (value: number) =>
      act(() => {
        top = value;
        scroller.dispatchEvent(new Event('scroll'));
      });
    // One jump: drawn in full.
    scrollTo(4_000);
    expect(placeholders()).toBe(0);
    expect(within(grid).getAllByRole('rowheader').length).toBeGreaterThan(10);
    // The next, at once: the rows new to the window are bars without text.
    scrollTo(8_000);
    expect(placeholders()).toBeGreaterThan(10);
    expect(within(grid).queryByRole('rowheader', { name: 'TX00215' })).toBeNull();
    // Still for a moment: every row is drawn, with its cells.
    await vi.waitFor(() => expect(placeholders()).toBe(0), { timeout: 2_000 });
    expect(within(grid).getByRole('rowheader', { name: 'TX00215' })).toBeDefined();
  });
});
