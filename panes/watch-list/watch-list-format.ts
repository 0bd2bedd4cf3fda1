// What the watch list shows of a signal, in words and figures.

export { watchSignalText as signalText } from '../../src/contract/watch-list.ts';

/** The transactions overview filtered to the merchant's recent window: the triggering transactions. */
export function triggeringTransactionsPath(merchantId: string, today: Date, days = 7): string {
  const since = new Date(today.getTime() - (days - 1) * 86_400_000).toISOString().slice(0, 10);
  const query = new URLSearchParams({ merchantid: `[eq]${merchantId}`, date: `[gte]${since}` });
  return `/transactions?${query.toString()}`;
}
