// The acquirer's side of refunds, simulated (there is no acquirer to talk to): a refund still requested after
// REQUESTED_FOR_MS is sent (processing; from then on it can no longer be cancelled), and one processing for
// PROCESSING_FOR_MS is answered (completed, which takes its amount off the revenue in the statistics). Each step
// goes through the one door (advanceRefund), which re-checks the state under the job's lock, so any number of nodes
// may run it.
import { and, asc, eq, lte } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import { paymentRefunds } from '../db/schema.ts';
import { advanceRefund } from './payment-operations.ts';

export type RefundProcessorOptions = { requestedForMs: number; processingForMs: number; batchSize?: number };
export const defaultRefundTimings: RefundProcessorOptions = { requestedForMs: 10 * 60_000, processingForMs: 2 * 60_000 };

/**
 * Moves the refunds that are due one step on; returns how many moved. The candidates are read without a lock: each
 * step then locks the job first, as every action does (so the two never wait on each other in opposite orders), and
 * re-checks the refund's state under that lock, so two nodes passing at once move a refund once.
 */
export async function processDueRefunds(database: Database, now: Date, options: RefundProcessorOptions = defaultRefundTimings): Promise<number> {
  let moved = 0;
  for (const [from, to, waitMs] of [
    ['requested', 'processing', options.requestedForMs],
    ['processing', 'completed', options.processingForMs],
  ] as const) {
    const due = await database.db
      .select({ refundId: paymentRefunds.refundId })
      .from(paymentRefunds)
      .where(and(eq(paymentRefunds.status, from), lte(paymentRefunds.updatedAt, new Date(now.getTime() - waitMs))))
      .orderBy(asc(paymentRefunds.updatedAt))
      .limit(options.batchSize ?? 200);
    for (const { refundId } of due) {
      if (await database.db.transaction((tx) => advanceRefund(tx, refundId, to, now))) moved += 1;
    }
  }
  return moved;
}

/** Runs processDueRefunds every pollMs; stop() waits for a running pass. */
export function startRefundProcessor(database: Database, options: { pollMs: number; log?: (line: string) => void } & Partial<RefundProcessorOptions>) {
  let running: Promise<unknown> = Promise.resolve();
  let stopped = false;
  const timings = { ...defaultRefundTimings, ...options };
  const timer = setInterval(() => {
    if (stopped) return;
    running = running
      .then(() => processDueRefunds(database, new Date(), timings))
      .then((moved) => {
        if (moved > 0) options.log?.(`${moved} refund step${moved === 1 ? '' : 's'} answered by the (simulated) acquirer`);
      })
      .catch((error: unknown) => options.log?.(`refund processor: ${error instanceof Error ? error.message : String(error)}`));
  }, options.pollMs);
  timer.unref?.();
  return {
    stop: async () => {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}
