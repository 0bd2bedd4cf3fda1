// The transactions overview's columns: what each shows and how, which the user may hide or reorder.
import { displayStatusLabel, displayStatusOf, signedAmount, takesMoneyBack } from '../../src/contract/transactions.ts';
import type { TransactionListItem } from '../../src/contract/transaction-schemas.ts';
import { formatShortDateTime } from '../../src/format/dates.ts';
import { formatMoney } from '../../src/format/money.ts';
import { formatPaymentMethod } from '../../src/format/payment-method.ts';
import type { DataTableColumn } from '../../src/ui/data-table/data-table.tsx';

/** Colour of a status: paid is good news, declines and failures are not, the rest wait. */
export function statusTone(status: string): 'success' | 'danger' | 'warning' | 'info' | 'neutral' {
  if (['paid', 'captured', 'commissioned', 'verified'].includes(status)) return 'success';
  if (status === 'refunded' || status === 'partiallyRefunded') return 'info';
  if (['declined', 'failed', 'rejected', 'blocked'].includes(status)) return 'danger';
  if (['pending', 'reserved'].includes(status)) return 'warning';
  if (['cancelled', 'expired'].includes(status)) return 'neutral';
  return 'info';
}

export function StatusChip({ status }: { status: string }) {
  return (
    <span className="status-chip" data-tone={statusTone(status)}>
      {displayStatusLabel(status)}
    </span>
  );
}

/** A refund or a chargeback wears a badge wherever it is listed, so it never passes for a payment. */
export function KindBadge({ kind }: { kind: string }) {
  if (kind === 'refund')
    return (
      <span className="status-chip kind-refund" data-tone="warning">
        Refund
      </span>
    );
  if (kind === 'chargeback')
    return (
      <span className="status-chip kind-refund" data-tone="danger">
        Chargeback
      </span>
    );
  return <>{kindLabel(kind)}</>;
}

/** The amount as it reads: a refund negative, in its own currency. */
export const formatSignedMoney = (row: { kind: string; amount: number; currency: string }) => formatMoney(signedAmount(row.kind, row.amount), row.currency);

const kindLabels: Record<string, string> = { payment: 'Payment', refund: 'Refund', capture: 'Capture', chargeback: 'Chargeback' };
export const kindLabel = (kind: string) => kindLabels[kind] ?? kind;

/** Every column the overview can show; ids match the export's column names. */
export const transactionListColumns: readonly (DataTableColumn<TransactionListItem> & { label: string })[] = [
  {
    id: 'date',
    label: 'Date',
    header: 'Date',
    sortField: 'date',
    width: '10.5rem',
    cell: (row) => <time dateTime={row.date}>{formatShortDateTime(row.date)}</time>,
  },
  {
    id: 'reference',
    label: 'Reference',
    header: 'Reference',
    sortField: 'reference',
    width: '8.5rem',
    // The row is the keyboard stop (Enter opens it); the link serves the pointer (Shift+click opens beside).
    cell: (row) => (
      <a className="data-table-link" href={`/transactions/${encodeURIComponent(row.reference)}`} tabIndex={-1}>
        {row.reference}
      </a>
    ),
  },
  { id: 'merchant', label: 'Merchant', header: 'Merchant', sortField: 'merchant', width: 'minmax(12rem, 3fr)', wrap: true, cell: (row) => row.merchantName },
  {
    id: 'amount',
    label: 'Amount',
    header: 'Amount',
    sortField: 'amount',
    align: 'end',
    width: 'minmax(7rem, 0.6fr)',
    cell: (row) => <span className={takesMoneyBack(row.kind) ? 'amount-negative' : undefined}>{formatSignedMoney(row)}</span>,
  },
  { id: 'currency', label: 'Currency', header: 'Currency', width: '5.5rem', cell: (row) => row.currency },
  { id: 'status', label: 'Status', header: 'Status', sortField: 'status', width: '9.5rem', cell: (row) => <StatusChip status={displayStatusOf(row)} /> },
  {
    id: 'paymentMethod',
    label: 'Payment method',
    header: 'Payment method',
    width: 'minmax(9.5rem, 1fr)',
    wrap: true,
    cell: (row) => formatPaymentMethod(row.paymentMethod),
  },
  { id: 'channel', label: 'Channel', header: 'Channel', width: '7rem', cell: (row) => row.channel },
  { id: 'ewalletType', label: 'E-wallet', header: 'E-wallet', width: '7rem', cell: (row) => (row.ewalletType ? formatPaymentMethod(row.ewalletType) : '—') },
  { id: 'kind', label: 'Type', header: 'Type', width: '6rem', priority: 1, cell: (row) => <KindBadge kind={row.kind} /> },
  {
    id: 'paymentJobReference',
    label: 'Payment job',
    header: 'Payment job',
    width: 'minmax(9rem, 1fr)',
    cell: (row) => <span className="data-table-link">{row.paymentJobReference}</span>,
  },
  { id: 'merchantId', label: 'Merchant ID', header: 'Merchant ID', width: '8rem', cell: (row) => row.merchantId },
  // The masked card (first six, last four): what a caller reads out, never the full number.
  {
    id: 'maskedCardNumber',
    label: 'Card number (masked)',
    header: 'Card',
    width: 'minmax(10rem, 1fr)',
    cell: (row) => <span className="card-number-value">{row.maskedCardNumber ?? '—'}</span>,
  },
];

export const transactionListColumnIds = transactionListColumns.map((column) => column.id);
