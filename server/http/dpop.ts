// DPoP (RFC 9449) at the Portal API and the provider's userinfo: an access token bound to a key (its cnf.jkt, set by
// the provider when the browser's token request carried a DPoP proof) is honoured only with `Authorization: DPoP` and
// a fresh proof signed by that key for this very request. The browser keeps the key pair non-extractable
// (src/api/dpop.ts), so a copied access token (or refresh token: the provider checks its binding at refresh) is of
// no use without the browser that holds the key.
//
// A proof is checked for: typ dpop+jwt, an asymmetric algorithm, a public JWK in its header (no private part), a
// valid signature by that JWK, htm = the request's method, htu = the request's address at PUBLIC_URL (no query or
// fragment), iat within ±proofWindowSeconds, ath = SHA-256 of the access token, the JWK's thumbprint = the token's
// cnf.jkt, and a jti not seen before on this node within the window (replay). Nonces are not used.
import { createHash } from 'node:crypto';
import { calculateJwkThumbprint, decodeProtectedHeader, EmbeddedJWK, jwtVerify } from 'jose';

export const dpopAlgorithms = ['ES256', 'EdDSA', 'Ed25519', 'PS256', 'RS256'];
export const proofWindowSeconds = 60;

export class DpopError extends Error {}

export type DpopRequest = {
  method: string;
  /** the address the client used: PUBLIC_URL's origin and the request's path */
  url: string;
  accessToken: string;
  /** the DPoP header, if any */
  proof: string | undefined;
  /** the token's cnf.jkt */
  jkt: string;
};

export type DpopVerifier = (request: DpopRequest) => Promise<void>;

export type DpopVerifierOptions = { now?: () => number; maxRemembered?: number };

/** The request's address as a proof's htu names it: origin and path only. */
export function proofTarget(url: string): string {
  const parsed = new URL(url);
  parsed.search = '';
  parsed.hash = '';
  return parsed.href;
}

export function createDpopVerifier(options: DpopVerifierOptions = {}): DpopVerifier {
  const now = options.now ?? Date.now;
  const maxRemembered = options.maxRemembered ?? 50_000;
  /** jti → until (ms) it could still be presented */
  const seen = new Map<string, number>();

  function remember(key: string, untilMs: number): boolean {
    const nowMs = now();
    const known = seen.get(key);
    if (known !== undefined && known > nowMs) return false;
    if (seen.size >= maxRemembered) {
      for (const [oldKey, until] of seen) {
        if (until <= nowMs || seen.size >= maxRemembered) seen.delete(oldKey);
        if (seen.size < maxRemembered * 0.9) break;
      }
    }
    seen.set(key, untilMs);
    return true;
  }

  return async ({ method, url, accessToken, proof, jkt }) => {
    if (!proof || proof.includes(',')) throw new DpopError('A DPoP proof is required for this access token.');
    let header: ReturnType<typeof decodeProtectedHeader>;
    try {
      header = decodeProtectedHeader(proof);
    } catch {
      throw new DpopError('The DPoP proof is malformed.');
    }
    const jwk = header.jwk as Record<string, unknown> | undefined;
    if (!jwk || typeof jwk !== 'object' || 'd' in jwk || 'k' in jwk) throw new DpopError('The DPoP proof must carry a public key.');
    let payload: Awaited<ReturnType<typeof jwtVerify>>['payload'];
    try {
      ({ payload } = await jwtVerify(proof, EmbeddedJWK, { typ: 'dpop+jwt', algorithms: dpopAlgorithms }));
    } catch {
      throw new DpopError('The DPoP proof is not valid.');
    }
    if (payload.htm !== method) throw new DpopError('The DPoP proof was made for another method.');
    let htu: string;
    try {
      htu = proofTarget(String(payload.htu));
    } catch {
      throw new DpopError('The DPoP proof was made for another address.');
    }
    if (htu !== proofTarget(url)) throw new DpopError('The DPoP proof was made for another address.');
    const nowSeconds = now() / 1000;
    if (typeof payload.iat !== 'number' || Math.abs(nowSeconds - payload.iat) > proofWindowSeconds) throw new DpopError('The DPoP proof is not recent.');
    if (typeof payload.jti !== 'string' || payload.jti.length === 0 || payload.jti.length > 200) throw new DpopError('The DPoP proof has no identifier.');
    if (payload.ath !== createHash('sha256').update(accessToken).digest('base64url')) throw new DpopError('The DPoP proof was made for another access token.');
    if ((await calculateJwkThumbprint(jwk)) !== jkt) throw new DpopError('The DPoP proof is signed by another key than the access token is bound to.');
    if (!remember(`${jkt}:${payload.jti}`, (payload.iat + proofWindowSeconds + 5) * 1000)) throw new DpopError('The DPoP proof was used before.');
  };
}

/** `Authorization: Bearer x` or `DPoP x`: the scheme and the token (a JWT's characters only). */
export function parseAuthorization(header: string | undefined): { scheme: 'Bearer' | 'DPoP'; token: string } | null {
  const match = /^(Bearer|DPoP) ([A-Za-z0-9._~+/-]+=*)$/i.exec(header ?? '');
  if (!match?.[1] || !match[2]) return null;
  return { scheme: match[1].toLowerCase() === 'dpop' ? 'DPoP' : 'Bearer', token: match[2] };
}
