// API keys of a configuration: the keys a merchant's shop sends to the gateway API.
// {c} = /businesses/{b}/merchants/{m}/configurations/{configurationId}
//
// | method | path                                          | permission          | answer                                       |
// |--------|-----------------------------------------------|---------------------|----------------------------------------------|
// | GET    | {c}/api-keys                                  | Mapi.ApiKeys.Manage | { results, numberOfResults } newest first    |
// | POST   | {c}/api-keys                                  | Mapi.ApiKeys.Manage + step-up | 201 { apiKey, secret } (the secret only now) |
// | POST   | {c}/api-keys/{keyId}/replacement              | Mapi.ApiKeys.Manage + step-up | 201 { apiKey, secret }: step 1, both valid   |
// | POST   | {c}/api-keys/{keyId}/replacement/complete     | Mapi.ApiKeys.Manage | { replaced, replacement }: step 2, the old   |
// |        |   { oldKeyStops: now | 1h | 24h | 7d }       |                     | key stops then                               |
// | DELETE | {c}/api-keys/{keyId}                          | Mapi.ApiKeys.Manage | 204: revoked at once (the row stays, audited)|
// Implementations and Technical admin hold Mapi.ApiKeys.Manage everywhere, Owner and External developer on their own
// businesses and merchants (the owner warned of an expiring key can replace it). A new secret, created or
// replacing one, needs a step-up: a borrowed session cannot mint a working live key. Only a SHA-256 of a key
// is stored (a key is 256 random bits: no salt or slow hash is needed against guessing); its first characters
// (prefix) let people tell keys apart. Every step is audited without the key. verifyApiKey is what the gateway
// API (virtual terminal issue) calls; warnExpiringApiKeys queues the owners' warning 7 days before an expiry.
import { requireStepUp } from './step-up.ts';
import { createHash, randomBytes } from 'node:crypto';
import { and, desc, eq, gt, isNull, lte, sql } from 'drizzle-orm';
import { Hono, type Context } from 'hono';
import { apiKeyCreateBody, apiKeyReplacementCompleteBody, type ApiKeyAnswer } from '../../src/contract/configuration-schemas.ts';
import { apiKeyExpiryWarningMs, apiKeyPrefix, apiKeyStatus, checkApiKeyEdit, oldKeyStopMs } from '../../src/contract/configurations.ts';
import type { Database, Db } from '../db/client.ts';
import { apiKeys, configurations, merchants, userRoles, users } from '../db/schema.ts';
import { portalLink } from '../mail/compose.ts';
import { isPlausibleEmailAddress, queueEmail } from '../mail/outbox.ts';
import { resolveContext } from '../policy/principal.ts';
import { recordAudit } from '../audit/record.ts';
import { idParam } from './businesses.ts';
import { type AppEnv, type Deps, readBody, requirePermission } from '../http/env.ts';
import { badRequest, notFound } from '../http/errors.ts';

const basePath = '/businesses/:businessId/merchants/:merchantId/configurations/:configurationId/api-keys';
const keyIdPattern = /^KEY[0-9A-F]{16}$/;

export const hashApiKey = (secret: string) => createHash('sha256').update(secret, 'utf8').digest('hex');

function newSecret(): { secret: string; prefix: string; keyHash: string } {
  const secret = `${apiKeyPrefix}${randomBytes(32).toString('base64url')}`;
  return { secret, prefix: secret.slice(0, apiKeyPrefix.length + 6), keyHash: hashApiKey(secret) };
}

type KeyRow = typeof apiKeys.$inferSelect;

export function apiKeyAnswerOf(row: KeyRow, now: Date): ApiKeyAnswer {
  const answer = {
    id: row.id,
    configurationId: row.configurationId,
    name: row.name,
    description: row.description,
    prefix: row.prefix,
    expiresAt: row.expiresAt?.toISOString() ?? null,
    revokedAt: row.revokedAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
    replacesId: row.replacementCompletedAt === null ? row.replacesId : null,
  };
  return { ...answer, status: apiKeyStatus(answer, now) };
}

/** The configuration a presented key belongs to, or null (unknown, revoked or expired). For the gateway API. */
export async function verifyApiKey(database: Database, secret: string, now = new Date()) {
  if (!secret.startsWith(apiKeyPrefix) || secret.length > 128) return null;
  const [row] = await database.db
    .select({ configurationId: apiKeys.configurationId, businessId: apiKeys.businessId, merchantId: apiKeys.merchantId, id: apiKeys.id })
    .from(apiKeys)
    .where(and(eq(apiKeys.keyHash, hashApiKey(secret)), isNull(apiKeys.revokedAt), sql`(${apiKeys.expiresAt} IS NULL OR ${apiKeys.expiresAt} > ${now})`));
  return row ?? null;
}

/**
 * Queues one warning per owner of the business for every key expiring within 7 days and not yet warned about;
 * marks them warned in the same transaction. Run by a periodic job (server/jobs/housekeeping.ts; docs/decisions/0100-housekeeping-on-every-node.md). Returns how many keys.
 */
export async function warnExpiringApiKeys(database: Database, publicUrl: string, now = new Date()): Promise<number> {
  return database.db.transaction(async (tx) => {
    const due = await tx
      .select({ key: apiKeys, tradeName: configurations.tradeName, merchantName: merchants.name })
      .from(apiKeys)
      .innerJoin(configurations, eq(configurations.id, apiKeys.configurationId))
      .innerJoin(merchants, eq(merchants.id, apiKeys.merchantId))
      .where(
        and(
          isNull(apiKeys.revokedAt),
          isNull(apiKeys.expiryWarnedAt),
          gt(apiKeys.expiresAt, now),
          lte(apiKeys.expiresAt, new Date(now.getTime() + apiKeyExpiryWarningMs)),
          // A key whose replacement was completed is ending on purpose: nobody needs warning about it.
          sql`NOT EXISTS (SELECT 1 FROM api_keys successor WHERE successor.replaces_id = ${apiKeys.id} AND successor.replacement_completed_at IS NOT NULL)`,
        ),
      )
      .for('update', { of: apiKeys, skipLocked: true })
      .limit(500);
    for (const { key, tradeName, merchantName } of due) {
      const owners = await tx
        .selectDistinct({ email: users.email })
        .from(userRoles)
        .innerJoin(users, eq(users.id, userRoles.userId))
        .where(and(eq(userRoles.role, 'Owner'), eq(userRoles.level, 'business'), eq(userRoles.businessId, key.businessId)));
      const expires = (key.expiresAt as Date).toLocaleString('en-GB', { dateStyle: 'long', timeStyle: 'short', timeZone: 'UTC' });
      for (const owner of owners) {
        if (!isPlausibleEmailAddress(owner.email)) continue;
        await queueEmail(tx, owner.email, {
          template: 'apiKeyExpiring',
          subject: `API key '${key.name}' expires on ${expires} UTC`,
          heading: 'An API key expires soon',
          paragraphs: [
            `The API key '${key.name}' (${key.prefix}…) of ${tradeName} (${merchantName}) stops working on ${expires} UTC.`,
            'Replace it before then so that payments keep flowing: generate a new key, install it in the shop, then complete the update.',
          ],
          action: { label: 'Open the configuration', url: portalLink(publicUrl, `/configurations/${key.configurationId}`, { tab: 'apiKeys' }) },
          footer: 'You receive this because you are an owner of the business.',
        });
      }
      await tx.update(apiKeys).set({ expiryWarnedAt: now }).where(eq(apiKeys.id, key.id));
    }
    return due.length;
  });
}

export function apiKeyRoutes({ database }: Deps) {
  const routes = new Hono<AppEnv>();
  const { db } = database;

  async function reachConfiguration(c: Context<AppEnv>) {
    const resolved = await resolveContext(database, c.get('principal'), idParam(c, 'businessId'), idParam(c, 'merchantId'));
    if (!resolved?.merchant) throw notFound();
    requirePermission(resolved.permissions, 'Mapi.ApiKeys.Manage');
    const [configuration] = await db
      .select()
      .from(configurations)
      .where(and(eq(configurations.id, idParam(c, 'configurationId')), eq(configurations.merchantId, resolved.merchant.id)));
    if (!configuration) throw notFound();
    return { businessId: resolved.business.id, merchantId: resolved.merchant.id, configuration };
  }

  async function findKey(tx: Db, configurationId: string, keyId: string): Promise<KeyRow> {
    if (!keyIdPattern.test(keyId)) throw notFound();
    const [row] = await tx
      .select()
      .from(apiKeys)
      .where(and(eq(apiKeys.id, keyId), eq(apiKeys.configurationId, configurationId)));
    if (!row) throw notFound();
    return row;
  }

  const newKeyId = () => `KEY${randomBytes(8).toString('hex').toUpperCase()}`;

  routes.get(basePath, async (c) => {
    const { configuration } = await reachConfiguration(c);
    const rows = await db
      .select()
      .from(apiKeys)
      .where(eq(apiKeys.configurationId, configuration.id))
      .orderBy(desc(apiKeys.createdAt), desc(apiKeys.id))
      .limit(200);
    const now = new Date();
    return c.json({ results: rows.map((row) => apiKeyAnswerOf(row, now)), numberOfResults: rows.length });
  });

  routes.post(basePath, async (c) => {
    const place = await reachConfiguration(c);
    // A new live key needs the password entered again in this session within the last minutes, like a replacement.
    await requireStepUp(c, db);
    const body = await readBody(c, apiKeyCreateBody);
    const now = new Date();
    const edit = { name: body.name.trim(), description: body.description.trim(), expiresAt: body.expiresAt };
    const problems = Object.values(checkApiKeyEdit(edit, now));
    if (problems.length > 0) throw badRequest(problems);
    const { secret, prefix, keyHash } = newSecret();
    const row = await db.transaction(async (tx) => {
      const [inserted] = await tx
        .insert(apiKeys)
        .values({
          id: newKeyId(),
          configurationId: place.configuration.id,
          businessId: place.businessId,
          merchantId: place.merchantId,
          name: edit.name,
          description: edit.description,
          prefix,
          keyHash,
          expiresAt: edit.expiresAt ? new Date(edit.expiresAt) : null,
          createdBy: c.get('principal').userId,
          createdAt: now,
        })
        .returning();
      if (!inserted) throw new Error('api key insert returned nothing');
      await recordAudit(tx, c.get('principal'), 'ApiKeyCreated', place, {
        configurationId: place.configuration.id,
        keyId: inserted.id,
        prefix,
        expiresAt: edit.expiresAt,
      });
      return inserted;
    });
    c.header('Cache-Control', 'no-store');
    return c.json({ apiKey: apiKeyAnswerOf(row, now), secret }, 201);
  });

  routes.post(`${basePath}/:keyId/replacement`, async (c) => {
    const place = await reachConfiguration(c);
    // A new secret for a live key needs the password entered again in this session within the last minutes (step-up).
    await requireStepUp(c, db);
    const now = new Date();
    const { secret, prefix, keyHash } = newSecret();
    const row = await db.transaction(async (tx) => {
      const old = await findKey(tx, place.configuration.id, c.req.param('keyId'));
      if (apiKeyStatus(apiKeyAnswerOf(old, now), now) === 'revoked' || apiKeyStatus(apiKeyAnswerOf(old, now), now) === 'expired') {
        throw badRequest('This API key no longer works; create a new key instead of replacing it.');
      }
      const [pending] = await tx
        .select({ id: apiKeys.id })
        .from(apiKeys)
        .where(and(eq(apiKeys.replacesId, old.id), isNull(apiKeys.replacementCompletedAt), isNull(apiKeys.revokedAt)));
      if (pending) throw badRequest('A replacement of this API key is already waiting to be completed.');
      const [inserted] = await tx
        .insert(apiKeys)
        .values({
          id: newKeyId(),
          configurationId: old.configurationId,
          businessId: old.businessId,
          merchantId: old.merchantId,
          name: old.name,
          description: old.description,
          prefix,
          keyHash,
          expiresAt: null,
          replacesId: old.id,
          createdBy: c.get('principal').userId,
          createdAt: now,
        })
        .returning();
      if (!inserted) throw new Error('api key insert returned nothing');
      await recordAudit(tx, c.get('principal'), 'ApiKeyReplacementStarted', place, {
        configurationId: old.configurationId,
        keyId: old.id,
        replacementKeyId: inserted.id,
        prefix,
      });
      return inserted;
    });
    c.header('Cache-Control', 'no-store');
    return c.json({ apiKey: apiKeyAnswerOf(row, now), secret }, 201);
  });

  routes.post(`${basePath}/:keyId/replacement/complete`, async (c) => {
    const place = await reachConfiguration(c);
    const body = await readBody(c, apiKeyReplacementCompleteBody);
    const now = new Date();
    const result = await db.transaction(async (tx) => {
      const old = await findKey(tx, place.configuration.id, c.req.param('keyId'));
      const [replacement] = await tx
        .select()
        .from(apiKeys)
        .where(and(eq(apiKeys.replacesId, old.id), isNull(apiKeys.replacementCompletedAt), isNull(apiKeys.revokedAt)));
      if (!replacement) throw badRequest('There is no replacement of this API key to complete; generate a new key first.');
      const stopsAt = new Date(now.getTime() + oldKeyStopMs[body.oldKeyStops]);
      // An old key that already expires sooner keeps its own, earlier end.
      const expiresAt = old.expiresAt !== null && old.expiresAt < stopsAt ? old.expiresAt : stopsAt;
      const [replaced] = await tx.update(apiKeys).set({ expiresAt }).where(eq(apiKeys.id, old.id)).returning();
      const [completed] = await tx.update(apiKeys).set({ replacementCompletedAt: now }).where(eq(apiKeys.id, replacement.id)).returning();
      if (!replaced || !completed) throw notFound();
      await recordAudit(tx, c.get('principal'), 'ApiKeyReplacementCompleted', place, {
        configurationId: old.configurationId,
        keyId: old.id,
        replacementKeyId: replacement.id,
        oldKeyStops: body.oldKeyStops,
        oldKeyExpiresAt: expiresAt.toISOString(),
      });
      return { replaced: apiKeyAnswerOf(replaced, now), replacement: apiKeyAnswerOf(completed, now) };
    });
    return c.json(result);
  });

  routes.delete(`${basePath}/:keyId`, async (c) => {
    const place = await reachConfiguration(c);
    const now = new Date();
    await db.transaction(async (tx) => {
      const key = await findKey(tx, place.configuration.id, c.req.param('keyId'));
      if (key.revokedAt !== null) return;
      await tx.update(apiKeys).set({ revokedAt: now }).where(eq(apiKeys.id, key.id));
      await recordAudit(tx, c.get('principal'), 'ApiKeyRevoked', place, { configurationId: key.configurationId, keyId: key.id, prefix: key.prefix });
    });
    return c.body(null, 204);
  });

  return routes;
}
