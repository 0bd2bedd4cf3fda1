// The settlement day's end, on any node: every few minutes one transaction closes the batches whose business day has
// ended (each business's own midnight, periods.ts), pays the business remittances that are due and invoices the monthly
// minimums of months that have ended in the business's zone. The ledger's advisory
// lock serialises nodes and every posting is idempotent, so nodes running it together post once.
import { now as clockNow } from '../clock.ts';
import type { Database } from '../db/client.ts';
import { closeDueBatches, payBusinessRemittances, postMonthlyMinimums } from './close-batches.ts';
import { addMonthsTo } from './periods.ts';

export type SettlementJob = { stop: () => Promise<void>; runOnce: () => Promise<void> };

export function startSettlementJob(database: Database, options: { everyMs?: number; log?: (line: string) => void } = {}): SettlementJob {
  const log = options.log ?? (() => undefined);
  let running: Promise<void> | null = null;
  const runOnce = async () => {
    const now = clockNow();
    await database.db.transaction(async (tx) => {
      // Live runs look back a bounded way: holds of the last 400 days (no reserve lasts longer), minimums of the last
      // two months (from the start of a month, so the fees are whole); the seed runs them over everything.
      const closed = await closeDueBatches(tx, now, undefined, { holdsSince: new Date(now.getTime() - 400 * 86_400_000) });
      const remitted = await payBusinessRemittances(tx, now);
      await postMonthlyMinimums(tx, now, { fromMonth: addMonthsTo(now.toISOString().slice(0, 7), -2) });
      if (closed + remitted > 0) log(`closed ${closed} settlement batches, paid ${remitted} remittances`);
    });
  };
  const tick = () => {
    running ??= runOnce()
      .catch((error: unknown) => log(`settlement cut-off failed: ${error instanceof Error ? error.message : String(error)}`))
      .finally(() => {
        running = null;
      });
  };
  const timer = setInterval(tick, options.everyMs ?? 5 * 60_000);
  timer.unref();
  setTimeout(tick, 30_000).unref();
  return {
    runOnce,
    stop: async () => {
      clearInterval(timer);
      await running;
    },
  };
}
