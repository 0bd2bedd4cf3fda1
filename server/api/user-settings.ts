// Per-user settings (context favourites and recents, column choices): JSON text values. Filter presets live in the database (filter-presets.ts).
//
// | method | path                | answer                                                                            |
// |--------|---------------------|-----------------------------------------------------------------------------------|
// | GET    | /user-settings/{key} | { key, value }; { key, value: null } when unset: 'not set' is an answer, not a     |
// |        |                      | missing record, so the browser logs no failed request on every screen              |
// | PUT    | /user-settings/{key} | { key, value }: value JSON text of at most 64 KiB (UTF-8 bytes); a new key beyond |
// |        |                      | the user's 100th is a 400                                                          |
// | DELETE | /user-settings/{key} | 204, set or not                                                                    |
import { type } from 'arktype';
import { and, count, eq, ne } from 'drizzle-orm';
import { Hono } from 'hono';
import { userSettings, users } from '../db/schema.ts';
import { type AppEnv, type Deps, readBody } from '../http/env.ts';
import { badRequest } from '../http/errors.ts';

const settingKey = /^[A-Za-z][A-Za-z0-9._-]{0,63}$/;
/** Bytes of UTF-8, not characters: what the database stores and every read sends. */
export const maxSettingBytes = 64 * 1024;
export const maxSettingsPerUser = 100;

export const settingBody = type({ value: 'string' }).narrow((body, ctx) => {
  if (Buffer.byteLength(body.value, 'utf8') > maxSettingBytes) return ctx.reject({ problem: `value may have ${maxSettingBytes} bytes maximum` });
  try {
    JSON.parse(body.value);
    return true;
  } catch {
    return ctx.reject({ problem: 'value must be JSON text' });
  }
});

export function userSettingRoutes({ database }: Deps) {
  const { db } = database;
  const routes = new Hono<AppEnv>();

  function keyOf(raw: string): string {
    if (!settingKey.test(raw)) throw badRequest('The setting key must start with a letter and hold up to 64 letters, digits, dots, dashes or underscores.');
    return raw;
  }

  routes.get('/user-settings/:key', async (c) => {
    const key = keyOf(c.req.param('key'));
    const [row] = await db
      .select()
      .from(userSettings)
      .where(and(eq(userSettings.userId, c.get('principal').userId), eq(userSettings.key, key)));
    return c.json({ key, value: row?.value ?? null });
  });

  routes.put('/user-settings/:key', async (c) => {
    const key = keyOf(c.req.param('key'));
    const { value } = await readBody(c, settingBody);
    const userId = c.get('principal').userId;
    await db.transaction(async (tx) => {
      // One writer per user at a time, so two new keys at the 99th cannot both get in.
      await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for('update');
      const [others] = await tx
        .select({ n: count() })
        .from(userSettings)
        .where(and(eq(userSettings.userId, userId), ne(userSettings.key, key)));
      if (Number(others?.n ?? 0) >= maxSettingsPerUser) {
        throw badRequest(`You have ${maxSettingsPerUser} saved settings, the most a user may keep: remove one before saving another.`);
      }
      await tx
        .insert(userSettings)
        .values({ userId, key, value, updatedAt: new Date() })
        .onConflictDoUpdate({ target: [userSettings.userId, userSettings.key], set: { value, updatedAt: new Date() } });
    });
    return c.json({ key, value });
  });

  routes.delete('/user-settings/:key', async (c) => {
    const key = keyOf(c.req.param('key'));
    await db.delete(userSettings).where(and(eq(userSettings.userId, c.get('principal').userId), eq(userSettings.key, key)));
    return c.body(null, 204);
  });

  return routes;
}
