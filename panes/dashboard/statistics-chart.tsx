// The chart: lightweight-charts, loaded on first use (it is not part of the first load, nor of this pane's own
// chunk). Times are the buckets' real instants; every label is formatted en-GB in the zone the server bucketed
// in, so a 25-hour day shows its repeated hour twice. The canvas is hidden from screen readers: the table
// beside it (statistics-table.tsx) carries the same numbers.
//
// The drawing is an image (role="img", named by the label), and an image must hold nothing focusable (axe
// nested-interactive): the library's own attribution logo is a link inside its drawing, so it is switched off and
// the attribution the library's licence asks for is a link of ours beside the image, reachable by keyboard.
import type { Time, UTCTimestamp } from 'lightweight-charts';
import { type KeyboardEvent as ReactKeyboardEvent, useEffect, useRef, useState } from 'react';
import type { BucketUnit, ChartType, DashboardMeasure } from '../../src/contract/dashboard-intervals.ts';
import { formatBucket, formatDisplayValue } from './dashboard-format.ts';

/** future: a bucket still to come, drawn as 'no data yet' (a gap), never as zero */
export type ChartPoint = { start: Date; end: Date; value: number; future?: boolean };
export type ChartData = {
  chartType: ChartType;
  measure: DashboardMeasure;
  currency: string;
  unit: BucketUnit;
  step: number;
  timeZone: string;
  /** values in display units (major units of money) */
  points: readonly ChartPoint[];
  /** the compared period's values, drawn at the same positions */
  compared: readonly number[] | null;
  /** what the compared values are ('a year earlier' when absent) */
  comparedLabel?: string;
};

type Charts = typeof import('lightweight-charts');
type ChartApi = ReturnType<Charts['createChart']>;

let chartsModule: Promise<Charts> | null = null;
/** The library, imported once, on demand. */
export function loadCharts(): Promise<Charts> {
  chartsModule ??= import('lightweight-charts');
  return chartsModule;
}

const colours = { current: '#4b44d6', compared: '#9a9ca5', grid: '#ececef', text: '#5d616b' };

/** What a bar says when the keyboard reaches it: '2 March 2026: €1,234.00', or 'no data yet'. */
export function announcementOf(data: ChartData, index: number): string {
  const point = data.points[index];
  if (!point) return '';
  const when = formatBucket(point.start, point.end, data.unit, data.step, data.timeZone, 'full');
  const compared = data.compared?.[index];
  const value = point.future ? 'no data yet' : formatDisplayValue(point.value, data.measure, data.currency);
  return `${when}: ${value}${compared !== undefined && !point.future ? `, ${data.comparedLabel ?? 'a year earlier'} ${formatDisplayValue(compared, data.measure, data.currency)}` : ''}`;
}

export function StatisticsChart({ data, label, onOpen }: { data: ChartData; label: string; onOpen?: (index: number, beside: boolean) => void }) {
  const container = useRef<HTMLDivElement>(null);
  const chart = useRef<ChartApi | null>(null);
  const [failed, setFailed] = useState(false);
  // The keyboard's bar: arrows move it (and announce its value), Enter opens its transactions, Shift+Enter beside.
  const [active, setActive] = useState<number | null>(null);
  const latest = useRef(data);
  latest.current = data;

  // The chart object lives outside React: created once, redrawn when the data changes, removed on unmount. The
  // library is asked for only after the figures (totals, table) have painted: they come first, the drawing follows.
  useEffect(() => {
    let cancelled = false;
    let observer: ResizeObserver | null = null;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const frame = requestAnimationFrame(() => {
      timer = setTimeout(() => void create(), 0);
    });
    const create = () =>
      loadCharts()
        .then((charts) => {
          const element = container.current;
          if (cancelled || !element) return;
          chart.current = charts.createChart(element, {
            autoSize: true,
            layout: { background: { color: 'transparent' }, textColor: colours.text, fontFamily: 'system-ui, sans-serif', attributionLogo: false },
            grid: { vertLines: { visible: false }, horzLines: { color: colours.grid } },
            rightPriceScale: { borderVisible: false },
            timeScale: { borderVisible: false, fixLeftEdge: true, fixRightEdge: true, lockVisibleTimeRangeOnResize: true },
            handleScroll: false,
            handleScale: false,
            localization: { locale: 'en-GB' },
          });
          draw(charts, chart.current, latest.current);
          observer = new ResizeObserver(() => chart.current?.timeScale().fitContent());
          observer.observe(element);
        })
        .catch(() => {
          if (!cancelled) setFailed(true);
        });
    return () => {
      cancelled = true;
      cancelAnimationFrame(frame);
      clearTimeout(timer);
      observer?.disconnect();
      chart.current?.remove();
      chart.current = null;
    };
  }, []);

  useEffect(() => {
    if (!chart.current) return;
    void loadCharts().then((charts) => {
      if (chart.current) draw(charts, chart.current, data);
    });
  }, [data]);

  useEffect(() => {
    if (active !== null && active >= data.points.length) setActive(null);
  }, [data, active]);
  // The keyboard's bar is shown as the pointer's would be: the crosshair on it, with its value and date.
  useEffect(() => {
    const api = chart.current;
    const series = api ? seriesOf.get(api) : undefined;
    const point = active === null ? undefined : data.points[active];
    if (!api || !series || active === null) return;
    if (!point || point.future) api.clearCrosshairPosition?.();
    else api.setCrosshairPosition?.(point.value, Math.floor(point.start.getTime() / 1000) as UTCTimestamp, series.current);
  }, [active, data]);

  const onKeyDown = (event: ReactKeyboardEvent<HTMLDivElement>) => {
    const last = data.points.length - 1;
    if (last < 0) return;
    const moves: Record<string, number> = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 };
    let next: number | null = null;
    if (event.key in moves) next = Math.min(last, Math.max(0, (active ?? (moves[event.key] === 1 ? -1 : last + 1)) + (moves[event.key] ?? 0)));
    else if (event.key === 'Home') next = 0;
    else if (event.key === 'End') next = last;
    else if (event.key === 'Enter' && active !== null && onOpen && !data.points[active]?.future) {
      event.preventDefault();
      event.stopPropagation();
      onOpen(active, event.shiftKey);
      return;
    }
    if (next === null) return;
    event.preventDefault();
    event.stopPropagation();
    setActive(next);
  };

  if (failed) return <p className="dashboard-chart-failed">The chart could not be loaded. The table below has the same figures.</p>;
  return (
    <div className="dashboard-chart-frame">
      {/* The keyboard's way into the drawing: a focusable group around the image, its bar announced politely. */}
      <div
        className="dashboard-chart-keys"
        role="group"
        aria-roledescription="chart"
        aria-label={`${label} Arrow keys move between the bars${onOpen ? '; Enter opens the transactions of a bar, Shift+Enter beside' : ''}.`}
        // biome-ignore lint/a11y/noNoninteractiveTabindex: the chart's keyboard way in (see above); it answers the arrow keys and Enter
        tabIndex={0}
        onKeyDown={onKeyDown}
        data-active-bar={active ?? undefined}
      >
        <div ref={container} className="dashboard-chart" role="img" aria-label={label} data-testid="statistics-chart" />
      </div>
      <p className="visually-hidden" aria-live="polite" aria-atomic="true" data-testid="chart-announcement">
        {active === null ? '' : announcementOf(data, active)}
      </p>
      {/* The licence's attribution: a link beside the chart, not a tab stop of it. */}
      <a className="dashboard-chart-attribution" href="https://www.tradingview.com/" target="_blank" rel="noopener noreferrer" tabIndex={-1}>
        Charting by TradingView
      </a>
    </div>
  );
}

const seriesOf = new WeakMap<ChartApi, { remove: () => void; current: Parameters<ChartApi['setCrosshairPosition']>[2] }>();

/** Replaces the chart's series with the data's: the current period as bars or a line, the compared one as a dashed line. */
function draw(charts: Charts, api: ChartApi, data: ChartData): void {
  seriesOf.get(api)?.remove();
  const { unit, step, timeZone, measure, currency } = data;
  const seconds = (date: Date) => Math.floor(date.getTime() / 1000) as UTCTimestamp;
  const byTime = new Map(data.points.map((point) => [seconds(point.start), point]));
  api.applyOptions({
    localization: {
      locale: 'en-GB',
      priceFormatter: (value: number) => formatDisplayValue(value, measure, currency),
      timeFormatter: (time: Time) => {
        const point = byTime.get(time as UTCTimestamp);
        return point ? formatBucket(point.start, point.end, unit, step, timeZone, 'full') : '';
      },
    },
    timeScale: {
      timeVisible: unit === 'hour',
      tickMarkFormatter: (time: Time) => {
        const point = byTime.get(time as UTCTimestamp);
        return point ? formatBucket(point.start, point.end, unit, step, timeZone, 'axis') : null;
      },
    },
  });
  const current =
    data.chartType === 'bar'
      ? api.addSeries(charts.HistogramSeries, { color: colours.current, priceLineVisible: false, lastValueVisible: false, title: '' })
      : api.addSeries(charts.LineSeries, {
          color: colours.current,
          lineWidth: 2,
          priceLineVisible: false,
          lastValueVisible: false,
          pointMarkersVisible: data.points.length <= 31,
        });
  // Days still to come are whitespace: a gap with no bar, never a bar of zero.
  current.setData(data.points.map((point) => (point.future ? { time: seconds(point.start) } : { time: seconds(point.start), value: point.value })));
  const compared = data.compared
    ? api.addSeries(charts.LineSeries, {
        color: colours.compared,
        lineWidth: 2,
        lineStyle: charts.LineStyle.Dashed,
        priceLineVisible: false,
        lastValueVisible: false,
      })
    : null;
  compared?.setData(
    data.points.flatMap((point, index) => {
      const value = data.compared?.[index];
      return value === undefined ? [] : [{ time: seconds(point.start), value }];
    }),
  );
  api.timeScale().fitContent();
  seriesOf.set(api, {
    current,
    remove: () => {
      api.removeSeries(current);
      if (compared) api.removeSeries(compared);
    },
  });
}
