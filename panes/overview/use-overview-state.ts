// What every overview screen (transactions, tickets, payment jobs, users) composes the same way: the table state in
// the pane's address (a link reproduces the view), the server page it asks for, the columns the user chose
// (remembered per user), the selection (a description over the filters, kept across pages and sorts, cleared when
// the filters or the context change), the row cursor and the table's props. What stays in a screen is its own: its
// columns, filters and commands. It lives with the panes, not in src/ui: it speaks the list contract and the API.
import { type QueryKey, type UseQueryOptions, type UseQueryResult, useQuery, useQueryClient } from '@tanstack/react-query';
import { type RefObject, useMemo, useRef, useState } from 'react';
import { useLocation } from 'wouter';
import { saveUserSetting, userSettingQueries } from '../../src/api/user-setting-queries.ts';
import { changeListState, compactFilters, type ListState, listStateFromParams, listStateToParams } from '../../src/contract/list-state.ts';
import { columnChoice, columnChoiceOf, columnsSettingKey } from '../../src/contract/column-choice.ts';
import { type ListQuerySpec, pageSizes } from '../../src/contract/list-query.ts';
import type { PaneRequestHandlers } from '../../src/state/pane-scope.tsx';
import type { ColumnChooserProps } from '../../src/ui/data-table/column-chooser.tsx';
import type { DataTableColumn } from '../../src/ui/data-table/data-table.tsx';
import type { OverviewTableProps } from '../../src/ui/data-table/overview-table.tsx';
import { emptySelection, type RowSelection, selectAllMatching } from '../../src/ui/data-table/selection-model.ts';
import { tableStatusOf } from '../../src/ui/data-table/table-status.ts';
import { type RowCursor, useRowCursor } from './row-cursor.ts';

export type ListPage<Row> = { results: readonly Row[]; numberOfResults: number; numberOfResultsIsEstimate?: boolean };

/** A column the user may choose; `label` names it in the chooser where the header is not enough. */
export type OverviewColumn<Row> = DataTableColumn<Row> & { label?: string };

export type OverviewSpec<Row, Page extends ListPage<Row>, Key extends QueryKey> = {
  /** the pane's query string */
  search: string;
  listSpec: ListQuerySpec;
  /** address parameters kept beside the list state (the palette's scope=all) */
  keptParams?: Record<string, string>;
  /** the server page for a state */
  query: (state: ListState) => UseQueryOptions<Page, Error, Page, Key>;
  /** the path of a row's detail */
  rowPath: (row: Row) => string;
  columns: readonly OverviewColumn<Row>[];
  /** columns the user chooses, remembered under this page name (its default visible ones); else every column shows */
  columnChoice?: { page: string; defaultVisible: readonly string[] };
  /** besides the filters, what clears the selection when it changes (the context) */
  selectionScope?: string;
  /** the filters the selection describes, when the request adds some of its own (a locked configuration) */
  selectionFilters?: Record<string, string>;
};

export type SetListState = (next: ListState, options?: { replace?: boolean; params?: Record<string, string> }) => void;

export type OverviewState<Row, Page extends ListPage<Row>> = Omit<RowCursor<Row>, 'table'> & {
  state: ListState;
  /** `params` replaces the kept parameters for this change */
  setState: SetListState;
  /** merges filters into the state (back on page 1) */
  applyFilters: (patch: Record<string, string | undefined>, options?: { replace?: boolean }) => void;
  /** replaces the filters (a preset, Clear filters), back on page 1 */
  showFilters: (filters: Record<string, string>, options?: { replace?: boolean }) => void;
  list: UseQueryResult<Page, Error>;
  rows: readonly Row[];
  total: number;
  totalIsEstimate: boolean;
  /** the columns shown, in the user's order */
  shownColumns: readonly OverviewColumn<Row>[];
  columnsOpen: boolean;
  setColumnsOpen: (open: boolean) => void;
  /** the ColumnChooser's props (with columnChoice) */
  columnChooser: ColumnChooserProps;
  selection: RowSelection;
  setSelection: (next: RowSelection) => void;
  /** x, Shift+x, Shift+A and Escape on the selection */
  selectionHandlers: PaneRequestHandlers;
  searchInput: RefObject<HTMLInputElement | null>;
  filterPanel: RefObject<HTMLDivElement | null>;
  /** the OverviewTable's props, but for what names the list (caption, columns, row key and header, noun, pages) */
  table: Omit<OverviewTableProps<Row>, 'caption' | 'columns' | 'rowKey' | 'rowHeader' | 'noun' | 'pagesLabel'>;
};

export function useOverviewState<Row, Page extends ListPage<Row>, Key extends QueryKey>(spec: OverviewSpec<Row, Page, Key>): OverviewState<Row, Page> {
  const { search, listSpec, keptParams = {}, columns } = spec;
  const [location, navigate] = useLocation();
  const queryClient = useQueryClient();
  const state = useMemo(() => listStateFromParams(Object.fromEntries(new URLSearchParams(search)), listSpec), [search, listSpec]);
  const setState: SetListState = (next, options = {}) => {
    const query = new URLSearchParams({ ...listStateToParams(next, listSpec), ...(options.params ?? keptParams) }).toString();
    navigate(`${location}${query ? `?${query}` : ''}`, options.replace ? { replace: true } : undefined);
  };
  const applyFilters = (patch: Record<string, string | undefined>, options: { replace?: boolean } = {}) =>
    setState(changeListState(state, { filters: compactFilters({ ...state.filters, ...patch }) }), options);

  const list = useQuery(spec.query(state));
  const failed = list.isError;
  const rows: readonly Row[] = failed ? [] : (list.data?.results ?? []);
  const total = failed ? 0 : (list.data?.numberOfResults ?? 0);
  const totalIsEstimate = !failed && (list.data?.numberOfResultsIsEstimate ?? false);

  // Columns, remembered per user.
  const columnIds = columns.map((column) => column.id);
  const columnsKey = columnsSettingKey(spec.columnChoice?.page ?? '');
  const columnSetting = useQuery({ ...userSettingQueries.detail(columnsKey), enabled: spec.columnChoice !== undefined });
  const defaultVisible = spec.columnChoice?.defaultVisible ?? columnIds;
  const { order, visible } = spec.columnChoice ? columnChoiceOf(columnSetting.data, columnIds, defaultVisible) : { order: columnIds, visible: columnIds };
  const shownColumns = spec.columnChoice
    ? order
        .filter((id) => visible.includes(id))
        .map((id) => columns.find((column) => column.id === id))
        .filter((column): column is OverviewColumn<Row> => column !== undefined)
    : columns;
  const saveColumns = (nextOrder: readonly string[], nextVisible: readonly string[]) => {
    const value = columnChoice(nextOrder, nextVisible);
    queryClient.setQueryData(userSettingQueries.detail(columnsKey).queryKey, value);
    void saveUserSetting(columnsKey, value).catch(() => queryClient.invalidateQueries({ queryKey: userSettingQueries.detail(columnsKey).queryKey }));
  };
  const [columnsOpen, setColumnsOpen] = useState(false);

  // Selection: cleared when the filters or the context change (adjusted while rendering, not in an effect).
  const [selection, setSelection] = useState<RowSelection>(emptySelection);
  const selectionKey = `${JSON.stringify(spec.selectionFilters ?? state.filters)}|${spec.selectionScope ?? ''}`;
  const [selectionSeen, setSelectionSeen] = useState(selectionKey);
  if (selectionSeen !== selectionKey) {
    setSelectionSeen(selectionKey);
    setSelection(emptySelection);
  }

  const rowCursor = useRowCursor(rows, spec.rowPath);
  const searchInput = useRef<HTMLInputElement>(null);
  const filterPanel = useRef<HTMLDivElement>(null);

  return {
    ...rowCursor,
    state,
    setState,
    applyFilters,
    showFilters: (filters, options) => setState(changeListState(state, { filters }), options),
    list,
    rows,
    total,
    totalIsEstimate,
    shownColumns,
    columnsOpen,
    setColumnsOpen,
    columnChooser: {
      open: columnsOpen,
      onClose: () => setColumnsOpen(false),
      columns: columns.map((column) => ({ id: column.id, label: column.label ?? column.header })),
      order,
      visible,
      onChange: saveColumns,
      onReset: () => saveColumns(columnIds, defaultVisible),
    },
    selection,
    setSelection,
    selectionHandlers: {
      selectRow: (argument) => rowCursor.cursor.current?.toggle(argument === 1),
      selectAllMatching: () => setSelection(selectAllMatching()),
      clearSelection: () => setSelection(emptySelection),
    },
    searchInput,
    filterPanel,
    table: {
      ...rowCursor.table,
      selection: { value: selection, onChange: setSelection, rowLabel: (key) => `Select ${key}` },
      resetKey: `${search}|${list.dataUpdatedAt}`,
      status: tableStatusOf(list),
      view: state,
      filtered: Object.keys(state.filters).length > 0,
      total,
      totalIsEstimate,
      pageSizes,
      onSortChange: (sort) => setState(changeListState(state, { sort })),
      onPageChange: (pageNumber) => setState(changeListState(state, { pageNumber })),
      onPageSizeChange: (pageSize) => setState(changeListState(state, { pageSize })),
    },
  };
}
