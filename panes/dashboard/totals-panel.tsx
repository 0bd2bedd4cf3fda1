// The period's totals beside the chart, one per data type, each with its change against the compared period.
// Choosing a total charts that data type.
import {
  changeAgainst,
  shownMeasures,
  type DashboardMeasure,
  type DashboardTotals,
  measureDescriptions,
  measureLabels,
} from '../../src/contract/dashboard-intervals.ts';
import { formatChange, formatMeasure } from './dashboard-format.ts';

export type TotalsPanelProps = {
  totals: DashboardTotals;
  compared: DashboardTotals | null;
  currency: string;
  measure: DashboardMeasure;
  onSelect: (measure: DashboardMeasure) => void;
  /** what the compared figures are: 'a year earlier', 'the previous period', 'a week earlier' */
  comparedLabel?: string;
};

export function TotalsPanel({ totals, compared, currency, measure, onSelect, comparedLabel = 'a year earlier' }: TotalsPanelProps) {
  return (
    <section className="dashboard-totals" aria-labelledby="dashboard-totals-title">
      <h2 id="dashboard-totals-title" className="visually-hidden">
        Totals for the period
      </h2>
      <ul>
        {shownMeasures.map((name) => {
          const change = compared ? changeAgainst(totals[name], compared[name]) : null;
          const direction = change === null || change === 0 ? 'flat' : change > 0 ? 'up' : 'down';
          return (
            <li key={name}>
              <button type="button" className="dashboard-total" aria-pressed={name === measure} onClick={() => onSelect(name)}>
                <span className="dashboard-total-label">{measureLabels[name]}</span>{' '}
                <span className="dashboard-total-value">{formatMeasure(totals[name], name, currency)}</span>{' '}
                {compared && (
                  <span className={`dashboard-total-change dashboard-total-change-${direction}`}>
                    {formatChange(change)} <span className="visually-hidden">against</span>{' '}
                    <span className="dashboard-total-before">
                      {formatMeasure(compared[name], name, currency)} {comparedLabel}
                    </span>
                  </span>
                )}{' '}
                <span className="dashboard-total-definition">{measureDescriptions[name]}.</span>
              </button>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
