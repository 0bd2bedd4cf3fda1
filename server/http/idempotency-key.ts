// The Idempotency-Key header of a money or run request: printable ASCII without spaces, at most
// maxIdempotencyKeyLength characters. One check and one message for every route that takes it.
import type { Context } from 'hono';
import { maxIdempotencyKeyLength } from '../../src/contract/payment-jobs.ts';
import { badRequest } from './errors.ts';

const idempotencyKeyPattern = new RegExp(`^[\\x21-\\x7e]{1,${maxIdempotencyKeyLength}}$`);

export const idempotencyKeyMessage = `The Idempotency-Key must be 1 to ${maxIdempotencyKeyLength} printable characters without spaces.`;

export const isIdempotencyKey = (key: string): boolean => idempotencyKeyPattern.test(key);

/** The request's Idempotency-Key, null when it has none; a malformed one is a 400. */
export function idempotencyKeyOf(c: Context): string | null {
  const key = c.req.header('idempotency-key');
  if (key === undefined) return null;
  if (!isIdempotencyKey(key)) throw badRequest(idempotencyKeyMessage);
  return key;
}
