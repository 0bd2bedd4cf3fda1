// What the watch list shows of a signal, in words and figures.
import { watchThresholds, type WatchSignal } from '../../src/contract/watch-list.ts';

const percent = (value: number) => `${(value * 100).toFixed(1)}%`;

export function signalText(signal: WatchSignal, value: number, threshold: number): string {
  const label = watchThresholds[signal].label;
  switch (signal) {
    case 'chargebackProxy':
    case 'refundRatio': return `${label}: ${percent(value)} (threshold ${percent(threshold)})`;
    case 'declineSpike': return `${label}: ${value.toFixed(1)}× the 30-day baseline (threshold ${threshold}×)`;
    case 'volumeChange': return `${label}: ${value.toFixed(2)}× the 30-day baseline (flagged at ${threshold}× or 1/${threshold})`;
    case 'cardTesting': return `${label}: ${value} small declines in a day (threshold ${threshold})`;
  }
}

/** The transactions overview filtered to the merchant's recent window: the triggering transactions. */
export function triggeringTransactionsPath(merchantId: string, today: Date, days = 7): string {
  const since = new Date(today.getTime() - (days - 1) * 86_400_000).toISOString().slice(0, 10);
  const query = new URLSearchParams({ merchantid: `[eq]${merchantId}`, date: `[gte]${since}` });
  return `/transactions?${query.toString()}`;
}
