// One payment job: header with status, amounts and customer; tabs for the overview, payments (steps, captures,
// refunds with their steps, acquiring attributes, originating IP), the order (lines with VAT totals, addresses),
// invoices and reversals, split outpayments and the activity (audit events). The actions are registry commands
// (commands/payment-jobs/): the pane declares each only while the job allows it and the user holds the permission,
// and opens the dialog when asked; the buttons here ask the same way.
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo, useRef, useState } from 'react';
import { useSnapshot } from 'valtio';
import { useLocation } from 'wouter';
import type { ContextSelections } from '../../src/contract/context.ts';
import { refundReasonLabels, type RefundReason } from '../../src/contract/payment-jobs.ts';
import type { PaymentDetail, PaymentJobDetail } from '../../src/contract/payment-job-schemas.ts';
import { isApiError } from '../../src/api/api-error.ts';
import { formatMoney } from '../../src/format/money.ts';
import { formatPaymentMethod } from '../../src/format/payment-method.ts';
import { contextPath, contextStore } from '../../src/state/context-store.ts';
import { type PaneProps, type PaneRequestHandlers, usePaneCapabilities } from '../../src/state/pane-scope.tsx';
import { permissionScope, sessionStore } from '../../src/state/session-store.ts';
import { showToast } from '../../src/state/toast-store.ts';
import { Skeleton } from '../../src/ui/skeleton.tsx';
import { Tabs } from '../../src/ui/tabs.tsx';
import { ConfirmDialog } from '../../src/ui/confirm-dialog.tsx';
import { CancelJobDialog, CaptureDialog, MailPaymentLinkDialog, RefundDialog, VoidDialog } from './payment-action-dialogs.tsx';
import { formatShortDateTime } from '../../src/format/dates.ts';
import { AddressBlock, StatusChip, statusLabel } from './payment-job-format.tsx';
import { auditEventLabel, statusLabelOf } from '../../src/contract/payment-job-labels.ts';
import { currencyExponent } from '../../src/contract/transactions.ts';
import { KindBadge } from '../transactions/transaction-columns.tsx';
import { invalidateAfterPaymentAction, newIdempotencyKey, paymentJobQueries, sendPaymentAction, type PaymentAction } from './payment-job-queries.ts';
import '../../src/ui/data-table/data-table.css';
import './payment-jobs.css';

/** Major amounts added in minor units, so 0.1 + 0.2 is 0.3. */
const sumOf = (amounts: readonly number[], currency: string) => {
  const scale = 10 ** currencyExponent(currency);
  return amounts.reduce((sum, amount) => sum + Math.round(amount * scale), 0) / scale;
};

type DialogKind = 'capture' | 'refund' | 'void' | 'cancelJob' | 'mailPaymentLink' | 'expireLink';
type OpenDialog = { kind: DialogKind; paymentId: string | null; idempotencyKey: string } | null;

const tabDefinitions = [
  { id: 'overview', label: 'Overview' },
  { id: 'payments', label: 'Payments' },
  { id: 'order', label: 'Order' },
  { id: 'invoices', label: 'Invoices and reversals' },
  { id: 'split', label: 'Split outpayments' },
  { id: 'activity', label: 'Activity' },
] as const;

/** Which actions the job allows and the user may take: the pane offers these (and only these) to the commands. */
export function availableActions(job: PaymentJobDetail, permissions: readonly string[]) {
  const has = (permission: string) => permissions.includes(permission);
  const first = (test: (payment: PaymentDetail) => boolean) => job.payments.find(test) ?? null;
  return {
    capture: has('Portal.Payments.Capture') ? first((payment) => payment.actions.capture) : null,
    refund: has('Portal.Payments.Refund') ? first((payment) => payment.actions.refund) : null,
    void: has('Portal.Payments.Void') ? first((payment) => payment.actions.void) : null,
    cancelJob: has('Portal.PaymentJobs.Cancel') && job.actions.cancel,
    expireLink: has('Portal.PaymentJobs.Cancel') && job.actions.expireLink,
    mailPaymentLink: has('Portal.PaymentJobs.MailPaymentLink') && job.actions.mailPaymentLink ? (job.payments[job.payments.length - 1] ?? null) : null,
    trace: has('Portal.Traces.Read') ? (job.payments[job.payments.length - 1] ?? null) : null,
  };
}

export function PaymentJobDetailPane({ params }: PaneProps) {
  const reference = params.paymentJobReference ?? '';
  const configurationId = params.configurationId ?? '';
  const { applied } = useSnapshot(contextStore);
  const { permissions: permissionsByScope } = useSnapshot(sessionStore);
  const contextPrefix = contextPath(applied as ContextSelections) ?? '';
  const permissions = permissionsByScope[permissionScope(applied as ContextSelections).key] ?? [];
  const queryClient = useQueryClient();
  const [, navigate] = useLocation();
  const detail = useQuery({ ...paymentJobQueries.detail(contextPrefix, reference), enabled: contextPrefix !== '' });
  const activity = useQuery({ ...paymentJobQueries.activity(contextPrefix, reference), enabled: contextPrefix !== '' });
  const [tab, setTab] = useState(0);
  const [dialog, setDialog] = useState<OpenDialog>(null);
  const actionsRef = useRef<HTMLDivElement>(null);
  const job = detail.data;
  const actions = useMemo(() => (job ? availableActions(job, permissions) : null), [job, permissions]);

  const open = (kind: DialogKind, paymentId: string | null) => setDialog({ kind, paymentId, idempotencyKey: newIdempotencyKey() });
  const tracePath = (paymentId: string) =>
    `/configurations/${encodeURIComponent(configurationId)}/payments/${encodeURIComponent(reference)}/trace/${encodeURIComponent(`TR${paymentId.replace(/^TX/, '')}`)}`;

  const handlers: PaneRequestHandlers = { tabs: (index) => setTab(Math.min(Math.max(index ?? 0, 0), tabDefinitions.length - 1)) };
  if (actions && !dialog) {
    if (actions.capture) handlers.capture = () => open('capture', actions.capture?.paymentId ?? null);
    if (actions.refund) handlers.refund = () => open('refund', actions.refund?.paymentId ?? null);
    if (actions.void) handlers.void = () => open('void', actions.void?.paymentId ?? null);
    if (actions.cancelJob) handlers.cancelJob = () => open('cancelJob', null);
    if (actions.expireLink) handlers.expireLink = () => open('expireLink', null);
    if (actions.mailPaymentLink) handlers.mailPaymentLink = () => open('mailPaymentLink', actions.mailPaymentLink?.paymentId ?? null);
    if (actions.trace)
      handlers.viewTrace = () => {
        if (actions.trace) navigate(tracePath(actions.trace.paymentId));
      };
  }
  usePaneCapabilities(handlers);

  if (contextPrefix === '')
    return (
      <div className="payment-job-detail">
        <h1>Payment job {reference}</h1>
        <p role="alert">Choose a business or merchant first.</p>
      </div>
    );
  if (detail.isPending)
    return (
      <div className="payment-job-detail">
        <Skeleton lines={8} label="Loading the payment job" />
      </div>
    );
  if (detail.isError || !job || !actions) {
    const notFound = isApiError(detail.error) && detail.error.status === 404;
    return (
      <div className="payment-job-detail">
        <h1>Payment job {reference}</h1>
        <p role="alert">{notFound ? 'The requested record was not found.' : 'The payment job could not be loaded.'}</p>
      </div>
    );
  }

  const send = async (action: PaymentAction, success: string) => {
    if (!dialog) return;
    const answer = await sendPaymentAction(contextPrefix, reference, action, dialog.idempotencyKey);
    await invalidateAfterPaymentAction(queryClient);
    showToast({ kind: 'success', message: answer.message || success });
  };
  const dialogPayment = job.payments.find((payment) => payment.paymentId === dialog?.paymentId) ?? null;
  const money = (amount: number) => formatMoney(amount, job.currency);
  // What can still be done with the money: an authorisation not captured yet can be captured (a reserved job holds
  // its whole amount there), a captured amount less refunds and chargebacks can be refunded.
  const capturable = sumOf(
    job.payments.map((payment) => payment.capturable),
    job.currency,
  );
  const refundable = sumOf(
    job.payments.map((payment) => payment.refundable),
    job.currency,
  );
  const paymentChargebacks = (paymentId: string) => job.reversals.filter((reversal) => reversal.paymentId === paymentId);

  const overview = (
    <dl className="detail-grid">
      {(
        [
          ['Order number', job.orderNumber],
          ['Created', formatShortDateTime(job.createDateTimeUtc)],
          ['Expires', job.expirationDateTimeUtc ? formatShortDateTime(job.expirationDateTimeUtc) : null],
          ['Paid', job.paidDateTimeUtc ? formatShortDateTime(job.paidDateTimeUtc) : null],
          ['Amount', money(job.amount)],
          ['Payment method', job.paymentMethod ? formatPaymentMethod(job.paymentMethod) : null],
          ['Customer', job.customer],
          ['Email', job.emailAddress],
          ['Phone', job.phoneNumber],
          ['Merchant', `${job.merchantName} (${job.merchantId})`],
          ['Business', `${job.businessName} (${job.businessId})`],
          ['Configuration', job.configurationId],
        ] as [string, string | null][]
      )
        .filter(([, value]) => value)
        .map(([term, value]) => (
          <div key={term}>
            <dt>{term}</dt>
            <dd>{value}</dd>
          </div>
        ))}
    </dl>
  );

  const payments = (
    <div className="detail-section">
      {job.payments.length === 0 ? (
        <p>No payment has been attempted yet.</p>
      ) : (
        job.payments.map((payment) => (
          <section key={payment.paymentId} className="payment-card" aria-label={`Payment ${payment.paymentId}`}>
            <h3>
              <a className="data-table-link" href={`/transactions/${encodeURIComponent(payment.paymentId)}`}>
                Payment {payment.paymentId}
              </a>
              <StatusChip status={payment.status} />
              <span>
                {formatPaymentMethod(payment.paymentMethod)}
                {payment.maskedCardNumber ? ` · ${payment.maskedCardNumber}` : ''}
              </span>
            </h3>
            <dl className="detail-grid">
              {(
                [
                  ['Amount', money(payment.amount)],
                  ['Authorised', money(payment.authorised)],
                  ['Captured', money(payment.captured)],
                  ['Refunded', money(payment.refunded)],
                  ['Charged back', payment.chargedBack > 0 ? money(-payment.chargedBack) : null],
                  ['Refunds in progress', payment.refundPending > 0 ? money(payment.refundPending) : null],
                  ['Still refundable', money(payment.refundable)],
                  ['Originating IP address', payment.originatingIpAddress],
                  ['Decline reason', payment.declineReason],
                  ['Created', formatShortDateTime(payment.createDateTimeUtc)],
                ] as [string, string | null][]
              )
                .filter(([, value]) => value)
                .map(([term, value]) => (
                  <div key={term}>
                    <dt>{term}</dt>
                    <dd>{value}</dd>
                  </div>
                ))}
            </dl>
            <h4>Steps</h4>
            <ol className="step-list">
              {payment.steps.map((step, index) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: a payment's steps have no id and show only in the server's order (a step may recur)
                <li key={`${step.step}-${index}`}>
                  <time dateTime={step.dateTimeUtc}>{formatShortDateTime(step.dateTimeUtc)}</time>
                  <span>{statusLabel(step.step)}</span>
                  {step.amount !== null && step.amount !== undefined ? <span>{money(step.amount)}</span> : null}
                  {step.detail ? <span>{step.detail}</span> : null}
                </li>
              ))}
            </ol>
            {payment.captures.length > 0 ? (
              <table className="detail-table">
                <caption className="visually-hidden">Captures of {payment.paymentId}</caption>
                <thead>
                  <tr>
                    <th scope="col">Capture</th>
                    <th scope="col">Date</th>
                    <th scope="col" className="end">
                      Amount
                    </th>
                    <th scope="col">Status</th>
                  </tr>
                </thead>
                <tbody>
                  {payment.captures.map((capture) => (
                    <tr key={capture.captureId}>
                      <th scope="row">
                        <a className="data-table-link" href={`/transactions/${encodeURIComponent(capture.captureId)}`}>
                          {capture.captureId}
                        </a>
                      </th>
                      <td>{formatShortDateTime(capture.createDateTimeUtc)}</td>
                      <td className="end">{money(capture.amount)}</td>
                      <td>
                        <StatusChip kind="capture" status={capture.status} />
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            ) : null}
            {paymentChargebacks(payment.paymentId).length > 0 ? (
              <table className="detail-table">
                <caption className="visually-hidden">Chargebacks of {payment.paymentId}</caption>
                <thead>
                  <tr>
                    <th scope="col">Chargeback</th>
                    <th scope="col">Date</th>
                    <th scope="col" className="end">
                      Amount
                    </th>
                    <th scope="col">Reason</th>
                    <th scope="col">Status</th>
                  </tr>
                </thead>
                <tbody>
                  {paymentChargebacks(payment.paymentId).map((chargeback) => (
                    <tr key={chargeback.reversalId}>
                      <th scope="row">
                        <a className="data-table-link" href={`/transactions/${encodeURIComponent(chargeback.reversalId)}`}>
                          {chargeback.reversalId}
                        </a>{' '}
                        <KindBadge kind="chargeback" />
                      </th>
                      <td>{formatShortDateTime(chargeback.dateTimeUtc)}</td>
                      <td className="end amount-negative">{money(chargeback.amount)}</td>
                      <td>{chargeback.reason}</td>
                      <td>
                        <StatusChip kind="chargeback" status={chargeback.status} />
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            ) : null}
            {payment.refunds.length > 0 ? (
              <table className="detail-table">
                <caption className="visually-hidden">Refunds of {payment.paymentId}</caption>
                <thead>
                  <tr>
                    <th scope="col">Refund</th>
                    <th scope="col">Date</th>
                    <th scope="col" className="end">
                      Amount
                    </th>
                    <th scope="col">Reason</th>
                    <th scope="col">Status and steps</th>
                    <th scope="col">Action</th>
                  </tr>
                </thead>
                <tbody>
                  {payment.refunds.map((refund) => (
                    <tr key={refund.refundId}>
                      <th scope="row">
                        <a className="data-table-link" href={`/transactions/${encodeURIComponent(refund.refundId)}`}>
                          {refund.refundId}
                        </a>
                      </th>
                      <td>{formatShortDateTime(refund.createDateTimeUtc)}</td>
                      <td className="end">{money(refund.amount)}</td>
                      <td>
                        {refundReasonLabels[refund.reason as RefundReason] ?? refund.reason}
                        {refund.note ? ` · ${refund.note}` : ''}
                      </td>
                      <td>
                        <StatusChip kind="refund" status={refund.status} />{' '}
                        <span className="field-hint">
                          {refund.steps.map((step) => `${statusLabelOf('refund', step.step)} ${formatShortDateTime(step.dateTimeUtc)}`).join(' → ')}
                        </span>
                      </td>
                      <td>
                        {refund.cancellable && permissions.includes('Portal.Payments.Refund') ? (
                          <button
                            type="button"
                            className="button"
                            onClick={() => {
                              void sendPaymentAction(
                                contextPrefix,
                                reference,
                                { kind: 'cancelRefund', paymentId: payment.paymentId, refundId: refund.refundId, body: { version: job.version } },
                                newIdempotencyKey(),
                              )
                                .then(async (answer) => {
                                  await invalidateAfterPaymentAction(queryClient);
                                  showToast({ kind: 'success', message: answer.message });
                                })
                                .catch((error: unknown) => {
                                  if (isApiError(error) && !error.handled)
                                    showToast({ kind: 'danger', message: error.messages.join(' ') || 'The refund could not be cancelled.' });
                                });
                            }}
                          >
                            Cancel refund
                          </button>
                        ) : null}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            ) : null}
            <details>
              <summary>Acquiring details</summary>
              <pre className="json-view">{JSON.stringify(payment.attributes, null, 2)}</pre>
            </details>
            {permissions.includes('Portal.Traces.Read') ? (
              <a className="data-table-link" href={tracePath(payment.paymentId)}>
                View trace {payment.traceReference}
              </a>
            ) : null}
          </section>
        ))
      )}
    </div>
  );

  const order = (
    <div className="detail-section">
      <table className="detail-table">
        <caption className="visually-hidden">Order lines</caption>
        <thead>
          <tr>
            <th scope="col">Description</th>
            <th scope="col">Type</th>
            <th scope="col" className="end">
              Quantity
            </th>
            <th scope="col" className="end">
              Unit excl. VAT
            </th>
            <th scope="col" className="end">
              Unit incl. VAT
            </th>
            <th scope="col" className="end">
              VAT rate
            </th>
            <th scope="col" className="end">
              VAT
            </th>
            <th scope="col" className="end">
              Total incl. VAT
            </th>
          </tr>
        </thead>
        <tbody>
          {job.order.orderLines.map((line, index) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: order lines have no id; a line's place in the order is its identity
            <tr key={`${line.description}-${index}`}>
              <th scope="row">{line.description}</th>
              <td>{line.type}</td>
              <td className="end">{line.quantity}</td>
              <td className="end">{money(line.unitPriceExclVat)}</td>
              <td className="end">{money(line.unitPriceInclVat)}</td>
              <td className="end">{line.vatPercentage}%</td>
              <td className="end">{money(line.totalVat)}</td>
              <td className="end">{money(line.totalInclVat)}</td>
            </tr>
          ))}
        </tbody>
        <tfoot>
          <tr>
            <th scope="row" colSpan={6}>
              Total (excl. VAT {money(job.order.totals.exclVat)})
            </th>
            <td className="end">{money(job.order.totals.vat)}</td>
            <td className="end">{money(job.order.totals.inclVat)}</td>
          </tr>
        </tfoot>
      </table>
      <dl className="detail-grid">
        <div>
          <dt>Billing email</dt>
          <dd>{job.order.billingIdentity.emailAddress ?? '—'}</dd>
        </div>
        <div>
          <dt>Date of birth</dt>
          <dd>{job.order.billingIdentity.dateOfBirth ?? '—'}</dd>
        </div>
        <div>
          <dt>Billing address</dt>
          <dd>
            <AddressBlock address={job.order.billingAddress} />
          </dd>
        </div>
        <div>
          <dt>Shipping address</dt>
          <dd>
            <AddressBlock address={job.order.shippingAddress} />
          </dd>
        </div>
      </dl>
    </div>
  );

  const invoices = (
    <div className="detail-section">
      <h2>Invoices</h2>
      {job.invoices.length === 0 ? (
        <p>No invoices.</p>
      ) : (
        <table className="detail-table">
          <caption className="visually-hidden">Invoices</caption>
          <thead>
            <tr>
              <th scope="col">Invoice</th>
              <th scope="col">Issued</th>
              <th scope="col">Due</th>
              <th scope="col" className="end">
                Amount
              </th>
              <th scope="col">Status</th>
            </tr>
          </thead>
          <tbody>
            {job.invoices.map((invoice) => (
              <tr key={invoice.invoiceNumber}>
                <th scope="row">{invoice.invoiceNumber}</th>
                <td>{formatShortDateTime(invoice.issueDateTimeUtc)}</td>
                <td>{formatShortDateTime(invoice.dueDateTimeUtc)}</td>
                <td className="end">{money(invoice.amount)}</td>
                <td>
                  <StatusChip kind="invoice" status={invoice.status} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <h2>Reversals</h2>
      {job.reversals.length === 0 ? (
        <p>No reversals (chargebacks).</p>
      ) : (
        <table className="detail-table">
          <caption className="visually-hidden">Reversals</caption>
          <thead>
            <tr>
              <th scope="col">Reversal</th>
              <th scope="col">Payment</th>
              <th scope="col">Date</th>
              <th scope="col" className="end">
                Amount
              </th>
              <th scope="col">Reason</th>
              <th scope="col">Status</th>
            </tr>
          </thead>
          <tbody>
            {job.reversals.map((reversal) => (
              <tr key={reversal.reversalId}>
                <th scope="row">
                  <a className="data-table-link" href={`/transactions/${encodeURIComponent(reversal.reversalId)}`}>
                    {reversal.reversalId}
                  </a>{' '}
                  <KindBadge kind="chargeback" />
                </th>
                <td>{reversal.paymentId}</td>
                <td>{formatShortDateTime(reversal.dateTimeUtc)}</td>
                <td className="end amount-negative">{money(reversal.amount)}</td>
                <td>{reversal.reason}</td>
                <td>
                  <StatusChip kind="chargeback" status={reversal.status} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );

  const split = job.splitOutpayment ? (
    <div className="detail-section">
      <p>Split created {formatShortDateTime(job.splitOutpayment.createDateTimeUtc)}.</p>
      <table className="detail-table">
        <caption className="visually-hidden">Outpayments</caption>
        <thead>
          <tr>
            <th scope="col">Beneficiary</th>
            <th scope="col">Customer ID</th>
            <th scope="col">IBAN</th>
            <th scope="col">BIC</th>
            <th scope="col" className="end">
              Amount
            </th>
            <th scope="col">Scheduled</th>
            <th scope="col">Paid out</th>
          </tr>
        </thead>
        <tbody>
          {job.splitOutpayment.outpayments.map((outpayment) => (
            <tr key={`${outpayment.beneficiary.iban}-${outpayment.amount}`}>
              <th scope="row">{outpayment.beneficiary.nameOnBankAccount}</th>
              <td>{outpayment.beneficiary.customerId}</td>
              <td>{outpayment.beneficiary.iban}</td>
              <td>{outpayment.beneficiary.bic}</td>
              <td className="end">{money(outpayment.amount)}</td>
              <td>{formatShortDateTime(outpayment.scheduledDateTimeUtc)}</td>
              <td>{outpayment.outPaidDateTimeUtc ? formatShortDateTime(outpayment.outPaidDateTimeUtc) : 'Not yet'}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  ) : (
    <p>This payment job has no split outpayments.</p>
  );

  const activityView = activity.isPending ? (
    <Skeleton lines={3} label="Loading the activity" />
  ) : activity.isError ? (
    <p role="alert">The activity could not be loaded.</p>
  ) : activity.data.data.length === 0 ? (
    <p>No actions have been taken on this job.</p>
  ) : (
    <table className="detail-table">
      <caption className="visually-hidden">Activity</caption>
      <thead>
        <tr>
          <th scope="col">When</th>
          <th scope="col">Event</th>
          <th scope="col">User</th>
          <th scope="col">Details</th>
        </tr>
      </thead>
      <tbody>
        {activity.data.data.map((event) => (
          <tr key={event.id}>
            <td>{formatShortDateTime(event.dateTimeUtc)}</td>
            <th scope="row">{auditEventLabel(event.event, event.metaData)}</th>
            <td>{event.userEmail ?? event.userId}</td>
            <td>
              {[
                event.metaData.amount !== undefined ? formatMoney(Number(event.metaData.amount), String(event.metaData.currency ?? job.currency)) : null,
                typeof event.metaData.reason === 'string' ? (refundReasonLabels[event.metaData.reason as RefundReason] ?? event.metaData.reason) : null,
                typeof event.metaData.message === 'string' ? event.metaData.message : null,
              ]
                .filter(Boolean)
                .join(' · ')}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );

  return (
    <article className="payment-job-detail" aria-labelledby="payment-job-title">
      <header className="payment-job-title">
        <h1 id="payment-job-title">Payment job {job.reference}</h1>
        <StatusChip status={job.status} />
        <span>{job.customer ?? job.emailAddress ?? ''}</span>
      </header>
      <dl className="payment-job-amounts" aria-label="Amounts">
        <div>
          <dt>Authorised</dt>
          <dd>{money(job.amounts.authorised)}</dd>
        </div>
        <div>
          <dt>Captured</dt>
          <dd>{money(job.amounts.captured)}</dd>
        </div>
        <div>
          <dt>Refunded</dt>
          <dd>{money(job.amounts.refunded)}</dd>
        </div>
        {job.amounts.chargedBack > 0 ? (
          <div>
            <dt>Charged back</dt>
            <dd className="amount-negative">{money(-job.amounts.chargedBack)}</dd>
          </div>
        ) : null}
        {capturable > 0 ? (
          <div>
            <dt>Can still be captured</dt>
            <dd>{money(capturable)}</dd>
          </div>
        ) : null}
        <div>
          <dt>Can still be refunded</dt>
          <dd>{money(refundable)}</dd>
        </div>
      </dl>
      <div ref={actionsRef} className="payment-job-actions" role="group" aria-label="Actions">
        {actions.capture ? (
          <button type="button" className="button" onClick={() => open('capture', actions.capture?.paymentId ?? null)}>
            Capture…
          </button>
        ) : null}
        {actions.refund ? (
          <button type="button" className="button" onClick={() => open('refund', actions.refund?.paymentId ?? null)}>
            Refund…
          </button>
        ) : null}
        {actions.void ? (
          <button type="button" className="button" onClick={() => open('void', actions.void?.paymentId ?? null)}>
            Void authorisation
          </button>
        ) : null}
        {actions.cancelJob ? (
          <button type="button" className="button" onClick={() => open('cancelJob', null)}>
            Cancel payment job…
          </button>
        ) : null}
        {actions.expireLink ? (
          <button type="button" className="button" onClick={() => open('expireLink', null)}>
            Expire link now…
          </button>
        ) : null}
        {actions.mailPaymentLink ? (
          <button type="button" className="button" onClick={() => open('mailPaymentLink', actions.mailPaymentLink?.paymentId ?? null)}>
            Mail payment link…
          </button>
        ) : null}
      </div>
      <Tabs
        label="Payment job"
        tabs={tabDefinitions}
        activeIndex={tab}
        onActiveIndexChange={setTab}
        contents={[overview, payments, order, invoices, split, activityView]}
      />

      {dialogPayment && dialog?.kind === 'refund' ? (
        <RefundDialog
          open
          payment={dialogPayment}
          onClose={() => setDialog(null)}
          onSubmit={(body) => send({ kind: 'refund', paymentId: dialogPayment.paymentId, body: { ...body, version: job.version } }, 'Refund requested.')}
        />
      ) : null}
      {dialogPayment && dialog?.kind === 'capture' ? (
        <CaptureDialog
          open
          payment={dialogPayment}
          onClose={() => setDialog(null)}
          onSubmit={(body) => send({ kind: 'capture', paymentId: dialogPayment.paymentId, body: { ...body, version: job.version } }, 'Captured.')}
        />
      ) : null}
      {dialogPayment && dialog?.kind === 'void' ? (
        <VoidDialog
          open
          payment={dialogPayment}
          onClose={() => setDialog(null)}
          onSubmit={(body) => send({ kind: 'void', paymentId: dialogPayment.paymentId, body: { ...body, version: job.version } }, 'Authorisation voided.')}
        />
      ) : null}
      <ConfirmDialog
        open={dialog?.kind === 'expireLink'}
        title="Expire the payment link now?"
        text={`The link of payment job ${job.reference} stops working at once: the shopper can no longer pay ${money(job.amount)} with it. Nothing was paid, so nothing is refunded.`}
        confirmLabel="Expire link now"
        cancelLabel="Keep the link"
        onConfirm={() => {
          void send({ kind: 'expire', body: { version: job.version } }, 'Payment link expired.')
            .catch(() => undefined)
            .finally(() => setDialog(null));
        }}
        onCancel={() => setDialog(null)}
      />
      {dialog?.kind === 'cancelJob' ? (
        <CancelJobDialog
          open
          reference={job.reference}
          onClose={() => setDialog(null)}
          onSubmit={(body) => send({ kind: 'cancel', body: { ...body, version: job.version } }, 'Payment job cancelled.')}
        />
      ) : null}
      {dialogPayment && dialog?.kind === 'mailPaymentLink' ? (
        <MailPaymentLinkDialog
          open
          defaultEmail={job.emailAddress}
          onClose={() => setDialog(null)}
          onSubmit={(body) => send({ kind: 'mailPaymentLink', paymentId: dialogPayment.paymentId, body }, 'Payment link sent.')}
        />
      ) : null}
    </article>
  );
}
