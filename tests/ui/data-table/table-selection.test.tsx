// Selection in the table kit: x toggles the cursor row, Shift+x selects a range from the last toggled
// row, checkboxes serve pointer users, aria-selected says selected; the selection is a description (ids, or all
// matching minus exclusions) that survives another page and another sort, and its count reads as people say it.
import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useRef, useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { CursorDataTable, type RowCursorHandle } from '../../../src/ui/data-table/cursor-data-table.tsx';
import type { DataTableColumn, DataTableSort } from '../../../src/ui/data-table/data-table.tsx';
import { SelectionBar } from '../../../src/ui/data-table/selection-bar.tsx';
import {
  emptySelection,
  isRowSelected,
  selectAllMatching,
  selectedCount,
  selectionRequest,
  selectRange,
  setRows,
  toggleRow,
  type RowSelection,
} from '../../../src/ui/data-table/selection-model.ts';

type Row = { id: string; amount: number };
const all: Row[] = Array.from({ length: 25 }, (_, index) => ({ id: `PJ${String(index + 1).padStart(4, '0')}`, amount: (index * 7) % 25 }));
const columns: DataTableColumn<Row>[] = [
  { id: 'id', header: 'Reference', cell: (row) => row.id, sortField: 'id' },
  { id: 'amount', header: 'Amount', cell: (row) => String(row.amount), sortField: 'amount' },
];

/** A server-paged list of 25 rows, 10 a page, sortable: the selection lives above the table, as in a screen. */
function Harness({ onSelection }: { onSelection?: (selection: RowSelection) => void }) {
  const [page, setPage] = useState(1);
  const [sort, setSort] = useState<DataTableSort>({ field: 'id', descending: false });
  const [selection, setSelection] = useState<RowSelection>(emptySelection);
  const cursor = useRef<RowCursorHandle>(null);
  const sorted = [...all].sort(
    (a, b) => (sort.field === 'amount' ? a.amount - b.amount || a.id.localeCompare(b.id) : a.id.localeCompare(b.id)) * (sort.descending ? -1 : 1),
  );
  const rows = sorted.slice((page - 1) * 10, page * 10);
  const change = (next: RowSelection) => {
    setSelection(next);
    onSelection?.(next);
  };
  return (
    <>
      <SelectionBar
        selection={selection}
        total={all.length}
        noun="payment jobs"
        onSelectAllMatching={() => change(selectAllMatching())}
        onClear={() => change(emptySelection)}
      />
      <CursorDataTable<Row>
        cursorHandle={cursor}
        resetKey={`${page}|${sort.field}|${sort.descending}`}
        caption="Jobs"
        columns={columns}
        rows={rows}
        rowKey={(row) => row.id}
        status="ready"
        emptyMessage="None"
        sort={sort}
        onSortChange={setSort}
        onOpen={() => undefined}
        totalRows={all.length}
        selection={{ value: selection, onChange: change, rowLabel: (key) => `Select ${key}` }}
      />
      <button type="button" onClick={() => setPage(page === 1 ? 2 : 1)}>
        Other page
      </button>
    </>
  );
}

const rowOf = (name: string) => screen.getByRole('rowheader', { name }).closest('tr') as HTMLElement;

describe('the selection model', () => {
  it('describes a selection by picks or by all matching minus exclusions', () => {
    let selection = toggleRow(emptySelection, 'A');
    selection = toggleRow(selection, 'B');
    selection = toggleRow(selection, 'A');
    expect([...selection.included]).toEqual(['B']);
    expect(selectedCount(selection, 100)).toBe(1);
    let everything = selectAllMatching();
    everything = toggleRow(everything, 'C');
    expect(isRowSelected(everything, 'C')).toBe(false);
    expect(isRowSelected(everything, 'Z')).toBe(true);
    expect(selectedCount(everything, 12_408)).toBe(12_407);
    expect(selectionRequest(everything, { status: '[eq]pending' })).toEqual({
      allMatching: true,
      filters: { status: '[eq]pending' },
      includedIds: [],
      excludedIds: ['C'],
    });
    expect(selectionRequest(selection, {})).toEqual({ allMatching: false, filters: {}, includedIds: ['B'], excludedIds: [] });
  });

  it('selects a range with the anchor row’s state, in either direction', () => {
    const ids = ['A', 'B', 'C', 'D', 'E'];
    expect([...selectRange(toggleRow(emptySelection, 'B'), ids, 1, 3).included].sort()).toEqual(['B', 'C', 'D']);
    expect([...selectRange(toggleRow(emptySelection, 'D'), ids, 3, 0).included].sort()).toEqual(['A', 'B', 'C', 'D']);
    // The anchor was unselected: the range is unselected.
    const some = setRows(emptySelection, ['A', 'B', 'C'], true);
    expect([...selectRange(toggleRow(some, 'A'), ids, 0, 2).included]).toEqual([]);
    expect([...selectRange(emptySelection, ids, null, 2).included]).toEqual(['C']);
  });
});

describe('selection in the table', () => {
  it('toggles the cursor row with x, a range with Shift+x, and marks rows aria-selected', async () => {
    render(<Harness />);
    expect(screen.getByRole('grid', { name: 'Jobs' }).getAttribute('aria-multiselectable')).toBe('true');
    rowOf('PJ0001').focus();
    await userEvent.keyboard('j');
    expect(rowOf('PJ0002').getAttribute('aria-selected')).toBe('false');
    await userEvent.keyboard('x');
    expect(rowOf('PJ0002').getAttribute('aria-selected')).toBe('true');
    await userEvent.keyboard('jj{Shift>}X{/Shift}');
    for (const name of ['PJ0002', 'PJ0003', 'PJ0004']) expect(rowOf(name).getAttribute('aria-selected')).toBe('true');
    expect(rowOf('PJ0001').getAttribute('aria-selected')).toBe('false');
    expect(screen.getByRole('status').textContent).toBe('3 selected');
    await userEvent.keyboard('x');
    expect(rowOf('PJ0004').getAttribute('aria-selected')).toBe('false');
    expect(screen.getByRole('status').textContent).toBe('2 selected');
    // Esc in the table clears the selection.
    await userEvent.keyboard('{Escape}');
    expect(screen.getByRole('status').textContent).toBe('');
    expect(rowOf('PJ0002').getAttribute('aria-selected')).toBe('false');
    // With nothing selected, Shift+X is not the table's: it stays the shell's export shortcut.
    const shell = vi.fn();
    document.addEventListener('keydown', shell);
    await userEvent.keyboard('{Shift>}X{/Shift}');
    document.removeEventListener('keydown', shell);
    expect(screen.getByRole('status').textContent).toBe('');
    const pressed = shell.mock.calls.map(([event]) => event as KeyboardEvent).find((event) => event.key === 'X');
    expect(pressed?.defaultPrevented).toBe(false);
  });

  it('keeps the selection across another page and another sort', async () => {
    let latest: RowSelection = emptySelection;
    render(
      <Harness
        onSelection={(selection) => {
          latest = selection;
        }}
      />,
    );
    await userEvent.click(screen.getByRole('checkbox', { name: 'Select PJ0003' }));
    expect(rowOf('PJ0003').getAttribute('aria-selected')).toBe('true');
    await userEvent.click(screen.getByRole('button', { name: 'Other page' }));
    await userEvent.click(screen.getByRole('checkbox', { name: 'Select PJ0012' }));
    expect(screen.getByRole('status').textContent).toBe('2 selected');
    await userEvent.click(screen.getByRole('button', { name: /Amount/ }));
    await userEvent.click(screen.getByRole('button', { name: 'Other page' }));
    // Sorted by amount, page 1 holds other rows; the selected ones are still selected wherever they appear.
    const shown = screen.getAllByRole('rowheader').map((cell) => cell.textContent as string);
    for (const name of shown) expect(rowOf(name).getAttribute('aria-selected')).toBe(String(['PJ0003', 'PJ0012'].includes(name)));
    expect([...latest.included].sort()).toEqual(['PJ0003', 'PJ0012']);
  });

  it('selects all matching, not just the page, unselects single rows from it and clears with Escape', async () => {
    render(<Harness />);
    await userEvent.click(screen.getByRole('checkbox', { name: 'Select PJ0001' }));
    await userEvent.click(screen.getByRole('button', { name: 'Select all 25 matching payment jobs' }));
    expect(screen.getByRole('status').textContent).toBe('All 25 matching selected');
    await userEvent.click(screen.getByRole('button', { name: 'Other page' }));
    expect(rowOf('PJ0015').getAttribute('aria-selected')).toBe('true');
    await userEvent.click(screen.getByRole('checkbox', { name: 'Select PJ0015' }));
    expect(screen.getByRole('status').textContent).toBe('24 selected');
    act(() => screen.getByRole('button', { name: 'Clear selection' }).focus());
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('region', { name: 'Selection' })).toBeNull();
    expect(rowOf('PJ0015').getAttribute('aria-selected')).toBe('false');
  });
});
