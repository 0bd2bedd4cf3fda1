// Benchmark pages built from the project's own libraries: a bare cmdk palette of 50 items (the yardstick for the
// portal's palette) and the portal's DataTable with a 10,000-row client list of transactions.
import { Command } from 'cmdk';
import { StrictMode, useEffect, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { transactionListColumns } from '../../../panes/transactions/transaction-columns.tsx';
import { defaultTransactionColumns } from '../../../src/contract/transactions.ts';
import type { TransactionListItem } from '../../../src/contract/transaction-schemas.ts';
import { DataTable, type DataTableSort } from '../../../src/ui/data-table/data-table.tsx';
import '../../../src/ui/ui.css';
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
        {Array.from({ length: 50 }, (_, index) => index).map((number) => (
          <Command.Item key={number} value={`Command ${number}`}>
            Command {number}
          </Command.Item>
        ))}
      </Command.List>
    </Command>
  );
}

// The transactions overview's own columns (the nine shown by default, with their formatters: dates, money, status
// chips, links) over 10,000 generated rows, so the bench scrolls what the transactions pane renders.
const methods = ['card', 'applePay', 'ideal', 'payPal', 'klarnaPayLater', 'directDebit', 'googlePay'];
const currencies = ['GBP', 'EUR', 'USD', 'JPY', 'SEK'];
const statuses = ['paid', 'pending', 'declined', 'refunded', 'cancelled', 'failed', 'authorized'];
const rows: TransactionListItem[] = Array.from({ length: 10_000 }, (_, index) => ({
  reference: `TX${String(index).padStart(8, '0')}`,
  kind: index % 11 === 0 ? 'refund' : 'payment',
  date: new Date(Date.UTC(2026, 10, 22) - index * 97_000).toISOString(),
  businessId: `B${index % 12}`,
  merchantId: `M${String(index % 120).padStart(5, '0')}`,
  merchantName: `Merchant ${index % 120}`,
  amount: ((index * 7919) % 100_000) / 100,
  currency: currencies[index % currencies.length] ?? 'GBP',
  status: statuses[index % statuses.length] ?? 'paid',
  paymentMethod: methods[index % methods.length] ?? 'card',
  channel: index % 4 === 0 ? 'pos' : 'ecom',
  ewalletType: index % 7 === 1 ? 'applePay' : null,
  paymentJobReference: `PJ${String(Math.floor(index / 2)).padStart(8, '0')}`,
}));
const shownColumns = transactionListColumns.filter((column) => (defaultTransactionColumns as readonly string[]).includes(column.id));

function BigTable() {
  const [cursor, setCursor] = useState(0);
  const [sort, setSort] = useState<DataTableSort | null>({ field: 'date', descending: true });
  return (
    <div style={{ height: '100vh', display: 'flex', flexDirection: 'column' }}>
      <DataTable<TransactionListItem>
        caption="Transactions"
        columns={shownColumns}
        rows={rows}
        rowKey={(row) => row.reference}
        rowHeader="reference"
        status="ready"
        emptyMessage="There are no transactions here yet."
        sort={sort}
        onSortChange={setSort}
        cursor={cursor}
        onCursorChange={setCursor}
        onOpen={() => undefined}
        totalRows={rows.length}
      />
    </div>
  );
}

const mode = new URLSearchParams(location.search).get('mode');
createRoot(document.getElementById('root') as HTMLElement).render(<StrictMode>{mode === 'table' ? <BigTable /> : <BarePalette />}</StrictMode>);
