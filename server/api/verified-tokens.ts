// Verified access tokens, remembered by their exact string until they expire. A JWT access token is verified
// offline (signature, issuer, audience, type, expiry: nothing about it can change before its exp), so verifying the
// same string again on every call only repeats the same answer. Who the token's user is, and what they may do, is
// still loaded from the database on every call. Tokens that fail are never remembered.

/** grantId: the provider's grant the token was issued under (real tokens always name one; test verifiers may not) */
/** jkt: the thumbprint of the DPoP key the token is bound to (cnf.jkt); such a token needs a proof by that key on every call */
/** amr: how the session's user signed in (RFC 8176 names: 'pwd', 'otp'), carried by the token from its grant's sign-in */
export type VerifiedToken = { userId: string; scopes: string[]; grantId?: string; jkt?: string; amr?: string[] };
export type AccessTokenVerifier = (token: string) => Promise<VerifiedToken>;

export type VerifiedTokenCacheOptions = {
  /** most tokens remembered; past it the oldest entry goes */
  maxEntries?: number;
  now?: () => number;
};

/** The exp claim (seconds) of a compact JWT, or null when the string is not one; read only after verification. */
export function expiryOf(token: string): number | null {
  const payload = token.split('.')[1];
  if (!payload) return null;
  try {
    const exp = (JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { exp?: unknown }).exp;
    return typeof exp === 'number' && Number.isFinite(exp) ? exp : null;
  } catch {
    return null;
  }
}

/** Wraps a verifier: a token verified before and not yet expired is answered from memory. */
export function cachingVerifier(verify: AccessTokenVerifier, options: VerifiedTokenCacheOptions = {}): AccessTokenVerifier {
  const maxEntries = options.maxEntries ?? 5000;
  const now = options.now ?? Date.now;
  const entries = new Map<string, VerifiedToken & { expiresAtMs: number }>();
  return async (token) => {
    const known = entries.get(token);
    if (known) {
      if (now() < known.expiresAtMs)
        return {
          userId: known.userId,
          scopes: known.scopes,
          ...(known.grantId ? { grantId: known.grantId } : {}),
          ...(known.jkt ? { jkt: known.jkt } : {}),
          ...(known.amr ? { amr: known.amr } : {}),
        };
      entries.delete(token);
    }
    const verified = await verify(token);
    const exp = expiryOf(token);
    // Without an exp there is no bound to remember it by: such tokens are verified every time.
    if (exp !== null && now() < exp * 1000) {
      if (entries.size >= maxEntries) {
        const oldest = entries.keys().next().value;
        if (oldest !== undefined) entries.delete(oldest);
      }
      entries.set(token, { ...verified, expiresAtMs: exp * 1000 });
    }
    return verified;
  };
}
