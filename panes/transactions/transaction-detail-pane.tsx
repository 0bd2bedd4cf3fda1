// One transaction: amount and status, where it came from (merchant, channel, payment method, masked card), its
// payment job and the transactions linked to it (the payment a refund belongs to, its captures and refunds).
// The full card number shows only to those allowed, on request, and the reveal is recorded in the audit log.
// A payment is refunded where it is shown: 'Refund…' (Shift+R, the payment job's refund command) opens the payment
// job's own refund dialog for this payment, offered only when the server says the caller may refund it here and
// something is left to refund; the refund goes through the payment job's refund endpoint like any other.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { isApiError } from '../../src/api/api-error.ts';
import { formatDateTime, formatShortDateTime } from '../../src/format/dates.ts';
import { formatMoney } from '../../src/format/money.ts';
import { formatPaymentMethod } from '../../src/format/payment-method.ts';
import { type PaneProps, type PaneRequestHandlers, usePaneCapabilities } from '../../src/state/pane-scope.tsx';
import { showToast } from '../../src/state/toast-store.ts';
import { RefundDialog } from '../payment-jobs/payment-action-dialogs.tsx';
import { invalidateAfterPaymentAction, newIdempotencyKey, paymentJobQueries, sendPaymentAction } from '../payment-jobs/payment-job-queries.ts';
import { Skeleton } from '../../src/ui/skeleton.tsx';
import { displayStatusOf, takesMoneyBack } from '../../src/contract/transactions.ts';
import { formatSignedMoney, KindBadge, kindLabel, StatusChip } from './transaction-columns.tsx';
import { useStepUp } from '../step-up/step-up.tsx';
import { revealCardNumber, transactionQueries } from './transaction-queries.ts';
import '../../src/ui/data-table/data-table.css';
import './transactions.css';

const relationLabels = { parent: 'Original payment', child: 'Follow-up', sibling: 'Related' } as const;

export function TransactionDetailPane({ params }: PaneProps) {
  const reference = params.transactionReference ?? '';
  const detail = useQuery(transactionQueries.detail(reference));
  const [cardNumber, setCardNumber] = useState<string | null>(null);
  // Revealing needs a recent step-up: the dialog asks for the password and the reveal is made again.
  const stepUp = useStepUp();
  const reveal = useMutation({ mutationFn: () => stepUp.run(() => revealCardNumber(reference)), onSuccess: setCardNumber });
  const ids = { title: useId(), card: useId(), job: useId(), linked: useId() };

  // The refund: the payment as its job shows it (what the dialog needs), read where the payment lives.
  const queryClient = useQueryClient();
  const [refundKey, setRefundKey] = useState<string | null>(null);
  const offered = detail.data?.refundable !== undefined && detail.data.paymentJob !== null ? detail.data : null;
  const jobPrefix = offered ? `/businesses/${encodeURIComponent(offered.businessId)}/merchants/${encodeURIComponent(offered.merchantId)}` : '';
  const refundJob = useQuery({ ...paymentJobQueries.detail(jobPrefix, offered?.paymentJob?.reference ?? ''), enabled: offered !== null });
  const refundPayment = offered
    ? (refundJob.data?.payments.find((payment) => payment.paymentId === offered.reference && payment.actions.refund) ?? null)
    : null;
  const openRefund = () => setRefundKey(newIdempotencyKey());
  const handlers: PaneRequestHandlers = {};
  if (refundPayment && refundKey === null) handlers.refund = openRefund;
  usePaneCapabilities(handlers);

  if (detail.isPending)
    return (
      <div className="transaction-detail">
        <Skeleton lines={6} label="Loading the transaction" />
      </div>
    );
  if (detail.isError) {
    const notFound = isApiError(detail.error) && detail.error.status === 404;
    return (
      <div className="transaction-detail">
        <h1>Transaction {reference}</h1>
        <p role="alert">{notFound ? 'The requested record was not found.' : 'The transaction could not be loaded.'}</p>
      </div>
    );
  }
  const transaction = detail.data;
  const job = transaction.paymentJob;
  const method = transaction.paymentMethods[0];
  const entries: [string, string | null][] = [
    ['Date', formatDateTime(transaction.date)],
    ['Type', kindLabel(transaction.kind)],
    ['Merchant', `${transaction.merchantName} (${transaction.merchantId})`],
    ['Business', `${transaction.businessName} (${transaction.businessId})`],
    ['Channel', transaction.channel],
    ['Payment method', method ? formatPaymentMethod(method.paymentMethod) : formatPaymentMethod(transaction.paymentMethod)],
    ['E-wallet', transaction.ewalletType ? formatPaymentMethod(transaction.ewalletType) : null],
    ['Customer email', transaction.customerEmail],
    ['Originating IP address', transaction.originatingIpAddress],
    ['Decline reason', transaction.declineReason],
    ['Configuration', transaction.configurationId],
  ];

  return (
    <article className="transaction-detail" aria-labelledby={ids.title}>
      <header className="transaction-detail-title">
        <h1 id={ids.title}>
          {transaction.kind === 'refund' ? 'Refund' : transaction.kind === 'chargeback' ? 'Chargeback' : 'Transaction'} {transaction.reference}
        </h1>
        {takesMoneyBack(transaction.kind) ? <KindBadge kind={transaction.kind} /> : null}
        <StatusChip status={displayStatusOf(transaction)} />
      </header>
      <p className={`transaction-detail-amount${takesMoneyBack(transaction.kind) ? ' amount-negative' : ''}`}>{formatSignedMoney(transaction)}</p>
      {transaction.kind === 'payment' && transaction.refundedAmount ? (
        <p className="transaction-detail-refunded">
          Refunded {formatMoney(transaction.refundedAmount, transaction.currency)} of {formatMoney(transaction.amount, transaction.currency)}
        </p>
      ) : null}
      <dl className="detail-grid">
        {entries
          .filter(([, value]) => value !== null && value !== '')
          .map(([term, value]) => (
            <div key={term}>
              <dt>{term}</dt>
              <dd>{value}</dd>
            </div>
          ))}
      </dl>

      <section className="detail-section" aria-labelledby={ids.card}>
        <h2 id={ids.card}>Card</h2>
        {transaction.maskedCardNumber ? (
          <div className="card-number">
            <span className="card-number-value" role="group" aria-label="Card number">
              {cardNumber ?? transaction.maskedCardNumber}
            </span>
            {transaction.cardNumberRevealable ? (
              cardNumber ? (
                <button type="button" className="button" onClick={() => setCardNumber(null)}>
                  Hide card number
                </button>
              ) : (
                <button type="button" className="button" disabled={reveal.isPending} onClick={() => reveal.mutate()}>
                  Reveal card number
                </button>
              )
            ) : null}
            {transaction.cardNumberRevealable ? (
              <span className="date-range-hint">Revealing the card number asks for your password and is recorded in the audit log.</span>
            ) : null}
          </div>
        ) : (
          <p>No card was used.</p>
        )}
        {stepUp.dialog}
      </section>

      {job ? (
        <section className="detail-section" aria-labelledby={ids.job}>
          <h2 id={ids.job}>Payment job</h2>
          <dl className="detail-grid">
            <div>
              <dt>Reference</dt>
              <dd>
                <a href={`/configurations/${encodeURIComponent(job.configurationId)}/payments/${encodeURIComponent(job.reference)}`}>{job.reference}</a>
              </dd>
            </div>
            <div>
              <dt>Order number</dt>
              <dd>{job.orderNumber}</dd>
            </div>
            <div>
              <dt>Created</dt>
              <dd>{formatDateTime(job.createDateTimeUtc)}</dd>
            </div>
            <div>
              <dt>Amount</dt>
              <dd>{formatMoney(job.amount, job.currency)}</dd>
            </div>
            <div>
              <dt>Status</dt>
              <dd>
                <StatusChip status={job.status} />
              </dd>
            </div>
          </dl>
        </section>
      ) : null}

      {/* support: a dispute or question about this payment, linked to it */}
      <p className="transaction-detail-actions">
        {refundPayment ? (
          <button type="button" className="button" aria-keyshortcuts="Shift+R" onClick={openRefund}>
            Refund…
          </button>
        ) : null}
        <a
          className="button"
          href={`/tickets/add?${new URLSearchParams({ type: 'dispute', transaction: transaction.reference, business: transaction.businessId, merchant: transaction.merchantId }).toString()}`}
        >
          Open a ticket about this
        </a>
      </p>

      {refundPayment && refundKey !== null && refundJob.data ? (
        <RefundDialog
          open
          payment={refundPayment}
          onClose={() => setRefundKey(null)}
          onSubmit={async (body) => {
            const answer = await sendPaymentAction(
              jobPrefix,
              refundJob.data.reference,
              { kind: 'refund', paymentId: refundPayment.paymentId, body: { ...body, version: refundJob.data.version } },
              refundKey,
            );
            await invalidateAfterPaymentAction(queryClient);
            showToast({ kind: 'success', message: answer.message || 'Refund requested.' });
          }}
        />
      ) : null}

      <section className="detail-section" aria-labelledby={ids.linked}>
        <h2 id={ids.linked}>Linked transactions</h2>
        {transaction.linkedTransactions.length === 0 ? (
          <p>No linked transactions.</p>
        ) : (
          <table className="detail-table" aria-labelledby={ids.linked}>
            <thead>
              <tr>
                <th scope="col">Reference</th>
                <th scope="col">Relation</th>
                <th scope="col">Type</th>
                <th scope="col">Date</th>
                <th scope="col" className="end">
                  Amount
                </th>
                <th scope="col">Status</th>
              </tr>
            </thead>
            <tbody>
              {transaction.linkedTransactions.map((linked) => (
                <tr key={linked.reference}>
                  <th scope="row">
                    <a className="data-table-link" href={`/transactions/${encodeURIComponent(linked.reference)}`}>
                      {linked.reference}
                    </a>
                  </th>
                  <td>{relationLabels[linked.relation]}</td>
                  <td>
                    <KindBadge kind={linked.kind} />
                  </td>
                  <td>{formatShortDateTime(linked.date)}</td>
                  <td className="end">{formatSignedMoney(linked)}</td>
                  <td>
                    <StatusChip status={linked.status} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
    </article>
  );
}
