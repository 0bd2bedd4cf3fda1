// The second half of a key rotation: vault rows sealed with a previous key (CARD_DATA_PREVIOUS_KEYS) are opened and
// sealed again with the current one, their fingerprint recomputed under it, a batch per database transaction.
// Run at start after the legacy pass; once no row names a previous key, that key can be removed.
//
// Same safety as seal-legacy.ts: the same transaction-scoped advisory lock per batch, so nodes take turns; a batch
// that fails is rolled back and taken again at the next start. Rows of a key that is not configured at all cannot
// be opened: they are counted and left alone.
import { and, count, eq, inArray, ne, notInArray, sql } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import { cardVault } from '../db/schema.ts';
import type { CardKeys } from './card-keys.ts';
import { cardFingerprints, openCardNumber, sealCardNumber } from './card-seal.ts';
import { legacyLockKey } from './seal-legacy.ts';

const v = cardVault;

export type ResealResult = { resealed: number; unopenable: number };

export async function resealPreviousKeys(
  database: Database,
  keys: CardKeys,
  options: { batchSize?: number; log?: (line: string) => void } = {},
): Promise<ResealResult> {
  const batchSize = options.batchSize ?? 500;
  const previousIds = keys.previous.map((key) => key.id);
  let resealed = 0;
  // A card vaulted twice for one merchant (only if a previous key was dropped and brought back in between) keeps
  // its older row under the previous key rather than breaking the unique fingerprint.
  const duplicates: string[] = [];
  while (previousIds.length > 0) {
    const done = await database.db.transaction(async (tx) => {
      await tx.execute(sql`SELECT pg_advisory_xact_lock(${sql.raw(String(legacyLockKey))})`);
      const rows = await tx
        .select()
        .from(v)
        .where(and(inArray(v.keyId, previousIds), duplicates.length ? notInArray(v.token, duplicates) : undefined))
        .limit(batchSize)
        .for('update');
      for (const row of rows) {
        const cardNumber = openCardNumber(keys, row);
        const fingerprint = cardFingerprints(keys, row.merchantId, cardNumber)[0] as string;
        const [twin] = await tx
          .select({ token: v.token })
          .from(v)
          .where(and(eq(v.merchantId, row.merchantId), eq(v.fingerprint, fingerprint), ne(v.token, row.token)));
        if (twin) {
          duplicates.push(row.token);
          continue;
        }
        await tx
          .update(v)
          .set({ fingerprint, ...sealCardNumber(keys, row.token, cardNumber) })
          .where(eq(v.token, row.token));
        resealed += 1;
      }
      return rows.length === 0;
    });
    if (done) break;
  }
  const [left] = await database.db
    .select({ n: count() })
    .from(v)
    .where(notInArray(v.keyId, [keys.current.id, ...previousIds]));
  const unopenable = Number(left?.n ?? 0);
  if (resealed > 0)
    options.log?.(
      `sealed ${resealed.toLocaleString('en-GB')} vaulted cards again with card data key ${keys.current.id}${duplicates.length ? '' : ': the previous keys are no longer needed'}`,
    );
  if (duplicates.length > 0) options.log?.(`${duplicates.length} vaulted cards stay under a previous key: the same card has a newer row`);
  if (unopenable > 0)
    options.log?.(
      `${unopenable.toLocaleString('en-GB')} vaulted cards are sealed with a key that is neither CARD_DATA_KEY nor one of CARD_DATA_PREVIOUS_KEYS: they cannot be revealed`,
    );
  return { resealed, unopenable };
}
