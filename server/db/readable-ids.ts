// Ids a person reads aloud on the phone (TCK00041, USR00043): a prefix and a zero-padded number from a database
// sequence, in the same format as the seed's. nextval() never hands one number to two callers, whatever their
// transactions do (PGlite and PostgreSQL alike), so concurrent creations never collide.
import { eq, sql } from 'drizzle-orm';
import type { AnyPgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Db } from './client.ts';

/** A readable id kind: its sequence (server/db/schema.ts), prefix and least number of digits. */
export type ReadableIdKind = {
  sequence: 'ticket_number_seq' | 'user_number_seq';
  prefix: string;
  digits: number;
  /** the table and id column a number may already be taken in */
  table: PgTable;
  column: AnyPgColumn;
};

export const readableIdOf = (kind: Pick<ReadableIdKind, 'prefix' | 'digits'>, n: number) => `${kind.prefix}${String(n).padStart(kind.digits, '0')}`;

/**
 * The next id of a kind. A number already taken by a row written another way (the seed, an import, an old database)
 * is skipped: the migrations and the seed set each sequence past the numbers they wrote, so this is a safety net.
 */
export async function nextReadableId(tx: Db, kind: ReadableIdKind): Promise<string> {
  for (let attempt = 0; attempt < 1000; attempt += 1) {
    const result = await tx.execute<{ n: string | number }>(sql`SELECT nextval(${kind.sequence}::regclass) AS n`);
    const rows = Array.isArray(result) ? result : (result as { rows: { n: string | number }[] }).rows;
    const id = readableIdOf(kind, Number(rows[0]?.n));
    const [taken] = await tx.select({ id: kind.column }).from(kind.table).where(eq(kind.column, id));
    if (!taken) return id;
  }
  throw new Error(`no free ${kind.prefix} number`);
}
