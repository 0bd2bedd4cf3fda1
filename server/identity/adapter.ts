// oidc-provider's storage Adapter over the `oidc_payloads` table (drizzle, parameterised queries only).
// One row per (id, model name); sessions, interactions, grants, codes and refresh tokens of every node live here.
// JWT access tokens are self-contained and never stored. Expired rows are ignored on read and can be purged.
import { and, eq, gt, isNull, lte, or, sql } from 'drizzle-orm';
import type { Adapter, AdapterPayload } from 'oidc-provider';
import type { Database } from '../db/client.ts';
import { oidcPayloads } from '../db/schema.ts';
import { purgeSignInState } from './sign-in-guard.ts';

export type AdapterClass = new (modelName: string) => Adapter;

const notExpired = (now: Date) => or(isNull(oidcPayloads.expiresAt), gt(oidcPayloads.expiresAt, now));

/** A Session payload's authorizations ({ clientId: { grantId, … } }) name this grant. */
const sessionHoldsGrant = (grantId: string) =>
  sql`EXISTS (SELECT 1 FROM jsonb_each(${oidcPayloads.payload} -> 'authorizations') AS a WHERE a.value ->> 'grantId' = ${grantId})`;

/** The grant exists and has not expired: the access tokens issued under it may still be used. */
export async function grantIsLive(database: Database, grantId: string): Promise<boolean> {
  const [row] = await database.db
    .select({ id: oidcPayloads.id })
    .from(oidcPayloads)
    .where(and(eq(oidcPayloads.id, grantId), eq(oidcPayloads.type, 'Grant'), notExpired(new Date())))
    .limit(1);
  return row !== undefined;
}

/**
 * Ends everything an account holds at the provider: sessions, grants, codes and refresh tokens (access tokens are
 * JWTs, refused from then on because their grant is gone). For a lock, a deletion or a loss of roles.
 */
export async function revokeAccountAccess(writer: Pick<Database['db'], 'delete'>, accountId: string): Promise<number> {
  const deleted = await writer
    .delete(oidcPayloads)
    .where(
      sql`${oidcPayloads.type} IN ('Session', 'Grant', 'RefreshToken', 'AuthorizationCode', 'AccessToken') AND ${oidcPayloads.payload} ->> 'accountId' = ${accountId}`,
    )
    .returning({ id: oidcPayloads.id });
  return deleted.length;
}

function toPayload(row: { payload: unknown; consumedAt: Date | null }): AdapterPayload {
  const payload = row.payload as AdapterPayload;
  // oidc-provider only looks at truthiness; epoch seconds mirror its own payload fields.
  return row.consumedAt ? { ...payload, consumed: Math.floor(row.consumedAt.getTime() / 1000) } : payload;
}

/** The Adapter class for one database; oidc-provider constructs one instance per model name. */
export function createAdapterClass(database: Database): AdapterClass {
  const { db } = database;

  return class DatabaseAdapter implements Adapter {
    readonly name: string;

    constructor(modelName: string) {
      this.name = modelName;
    }

    async upsert(id: string, payload: AdapterPayload, expiresIn?: number): Promise<void> {
      const expiresAt = expiresIn ? new Date(Date.now() + expiresIn * 1000) : null;
      const columns = {
        payload,
        grantId: payload.grantId ?? null,
        userCode: payload.userCode ?? null,
        uid: payload.uid ?? null,
        expiresAt,
      };
      await db
        .insert(oidcPayloads)
        .values({ id, type: this.name, ...columns })
        .onConflictDoUpdate({ target: [oidcPayloads.id, oidcPayloads.type], set: columns });
    }

    async find(id: string): Promise<AdapterPayload | undefined> {
      return this.#findOne(eq(oidcPayloads.id, id));
    }

    async findByUid(uid: string): Promise<AdapterPayload | undefined> {
      return this.#findOne(eq(oidcPayloads.uid, uid));
    }

    async findByUserCode(userCode: string): Promise<AdapterPayload | undefined> {
      return this.#findOne(eq(oidcPayloads.userCode, userCode));
    }

    async consume(id: string): Promise<void> {
      await db
        .update(oidcPayloads)
        .set({ consumedAt: new Date() })
        .where(and(eq(oidcPayloads.id, id), eq(oidcPayloads.type, this.name)));
    }

    async destroy(id: string): Promise<void> {
      if (this.name === 'Grant') {
        // A revoked grant (sign-out, a refresh token replayed or revoked, inactivity) ends the sign-in session that
        // holds it too: the browser's provider cookie must not sign the user straight back in without a password.
        await db.transaction(async (tx) => {
          await tx.delete(oidcPayloads).where(and(eq(oidcPayloads.id, id), eq(oidcPayloads.type, 'Grant')));
          await tx.delete(oidcPayloads).where(and(eq(oidcPayloads.type, 'Session'), sessionHoldsGrant(id)));
        });
        return;
      }
      await db.delete(oidcPayloads).where(and(eq(oidcPayloads.id, id), eq(oidcPayloads.type, this.name)));
    }

    async revokeByGrantId(grantId: string): Promise<void> {
      await db.delete(oidcPayloads).where(and(eq(oidcPayloads.grantId, grantId), eq(oidcPayloads.type, this.name)));
    }

    async #findOne(condition: ReturnType<typeof eq>): Promise<AdapterPayload | undefined> {
      const [row] = await db
        .select({ payload: oidcPayloads.payload, consumedAt: oidcPayloads.consumedAt })
        .from(oidcPayloads)
        .where(and(condition, eq(oidcPayloads.type, this.name), notExpired(new Date())))
        .limit(1);
      return row ? toPayload(row) : undefined;
    }
  };
}

/** Deletes rows whose lifetime has ended (any model). Safe to call from any node at any time. */
export async function purgeExpiredPayloads(database: Database, now = new Date()): Promise<number> {
  const deleted = await database.db.delete(oidcPayloads).where(lte(oidcPayloads.expiresAt, now)).returning({ id: oidcPayloads.id });
  // Sign-in attempts matter for the throttles' window only (the audit trail keeps the record); step-ups end by themselves.
  await purgeSignInState(database.db, now);
  return deleted.length;
}

export type PayloadPurge = { stop: () => void };

/**
 * Purges expired sessions, interactions, codes and tokens now and then every `intervalMs` (expired rows are already
 * ignored on read; this keeps the table from growing). A failed purge is logged and tried again next time; the
 * timer does not keep the process alive.
 */
export function startPayloadPurge(database: Database, options: { intervalMs: number; log: (line: string) => void }): PayloadPurge {
  let running: Promise<void> | null = null;
  const purge = () => {
    if (running) return;
    running = purgeExpiredPayloads(database)
      .then(
        (count) => {
          if (count > 0) options.log(`purged ${count} expired identity records`);
        },
        (error: unknown) => options.log(`purging expired identity records failed: ${error instanceof Error ? error.message : String(error)}`),
      )
      .finally(() => {
        running = null;
      });
  };
  purge();
  const timer = setInterval(purge, options.intervalMs);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
