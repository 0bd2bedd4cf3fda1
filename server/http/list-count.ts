// Counting a list without waiting on it: a capped exact count, statements with a time budget on PostgreSQL, and the
// planner's row estimate when the budget runs out (the transactions overview, server/transactions/list.ts, and the
// payment jobs overview, server/api/payment-jobs.ts).
import { sql, type SQL } from 'drizzle-orm';
import type { Database, Db } from '../db/client.ts';

/** A count visits at most this many matching rows (plus one) before it is called 'more than'. */
export const exactCountLimit = 10_000;

/** How long the capped count may take on PostgreSQL before the planner's estimate stands in for it. */
export const countBudgetMs = 60;

/**
 * Runs statements that PostgreSQL cancels after ms: on the database's budgeted connections (one round trip each), or,
 * for a Database without them, in a transaction that sets statement_timeout locally.
 */
export async function withStatementBudget<T>(database: Database, ms: number, run: (db: Db) => Promise<T>): Promise<T> {
  if (database.budgeted) return run(database.budgeted(ms));
  return database.db.transaction(async (tx) => {
    await tx.execute(sql`SELECT set_config('statement_timeout', ${String(ms)}, true)`);
    return run(tx as unknown as Db);
  });
}

export const isStatementTimeout = (error: unknown): boolean => {
  const cause = error as { cause?: { code?: string }; code?: string } | null;
  return cause?.code === '57014' || cause?.cause?.code === '57014';
};

export async function plannerEstimate(db: Db, query: { getSQL: () => SQL }): Promise<number> {
  const result = (await db.execute(sql`EXPLAIN (FORMAT JSON) ${query}`)) as unknown as { rows: Record<string, unknown>[] };
  const cell = result.rows[0]?.['QUERY PLAN'];
  const plan = (typeof cell === 'string' ? JSON.parse(cell) : cell) as { Plan?: { 'Plan Rows'?: number } }[] | undefined;
  return Math.round(plan?.[0]?.Plan?.['Plan Rows'] ?? 0);
}
