// A business transfer (…/business-accounts-overview/{account}/transfers/{transferId}): what reached the bank, the
// remittance text the bank statement shows beside it (to match the credit to this transfer), and the payouts it pays
// (each merchant batch's payout into the business account since the transfer before), which sum to it. Reads only.
import { useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import { isApiError } from '../../src/api/api-error.ts';
import { formatShortDate } from '../../src/format/dates.ts';
import { formatMoney } from '../../src/format/money.ts';
import type { PaneProps } from '../../src/state/pane-scope.tsx';
import { Skeleton } from '../../src/ui/skeleton.tsx';
import { ledgerQueries } from './ledger-queries.ts';
import './reporting.css';

export function TransferDetailPane({ params }: PaneProps) {
  const businessId = params.businessId ?? '';
  const merchantId = params.merchantId ?? '';
  const accountNumber = params.businessAccountId ?? '';
  const transferId = params.transferId ?? '';
  const transfer = useQuery(ledgerQueries.transfer(businessId, accountNumber, transferId));
  const ids = { title: useId(), payouts: useId() };
  if (transfer.isPending)
    return (
      <div className="reporting-pane">
        <Skeleton lines={6} label="Loading the transfer" />
      </div>
    );
  if (transfer.isError) {
    const notFound = isApiError(transfer.error) && transfer.error.status === 404;
    return (
      <div className="reporting-pane">
        <h1>Transfer {transferId}</h1>
        <p role="alert">{notFound ? 'The requested record was not found.' : 'The transfer could not be loaded.'}</p>
      </div>
    );
  }
  const data = transfer.data;
  const money = (amount: number) => formatMoney(amount, data.currency);
  return (
    <article className="reporting-pane" aria-labelledby={ids.title}>
      <h1 id={ids.title}>Transfer {data.id}</h1>
      <p>
        <a
          href={`/business/${encodeURIComponent(businessId)}/merchants/${encodeURIComponent(merchantId)}/business-accounts-overview/${encodeURIComponent(accountNumber)}`}
        >
          Business account {accountNumber}
        </a>
      </p>
      <section aria-label="Transfer" className="reporting-summary">
        <dl>
          <div>
            <dt>Transfer date</dt>
            <dd>{formatShortDate(data.transferDate)}</dd>
          </div>
          <div>
            <dt>Amount</dt>
            <dd>{money(data.amount)}</dd>
          </div>
          <div>
            <dt>Maturity date</dt>
            <dd>{formatShortDate(data.maturityDate)}</dd>
          </div>
          <div>
            <dt>Remittance text on the bank statement</dt>
            <dd>
              <code>{data.remittanceText}</code>
            </dd>
          </div>
        </dl>
      </section>
      <section aria-labelledby={ids.payouts}>
        <h2 id={ids.payouts}>Payouts in this transfer</h2>
        <p>
          {data.periodStart
            ? `What reached the business account from the transfer before (${formatShortDate(data.periodStart)}) up to this one.`
            : 'What reached the business account up to this transfer.'}
        </p>
        <table className="reporting-totals">
          <caption className="visually-hidden">Payouts in transfer {data.id}</caption>
          <thead>
            <tr>
              <th scope="col">Merchant</th>
              <th scope="col">Batch</th>
              <th scope="col">Paid out</th>
              <th scope="col">Amount</th>
            </tr>
          </thead>
          <tbody>
            {data.payouts.map((payout) => (
              <tr key={payout.postingId}>
                <th scope="row">{payout.merchantName ?? payout.merchantId ?? '—'}</th>
                <td>
                  {payout.batchId ?? payout.postingId}
                  {payout.batchDate ? ` (${formatShortDate(payout.batchDate)})` : ''}
                </td>
                <td>{formatShortDate(payout.valueDate)}</td>
                <td>{money(payout.amount)}</td>
              </tr>
            ))}
            {data.carriedOver !== 0 ? (
              <tr>
                <th scope="row" colSpan={3}>
                  Held in the business account before
                </th>
                <td>{money(data.carriedOver)}</td>
              </tr>
            ) : null}
          </tbody>
          <tfoot>
            <tr>
              <th scope="row" colSpan={3}>
                Total: the transfer
              </th>
              <td>{money(data.payoutsTotal + data.carriedOver)}</td>
            </tr>
          </tfoot>
        </table>
        {data.payouts.length === 0 ? <p>No payouts reached the business account for this transfer.</p> : null}
      </section>
    </article>
  );
}
