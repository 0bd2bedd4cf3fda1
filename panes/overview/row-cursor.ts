// The row cursor of a list screen: the table holds the cursor (a move renders the table alone), the screen reaches it
// through a handle, and the table commands (j, k, Enter, Shift+Enter) reach the screen as its 'rows' capability.
import { type RefObject, useRef } from 'react';
import { useLocation } from 'wouter';
import { rowRequests, tableRowsCapability } from '../../src/contract/table-rows.ts';
import { type PaneRequestHandlers, usePaneScope } from '../../src/state/pane-scope.tsx';
import { openBeside } from '../../src/state/workspace-store.ts';
import type { RowCursorHandle } from '../../src/ui/data-table/cursor-data-table.tsx';

/** What the row commands need of a cursor: where it is, and a move. */
export type RowCursorPosition = Pick<RowCursorHandle, 'index' | 'move'>;

export type RowCursor<Row> = {
  /** the handle the table fills (CursorDataTable's cursorHandle) */
  cursor: RefObject<RowCursorHandle | null>;
  /** opens a row's detail in this pane, or beside it */
  openRow: (row: Row | undefined, beside: boolean) => void;
  /** opens the cursor row (Enter in the search field) */
  openCursorRow: () => void;
  /** the 'rows' capability while `enabled` and there are rows (a screen's own dialogs withdraw it) */
  rowHandlers: (enabled?: boolean) => PaneRequestHandlers;
  /** the table's props for the cursor, spread into a CursorDataTable or OverviewTable: its handle, rows and opener */
  table: { cursorHandle: RefObject<RowCursorHandle | null>; rows: readonly Row[]; onOpen: (row: Row, options: { beside: boolean }) => void };
};

/** A row's detail path, or what opening a row does where it is no detail (a report or a PDF downloads). */
export type RowTarget<Row> = ((row: Row) => string) | { open: (row: Row, beside: boolean) => void };

export type RowCursorOptions = {
  /** the cursor of a plain table whose rows are links (linkCursor), instead of the handle a CursorDataTable fills */
  position?: { readonly current: RowCursorPosition | null };
};

export function useRowCursor<Row>(rows: readonly Row[], target: RowTarget<Row>, options: RowCursorOptions = {}): RowCursor<Row> {
  const [, navigate] = useLocation();
  const scope = usePaneScope();
  const cursor = useRef<RowCursorHandle>(null);
  const position = options.position ?? cursor;
  const openRow = (row: Row | undefined, beside: boolean) => {
    if (!row) return;
    if (typeof target !== 'function') {
      target.open(row, beside);
      return;
    }
    const path = target(row);
    if (beside) openBeside(path, scope ? { afterPaneId: scope.paneId } : {});
    else navigate(path);
  };
  const onRowRequest = rowRequestHandler(position, rows, openRow);
  return {
    cursor,
    openRow,
    openCursorRow: () => openRow(rows[position.current?.index() ?? 0], false),
    rowHandlers: (enabled = true) => (enabled && rows.length > 0 ? { [tableRowsCapability]: onRowRequest } : {}),
    table: { cursorHandle: cursor, rows, onOpen: (row, { beside }) => openRow(row, beside) },
  };
}

/** The 'rows' capability's handler for a screen that keeps its own cursor handle and opener. */
export function rowRequestHandler<Row>(
  cursor: { readonly current: RowCursorPosition | null },
  rows: readonly Row[],
  openRow: (row: Row | undefined, beside: boolean) => void,
) {
  return (argument?: number) => {
    if (argument === rowRequests.open || argument === rowRequests.openBeside) {
      openRow(rows[cursor.current?.index() ?? 0], argument === rowRequests.openBeside);
      return;
    }
    cursor.current?.move(argument === rowRequests.previous ? -1 : 1);
  };
}

/**
 * The cursor of a plain table whose rows are links: the row holding the focus (the first when the focus is
 * elsewhere), and a move that focuses the next or previous row's link (the first while no row link has the focus).
 */
export function linkCursor(table: RefObject<HTMLElement | null>): { readonly current: RowCursorPosition } {
  const links = () => [...(table.current?.querySelectorAll<HTMLAnchorElement>('tbody a[href]') ?? [])];
  return {
    current: {
      index: () => {
        const row = document.activeElement?.closest('tr');
        const index = row ? [...(table.current?.querySelectorAll('tbody tr') ?? [])].indexOf(row) : -1;
        return Math.max(index, 0);
      },
      move: (step) => {
        const all = links();
        const active = document.activeElement;
        const current = active instanceof HTMLAnchorElement ? all.indexOf(active) : -1;
        all[current < 0 ? 0 : Math.min(Math.max(current + step, 0), all.length - 1)]?.focus();
      },
    },
  };
}
