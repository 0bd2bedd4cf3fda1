// J / k, PageDown and End past the ends of a page turn the page (the pane's Pagination lends its pager)
// and land on the new page's first (last) row; the list remembers its cursor row when the pane leaves it for a
// detail, and Back puts the cursor and the focus there again.
import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createRef, useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { tableHostFor } from '../../../src/app/table-host.ts';
import { CursorDataTable, type RowCursorHandle } from '../../../src/ui/data-table/cursor-data-table.tsx';
import type { DataTableColumn } from '../../../src/ui/data-table/data-table.tsx';
import { turnPage } from '../../../src/state/pager.ts';
import { TableHostContext } from '../../../src/ui/data-table/table-host.ts';
import { Pagination } from '../../../src/ui/data-table/pagination.tsx';

type Row = { id: string };
const columns: DataTableColumn<Row>[] = [{ id: 'id', header: 'Reference', cell: (row) => row.id }];
const pageSize = 3;
const total = 7;
const pageRows = (page: number): Row[] =>
  Array.from({ length: Math.min(pageSize, total - (page - 1) * pageSize) }, (_, index) => ({ id: `TX${(page - 1) * pageSize + index + 1}` }));

function List({ handle = createRef<RowCursorHandle>(), startPage = 1 }: { handle?: React.RefObject<RowCursorHandle | null>; startPage?: number }) {
  const [page, setPage] = useState(startPage);
  const rows = pageRows(page);
  return (
    <>
      <CursorDataTable<Row>
        cursorHandle={handle}
        resetKey={`page ${page}`}
        caption="Transactions"
        columns={columns}
        rows={rows}
        rowKey={(row) => row.id}
        status="ready"
        emptyMessage="None."
        onOpen={vi.fn()}
      />
      <Pagination
        label="Transaction pages"
        pageNumber={page}
        pageSize={pageSize}
        pageSizes={[pageSize]}
        rowsOnPage={rows.length}
        total={total}
        onPageChange={setPage}
        onPageSizeChange={vi.fn()}
      />
    </>
  );
}

const hosts = new Map<string, ReturnType<typeof tableHostFor>>();
const hostOf = (paneId: string) => hosts.get(paneId) ?? hosts.set(paneId, tableHostFor(paneId)).get(paneId);
const inPane = (paneId: string, children: React.ReactNode) => <TableHostContext value={hostOf(paneId) ?? null}>{children}</TableHostContext>;
const focusedRow = () => (document.activeElement?.closest('tr') as HTMLElement | null)?.textContent;
const rangeShown = () => screen.getByText(/of 7/).textContent;

describe('paging from the row cursor', () => {
  it('j past the last row shows the next page on its first row; k before the first goes back to the last row', async () => {
    const user = userEvent.setup();
    render(inPane('pane-a', <List />));
    screen.getAllByRole('row')[1]?.focus();
    await user.keyboard('jj');
    await vi.waitFor(() => expect(focusedRow()).toBe('TX3'));
    await user.keyboard('j');
    expect(rangeShown()).toBe('4–6 of 7');
    await vi.waitFor(() => expect(focusedRow()).toBe('TX4'));
    await user.keyboard('k');
    expect(rangeShown()).toBe('1–3 of 7');
    await vi.waitFor(() => expect(focusedRow()).toBe('TX3'));
  });

  it('End on the last row and PageDown at the end go on to the next page; nothing past the last page', async () => {
    const user = userEvent.setup();
    render(inPane('pane-b', <List />));
    screen.getAllByRole('row')[1]?.focus();
    await user.keyboard('{End}');
    expect(rangeShown()).toBe('1–3 of 7');
    await vi.waitFor(() => expect(focusedRow()).toBe('TX3'));
    await user.keyboard('{End}');
    expect(rangeShown()).toBe('4–6 of 7');
    await vi.waitFor(() => expect(focusedRow()).toBe('TX4'));
    await user.keyboard('{PageDown}');
    await vi.waitFor(() => expect(focusedRow()).toBe('TX6'));
    await user.keyboard('{PageDown}');
    expect(rangeShown()).toBe('7–7 of 7');
    await vi.waitFor(() => expect(focusedRow()).toBe('TX7'));
    await user.keyboard('j');
    expect(rangeShown()).toBe('7–7 of 7');
  });

  it('the handle (the j / k commands) turns pages too, and the pane pager answers ] and [', async () => {
    const handle = createRef<RowCursorHandle>();
    render(inPane('pane-c', <List handle={handle} />));
    act(() => handle.current?.move(1));
    act(() => handle.current?.move(1));
    act(() => handle.current?.move(1));
    expect(rangeShown()).toBe('4–6 of 7');
    act(() => {
      expect(turnPage('pane-c', 1)).toBe(true);
    });
    expect(rangeShown()).toBe('7–7 of 7');
    expect(turnPage('pane-c', 1)).toBe(false);
    act(() => {
      turnPage('pane-c', -1);
    });
    expect(rangeShown()).toBe('4–6 of 7');
  });

  it('Back to the list puts the cursor and the focus on the row it was left on', async () => {
    const user = userEvent.setup();
    const { rerender } = render(inPane('pane-d', <List />));
    screen.getAllByRole('row')[1]?.focus();
    await user.keyboard('jj');
    await vi.waitFor(() => expect(focusedRow()).toBe('TX3'));
    // The pane shows a detail, then the list again.
    rerender(inPane('pane-d', <p>Detail</p>));
    rerender(inPane('pane-d', <List />));
    await vi.waitFor(() => expect(focusedRow()).toBe('TX3'));
    expect(screen.getAllByRole('row').find((row) => row.getAttribute('aria-selected') === 'true')?.textContent).toBe('TX3');
  });
});
