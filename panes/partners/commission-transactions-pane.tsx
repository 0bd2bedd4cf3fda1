// One month's commission of a partner's plan, transaction by transaction (/partners/{id}/commissions/{plan}/
// transactions/{YYYY-MM}[?currency=XXX]), opened from the plan's monthly row: each fee-bearing transaction, the rule
// it earned under and its share of the month's commission. The shares add up to the monthly row (the totals shown
// above the table are the server's, the same figures as the plan's row). A plain table, paged; reads only.
import { useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import { useLocation } from 'wouter';
import { isApiError } from '../../src/api/api-error.ts';
import { pageSizes } from '../../src/contract/list-query.ts';
import { formatDate } from '../../src/format/dates.ts';
import { formatMinorUnits } from '../../src/format/money.ts';
import type { PaneProps } from '../../src/state/pane-scope.tsx';
import { Pagination } from '../../src/ui/data-table/pagination.tsx';
import { Skeleton } from '../../src/ui/skeleton.tsx';
import { formatMonth } from './commission-format.ts';
import { commissionPlanPath, partnerQueries } from './partner-queries.ts';
import '../../src/ui/data-table/data-table.css';
import './partners.css';

export function CommissionTransactionsPane({ params, search }: PaneProps) {
  const [location, navigate] = useLocation();
  const partnerId = params.partnerId ?? '';
  const planId = params.commissionPlanId ?? '';
  const month = params.month ?? '';
  const query = new URLSearchParams(search);
  const currency = query.get('currency');
  const pageNumber = Math.max(1, Number(query.get('pagenumber') ?? 1) || 1);
  const pageSize = pageSizes.find((size) => String(size) === query.get('pagesize')) ?? 25;
  const list = useQuery(partnerQueries.commissionTransactions(partnerId, planId, { month, currency, pageNumber, pageSize }));
  const ids = { title: useId(), table: useId() };
  const setPage = (next: { pageNumber?: number; pageSize?: number }) => {
    const params = new URLSearchParams({
      ...(currency ? { currency } : {}),
      pagenumber: String(next.pageNumber ?? 1),
      pagesize: String(next.pageSize ?? pageSize),
    });
    navigate(`${location}?${params.toString()}`);
  };
  const title = `Commission per transaction, ${formatMonth(month)}${currency ? ` (${currency})` : ''}`;
  if (list.isPending)
    return (
      <div className="record-pane">
        <h1>{title}</h1>
        <Skeleton lines={8} label="Loading the commission per transaction" />
      </div>
    );
  if (list.isError) {
    const notFound = isApiError(list.error) && list.error.status === 404;
    return (
      <div className="record-pane">
        <h1>{title}</h1>
        <p role="alert">{notFound ? 'The requested record was not found.' : 'The commission per transaction could not be loaded.'}</p>
      </div>
    );
  }
  const data = list.data;
  return (
    <article className="record-pane" aria-labelledby={ids.title}>
      <header className="record-header">
        <h1 id={ids.title}>{title}</h1>
        <a className="button" href={commissionPlanPath(partnerId, planId)}>
          Back to the commission plan
        </a>
      </header>
      <dl className="partner-figures">
        {data.totals.map((total) => (
          <div key={total.currency}>
            <dt>
              Commission in {total.currency} ({total.transactionCount.toLocaleString('en-GB')} transactions, fees{' '}
              {formatMinorUnits(total.feesMinor, total.currency)})
            </dt>
            <dd>{formatMinorUnits(total.commissionMinor, total.currency)}</dd>
          </div>
        ))}
      </dl>
      {data.numberOfResults === 0 ? (
        <p>No fees were charged this month under this plan.</p>
      ) : (
        <div className="plain-table-scroll">
          <table className="plain-table" aria-labelledby={ids.table}>
            <caption id={ids.table}>Commission per transaction, by currency and reference</caption>
            <thead>
              <tr>
                <th scope="col">Transaction</th>
                <th scope="col">Date</th>
                <th scope="col">Business</th>
                <th scope="col">Payment method</th>
                <th scope="col">Rule</th>
                <th scope="col" className="numeric">
                  Fee
                </th>
                <th scope="col" className="numeric">
                  Commission
                </th>
              </tr>
            </thead>
            <tbody>
              {data.results.map((row) => (
                <tr key={row.reference}>
                  <th scope="row">{row.reference}</th>
                  <td>{formatDate(row.dateTimeUtc)}</td>
                  <td>{row.businessName}</td>
                  <td>
                    {row.paymentMethod}
                    {row.cardType ? ` (${row.cardType})` : ''}
                    {row.channel === 'Moto' ? ', MOTO' : ''}
                  </td>
                  <td>{row.ruleDescription ?? 'No rule matched'}</td>
                  <td className="numeric">{formatMinorUnits(row.feeMinor, row.currency)}</td>
                  <td className="numeric">{formatMinorUnits(row.commissionMinor, row.currency)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Pagination
        label="Commission transaction pages"
        pageNumber={pageNumber}
        pageSize={pageSize}
        pageSizes={pageSizes}
        rowsOnPage={data.results.length}
        total={data.numberOfResults}
        onPageChange={(next) => setPage({ pageNumber: next })}
        onPageSizeChange={(size) => setPage({ pageSize: size })}
      />
    </article>
  );
}
