// Memory-hard password hashing with Node's scrypt (N=2^15, r=8, p=1: 32 MiB per hash), no native add-on.
import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';

const cost = { N: 32768, r: 8, p: 1, maxmem: 64 * 1024 * 1024 };
const keyLength = 32;

function derive(password: string, salt: Buffer, params: typeof cost): Promise<Buffer> {
  return new Promise((done, fail) => {
    scrypt(password.normalize('NFKC'), salt, keyLength, params, (error, key) => (error ? fail(error) : done(key)));
  });
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, cost);
  return `scrypt$${cost.N}$${cost.r}$${cost.p}$${salt.toString('base64')}$${key.toString('base64')}`;
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, key] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !key) return false;
  const expected = Buffer.from(key, 'base64');
  const actual = await derive(password, Buffer.from(salt, 'base64'), { N: Number(n), r: Number(r), p: Number(p), maxmem: cost.maxmem });
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}
