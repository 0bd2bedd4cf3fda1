// A table's status from the query that feeds it, as every overview pane derives it.
import type { DataTableStatus } from './data-table.tsx';

/** error, loading (nothing yet), updating (the previous view's rows shown while the next loads) or ready. */
export function tableStatusOf(query: { isError: boolean; isPending: boolean; isPlaceholderData: boolean }): DataTableStatus {
  return query.isError ? 'error' : query.isPending ? 'loading' : query.isPlaceholderData ? 'updating' : 'ready';
}
