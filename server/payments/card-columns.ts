// The card columns of payments rows, written for the card vault's start pass (server/cards/seal-legacy.ts): a row
// that still holds a clear card number gets its vault token (and a masked number if it had none) and loses the
// number. Only card columns change, never an amount or a status, so no statistics, ledger or step moves; it lives
// here because every write to the transactions table does (docs/architecture.md, "Money moves through one door").
import { sql } from 'drizzle-orm';
import { transactions } from '../db/schema.ts';
import type { DbWriter } from '../db/client.ts';

export type CardColumns = { reference: string; token: string | null; masked: string | null };

/** One statement for the batch; the parameter holds references, tokens and masks, never a number. */
export async function replaceClearCardNumbers(tx: DbWriter, rows: readonly CardColumns[]): Promise<void> {
  if (rows.length === 0) return;
  const t = transactions;
  await tx.execute(sql`UPDATE ${t} SET card_token = v.token, card_number = NULL, card_masked = coalesce(${t.cardMasked}, v.masked)
    FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS v(reference text, token text, masked text)
    WHERE ${t.reference} = v.reference`);
}
