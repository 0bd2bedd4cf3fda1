// The overview table with its row cursor held inside: a cursor move (j/k, arrows, PageDown, a click) renders the
// table alone, not the screen around it (its filters, presets, pagination and dialogs). The screen reaches the
// cursor through a handle: where it is (to open that row) and a move (the palette's and shortcuts' row commands).
import { type Ref, useEffect, useImperativeHandle, useState } from 'react';
import { DataTable, type DataTableProps } from './data-table.tsx';

export type RowCursorHandle = {
  /** the cursor row's index on this page */
  index: () => number;
  /** moves the cursor by `step` rows (kept on the page) and the keyboard focus with it */
  move: (step: number) => void;
};

export type CursorDataTableProps<Row> = Omit<DataTableProps<Row>, 'cursor' | 'onCursorChange' | 'focusRequest'> & {
  cursorHandle: Ref<RowCursorHandle>;
  /** the cursor goes back to the first row whenever this changes (another page, other filters, fresh data) */
  resetKey: string;
};

export function CursorDataTable<Row>({ cursorHandle, resetKey, ...props }: CursorDataTableProps<Row>) {
  const [cursor, setCursor] = useState(0);
  const [focusRequest, setFocusRequest] = useState(0);
  useEffect(() => setCursor(0), [resetKey]);
  const lastRow = Math.max(props.rows.length - 1, 0);
  useImperativeHandle(cursorHandle, () => {
    const onPage = (index: number) => Math.min(Math.max(index, 0), lastRow);
    return {
      index: () => onPage(cursor),
      move: (step) => {
        setCursor((current) => onPage(current + step));
        setFocusRequest((current) => current + 1);
      },
    };
  }, [cursor, lastRow]);
  return <DataTable {...props} cursor={cursor} onCursorChange={setCursor} focusRequest={focusRequest} />;
}
