// The DPoP proof check of the Portal API (server/http/dpop.ts) on its own: what a proof must be, beyond what the
// provider-and-API journey in tests/server/identity/dpop.test.ts covers.
import { createHash } from 'node:crypto';
import { calculateJwkThumbprint, exportJWK, generateKeyPair, SignJWT, type JWK } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import { createDpopVerifier, DpopError, parseAuthorization } from '../../../server/http/dpop.ts';

const url = 'https://portal.example/api/portal/transactions';
const token = 'header.payload.signature';
const ath = createHash('sha256').update(token).digest('base64url');

let privateKey: CryptoKey;
let publicJwk: JWK;
let privateJwk: JWK;
let jkt: string;

beforeAll(async () => {
  const pair = await generateKeyPair('ES256', { extractable: true });
  privateKey = pair.privateKey as CryptoKey;
  publicJwk = await exportJWK(pair.publicKey);
  privateJwk = await exportJWK(pair.privateKey);
  jkt = await calculateJwkThumbprint(publicJwk);
});

async function proof(overrides: { payload?: Record<string, unknown>; jwk?: JWK; typ?: string; iat?: number } = {}) {
  return new SignJWT({ htm: 'GET', htu: url, ath, jti: crypto.randomUUID(), ...overrides.payload })
    .setProtectedHeader({ alg: 'ES256', typ: overrides.typ ?? 'dpop+jwt', jwk: overrides.jwk ?? publicJwk })
    .setIssuedAt(overrides.iat ?? Math.floor(Date.now() / 1000))
    .sign(privateKey);
}

describe('DPoP proof check', () => {
  it('accepts a fresh proof once, for its method and address (the query aside)', async () => {
    const verify = createDpopVerifier();
    const good = await proof();
    await expect(verify({ method: 'GET', url: `${url}?page=2`, accessToken: token, proof: good, jkt })).resolves.toBeUndefined();
    await expect(verify({ method: 'GET', url, accessToken: token, proof: good, jkt })).rejects.toThrow('The DPoP proof was used before.');
  });

  it('refuses proofs that are old, from the future, of the wrong type, carrying a private key, or missing their parts', async () => {
    const verify = createDpopVerifier();
    const check = async (value: string | undefined) => verify({ method: 'GET', url, accessToken: token, proof: value, jkt });
    const now = Math.floor(Date.now() / 1000);
    await expect(check(await proof({ iat: now - 120 }))).rejects.toThrow('The DPoP proof is not recent.');
    await expect(check(await proof({ iat: now + 120 }))).rejects.toThrow('The DPoP proof is not recent.');
    await expect(check(await proof({ typ: 'JWT' }))).rejects.toThrow(DpopError);
    await expect(check(await proof({ jwk: privateJwk }))).rejects.toThrow('The DPoP proof must carry a public key.');
    await expect(check(await proof({ payload: { jti: '' } }))).rejects.toThrow('The DPoP proof has no identifier.');
    await expect(check(await proof({ payload: { ath: undefined } }))).rejects.toThrow('The DPoP proof was made for another access token.');
    await expect(check(await proof({ payload: { htu: 'https://elsewhere.example/api/portal/transactions' } }))).rejects.toThrow(
      'The DPoP proof was made for another address.',
    );
    await expect(check(undefined)).rejects.toThrow('A DPoP proof is required for this access token.');
    await expect(check('not-a-jwt')).rejects.toThrow('The DPoP proof is malformed.');
    // A symmetric "proof" proves no key.
    const hmac = await new SignJWT({ htm: 'GET', htu: url, ath, jti: 'x' })
      .setProtectedHeader({ alg: 'HS256', typ: 'dpop+jwt', jwk: publicJwk } as never)
      .setIssuedAt()
      .sign(new TextEncoder().encode('a shared secret of thirty-two bytes!'));
    await expect(check(hmac)).rejects.toThrow(DpopError);
  });

  it('refuses a proof signed by another key than the token names', async () => {
    const verify = createDpopVerifier();
    await expect(verify({ method: 'GET', url, accessToken: token, proof: await proof(), jkt: 'another-thumbprint' })).rejects.toThrow(
      'The DPoP proof is signed by another key than the access token is bound to.',
    );
  });

  it("reads the Authorization header's scheme", () => {
    expect(parseAuthorization('DPoP a.b.c')).toEqual({ scheme: 'DPoP', token: 'a.b.c' });
    expect(parseAuthorization('dpop a.b.c')).toEqual({ scheme: 'DPoP', token: 'a.b.c' });
    expect(parseAuthorization('Bearer a.b.c')).toEqual({ scheme: 'Bearer', token: 'a.b.c' });
    expect(parseAuthorization('Basic a.b.c')).toBeNull();
    expect(parseAuthorization(undefined)).toBeNull();
  });
});
