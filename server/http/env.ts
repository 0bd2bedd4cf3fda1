// What every Portal API handler receives: the database and the verified caller.
import { type } from 'arktype';
import type { Context } from 'hono';
import type { PermissionName } from '../../src/contract/permissions.ts';
import type { CardKeys } from '../cards/card-keys.ts';
import type { Database } from '../db/client.ts';
import type { FileStore } from '../files/file-store.ts';
import type { Principal } from '../policy/principal.ts';
import { badRequest, forbidden, validationMessages } from './errors.ts';

/** sessionKey: the provider grant of the caller's session ('' when the token names none): step-up is per session;
 * amr: how that session signed in ('otp' when with the second factor; [] when the token does not say) */
export type AppEnv = { Variables: { principal: Principal; timeZone: string; sessionKey: string; amr: string[] } };
export type Deps = {
  database: Database;
  cardKeys: CardKeys;
  /** the process's one FileStore (server/files/): every kept file */
  files: FileStore;
  /** origin browsers use (PUBLIC_URL): links in emails are built from it (server/mail/compose.ts portalLink) */
  publicUrl: string;
};

/** Parses a JSON body with a contract schema; anything else is a 400 saying what is wrong. */
export async function readBody<T>(c: Context<AppEnv>, schema: (input: unknown) => T | InstanceType<typeof type.errors>): Promise<T> {
  const contentType = c.req.header('content-type') ?? '';
  if (!/^application\/json\b/i.test(contentType)) throw badRequest('The request body must be application/json.');
  let input: unknown;
  try {
    input = await c.req.json();
  } catch {
    throw badRequest('The request body is not valid JSON.');
  }
  if (containsNul(input)) throw badRequest('The request body may not contain NUL characters.');
  const parsed = schema(input);
  if (parsed instanceof type.errors) throw badRequest(validationMessages(parsed));
  return parsed;
}

function containsNul(value: unknown): boolean {
  if (typeof value === 'string') return value.includes('\u0000');
  if (Array.isArray(value)) return value.some(containsNul);
  if (value && typeof value === 'object') return Object.entries(value).some(([key, inner]) => key.includes('\u0000') || containsNul(inner));
  return false;
}

export function requirePermission(granted: Set<PermissionName>, permission: PermissionName): void {
  if (!granted.has(permission)) throw forbidden();
}
