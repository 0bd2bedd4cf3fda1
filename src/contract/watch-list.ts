// The account watch list: the signals, THE table of thresholds, entry statuses and the list spec.
// Schemas (arktype) in watch-list-schemas.ts.
import type { ListQuerySpec } from './list-query.ts';

export const watchSignals = ['chargebackProxy', 'refundRatio', 'declineSpike', 'volumeChange', 'cardTesting'] as const;
export type WatchSignal = (typeof watchSignals)[number];

/**
 * Every threshold of the watch list, in one place (README, Decisions). Windows are whole UTC days ending today.
 * chargebackProxy stands in for the chargeback (reversal) ratio until reversals exist: refunds plus declines
 * over payments.
 */
export const watchThresholds = {
  /** (refunds + declined) / payments over the baseline window */
  chargebackProxy: { label: 'Chargeback proxy (refunds and declines)', threshold: 0.4, weight: 30, minimumPayments: 30 },
  /** paid refunds / paid payments over the baseline window */
  refundRatio: { label: 'Refund ratio', threshold: 0.12, weight: 25, minimumPayments: 30 },
  /** decline rate of the recent window ÷ the merchant's own baseline rate (and at least 10 points higher) */
  declineSpike: { label: 'Decline rate spike', threshold: 2, weight: 30, minimumPayments: 15, minimumIncrease: 0.1 },
  /** payments a day in the recent window ÷ a day of the baseline; flagged at ≥ threshold or ≤ 1/threshold */
  volumeChange: { label: 'Sudden volume change', threshold: 3, weight: 20, minimumPayments: 3 },
  /** most declined payments under smallAmountMilli on one day of the recent window, when they are most of its declines */
  cardTesting: { label: 'Card testing (many small declines)', threshold: 15, weight: 40, minimumShare: 0.5, smallAmountMilli: 2_000 },
} as const satisfies Record<WatchSignal, { label: string; threshold: number; weight: number; [extra: string]: string | number }>;

/** Days of the merchant's own baseline, and of the recent window compared against it. */
export const baselineDays = 30;
export const recentDays = 7;
/** Days of daily scores in an entry's trend. */
export const trendDays = 30;
/** A score counts each crossed signal's weight, scaled by how far past its threshold (at most twice), capped at 100. */
export const maxScore = 100;

export const watchEntryStatuses = ['open', 'acknowledged', 'monitoring'] as const;
export type WatchEntryStatusName = (typeof watchEntryStatuses)[number];
export const watchEntryStatusLabels: Record<WatchEntryStatusName, string> = { open: 'Open', acknowledged: 'Acknowledged', monitoring: 'On monitoring' };
/** Spec: score text success-coloured when the status is positive, else danger. Positive: reviewed and accepted. */
export const isPositiveWatchStatus = (status: WatchEntryStatusName) => status === 'acknowledged';

export const watchListSpec: ListQuerySpec = {
  filters: {
    status: { kind: { oneOf: watchEntryStatuses }, operators: ['eq'] },
    score: { kind: 'number', operators: ['gte', 'lte'] },
  },
  sortable: ['score', 'merchant', 'flagged'],
  defaultSort: [{ field: 'score', descending: true }],
};

const percent = (value: number) => `${(value * 100).toFixed(1)}%`;

/** A signal in words and figures (the entry pane, and the description of a ticket it is escalated to). */
export function watchSignalText(signal: WatchSignal, value: number, threshold: number): string {
  const label = watchThresholds[signal].label;
  switch (signal) {
    case 'chargebackProxy':
    case 'refundRatio':
      return `${label}: ${percent(value)} (threshold ${percent(threshold)})`;
    case 'declineSpike':
      return `${label}: ${value.toFixed(1)}× the 30-day baseline (threshold ${threshold}×)`;
    case 'volumeChange':
      return `${label}: ${value.toFixed(2)}× the 30-day baseline (flagged at ${threshold}× or 1/${threshold})`;
    case 'cardTesting':
      return `${label}: ${value} small declines in a day (threshold ${threshold})`;
  }
}
