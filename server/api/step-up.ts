// Step-up authentication (src/contract/step-up.ts): the password (and the second factor's code, when the
// user has one) entered again gives this session 5 minutes in which sensitive actions are allowed.
//
// | Method | Path          | Permission      | Answer                                                               |
// |--------|---------------|-----------------|----------------------------------------------------------------------|
// | POST   | /user/step-up | signed-in user  | { validUntilUtc }; 400 wrong password or code, 429 too many attempts |
//
// The password check is the sign-in's own (server/identity/accounts.ts): it counts towards the lockout and the
// address and email throttles, so a borrowed session cannot guess the password here either. Each step-up, right or
// wrong, is audited with the client's address and user agent.
import type { IncomingMessage } from 'node:http';
import { and, eq, gt } from 'drizzle-orm';
import { Hono, type Context } from 'hono';
import { stepUpMessages, stepUpMinutes } from '../../src/contract/step-up.ts';
import { stepUpBody } from '../../src/contract/user-schemas.ts';
import { clientAddressOf } from '../client-address.ts';
import type { Db } from '../db/client.ts';
import { stepUpGrants } from '../db/schema.ts';
import { createAccounts, type Accounts } from '../identity/accounts.ts';
import { formatLockoutEnd } from '../identity/pages.ts';
import { recordSignInEvent, sourceOf, type AttemptSource } from '../identity/sign-in-guard.ts';
import type { Principal } from '../policy/principal.ts';
import { checkSecondFactorCode, hasActiveSecondFactor } from '../users/second-factor.ts';
import { type AppEnv, type Deps, readBody } from '../http/env.ts';
import { ApiError, badRequest } from '../http/errors.ts';

/** The client's address and user agent, for the audit trail and the sign-in throttles. */
export function requestSource(c: Context<AppEnv>): AttemptSource {
  // The node server's request (absent in tests that call app.request): its client address behind trusted proxies.
  const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
  return sourceOf(incoming ? clientAddressOf(incoming) : undefined, c.req.header('user-agent'));
}

/** The same, as audit metadata. */
export function sourceMetaData(c: Context<AppEnv>): { clientAddress: string; userAgent: string } {
  const source = requestSource(c);
  return { clientAddress: source.address, userAgent: source.userAgent };
}

/**
 * Refuses a sensitive action (403, with the message that tells the client which dialog to show) unless this session
 * stepped up within the last 5 minutes. Call it before anything is read or written.
 */
export async function requireStepUp(c: Context<AppEnv>, db: Db): Promise<void> {
  const principal = c.get('principal');
  const [grant] = await db
    .select({ userId: stepUpGrants.userId })
    .from(stepUpGrants)
    .where(and(eq(stepUpGrants.userId, principal.userId), eq(stepUpGrants.sessionKey, c.get('sessionKey') ?? ''), gt(stepUpGrants.expiresAt, new Date())));
  if (grant) return;
  const withCode = await hasActiveSecondFactor(db, principal.userId);
  // RFC 9470's challenge beside the portal's errorReport: the authentication is not recent enough.
  c.header(
    'WWW-Authenticate',
    `Bearer error="insufficient_user_authentication", error_description="A recent authentication is required", max_age=${stepUpMinutes * 60}`,
  );
  throw new ApiError(403, withCode ? stepUpMessages.passwordAndCodeRequired : stepUpMessages.passwordRequired);
}

/**
 * Checks the signed-in user's own password the way sign-in does (counted towards the lockout and the throttles), for
 * calls that ask for the current password: true when right; 429 when throttled.
 */
export function ownPasswordCheck({ database, publicUrl }: Pick<Deps, 'database' | 'publicUrl'>) {
  let accounts: Promise<Accounts> | undefined;
  return async (c: Context<AppEnv>, password: string, purpose: 'stepUp' | 'passwordCheck' = 'passwordCheck'): Promise<boolean> => {
    const principal = c.get('principal');
    accounts ??= createAccounts(database, publicUrl);
    const checked = await (await accounts).signIn(principal.email, password, { source: requestSource(c), purpose, userId: principal.userId });
    if (checked.outcome === 'throttled') {
      c.header('Retry-After', String(Math.max(1, Math.ceil((checked.retryAt.getTime() - Date.now()) / 1000))));
      throw new ApiError(429, `Too many attempts. Try again after ${formatLockoutEnd(checked.retryAt)}.`);
    }
    return checked.outcome === 'success';
  };
}

export function stepUpRoutes({ database, publicUrl, cardKeys }: Deps) {
  const { db } = database;
  const routes = new Hono<AppEnv>();
  const passwordIsRight = ownPasswordCheck({ database, publicUrl });

  routes.post('/user/step-up', async (c) => {
    const principal: Principal = c.get('principal');
    const body = await readBody(c, stepUpBody);
    const source = requestSource(c);
    if (!(await passwordIsRight(c, body.password, 'stepUp'))) throw badRequest(stepUpMessages.wrongPassword);
    if (await hasActiveSecondFactor(db, principal.userId)) {
      const code = body.code?.trim() ?? '';
      if (!code) throw badRequest(stepUpMessages.codeNeeded);
      // Wrong codes count on the account as at sign-in (the tenth locks it and ends this session).
      const checked = await checkSecondFactorCode(database, cardKeys, principal.userId, code, { publicUrl, source });
      if (checked === 'wrong' || checked === 'locked') {
        await recordSignInEvent(db, 'StepUpFailed', { userId: principal.userId }, source, { reason: checked === 'locked' ? 'locked' : 'wrongCode' });
        throw badRequest(stepUpMessages.wrongCode);
      }
    }
    const now = new Date();
    const expiresAt = new Date(now.getTime() + stepUpMinutes * 60_000);
    await db.transaction(async (tx) => {
      await tx
        .insert(stepUpGrants)
        .values({ userId: principal.userId, sessionKey: c.get('sessionKey') ?? '', expiresAt, createdAt: now })
        .onConflictDoUpdate({ target: [stepUpGrants.userId, stepUpGrants.sessionKey], set: { expiresAt, createdAt: now } });
      await recordSignInEvent(tx, 'StepUpSucceeded', { userId: principal.userId }, source, { validUntilUtc: expiresAt.toISOString() });
    });
    return c.json({ validUntilUtc: expiresAt.toISOString() });
  });

  return routes;
}
