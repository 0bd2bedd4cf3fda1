// A pane's pager: the Pagination shown in a pane tells the pane's table (and the `]` / `[` commands) how to turn
// its pages, so j / k, PageDown and End past the last row go on to the next page in every list without each screen
// wiring it. Kept by pane id (one paged list per pane); cleared when the Pagination goes. The workspace lends it to
// the table kit through its TableHost (src/ui/data-table/table-host.ts).

export type Pager = {
  pageNumber: number;
  hasNext: boolean;
  turn: (pageNumber: number) => void;
};

const pagers = new Map<string, Pager>();

export function setPager(paneId: string, pager: Pager | null): void {
  if (pager) pagers.set(paneId, pager);
  else pagers.delete(paneId);
}

export function pagerOf(paneId: string | null | undefined): Pager | undefined {
  return paneId ? pagers.get(paneId) : undefined;
}

/** Turns the pane's page by one; false when there is no such page. */
export function turnPage(paneId: string | null | undefined, step: 1 | -1): boolean {
  const pager = pagerOf(paneId);
  if (!pager || (step > 0 ? !pager.hasNext : pager.pageNumber <= 1)) return false;
  pager.turn(pager.pageNumber + step);
  return true;
}

/** The list a pane's detail was opened from (Enter on a row): Esc goes back to it, j / k open its next records. */
export type ListTrail = {
  /** the pane's path while it showed the list */
  listPath: string;
  /** the rows of the list's page, by key */
  keys: readonly string[];
  index: number;
  /** opens the list's row at this index in the pane */
  open: (index: number) => void;
  /** the row the list's cursor goes back to */
  remember: (key: string) => void;
};

const trails = new Map<string, ListTrail>();

export function setListTrail(paneId: string, trail: ListTrail): void {
  trails.set(paneId, trail);
}

const pathnameOf = (path: string) => path.split('?')[0] ?? path;

/** The trail of the pane's record, while the pane shows a record below the list it came from. */
export function listTrailOf(paneId: string | null | undefined, panePath: string | null | undefined): ListTrail | undefined {
  const trail = paneId ? trails.get(paneId) : undefined;
  if (!trail || !panePath) return undefined;
  const list = pathnameOf(trail.listPath);
  return pathnameOf(panePath).startsWith(`${list}/`) ? trail : undefined;
}

/** Opens the next (previous) record of the trail's list; false at its ends. */
export function stepListTrail(trail: ListTrail, step: 1 | -1): boolean {
  const index = trail.index + step;
  const key = trail.keys[index];
  if (key === undefined) return false;
  trail.index = index;
  trail.remember(key);
  trail.open(index);
  return true;
}
