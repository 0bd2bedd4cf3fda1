// A table's selection as a description, not a list: every row matching the view's filters (allMatching) minus
// excluded ids, or only included ids. It holds across pages and sorts (ids, not row positions) and is sent to the
// server as it is, so 'all 12,408 matching' never means 12,408 ids in the browser. Another filter is another
// selection: the screen clears it when its filters change.
export type RowSelection = {
  allMatching: boolean;
  included: ReadonlySet<string>;
  excluded: ReadonlySet<string>;
};

export const emptySelection: RowSelection = { allMatching: false, included: new Set(), excluded: new Set() };

export function isRowSelected(selection: RowSelection, id: string): boolean {
  return selection.allMatching ? !selection.excluded.has(id) : selection.included.has(id);
}

export function setRows(selection: RowSelection, ids: readonly string[], selected: boolean): RowSelection {
  if (selection.allMatching) {
    const excluded = new Set(selection.excluded);
    for (const id of ids)
      if (selected) excluded.delete(id);
      else excluded.add(id);
    return { ...selection, excluded };
  }
  const included = new Set(selection.included);
  for (const id of ids)
    if (selected) included.add(id);
    else included.delete(id);
  return { ...selection, included };
}

export const toggleRow = (selection: RowSelection, id: string): RowSelection => setRows(selection, [id], !isRowSelected(selection, id));

/**
 * Shift+x: the rows from the anchor (the row last toggled) to the cursor take the anchor row's state, as in a mail
 * client; with no anchor on this page the range starts at the cursor.
 */
export function selectRange(selection: RowSelection, pageIds: readonly string[], anchor: number | null, cursor: number): RowSelection {
  const from = anchor === null || anchor >= pageIds.length ? cursor : anchor;
  const [low, high] = from <= cursor ? [from, cursor] : [cursor, from];
  const anchorId = pageIds[from];
  const selected = anchor === null || anchorId === undefined ? true : isRowSelected(selection, anchorId);
  return setRows(selection, pageIds.slice(low, high + 1), selected);
}

export const selectAllMatching = (): RowSelection => ({ allMatching: true, included: new Set(), excluded: new Set() });

/** How many rows are selected, given how many match the filters. */
export function selectedCount(selection: RowSelection, total: number): number {
  return selection.allMatching ? Math.max(0, total - selection.excluded.size) : selection.included.size;
}

export const hasSelection = (selection: RowSelection) => selection.allMatching || selection.included.size > 0;

/** Rows picked by hand (not 'all matching' with none left out): what an export of the selection holds; else null. */
export function pickedRows(selection: RowSelection): RowSelection | null {
  return hasSelection(selection) && !(selection.allMatching && selection.excluded.size === 0) ? selection : null;
}

/** What the server is sent (src/contract/bulk-jobs.ts BulkSelection): the view's filters and the picks. */
export function selectionRequest(selection: RowSelection, filters: Record<string, string>) {
  return {
    allMatching: selection.allMatching,
    filters,
    includedIds: selection.allMatching ? [] : [...selection.included],
    excludedIds: selection.allMatching ? [...selection.excluded] : [],
  };
}
