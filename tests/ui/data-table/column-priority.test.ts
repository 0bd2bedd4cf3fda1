// A list in a narrow pane keeps its amount and status: columns drop by priority, not by their order.
import { describe, expect, it } from 'vitest';
import { type DataTableColumn, fitColumns } from '../../../src/ui/data-table/data-table.tsx';

type Row = Record<string, string>;
const column = (id: string, width: string, extra: Partial<DataTableColumn<Row>> = {}): DataTableColumn<Row> => ({
  id,
  header: id,
  width,
  cell: (row) => row[id],
  ...extra,
});
// The transactions overview's shape: the amount and the status sit right of less important columns.
const columns = [
  column('date', 'minmax(10.5rem, 1fr)'),
  column('reference', 'minmax(9rem, 1fr)'),
  column('merchant', 'minmax(10rem, 1.4fr)'),
  column('amount', 'minmax(7rem, 0.8fr)', { align: 'end' }),
  column('currency', '5.5rem'),
  column('status', '7.5rem'),
  column('paymentMethod', 'minmax(8rem, 1fr)'),
  column('channel', '7rem'),
];
const ids = (shown: readonly DataTableColumn<Row>[]) => shown.map((shownColumn) => shownColumn.id);

describe('columns in a narrow pane', () => {
  it('shows every column where they fit or the width is unknown', () => {
    expect(fitColumns(columns, 2000, 'reference')).toBe(columns);
    expect(fitColumns(columns, null, 'reference')).toBe(columns);
  });

  it('keeps the row header, the amount and the status; the others go from the right', () => {
    expect(ids(fitColumns(columns, 560, 'reference'))).toEqual(['date', 'reference', 'amount', 'status']);
    expect(ids(fitColumns(columns, 420, 'reference'))).toEqual(['reference', 'amount', 'status']);
    expect(ids(fitColumns(columns, 200, 'reference'))).toEqual(['reference']);
  });

  it('follows a priority set on the column', () => {
    const withPriority = columns.map((shown) => (shown.id === 'channel' ? { ...shown, priority: 1 } : shown));
    expect(ids(fitColumns(withPriority, 560, 'reference'))).toEqual(['reference', 'amount', 'status', 'channel']);
  });
});
