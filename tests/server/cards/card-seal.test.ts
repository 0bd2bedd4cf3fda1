// Sealing card numbers: round trip, every part of the sealed value authenticated (nonce, ciphertext, tag, the row's
// token), the key id honoured, previous keys open but never seal, a fresh nonce each time, and fingerprints.
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { cardKeysFrom } from '../../../server/cards/card-keys.ts';
import { CardSealError, cardFingerprints, maskCardNumber, openCardNumber, sealCardNumber } from '../../../server/cards/card-seal.ts';

const keyA = randomBytes(32);
const keyB = randomBytes(32);
const keys = cardKeysFrom(keyA);
const token = 'CV00112233445566778899';
const cardNumber = '4111111111111111';

/** The sealed value with one byte of its decoded form changed at `index` (negative: from the end). */
function flipped(sealed: string, index: number): string {
  const bytes = Buffer.from(sealed, 'base64');
  const at = index < 0 ? bytes.length + index : index;
  bytes[at] = (bytes[at] ?? 0) ^ 0x01;
  return bytes.toString('base64');
}

describe('sealCardNumber and openCardNumber', () => {
  it('round trips, and the sealed value holds nonce, ciphertext and tag but not the number', () => {
    const sealed = sealCardNumber(keys, token, cardNumber);
    expect(sealed.keyId).toBe(keys.current.id);
    expect(sealed.keyId).toMatch(/^[0-9a-f]{16}$/);
    expect(Buffer.from(sealed.sealed, 'base64')).toHaveLength(12 + cardNumber.length + 16);
    expect(sealed.sealed).not.toContain(cardNumber);
    expect(Buffer.from(sealed.sealed, 'base64').toString('latin1')).not.toContain(cardNumber);
    expect(openCardNumber(keys, { token, ...sealed })).toBe(cardNumber);
  });

  it('uses a fresh nonce every time', () => {
    const sealed = Array.from({ length: 50 }, () => sealCardNumber(keys, token, cardNumber).sealed);
    expect(new Set(sealed).size).toBe(50);
    expect(new Set(sealed.map((value) => Buffer.from(value, 'base64').subarray(0, 12).toString('hex'))).size).toBe(50);
  });

  it.each([
    ['the nonce', 0],
    ['the last nonce byte', 11],
    ['the ciphertext', 12],
    ['the tag', -1],
    ['the first tag byte', -16],
  ])('refuses a value with %s altered', (_part, index) => {
    const sealed = sealCardNumber(keys, token, cardNumber);
    expect(() => openCardNumber(keys, { token, keyId: sealed.keyId, sealed: flipped(sealed.sealed, index) })).toThrow(CardSealError);
  });

  it('refuses a value cut short', () => {
    const sealed = sealCardNumber(keys, token, cardNumber);
    const bytes = Buffer.from(sealed.sealed, 'base64');
    expect(() => openCardNumber(keys, { token, keyId: sealed.keyId, sealed: bytes.subarray(0, 28).toString('base64') })).toThrow(CardSealError);
    expect(() => openCardNumber(keys, { token, keyId: sealed.keyId, sealed: bytes.subarray(0, bytes.length - 1).toString('base64') })).toThrow(CardSealError);
  });

  it('refuses a value moved to another row (the token is authenticated)', () => {
    const sealed = sealCardNumber(keys, token, cardNumber);
    expect(() => openCardNumber(keys, { token: 'CV00112233445566778898', ...sealed })).toThrow(CardSealError);
  });

  it('refuses a value whose key id is not configured, or names another key', () => {
    const sealed = sealCardNumber(keys, token, cardNumber);
    expect(() => openCardNumber(keys, { token, keyId: '0123456789abcdef', sealed: sealed.sealed })).toThrow(
      /neither CARD_DATA_KEY nor one of CARD_DATA_PREVIOUS_KEYS/,
    );
    // Both keys configured, the row claims the other one: it does not open under it.
    const both = cardKeysFrom(keyA, [keyB]);
    const other = both.previous[0]?.id ?? '';
    expect(() => openCardNumber(both, { token, keyId: other, sealed: sealed.sealed })).toThrow(CardSealError);
  });

  it('opens with a previous key after a rotation, and seals only with the current one', () => {
    const before = sealCardNumber(cardKeysFrom(keyA), token, cardNumber);
    const rotated = cardKeysFrom(keyB, [keyA]);
    expect(openCardNumber(rotated, { token, ...before })).toBe(cardNumber);
    const after = sealCardNumber(rotated, token, cardNumber);
    expect(after.keyId).toBe(rotated.current.id);
    expect(after.keyId).not.toBe(before.keyId);
    // Without the previous key the old row no longer opens.
    expect(() => openCardNumber(cardKeysFrom(keyB), { token, ...before })).toThrow(CardSealError);
  });

  it('never puts the number in an error', () => {
    const sealed = sealCardNumber(keys, token, cardNumber);
    try {
      openCardNumber(keys, { token, keyId: sealed.keyId, sealed: flipped(sealed.sealed, 20) });
      expect.unreachable();
    } catch (error) {
      expect(String((error as Error).message)).not.toContain(cardNumber);
    }
  });
});

describe('cardFingerprints', () => {
  it('is keyed, per merchant, stable, and lists the current key first', () => {
    const [fingerprint] = cardFingerprints(keys, 'M1', cardNumber);
    expect(fingerprint).toMatch(/^[0-9a-f]{64}$/);
    expect(cardFingerprints(keys, 'M1', cardNumber)[0]).toBe(fingerprint);
    expect(cardFingerprints(keys, 'M2', cardNumber)[0]).not.toBe(fingerprint);
    expect(cardFingerprints(keys, 'M1', '4242424242424242')[0]).not.toBe(fingerprint);
    expect(cardFingerprints(cardKeysFrom(keyB), 'M1', cardNumber)[0]).not.toBe(fingerprint);
    const rotated = cardFingerprints(cardKeysFrom(keyB, [keyA]), 'M1', cardNumber);
    expect(rotated).toHaveLength(2);
    expect(rotated[1]).toBe(fingerprint);
  });
});

describe('maskCardNumber', () => {
  it.each([
    ['4111111111111111', '411111******1111'],
    ['378282246310005', '378282*****0005'],
    ['6011000990139424', '601100******9424'],
    ['411111111111', '411111**1111'],
  ])('%s → %s', (number, masked) => expect(maskCardNumber(number)).toBe(masked));
});
