// Test-only writers of the transactions table: fixtures that need rows the domain would make (a payment paid, a
// refund settled) without going through an action. Production code commits every change through server/payments/
// (commitPaymentChange); these keep the statistics in step the same way, so fixtures stay consistent with them.
import { eq } from 'drizzle-orm';
import { transactions } from '../../server/db/schema.ts';
import { recordTransactionChanges, toStatsTransaction, type NewTransactionRow, type TransactionRow } from '../../server/stats/record-transaction.ts';
import type { DbWriter } from '../../server/db/client.ts';

/** Inserts transactions (payments before the refunds of them) and records them in the statistics. */
export async function insertTransactions(writer: DbWriter, rows: readonly NewTransactionRow[]): Promise<void> {
  if (rows.length === 0) return;
  await writer.insert(transactions).values([...rows]);
  await recordTransactionChanges(
    writer,
    rows.map((row) => ({ before: null, after: toStatsTransaction(row) })),
  );
}

export type TransactionPatch = Partial<Pick<TransactionRow, 'status' | 'declineReason' | 'amountMinor'>>;

/**
 * Changes a transaction (a payment paid, declined or cancelled; a refund settled) and its statistics. The row is
 * locked first so that two concurrent changes apply one after the other. Null when there is no such transaction.
 */
export async function updateTransaction(writer: DbWriter, reference: string, patch: TransactionPatch): Promise<TransactionRow | null> {
  const [before] = await writer.select().from(transactions).where(eq(transactions.reference, reference)).for('update');
  if (!before) return null;
  const [after] = await writer.update(transactions).set(patch).where(eq(transactions.reference, reference)).returning();
  if (!after) return null;
  await recordTransactionChanges(writer, [{ before: toStatsTransaction(before), after: toStatsTransaction(after) }]);
  return after;
}
