// Column choices of a table as stored in user settings ({page}Columns): the saved order and hidden set, applied to
// the columns a table has now. All pure.

export const columnsSettingKey = (page: string) => `${page}Columns`;

function parseJson(json: string | null | undefined): unknown {
  if (!json) return null;
  try {
    return JSON.parse(json) as unknown;
  } catch {
    return null;
  }
}

export type ColumnChoice = { order: string[]; hidden: string[] };

/**
 * The saved order and hidden set applied to the current columns: unknown saved names are dropped, columns added
 * since are placed where the default order puts them, and at least one column always stays visible.
 */
export const applyColumnChoice = (json: string | null | undefined, columns: readonly string[], defaultVisible: readonly string[]) =>
  columnChoiceOf(parseJson(json), columns, defaultVisible);

/** The same for a value already parsed (user settings arrive parsed). */
export function columnChoiceOf(value: unknown, columns: readonly string[], defaultVisible: readonly string[]): { order: string[]; visible: string[] } {
  const fallback = { order: [...columns], visible: columns.filter((column) => defaultVisible.includes(column)) };
  if (typeof value !== 'object' || value === null) return fallback;
  const { order, hidden } = value as Record<string, unknown>;
  if (!Array.isArray(order) || !Array.isArray(hidden)) return fallback;
  const savedOrder = order.filter((name): name is string => typeof name === 'string' && columns.includes(name));
  const merged = [...new Set(savedOrder)];
  for (const column of columns) {
    if (merged.includes(column)) continue;
    // Before the nearest column that follows it by default, or last when none does.
    const follower = columns.slice(columns.indexOf(column) + 1).find((name) => merged.includes(name));
    if (follower === undefined) merged.push(column);
    else merged.splice(merged.indexOf(follower), 0, column);
  }
  const hiddenSet = new Set(hidden.filter((name): name is string => typeof name === 'string'));
  // A column new since the choice was saved follows the default (visible or not), not the saved hidden set.
  const visible = merged.filter((column) => (savedOrder.includes(column) ? !hiddenSet.has(column) : defaultVisible.includes(column)));
  return visible.length > 0 ? { order: merged, visible } : fallback;
}

export const columnChoice = (order: readonly string[], visible: readonly string[]): ColumnChoice => ({
  order: [...order],
  hidden: order.filter((column) => !visible.includes(column)),
});
export const serialiseColumnChoice = (order: readonly string[], visible: readonly string[]) => JSON.stringify(columnChoice(order, visible));
