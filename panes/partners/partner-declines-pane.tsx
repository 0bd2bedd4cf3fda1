// A partner's declines: the decline reasons across its businesses for a period and currency, as on the
// dashboard, and the businesses they come from. Enter on a business (Shift+Enter beside) opens its declined
// transactions for the same period and currency in the partner's frame. The period lives in the address.
import { useQuery } from '@tanstack/react-query';
import { useId, useMemo, useState } from 'react';
import { useLocation } from 'wouter';
import { isApiError } from '../../src/api/api-error.ts';
import { addDays, isIsoDate, calendarDate } from '../../src/contract/calendar-date.ts';
import { browserTimeZone } from '../../src/contract/dashboard-intervals.ts';
import type { PartnerDeclineBusiness } from '../../src/contract/partner-schemas.ts';
import { formatMinorUnits } from '../../src/format/money.ts';
import { type PaneProps, usePaneCapabilities } from '../../src/state/pane-scope.tsx';
import { CursorDataTable } from '../../src/ui/data-table/cursor-data-table.tsx';
import type { DataTableColumn } from '../../src/ui/data-table/data-table.tsx';
import { partnerBusinessPath, partnerPath, partnerQueries } from './partner-queries.ts';
import { tableStatusOf } from '../../src/ui/data-table/table-status.ts';
import { useRowCursor } from '../overview/row-cursor.ts';
import '../../src/ui/data-table/data-table.css';
import '../configurations/configurations.css';
import './partners.css';

export const defaultDeclineDays = 30;

/** The declined and failed payments of one business in the period and currency: the transactions overview's filters. */
export function declinedTransactionsPath(partnerId: string, businessId: string, currency: string, startDate: string, endDate: string): string {
  const params = new URLSearchParams({
    status: '[eq]declined[and][eq]failed',
    kind: '[eq]payment',
    currency: `[eq]${currency}`,
    date: `[gte]${startDate}T00:00:00[and][lte]${endDate}T23:59:59`,
  });
  return `${partnerBusinessPath(partnerId, businessId)}/transactions?${params.toString()}`;
}

/** The period and currency from the address; the last 30 days and no currency (the partner's first) otherwise. */
export function declinesViewOf(search: string, today: string): { startDate: string; endDate: string; currency: string | null } {
  const query = new URLSearchParams(search);
  const startDate = query.get('startDate') ?? '';
  const endDate = query.get('endDate') ?? '';
  const valid = isIsoDate(startDate) && isIsoDate(endDate) && startDate <= endDate;
  const currency = /^[A-Z]{3}$/.test(query.get('currency') ?? '') ? query.get('currency') : null;
  return { startDate: valid ? startDate : addDays(today, -(defaultDeclineDays - 1)), endDate: valid ? endDate : today, currency };
}

export function PartnerDeclinesPane({ params, search }: PaneProps) {
  const partnerId = params.partnerId ?? '';
  const [, navigate] = useLocation();
  const today = calendarDate(Date.now(), browserTimeZone());
  const view = declinesViewOf(search, today);
  const partner = useQuery(partnerQueries.detail(partnerId));
  const currencies = partner.data?.currencies ?? [];
  const currency = view.currency ?? (currencies.includes('GBP') ? 'GBP' : (currencies[0] ?? 'GBP'));
  const declines = useQuery({ ...partnerQueries.declines(partnerId, currency, view.startDate, view.endDate), enabled: partner.isSuccess });
  const [draft, setDraft] = useState({ startDate: view.startDate, endDate: view.endDate });
  const ids = { title: useId(), reasons: useId(), businesses: useId() };
  const rows = useMemo(() => declines.data?.businesses ?? [], [declines.data]);

  const goTo = (next: { startDate: string; endDate: string; currency: string }) => {
    navigate(`${partnerPath(partnerId)}/declines?${new URLSearchParams(next).toString()}`);
  };
  const { rowHandlers, table } = useRowCursor(rows, (row) => declinedTransactionsPath(partnerId, row.businessId, currency, view.startDate, view.endDate));
  const columns: readonly DataTableColumn<PartnerDeclineBusiness>[] = [
    {
      id: 'businessName',
      header: 'Business',
      width: 'minmax(14rem, 2fr)',
      cell: (row) => (
        <a className="data-table-link is-name" href={declinedTransactionsPath(partnerId, row.businessId, currency, view.startDate, view.endDate)}>
          {row.businessName}
        </a>
      ),
    },
    { id: 'count', header: 'Declines', width: '7rem', align: 'end', cell: (row) => row.totalCount.toLocaleString('en-GB') },
    { id: 'amount', header: 'Amount', width: '9rem', align: 'end', cell: (row) => formatMinorUnits(row.totalAmount, currency) },
    { id: 'topReason', header: 'Most frequent reason', width: 'minmax(12rem, 1.5fr)', cell: (row) => row.topReason ?? 'N/A' },
  ];
  usePaneCapabilities(rowHandlers());

  if (partner.isError) {
    const notFound = isApiError(partner.error) && partner.error.status === 404;
    return (
      <div className="record-pane">
        <h1>Declines</h1>
        <p role="alert">{notFound ? 'The requested record was not found.' : 'The partner could not be loaded.'}</p>
      </div>
    );
  }
  const refused = declines.isError && isApiError(declines.error) && declines.error.status === 403;
  return (
    <section className="partners-pane" aria-labelledby={ids.title}>
      <header className="partners-header">
        <h1 id={ids.title}>Declines{partner.data ? ` of ${partner.data.partnerName}` : ''}</h1>
        <form
          className="partners-tools"
          aria-label="Period and currency"
          onSubmit={(event) => {
            event.preventDefault();
            goTo({ ...draft, currency });
          }}
        >
          <label>
            From
            <input
              type="date"
              value={draft.startDate}
              max={draft.endDate}
              required
              onChange={(event) => setDraft({ ...draft, startDate: event.target.value })}
            />
          </label>
          <label>
            To
            <input type="date" value={draft.endDate} min={draft.startDate} required onChange={(event) => setDraft({ ...draft, endDate: event.target.value })} />
          </label>
          <button type="submit" className="button">
            Show
          </button>
          <label>
            Currency
            <select value={currency} onChange={(event) => goTo({ startDate: view.startDate, endDate: view.endDate, currency: event.target.value })}>
              {(currencies.length > 0 ? currencies : [currency]).map((code) => (
                <option key={code} value={code}>
                  {code}
                </option>
              ))}
            </select>
          </label>
        </form>
      </header>
      {refused ? <p role="alert">You do not have the correct permissions.</p> : null}
      {declines.data ? (
        <p className="partners-note" role="status">
          {declines.data.totalCount.toLocaleString('en-GB')} declined payments worth {formatMinorUnits(declines.data.totalAmount, currency)} from{' '}
          {declines.data.startDate} to {declines.data.endDate}.
        </p>
      ) : null}
      <section className="record-section" aria-labelledby={ids.reasons}>
        <h2 id={ids.reasons}>Decline reasons</h2>
        {declines.data && declines.data.reasons.length > 0 ? (
          <table className="plain-table">
            <caption className="visually-hidden">Decline reasons, most frequent first</caption>
            <thead>
              <tr>
                <th scope="col">Reason</th>
                <th scope="col" className="numeric">
                  Declines
                </th>
                <th scope="col" className="numeric">
                  Amount
                </th>
              </tr>
            </thead>
            <tbody>
              {declines.data.reasons.map((reason) => (
                <tr key={reason.reason}>
                  <th scope="row">{reason.reason}</th>
                  <td className="numeric">{reason.count.toLocaleString('en-GB')}</td>
                  <td className="numeric">{formatMinorUnits(reason.amount, currency)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        ) : (
          <p>{declines.isPending ? 'Loading the decline reasons…' : declines.isError ? 'The declines could not be loaded.' : 'No declines in this period.'}</p>
        )}
      </section>
      <section className="record-section" aria-labelledby={ids.businesses}>
        <h2 id={ids.businesses}>By business</h2>
        <CursorDataTable
          {...table}
          resetKey={`${search}|${declines.dataUpdatedAt}`}
          caption="Declines by business"
          columns={columns}
          rowKey={(row) => row.businessId}
          rowHeader="businessName"
          status={tableStatusOf(declines)}
          emptyMessage="No business had declines in this period."
          errorMessage="The declines could not be loaded."
          totalRows={rows.length}
        />
      </section>
    </section>
  );
}
