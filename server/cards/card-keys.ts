// The keys that seal full card numbers (card-seal.ts). One current key seals; previous keys only open, so a key
// can be rotated without a moment when stored numbers cannot be read.
//
// | source                         | when                              | what happens                                    |
// |--------------------------------|-----------------------------------|-------------------------------------------------|
// | CARD_DATA_KEY                  | set                               | base64 of exactly 32 bytes, else the start stops |
// | ${DATA_DIR}/card-data.key      | CARD_DATA_KEY unset               | read; created on first start (mode 0600)         |
// | CARD_DATA_PREVIOUS_KEYS        | optional, comma-separated base64  | open what they sealed; never seal               |
//
// The raw key never leaves this module: sealing and fingerprinting use keys derived from it (HKDF-SHA-256, one
// label each), and rows carry only a key id (the first 8 bytes of the key's SHA-256, in hex), so a key can be
// recognised without being stored.
import { createHash, hkdfSync, randomBytes } from 'node:crypto';
import { chmodSync, linkSync, mkdirSync, readFileSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export type CardKey = {
  /** what rows store beside the ciphertext; never the key */
  id: string;
  /** AES-256-GCM key */
  sealKey: Buffer;
  /** HMAC-SHA-256 key of the card fingerprints */
  fingerprintKey: Buffer;
};

export type CardKeys = {
  /** seals every new card number */
  current: CardKey;
  /** open what they sealed, nothing else */
  previous: readonly CardKey[];
};

/** A key that cannot be used: the start stops with this message (it never contains key material). */
export class CardKeyError extends Error {}

export const cardKeyFileName = 'card-data.key';
const keyBytes = 32;
// 32 bytes are 43 base64 characters and one '=' of padding.
const base64Of32Bytes = /^[A-Za-z0-9+/]{43}=$/;

/** The raw key in `text` (surrounding whitespace ignored), or a CardKeyError naming `source` and what is wrong. */
export function parseCardKey(text: string, source: string): Buffer {
  const trimmed = text.trim();
  const decoded = Buffer.from(trimmed, 'base64');
  if (!base64Of32Bytes.test(trimmed) || decoded.length !== keyBytes) {
    const what = /^[A-Za-z0-9+/]*={0,2}$/.test(trimmed) ? `it decodes to ${decoded.length} bytes` : 'it is not base64';
    throw new CardKeyError(`${source} must be the base64 of exactly ${keyBytes} random bytes (make one with: openssl rand -base64 32); ${what}`);
  }
  return decoded;
}

const derive = (raw: Buffer, label: string) => Buffer.from(hkdfSync('sha256', raw, Buffer.alloc(0), `portal card data: ${label}`, keyBytes));

export function cardKeyFrom(raw: Buffer): CardKey {
  if (raw.length !== keyBytes) throw new CardKeyError(`a card data key has ${keyBytes} bytes, not ${raw.length}`);
  return {
    id: createHash('sha256').update(raw).digest().subarray(0, 8).toString('hex'),
    sealKey: derive(raw, 'seal'),
    fingerprintKey: derive(raw, 'fingerprint'),
  };
}

/** The current key and the previous ones, a previous key equal to the current one dropped. */
export function cardKeysFrom(current: Buffer, previous: readonly Buffer[] = []): CardKeys {
  const currentKey = cardKeyFrom(current);
  const seen = new Set([currentKey.id]);
  const previousKeys: CardKey[] = [];
  for (const raw of previous) {
    const key = cardKeyFrom(raw);
    if (seen.has(key.id)) continue;
    seen.add(key.id);
    previousKeys.push(key);
  }
  return { current: currentKey, previous: previousKeys };
}

/** Every key that may open a row, the current one first. */
export const openingKeys = (keys: CardKeys): readonly CardKey[] => [keys.current, ...keys.previous];

export type LoadCardKeysOptions = {
  /** CARD_DATA_KEY */
  cardDataKey?: string | undefined;
  /** CARD_DATA_PREVIOUS_KEYS, split at commas */
  previousKeys?: readonly string[];
  dataDir: string;
  /** DATABASE_URL is set: several nodes may share the database */
  sharedDatabase?: boolean;
  log?: (line: string) => void;
  warn?: (line: string) => void;
};

export type LoadedCardKeys = { keys: CardKeys; source: 'environment' | 'key file' | 'new key file'; path?: string };

/** Reads the keys as the table above says; throws CardKeyError with a message fit for the operator. */
export function loadCardKeys(options: LoadCardKeysOptions): LoadedCardKeys {
  const warn = options.warn ?? (() => undefined);
  const previous = (options.previousKeys ?? [])
    .filter((text) => text.trim() !== '')
    .map((text, index) => parseCardKey(text, `CARD_DATA_PREVIOUS_KEYS (key ${index + 1})`));
  if (options.cardDataKey !== undefined && options.cardDataKey !== '') {
    return { keys: cardKeysFrom(parseCardKey(options.cardDataKey, 'CARD_DATA_KEY'), previous), source: 'environment' };
  }
  const path = join(options.dataDir, cardKeyFileName);
  if (options.sharedDatabase) {
    warn(
      `CARD_DATA_KEY is not set: card numbers are sealed with the key in ${path}. That is fine for one node; several nodes on one database must all be given the same CARD_DATA_KEY, or each seals with a key the others cannot open`,
    );
  }
  const { raw, created } = readOrCreateKeyFile(path, warn);
  return { keys: cardKeysFrom(raw, previous), source: created ? 'new key file' : 'key file', path };
}

/**
 * The key file's key, created when missing: written whole under a temporary name with mode 0600 and linked into
 * place, so two processes starting together agree on one key and nobody reads a half-written file.
 */
function readOrCreateKeyFile(path: string, warn: (line: string) => void): { raw: Buffer; created: boolean } {
  try {
    return { raw: readKeyFile(path, warn), created: false };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  mkdirSync(join(path, '..'), { recursive: true });
  const draft = `${path}.${process.pid}.${randomBytes(4).toString('hex')}`;
  writeFileSync(draft, `${randomBytes(keyBytes).toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
  // The umask may have taken bits the file must have, never added any; chmod makes the mode exactly 0600.
  chmodSync(draft, 0o600);
  try {
    linkSync(draft, path);
    return { raw: readKeyFile(path, warn), created: true };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    // Another process made it first: its key is the key.
    return { raw: readKeyFile(path, warn), created: false };
  } finally {
    unlinkSync(draft);
  }
}

function readKeyFile(path: string, warn: (line: string) => void): Buffer {
  const text = readFileSync(path, 'utf8');
  if ((statSync(path).mode & 0o077) !== 0) warn(`${path} can be read by other users of this machine: chmod 600 it`);
  return parseCardKey(text, path);
}
