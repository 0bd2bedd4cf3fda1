// Notifications authoring: provider staff write, schedule, publish and withdraw the announcements every user reads
// in their inbox and bell (GET /user/notifications…, user-notifications.ts). Notifications are not tenants' data:
// authoring needs Portal.Notifications.Create from a root (internal) role; anyone else is answered 403.
//
// | method | path                          | answer                                                              |
// |--------|-------------------------------|---------------------------------------------------------------------|
// | GET    | /notifications                | { results, numberOfResults }, every status, newest edit first;       |
// |        |                               | filter status=[eq]draft…, pagenumber, pagesize                       |
// | POST   | /notifications                | 201 { reference }; body { title, content, viewRestriction, status,   |
// |        |                               | publishAtUtc?, audience? }                                           |
// | GET    | /notifications/audience       | { results }: businesses and partners to address, by name (term=) or  |
// |        |                               | by id (ids=B1,P1): kind, id, name, partnerName; at most 20 a kind    |
// | GET    | /notifications/{reference}    | the notification with its content and version                        |
// | PUT    | /notifications/{reference}    | the notification; the body plus version, 409 when stale              |
// | DELETE | /notifications/{reference}    | 204                                                                 |
//
// Content is JSON text of the notification document (src/contract/notification-schemas.ts notificationContent:
// paragraphs, headings, lists, runs of bold, italic and linked text; links to http(s) or mailto only), never HTML.
// Status workflow: draft → readyForPublication → published → unpublished (and back to draft or publication);
// readyForPublication with publishAtUtc in the future is a scheduled publication: the first inbox read after that
// time publishes it (publishDueNotifications). Publishing stamps publishedUtc. Every write is audited.
import { randomBytes } from 'node:crypto';
import { type } from 'arktype';
import { and, count, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import { Hono, type Context } from 'hono';
import { parseListQuery } from '../../src/contract/list-query.ts';
import { notificationStatusTransitions } from '../../src/contract/notifications.ts';
import {
  audienceCandidateQuery,
  notificationBody,
  notificationContent,
  notificationStatuses,
  notificationUpdateBody,
  type AudienceCandidate,
  type AuthoredNotification,
  type AuthoredNotificationSummary,
  type NotificationBody,
} from '../../src/contract/notification-schemas.ts';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { recordAudit } from '../audit/record.ts';
import type { Db } from '../db/client.ts';
import { businesses, notificationReads, notifications, partners } from '../db/schema.ts';
import type { Principal } from '../policy/principal.ts';
import type { AppEnv, Deps } from '../http/env.ts';
import { readBody } from '../http/env.ts';
import { badRequest, conflict, forbidden, notFound, validationMessages } from '../http/errors.ts';
import { likeLiteral } from '../http/list-sql.ts';
import { grantedScope } from '../transactions/scope.ts';
import { eventBusOf, type PortalEvent } from '../events/event-bus.ts';

type Status = (typeof notificationStatuses)[number];

export const statusTransitions = notificationStatusTransitions;

const iso = (value: Date | null) => (value ? value.toISOString() : null);
const referencePattern = /^[A-Za-z0-9_-]{1,64}$/;

function requireAuthor(c: Context<AppEnv>): Principal {
  const principal = c.get('principal');
  if (grantedScope(principal, 'Portal.Notifications.Create')?.level !== 'all') throw forbidden();
  return principal;
}

/** The body's rules beyond its shape: a content document, a sensible schedule, an audience that exists. */
async function checkBody(db: Db, body: NotificationBody): Promise<{ publishAt: Date | null }> {
  const problems: string[] = [];
  let document: unknown;
  try {
    document = JSON.parse(body.content);
  } catch {
    problems.push('content must be JSON text of a notification document');
  }
  if (document !== undefined) {
    const checked = notificationContent(document);
    if (checked instanceof type.errors) problems.push(`content is not a notification document: ${checked.summary.slice(0, 300)}`);
  }
  const publishAt = body.publishAtUtc ? new Date(body.publishAtUtc) : null;
  if (publishAt && body.status !== 'readyForPublication') problems.push('publishAtUtc is for a notification ready for publication');
  if (body.audience) {
    const { partnerIds, businessIds } = body.audience;
    if (partnerIds.length + businessIds.length === 0) problems.push('audience names no partner or business; leave it out for everyone');
    if (partnerIds.length > 0) {
      const found = await db.select({ id: partners.id }).from(partners).where(inArray(partners.id, partnerIds));
      const missing = partnerIds.filter((partnerId) => !found.some((row) => row.id === partnerId));
      if (missing.length > 0) problems.push(`audience names unknown partners: ${missing.slice(0, 5).join(', ')}`);
    }
    if (businessIds.length > 0) {
      const found = await db.select({ id: businesses.id }).from(businesses).where(inArray(businesses.id, businessIds));
      const missing = businessIds.filter((businessId) => !found.some((row) => row.id === businessId));
      if (missing.length > 0) problems.push(`audience names unknown businesses: ${missing.slice(0, 5).join(', ')}`);
    }
  }
  if (problems.length > 0) throw badRequest(problems);
  return { publishAt };
}

type Row = typeof notifications.$inferSelect;

function summaryOf(row: Row, readCount: number): AuthoredNotificationSummary {
  const audience =
    row.audiencePartnerIds || row.audienceBusinessIds ? { partnerIds: row.audiencePartnerIds ?? [], businessIds: row.audienceBusinessIds ?? [] } : null;
  return {
    reference: row.reference,
    title: row.title,
    status: row.status,
    viewRestriction: row.viewRestriction,
    publishAtUtc: iso(row.publishAtUtc),
    publishedUtc: iso(row.publishedUtc),
    lastEditedUtc: row.lastEditedUtc.toISOString(),
    audience,
    readCount,
  };
}

export function notificationRoutes({ database }: Deps) {
  const { db } = database;
  const routes = new Hono<AppEnv>();
  const bus = eventBusOf(database);
  const readCount = sql<number>`(SELECT count(*) FROM ${notificationReads} r WHERE r.reference = ${notifications.reference})`.mapWith(Number);

  async function find(reference: string): Promise<AuthoredNotification> {
    if (!referencePattern.test(reference)) throw notFound();
    const [row] = await db
      .select({ notification: notifications, readCount })
      .from(notifications)
      .where(and(eq(notifications.reference, reference), isNull(notifications.audienceUserIds)));
    if (!row) throw notFound();
    return { ...summaryOf(row.notification, row.readCount), content: row.notification.content, version: row.notification.version };
  }

  const audit = (tx: Db, principal: Principal, event: string, metaData: Record<string, unknown>) =>
    recordAudit(tx, principal, event, { businessId: null, merchantId: null }, metaData);

  const columnsOf = (body: NotificationBody, publishAt: Date | null, principal: Principal) => ({
    title: body.title,
    content: body.content,
    viewRestriction: body.viewRestriction,
    status: body.status,
    publishAtUtc: publishAt,
    audiencePartnerIds: body.audience && body.audience.partnerIds.length > 0 ? body.audience.partnerIds : null,
    audienceBusinessIds: body.audience && body.audience.businessIds.length > 0 ? body.audience.businessIds : null,
    lastEditedUtc: new Date(),
    lastEditedBy: principal.userId,
  });

  routes.get('/notifications', async (c) => {
    requireAuthor(c);
    const parsed = parseListQuery(c.req.query(), {
      filters: { status: { kind: { oneOf: notificationStatuses }, operators: ['eq'] } },
      sortable: [],
      defaultSort: [],
    });
    if (!parsed.ok) throw badRequest(parsed.errors);
    const { pageNumber, pageSize, filters } = parsed.query;
    const statuses = (filters.status ?? []).map((clause) => clause.value as Status);
    // Personal notifications (ticket replies) are the support desk's, not authored ones: never listed or edited here.
    const where = and(isNull(notifications.audienceUserIds), statuses.length > 0 ? inArray(notifications.status, statuses) : undefined);
    const rows = await db
      .select({ notification: notifications, readCount })
      .from(notifications)
      .where(where)
      .orderBy(desc(notifications.lastEditedUtc), desc(notifications.reference))
      .limit(pageSize)
      .offset((pageNumber - 1) * pageSize);
    const [counted] = await db.select({ total: count() }).from(notifications).where(where);
    return c.json({ results: rows.map((row) => summaryOf(row.notification, row.readCount)), numberOfResults: Number(counted?.total ?? 0) });
  });

  routes.post('/notifications', async (c) => {
    const principal = requireAuthor(c);
    const body = await readBody(c, notificationBody);
    const { publishAt } = await checkBody(db, body);
    if (body.status === 'unpublished') throw badRequest('A new notification starts as draft, ready for publication or published');
    const reference = `NTF${randomBytes(6).toString('hex').toUpperCase()}`;
    const event = await db.transaction(async (tx) => {
      await tx.insert(notifications).values({
        reference,
        ...columnsOf(body, publishAt, principal),
        publishedUtc: body.status === 'published' ? new Date() : null,
        version: 1,
      });
      await audit(tx, principal, 'NotificationCreated', { reference, status: body.status, viewRestriction: body.viewRestriction });
      // Readers' bells and inboxes change only with what they can see: a publication.
      return body.status === 'published' ? bus.record(tx, 'notifications') : null;
    });
    if (event) bus.committed(event);
    return c.json({ reference }, 201);
  });

  // The audience picker: names for the ids a notification stores (the contract keeps ids), found by name or id.
  routes.get('/notifications/audience', async (c) => {
    requireAuthor(c);
    const parsed = audienceCandidateQuery(c.req.query());
    if (parsed instanceof type.errors) throw badRequest(validationMessages(parsed));
    const term = (parsed.term ?? '').trim().toLowerCase();
    const ids = (parsed.ids ?? '')
      .split(',')
      .map((id) => id.trim())
      .filter((id) => referencePattern.test(id))
      .slice(0, 250);
    if (term === '' && ids.length === 0) return c.json({ results: [] });
    const words = term
      .split(/\s+/)
      .filter((word) => word !== '')
      .slice(0, 5);
    const matches = (name: AnyPgColumn, id: AnyPgColumn) =>
      ids.length > 0 ? inArray(id, ids) : and(...words.map((word) => sql`(lower(${name}) || ' ' || lower(${id})) LIKE ${`%${likeLiteral(word)}%`}`));
    const limit = ids.length > 0 ? 250 : 20;
    const [businessRows, partnerRows] = await Promise.all([
      db
        .select({ id: businesses.id, name: businesses.name, partnerName: partners.name })
        .from(businesses)
        .leftJoin(partners, eq(partners.id, businesses.partnerId))
        .where(matches(businesses.name, businesses.id))
        .orderBy(businesses.name, businesses.id)
        .limit(limit),
      db
        .select({ id: partners.id, name: partners.name })
        .from(partners)
        .where(matches(partners.name, partners.id))
        .orderBy(partners.name, partners.id)
        .limit(limit),
    ]);
    const results: AudienceCandidate[] = [
      ...partnerRows.map((row) => ({ kind: 'partner' as const, id: row.id, name: row.name, partnerName: null })),
      ...businessRows.map((row) => ({ kind: 'business' as const, id: row.id, name: row.name, partnerName: row.partnerName ?? null })),
    ];
    return c.json({ results });
  });

  routes.get('/notifications/:reference', async (c) => {
    requireAuthor(c);
    return c.json(await find(c.req.param('reference')));
  });

  routes.put('/notifications/:reference', async (c) => {
    const principal = requireAuthor(c);
    const current = await find(c.req.param('reference'));
    const body = await readBody(c, notificationUpdateBody);
    const { publishAt } = await checkBody(db, body);
    if (!statusTransitions[current.status].includes(body.status)) {
      throw badRequest(`A ${current.status} notification cannot become ${body.status}; it may become ${statusTransitions[current.status].join(', ')}`);
    }
    const publishing = body.status === 'published' && current.status !== 'published';
    const event = await db.transaction(async (tx): Promise<PortalEvent | null> => {
      const [updated] = await tx
        .update(notifications)
        .set({
          ...columnsOf(body, publishAt, principal),
          ...(publishing ? { publishedUtc: new Date() } : {}),
          version: sql`${notifications.version} + 1`,
        })
        .where(and(eq(notifications.reference, current.reference), eq(notifications.version, body.version)))
        .returning({ reference: notifications.reference });
      if (!updated) throw conflict();
      await audit(tx, principal, publishing ? 'NotificationPublished' : 'NotificationUpdated', {
        reference: current.reference,
        from: current.status,
        to: body.status,
      });
      // What readers see changed: published, withdrawn, or a published one edited.
      return body.status === 'published' || current.status === 'published' ? bus.record(tx, 'notifications') : null;
    });
    if (event) bus.committed(event);
    return c.json(await find(current.reference));
  });

  routes.delete('/notifications/:reference', async (c) => {
    const principal = requireAuthor(c);
    const current = await find(c.req.param('reference'));
    const event = await db.transaction(async (tx) => {
      await tx.delete(notifications).where(eq(notifications.reference, current.reference));
      await audit(tx, principal, 'NotificationDeleted', { reference: current.reference, title: current.title });
      return current.status === 'published' ? bus.record(tx, 'notifications') : null;
    });
    if (event) bus.committed(event);
    return c.body(null, 204);
  });

  return routes;
}
