// Support tickets: the conversation between a merchant and provider staff, with comments, internal notes and files.
//
// Every path exists under three prefixes ({context}):
//   /tickets                                              context-free: internal users see every ticket, others every
//                                                          business and merchant where they hold Portal.Tickets.Read
//                                                          (the staff queue); a ticket is created in a context only
//   /partners/{partnerId}/tickets                          one partner's businesses (a ticket is created in a business)
//   /businesses/{businessId}/tickets                       one business (its own tickets and its merchants')
//   /businesses/{businessId}/merchants/{merchantId}/tickets   one merchant
// An unreachable business or merchant, and a ticket outside the addressed context, answer 404; a reachable one
// without the permission 403. Permissions are those of the ticket's own business and merchant.
// 'Staff' below means Portal.Tickets.Read.Internal there. Every write (POST, PUT, DELETE) also needs
// Portal.Tickets.Create there, staff included: the internal read-only role reads notes and writes nothing.
//
// | method | path                                                  | permission / who                 | answer                    |
// |--------|-------------------------------------------------------|----------------------------------|---------------------------|
// | GET    | {context}                                             | Portal.Tickets.Read              | { results, numberOfResults } |
// | POST   | {context} (business or merchant only)                 | Portal.Tickets.Create (assigneeId: staff) | 201 { ticketId } |
// | GET    | {context}/{ticketId}                                  | Portal.Tickets.Read              | detail with attachments, allAttachments |
// | PUT    | {context}/{ticketId}                                  | Create; status and assignee: staff | detail; 409 on a stale version |
// | DELETE | {context}/{ticketId}                                  | the requester or staff           | 204                       |
// | GET    | {context}/{ticketId}/attachments/{aid}                | Portal.Tickets.Read              | the file, Content-Disposition |
// | POST   | {context}/{ticketId}/attachments                      | Portal.Tickets.Create            | 201 attachment (multipart field file) |
// | DELETE | {context}/{ticketId}/attachments/{aid}                | the uploader or staff            | 204                       |
// | GET    | {context}/{ticketId}/comments                         | Portal.Tickets.Read              | { results (newest last), numberOfResults, hasOlder }; ?before={cid} for the 20 before it |
// | POST   | {context}/{ticketId}/comments                         | Portal.Tickets.Create; internal: staff | 201 { ticketCommentId } |
// | GET    | {context}/{ticketId}/comments/{cid}                   | Portal.Tickets.Read              | comment                   |
// | PUT    | {context}/{ticketId}/comments/{cid}                   | the author                       | comment; 409 on a stale version |
// | DELETE | {context}/{ticketId}/comments/{cid}                   | the author or staff              | 204                       |
// | GET    | {context}/{ticketId}/comments/{cid}/attachments/{aid} | Portal.Tickets.Read              | the file                  |
// | POST   | {context}/{ticketId}/comments/{cid}/attachments       | the comment's author or staff    | 201 attachment            |
// | DELETE | {context}/{ticketId}/comments/{cid}/attachments/{aid} | the uploader or staff            | 204                       |
// | GET    | /ticket-assignees                                     | staff somewhere                  | { results: [{ userId, name }] } |
//
// Internal notes (comments with internal: true) and their files exist only for staff: to anyone else they are not
// listed, not counted and answer 404. Attachments: at most maxAttachmentBytes, the type read from the bytes
// (images and PDF; CSV for disputes), kept in the FileStore under tickets/{ticketId}/{attachmentId}.
// Mail (outbox, same database transaction): the requester when staff reply publicly or change the status; the
// assignee when a ticket is assigned to them by someone else. Every write is audited.
// Replies move the ticket and notify the other side's bell (server/tickets/replies.ts): staff's public reply → OnHold and
// assigned to the replier when unassigned; a requester-side reply → Open and flagged (updatedByRequester, the list's
// filter updatedbyrequester=true) until writing staff reply or open it. New tickets are numbered TCK00041 from a sequence.
import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { and, asc, count, desc, eq, inArray, isNull, lt, or, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { fileTypeFromBuffer } from 'file-type';
import { Hono, type Context } from 'hono';
import {
  ticketBody,
  ticketCommentBody,
  ticketCommentUpdateBody,
  ticketUpdateBody,
  type TicketAttachment,
  type TicketComment,
  type TicketDetail,
  type TicketListItem,
} from '../../src/contract/ticket-schemas.ts';
import {
  attachmentDocumentTypes,
  attachmentImageTypes,
  commentBatchSize,
  maxAttachmentBytes,
  ticketListSpec,
  uploadMessages,
  type TicketPriority,
  type TicketStatus,
  type TicketType,
} from '../../src/contract/tickets.ts';
import type { Db } from '../db/client.ts';
import { businesses, merchants, paymentJobs, ticketAttachments, ticketComments, tickets, transactions, userRoles, users } from '../db/schema.ts';
import { recordEvent } from '../events/event-bus.ts';
import { contentDisposition } from '../files/content-disposition.ts';
import { permissionsIn, resolveContext, resolvePartner } from '../policy/principal.ts';
import { permissionsOfRoles } from '../policy/role-permissions.ts';
import { type AppEnv, type Deps, readBody, requirePermission } from '../http/env.ts';
import { ApiError, badRequest, conflict, forbidden, notFound } from '../http/errors.ts';
import { filterCondition, orderByOf, orderKeysOf, parseListRequest, singleValuedQuery } from '../http/list-sql.ts';
import { grantedScope } from '../transactions/scope.ts';
import { isUpdatedByRequester, markSeenByStaff, nextTicketId, recordReply } from '../tickets/replies.ts';
import { ticketResource, ticketRows, ticketScopeWhere, type TicketScope } from '../tickets/list.ts';
import { isAssignableStaff, isWritingStaff, staffPermission, ticketWrites, updateTicket, type Opened } from '../tickets/writes.ts';
import { now as clockNow } from '../clock.ts';

const t = tickets;
const creator = alias(users, 'ticket_creator');
const assignee = alias(users, 'ticket_assignee');

type Addressed = { scope: TicketScope; businessId: string | null; merchantId: string | null };
type Resolver = (c: Context<AppEnv>) => Promise<Addressed>;

// ---------------------------------------------------------------------------------------------------
// Helpers

const newId = (prefix: string) => `${prefix}${randomBytes(8).toString('hex').toUpperCase()}`;
const idPattern = /^[A-Za-z0-9_-]{1,64}$/;
const nameOf = (row: { id: string; givenName: string; familyName: string } | null) =>
  row ? { userId: row.id, name: `${row.givenName} ${row.familyName}`.trim() } : null;

/** The spec's upload rules, by the bytes: the MIME type to keep, or the message for the refusal. */
export async function attachmentTypeOf(bytes: Uint8Array, fileName: string, ticketType: TicketType): Promise<{ mimeType: string } | { refused: string }> {
  const detected = await fileTypeFromBuffer(bytes);
  const extension = /\.([A-Za-z0-9]{1,8})$/.exec(fileName)?.[1]?.toLowerCase() ?? '';
  const allowed: readonly string[] = [...attachmentImageTypes, ...attachmentDocumentTypes];
  if (detected && allowed.includes(detected.mime)) {
    // A name that claims another kind of file than its bytes ('invoice.pdf' holding a PNG) is refused.
    const claimed = extensionTypes[extension];
    if (extension !== '' && claimed !== undefined && claimed !== detected.mime) return { refused: uploadMessages.invalidFormat };
    if (extension === 'csv') return { refused: uploadMessages.invalidFormat };
    return { mimeType: detected.mime };
  }
  if (!detected && ticketType === 'dispute' && extension === 'csv') {
    return isPlainText(bytes) ? { mimeType: 'text/csv' } : { refused: uploadMessages.invalidFormat };
  }
  if (!detected && extensionTypes[extension] !== undefined) return { refused: uploadMessages.invalidFormat };
  return { refused: ticketType === 'dispute' ? uploadMessages.invalidTypeForDispute : uploadMessages.notImageOrPdf };
}

const extensionTypes: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  pdf: 'application/pdf',
};

function isPlainText(bytes: Uint8Array): boolean {
  if (bytes.includes(0)) return false;
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return true;
  } catch {
    return false;
  }
}

// ---------------------------------------------------------------------------------------------------
// Routes

export function ticketRoutes({ database, files, publicUrl }: Deps) {
  const { db } = database;
  const routes = new Hono<AppEnv>();

  const contextFree: Resolver = async (c) => {
    const scope = grantedScope(c.get('principal'), 'Portal.Tickets.Read');
    if (!scope) throw forbidden();
    const ticketScope: TicketScope =
      scope.level === 'partner'
        ? { level: 'grants', partnerIds: [scope.partnerId], businessIds: [], merchantIds: [] }
        : scope.level === 'business'
          ? { level: 'grants', partnerIds: [], businessIds: [scope.businessId], merchantIds: [] }
          : scope.level === 'merchant'
            ? { level: 'grants', partnerIds: [], businessIds: [], merchantIds: [scope.merchantId] }
            : scope;
    return { scope: ticketScope, businessId: null, merchantId: null };
  };
  const business: Resolver = async (c) => {
    const resolved = await resolveContext(database, c.get('principal'), c.req.param('businessId') ?? '');
    if (!resolved) throw notFound();
    requirePermission(resolved.permissions, 'Portal.Tickets.Read');
    return { scope: { level: 'business', businessId: resolved.business.id }, businessId: resolved.business.id, merchantId: null };
  };
  const merchant: Resolver = async (c) => {
    const resolved = await resolveContext(database, c.get('principal'), c.req.param('businessId') ?? '', c.req.param('merchantId') ?? '');
    if (!resolved?.merchant) throw notFound();
    requirePermission(resolved.permissions, 'Portal.Tickets.Read');
    return {
      scope: { level: 'merchant', businessId: resolved.business.id, merchantId: resolved.merchant.id },
      businessId: resolved.business.id,
      merchantId: resolved.merchant.id,
    };
  };

  const { audit, mailAssignee, mailRequester } = ticketWrites(publicUrl);

  async function openTicket(c: Context<AppEnv>, resolve: Resolver): Promise<Opened> {
    const { scope } = await resolve(c);
    const ticketId = c.req.param('ticketId') ?? '';
    if (!idPattern.test(ticketId)) throw notFound();
    const [row] = await db
      .select({ ticket: t, partnerId: businesses.partnerId, businessName: businesses.name, merchantName: merchants.name })
      .from(t)
      .innerJoin(businesses, eq(businesses.id, t.businessId))
      .leftJoin(merchants, eq(merchants.id, t.merchantId))
      .where(and(eq(t.id, ticketId), ticketScopeWhere(db, scope)));
    if (!row) throw notFound();
    const principal = c.get('principal');
    const here = permissionsIn(principal, { partnerId: row.partnerId, businessId: row.ticket.businessId, merchantId: row.ticket.merchantId });
    // Outside its own context's Read permission the ticket does not exist for the caller (context-free grants).
    if (!here.has('Portal.Tickets.Read')) throw notFound();
    return {
      ticket: { ...row.ticket, partnerId: row.partnerId, businessName: row.businessName, merchantName: row.merchantName },
      here,
      staff: here.has(staffPermission),
      principal,
    };
  }

  const visibleComments = (opened: Opened) => (opened.staff ? undefined : eq(ticketComments.internal, false));

  async function attachmentsOf(opened: Opened): Promise<TicketAttachment[]> {
    const rows = await db
      .select({ attachment: ticketAttachments, uploader: { id: users.id, givenName: users.givenName, familyName: users.familyName } })
      .from(ticketAttachments)
      .leftJoin(ticketComments, eq(ticketComments.id, ticketAttachments.commentId))
      .leftJoin(users, eq(users.id, ticketAttachments.uploadedBy))
      .where(
        and(
          eq(ticketAttachments.ticketId, opened.ticket.id),
          opened.staff ? undefined : or(isNull(ticketAttachments.commentId), eq(ticketComments.internal, false)),
        ),
      )
      .orderBy(asc(ticketAttachments.createdUtc), asc(ticketAttachments.id));
    return rows.map(({ attachment, uploader }) => toAttachment(opened, attachment, uploader));
  }

  function toAttachment(
    opened: Opened,
    attachment: typeof ticketAttachments.$inferSelect,
    uploader: { id: string; givenName: string; familyName: string } | null,
  ): TicketAttachment {
    return {
      ticketAttachmentId: attachment.id,
      ticketCommentId: attachment.commentId,
      filename: attachment.fileName,
      mimeType: attachment.mimeType,
      size: attachment.size,
      uploadedBy: nameOf(uploader) ?? { userId: attachment.uploadedBy, name: 'Former user' },
      createdUtc: attachment.createdUtc.toISOString(),
      removable: opened.staff || attachment.uploadedBy === opened.principal.userId,
    };
  }

  async function detailOf(opened: Opened): Promise<TicketDetail> {
    const { ticket } = opened;
    const [people] = await db
      .select({
        creator: { id: creator.id, givenName: creator.givenName, familyName: creator.familyName },
        assignee: { id: assignee.id, givenName: assignee.givenName, familyName: assignee.familyName },
      })
      .from(t)
      .leftJoin(creator, eq(creator.id, t.createdBy))
      .leftJoin(assignee, eq(assignee.id, t.assigneeId))
      .where(eq(t.id, ticket.id));
    const [counted] = await db
      .select({ total: count() })
      .from(ticketComments)
      .where(and(eq(ticketComments.ticketId, ticket.id), visibleComments(opened)));
    const allAttachments = await attachmentsOf(opened);
    return {
      ticketId: ticket.id,
      businessId: ticket.businessId,
      businessName: ticket.businessName,
      merchantId: ticket.merchantId,
      merchantName: ticket.merchantName,
      type: ticket.type as TicketType,
      status: ticket.status as TicketStatus,
      priority: ticket.priority as TicketPriority,
      subject: ticket.subject,
      description: ticket.description,
      createdUtc: ticket.createdUtc.toISOString(),
      lastUpdatedUtc: ticket.lastUpdatedUtc.toISOString(),
      createdBy: nameOf(people?.creator?.id ? people.creator : null) ?? { userId: ticket.createdBy, name: 'Former user' },
      assignee: nameOf(people?.assignee?.id ? people.assignee : null),
      updatedByRequester: opened.staff && isUpdatedByRequester(ticket),
      version: ticket.version,
      linkedTransactionReference: ticket.linkedTransactionReference,
      linkedPaymentJobReference: ticket.linkedPaymentJobReference,
      attachments: allAttachments.filter((attachment) => attachment.ticketCommentId === null),
      allAttachments,
      commentCount: Number(counted?.total ?? 0),
    };
  }

  async function commentsOf(opened: Opened, where: SQL | undefined, limit: number, newestFirst: boolean): Promise<TicketComment[]> {
    const rows = await db
      .select({ comment: ticketComments, author: { id: users.id, givenName: users.givenName, familyName: users.familyName, internal: users.internal } })
      .from(ticketComments)
      .leftJoin(users, eq(users.id, ticketComments.authorId))
      .where(and(eq(ticketComments.ticketId, opened.ticket.id), visibleComments(opened), where))
      .orderBy(...(newestFirst ? [desc(ticketComments.createdUtc), desc(ticketComments.id)] : [asc(ticketComments.createdUtc), asc(ticketComments.id)]))
      .limit(limit);
    const ids = rows.map((row) => row.comment.id);
    const files =
      ids.length === 0
        ? []
        : await db
            .select({ attachment: ticketAttachments, uploader: { id: users.id, givenName: users.givenName, familyName: users.familyName } })
            .from(ticketAttachments)
            .leftJoin(users, eq(users.id, ticketAttachments.uploadedBy))
            .where(inArray(ticketAttachments.commentId, ids))
            .orderBy(asc(ticketAttachments.createdUtc), asc(ticketAttachments.id));
    return rows.map(({ comment, author }) => ({
      ticketCommentId: comment.id,
      ticketId: comment.ticketId,
      text: comment.text,
      internal: comment.internal,
      author: { ...(nameOf(author?.id ? author : null) ?? { userId: comment.authorId, name: 'Former user' }), staff: author?.internal ?? false },
      createdUtc: comment.createdUtc.toISOString(),
      lastUpdatedUtc: comment.lastUpdatedUtc.toISOString(),
      version: comment.version,
      attachments: files.filter((file) => file.attachment.commentId === comment.id).map((file) => toAttachment(opened, file.attachment, file.uploader)),
      // Editing needs the write permission too: the read-only role edits nothing, not even its own words.
      editable: comment.authorId === opened.principal.userId && opened.here.has('Portal.Tickets.Create'),
    }));
  }

  async function openComment(opened: Opened, commentId: string) {
    if (!idPattern.test(commentId)) throw notFound();
    const [row] = await db
      .select()
      .from(ticketComments)
      .where(and(eq(ticketComments.id, commentId), eq(ticketComments.ticketId, opened.ticket.id), visibleComments(opened)));
    if (!row) throw notFound();
    return row;
  }

  /** The multipart field 'file', checked against the spec's rules; the bytes and the type to keep. */
  async function readUpload(c: Context<AppEnv>, ticketType: TicketType): Promise<{ bytes: Uint8Array; fileName: string; mimeType: string }> {
    if (!/^multipart\/form-data\b/i.test(c.req.header('content-type') ?? '')) throw badRequest(uploadMessages.unreadable);
    let file: unknown;
    try {
      file = (await c.req.parseBody()).file;
    } catch {
      throw badRequest(uploadMessages.unreadable);
    }
    if (!(file instanceof File)) throw badRequest(uploadMessages.unreadable);
    if (file.size > maxAttachmentBytes) throw new ApiError(413, uploadMessages.tooLarge);
    if (file.size === 0) throw badRequest(uploadMessages.invalidFormat);
    const fileName =
      file.name
        // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is stripped from the uploaded file's name
        .replace(/[\u0000-\u001f\u007f]/g, '')
        .trim()
        .slice(0, 255) || 'attachment';
    let bytes: Uint8Array;
    try {
      bytes = new Uint8Array(await file.arrayBuffer());
    } catch {
      throw badRequest(uploadMessages.unreadable);
    }
    const checked = await attachmentTypeOf(bytes, fileName, ticketType);
    if ('refused' in checked) throw new ApiError(415, checked.refused);
    return { bytes, fileName, mimeType: checked.mimeType };
  }

  async function storeAttachment(c: Context<AppEnv>, opened: Opened, commentId: string | null) {
    const upload = await readUpload(c, opened.ticket.type as TicketType);
    const attachmentId = newId('TCA');
    const storageKey = `tickets/${opened.ticket.id}/${attachmentId}`;
    try {
      await files.put(storageKey, Readable.from([Buffer.from(upload.bytes)]), { contentType: upload.mimeType });
    } catch {
      throw new ApiError(500, uploadMessages.uploadFailed);
    }
    try {
      const row = await db.transaction(async (tx) => {
        const [inserted] = await tx
          .insert(ticketAttachments)
          .values({
            id: attachmentId,
            ticketId: opened.ticket.id,
            commentId,
            fileName: upload.fileName,
            mimeType: upload.mimeType,
            size: upload.bytes.byteLength,
            storageKey,
            uploadedBy: opened.principal.userId,
          })
          .returning();
        await tx.update(t).set({ lastUpdatedUtc: new Date() }).where(eq(t.id, opened.ticket.id));
        await audit(tx, opened.principal, 'TicketAttachmentAdded', opened.ticket, {
          ticketId: opened.ticket.id,
          ticketCommentId: commentId,
          ticketAttachmentId: attachmentId,
          mimeType: upload.mimeType,
          size: upload.bytes.byteLength,
        });
        return inserted;
      });
      if (!row) throw new Error('attachment row not written');
      const [uploader] = await db
        .select({ id: users.id, givenName: users.givenName, familyName: users.familyName })
        .from(users)
        .where(eq(users.id, opened.principal.userId));
      return toAttachment(opened, row, uploader ?? null);
    } catch (error) {
      await files.delete(storageKey).catch(() => undefined);
      throw error;
    }
  }

  async function serveAttachment(c: Context<AppEnv>, opened: Opened, commentId: string | null) {
    const attachmentId = c.req.param('attachmentId') ?? '';
    if (!idPattern.test(attachmentId)) throw notFound();
    const [row] = await db
      .select()
      .from(ticketAttachments)
      .where(
        and(
          eq(ticketAttachments.id, attachmentId),
          eq(ticketAttachments.ticketId, opened.ticket.id),
          commentId === null ? isNull(ticketAttachments.commentId) : eq(ticketAttachments.commentId, commentId),
        ),
      );
    if (!row) throw notFound();
    const stored = await files.get(row.storageKey);
    if (!stored) throw notFound();
    return new Response(Readable.toWeb(stored.stream) as ReadableStream, {
      status: 200,
      headers: {
        'Content-Type': row.mimeType,
        'Content-Length': String(stored.size),
        'Content-Disposition': contentDisposition(row.fileName, 'attachment'),
        'Cache-Control': 'private, no-store',
        'X-Content-Type-Options': 'nosniff',
        'Content-Security-Policy': "default-src 'none'; sandbox",
      },
    });
  }

  async function removeAttachment(c: Context<AppEnv>, opened: Opened, commentId: string | null) {
    const attachmentId = c.req.param('attachmentId') ?? '';
    if (!idPattern.test(attachmentId)) throw notFound();
    const [row] = await db
      .select()
      .from(ticketAttachments)
      .where(
        and(
          eq(ticketAttachments.id, attachmentId),
          eq(ticketAttachments.ticketId, opened.ticket.id),
          commentId === null ? isNull(ticketAttachments.commentId) : eq(ticketAttachments.commentId, commentId),
        ),
      );
    if (!row) throw notFound();
    // Every write needs the write permission, staff included: read-only staff remove nothing.
    requirePermission(opened.here, 'Portal.Tickets.Create');
    if (!opened.staff && row.uploadedBy !== opened.principal.userId) throw forbidden();
    await db.transaction(async (tx) => {
      await tx.delete(ticketAttachments).where(eq(ticketAttachments.id, row.id));
      await tx.update(t).set({ lastUpdatedUtc: new Date() }).where(eq(t.id, opened.ticket.id));
      await audit(tx, opened.principal, 'TicketAttachmentRemoved', opened.ticket, {
        ticketId: opened.ticket.id,
        ticketAttachmentId: row.id,
        filename: row.fileName,
      });
    });
    await files.delete(row.storageKey).catch(() => undefined);
    return c.body(null, 204);
  }

  routes.get('/ticket-assignees', async (c) => {
    const principal = c.get('principal');
    if (!grantedScope(principal, staffPermission)) throw forbidden();
    const rows = await db
      .selectDistinct({ id: users.id, givenName: users.givenName, familyName: users.familyName, role: userRoles.role })
      .from(users)
      .innerJoin(userRoles, eq(userRoles.userId, users.id))
      .where(and(eq(users.internal, true), eq(userRoles.level, 'root')))
      .orderBy(asc(users.givenName), asc(users.familyName), asc(users.id));
    const seen = new Set<string>();
    const results = rows
      .filter((row) => isWritingStaff(permissionsOfRoles([row.role])) && !seen.has(row.id) && Boolean(seen.add(row.id)))
      .map((row) => ({ userId: row.id, name: `${row.givenName} ${row.familyName}`.trim() }));
    return c.json({ results });
  });

  const partner: Resolver = async (c) => {
    const resolved = await resolvePartner(database, c.get('principal'), c.req.param('partnerId') ?? '');
    if (!resolved) throw notFound();
    requirePermission(resolved.permissions, 'Portal.Tickets.Read');
    return { scope: { level: 'grants', partnerIds: [resolved.partner.id], businessIds: [], merchantIds: [] }, businessId: null, merchantId: null };
  };

  const prefixes: { prefix: string; resolve: Resolver }[] = [
    { prefix: '/tickets', resolve: contextFree },
    { prefix: '/partners/:partnerId/tickets', resolve: partner },
    { prefix: '/businesses/:businessId/tickets', resolve: business },
    { prefix: '/businesses/:businessId/merchants/:merchantId/tickets', resolve: merchant },
  ];

  for (const { prefix, resolve } of prefixes) {
    routes.get(prefix, async (c) => {
      const { scope } = await resolve(c);
      const query = parseListRequest(singleValuedQuery(c), ticketListSpec);
      const sort = query.sort[0] ?? { field: 'lastUpdatedUtc', descending: true };
      const where = and(ticketScopeWhere(db, scope), filterCondition(ticketResource, query.filters, c.get('timeZone')));
      const rows = await ticketRows(db)
        .where(where)
        .orderBy(...orderByOf(orderKeysOf(ticketResource, sort)))
        .limit(query.pageSize)
        .offset((query.pageNumber - 1) * query.pageSize);
      const [counted] = await db.select({ total: count() }).from(t).where(where);
      // The requester's flag is the support staff's queue state: others are not told of it.
      const staffCaller = grantedScope(c.get('principal'), staffPermission) !== null;
      const results: TicketListItem[] = rows.map((row) => ({
        ticketId: row.ticket.id,
        businessId: row.ticket.businessId,
        businessName: row.businessName,
        merchantId: row.ticket.merchantId,
        merchantName: row.merchantName,
        type: row.ticket.type as TicketType,
        status: row.ticket.status as TicketStatus,
        priority: row.ticket.priority as TicketPriority,
        subject: row.ticket.subject,
        createdUtc: row.ticket.createdUtc.toISOString(),
        lastUpdatedUtc: row.ticket.lastUpdatedUtc.toISOString(),
        createdBy: nameOf(row.creator?.id ? row.creator : null) ?? { userId: row.ticket.createdBy, name: 'Former user' },
        assignee: nameOf(row.assignee?.id ? row.assignee : null),
        updatedByRequester: staffCaller && isUpdatedByRequester(row.ticket),
      }));
      return c.json({ results, numberOfResults: Number(counted?.total ?? 0) });
    });

    routes.post(prefix, async (c) => {
      const addressed = await resolve(c);
      if (!addressed.businessId) throw badRequest('Business ID is required.');
      const principal = c.get('principal');
      const [owner] = await db.select({ partnerId: businesses.partnerId }).from(businesses).where(eq(businesses.id, addressed.businessId));
      const here = permissionsIn(principal, { partnerId: owner?.partnerId ?? null, businessId: addressed.businessId, merchantId: addressed.merchantId });
      requirePermission(here, 'Portal.Tickets.Create');
      const body = await readBody(c, ticketBody);
      const assigneeId = body.assigneeId ?? null;
      if (assigneeId !== null) {
        requirePermission(here, staffPermission);
        if (!(await isAssignableStaff(db, assigneeId))) throw badRequest('assigneeId must be a member of the support staff');
      }
      // A linked record must lie in the addressed context: a ticket never names another tenant's payment.
      const inContext = (table: typeof transactions | typeof paymentJobs) =>
        and(eq(table.businessId, addressed.businessId ?? ''), addressed.merchantId ? eq(table.merchantId, addressed.merchantId) : undefined);
      if (body.linkedTransactionReference) {
        const [found] = await db
          .select({ reference: transactions.reference })
          .from(transactions)
          .where(and(eq(transactions.reference, body.linkedTransactionReference), inContext(transactions)));
        if (!found) throw badRequest('linkedTransactionReference is not a transaction of this business or merchant');
      }
      if (body.linkedPaymentJobReference) {
        const [found] = await db
          .select({ reference: paymentJobs.reference })
          .from(paymentJobs)
          .where(and(eq(paymentJobs.reference, body.linkedPaymentJobReference), inContext(paymentJobs)));
        if (!found) throw badRequest('linkedPaymentJobReference is not a payment job of this business or merchant');
      }
      const now = new Date();
      const ticketId = await db.transaction(async (tx) => {
        const ticketId = await nextTicketId(tx);
        const ticket = {
          id: ticketId,
          businessId: addressed.businessId ?? '',
          merchantId: addressed.merchantId,
          createdBy: principal.userId,
          type: body.type,
          status: 'Open',
          priority: body.priority ?? 'Unknown',
          subject: body.subject,
          description: body.description,
          createdUtc: now,
          lastUpdatedUtc: now,
          version: 1,
          assigneeId,
          linkedTransactionReference: body.linkedTransactionReference ?? null,
          linkedPaymentJobReference: body.linkedPaymentJobReference ?? null,
        };
        await tx.insert(t).values(ticket);
        await audit(tx, principal, 'TicketCreated', ticket, { ticketId, type: body.type });
        if (assigneeId) await mailAssignee(tx, principal, ticketId, body.subject, assigneeId);
        return ticketId;
      });
      return c.json({ ticketId }, 201);
    });

    routes.get(`${prefix}/:ticketId`, async (c) => {
      const opened = await openTicket(c, resolve);
      // Writing staff opening a flagged ticket have seen the requester's update: the queue's flag clears.
      if (isWritingStaff(opened.here) && isUpdatedByRequester(opened.ticket)) {
        const at = clockNow();
        await db.transaction(async (tx) => {
          if (await markSeenByStaff(tx, opened.ticket.id, at))
            await recordEvent(tx, 'record', { resource: 'ticket', resourceId: opened.ticket.id, businessId: null, merchantId: null });
        });
        opened.ticket.staffSeenUtc = opened.ticket.requesterUpdatedUtc;
      }
      return c.json(await detailOf(opened));
    });

    routes.put(`${prefix}/:ticketId`, async (c) => {
      const opened = await openTicket(c, resolve);
      requirePermission(opened.here, 'Portal.Tickets.Create');
      const body = await readBody(c, ticketUpdateBody);
      await db.transaction(async (tx) => updateTicket(tx as unknown as Db, publicUrl, opened, body));
      return c.json(await detailOf(await openTicket(c, resolve)));
    });

    routes.delete(`${prefix}/:ticketId`, async (c) => {
      const opened = await openTicket(c, resolve);
      requirePermission(opened.here, 'Portal.Tickets.Create');
      if (!opened.staff && opened.ticket.createdBy !== opened.principal.userId) throw forbidden();
      const keys = await db.select({ key: ticketAttachments.storageKey }).from(ticketAttachments).where(eq(ticketAttachments.ticketId, opened.ticket.id));
      await db.transaction(async (tx) => {
        await tx.delete(t).where(eq(t.id, opened.ticket.id));
        await audit(tx, opened.principal, 'TicketDeleted', opened.ticket, { ticketId: opened.ticket.id, subject: opened.ticket.subject });
      });
      for (const { key } of keys) await files.delete(key).catch(() => undefined);
      return c.body(null, 204);
    });

    // Attachments of the ticket itself
    routes.get(`${prefix}/:ticketId/attachments/:attachmentId`, async (c) => serveAttachment(c, await openTicket(c, resolve), null));
    routes.post(`${prefix}/:ticketId/attachments`, async (c) => {
      const opened = await openTicket(c, resolve);
      requirePermission(opened.here, 'Portal.Tickets.Create');
      return c.json(await storeAttachment(c, opened, null), 201);
    });
    routes.delete(`${prefix}/:ticketId/attachments/:attachmentId`, async (c) => removeAttachment(c, await openTicket(c, resolve), null));

    // Comments
    routes.get(`${prefix}/:ticketId/comments`, async (c) => {
      const opened = await openTicket(c, resolve);
      const params = singleValuedQuery(c);
      const unknown = Object.keys(params).filter((name) => name.toLowerCase() !== 'before');
      if (unknown.length > 0) throw badRequest(unknown.map((name) => `'${name.slice(0, 40)}' is not a parameter of this list; use before`));
      let olderThan: SQL | undefined;
      const before = params.before ?? Object.entries(params).find(([name]) => name.toLowerCase() === 'before')?.[1];
      if (before !== undefined) {
        const anchor = await openComment(opened, before).catch(() => {
          throw badRequest(`before '${before.slice(0, 40)}' is not a comment of this ticket`);
        });
        olderThan = or(
          lt(ticketComments.createdUtc, anchor.createdUtc),
          and(eq(ticketComments.createdUtc, anchor.createdUtc), lt(ticketComments.id, anchor.id)),
        );
      }
      const newestFirst = await commentsOf(opened, olderThan, commentBatchSize + 1, true);
      const hasOlder = newestFirst.length > commentBatchSize;
      const [counted] = await db
        .select({ total: count() })
        .from(ticketComments)
        .where(and(eq(ticketComments.ticketId, opened.ticket.id), visibleComments(opened)));
      return c.json({ results: newestFirst.slice(0, commentBatchSize).reverse(), numberOfResults: Number(counted?.total ?? 0), hasOlder });
    });

    routes.post(`${prefix}/:ticketId/comments`, async (c) => {
      const opened = await openTicket(c, resolve);
      requirePermission(opened.here, 'Portal.Tickets.Create');
      const body = await readBody(c, ticketCommentBody);
      const internal = body.internal ?? false;
      if (internal && !opened.staff) throw forbidden();
      const commentId = newId('TCC');
      const { ticket, principal } = opened;
      const assignable = opened.staff && !internal && ticket.assigneeId === null && (await isAssignableStaff(db, principal.userId));
      await db.transaction(async (tx) => {
        const now = new Date();
        await tx
          .insert(ticketComments)
          .values({ id: commentId, ticketId: ticket.id, authorId: principal.userId, text: body.text, internal, createdUtc: now, lastUpdatedUtc: now });
        // The workflow: staff's reply waits on the requester (and takes the ticket), the requester's reopens and flags it.
        const moved = await recordReply(tx as unknown as Db, publicUrl, {
          ticket,
          principal,
          staff: opened.staff,
          assignable,
          internal,
          text: body.text,
          at: now,
        });
        await audit(tx, principal, 'TicketCommentCreated', ticket, {
          ticketId: ticket.id,
          ticketCommentId: commentId,
          internal,
          ...(Object.keys(moved.changes).length > 0 ? { changes: moved.changes } : {}),
        });
        // Internal notes are never mailed: the requester learns of public staff replies only.
        if (!internal && opened.staff) {
          await mailRequester(
            tx,
            principal,
            ticket,
            [`${principal.givenName} ${principal.familyName} replied:`, body.text],
            `New reply on ticket ${ticket.id}: ${ticket.subject}`,
          );
        }
      });
      return c.json({ ticketCommentId: commentId }, 201);
    });

    routes.get(`${prefix}/:ticketId/comments/:commentId`, async (c) => {
      const opened = await openTicket(c, resolve);
      const comment = await openComment(opened, c.req.param('commentId'));
      const [shaped] = await commentsOf(opened, eq(ticketComments.id, comment.id), 1, false);
      if (!shaped) throw notFound();
      return c.json(shaped);
    });

    routes.put(`${prefix}/:ticketId/comments/:commentId`, async (c) => {
      const opened = await openTicket(c, resolve);
      const comment = await openComment(opened, c.req.param('commentId'));
      if (comment.authorId !== opened.principal.userId || !opened.here.has('Portal.Tickets.Create')) throw forbidden();
      const body = await readBody(c, ticketCommentUpdateBody);
      await db.transaction(async (tx) => {
        const [updated] = await tx
          .update(ticketComments)
          .set({ text: body.text, lastUpdatedUtc: new Date(), version: sql`${ticketComments.version} + 1` })
          .where(and(eq(ticketComments.id, comment.id), eq(ticketComments.version, body.version)))
          .returning({ id: ticketComments.id });
        if (!updated) throw conflict();
        await audit(tx, opened.principal, 'TicketCommentUpdated', opened.ticket, { ticketId: opened.ticket.id, ticketCommentId: comment.id });
      });
      const [shaped] = await commentsOf(opened, eq(ticketComments.id, comment.id), 1, false);
      return c.json(shaped);
    });

    routes.delete(`${prefix}/:ticketId/comments/:commentId`, async (c) => {
      const opened = await openTicket(c, resolve);
      const comment = await openComment(opened, c.req.param('commentId'));
      requirePermission(opened.here, 'Portal.Tickets.Create');
      if (!opened.staff && comment.authorId !== opened.principal.userId) throw forbidden();
      const keys = await db.select({ key: ticketAttachments.storageKey }).from(ticketAttachments).where(eq(ticketAttachments.commentId, comment.id));
      await db.transaction(async (tx) => {
        await tx.delete(ticketComments).where(eq(ticketComments.id, comment.id));
        await audit(tx, opened.principal, 'TicketCommentDeleted', opened.ticket, {
          ticketId: opened.ticket.id,
          ticketCommentId: comment.id,
          internal: comment.internal,
        });
      });
      for (const { key } of keys) await files.delete(key).catch(() => undefined);
      return c.body(null, 204);
    });

    // Attachments of a comment
    routes.get(`${prefix}/:ticketId/comments/:commentId/attachments/:attachmentId`, async (c) => {
      const opened = await openTicket(c, resolve);
      const comment = await openComment(opened, c.req.param('commentId'));
      return serveAttachment(c, opened, comment.id);
    });
    routes.post(`${prefix}/:ticketId/comments/:commentId/attachments`, async (c) => {
      const opened = await openTicket(c, resolve);
      const comment = await openComment(opened, c.req.param('commentId'));
      requirePermission(opened.here, 'Portal.Tickets.Create');
      if (!opened.staff && comment.authorId !== opened.principal.userId) throw forbidden();
      return c.json(await storeAttachment(c, opened, comment.id), 201);
    });
    routes.delete(`${prefix}/:ticketId/comments/:commentId/attachments/:attachmentId`, async (c) => {
      const opened = await openTicket(c, resolve);
      const comment = await openComment(opened, c.req.param('commentId'));
      return removeAttachment(c, opened, comment.id);
    });
  }
  return routes;
}
