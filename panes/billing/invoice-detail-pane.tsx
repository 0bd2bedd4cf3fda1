// One invoice or credit note: its lines and totals as issued, its status, and the finance admin's actions:
// download the PDF (Shift+I), mark paid (Shift+B, with the version read), issue a credit note (palette or button).
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { invoiceKindLabels, monthLabel } from '../../src/contract/billing.ts';
import { formatDate, formatDateTime } from '../../src/format/dates.ts';
import { currencyDecimals, formatMinorUnits } from '../../src/format/money.ts';
import { formatPaymentMethod } from '../../src/format/payment-method.ts';
import { type PaneProps, type PaneRequestHandlers, usePaneCapabilities } from '../../src/state/pane-scope.tsx';
import { showToast } from '../../src/state/toast-store.ts';
import { ConfirmDialog } from '../../src/ui/confirm-dialog.tsx';
import { Modal } from '../../src/ui/modal.tsx';
import { Skeleton } from '../../src/ui/skeleton.tsx';
import { InvoiceStatusText, invoicePath } from './billing-pane.tsx';
import { billingQueries, downloadInvoicePdf, internalPdfPath, issueCreditNote, markInvoicePaid } from './billing-queries.ts';
import './billing.css';

/** '12.50' in a currency's decimals → minor units; null when it is not an amount. */
export function minorUnitsOf(text: string, currency: string): number | null {
  const decimals = currencyDecimals(currency);
  const pattern = decimals === 0 ? /^\d{1,12}$/ : new RegExp(`^\\d{1,12}(\\.\\d{1,${decimals}})?$`);
  const trimmed = text.trim();
  if (!pattern.test(trimmed)) return null;
  const [whole = '0', fraction = ''] = trimmed.split('.');
  return Number(whole) * 10 ** decimals + Number(fraction.padEnd(decimals, '0') || '0');
}

export function InvoiceDetailPane({ params }: PaneProps) {
  const invoiceId = params.invoiceId ?? '';
  const queryClient = useQueryClient();
  const invoice = useQuery(billingQueries.detail(invoiceId));
  const [confirmPaid, setConfirmPaid] = useState(false);
  const [creditOpen, setCreditOpen] = useState(false);
  const [reason, setReason] = useState('');
  const [amountText, setAmountText] = useState('');
  const [creditProblem, setCreditProblem] = useState<string | null>(null);
  const reasonField = useRef<HTMLTextAreaElement>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: billingQueries.all });
  const data = invoice.data;

  const download = useMutation({
    mutationFn: () => downloadInvoicePdf(internalPdfPath(invoiceId), data?.number ?? invoiceId),
  });
  const paid = useMutation({
    mutationFn: () => markInvoicePaid(invoiceId, data?.version ?? 0),
    onSuccess: async (answer) => {
      setConfirmPaid(false);
      await refresh();
      showToast({ kind: 'success', message: `Invoice ${answer.number} marked paid.` });
    },
    onError: () => setConfirmPaid(false),
  });
  const credit = useMutation({
    mutationFn: ({ text, amountMinor }: { text: string; amountMinor: number | null }) => issueCreditNote(invoiceId, text, amountMinor),
    onSuccess: async (note) => {
      setCreditOpen(false);
      setReason('');
      setAmountText('');
      await refresh();
      showToast({ kind: 'success', message: `Credit note ${note.number} issued for ${formatMinorUnits(-note.totalMinor, note.currency)}.` });
    },
  });

  const canPay = data !== undefined && data.kind === 'invoice' && (data.status === 'issued' || data.status === 'overdue');
  const canCredit = data !== undefined && data.kind === 'invoice' && data.creditableMinor > 0;
  const busy = confirmPaid || creditOpen;
  const handlers: PaneRequestHandlers = {};
  if (data && !busy) {
    handlers.downloadInvoice = () => download.mutate();
    if (canPay) handlers.markPaid = () => setConfirmPaid(true);
    if (canCredit) handlers.creditNote = () => setCreditOpen(true);
  }
  usePaneCapabilities(handlers);

  if (invoice.isPending) return <Skeleton lines={6} label="Loading the invoice" />;
  if (invoice.isError || !data)
    return (
      <p role="alert" className="invoice-pane">
        This invoice was not found.
      </p>
    );

  const submitCredit = () => {
    const text = reason.trim();
    if (!text) {
      setCreditProblem('Give the reason for the credit.');
      return;
    }
    const amountMinor = amountText.trim() === '' ? null : minorUnitsOf(amountText, data.currency);
    if (amountText.trim() !== '' && (amountMinor === null || amountMinor <= 0)) {
      setCreditProblem(`Enter an amount in ${data.currency}, such as 12.50.`);
      return;
    }
    if (amountMinor !== null && amountMinor > data.creditableMinor) {
      setCreditProblem(`At most ${formatMinorUnits(data.creditableMinor, data.currency)} is left to credit.`);
      return;
    }
    setCreditProblem(null);
    credit.mutate({ text, amountMinor });
  };
  const money = (minor: number) => formatMinorUnits(minor, data.currency);
  // Credit notes carry negative totals; what the business still owes is the total less them, nothing once paid.
  const credited = -data.creditNotes.reduce((sum, note) => sum + note.totalMinor, 0);
  const balanceDue = data.status === 'paid' ? 0 : Math.max(0, data.totalMinor - credited);
  return (
    <section className="invoice-pane" aria-labelledby="invoice-title">
      <header className="billing-header">
        <h1 id="invoice-title">{`${invoiceKindLabels[data.kind]} ${data.number}`}</h1>
        <div className="billing-actions">
          <button type="button" className="button" disabled={download.isPending} onClick={() => download.mutate()}>
            Download PDF
          </button>
          {data.kind === 'invoice' ? (
            <>
              <button type="button" className="button button-primary" disabled={!canPay || paid.isPending} onClick={() => setConfirmPaid(true)}>
                Mark paid
              </button>
              <button type="button" className="button" disabled={!canCredit} onClick={() => setCreditOpen(true)}>
                Issue credit note
              </button>
            </>
          ) : null}
        </div>
      </header>
      <dl className="billing-facts">
        <dt>Business</dt>
        <dd>
          <a href={`/business/${encodeURIComponent(data.businessId)}`}>{data.businessName}</a> ({data.businessId}),{' '}
          <a href={`/business/${encodeURIComponent(data.businessId)}/pricing-plan`}>pricing plan</a>
        </dd>
        <dt>Period</dt>
        <dd>{monthLabel(data.month)}</dd>
        <dt>Status</dt>
        <dd>
          <InvoiceStatusText status={data.status} />
          {data.paidUtc ? `, ${formatDateTime(data.paidUtc)}` : ''}
        </dd>
        <dt>Issued</dt>
        <dd>{formatDate(data.issuedUtc)}</dd>
        {data.kind === 'invoice' ? (
          <>
            <dt>Due</dt>
            <dd>{formatDate(data.dueUtc)}</dd>
          </>
        ) : null}
        {data.creditedInvoiceId ? (
          <>
            <dt>Credits</dt>
            <dd>
              <a href={invoicePath(data.creditedInvoiceId)}>{data.creditedInvoiceNumber ?? data.creditedInvoiceId}</a>
              {data.reason ? `: ${data.reason}` : ''}
            </dd>
          </>
        ) : null}
        <dt>Total</dt>
        <dd>{money(data.totalMinor)}</dd>
        {data.kind === 'invoice' ? (
          <>
            <dt>Balance due</dt>
            <dd data-testid="balance-due">{money(balanceDue)}</dd>
          </>
        ) : null}
      </dl>
      <table className="billing-table">
        <caption>Invoice lines</caption>
        <thead>
          <tr>
            <th scope="col">Merchant</th>
            <th scope="col">Payment method</th>
            <th scope="col">Description</th>
            <th scope="col" className="amount">
              Transactions
            </th>
            <th scope="col" className="amount">
              Volume
            </th>
            <th scope="col" className="amount">
              Amount
            </th>
          </tr>
        </thead>
        <tbody>
          {data.lines.map((line, index) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: invoice lines have no id; a line's place in the issued invoice is its identity
            <tr key={`${line.merchantId}-${line.paymentMethod ?? 'top-up'}-${index}`}>
              <th scope="row">{line.merchantName || '—'}</th>
              <td>{line.paymentMethod ? formatPaymentMethod(line.paymentMethod) : '—'}</td>
              <td>{line.description}</td>
              <td className="amount">{line.transactionCount || ''}</td>
              <td className="amount">{line.volumeMinor ? money(line.volumeMinor) : ''}</td>
              <td className="amount">{money(line.amountMinor)}</td>
            </tr>
          ))}
        </tbody>
        <tfoot>
          {data.kind === 'invoice' ? (
            <>
              <tr>
                <th scope="row" colSpan={5}>
                  Transaction fees
                </th>
                <td className="amount">{money(data.feesMinor)}</td>
              </tr>
              <tr>
                <th scope="row" colSpan={5}>
                  Minimum top-up
                </th>
                <td className="amount">{money(data.minimumTopUpMinor)}</td>
              </tr>
            </>
          ) : null}
          <tr>
            <th scope="row" colSpan={5}>
              VAT
            </th>
            <td className="amount">Exempt</td>
          </tr>
          <tr>
            <th scope="row" colSpan={5}>
              Total
            </th>
            <td className="amount">{money(data.totalMinor)}</td>
          </tr>
          {data.kind === 'invoice' && credited !== 0 ? (
            <tr>
              <th scope="row" colSpan={5}>
                Credited
              </th>
              <td className="amount">{money(-credited)}</td>
            </tr>
          ) : null}
          {data.kind === 'invoice' ? (
            <tr>
              <th scope="row" colSpan={5}>
                Balance due
              </th>
              <td className="amount">{money(balanceDue)}</td>
            </tr>
          ) : null}
        </tfoot>
      </table>
      {data.kind === 'invoice' ? (
        <>
          <h2>Credit notes</h2>
          {data.creditNotes.length === 0 ? (
            <p>No credit notes.</p>
          ) : (
            <ul>
              {data.creditNotes.map((note) => (
                <li key={note.invoiceId}>
                  <a href={invoicePath(note.invoiceId)}>{note.number}</a>, {formatDate(note.issuedUtc)}: {money(note.totalMinor)}
                </li>
              ))}
            </ul>
          )}
          <p className="billing-note">Left to credit: {money(data.creditableMinor)}</p>
        </>
      ) : null}
      <ConfirmDialog
        open={confirmPaid}
        tone="primary"
        title={`Mark ${data.number} paid?`}
        text={`${money(data.totalMinor)} from ${data.businessName} was received.`}
        confirmLabel="Mark paid"
        cancelLabel="Cancel"
        onConfirm={() => paid.mutate()}
        onCancel={() => setConfirmPaid(false)}
      />
      <Modal
        open={creditOpen}
        title={`Issue a credit note for ${data.number}`}
        onClose={() => setCreditOpen(false)}
        closeActionLabel="Cancel"
        initialFocus={reasonField}
        footer={
          <button type="submit" form="credit-note-form" className="button button-primary" disabled={credit.isPending}>
            Issue credit note
          </button>
        }
      >
        <form
          id="credit-note-form"
          className="billing-form"
          onSubmit={(event) => {
            event.preventDefault();
            submitCredit();
          }}
        >
          <label>
            Reason
            <textarea ref={reasonField} value={reason} maxLength={500} rows={3} onChange={(event) => setReason(event.target.value)} />
          </label>
          <label>
            {`Amount in ${data.currency} (empty: all ${formatMinorUnits(data.creditableMinor, data.currency)} left)`}
            <input type="text" inputMode="decimal" value={amountText} onChange={(event) => setAmountText(event.target.value)} />
          </label>
          {creditProblem ? (
            <p role="alert" className="billing-problem">
              {creditProblem}
            </p>
          ) : null}
        </form>
      </Modal>
    </section>
  );
}
