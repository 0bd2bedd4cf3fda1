// The provider's signing key: generated once, stored in the database so every node signs and verifies alike.
import { exportJWK, generateKeyPair, type JWK } from 'jose';
import { signingKeys } from '../db/schema.ts';
import type { Database } from '../db/client.ts';

export type SigningKeys = { privateJwks: { keys: JWK[] }; publicJwks: { keys: JWK[] } };

function publicPart(jwk: JWK): JWK {
  const { d, p, q, dp, dq, qi, ...rest } = jwk;
  return rest;
}

export async function loadSigningKeys(database: Database): Promise<SigningKeys> {
  let rows = await database.db.select().from(signingKeys);
  if (rows.length === 0) {
    const { privateKey } = await generateKeyPair('RS256', { extractable: true });
    const jwk = { ...(await exportJWK(privateKey)), alg: 'RS256', use: 'sig' };
    const kid = `k${Date.now().toString(36)}`;
    await database.db.insert(signingKeys).values({ kid, jwk: { ...jwk, kid } }).onConflictDoNothing();
    rows = await database.db.select().from(signingKeys);
  }
  const keys = rows.map((row) => row.jwk as JWK);
  return { privateJwks: { keys }, publicJwks: { keys: keys.map(publicPart) } };
}
