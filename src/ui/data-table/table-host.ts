// What a table in a pane may ask of the pane around it, given by the workspace (src/app) so the table kit knows
// nothing of panes: a key for what the list remembers (its cursor row, across Back), the pane's pager (the
// Pagination lends it; j / k past the ends and `]` / `[` turn pages with it) and the trail a row opened in the pane
// leaves (Esc back to the list, j / k through its records). Outside a pane (tests, dialogs) there is none.
import { createContext, useContext } from 'react';

export type TablePager = { pageNumber: number; hasNext: boolean; turn: (pageNumber: number) => void };

export type TableTrail = {
  keys: readonly string[];
  index: number;
  open: (index: number) => void;
  remember: (key: string) => void;
};

export type TableHost = {
  /** the pane's id: what the pane's lists remember is kept under it */
  key: string;
  setPager: (pager: TablePager | null) => void;
  /** turns the pane's page by one; false where there is no such page */
  turnPage: (step: 1 | -1) => boolean;
  /** a row of the pane's list was opened in the pane */
  openedFrom: (trail: TableTrail) => void;
};

export const TableHostContext = createContext<TableHost | null>(null);

export function useTableHost(): TableHost | null {
  return useContext(TableHostContext);
}
