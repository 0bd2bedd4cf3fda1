// One partner: its figures, the statistics of its businesses this year from the partner dashboard (the
// dashboard's chart), its businesses (Enter opens one in the partner's frame, Shift+Enter beside), its commission
// plans (with 'New commission plan' for those who may create one) and its users (each a link to the partner user routes). Declines and transactions are one link away.
import { useQuery } from '@tanstack/react-query';
import { useId, useMemo, useState } from 'react';
import { api } from '../../src/api/api-client.ts';
import { isApiError } from '../../src/api/api-error.ts';
import { userQueries } from '../../src/api/user-queries.ts';
import { validate } from '../../src/api/validate.ts';
import type { BusinessListItem } from '../../src/contract/configuration-schemas.ts';
import { calendarDate } from '../../src/contract/calendar-date.ts';
import { browserTimeZone, periodContaining } from '../../src/contract/dashboard-intervals.ts';
import type { CommissionPlanListItem } from '../../src/contract/partner-schemas.ts';
import { formatDate } from '../../src/format/dates.ts';
import { type PaneProps, usePaneCapabilities } from '../../src/state/pane-scope.tsx';
import { CursorDataTable } from '../../src/ui/data-table/cursor-data-table.tsx';
import type { DataTableColumn } from '../../src/ui/data-table/data-table.tsx';
import { Skeleton } from '../../src/ui/skeleton.tsx';
import { displayValue, formatMeasure } from '../dashboard/dashboard-format.ts';
import { dashboardQueries } from '../dashboard/dashboard-queries.ts';
import { type ChartData, StatisticsChart } from '../dashboard/statistics-pane.tsx';
import { useRowCursor } from '../overview/row-cursor.ts';
import { commissionPlanPath, newCommissionPlanPath, partnerBusinessPath, partnerPath, partnerQueries } from './partner-queries.ts';
import '../../src/ui/data-table/data-table.css';
import '../configurations/configurations.css';
import './partners.css';

const businessColumns = (partnerId: string): readonly DataTableColumn<BusinessListItem>[] => [
  {
    id: 'businessName',
    header: 'Business',
    width: 'minmax(14rem, 2fr)',
    cell: (row) => (
      <a className="data-table-link is-name" href={partnerBusinessPath(partnerId, row.businessId)}>
        {row.businessName}
      </a>
    ),
  },
  { id: 'businessId', header: 'Business ID', width: 'minmax(8rem, 1fr)', cell: (row) => row.businessId },
  { id: 'remittance', header: 'Automatic remittance', width: '11rem', cell: (row) => (row.camAutoRemittance ? 'On' : 'Off') },
  { id: 'live', header: 'Live', width: '6rem', cell: (row) => (row.live ? 'Yes' : 'No') },
];

const planStatusTone: Record<CommissionPlanListItem['status'], string> = { Active: 'success', Scheduled: 'warning', Ended: 'neutral' };

function PartnerStatistics({ partnerId, currencies }: { partnerId: string; currencies: readonly string[] }) {
  const timeZone = browserTimeZone();
  const period = periodContaining('year', calendarDate(Date.now(), timeZone));
  const [currency, setCurrency] = useState<string | null>(null);
  const statistics = useQuery(dashboardQueries.statistics(partnerPath(partnerId), period, currency));
  const response = statistics.data;
  const shown = response?.currency ?? currency ?? 'GBP';
  const chart = useMemo<ChartData | null>(
    () =>
      response
        ? {
            chartType: 'bar',
            measure: 'volume',
            currency: response.currency,
            unit: response.bucket.unit,
            step: response.bucket.step,
            timeZone: response.timeZone,
            points: response.datapoints.map((point) => ({
              start: new Date(point.startDate),
              end: new Date(point.endDate),
              value: displayValue(point.volume, 'volume', response.currency),
            })),
            compared: null,
          }
        : null,
    [response],
  );
  if (statistics.isError) {
    const refused = isApiError(statistics.error) && statistics.error.status === 403;
    return <p>{refused ? 'You do not have the correct permissions.' : 'The statistics could not be loaded.'}</p>;
  }
  const totals = response?.datapoints.reduce(
    (sum, point) => ({
      volume: sum.volume + point.volume,
      salesCount: sum.salesCount + point.salesCount,
      unsuccessful: sum.unsuccessful + point.unsuccessfulVolume,
    }),
    { volume: 0, salesCount: 0, unsuccessful: 0 },
  );
  return (
    <>
      <div className="partners-tools">
        <label>
          Currency
          <select value={shown} onChange={(event) => setCurrency(event.target.value)}>
            {(currencies.length > 0 ? currencies : [shown]).map((code) => (
              <option key={code} value={code}>
                {code}
              </option>
            ))}
          </select>
        </label>
      </div>
      {!response || !totals ? (
        <Skeleton lines={3} label="Loading the statistics" />
      ) : (
        <>
          <dl className="partner-figures">
            <div>
              <dt>Volume this year</dt>
              <dd>{formatMeasure(totals.volume, 'volume', response.currency)}</dd>
            </div>
            <div>
              <dt>Sales</dt>
              <dd>{totals.salesCount.toLocaleString('en-GB')}</dd>
            </div>
            <div>
              <dt>Unsuccessful volume</dt>
              <dd>{formatMeasure(totals.unsuccessful, 'unsuccessfulVolume', response.currency)}</dd>
            </div>
          </dl>
          <div className="partner-chart">{chart ? <StatisticsChart data={chart} label={`Volume per month this year in ${response.currency}`} /> : null}</div>
        </>
      )}
    </>
  );
}

function PartnerUsers({ partnerId }: { partnerId: string }) {
  const users = useQuery({
    queryKey: ['partners', 'users', partnerId],
    queryFn: async ({ signal }) => validate('userList', await api.get<unknown>(`${partnerPath(partnerId)}/users`, { query: { pagesize: '100' }, signal })),
    staleTime: 30_000,
  });
  if (users.isPending) return <Skeleton lines={2} label="Loading the users" />;
  if (users.isError) return <p>The users could not be loaded.</p>;
  if (users.data.results.length === 0) return <p>This partner has no users.</p>;
  return (
    <ul className="record-list">
      {users.data.results.map((user) => (
        <li key={user.userId}>
          <a href={`${partnerPath(partnerId)}/users/${encodeURIComponent(user.userId)}`}>{`${user.givenName} ${user.familyName}`.trim() || user.email}</a>
          <span className="record-meta">
            {user.email} · {user.roles.join(', ') || 'no roles'} · {user.status}
          </span>
        </li>
      ))}
    </ul>
  );
}

export function PartnerDetailPane({ params }: PaneProps) {
  const partnerId = params.partnerId ?? '';
  const detail = useQuery(partnerQueries.detail(partnerId));
  const businesses = useQuery(partnerQueries.businesses(partnerId, { pagesize: '100' }));
  const permissions = useQuery(userQueries.permissions(`/user/partner/${encodeURIComponent(partnerId)}/permissions`));
  const granted = (name: string) => permissions.data?.includes(name) === true;
  const ids = { title: useId(), statistics: useId(), businesses: useId(), plans: useId(), users: useId() };
  const rows = useMemo(() => (businesses.isError ? [] : (businesses.data?.results ?? [])), [businesses.isError, businesses.data]);

  const { rowHandlers, table } = useRowCursor(rows, (row) => partnerBusinessPath(partnerId, row.businessId));
  usePaneCapabilities(rowHandlers());

  if (detail.isPending)
    return (
      <div className="record-pane">
        <Skeleton lines={6} label="Loading the partner" />
      </div>
    );
  if (detail.isError) {
    const notFound = isApiError(detail.error) && detail.error.status === 404;
    return (
      <div className="record-pane">
        <h1>Partner {partnerId}</h1>
        <p role="alert">{notFound ? 'The requested record was not found.' : 'The partner could not be loaded.'}</p>
      </div>
    );
  }
  const partner = detail.data;
  return (
    <article className="record-pane" aria-labelledby={ids.title}>
      <header className="record-header">
        <h1 id={ids.title}>{partner.partnerName}</h1>
        <ul className="partner-links" aria-label="Partner screens">
          <li>
            <a href={`${partnerPath(partnerId)}/declines`}>Declines</a>
          </li>
          {granted('Mapi.Transactions.Read') ? (
            <li>
              <a href={`${partnerPath(partnerId)}/transactions`}>Transactions</a>
            </li>
          ) : null}
        </ul>
      </header>
      <dl className="partner-figures">
        <div>
          <dt>Partner ID</dt>
          <dd>{partner.partnerId}</dd>
        </div>
        <div>
          <dt>Businesses</dt>
          <dd>
            {partner.businessCount} ({partner.liveBusinessCount} live)
          </dd>
        </div>
        <div>
          <dt>Merchants</dt>
          <dd>{partner.merchantCount}</dd>
        </div>
        <div>
          <dt>Partner since</dt>
          <dd>{formatDate(partner.createDateTimeUtc)}</dd>
        </div>
      </dl>

      {granted('Mapi.MerchantDashboardReport.Read') ? (
        <section className="record-section" aria-labelledby={ids.statistics}>
          <h2 id={ids.statistics}>Statistics</h2>
          <PartnerStatistics partnerId={partnerId} currencies={partner.currencies} />
        </section>
      ) : null}

      <section className="record-section" aria-labelledby={ids.plans}>
        <h2 id={ids.plans}>Commission plans</h2>
        {/* The same route 'New commission plan' (the palette) opens. */}
        {granted('Mapi.CommissionPlans.Update') ? (
          <p>
            <a href={newCommissionPlanPath(partnerId)}>New commission plan</a>
          </p>
        ) : null}
        {partner.commissionPlans.length === 0 ? (
          <p>This partner has no commission plan.</p>
        ) : (
          <ul className="record-list">
            {partner.commissionPlans.map((plan) => (
              <li key={plan.commissionPlanId}>
                <a href={commissionPlanPath(partnerId, plan.commissionPlanId)}>{plan.name}</a>
                <span className="status-chip" data-tone={planStatusTone[plan.status]}>
                  {plan.status}
                </span>
                <span className="record-meta">
                  {formatDate(plan.validFrom)} to {plan.validTo ? formatDate(plan.validTo) : 'open-ended'} · {plan.ruleCount}{' '}
                  {plan.ruleCount === 1 ? 'rule' : 'rules'}
                </span>
              </li>
            ))}
          </ul>
        )}
      </section>

      <section className="record-section" aria-labelledby={ids.businesses}>
        <h2 id={ids.businesses}>Businesses</h2>
        <CursorDataTable
          {...table}
          resetKey={String(businesses.dataUpdatedAt)}
          caption="Businesses of the partner"
          columns={businessColumns(partnerId)}
          rowKey={(row) => row.businessId}
          rowHeader="businessName"
          status={businesses.isError ? 'error' : businesses.isPending ? 'loading' : 'ready'}
          emptyMessage="This partner has no businesses."
          errorMessage="The businesses could not be loaded."
          totalRows={businesses.data?.numberOfResults ?? 0}
        />
      </section>

      {granted('Mapi.Users.Read') ? (
        <section className="record-section" aria-labelledby={ids.users}>
          <h2 id={ids.users}>Users</h2>
          {granted('Mapi.Users.Create') ? (
            <p>
              <a href={`${partnerPath(partnerId)}/users/add`}>Add partner users</a>
            </p>
          ) : null}
          <PartnerUsers partnerId={partnerId} />
        </section>
      ) : null}
    </article>
  );
}
