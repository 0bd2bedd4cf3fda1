// GET /user/notifications and /user/notifications/{reference}: the notifications the caller may read
// (published; internal-only ones for internal users), newest first. Opening one records it as read.
import { and, count, desc, eq, notExists, sql, type SQL } from 'drizzle-orm';
import { Hono } from 'hono';
import { parseListQuery } from '../../src/contract/list-query.ts';
import { notificationReads, notifications } from '../db/schema.ts';
import type { Principal } from '../policy/principal.ts';
import type { AppEnv, Deps } from './env.ts';
import { badRequest, notFound } from './errors.ts';

/** The same visibility GET /user/notifications/status counts. */
function visibleTo(principal: Principal): SQL | undefined {
  return and(
    eq(notifications.status, 'published'),
    principal.internal ? undefined : eq(notifications.viewRestriction, 'allUsers'),
  );
}

const iso = (value: Date | null) => (value ? value.toISOString() : null);

export function userNotificationRoutes({ database }: Deps) {
  const { db } = database;
  const routes = new Hono<AppEnv>();

  routes.get('/user/notifications', async (c) => {
    const parsed = parseListQuery(c.req.query(), { filters: {}, sortable: [], defaultSort: [] });
    if (!parsed.ok) throw badRequest(parsed.errors);
    const { pageNumber, pageSize } = parsed.query;
    const principal = c.get('principal');
    const visible = visibleTo(principal);
    const unread = notExists(db.select({ one: sql`1` }).from(notificationReads)
      .where(and(eq(notificationReads.reference, notifications.reference), eq(notificationReads.userId, principal.userId))));
    const rows = await db.select({
      reference: notifications.reference, title: notifications.title, publishedUtc: notifications.publishedUtc,
      lastEditedUtc: notifications.lastEditedUtc, unread: sql<boolean>`${unread}`.mapWith(Boolean),
    }).from(notifications).where(visible)
      .orderBy(desc(notifications.publishedUtc), desc(notifications.reference))
      .limit(pageSize).offset((pageNumber - 1) * pageSize);
    const [counted] = await db.select({ total: count() }).from(notifications).where(visible);
    return c.json({
      results: rows.map((row) => ({ ...row, publishedUtc: iso(row.publishedUtc), lastEditedUtc: iso(row.lastEditedUtc) })),
      numberOfResults: Number(counted?.total ?? 0),
    });
  });

  routes.get('/user/notifications/:reference', async (c) => {
    const reference = c.req.param('reference');
    if (reference.length > 64) throw notFound();
    const principal = c.get('principal');
    const notification = await db.transaction(async (tx) => {
      const [row] = await tx.select().from(notifications).where(and(eq(notifications.reference, reference), visibleTo(principal)));
      if (!row) return null;
      await tx.insert(notificationReads).values({ userId: principal.userId, reference: row.reference }).onConflictDoNothing();
      return row;
    });
    if (!notification) throw notFound();
    return c.json({
      reference: notification.reference, title: notification.title, content: notification.content,
      publishedUtc: iso(notification.publishedUtc), lastEditedUtc: iso(notification.lastEditedUtc),
    });
  });

  return routes;
}
