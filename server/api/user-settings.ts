// Per-user settings (filter presets, context favourites and recents, column choices): JSON text values.
import { type } from 'arktype';
import { and, eq } from 'drizzle-orm';
import { Hono } from 'hono';
import { userSettings } from '../db/schema.ts';
import { type AppEnv, type Deps, readBody } from './env.ts';
import { badRequest, notFound } from './errors.ts';

const settingKey = /^[A-Za-z][A-Za-z0-9._-]{0,63}$/;
export const maxSettingLength = 256 * 1024;

const settingBody = type({ value: 'string' }).narrow((body, ctx) => {
  if (body.value.length > maxSettingLength) return ctx.reject({ problem: `value may have ${maxSettingLength} characters maximum` });
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
    const [row] = await db.select().from(userSettings).where(and(eq(userSettings.userId, c.get('principal').userId), eq(userSettings.key, key)));
    if (!row) throw notFound();
    return c.json({ key, value: row.value });
  });

  routes.put('/user-settings/:key', async (c) => {
    const key = keyOf(c.req.param('key'));
    const { value } = await readBody(c, settingBody);
    const userId = c.get('principal').userId;
    await db.insert(userSettings).values({ userId, key, value, updatedAt: new Date() })
      .onConflictDoUpdate({ target: [userSettings.userId, userSettings.key], set: { value, updatedAt: new Date() } });
    return c.json({ key, value });
  });

  return routes;
}
