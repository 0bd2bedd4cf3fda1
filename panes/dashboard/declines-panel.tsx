// The top decline reasons of the shown period (POST {context}/dashboard/declines): count and amount per reason.
import { useQuery } from '@tanstack/react-query';
import type { DashboardPeriod } from '../../src/contract/dashboard-intervals.ts';
import { formatMinorUnits } from '../../src/format/money.ts';
import { Skeleton } from '../../src/ui/skeleton.tsx';
import { formatPeriod } from './dashboard-format.ts';
import { dashboardQueries } from './dashboard-queries.ts';

const countFormat = new Intl.NumberFormat('en-GB');
const shareFormat = new Intl.NumberFormat('en-GB', { style: 'percent', maximumFractionDigits: 1 });

export function DeclinesPanel({ context, period, currency }: { context: string; period: DashboardPeriod; currency: string }) {
  const declines = useQuery(dashboardQueries.declines(context, period, currency));
  const data = declines.data;
  return (
    <section className="dashboard-declines" aria-labelledby="dashboard-declines-title" aria-busy={declines.isFetching}>
      <h2 id="dashboard-declines-title">Top decline reasons</h2>
      {!data ? (
        declines.isError ? (
          <p className="dashboard-muted">The decline reasons could not be loaded.</p>
        ) : (
          <Skeleton lines={3} label="Loading decline reasons" />
        )
      ) : data.reasons.length === 0 ? (
        <p className="dashboard-muted">
          No declined payments in {currency} for {formatPeriod(period)}.
        </p>
      ) : (
        <table className="dashboard-declines-table">
          <caption className="visually-hidden">
            Decline reasons in {currency}, {formatPeriod(period)}, most frequent first
          </caption>
          <thead>
            <tr>
              <th scope="col">Reason</th>
              <th scope="col">Declines</th>
              <th scope="col">Share</th>
              <th scope="col">Amount</th>
            </tr>
          </thead>
          <tbody>
            {data.reasons.map((reason) => (
              <tr key={reason.reason}>
                <th scope="row">{reason.reason}</th>
                <td>{countFormat.format(reason.count)}</td>
                <td>{shareFormat.format(data.totalCount === 0 ? 0 : reason.count / data.totalCount)}</td>
                <td>{formatMinorUnits(reason.amount, currency)}</td>
              </tr>
            ))}
          </tbody>
          <tfoot>
            <tr>
              <th scope="row">All declines</th>
              <td>{countFormat.format(data.totalCount)}</td>
              <td>{shareFormat.format(1)}</td>
              <td>{formatMinorUnits(data.totalAmount, currency)}</td>
            </tr>
          </tfoot>
        </table>
      )}
    </section>
  );
}
