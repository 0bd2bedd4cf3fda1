// The card data key: CARD_DATA_KEY taken only as the base64 of exactly 32 bytes; without it a key file made once
// with mode 0600 and reused; previous keys; the warning for several nodes; key ids that are not the key.
import { spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CardKeyError, cardKeyFileName, cardKeysFrom, loadCardKeys, parseCardKey } from '../../../server/cards/card-keys.ts';

const folders: string[] = [];
const freshDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'card-keys-'));
  folders.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of folders.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('parseCardKey', () => {
  it('takes the base64 of 32 bytes, surrounding whitespace ignored', () => {
    const raw = randomBytes(32);
    expect(parseCardKey(raw.toString('base64'), 'CARD_DATA_KEY').equals(raw)).toBe(true);
    expect(parseCardKey(` ${raw.toString('base64')}\n`, 'CARD_DATA_KEY').equals(raw)).toBe(true);
  });

  it.each([
    ['16 bytes', randomBytes(16).toString('base64'), /decodes to 16 bytes/],
    ['33 bytes', randomBytes(33).toString('base64'), /decodes to 33 bytes/],
    ['31 bytes', randomBytes(31).toString('base64'), /decodes to 31 bytes/],
    ['hex of 32 bytes', randomBytes(32).toString('hex'), /decodes to 48 bytes/],
    ['not base64', 'correct horse battery staple!', /is not base64/],
    ['empty', '', /decodes to 0 bytes/],
    ['base64url', Buffer.alloc(32, 0xfb).toString('base64url'), /is not base64/],
  ])('refuses %s with a clear message', (_name, text, reason) => {
    expect(() => parseCardKey(text, 'CARD_DATA_KEY')).toThrow(CardKeyError);
    expect(() => parseCardKey(text, 'CARD_DATA_KEY')).toThrow(/^CARD_DATA_KEY must be the base64 of exactly 32 random bytes/);
    expect(() => parseCardKey(text, 'CARD_DATA_KEY')).toThrow(reason);
  });
});

describe('loadCardKeys', () => {
  it('uses CARD_DATA_KEY when set, and writes no key file', () => {
    const dataDir = freshDir();
    const raw = randomBytes(32);
    const loaded = loadCardKeys({ cardDataKey: raw.toString('base64'), dataDir });
    expect(loaded.source).toBe('environment');
    expect(loaded.keys.current.id).toBe(cardKeysFrom(raw).current.id);
    expect(() => statSync(join(dataDir, cardKeyFileName))).toThrow();
  });

  it('refuses a bad CARD_DATA_KEY rather than falling back to the key file', () => {
    const dataDir = freshDir();
    expect(() => loadCardKeys({ cardDataKey: 'c2hvcnQ=', dataDir })).toThrow(/CARD_DATA_KEY must be the base64 of exactly 32 random bytes.*decodes to 5 bytes/);
    expect(() => statSync(join(dataDir, cardKeyFileName))).toThrow();
  });

  it('creates a key file with mode 0600 on first start and reuses it', () => {
    const dataDir = join(freshDir(), 'nested', 'data');
    const first = loadCardKeys({ dataDir });
    const path = join(dataDir, cardKeyFileName);
    expect(first).toMatchObject({ source: 'new key file', path });
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(parseCardKey(readFileSync(path, 'utf8'), path)).toHaveLength(32);
    const second = loadCardKeys({ dataDir });
    expect(second.source).toBe('key file');
    expect(second.keys.current.id).toBe(first.keys.current.id);
    expect(second.keys.current.sealKey.equals(first.keys.current.sealKey)).toBe(true);
  });

  it('makes the file 0600 whatever the umask', () => {
    const previous = process.umask(0o000);
    try {
      const dataDir = freshDir();
      loadCardKeys({ dataDir });
      expect(statSync(join(dataDir, cardKeyFileName)).mode & 0o777).toBe(0o600);
    } finally {
      process.umask(previous);
    }
  });

  it('refuses a damaged key file, naming it', () => {
    const dataDir = freshDir();
    writeFileSync(join(dataDir, cardKeyFileName), 'not a key\n', { mode: 0o600 });
    expect(() => loadCardKeys({ dataDir })).toThrow(CardKeyError);
    expect(() => loadCardKeys({ dataDir })).toThrow(new RegExp(`${cardKeyFileName} must be the base64`));
  });

  it('warns about a key file other users can read', () => {
    const dataDir = freshDir();
    writeFileSync(join(dataDir, cardKeyFileName), randomBytes(32).toString('base64'), { mode: 0o644 });
    const warnings: string[] = [];
    loadCardKeys({ dataDir, warn: (line) => warnings.push(line) });
    expect(warnings.join('\n')).toMatch(/can be read by other users.*chmod 600/);
  });

  it('warns that several nodes need CARD_DATA_KEY when on a shared database without it', () => {
    const warnings: string[] = [];
    loadCardKeys({ dataDir: freshDir(), sharedDatabase: true, warn: (line) => warnings.push(line) });
    expect(warnings.join('\n')).toMatch(/CARD_DATA_KEY is not set.*several nodes on one database must all be given the same CARD_DATA_KEY/);
    const none: string[] = [];
    loadCardKeys({ dataDir: freshDir(), sharedDatabase: true, cardDataKey: randomBytes(32).toString('base64'), warn: (line) => none.push(line) });
    loadCardKeys({ dataDir: freshDir(), sharedDatabase: false, warn: (line) => none.push(line) });
    expect(none).toEqual([]);
  });

  it('takes previous keys (the current one dropped from them) and refuses a bad one', () => {
    const current = randomBytes(32);
    const old = randomBytes(32);
    const loaded = loadCardKeys({
      cardDataKey: current.toString('base64'),
      previousKeys: [old.toString('base64'), current.toString('base64')],
      dataDir: freshDir(),
    });
    expect(loaded.keys.previous.map((key) => key.id)).toEqual([cardKeysFrom(old).current.id]);
    expect(() => loadCardKeys({ cardDataKey: current.toString('base64'), previousKeys: ['short'], dataDir: freshDir() })).toThrow(
      /CARD_DATA_PREVIOUS_KEYS \(key 1\) must be the base64/,
    );
  });
});

describe('key ids', () => {
  it('are derived from the key but are not the key nor its derived keys', () => {
    const raw = randomBytes(32);
    const { current } = cardKeysFrom(raw);
    expect(current.id).toBe(createHash('sha256').update(raw).digest().subarray(0, 8).toString('hex'));
    expect(raw.toString('hex')).not.toContain(current.id);
    expect(current.sealKey.equals(raw)).toBe(false);
    expect(current.fingerprintKey.equals(current.sealKey)).toBe(false);
  });
});

describe('the server start', () => {
  it('stops with a clear message, before opening anything, when CARD_DATA_KEY is not 32 bytes of base64', () => {
    const dataDir = freshDir();
    const started = spawnSync(process.execPath, [resolve(import.meta.dirname, '../../../server/main.ts')], {
      env: { ...process.env, CARD_DATA_KEY: randomBytes(24).toString('base64'), DATA_DIR: dataDir, PORT: '3432', DATABASE_URL: '' },
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(started.status).toBe(1);
    expect(started.stdout).toMatch(/cannot start: CARD_DATA_KEY must be the base64 of exactly 32 random bytes .*decodes to 24 bytes/);
    // Nothing was opened: no database files, no key file.
    expect(() => statSync(join(dataDir, cardKeyFileName))).toThrow();
    expect(() => statSync(join(dataDir, 'PG_VERSION'))).toThrow();
  });
});
