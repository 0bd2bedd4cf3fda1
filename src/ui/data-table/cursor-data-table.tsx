// The overview table with its row cursor held inside: a cursor move (j/k, arrows, PageDown, a click) renders the
// table alone, not the screen around it (its filters, presets, pagination and dialogs). The screen reaches the
// cursor through a handle: where it is (to open that row) and a move (the palette's and shortcuts' row commands).
// Past the last row (first row) a move turns the pane's page (table-host.ts) and lands on the new page's first (last)
// row. Leaving the list (a detail opened in the pane) remembers the cursor row: back on the list, the cursor and
// the focus are on it again.
// With a selection (selection-model.ts), x toggles the cursor row, Shift+x selects from the last toggled row to the
// cursor, and a checkbox column serves pointer users; the selection itself is the screen's (it spans pages).
import { type Ref, useCallback, useEffect, useImperativeHandle, useMemo, useRef, useState } from 'react';
import { DataTable, type DataTableColumn, type DataTableProps } from './data-table.tsx';
import { emptySelection, hasSelection as selectsAny, isRowSelected, selectRange, toggleRow, type RowSelection } from './selection-model.ts';
import { useTableHost } from './table-host.ts';

export type RowCursorHandle = {
  /** the cursor row's index on this page */
  index: () => number;
  /** moves the cursor by `step` rows (kept on the page, or on to the next or previous page) and the keyboard focus with it */
  move: (step: number) => void;
  /** x and Shift+x from a command: toggles the cursor row, or selects the range to it */
  toggle: (range: boolean) => void;
  /** the keyboard focus to the cursor row (to the table itself while it has no rows): Escape out of the filter bar */
  focus: () => void;
};

export type TableSelection = {
  value: RowSelection;
  onChange: (next: RowSelection) => void;
  /** the accessible name of a row's checkbox: 'Select PJ0123…' */
  rowLabel: (key: string) => string;
};

export type CursorDataTableProps<Row> = Omit<DataTableProps<Row>, 'cursor' | 'onCursorChange' | 'focusRequest' | 'onPastEnd' | 'selection'> & {
  cursorHandle: Ref<RowCursorHandle>;
  /** the cursor goes back to the first row whenever this changes (another page, other filters, fresh data) */
  resetKey: string;
  selection?: TableSelection;
};

/** The cursor row each list had when the pane left it, by pane and list (caption): Back puts the cursor there. */
const leftAt = new Map<string, string>();

export function CursorDataTable<Row>({ cursorHandle, resetKey, onOpen, selection, ...props }: CursorDataTableProps<Row>) {
  const host = useTableHost();
  const paneId = host?.key;
  const memoryKey = `${paneId ?? ''}|${props.caption}`;
  const [cursor, setCursor] = useState(0);
  const [focusRequest, setFocusRequest] = useState(0);
  const anchor = useRef<number | null>(null);
  // Where the cursor lands once another page shows: its first row going on, its last going back.
  const landing = useRef<'first' | 'last' | null>(null);
  // The row to find again when the list comes back (Back from a detail), until the list is ready.
  const returning = useRef(paneId ? leftAt.get(memoryKey) : undefined);
  const { rows, rowKey, status } = props;
  const lastRow = Math.max(rows.length - 1, 0);

  // biome-ignore lint/correctness/useExhaustiveDependencies: deliberately on the reset key alone: fresh rows (a new page, other filters) reset the cursor; the rows and status are read as they are then
  useEffect(() => {
    const wanted = returning.current;
    if (wanted) {
      const index = rows.findIndex((row) => rowKey(row) === wanted);
      if (index >= 0 || status === 'ready' || status === 'error') {
        returning.current = undefined;
        leftAt.delete(memoryKey);
      }
      if (index >= 0) {
        setCursor(index);
        setFocusRequest((current) => current + 1);
        return;
      }
    }
    if (landing.current) {
      setCursor(landing.current === 'last' ? lastRow : 0);
      setFocusRequest((current) => current + 1);
      if (status === 'ready' || status === 'error') landing.current = null;
      return;
    }
    setCursor(0);
    anchor.current = null;
  }, [resetKey]);

  // A row opened in the pane leaves a trail back to this list (Esc) and on to its next records (j / k, pager.ts).
  const open: typeof onOpen = (row, options) => {
    if (host && !options.beside) {
      const shown = [...rows];
      const keys = shown.map(rowKey);
      host.openedFrom({
        keys,
        index: keys.indexOf(rowKey(row)),
        open: (index) => {
          const next = shown[index];
          if (next !== undefined) onOpen(next, { beside: false });
        },
        remember: (key) => leftAt.set(memoryKey, key),
      });
    }
    onOpen(row, options);
  };

  const pastEnd = (direction: 1 | -1) => {
    if (host?.turnPage(direction)) landing.current = direction > 0 ? 'first' : 'last';
  };

  // Remember the cursor row while the list shows; forget it once the list is left for good (the pane closes).
  const current = rows[Math.min(cursor, lastRow)];
  const remembered = useRef<string | null>(null);
  remembered.current = current === undefined ? null : rowKey(current);
  useEffect(
    () => () => {
      if (paneId && remembered.current) leftAt.set(memoryKey, remembered.current);
    },
    [memoryKey, paneId],
  );

  // Read by the checkbox cells and the key handler at the time they run: the column objects stay the same, so rows
  // whose selection did not change are not rendered again.
  const latest = useRef({ selection, rows, rowKey });
  latest.current = { selection, rows, rowKey };
  const toggleAt = useCallback((index: number, range: boolean) => {
    const { selection: live, rows: liveRows, rowKey: key } = latest.current;
    if (!live || liveRows.length === 0) return;
    const at = Math.min(Math.max(index, 0), liveRows.length - 1);
    const ids = liveRows.map(key);
    if (range) live.onChange(selectRange(live.value, ids, anchor.current, at));
    else {
      live.onChange(toggleRow(live.value, ids[at] as string));
      anchor.current = at;
    }
  }, []);
  // Made afresh each render (no dependency list): a move reads this render's cursor, rows and pager.
  useImperativeHandle(cursorHandle, () => {
    const onPage = (index: number) => Math.min(Math.max(index, 0), lastRow);
    return {
      index: () => onPage(cursor),
      move: (step) => {
        const target = cursor + step;
        if ((target > lastRow && cursor >= lastRow) || (target < 0 && cursor <= 0)) {
          pastEnd(step > 0 ? 1 : -1);
          return;
        }
        setCursor(onPage(target));
        setFocusRequest((value) => value + 1);
      },
      toggle: (range) => toggleAt(onPage(cursor), range),
      focus: () => setFocusRequest((value) => value + 1),
    };
  });
  const hasSelection = selection !== undefined;
  const checkboxColumn = useMemo<DataTableColumn<Row>>(
    () => ({
      id: '__select',
      header: 'Selected',
      width: '5.5rem',
      cell: (row) => {
        const live = latest.current;
        if (!live.selection) return null;
        const key = live.rowKey(row);
        return (
          <input
            type="checkbox"
            className="data-table-check"
            tabIndex={-1}
            aria-label={live.selection.rowLabel(key)}
            checked={isRowSelected(live.selection.value, key)}
            onChange={() =>
              toggleAt(
                live.rows.findIndex((candidate) => live.rowKey(candidate) === key),
                false,
              )
            }
          />
        );
      },
    }),
    [toggleAt],
  );
  const columns = useMemo(() => (hasSelection ? [checkboxColumn, ...props.columns] : props.columns), [hasSelection, checkboxColumn, props.columns]);
  const tableSelection = useMemo(
    () =>
      hasSelection
        ? {
            isSelected: (row: Row) => isRowSelected(latest.current.selection?.value ?? emptySelection, latest.current.rowKey(row)),
            onToggle: toggleAt,
            hasAny: () => selectsAny(latest.current.selection?.value ?? emptySelection),
            onClear: () => {
              const live = latest.current.selection;
              if (!live || !selectsAny(live.value)) return false;
              live.onChange(emptySelection);
              return true;
            },
          }
        : undefined,
    [hasSelection, toggleAt],
  );
  // The checkbox column comes first; the row is still named by the screen's own first column.
  const rowHeader = props.rowHeader ?? props.columns[0]?.id;
  return (
    <DataTable
      {...props}
      rowHeader={rowHeader}
      columns={columns}
      cursor={cursor}
      onCursorChange={setCursor}
      focusRequest={focusRequest}
      onPastEnd={pastEnd}
      onOpen={open}
      selection={tableSelection}
    />
  );
}
