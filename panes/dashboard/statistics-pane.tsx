// The statistics dashboard (spec: shell document sections 2, 3, 4, 8 and 9): interval selector with previous and
// next period, compare with a year earlier, data type and currency, the chart with its table alternative, the
// period's totals and the top decline reasons. The view lives in the pane's address (/dashboard?interval=…), so
// the palette's dashboard commands, the back button and a shared link all show the same thing.
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useEffect, useMemo, useRef, useState } from 'react';
import { useSnapshot } from 'valtio';
import { useLocation } from 'wouter';
import { calendarDate } from '../../src/contract/calendar-date.ts';
import {
  browserTimeZone,
  canStepForward,
  comparedPeriod,
  bucketTransactionFilters,
  dashboardIntervals,
  dashboardMeasures,
  dashboardPath,
  dashboardSearch,
  compareLabels,
  compareModesOf,
  type CompareWith,
  dashboardDateBases,
  dateBasisDescriptions,
  dateBasisLabels,
  defaultDateBasis,
  type DashboardDateBasis,
  measureLabels,
  periodsToPrefetch,
  readDashboardSearch,
  selectCustomRange,
  selectInterval,
  setCompare,
  shownMeasures,
  stepView,
  totalsOf,
  type ChartType,
  type DashboardInterval,
  type DashboardMeasure,
  type DashboardPeriod,
  type DashboardSettings,
} from '../../src/contract/dashboard-intervals.ts';
import type { ContextSelections } from '../../src/contract/context.ts';
import type { DashboardResponse } from '../../src/contract/dashboard.ts';
import { messages } from '../../src/contract/messages.ts';
import { contextPath, contextStore } from '../../src/state/context-store.ts';
import { type PaneProps, usePaneCapabilities } from '../../src/state/pane-scope.tsx';
import { permissionScope, sessionStore } from '../../src/state/session-store.ts';
import { showToast } from '../../src/state/toast-store.ts';
import { openBeside } from '../../src/state/workspace-store.ts';
import { Skeleton } from '../../src/ui/skeleton.tsx';
import { eachWhenIdle, whenIdle } from '../../src/ui/when-idle.ts';
import { displayValue, formatPeriod } from './dashboard-format.ts';
import { dashboardQueries } from './dashboard-queries.ts';
import { type ChartData, StatisticsChart } from './statistics-chart.tsx';
import { StatisticsTable } from './statistics-table.tsx';
import { TotalsPanel } from './totals-panel.tsx';
import '../panes.css';
import './dashboard.css';

// Other screens draw the same chart (the partner detail) through this module, so the chart stays in the dashboard's
// chunk: a chunk of its own for two users cost the first load about 0.5 KB gzip.
export { type ChartData, StatisticsChart };

// The breakdown table is a chunk of its own, asked for once the figures are on screen: none of it, nor
// the table kit it draws with, is in the dashboard's first load.
const BreakdownTable = lazy(() => import('./breakdown-table.tsx').then((module) => ({ default: module.BreakdownTable })));
// So are the decline reasons below them (from the first figures on, kept while later periods load) and the date
// control (Shift+D), fetched in an idle moment once the figures are shown so that it opens at once.
const loadDateRangeDialog = () => import('./date-range-dialog.tsx');
const TerminalLanding = lazy(() => import('./terminal-landing.tsx').then((module) => ({ default: module.TerminalLanding })));
const DeclinesPanel = lazy(() => import('./declines-panel.tsx').then((module) => ({ default: module.DeclinesPanel })));
const DateRangeDialog = lazy(() => loadDateRangeDialog().then((module) => ({ default: module.DateRangeDialog })));

const intervalLabels: Record<DashboardInterval, string> = { day: 'Day', week: 'Week', month: 'Month', year: 'Year', custom: 'Custom' };
const dashboardPermission = 'Mapi.MerchantDashboardReport.Read';

/** A response with no activity at all: nothing to chart. */
export function isEmptyResponse(response: DashboardResponse): boolean {
  return response.datapoints.every((point) => dashboardMeasures.every((measure) => point[measure] === 0));
}

function contextLabel(applied: ContextSelections): string {
  const parts = [applied.partner?.title, applied.business?.title, applied.merchant?.title].filter(Boolean);
  return parts.length > 0 ? parts.join(' › ') : 'no context';
}

export function StatisticsDashboardPane({ search }: PaneProps) {
  const { applied } = useSnapshot(contextStore);
  const session = useSnapshot(sessionStore);
  const selections = applied as ContextSelections;
  const context = contextPath(selections);
  const granted = session.permissions[permissionScope(selections).key];
  const [, navigate] = useLocation();
  const timeZone = browserTimeZone();
  const today = calendarDate(Date.now(), timeZone);
  const settings = useMemo(() => readDashboardSearch(search, today), [search, today]);
  const { view } = settings;
  const [dateDialogOpen, setDateDialogOpen] = useState(false);
  // Someone who may take telephone orders but not read statistics (a virtual terminal user) lands on a terminal they
  // can use (terminal-landing.tsx, loaded only for them), not on a screen that only says what they may not do.
  const terminalUser = granted !== undefined && !granted.includes(dashboardPermission) && granted.includes('Portal.Moto.Create');
  // The address a custom interval without dates asked for them at and the user declined: do not ask again there.
  const [declinedAt, setDeclinedAt] = useState<string | null>(null);
  const [tableVisible, setTableVisible] = useState(false);

  const change = (next: DashboardSettings) => {
    navigate(`${dashboardPath}${dashboardSearch(next)}`, { replace: true });
  };
  const changeView = (next: DashboardSettings['view']) => change({ ...settings, view: next });

  // Shift+D (the shell's date command) opens the date control; a custom interval without dates asks for them.
  usePaneCapabilities({ date: () => setDateDialogOpen(true) });
  const dialogOpen = dateDialogOpen || (view.interval === 'custom' && view.period === null && declinedAt !== search);

  if (!context)
    return (
      <div className="pane-content">
        <h1>Dashboard</h1>
        <p className="pane-lead">Choose a business or merchant to see its statistics.</p>
      </div>
    );
  if (granted === undefined)
    return (
      <div className="pane-content">
        <h1>Dashboard</h1>
        <Skeleton lines={6} label="Loading the dashboard" />
      </div>
    );
  if (terminalUser) {
    const opening = (
      <div className="pane-content">
        <h1>Dashboard</h1>
        <Skeleton lines={6} label="Opening the virtual terminal" />
      </div>
    );
    return (
      <Suspense fallback={opening}>
        <TerminalLanding selections={selections} contextLabel={contextLabel(selections)} opening={opening} />
      </Suspense>
    );
  }
  if (!granted.includes(dashboardPermission)) {
    return (
      <div className="pane-content">
        <h1>Dashboard</h1>
        <p className="pane-lead">You are working in {contextLabel(selections)}.</p>
        <p className="pane-notice" role="note">
          {messages.noPermissions} Statistics need the dashboard report permission in this context.
        </p>
      </div>
    );
  }

  return (
    <div className="pane-content dashboard">
      <header className="dashboard-header">
        <h1>Dashboard</h1>
        <p className="pane-lead">
          Statistics of {contextLabel(selections)}
          {view.period ? `, ${formatPeriod(view.period)}` : ''}.
        </p>
      </header>

      <div className="dashboard-toolbar">
        <div className="dashboard-intervals" role="radiogroup" aria-label="Interval">
          {dashboardIntervals.map((interval) => (
            <IntervalRadio
              key={interval}
              interval={interval}
              checked={view.interval === interval}
              onSelect={() => changeView(selectInterval(view, interval, today))}
            />
          ))}
        </div>
        <div className="dashboard-stepper" role="group" aria-label="Period">
          <button
            type="button"
            className="button"
            aria-label="Previous period"
            title="Previous period ([)"
            disabled={!view.period}
            onClick={() => changeView(stepView(view, -1))}
          >
            ‹
          </button>
          <button
            type="button"
            className="button dashboard-period"
            aria-haspopup="dialog"
            title="Choose dates (Shift+D)"
            onClick={() => setDateDialogOpen(true)}
          >
            {view.period ? formatPeriod(view.period) : 'Choose dates'}
          </button>
          <button
            type="button"
            className="button"
            aria-label="Next period"
            title="Next period (])"
            disabled={!canStepForward(view, today)}
            onClick={() => changeView(stepView(view, 1))}
          >
            ›
          </button>
        </div>
        <label className="dashboard-compare">
          <input type="checkbox" checked={view.compare} disabled={!view.period} onChange={(event) => changeView(setCompare(view, event.target.checked))} />
          Compare with {compareLabels[view.compareWith ?? 'year']}
        </label>
        {view.compare ? (
          <label className="dashboard-compare">
            Compare with{' '}
            <select value={view.compareWith ?? 'year'} onChange={(event) => changeView({ ...view, compareWith: event.target.value as CompareWith })}>
              {compareModesOf(view.interval).map((mode) => (
                <option key={mode} value={mode}>
                  {compareLabels[mode]}
                </option>
              ))}
            </select>
          </label>
        ) : null}
      </div>

      {view.period ? (
        <DashboardBody
          key={context}
          context={context}
          period={view.period}
          settings={settings}
          tableVisible={tableVisible}
          onToggleTable={() => setTableVisible((visible) => !visible)}
          onChange={change}
        />
      ) : (
        <div className="dashboard-empty" role="status">
          <p>Choose the dates of a custom range to see its statistics.</p>
          <button type="button" className="button button-primary" onClick={() => setDateDialogOpen(true)}>
            Choose dates
          </button>
        </div>
      )}

      {dialogOpen && (
        <Suspense fallback={null}>
          <DateRangeDialog
            open
            today={today}
            initial={view.period}
            onClose={() => {
              setDateDialogOpen(false);
              setDeclinedAt(search);
            }}
            onChoosePeriod={(period) => {
              setDateDialogOpen(false);
              changeView({ ...selectInterval(view, period.interval, today), period });
            }}
            onChooseRange={(startDate, endDate) => {
              setDateDialogOpen(false);
              changeView(selectCustomRange(view, startDate, endDate));
            }}
          />
        </Suspense>
      )}
    </div>
  );
}

function IntervalRadio({ interval, checked, onSelect }: { interval: DashboardInterval; checked: boolean; onSelect: () => void }) {
  return (
    <label className={checked ? 'dashboard-interval dashboard-interval-checked' : 'dashboard-interval'}>
      <input type="radio" name="dashboard-interval" value={interval} checked={checked} onChange={onSelect} />
      {intervalLabels[interval]}
    </label>
  );
}

type BodyProps = {
  context: string;
  period: DashboardPeriod;
  settings: DashboardSettings;
  tableVisible: boolean;
  onToggleTable: () => void;
  onChange: (settings: DashboardSettings) => void;
};

function DashboardBody({ context, period, settings, tableVisible, onToggleTable, onChange }: BodyProps) {
  const { view, measure } = settings;
  const dateBasis = settings.dateBasis ?? defaultDateBasis;
  const queryClient = useQueryClient();
  const [, navigate] = useLocation();
  const statistics = useQuery({ ...dashboardQueries.statistics(context, period, settings.currency, dateBasis), placeholderData: keepPreviousData });
  const response = statistics.data;
  const currency = response?.currency ?? settings.currency ?? 'GBP';
  const compared = useMemo(() => comparedPeriod(view), [view]);
  const comparison = useQuery({
    ...dashboardQueries.statistics(context, compared ?? period, currency, dateBasis),
    enabled: compared !== null && response !== undefined,
    placeholderData: keepPreviousData,
  });
  const comparedResponse = compared && comparison.data && !comparison.isPlaceholderData ? comparison.data : null;
  const settled = response !== undefined && !statistics.isPlaceholderData;

  // The decline reasons appear with the first figures and stay while later periods load; the date control's chunk is
  // fetched in the first idle moment after figures are shown.
  const [figuresShown, setFiguresShown] = useState(false);
  useEffect(() => {
    if (settled) setFiguresShown(true);
  }, [settled]);
  useEffect(() => (settled ? whenIdle(() => void loadDateRangeDialog()) : undefined), [settled]);
  // Fifteen periods ahead of need: the shown one and the fourteen before it (and their comparisons), asked for in
  // idle moments, two periods at most in each: started together, in the task that shows the figures, the 14–28
  // requests made it a long task (fetch alone 11–36 ms of it on the bench machine).
  useEffect(() => {
    if (!settled) return undefined;
    return eachWhenIdle(
      periodsToPrefetch(period)
        .slice(1)
        .map((earlier) => () => {
          void queryClient.prefetchQuery(dashboardQueries.statistics(context, earlier, settings.currency, dateBasis));
          const before = compared ? comparedPeriod({ ...view, period: earlier }) : null;
          if (before) void queryClient.prefetchQuery(dashboardQueries.statistics(context, before, currency, dateBasis));
        }),
      { maxPerSlice: 2 },
    );
  }, [settled, context, period, settings.currency, currency, compared, view, queryClient, dateBasis]);

  // Empty data: the spec's danger toast, once for each answer shown.
  const toasted = useRef('');
  const shown = `${JSON.stringify(dashboardQueries.statistics(context, period, settings.currency, dateBasis).queryKey)}@${statistics.dataUpdatedAt}`;
  useEffect(() => {
    if (!settled || !response || !isEmptyResponse(response) || toasted.current === shown) return;
    toasted.current = shown;
    showToast({ kind: 'danger', message: messages.noGraphData });
  }, [settled, response, shown]);

  const chartData = useMemo<ChartData | null>(
    () =>
      response
        ? {
            chartType: view.chartType,
            measure,
            currency,
            unit: response.bucket.unit,
            step: response.bucket.step,
            timeZone: response.timeZone,
            points: response.datapoints.map((point) => ({
              start: new Date(point.startDate),
              end: new Date(point.endDate),
              value: displayValue(point[measure], measure, currency),
              future: Date.parse(point.startDate) > Date.now(),
            })),
            compared: comparedResponse ? comparedResponse.datapoints.map((point) => displayValue(point[measure], measure, currency)) : null,
            comparedLabel: compareLabels[view.compareWith ?? 'year'],
          }
        : null,
    [response, comparedResponse, view.chartType, view.compareWith, measure, currency],
  );

  if (!response) {
    if (statistics.isError)
      return (
        <p className="dashboard-empty" role="status">
          The statistics could not be loaded.
        </p>
      );
    return <Skeleton lines={8} label="Loading statistics" />;
  }

  const empty = isEmptyResponse(response);
  const caption = `${measureLabels[measure]} per ${response.bucket.step > 1 ? `${response.bucket.step} days` : response.bucket.unit} in ${currency}, ${formatPeriod(period)}`;
  // The chart says which view its figures are (its heading, and its label for screen readers).
  const chartLabel = `${view.chartType === 'bar' ? 'Bar' : 'Line'} chart of ${caption.charAt(0).toLowerCase()}${caption.slice(1)}, ${dateBasisLabels[dateBasis].toLowerCase()}${comparedResponse ? `, with ${compareLabels[view.compareWith ?? 'year']} as a dashed line` : ''}. The table of the chart has the same figures.`;
  const setMeasure = (next: DashboardMeasure) => onChange({ ...settings, measure: next });
  // A bar or a table row opens the transactions its figure counts, in the overview of the same context.
  const transactionsLinkOf = (point: { startDate: string; endDate: string }) =>
    `/transactions?${new URLSearchParams(bucketTransactionFilters(measure, point, currency)).toString()}`;
  const openTransactions = (point: { startDate: string; endDate: string }, beside: boolean) => {
    if (beside) openBeside(transactionsLinkOf(point));
    else navigate(transactionsLinkOf(point));
  };
  const setChartType = (next: ChartType) => onChange({ ...settings, view: { ...view, chartType: next } });
  const setDateBasis = (next: DashboardDateBasis) => onChange({ ...settings, dateBasis: next });

  return (
    <>
      <div className="dashboard-controls">
        <label>
          Data type{' '}
          <select value={measure} onChange={(event) => setMeasure(event.target.value as DashboardMeasure)}>
            {shownMeasures.map((name) => (
              <option key={name} value={name}>
                {measureLabels[name]}
              </option>
            ))}
          </select>
        </label>
        <label>
          Currency{' '}
          <select value={currency} onChange={(event) => onChange({ ...settings, currency: event.target.value })}>
            {[...new Set([...response.currencies, currency])].sort().map((code) => (
              <option key={code} value={code}>
                {code}
              </option>
            ))}
          </select>
        </label>
        <div className="dashboard-chart-type" role="radiogroup" aria-label="Chart type">
          {(['bar', 'line'] as const).map((type) => (
            <label key={type} className={view.chartType === type ? 'dashboard-interval dashboard-interval-checked' : 'dashboard-interval'}>
              <input type="radio" name="dashboard-chart-type" value={type} checked={view.chartType === type} onChange={() => setChartType(type)} />
              {type === 'bar' ? 'Bars' : 'Line'}
            </label>
          ))}
        </div>
        <div className="dashboard-chart-type" role="radiogroup" aria-label="Dates">
          {dashboardDateBases.map((basis) => (
            <label
              key={basis}
              className={dateBasis === basis ? 'dashboard-interval dashboard-interval-checked' : 'dashboard-interval'}
              title={dateBasisDescriptions[basis]}
            >
              <input type="radio" name="dashboard-date-basis" value={basis} checked={dateBasis === basis} onChange={() => setDateBasis(basis)} />
              {dateBasisLabels[basis]}
            </label>
          ))}
        </div>
        <button type="button" className="button button-ghost" aria-pressed={tableVisible} onClick={onToggleTable}>
          {tableVisible ? 'Hide table' : 'Show table'}
        </button>
      </div>

      <div className="dashboard-main" aria-busy={statistics.isFetching}>
        <section className="dashboard-chart-area" aria-label="Chart">
          <div className="dashboard-chart-heading">
            <h2 className="dashboard-chart-title">
              {measureLabels[measure]}, {dateBasisLabels[dateBasis].toLowerCase()}
            </h2>
            <p className="dashboard-muted">{dateBasisDescriptions[dateBasis]}</p>
          </div>
          {empty ? (
            <div className="dashboard-chart-empty" data-testid="statistics-chart-empty">
              <p>{messages.noGraphData}</p>
              <p className="dashboard-muted">
                There were no payments in {currency} for {formatPeriod(period)}.
              </p>
            </div>
          ) : (
            chartData && (
              <StatisticsChart
                data={chartData}
                label={chartLabel}
                onOpen={(index, beside) => {
                  const point = response.datapoints[index];
                  if (point) openTransactions(point, beside);
                }}
              />
            )
          )}
          <StatisticsTable
            caption={caption}
            datapoints={response.datapoints}
            compared={comparedResponse?.datapoints ?? null}
            measure={measure}
            currency={currency}
            unit={response.bucket.unit}
            step={response.bucket.step}
            timeZone={response.timeZone}
            visible={tableVisible}
            linkOf={transactionsLinkOf}
            comparedLabel={compareLabels[view.compareWith ?? 'year']}
          />
        </section>
        <TotalsPanel
          totals={totalsOf(response.datapoints)}
          compared={comparedResponse ? totalsOf(comparedResponse.datapoints) : null}
          comparedLabel={compareLabels[view.compareWith ?? 'year']}
          currency={currency}
          measure={measure}
          onSelect={setMeasure}
        />
      </div>

      {settled && response.datapoints.length > 0 ? (
        <Suspense fallback={null}>
          <BreakdownTable
            context={context}
            period={period}
            currency={currency}
            range={{ startDate: response.datapoints[0]?.startDate ?? '', endDate: response.datapoints.at(-1)?.endDate ?? '' }}
          />
        </Suspense>
      ) : null}

      {figuresShown ? (
        <Suspense fallback={null}>
          <DeclinesPanel context={context} period={period} currency={currency} />
        </Suspense>
      ) : null}
    </>
  );
}
