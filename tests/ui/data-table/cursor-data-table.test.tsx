import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createRef, type RefObject } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { CursorDataTable, type RowCursorHandle } from '../../../src/ui/data-table/cursor-data-table.tsx';
import type { DataTableColumn } from '../../../src/ui/data-table/data-table.tsx';

type Row = { id: string };
const columns: DataTableColumn<Row>[] = [{ id: 'id', header: 'Reference', cell: (row) => row.id }];
const rows = (count: number): Row[] => Array.from({ length: count }, (_, index) => ({ id: `TX${index + 1}` }));

function table(handle: RefObject<RowCursorHandle | null>, resetKey: string, count = 4, onOpen = vi.fn()) {
  return (
    <CursorDataTable<Row>
      cursorHandle={handle}
      resetKey={resetKey}
      caption="Transactions"
      columns={columns}
      rows={rows(count)}
      rowKey={(row) => row.id}
      status="ready"
      emptyMessage="Nothing here."
      onOpen={onOpen}
    />
  );
}

const selected = () =>
  screen
    .getAllByRole('row')
    .filter((row) => row.getAttribute('aria-selected') === 'true')
    .map((row) => row.textContent);

describe('CursorDataTable', () => {
  it('keeps the cursor itself: the handle moves it (kept on the page) and says where it is', async () => {
    const handle = createRef<RowCursorHandle>();
    render(table(handle, 'page 1'));
    expect(handle.current?.index()).toBe(0);
    act(() => handle.current?.move(1));
    act(() => handle.current?.move(1));
    expect(handle.current?.index()).toBe(2);
    expect(selected()).toEqual(['TX3']);
    act(() => handle.current?.move(10));
    expect(handle.current?.index()).toBe(3);
    act(() => handle.current?.move(-10));
    expect(handle.current?.index()).toBe(0);
    // Keys on the table move the same cursor the handle reads.
    screen.getAllByRole('row')[1]?.focus();
    await userEvent.keyboard('jj');
    expect(handle.current?.index()).toBe(2);
  });

  it('moves the keyboard focus with a move from the handle', async () => {
    const handle = createRef<RowCursorHandle>();
    render(table(handle, 'page 1'));
    act(() => handle.current?.move(1));
    await vi.waitFor(() => expect(document.activeElement?.textContent).toBe('TX2'));
  });

  it('does not take back focus that moved on before the cursor row could take it (a pane opened beside)', async () => {
    const handle = createRef<RowCursorHandle>();
    render(
      <>
        {table(handle, 'page 1')}
        <button type="button">Elsewhere</button>
      </>,
    );
    screen.getAllByRole('row')[1]?.focus();
    await userEvent.keyboard('j');
    // Before the next frame, something else takes the keyboard.
    screen.getByRole('button', { name: 'Elsewhere' }).focus();
    await new Promise((frame) => requestAnimationFrame(() => setTimeout(frame, 0)));
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Elsewhere' }));
    expect(handle.current?.index()).toBe(1);
  });

  it('goes back to the first row when its reset key changes (another page, other filters)', () => {
    const handle = createRef<RowCursorHandle>();
    const { rerender } = render(table(handle, 'page 1'));
    act(() => handle.current?.move(2));
    expect(handle.current?.index()).toBe(2);
    rerender(table(handle, 'page 1'));
    expect(handle.current?.index()).toBe(2);
    rerender(table(handle, 'page 2'));
    expect(handle.current?.index()).toBe(0);
    expect(selected()).toEqual(['TX1']);
  });
});
