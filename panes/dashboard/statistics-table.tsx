// The chart's figures as a real table: what a screen reader reads instead of the canvas, and what anyone can
// show on screen. One row per bucket; with compare on, the compared period's value and the change beside it.
import { type DashboardMeasure, changeAgainst, measureDescriptions, measureLabels } from '../../src/contract/dashboard-intervals.ts';
import type { Datapoint } from '../../src/contract/dashboard.ts';
import { formatBucket, formatChange, formatMeasure } from './dashboard-format.ts';

export type StatisticsTableProps = {
  caption: string;
  datapoints: readonly Datapoint[];
  compared: readonly Datapoint[] | null;
  measure: DashboardMeasure;
  currency: string;
  unit: 'hour' | 'day' | 'month';
  step: number;
  timeZone: string;
  visible: boolean;
  /** the overview of a row's transactions; Enter opens it, Shift+Enter beside */
  linkOf?: (point: Datapoint) => string;
  /** now: later buckets have no data yet (not zero) */
  now?: number;
  comparedLabel?: string;
};

export function StatisticsTable({
  caption,
  datapoints,
  compared,
  measure,
  currency,
  unit,
  step,
  timeZone,
  visible,
  linkOf,
  now = Date.now(),
  comparedLabel = 'a year earlier',
}: StatisticsTableProps) {
  return (
    <table className={visible ? 'dashboard-table' : 'dashboard-table visually-hidden'} aria-label={caption}>
      <caption>
        {caption}
        <span className="dashboard-table-definition">
          {' '}
          {measureLabels[measure]}: {measureDescriptions[measure]}.
        </span>
      </caption>
      <thead>
        <tr>
          <th scope="col">{unit === 'hour' ? 'Hour' : unit === 'month' ? 'Month' : 'Day'}</th>
          <th scope="col">{measureLabels[measure]}</th>
          {compared && <th scope="col">{comparedLabel.charAt(0).toUpperCase() + comparedLabel.slice(1)}</th>}
          {compared && <th scope="col">Change</th>}
        </tr>
      </thead>
      <tbody>
        {datapoints.map((point, index) => {
          const before = compared?.[index];
          const label = formatBucket(new Date(point.startDate), new Date(point.endDate), unit, step, timeZone, 'full');
          const future = Date.parse(point.startDate) > now;
          return (
            <tr key={point.startDate}>
              <th scope="row">
                {linkOf && !future ? (
                  <a href={linkOf(point)} aria-label={`${label}: open its transactions`}>
                    {label}
                  </a>
                ) : (
                  label
                )}
              </th>
              <td>{future ? 'No data yet' : formatMeasure(point[measure], measure, currency)}</td>
              {compared && <td>{before ? formatMeasure(before[measure], measure, currency) : '–'}</td>}
              {compared && <td>{before ? formatChange(changeAgainst(point[measure], before[measure])) : '–'}</td>}
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
