// The overview table: a real <table> with grid semantics, virtualised rows (TanStack Virtual) so a page of 100 or a
// client list of 10,000 scrolls smoothly, sortable column headers, and a row cursor: arrows or j/k move it, Home
// and End jump, Enter opens the row, Shift+Enter opens it beside. Data comes in through props only.
import { observeElementRect, useVirtualizer } from '@tanstack/react-virtual';
import {
  type CSSProperties,
  type FocusEvent,
  type KeyboardEvent,
  memo,
  type MouseEvent,
  type ReactNode,
  startTransition,
  useEffect,
  useLayoutEffect,
  useReducer,
  useRef,
  useState,
} from 'react';
import { useChangedRows } from './changed-rows.ts';
import { initialWindowMemory, planWindow, rememberWindow, settleMs } from './fling-model.ts';

export type DataTableColumn<Row> = {
  id: string;
  header: string;
  cell: (row: Row) => ReactNode;
  /** numbers and amounts align to the end */
  align?: 'start' | 'end';
  /** a CSS grid track: '11rem', 'minmax(10rem, 1fr)' */
  width?: string;
  /** the field the server sorts by when this header is chosen */
  sortField?: string;
  /**
   * What goes first when the pane is too narrow for every column: 1 stays longest (amount, status), higher numbers
   * go earlier; by default amounts (end-aligned) and the status are 1, others 2. The row header column always stays.
   */
  priority?: number;
  /**
   * Long text (a name, a list of signals) wraps onto a second line of the row rather than ellipsising; past two lines
   * it is cut, and the whole text stays in the cell (the row's accessible name) for the keyboard and screen readers.
   */
  wrap?: boolean;
};

/** A column's narrowest width in pixels, from its track: '11rem', 'minmax(10rem, 1fr)', '120px'. */
function minimumWidth(track: string | undefined): number {
  const first = /(\d+(?:\.\d+)?)(rem|px)/.exec(track ?? '8rem');
  if (!first) return 128;
  return Number(first[1]) * (first[2] === 'rem' ? 16 : 1);
}

const priorityOf = <Row,>(column: DataTableColumn<Row>) => column.priority ?? (column.align === 'end' || column.id === 'status' ? 1 : 2);

/** The narrowest the table can be: the sum of its columns' narrowest widths (the grid's min-width, see the CSS). */
function minimumTableWidth<Row>(columns: readonly DataTableColumn<Row>[]): number {
  return columns.reduce((sum, column) => sum + minimumWidth(column.width), 0);
}

/**
 * The columns that fit `width` pixels: while they do not, the least important goes (the highest priority number;
 * of equals, the rightmost). The row header column stays. Every column where the width is unknown.
 */
export function fitColumns<Row>(columns: readonly DataTableColumn<Row>[], width: number | null, keep: string | undefined): readonly DataTableColumn<Row>[] {
  if (!width) return columns;
  const shown = [...columns];
  while (minimumTableWidth(shown) > width && shown.length > 1) {
    let drop = -1;
    shown.forEach((column, index) => {
      if (column.id === keep) return;
      if (drop === -1 || priorityOf(column) >= priorityOf(shown[drop] as DataTableColumn<Row>)) drop = index;
    });
    if (drop === -1) break;
    shown.splice(drop, 1);
  }
  return shown.length === columns.length ? columns : shown;
}

export type DataTableSort = { field: string; descending: boolean };
/** updating: the rows shown are the previous view's while the new one loads (another sort, filter or page): the grid
 *  says it is busy and dims them, so nobody reads old rows under a new header. */
export type DataTableStatus = 'loading' | 'updating' | 'error' | 'ready';

export type DataTableProps<Row> = {
  /** the table's accessible name */
  caption: string;
  columns: readonly DataTableColumn<Row>[];
  rows: readonly Row[];
  rowKey: (row: Row) => string;
  /** the column whose cell names the row (a row header); the first column by default */
  rowHeader?: string;
  status: DataTableStatus;
  emptyMessage: string;
  errorMessage?: string;
  sort?: DataTableSort | null;
  /** a header was chosen: the same field again flips the direction */
  onSortChange?: (sort: DataTableSort) => void;
  cursor: number;
  onCursorChange: (index: number) => void;
  onOpen: (row: Row, options: { beside: boolean }) => void;
  /** bump to move keyboard focus to the cursor row (a command moved it while focus was elsewhere) */
  focusRequest?: number;
  /** the row number of the first row (for aria-rowindex on later pages) */
  firstRowNumber?: number;
  /** the total number of rows across pages, when known */
  totalRows?: number;
  rowHeight?: number;
  /** rows may be selected (x toggles the cursor row, Shift+x a range): aria-selected then says selected, not cursor */
  selection?: {
    isSelected: (row: Row) => boolean;
    onToggle: (index: number, range: boolean) => void;
    onClear?: () => boolean;
    /** whether any row is selected: Shift+x with none is left to the shell (Shift+X, the export shortcut) */
    hasAny?: () => boolean;
  };
  /** a key tried to move the cursor past the last row (1) or the first (-1): the list may turn its page */
  onPastEnd?: (direction: 1 | -1) => void;
};

const pageStep = 10;

export function nextSort(current: DataTableSort | null | undefined, field: string): DataTableSort {
  if (current?.field === field) return { field, descending: !current.descending };
  // A new column starts with the order people expect of it: newest, largest first for dates and amounts.
  return { field, descending: field === 'date' || field === 'amount' };
}

export function DataTable<Row>(props: DataTableProps<Row>) {
  const {
    caption,
    columns: allColumns,
    rows,
    rowKey,
    rowHeader,
    status,
    emptyMessage,
    errorMessage,
    sort,
    onSortChange,
    cursor,
    onCursorChange,
    onOpen,
    focusRequest = 0,
    firstRowNumber = 1,
    totalRows,
    rowHeight = 40,
    onPastEnd,
    selection,
  } = props;
  const scroller = useRef<HTMLDivElement>(null);
  const head = useRef<HTMLTableSectionElement>(null);
  const body = useRef<HTMLTableSectionElement>(null);
  // The sticky header sits above the rows inside the scroller: rows start below it, and a row scrolled to must not
  // end up under it (scrollRowIntoView).
  const [headHeight, setHeadHeight] = useState(0);
  useLayoutEffect(() => {
    const element = head.current;
    if (!element || typeof ResizeObserver === 'undefined') return;
    setHeadHeight(element.offsetHeight);
    const observer = new ResizeObserver(() => setHeadHeight(element.offsetHeight));
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  // A narrow pane shows the columns that fit, the most important ones (fitColumns).
  const [available, setAvailable] = useState<number | null>(null);
  useLayoutEffect(() => {
    const element = scroller.current;
    if (!element || typeof ResizeObserver === 'undefined') return;
    const measure = () => setAvailable(element.clientWidth > 0 ? element.clientWidth : null);
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  const keptColumn = allColumns.some((column) => column.id === rowHeader) ? rowHeader : allColumns[0]?.id;
  const columns = fitColumns(allColumns, available, keptColumn);
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => rowHeight,
    overscan: 12,
    scrollMargin: headHeight,
    // Where nothing is laid out (a pane not yet shown, a test without layout) sizes read 0: a screenful of rows
    // at their estimated height still renders, rather than none or all of them.
    initialRect: { width: 1024, height: 720 },
    observeElementRect: (instance, callback) =>
      observeElementRect(instance, (rect) => callback(rect.height > 0 ? rect : { width: rect.width || 1024, height: 720 })),
  });
  const template = columns.map((column) => column.width ?? 'minmax(8rem, 1fr)').join(' ');
  // Rows are all of one height, set here for the CSS: the virtualiser knows every row's place without measuring. The
  // grid is never narrower than its columns' minimums (it scrolls sideways instead) and otherwise as wide as the pane:
  // not its max-content width, which would give each flexible column its fr share of the widest minimum (a 2fr column
  // twice the 8rem of its 1fr neighbours) and push the last columns out of sight where fitColumns saw room for them.
  const style = {
    '--data-table-columns': template,
    '--data-table-row-height': `${rowHeight}px`,
    '--data-table-min-width': `${minimumTableWidth(columns)}px`,
  } as CSSProperties;
  const activeIndex = rows.length === 0 ? -1 : Math.min(Math.max(cursor, 0), rows.length - 1);

  const pendingFocus = useRef<number | null>(null);
  // Rows are all rowHeight tall, so where a row sits is known without asking the virtualiser, whose scrollToIndex
  // re-reads the layout for several frames after each move (a forced layout per PageDown, ~3 ms of 16).
  const scrollRowIntoView = (index: number) => {
    const element = scroller.current;
    if (!element) return;
    const top = headHeight + index * rowHeight;
    // The sticky header covers the top headHeight pixels of the scroller.
    if (top < element.scrollTop + headHeight) element.scrollTop = top - headHeight;
    else if (top + rowHeight > element.scrollTop + element.clientHeight) element.scrollTop = top + rowHeight - element.clientHeight;
  };
  const focusRow = (index: number) => {
    scrollRowIntoView(index);
    // The row may only exist after the virtualiser renders it; only the latest move wins. Focus that has moved on by
    // then (Shift+Enter opened a pane beside, the user went elsewhere) is not taken back; focus lost with a row the
    // window dropped (a long PageDown) is.
    if (pendingFocus.current !== null) cancelAnimationFrame(pendingFocus.current);
    const requestedFrom = document.activeElement;
    pendingFocus.current = requestAnimationFrame(() => {
      pendingFocus.current = null;
      const now = document.activeElement;
      if (now !== requestedFrom && now !== null && now !== document.body && requestedFrom?.isConnected) return;
      body.current?.querySelector<HTMLElement>(`[data-index="${index}"]`)?.focus({ preventScroll: true });
    });
  };
  useEffect(
    () => () => {
      if (pendingFocus.current !== null) cancelAnimationFrame(pendingFocus.current);
    },
    [],
  );

  const lastFocusRequest = useRef(focusRequest);
  useEffect(() => {
    if (focusRequest === lastFocusRequest.current) return;
    lastFocusRequest.current = focusRequest;
    if (activeIndex >= 0) focusRow(activeIndex);
    // No rows to hold it: the table's own region does (focus asked for never falls to the page's body).
    else scroller.current?.focus({ preventScroll: true });
  });

  const moveTo = (index: number) => {
    if (rows.length === 0) return;
    // Already on the last (first) row and asked to go further: the next (previous) page, where there is one.
    if (onPastEnd && ((index > activeIndex && activeIndex === rows.length - 1) || (index < activeIndex && activeIndex === 0))) {
      onPastEnd(index > activeIndex ? 1 : -1);
      return;
    }
    const next = Math.min(Math.max(index, 0), rows.length - 1);
    onCursorChange(next);
    focusRow(next);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTableSectionElement>) => {
    if (event.altKey || event.ctrlKey || event.metaKey || activeIndex < 0) return;
    const target = event.target as HTMLElement;
    // Keys typed into a control inside a cell belong to the control.
    if (target.closest('input, select, textarea, button')) return;
    const row = rows[activeIndex];
    let handled = true;
    switch (event.key) {
      case 'ArrowDown':
      case 'j':
        moveTo(activeIndex + 1);
        break;
      case 'ArrowUp':
      case 'k':
        moveTo(activeIndex - 1);
        break;
      case 'PageDown':
        moveTo(activeIndex + pageStep);
        break;
      case 'PageUp':
        moveTo(activeIndex - pageStep);
        break;
      case 'Home':
        moveTo(0);
        break;
      case 'End':
        moveTo(activeIndex === rows.length - 1 ? rows.length : rows.length - 1);
        break;
      case 'Enter':
        if (row) onOpen(row, { beside: event.shiftKey });
        break;
      // Shift+x extends a selection; with nothing selected yet it stays the shell's Shift+X (export), as on every table.
      case 'x':
      case 'X':
        if (selection && (!event.shiftKey || selection.hasAny?.() !== false)) selection.onToggle(activeIndex, event.shiftKey);
        else handled = false;
        break;
      // Esc clears a selection first; with none it is left to the shell (its own Escape command).
      case 'Escape':
        handled = selection?.onClear?.() === true;
        break;
      default:
        handled = false;
    }
    if (handled) event.preventDefault();
  };

  // One handler each on the body rather than closures per row, so a row that stays in the window skips rendering.
  const rowIndexOf = (target: EventTarget): number | null => {
    const element = (target as HTMLElement).closest<HTMLElement>('tr[data-index]');
    return element ? Number(element.dataset.index) : null;
  };
  const onRowFocus = (event: FocusEvent<HTMLTableSectionElement>) => {
    const index = rowIndexOf(event.target);
    if (index !== null && (event.target as HTMLElement).matches('tr') && index !== activeIndex) onCursorChange(index);
  };
  const onRowClick = (event: MouseEvent<HTMLTableSectionElement>) => {
    const index = rowIndexOf(event.target);
    if (index === null) return;
    if (index !== activeIndex) onCursorChange(index);
    const target = event.target as HTMLElement;
    if (target.closest('a, button, input')) return;
    target.closest<HTMLElement>('tr')?.focus({ preventScroll: true });
  };
  const onRowDoubleClick = (event: MouseEvent<HTMLTableSectionElement>) => {
    const index = rowIndexOf(event.target);
    const row = index === null ? undefined : rows[index];
    if (row && !(event.target as HTMLElement).closest('a, button, input')) onOpen(row, { beside: event.shiftKey });
  };

  const ariaSort = (column: DataTableColumn<Row>) => {
    if (!column.sortField) return undefined;
    if (sort?.field !== column.sortField) return 'none' as const;
    return sort.descending ? ('descending' as const) : ('ascending' as const);
  };

  const items = virtualizer.getVirtualItems();
  const changedRows = useChangedRows(rows, rowKey);
  // A fling draws the rows new to the window as placeholders until the window is still (fling-model.ts).
  const windowMemory = useRef(initialWindowMemory);
  const [, settle] = useReducer((count: number) => count + 1, 0);
  const windowKeys = items.map((item) => rowKey(rows[item.index] as Row));
  const windowStart = items[0]?.index ?? -1;
  const activeRow = rows[activeIndex];
  const plan = planWindow(windowKeys, windowStart, windowMemory.current, activeRow === undefined ? undefined : rowKey(activeRow), performance.now());
  useLayoutEffect(() => {
    windowMemory.current = rememberWindow(windowKeys, windowStart, plan, windowMemory.current, performance.now());
    if (plan.placeholders.size === 0) return;
    // The rows are filled in as a transition: React builds them in slices between frames, should scrolling resume.
    const timer = setTimeout(() => startTransition(settle), settleMs + 10);
    return () => clearTimeout(timer);
  });
  const headerColumn = columns.some((column) => column.id === rowHeader) ? rowHeader : columns[0]?.id;
  const message = status === 'error' ? (errorMessage ?? 'The list could not be loaded.') : status === 'ready' && rows.length === 0 ? emptyMessage : null;

  return (
    <div className="data-table" style={style}>
      <div ref={scroller} className="data-table-scroll" tabIndex={-1}>
        <table
          // biome-ignore lint/a11y/noNoninteractiveElementToInteractiveRole: a data grid: the rows take the focus (the row cursor), the arrow keys and j / k move it
          role="grid"
          aria-label={caption}
          aria-rowcount={(totalRows ?? rows.length) + 1}
          aria-colcount={columns.length}
          aria-multiselectable={selection ? true : undefined}
          aria-busy={status === 'loading' || status === 'updating' ? true : undefined}
          className={status === 'updating' ? 'data-table-grid data-table-updating' : 'data-table-grid'}
        >
          <thead ref={head} className="data-table-head">
            <tr className="data-table-row" aria-rowindex={1}>
              {columns.map((column, columnIndex) => (
                <th
                  key={column.id}
                  scope="col"
                  aria-colindex={columnIndex + 1}
                  aria-sort={ariaSort(column)}
                  className={`data-table-header${column.align === 'end' ? ' data-table-end' : ''}`}
                >
                  {column.sortField && onSortChange ? (
                    <button type="button" className="data-table-sort" onClick={() => onSortChange(nextSort(sort, column.sortField as string))}>
                      <span>{column.header}</span>
                      <span aria-hidden="true" className="data-table-sort-mark">
                        {sort?.field === column.sortField ? (sort.descending ? '↓' : '↑') : '↕'}
                      </span>
                    </button>
                  ) : (
                    column.header
                  )}
                </th>
              ))}
            </tr>
          </thead>
          <tbody
            ref={body}
            className="data-table-body"
            style={message ? undefined : { height: `${virtualizer.getTotalSize()}px`, paddingTop: `${(items[0]?.start ?? headHeight) - headHeight}px` }}
            onKeyDown={onKeyDown}
            onFocus={onRowFocus}
            onClick={onRowClick}
            onDoubleClick={onRowDoubleClick}
          >
            {message ? (
              <tr className="data-table-row data-table-message-row" aria-rowindex={2}>
                {/* biome-ignore lint/a11y/noNoninteractiveElementToInteractiveRole lint/a11y/useFocusableInteractive: the grid's one cell while it has no rows: its message (the grid itself holds the focus) */}
                <td role="gridcell" colSpan={columns.length} className={status === 'error' ? 'data-table-message data-table-error' : 'data-table-message'}>
                  {message}
                </td>
              </tr>
            ) : (
              items.map((item) => {
                const row = rows[item.index] as Row;
                const key = windowKeys[item.index - windowStart] as string;
                return (
                  <BodyRow<Row>
                    key={key}
                    row={row}
                    placeholder={plan.placeholders.has(key)}
                    index={item.index}
                    rowNumber={firstRowNumber + item.index + 1}
                    active={item.index === activeIndex}
                    changed={changedRows.has(key)}
                    selected={selection ? selection.isSelected(row) : null}
                    columns={columns}
                    headerColumn={headerColumn}
                  />
                );
              })
            )}
          </tbody>
        </table>
        {status === 'loading' && rows.length === 0 ? (
          <div className="data-table-loading" role="status">
            <span className="visually-hidden">Loading…</span>
            {Array.from({ length: 6 }, (_, index) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: six identical decorative bars: a bar's place is all there is to it
              <div key={index} className="data-table-loading-bar" aria-hidden="true" />
            ))}
          </div>
        ) : null}
      </div>
    </div>
  );
}

type BodyRowProps<Row> = {
  row: Row;
  /** drawn as a bar of the row's height while the window flings past (fling-model.ts) */
  placeholder: boolean;
  index: number;
  rowNumber: number;
  active: boolean;
  /** its content changed in place a moment ago (changed-rows.ts) */
  changed: boolean;
  /** null: the table has no selection (aria-selected marks the cursor row) */
  selected: boolean | null;
  columns: readonly DataTableColumn<Row>[];
  headerColumn: string | undefined;
};

// Rows are laid out in the body's flow (the body's top padding stands for the rows above the window), not each
// translated on its own: a distinct inline transform per row made every newly shown row a new style for the
// browser to resolve, which cost tens of milliseconds a frame. Memoised, so rows that stay in the window while
// scrolling are not rendered again.
function BodyRowUnmemoised<Row>({ row, placeholder, index, rowNumber, active, changed, selected, columns, headerColumn }: BodyRowProps<Row>) {
  if (placeholder) {
    return (
      <tr data-index={index} aria-rowindex={rowNumber} aria-busy="true" tabIndex={-1} className="data-table-row data-table-body-row data-table-placeholder-row">
        {/* biome-ignore lint/a11y/noNoninteractiveElementToInteractiveRole lint/a11y/useFocusableInteractive: a cell of the data grid; the keyboard focus is on its row (the row cursor), which names the row and moves with j / k */}
        <td role="gridcell" colSpan={columns.length} className="data-table-cell">
          <span className="data-table-placeholder" />
        </td>
      </tr>
    );
  }
  return (
    <tr
      data-index={index}
      aria-rowindex={rowNumber}
      aria-selected={selected ?? active}
      tabIndex={active ? 0 : -1}
      className={`data-table-row data-table-body-row${active ? ' data-table-active' : ''}${selected ? ' data-table-selected' : ''}${changed ? ' data-table-changed' : ''}`}
      data-changed={changed ? 'true' : undefined}
    >
      {columns.map((column, columnIndex) => {
        const className = `data-table-cell${column.align === 'end' ? ' data-table-end' : ''}${column.wrap ? ' data-table-wrap' : ''}`;
        return column.id === headerColumn ? (
          <th key={column.id} scope="row" aria-colindex={columnIndex + 1} className={className}>
            {column.cell(row)}
          </th>
        ) : (
          // biome-ignore lint/a11y/noNoninteractiveElementToInteractiveRole lint/a11y/useFocusableInteractive: a cell of the data grid; the keyboard focus is on its row (the row cursor), which names the row and moves with j / k
          <td key={column.id} role="gridcell" aria-colindex={columnIndex + 1} className={className}>
            {column.cell(row)}
          </td>
        );
      })}
    </tr>
  );
}

// The columns array is often rebuilt by the parent (a filtered, reordered list of the same column objects); equal
// members mean equal columns.
const sameColumns = <Row,>(a: readonly DataTableColumn<Row>[], b: readonly DataTableColumn<Row>[]) =>
  a === b || (a.length === b.length && a.every((column, index) => column === b[index]));

const BodyRow = memo(
  BodyRowUnmemoised,
  (previous, next) =>
    previous.row === next.row &&
    previous.placeholder === next.placeholder &&
    previous.index === next.index &&
    previous.rowNumber === next.rowNumber &&
    previous.active === next.active &&
    previous.selected === next.selected &&
    previous.changed === next.changed &&
    previous.headerColumn === next.headerColumn &&
    sameColumns(previous.columns, next.columns),
) as typeof BodyRowUnmemoised;
