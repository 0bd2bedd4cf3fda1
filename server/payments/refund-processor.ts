// The acquirer's side of refunds, simulated (there is no acquirer to talk to): a refund still requested after
// REQUESTED_FOR_MS is sent (processing; from then on it can no longer be cancelled), and one processing for
// PROCESSING_FOR_MS is answered (completed, which takes its amount off the revenue in the statistics). Each step
// goes through the one door (advanceRefund), claimed with FOR UPDATE SKIP LOCKED so any number of nodes may run it.
import { and, asc, eq, lte, sql } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import { paymentRefunds } from '../db/schema.ts';
import { advanceRefund } from './payment-operations.ts';

export type RefundProcessorOptions = { requestedForMs: number; processingForMs: number; batchSize?: number };
export const defaultRefundTimings: RefundProcessorOptions = { requestedForMs: 10 * 60_000, processingForMs: 2 * 60_000 };

/** Moves the refunds that are due one step on; returns how many moved. */
export async function processDueRefunds(database: Database, now: Date, options: RefundProcessorOptions = defaultRefundTimings): Promise<number> {
  let moved = 0;
  for (const [from, to, waitMs] of [['requested', 'processing', options.requestedForMs], ['processing', 'completed', options.processingForMs]] as const) {
    const due = new Date(now.getTime() - waitMs);
    for (;;) {
      const step = await database.db.transaction(async (tx) => {
        const [row] = await tx.select({ refundId: paymentRefunds.refundId }).from(paymentRefunds)
          .where(and(eq(paymentRefunds.status, from), lte(paymentRefunds.updatedAt, due)))
          .orderBy(asc(paymentRefunds.updatedAt)).limit(1).for('update', { skipLocked: true });
        if (!row) return null;
        const advanced = await advanceRefund(tx, row.refundId, to, now);
        // A refund that cannot move (its state changed meanwhile) is marked seen so it is not picked again at once.
        if (!advanced) await tx.update(paymentRefunds).set({ updatedAt: sql`now()` }).where(eq(paymentRefunds.refundId, row.refundId));
        return row.refundId;
      });
      if (step === null) break;
      moved += 1;
      if (moved >= (options.batchSize ?? 200)) return moved;
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
    running = running.then(() => processDueRefunds(database, new Date(), timings)).then((moved) => {
      if (moved > 0) options.log?.(`${moved} refund step${moved === 1 ? '' : 's'} answered by the (simulated) acquirer`);
    }).catch((error: unknown) => options.log?.(`refund processor: ${error instanceof Error ? error.message : String(error)}`));
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
