// Data from before the vault: transactions that still hold a full card number in clear (transactions.card_number,
// `legacyCardNumber` in the schema). At start, after the migrations, each such row's card is vaulted, the row gets
// its token and the clear number is erased, a batch per database transaction, until none is left.
//
// Safe to run again (a run that finds nothing does nothing) and from several nodes at once: each batch holds a
// transaction-scoped advisory lock, so batches of two nodes take turns and never vault the same card together;
// a node that dies mid-batch leaves it untouched (rolled back) for the next run.
import { and, asc, gt, isNotNull, sql } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import { transactions } from '../db/schema.ts';
import { replaceClearCardNumbers } from '../payments/card-columns.ts';
import type { CardKeys } from './card-keys.ts';
import { isCardNumber, maskCardNumber } from './card-seal.ts';
import { vaultCard } from './card-vault.ts';

const t = transactions;
/** Held by each batch of this pass and of reseal-previous-keys.ts: one writer of the vault's start passes at a time. */
export const legacyLockKey = 7_270_002;

export type SealLegacyOptions = {
  /** rows per database transaction */
  batchSize?: number;
  log?: (line: string) => void;
};

export type SealLegacyResult = { rows: number; cards: number; batches: number };

export async function sealLegacyCardNumbers(database: Database, keys: CardKeys, options: SealLegacyOptions = {}): Promise<SealLegacyResult> {
  const batchSize = options.batchSize ?? 2000;
  const result: SealLegacyResult = { rows: 0, cards: 0, batches: 0 };
  // Tokens already known in this run: the same card recurs across batches.
  const tokens = new Map<string, string>();
  // Batches walk the primary key: a batch reads its own rows, not again every row an earlier batch cleared. Nothing
  // writes a clear number any more, so every row behind the cursor was cleared (here or by another node).
  let after: string | null = null;
  for (;;) {
    const done = await database.db.transaction(async (tx) => {
      await tx.execute(sql`SELECT pg_advisory_xact_lock(${sql.raw(String(legacyLockKey))})`);
      const rows = await tx
        .select({ reference: t.reference, merchantId: t.merchantId, cardNumber: t.legacyCardNumber, cardMasked: t.cardMasked })
        .from(t)
        .where(and(isNotNull(t.legacyCardNumber), after === null ? undefined : gt(t.reference, after)))
        .orderBy(asc(t.reference))
        .limit(batchSize)
        .for('update');
      if (rows.length === 0) return true;
      after = rows[rows.length - 1]?.reference ?? after;
      // Cards in a fixed order, so two writers of the vault always lock its rows in the same order.
      const byCard = new Map<string, { merchantId: string; cardNumber: string }>();
      const assignments: { reference: string; card: string | null; masked: string | null }[] = [];
      for (const row of rows) {
        const cardNumber = (row.cardNumber ?? '').replace(/[\s-]/g, '');
        // Not a card number at all (never written by this portal): nothing to vault, and it must not stay in clear.
        if (!isCardNumber(cardNumber)) {
          assignments.push({ reference: row.reference, card: null, masked: null });
          continue;
        }
        const key = `${row.merchantId}\u0000${cardNumber}`;
        byCard.set(key, { merchantId: row.merchantId, cardNumber });
        assignments.push({ reference: row.reference, card: key, masked: row.cardMasked ?? maskCardNumber(cardNumber) });
      }
      for (const key of [...byCard.keys()].sort()) {
        if (tokens.has(key)) continue;
        tokens.set(key, await vaultCard(tx, keys, byCard.get(key) as { merchantId: string; cardNumber: string }));
        result.cards += 1;
      }
      // One statement for the batch: each row gets its token (and a mask if it had none) and loses the number. The
      // parameter holds references, tokens and masks, never a number.
      const updates = assignments.map(({ reference, card, masked }) => ({ reference, token: card === null ? null : (tokens.get(card) ?? null), masked }));
      await replaceClearCardNumbers(tx, updates);
      const unusable = updates.filter((update) => update.token === null).length;
      if (unusable > 0) options.log?.(`${unusable} stored card numbers were not card numbers; erased without vaulting`);
      result.rows += rows.length;
      result.batches += 1;
      return false;
    });
    if (done) break;
  }
  // The batches rewrote those rows: fresh statistics and a visibility map again for the overview's index-only counts
  // (PGlite has no autovacuum).
  if (result.rows > 0) await database.query('VACUUM (ANALYZE) transactions');
  if (result.rows > 0)
    options.log?.(
      `sealed ${result.rows.toLocaleString('en-GB')} clear card numbers into the vault (${result.cards.toLocaleString('en-GB')} cards, ${result.batches} batches)`,
    );
  return result;
}
