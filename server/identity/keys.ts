// The provider's signing key: generated once, stored in the database so every node signs and verifies alike.
import { sql } from 'drizzle-orm';
import { exportJWK, generateKeyPair, type JWK } from 'jose';
import { signingKeys } from '../db/schema.ts';
import type { Database } from '../db/client.ts';

export type SigningKeys = { privateJwks: { keys: JWK[] }; publicJwks: { keys: JWK[] } };

function publicPart(jwk: JWK): JWK {
  const { d, p, q, dp, dq, qi, ...rest } = jwk;
  return rest;
}

/** Transaction-level advisory lock taken while the first key is made: nodes starting together agree on one key. */
const signingKeyLock = 7_402_113_016;

export async function loadSigningKeys(database: Database): Promise<SigningKeys> {
  let rows = await database.db.select().from(signingKeys);
  if (rows.length === 0) {
    // Two nodes each making a key of their own would sign with keys the other does not know (and derive other
    // cookie keys): the first key is made under a lock, and whoever comes second finds it.
    rows = await database.db.transaction(async (tx) => {
      await tx.execute(sql`SELECT pg_advisory_xact_lock(${signingKeyLock})`);
      const existing = await tx.select().from(signingKeys);
      if (existing.length > 0) return existing;
      const { privateKey } = await generateKeyPair('RS256', { extractable: true });
      const jwk = { ...(await exportJWK(privateKey)), alg: 'RS256', use: 'sig' };
      const kid = `k${Date.now().toString(36)}`;
      return tx
        .insert(signingKeys)
        .values({ kid, jwk: { ...jwk, kid } })
        .returning();
    });
  }
  const keys = rows.map((row) => row.jwk as JWK);
  return { privateJwks: { keys }, publicJwks: { keys: keys.map(publicPart) } };
}
