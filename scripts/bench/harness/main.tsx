// Benchmark pages built from the project's own libraries: a bare cmdk palette of 50 items (the yardstick for the
// portal's palette) and the portal's DataTable with a 10,000-row client list.
import { Command } from 'cmdk';
import { StrictMode, useEffect, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { DataTable } from '../../../src/ui/data-table/data-table.tsx';
import '../../../src/ui/data-table/data-table.css';

function BarePalette() {
  const [open, setOpen] = useState(false);
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'k' && (event.ctrlKey || event.metaKey)) {
        event.preventDefault();
        setOpen((value) => !value);
      }
      if (event.key === 'Escape') setOpen(false);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
  if (!open) return <p>Press Ctrl+K</p>;
  return (
    <Command label="Bare palette">
      <Command.Input autoFocus placeholder="Type a command" />
      <Command.List>
        {Array.from({ length: 50 }, (_, index) => <Command.Item key={index} value={`Command ${index}`}>Command {index}</Command.Item>)}
      </Command.List>
    </Command>
  );
}

type Row = { reference: string; amount: string; status: string; merchant: string };
const rows: Row[] = Array.from({ length: 10_000 }, (_, index) => ({
  reference: `TX${String(index).padStart(8, '0')}`,
  amount: `£${((index * 7919) % 100_000 / 100).toFixed(2)}`,
  status: ['paid', 'pending', 'declined'][index % 3] ?? 'paid',
  merchant: `Merchant ${index % 120}`,
}));

function BigTable() {
  const [cursor, setCursor] = useState(0);
  return (
    <div style={{ height: '100vh', display: 'flex', flexDirection: 'column' }}>
      <DataTable<Row>
        caption="Ten thousand rows"
        columns={[
          { id: 'reference', header: 'Reference', cell: (row) => row.reference },
          { id: 'merchant', header: 'Merchant', cell: (row) => row.merchant },
          { id: 'status', header: 'Status', cell: (row) => row.status },
          { id: 'amount', header: 'Amount', cell: (row) => row.amount, align: 'end' },
        ]}
        rows={rows}
        rowKey={(row) => row.reference}
        status="ready"
        emptyMessage="No rows"
        cursor={cursor}
        onCursorChange={setCursor}
        onOpen={() => undefined}
      />
    </div>
  );
}

const mode = new URLSearchParams(location.search).get('mode');
createRoot(document.getElementById('root') as HTMLElement).render(<StrictMode>{mode === 'table' ? <BigTable /> : <BarePalette />}</StrictMode>);
