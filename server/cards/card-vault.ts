// The card vault (card_vault): one row per card and merchant, its number sealed (card-seal.ts), found by a keyed
// fingerprint. Transactions hold only the row's token (transactions.card_token).
//
// | call                                        | does                                                          |
// |---------------------------------------------|---------------------------------------------------------------|
// | vaultCard(writer, keys, { merchantId, cardNumber }) | the card's token: the merchant's row with that fingerprint, or a new row |
// | openVaultedCard(reader, keys, token)        | the full number, or null when no row has that token (only the audited reveal calls it) |
import { randomBytes } from 'node:crypto';
import { and, eq, inArray } from 'drizzle-orm';
import { cardVault } from '../db/schema.ts';
import type { CardKeys } from './card-keys.ts';
import { cardFingerprints, isCardNumber, maskCardNumber, openCardNumber, sealCardNumber } from './card-seal.ts';
import type { DbWriter } from '../db/client.ts';

/** The database or, as it should be, the transaction that writes the card's transaction. */

/** A card number the vault does not take; the message never holds the number. */
export class CardNumberRejected extends Error {}

/**
 * A new token: 'CV' and 20 hex digits (80 random bits). The seed's tokens have 10 (seed-bulk.ts), so the two never
 * meet.
 */
export const newCardToken = () => `CV${randomBytes(10).toString('hex').toUpperCase()}`;

export async function vaultCard(writer: DbWriter, keys: CardKeys, card: { merchantId: string; cardNumber: string }): Promise<string> {
  const { merchantId, cardNumber } = card;
  if (!isCardNumber(cardNumber)) throw new CardNumberRejected(`a card number has 12 to 19 digits and nothing else (merchant ${merchantId})`);
  const fingerprints = cardFingerprints(keys, merchantId, cardNumber);
  const find = async () =>
    (
      await writer
        .select({ token: cardVault.token })
        .from(cardVault)
        .where(and(eq(cardVault.merchantId, merchantId), inArray(cardVault.fingerprint, fingerprints)))
        .limit(1)
    )[0]?.token;
  const existing = await find();
  if (existing) return existing;
  const token = newCardToken();
  const inserted = await writer
    .insert(cardVault)
    .values({
      token,
      merchantId,
      fingerprint: fingerprints[0] as string,
      masked: maskCardNumber(cardNumber),
      ...sealCardNumber(keys, token, cardNumber),
    })
    .onConflictDoNothing()
    .returning({ token: cardVault.token });
  if (inserted[0]) return inserted[0].token;
  // Another writer vaulted the same card between the look-up and the insert (the insert waited for it to commit).
  const winner = await find();
  if (!winner) throw new Error(`card vault: the insert for merchant ${merchantId} conflicted, yet no row has its fingerprint`);
  return winner;
}

export async function openVaultedCard(reader: DbWriter, keys: CardKeys, token: string): Promise<string | null> {
  const [row] = await reader
    .select({ token: cardVault.token, keyId: cardVault.keyId, sealed: cardVault.sealed })
    .from(cardVault)
    .where(eq(cardVault.token, token));
  return row ? openCardNumber(keys, row) : null;
}
