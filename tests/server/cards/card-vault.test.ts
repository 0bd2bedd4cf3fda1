// The vault on PGlite and PostgreSQL: find-or-create by merchant and fingerprint, found again after a key rotation,
// one row when two writers vault the same card at once; and data from before the vault (clear card numbers)
// sealed and erased at start, idempotently, by two nodes at once, with nothing left in clear.
import { randomBytes } from 'node:crypto';
import { eq, isNotNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cardKeysFrom } from '../../../server/cards/card-keys.ts';
import { CardNumberRejected, openVaultedCard, vaultCard } from '../../../server/cards/card-vault.ts';
import { resealPreviousKeys } from '../../../server/cards/reseal-previous-keys.ts';
import { sealLegacyCardNumbers } from '../../../server/cards/seal-legacy.ts';
import type { Database } from '../../../server/db/client.ts';
import * as schema from '../../../server/db/schema.ts';
import { createTestDatabase, databaseKinds, fixtureCardNumber, insertFixtureWorld, testCardKeys } from '../support.ts';

const t = schema.transactions;

describe.each(databaseKinds)('card vault on %s', (kind) => {
  let database: Database;
  beforeAll(async () => {
    database = await createTestDatabase(kind);
    await insertFixtureWorld(database);
  });
  afterAll(async () => database?.close());

  const vaultRows = async (merchantId: string) => database.db.select().from(schema.cardVault).where(eq(schema.cardVault.merchantId, merchantId));

  it('gives one token per card and merchant, masked, and opens it again', async () => {
    const token = await vaultCard(database.db, testCardKeys, { merchantId: 'M2a', cardNumber: '4242424242424242' });
    expect(token).toMatch(/^CV[0-9A-F]{20}$/);
    expect(await vaultCard(database.db, testCardKeys, { merchantId: 'M2a', cardNumber: '4242424242424242' })).toBe(token);
    expect(await vaultCard(database.db, testCardKeys, { merchantId: 'M3b', cardNumber: '4242424242424242' })).not.toBe(token);
    expect(await vaultCard(database.db, testCardKeys, { merchantId: 'M2a', cardNumber: '5555555555554444' })).not.toBe(token);
    const [row] = (await vaultRows('M2a')).filter((candidate) => candidate.token === token);
    expect(row).toMatchObject({ masked: '424242******4242', keyId: testCardKeys.current.id });
    expect(JSON.stringify(row)).not.toContain('4242424242424242');
    expect(await openVaultedCard(database.db, testCardKeys, token)).toBe('4242424242424242');
    expect(await openVaultedCard(database.db, testCardKeys, 'CV0000000000000000FFFF')).toBeNull();
  });

  it('refuses what is not a card number, without echoing it', async () => {
    await expect(vaultCard(database.db, testCardKeys, { merchantId: 'M2a', cardNumber: '4111 1111 1111 1111' })).rejects.toThrow(CardNumberRejected);
    await expect(vaultCard(database.db, testCardKeys, { merchantId: 'M2a', cardNumber: '12345' })).rejects.not.toThrow(/12345/);
  });

  it('finds a card vaulted before a key rotation, and seals new cards with the new key', async () => {
    const oldKey = randomBytes(32);
    const newKey = randomBytes(32);
    const before = cardKeysFrom(oldKey);
    const token = await vaultCard(database.db, before, { merchantId: 'M1b', cardNumber: '378282246310005' });
    const rotated = cardKeysFrom(newKey, [oldKey]);
    expect(await vaultCard(database.db, rotated, { merchantId: 'M1b', cardNumber: '378282246310005' })).toBe(token);
    expect(await openVaultedCard(database.db, rotated, token)).toBe('378282246310005');
    const fresh = await vaultCard(database.db, rotated, { merchantId: 'M1b', cardNumber: '371449635398431' });
    const [freshRow] = (await vaultRows('M1b')).filter((row) => row.token === fresh);
    expect(freshRow?.keyId).toBe(rotated.current.id);
  });

  it('seals rows of a previous key again with the current one at start, so the previous key can go', async () => {
    const oldKey = randomBytes(32);
    const newKey = randomBytes(32);
    const unknownKey = randomBytes(32);
    const before = cardKeysFrom(oldKey);
    const tokens = await Promise.all(
      ['4012888888881881', '2223003122003222', '5105105105105100'].map((cardNumber) => vaultCard(database.db, before, { merchantId: 'M3b', cardNumber })),
    );
    const lost = await vaultCard(database.db, cardKeysFrom(unknownKey), { merchantId: 'M3b', cardNumber: '6011111111111117' });
    const rotated = cardKeysFrom(newKey, [oldKey]);
    const keysOf = async () => new Map((await vaultRows('M3b')).map((row) => [row.token, row.keyId]));
    // Rows of other keys (the suite's, the unknown one) are not this rotation's: only the old key's three move.
    const others = [...(await keysOf()).entries()].filter(([token]) => !tokens.includes(token));
    const result = await resealPreviousKeys(database, rotated, { batchSize: 2 });
    expect(result.resealed).toBe(3);
    expect(result.unopenable).toBeGreaterThanOrEqual(1);
    const after = await keysOf();
    for (const token of tokens) expect(after.get(token)).toBe(rotated.current.id);
    for (const [token, keyId] of others) expect(after.get(token)).toBe(keyId);
    expect(after.get(lost)).toBe(cardKeysFrom(unknownKey).current.id);
    // Opened with the new key alone, and found by fingerprint under it: the same token.
    const newOnly = cardKeysFrom(newKey);
    expect(await openVaultedCard(database.db, newOnly, tokens[1] ?? '')).toBe('2223003122003222');
    expect(await vaultCard(database.db, newOnly, { merchantId: 'M3b', cardNumber: '4012888888881881' })).toBe(tokens[0]);
    expect((await resealPreviousKeys(database, rotated)).resealed).toBe(0);
  });

  it('keeps one row when two writers vault the same card at once', async () => {
    const card = { merchantId: 'M4a', cardNumber: '6011111111111117' };
    const tokens = await Promise.all(Array.from({ length: 4 }, () => database.db.transaction((tx) => vaultCard(tx, testCardKeys, card))));
    expect(new Set(tokens).size).toBe(1);
    expect(await vaultRows('M4a')).toHaveLength(1);
  });
});

describe.each(databaseKinds)('sealing clear card numbers of older data on %s', (kind) => {
  let database: Database;
  // Rows as an older portal wrote them: the number in clear, no token.
  const legacy = [
    { reference: 'TXL0001', merchantId: 'M1a', businessId: 'B1', partnerId: 'P1', cardNumber: '4000056655665556' },
    { reference: 'TXL0002', merchantId: 'M1a', businessId: 'B1', partnerId: 'P1', cardNumber: '4000056655665556' },
    { reference: 'TXL0003', merchantId: 'M1b', businessId: 'B1', partnerId: 'P1', cardNumber: '4000056655665556' },
    { reference: 'TXL0004', merchantId: 'M3a', businessId: 'B3', partnerId: null, cardNumber: '3566002020360505' },
  ];
  beforeAll(async () => {
    database = await createTestDatabase(kind);
    await insertFixtureWorld(database);
    // The fixture's own rows become legacy rows too, and many more to need several batches.
    await database.db.update(t).set({ legacyCardNumber: fixtureCardNumber, cardToken: null });
    await database.db.insert(t).values(
      [
        ...legacy.map(({ cardNumber, ...row }) => ({ ...row, legacyCardNumber: cardNumber, cardMasked: null as string | null })),
        ...Array.from({ length: 120 }, (_, index) => ({
          reference: `TXM${String(index).padStart(4, '0')}`,
          merchantId: 'M2a',
          businessId: 'B2',
          partnerId: 'P1',
          legacyCardNumber: index % 2 ? '5105105105105100' : '5200828282828210',
          cardMasked: index % 2 ? '510510******5100' : '520082******8210',
        })),
      ].map((row) => ({
        ...row,
        kind: 'payment' as const,
        configurationId: `C-${row.merchantId}`,
        paymentJobReference: `PJ-${row.reference}`,
        createdAt: new Date('2026-11-10T10:00:00Z'),
        amountMinor: 100,
        currency: 'GBP',
        status: 'paid',
        paymentMethod: 'card',
        channel: 'Gateway',
      })),
    );
  });
  afterAll(async () => database?.close());

  it('seals every number into the vault, gives each row its token and erases the number; two nodes at once', async () => {
    expect((await database.db.select({ reference: t.reference }).from(t).where(isNotNull(t.legacyCardNumber))).length).toBe(126);
    const runs = await Promise.all([
      sealLegacyCardNumbers(database, testCardKeys, { batchSize: 25 }),
      sealLegacyCardNumbers(database, testCardKeys, { batchSize: 25 }),
    ]);
    expect(runs[0].rows + runs[1].rows).toBe(126);
    expect(runs[0].batches + runs[1].batches).toBeGreaterThanOrEqual(6);

    expect(await database.query(`SELECT reference FROM transactions WHERE card_number IS NOT NULL`)).toEqual([]);
    expect(await database.query(`SELECT reference FROM transactions WHERE payment_method = 'card' AND card_token IS NULL`)).toEqual([]);
    // One vault row per card and merchant: M1a and M1b share a number but not a row; 2 cards at M2a.
    const vault = await database.query<{ merchant_id: string; masked: string }>(`SELECT merchant_id, masked FROM card_vault ORDER BY merchant_id, masked`);
    expect(vault).toEqual([
      { merchant_id: 'M1a', masked: '400005******5556' },
      { merchant_id: 'M1a', masked: '411111******1111' },
      { merchant_id: 'M1b', masked: '400005******5556' },
      { merchant_id: 'M2a', masked: '510510******5100' },
      { merchant_id: 'M2a', masked: '520082******8210' },
      { merchant_id: 'M3a', masked: '356600******0505' },
      { merchant_id: 'M3a', masked: '411111******1111' },
    ]);
    const [l1, l2, l3] = await Promise.all(
      ['TXL0001', 'TXL0002', 'TXL0003'].map(
        async (reference) => (await database.db.select({ cardToken: t.cardToken, cardMasked: t.cardMasked }).from(t).where(eq(t.reference, reference)))[0],
      ),
    );
    expect(l1?.cardToken).toBe(l2?.cardToken);
    expect(l3?.cardToken).not.toBe(l1?.cardToken);
    // A row that had no mask gets one.
    expect(l1?.cardMasked).toBe('400005******5556');
    expect(await openVaultedCard(database.db, testCardKeys, l3?.cardToken ?? '')).toBe('4000056655665556');
  });

  it('does nothing when run again', async () => {
    const before = await database.query(`SELECT * FROM card_vault ORDER BY token`);
    expect(await sealLegacyCardNumbers(database, testCardKeys)).toEqual({ rows: 0, cards: 0, batches: 0 });
    expect(await database.query(`SELECT * FROM card_vault ORDER BY token`)).toEqual(before);
  });
});
