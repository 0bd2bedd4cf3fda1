// GET /user/notifications and /user/notifications/{reference}: the notifications the caller may read
// (published; internal-only ones for internal users; narrowed by an audience), newest first. Opening one records
// it as read; PUT /user/notifications/{reference}/read-state { read } ('Mark as unread') and
// PUT /user/notifications/read-state { read: true } ('Mark all as read') change the caller's read state (204).
import { and, arrayContains, arrayOverlaps, count, desc, eq, isNull, lte, notExists, or, sql, type SQL } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import { eventBusOf } from '../events/event-bus.ts';
import { Hono } from 'hono';
import { parseListQuery } from '../../src/contract/list-query.ts';
import { notificationReads, notifications } from '../db/schema.ts';
import type { Principal } from '../policy/principal.ts';
import { readStateBody } from '../../src/contract/notification-schemas.ts';
import { type AppEnv, type Deps, readBody } from '../http/env.ts';
import { badRequest, notFound } from '../http/errors.ts';
import { sqlNow } from '../clock.ts';

/**
 * Who reads a notification (the list, the detail and GET /user/notifications/status alike): published ones;
 * internal-only ones for internal users; one with an audience only for users of those partners or businesses
 * (internal users read all of them).
 */
export function visibleTo(principal: Principal): SQL | undefined {
  // A personal notification (a ticket reply) is read by its addressees only, internal users included.
  const addressed = or(isNull(notifications.audienceUserIds), arrayContains(notifications.audienceUserIds, [principal.userId]));
  if (principal.internal) return and(eq(notifications.status, 'published'), addressed);
  const businessIds = [
    ...new Set([
      ...principal.businessIds,
      ...principal.partnerBusinessIds,
      ...principal.grants.map((grant) => grant.businessId).filter((id): id is string => id !== null),
    ]),
  ];
  const partnerIds = principal.partnerIds;
  return and(
    eq(notifications.status, 'published'),
    eq(notifications.viewRestriction, 'allUsers'),
    or(
      and(isNull(notifications.audiencePartnerIds), isNull(notifications.audienceBusinessIds)),
      partnerIds.length > 0 ? arrayOverlaps(notifications.audiencePartnerIds, partnerIds) : undefined,
      businessIds.length > 0 ? arrayOverlaps(notifications.audienceBusinessIds, businessIds) : undefined,
    ),
    addressed,
  );
}

/**
 * Scheduled publication: notifications ready for publication whose time has come become published (at that time).
 * Run before every read of the inbox, so no job is needed for it to happen; idempotent, and a no-op when none is due.
 */
export async function publishDueNotifications(database: Database): Promise<string[]> {
  const bus = eventBusOf(database);
  const { due, event } = await database.db.transaction(async (tx) => {
    const rows = await tx
      .update(notifications)
      .set({ status: 'published', publishedUtc: sql`${notifications.publishAtUtc}`, version: sql`${notifications.version} + 1` })
      .where(and(eq(notifications.status, 'readyForPublication'), lte(notifications.publishAtUtc, sqlNow())))
      .returning({ reference: notifications.reference });
    // Every open tab refreshes its bell: the scheduled time has come.
    return { due: rows.map((row) => row.reference), event: rows.length > 0 ? await bus.record(tx, 'notifications') : null };
  });
  if (event) bus.committed(event);
  return due;
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
    await publishDueNotifications(database);
    const visible = visibleTo(principal);
    const unread = notExists(
      db
        .select({ one: sql`1` })
        .from(notificationReads)
        .where(and(eq(notificationReads.reference, notifications.reference), eq(notificationReads.userId, principal.userId))),
    );
    const rows = await db
      .select({
        reference: notifications.reference,
        title: notifications.title,
        publishedUtc: notifications.publishedUtc,
        lastEditedUtc: notifications.lastEditedUtc,
        unread: sql<boolean>`${unread}`.mapWith(Boolean),
      })
      .from(notifications)
      .where(visible)
      .orderBy(desc(notifications.publishedUtc), desc(notifications.reference))
      .limit(pageSize)
      .offset((pageNumber - 1) * pageSize);
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
    await publishDueNotifications(database);
    const notification = await db.transaction(async (tx) => {
      const [row] = await tx
        .select()
        .from(notifications)
        .where(and(eq(notifications.reference, reference), visibleTo(principal)));
      if (!row) return null;
      await tx.insert(notificationReads).values({ userId: principal.userId, reference: row.reference }).onConflictDoNothing();
      return row;
    });
    if (!notification) throw notFound();
    return c.json({
      reference: notification.reference,
      title: notification.title,
      content: notification.content,
      publishedUtc: iso(notification.publishedUtc),
      lastEditedUtc: iso(notification.lastEditedUtc),
    });
  });

  // Read state is the server's, per user (never per browser): 'Mark all as read' and 'Mark as unread'.
  routes.put('/user/notifications/read-state', async (c) => {
    const { read } = await readBody(c, readStateBody);
    if (!read) throw badRequest('Only { read: true } applies to all notifications: mark them unread one at a time.');
    const principal = c.get('principal');
    await publishDueNotifications(database);
    await db
      .insert(notificationReads)
      .select(
        db
          .select({ userId: sql<string>`${principal.userId}`.as('user_id'), reference: notifications.reference, readUtc: sqlNow().as('read_utc') })
          .from(notifications)
          .where(visibleTo(principal)),
      )
      .onConflictDoNothing();
    return c.body(null, 204);
  });

  routes.put('/user/notifications/:reference/read-state', async (c) => {
    const reference = c.req.param('reference');
    if (reference.length > 64) throw notFound();
    const principal = c.get('principal');
    // What the caller cannot read does not exist for them, whatever the body says.
    const [row] = await db
      .select({ reference: notifications.reference })
      .from(notifications)
      .where(and(eq(notifications.reference, reference), visibleTo(principal)));
    if (!row) throw notFound();
    const { read } = await readBody(c, readStateBody);
    if (read) await db.insert(notificationReads).values({ userId: principal.userId, reference: row.reference }).onConflictDoNothing();
    else await db.delete(notificationReads).where(and(eq(notificationReads.reference, row.reference), eq(notificationReads.userId, principal.userId)));
    return c.body(null, 204);
  });

  return routes;
}
