// The provider's signing keys are made once and shared: nodes starting together on one database agree on them
// (each node derives its cookie keys from them too).
import { describe, expect, it } from 'vitest';
import { loadSigningKeys } from '../../../server/identity/keys.ts';
import { createTestDatabase, databaseKinds } from '../support.ts';

describe.each(databaseKinds)('signing keys on %s', (kind) => {
  it('five nodes loading them at once on an empty database all get the same single key', async () => {
    const database = await createTestDatabase(kind);
    try {
      const loaded = await Promise.all(Array.from({ length: 5 }, () => loadSigningKeys(database)));
      const kids = loaded.map((keys) => keys.privateJwks.keys.map((key) => key.kid).join(','));
      expect(new Set(kids).size).toBe(1);
      expect(loaded[0]?.privateJwks.keys).toHaveLength(1);
      const [rows] = await database.query<{ n: number | string }>('SELECT count(*) AS n FROM signing_keys');
      expect(Number(rows?.n)).toBe(1);
    } finally {
      await database.close();
    }
  });
});
