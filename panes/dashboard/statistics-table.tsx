// The chart's figures as a real table: what a screen reader reads instead of the canvas, and what anyone can
// show on screen. One row per bucket; with compare on, the compared period's value and the change beside it.
import { type DashboardMeasure, changeAgainst, measureLabels } from '../../src/contract/dashboard-intervals.ts';
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
};

export function StatisticsTable({ caption, datapoints, compared, measure, currency, unit, step, timeZone, visible }: StatisticsTableProps) {
  return (
    <table className={visible ? 'dashboard-table' : 'dashboard-table visually-hidden'}>
      <caption>{caption}</caption>
      <thead>
        <tr>
          <th scope="col">{unit === 'hour' ? 'Hour' : unit === 'month' ? 'Month' : 'Day'}</th>
          <th scope="col">{measureLabels[measure]}</th>
          {compared && <th scope="col">A year earlier</th>}
          {compared && <th scope="col">Change</th>}
        </tr>
      </thead>
      <tbody>
        {datapoints.map((point, index) => {
          const before = compared?.[index];
          return (
            <tr key={point.startDate}>
              <th scope="row">{formatBucket(new Date(point.startDate), new Date(point.endDate), unit, step, timeZone, 'full')}</th>
              <td>{formatMeasure(point[measure], measure, currency)}</td>
              {compared && <td>{before ? formatMeasure(before[measure], measure, currency) : '–'}</td>}
              {compared && <td>{before ? formatChange(changeAgainst(point[measure], before[measure])) : '–'}</td>}
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
