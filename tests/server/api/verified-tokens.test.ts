// Verified access tokens are remembered by their exact string until their exp, never past it, never when they failed.
import { describe, expect, it } from 'vitest';
import { cachingVerifier, expiryOf } from '../../../server/api/verified-tokens.ts';

const jwtWith = (payload: object) => `eyJhbGciOiJSUzI1NiJ9.${Buffer.from(JSON.stringify(payload)).toString('base64url')}.c2lnbmF0dXJl`;

const subjectOf = (token: string) => {
  try {
    return (JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')) as { sub?: string }).sub;
  } catch {
    return undefined;
  }
};

function countingVerifier() {
  const calls: string[] = [];
  const verify = async (token: string) => {
    calls.push(token);
    if (subjectOf(token) === 'bad') throw new Error('invalid');
    return { userId: 'u1', scopes: ['portal'] };
  };
  return { calls, verify };
}

describe('verified token cache', () => {
  it('reads exp from a compact JWT and nothing from anything else', () => {
    expect(expiryOf(jwtWith({ sub: 'u1', exp: 1_900_000_000 }))).toBe(1_900_000_000);
    expect(expiryOf(jwtWith({ sub: 'u1' }))).toBeNull();
    expect(expiryOf('user.u1')).toBeNull();
    expect(expiryOf('a.%%%.c')).toBeNull();
  });

  it('verifies a token once, answers from memory until exp, and verifies again after it', async () => {
    let now = 1_000_000_000_000;
    const { calls, verify } = countingVerifier();
    const cached = cachingVerifier(verify, { now: () => now });
    const token = jwtWith({ sub: 'u1', exp: now / 1000 + 60 });
    expect(await cached(token)).toEqual({ userId: 'u1', scopes: ['portal'] });
    expect(await cached(token)).toEqual({ userId: 'u1', scopes: ['portal'] });
    expect(calls).toHaveLength(1);
    now += 59_999;
    await cached(token);
    expect(calls).toHaveLength(1);
    now += 1;
    // At exp the real verifier decides again (and would refuse an expired token).
    await cached(token);
    expect(calls).toHaveLength(2);
  });

  it('never remembers a failure, a token without exp, or an already expired one', async () => {
    const now = 1_000_000_000_000;
    const { calls, verify } = countingVerifier();
    const cached = cachingVerifier(verify, { now: () => now });
    const bad = jwtWith({ sub: 'bad', exp: now / 1000 + 60 });
    await expect(cached(bad)).rejects.toThrow('invalid');
    await expect(cached(bad)).rejects.toThrow('invalid');
    await cached('user.u1');
    await cached('user.u1');
    const stale = jwtWith({ sub: 'u1', exp: now / 1000 - 1 });
    await cached(stale);
    await cached(stale);
    expect(calls).toEqual([bad, bad, 'user.u1', 'user.u1', stale, stale]);
  });

  it('a token differing in any character is verified on its own', async () => {
    const now = 1_000_000_000_000;
    const { calls, verify } = countingVerifier();
    const cached = cachingVerifier(verify, { now: () => now });
    const token = jwtWith({ sub: 'u1', exp: now / 1000 + 60 });
    await cached(token);
    await cached(`${token.slice(0, -1)}X`);
    expect(calls).toHaveLength(2);
  });

  it('keeps at most maxEntries, dropping the oldest', async () => {
    const now = 1_000_000_000_000;
    const { calls, verify } = countingVerifier();
    const cached = cachingVerifier(verify, { now: () => now, maxEntries: 2 });
    const tokens = [1, 2, 3].map((n) => jwtWith({ sub: `u${n}`, exp: now / 1000 + 60 }));
    for (const token of tokens) await cached(token);
    await cached(tokens[2] ?? '');
    await cached(tokens[1] ?? '');
    expect(calls).toHaveLength(3);
    await cached(tokens[0] ?? '');
    expect(calls).toHaveLength(4);
  });
});
