// Claiming work from a table every node's worker shares (the bulk jobs, the mail outbox, the report queue): in one
// short transaction the first claimable row in the caller's order (queued, or held under a lease that lapsed or whose
// holder is gone) is locked FOR UPDATE SKIP LOCKED, so two nodes never take one row and neither waits for the other,
// and is marked claimed: the caller's status and lease (owner and expiry), attempts + 1. What differs between the
// queues is the caller's: which rows are claimable, the order (oldest first, fair between users), what a claim resets,
// when a row has spent its attempts. No clock is read here: every instant compared with or written is in the SQL the
// caller hands over (server/clock.ts's sqlNow, or a round's own `now`), so tests that move the clock move it here too.
import { eq, type SQL, sql } from 'drizzle-orm';
import type { PgColumn, PgTable, PgUpdateSetSource, SelectedFields } from 'drizzle-orm/pg-core';
import type { SelectResultFields } from 'drizzle-orm/query-builders/select.types';
import type { Db } from '../db/client.ts';

type OrderBy = PgColumn | SQL | SQL.Aliased;

/** The rows that may be taken: which, in what order, at most how many. */
type Claimable<T extends PgTable, F extends SelectedFields> = {
  table: T;
  /** the columns read of each row (getTableColumns(table) for whole rows) */
  columns: F;
  /** queued, or held under a lease that lapsed: the caller's condition, its instants included */
  where: SQL | undefined;
  /** first taken first: oldest first, and any fairness between owners */
  order: OrderBy[];
  /** one unless given */
  limit?: number;
};

/**
 * The first `limit` claimable rows, locked FOR UPDATE SKIP LOCKED inside the caller's transaction: rows another
 * transaction holds are passed over, never waited for. The locks last until that transaction ends.
 */
export async function lockClaimable<T extends PgTable, F extends SelectedFields>(tx: Db, pick: Claimable<T, F>): Promise<SelectResultFields<F>[]> {
  const rows = await tx
    .select(pick.columns as SelectedFields)
    .from(pick.table as PgTable)
    .where(pick.where)
    .orderBy(...pick.order)
    .limit(pick.limit ?? 1)
    .for('update', { skipLocked: true });
  return rows as SelectResultFields<F>[];
}

/** A table claimed under a lease: its rows have an id, a status, a count of attempts, the lease's holder and end. */
type LeasedTable = PgTable & { id: PgColumn; status: PgColumn; attempts: PgColumn; lockedBy: PgColumn; lockedUntil: PgColumn };

type ClaimOutcome<Row, Candidate> =
  /** the row as claimed (attempts already counted), and the candidate as it was before */
  | { kind: 'claimed'; row: Row; candidate: Candidate }
  /** the candidate had spent its attempts and was ended with `giveUp`'s columns instead */
  | { kind: 'gaveUp'; candidate: Candidate }
  /** nothing claimable now (or only rows other nodes hold) */
  | { kind: 'none' };

type ClaimNext<T extends LeasedTable, F extends SelectedFields> = Omit<Claimable<T, F>, 'limit'> & {
  db: Db;
  /** the status of a row taken */
  status: NoInfer<T['$inferSelect']['status']>;
  /** the node taking it, and the lease's end: asked for once the row is locked, so the lease runs from the claim */
  lease: { owner: string; until: () => SQL<Date> };
  /** columns a claim also sets (progress of an earlier attempt cleared) */
  reset?: PgUpdateSetSource<NoInfer<T>>;
  /** the columns that end a candidate that may not be tried again (its attempts spent), or null to claim it */
  giveUp?: NoInfer<(candidate: SelectResultFields<F>) => PgUpdateSetSource<T> | null>;
  /** in the claim's transaction, once the row is claimed (an event for the live views) */
  claimed?: (tx: Db, row: T['$inferSelect']) => Promise<unknown>;
};

/** Takes the first claimable row (see the top of this file), in one short transaction. */
export async function claimNext<T extends LeasedTable, F extends SelectedFields & { id: PgColumn }>(
  options: ClaimNext<T, F>,
): Promise<ClaimOutcome<T['$inferSelect'], SelectResultFields<F>>> {
  const { db, table } = options;
  return db.transaction(async (tx) => {
    const [candidate] = await lockClaimable(tx, options);
    if (!candidate) return { kind: 'none' } as const;
    const id = (candidate as Record<string, unknown>).id;
    const ended = options.giveUp?.(candidate) ?? null;
    if (ended) {
      await tx.update(table).set(ended).where(eq(table.id, id));
      return { kind: 'gaveUp', candidate } as const;
    }
    const [row] = (await tx
      .update(table)
      .set({
        ...options.reset,
        status: options.status,
        attempts: sql`${table.attempts} + 1`,
        lockedBy: options.lease.owner,
        lockedUntil: options.lease.until(),
      } as PgUpdateSetSource<T>)
      .where(eq(table.id, id))
      .returning()) as T['$inferSelect'][];
    if (!row) return { kind: 'none' } as const;
    await options.claimed?.(tx, row);
    return { kind: 'claimed', row, candidate } as const;
  });
}
