// The balance of an account at the end of each day of the statement's period: a line drawn by lightweight-charts
// (loaded on first use, not part of this pane's chunk) with the same figures in a table beside it for screen readers
// and keyboards. The drawing is an image and holds nothing focusable; the library's attribution is our link.
import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import type { UTCTimestamp } from 'lightweight-charts';
import { api } from '../../src/api/api-client.ts';
import { validate } from '../../src/api/validate.ts';
import type { DailyBalances } from '../../src/contract/ledger-schemas.ts';
import { formatShortDate } from '../../src/format/dates.ts';
import { formatMoney } from '../../src/format/money.ts';
import { statementPath, type StatementSource } from './ledger-queries.ts';

type Charts = typeof import('lightweight-charts');
let chartsModule: Promise<Charts> | null = null;
const loadCharts = () => (chartsModule ??= import('lightweight-charts'));

export const balanceQuery = (source: StatementSource, date: string | undefined) => ({
  queryKey: ['ledger', 'balances', source, date ?? ''] as const,
  queryFn: async ({ signal }: { signal: AbortSignal }) =>
    validate('dailyBalances', await api.get<unknown>(`${statementPath(source)}/balances`, { query: date ? { date } : {}, signal })),
  staleTime: 15_000,
});

export function BalanceChart({ source, date, title }: { source: StatementSource; date: string | undefined; title: string }) {
  const balances = useQuery(balanceQuery(source, date));
  const data = balances.data;
  if (balances.isError) return <p role="alert">The balances could not be loaded.</p>;
  if (!data) return <p role="status">Loading the balances…</p>;
  return (
    <section className="reporting-chart" aria-label="Balance over the period">
      <ChartDrawing data={data} label={`${title}: balance at the end of each day, ${data.results.length} days`} />
      <details>
        <summary>Daily balances as a table</summary>
        <table className="reporting-totals">
          <caption>Balance at the end of each day</caption>
          <thead>
            <tr>
              <th scope="col">Day</th>
              <th scope="col">Balance</th>
            </tr>
          </thead>
          <tbody>
            {data.results.map((row) => (
              <tr key={row.date}>
                <th scope="row">{formatShortDate(`${row.date}T12:00:00`)}</th>
                <td>{formatMoney(row.balance, data.currency)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </section>
  );
}

function ChartDrawing({ data, label }: { data: DailyBalances; label: string }) {
  const container = useRef<HTMLDivElement>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    let cancelled = false;
    let remove: (() => void) | null = null;
    void loadCharts()
      .then((charts) => {
        const element = container.current;
        if (cancelled || !element) return;
        const chart = charts.createChart(element, {
          autoSize: true,
          layout: { background: { color: 'transparent' }, textColor: '#5d616b', fontFamily: 'system-ui, sans-serif', attributionLogo: false },
          grid: { vertLines: { visible: false }, horzLines: { color: '#ececef' } },
          rightPriceScale: { borderVisible: false },
          timeScale: { borderVisible: false, fixLeftEdge: true, fixRightEdge: true },
          handleScroll: false,
          handleScale: false,
          localization: { locale: 'en-GB', priceFormatter: (value: number) => formatMoney(value, data.currency) },
        });
        const series = chart.addSeries(charts.LineSeries, { color: '#4b44d6', lineWidth: 2, priceLineVisible: false, lastValueVisible: false });
        series.setData(data.results.map((row) => ({ time: (Date.parse(`${row.date}T00:00:00Z`) / 1000) as UTCTimestamp, value: row.balance })));
        chart.timeScale().fitContent();
        remove = () => chart.remove();
      })
      .catch(() => {
        if (!cancelled) setFailed(true);
      });
    return () => {
      cancelled = true;
      remove?.();
    };
  }, [data]);
  if (failed) return <p>The chart could not be loaded. The table has the same figures.</p>;
  return (
    <div className="reporting-chart-frame">
      <div ref={container} className="reporting-chart-drawing" role="img" aria-label={label} />
      <a href="https://www.tradingview.com/" target="_blank" rel="noopener noreferrer">
        Charting by TradingView
      </a>
    </div>
  );
}
