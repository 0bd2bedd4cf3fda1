// Sealing one card number (AES-256-GCM, node:crypto) and the keyed fingerprint that finds a card without it.
//
// | call                                   | gives                                                         |
// |----------------------------------------|---------------------------------------------------------------|
// | sealCardNumber(keys, token, number)    | { keyId, sealed }: base64 of nonce (12 random bytes) ‖ ciphertext ‖ tag (16 bytes), sealed with the current key |
// | openCardNumber(keys, { token, keyId, sealed }) | the number; CardSealError when the key is unknown or anything fails to authenticate |
// | cardFingerprints(keys, merchant, number) | HMAC-SHA-256 of (merchant, number) under each key, the current key's first |
// | maskCardNumber(number)                 | first 6 and last 4 digits, stars between                      |
//
// The row's token is the additional authenticated data: a ciphertext copied into another row does not open.
import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';
import { openingKeys, type CardKey, type CardKeys } from './card-keys.ts';

/** A sealed number that cannot be opened; the message never holds card data. */
export class CardSealError extends Error {}

export type SealedCard = { keyId: string; sealed: string };

const nonceBytes = 12;
const tagBytes = 16;

/** Card numbers the vault takes: 12 to 19 digits, nothing else. */
export const isCardNumber = (value: string) => /^[0-9]{12,19}$/.test(value);

export function maskCardNumber(cardNumber: string): string {
  return `${cardNumber.slice(0, 6)}${'*'.repeat(Math.max(0, cardNumber.length - 10))}${cardNumber.slice(-4)}`;
}

export function sealCardNumber(keys: CardKeys, token: string, cardNumber: string): SealedCard {
  const key = keys.current;
  const nonce = randomBytes(nonceBytes);
  const cipher = createCipheriv('aes-256-gcm', key.sealKey, nonce, { authTagLength: tagBytes });
  cipher.setAAD(Buffer.from(token, 'utf8'));
  const ciphertext = Buffer.concat([cipher.update(cardNumber, 'utf8'), cipher.final()]);
  return { keyId: key.id, sealed: Buffer.concat([nonce, ciphertext, cipher.getAuthTag()]).toString('base64') };
}

export function openCardNumber(keys: CardKeys, row: { token: string } & SealedCard): string {
  const key = openingKeys(keys).find((candidate) => candidate.id === row.keyId);
  if (!key) throw new CardSealError(`card ${row.token} was sealed with key ${row.keyId}, which is neither CARD_DATA_KEY nor one of CARD_DATA_PREVIOUS_KEYS`);
  const bytes = Buffer.from(row.sealed, 'base64');
  if (bytes.length <= nonceBytes + tagBytes) throw new CardSealError(`card ${row.token}: the sealed value is too short`);
  const decipher = createDecipheriv('aes-256-gcm', key.sealKey, bytes.subarray(0, nonceBytes), { authTagLength: tagBytes });
  decipher.setAAD(Buffer.from(row.token, 'utf8'));
  decipher.setAuthTag(bytes.subarray(bytes.length - tagBytes));
  try {
    return Buffer.concat([decipher.update(bytes.subarray(nonceBytes, bytes.length - tagBytes)), decipher.final()]).toString('utf8');
  } catch {
    throw new CardSealError(`card ${row.token} did not authenticate: altered, moved from another row, or sealed with another key of the same id`);
  }
}

/** The merchant is part of the message: one card at two merchants has two unrelated fingerprints. */
function fingerprintUnder(key: CardKey, merchantId: string, cardNumber: string): string {
  return createHmac('sha256', key.fingerprintKey).update(`${merchantId}\u0000${cardNumber}`, 'utf8').digest('hex');
}

/**
 * The card's fingerprint under every key that may have stored it, the current key's first (what a new row
 * stores): a card vaulted before a rotation is still found after it.
 */
export function cardFingerprints(keys: CardKeys, merchantId: string, cardNumber: string): string[] {
  return openingKeys(keys).map((key) => fingerprintUnder(key, merchantId, cardNumber));
}
