// The chart: lightweight-charts, loaded on first use (it is not part of the first load, nor of this pane's own
// chunk). Times are the buckets' real instants; every label is formatted en-GB in the zone the server bucketed
// in, so a 25-hour day shows its repeated hour twice. The canvas is hidden from screen readers: the table
// beside it (statistics-table.tsx) carries the same numbers.
//
// The drawing is an image (role="img", named by the label), and an image must hold nothing focusable (axe
// nested-interactive): the library's own attribution logo is a link inside its drawing, so it is switched off and
// the attribution the library's licence asks for is a link of ours beside the image, reachable by keyboard.
import type { Time, UTCTimestamp } from 'lightweight-charts';
import { useEffect, useRef, useState } from 'react';
import type { BucketUnit, ChartType, DashboardMeasure } from '../../src/contract/dashboard-intervals.ts';
import { formatBucket, formatDisplayValue } from './dashboard-format.ts';

export type ChartPoint = { start: Date; end: Date; value: number };
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

export function StatisticsChart({ data, label }: { data: ChartData; label: string }) {
  const container = useRef<HTMLDivElement>(null);
  const chart = useRef<ChartApi | null>(null);
  const [failed, setFailed] = useState(false);
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
    const create = () => loadCharts().then((charts) => {
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
    }).catch(() => {
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

  if (failed) return <p className="dashboard-chart-failed">The chart could not be loaded. The table below has the same figures.</p>;
  return (
    <div className="dashboard-chart-frame">
      <div ref={container} className="dashboard-chart" role="img" aria-label={label} data-testid="statistics-chart" />
      <a className="dashboard-chart-attribution" href="https://www.tradingview.com/" target="_blank" rel="noopener noreferrer">Charting by TradingView</a>
    </div>
  );
}

const seriesOf = new WeakMap<ChartApi, { remove: () => void }>();

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
  const current = data.chartType === 'bar'
    ? api.addSeries(charts.HistogramSeries, { color: colours.current, priceLineVisible: false, lastValueVisible: false, title: '' })
    : api.addSeries(charts.LineSeries, { color: colours.current, lineWidth: 2, priceLineVisible: false, lastValueVisible: false, pointMarkersVisible: data.points.length <= 31 });
  current.setData(data.points.map((point) => ({ time: seconds(point.start), value: point.value })));
  const compared = data.compared
    ? api.addSeries(charts.LineSeries, { color: colours.compared, lineWidth: 2, lineStyle: charts.LineStyle.Dashed, priceLineVisible: false, lastValueVisible: false })
    : null;
  compared?.setData(data.points.flatMap((point, index) => {
    const value = data.compared?.[index];
    return value === undefined ? [] : [{ time: seconds(point.start), value }];
  }));
  api.timeScale().fitContent();
  seriesOf.set(api, {
    remove: () => {
      api.removeSeries(current);
      if (compared) api.removeSeries(compared);
    },
  });
}
