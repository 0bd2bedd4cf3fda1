// A row whose content changes in place (a live refresh) is marked for a moment; new rows (another page, another
// sort) are not; the cursor stays where it was.
import { act, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { changedKeys, changedRowMs } from '../../../src/ui/data-table/changed-rows.ts';
import { DataTable, type DataTableColumn } from '../../../src/ui/data-table/data-table.tsx';

type Row = { id: string; status: string };
const columns: DataTableColumn<Row>[] = [
  { id: 'id', header: 'Reference', cell: (row) => row.id },
  { id: 'status', header: 'Status', cell: (row) => row.status },
];

function Table({ rows, cursor = 0 }: { rows: Row[]; cursor?: number }) {
  return (
    <DataTable
      caption="Payment jobs"
      columns={columns}
      rows={rows}
      rowKey={(row) => row.id}
      status="ready"
      emptyMessage="None."
      errorMessage="Failed."
      cursor={cursor}
      onCursorChange={() => undefined}
      onOpen={() => undefined}
    />
  );
}

const rowOf = (name: string) => screen.getByRole('rowheader', { name }).closest('tr') as HTMLElement;

describe('changed rows', () => {
  it('compares views of the same rows by key and content', () => {
    const before = new Map([
      ['a', '1'],
      ['b', '2'],
    ]);
    expect([
      ...changedKeys(
        before,
        new Map([
          ['a', '1'],
          ['b', '3'],
          ['c', '9'],
        ]),
      ),
    ]).toEqual(['b']);
    expect(
      changedKeys(
        before,
        new Map([
          ['c', '1'],
          ['d', '2'],
        ]),
      ).size,
    ).toBe(0);
  });

  it('marks the row that changed in place for a moment, and neither the others nor the cursor move', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const first = [
        { id: 'PJ1', status: 'Paid' },
        { id: 'PJ2', status: 'Paid' },
        { id: 'PJ3', status: 'Open' },
      ];
      const view = render(<Table rows={first} cursor={2} />);
      expect(rowOf('PJ2').getAttribute('data-changed')).toBeNull();
      view.rerender(<Table rows={[first[0]!, { id: 'PJ2', status: 'Refunded' }, first[2]!]} cursor={2} />);
      expect(rowOf('PJ2').getAttribute('data-changed')).toBe('true');
      expect(rowOf('PJ2').className).toContain('data-table-changed');
      expect(rowOf('PJ1').getAttribute('data-changed')).toBeNull();
      expect(rowOf('PJ3').getAttribute('aria-selected')).toBe('true');
      act(() => {
        vi.advanceTimersByTime(changedRowMs + 10);
      });
      expect(rowOf('PJ2').getAttribute('data-changed')).toBeNull();
      // Another page: all rows are new, none is marked.
      view.rerender(
        <Table
          rows={[
            { id: 'PJ4', status: 'Paid' },
            { id: 'PJ5', status: 'Open' },
          ]}
        />,
      );
      expect(rowOf('PJ4').getAttribute('data-changed')).toBeNull();
    } finally {
      vi.useRealTimers();
    }
  });
});
