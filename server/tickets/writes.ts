// A ticket's writes shared by the routes (server/api/tickets.ts) and the bulk jobs (server/bulk/areas.ts): the audit,
// the announcement on the live events stream and the mails of every write, and a ticket's update with its workflow
// rules (updateTicket). Who counts as support staff is decided here too.
import { and, eq, sql } from 'drizzle-orm';
import type { PermissionName } from '../../src/contract/permissions.ts';
import type { TicketUpdateBody } from '../../src/contract/ticket-schemas.ts';
import { ticketStatusLabels, type TicketStatus } from '../../src/contract/tickets.ts';
import { recordAudit } from '../audit/record.ts';
import type { Db } from '../db/client.ts';
import { tickets, userRoles, users } from '../db/schema.ts';
import { recordEvent } from '../events/event-bus.ts';
import { badRequest, conflict, forbidden } from '../http/errors.ts';
import { portalLink } from '../mail/compose.ts';
import { isPlausibleEmailAddress, queueEmail } from '../mail/outbox.ts';
import type { Principal } from '../policy/principal.ts';
import { permissionsOfRoles } from '../policy/role-permissions.ts';

const t = tickets;

/** 'Staff' in the tickets' rules: Portal.Tickets.Read.Internal where the ticket lives. */
export const staffPermission: PermissionName = 'Portal.Tickets.Read.Internal';

/** Support staff who may work a ticket: they read internal notes and may write (read-only staff never do). */
export const isWritingStaff = (granted: Set<PermissionName>) => granted.has(staffPermission) && granted.has('Portal.Tickets.Create');

export async function isAssignableStaff(db: Db, userId: string): Promise<boolean> {
  const rows = await db
    .select({ role: userRoles.role })
    .from(userRoles)
    .innerJoin(users, eq(users.id, userRoles.userId))
    .where(and(eq(userRoles.userId, userId), eq(userRoles.level, 'root'), eq(users.internal, true)));
  return isWritingStaff(permissionsOfRoles(rows.map((row) => row.role)));
}

export type TicketRow = typeof t.$inferSelect & { partnerId: string | null; businessName: string; merchantName: string | null };
export type Opened = { ticket: TicketRow; here: Set<PermissionName>; staff: boolean; principal: Principal };

// ---------------------------------------------------------------------------------------------------
// Writes shared by the routes and the bulk jobs (server/bulk/areas.ts)

/** The audit, announcement and mails of ticket writes. */
export function ticketWrites(publicUrl: string) {
  /** Every ticket write is audited, and announced to the tabs that may read the ticket (an internal comment: to staff only). */
  async function audit(
    tx: Db,
    principal: Principal,
    event: string,
    ticket: { businessId: string; merchantId: string | null },
    metaData: Record<string, unknown>,
  ) {
    await recordAudit(tx, principal, event, { businessId: ticket.businessId, merchantId: ticket.merchantId }, metaData);
    const internalOnly = metaData.internal === true;
    await recordEvent(tx, 'record', {
      resource: 'ticket',
      resourceId: String(metaData.ticketId),
      businessId: internalOnly ? null : ticket.businessId,
      merchantId: internalOnly ? null : ticket.merchantId,
    });
  }

  async function emailOf(tx: Db, userId: string): Promise<string | null> {
    const [row] = await tx.select({ email: users.email }).from(users).where(eq(users.id, userId));
    return row && isPlausibleEmailAddress(row.email) ? row.email : null;
  }

  const ticketLink = (ticketId: string) => portalLink(publicUrl, `/tickets/${ticketId}`);

  async function mailAssignee(tx: Db, principal: Principal, ticketId: string, subject: string, assigneeId: string) {
    if (assigneeId === principal.userId) return;
    const email = await emailOf(tx, assigneeId);
    if (!email) return;
    await queueEmail(tx, email, {
      template: 'ticketAssigned',
      subject: `Ticket ${ticketId} assigned to you: ${subject}`,
      heading: 'A ticket was assigned to you',
      paragraphs: [`${principal.givenName} ${principal.familyName} assigned ticket ${ticketId} to you.`, `Subject: ${subject}`],
      action: { label: 'Open the ticket', url: ticketLink(ticketId) },
      footer: 'You receive this email because you handle support tickets.',
    });
  }

  async function mailRequester(
    tx: Db,
    principal: Principal,
    ticket: { id: string; subject: string; createdBy: string },
    paragraphs: string[],
    subject: string,
  ) {
    if (ticket.createdBy === principal.userId) return;
    const email = await emailOf(tx, ticket.createdBy);
    if (!email) return;
    await queueEmail(tx, email, {
      template: 'ticketUpdate',
      subject,
      heading: `Your ticket ${ticket.id}`,
      paragraphs: [`Subject: ${ticket.subject}`, ...paragraphs],
      action: { label: 'Open the ticket', url: ticketLink(ticket.id) },
      footer: 'You receive this email because you raised this support ticket.',
    });
  }

  return { audit, mailAssignee, mailRequester };
}

/** A ticket's update as PUT …/tickets/{ticketId} makes it (inside the caller's transaction): the workflow rules, the
 * version check, the audit event and the mails. Refusals are thrown as ApiError (403, 400, 409). */
export async function updateTicket(tx: Db, publicUrl: string, opened: Opened, body: TicketUpdateBody): Promise<void> {
  const { audit, mailAssignee, mailRequester } = ticketWrites(publicUrl);
  const { ticket, principal } = opened;
  const statusChanged = body.status !== ticket.status;
  const assigneeChanged = body.assigneeId !== ticket.assigneeId;
  // The workflow and the queue are staff's: a requester edits what they wrote, and may close their own ticket.
  if (!opened.staff) {
    const requesterClosing = statusChanged && body.status === 'Closed' && ticket.createdBy === principal.userId;
    if ((statusChanged && !requesterClosing) || assigneeChanged) throw forbidden();
  }
  if (assigneeChanged && body.assigneeId !== null && !(await isAssignableStaff(tx, body.assigneeId)))
    throw badRequest('assigneeId must be a member of the support staff');
  const [updated] = await tx
    .update(t)
    .set({
      type: body.type,
      priority: body.priority,
      status: body.status,
      subject: body.subject,
      description: body.description,
      assigneeId: body.assigneeId,
      lastUpdatedUtc: new Date(),
      version: sql`${t.version} + 1`,
    })
    .where(and(eq(t.id, ticket.id), eq(t.version, body.version)))
    .returning({ id: t.id });
  if (!updated) throw conflict();
  await audit(tx, principal, 'TicketUpdated', ticket, {
    ticketId: ticket.id,
    changes: Object.fromEntries(
      (['type', 'priority', 'status', 'subject', 'description', 'assigneeId'] as const)
        .filter((field) => body[field] !== ticket[field])
        .map((field) => [field, { from: ticket[field], to: body[field] }]),
    ),
  });
  if (statusChanged && opened.staff) {
    await mailRequester(
      tx,
      principal,
      ticket,
      [`The status changed from ${ticketStatusLabels[ticket.status as TicketStatus] ?? ticket.status} to ${ticketStatusLabels[body.status]}.`],
      `Ticket ${ticket.id} is now ${ticketStatusLabels[body.status]}`,
    );
  }
  if (assigneeChanged && body.assigneeId) await mailAssignee(tx, principal, ticket.id, body.subject, body.assigneeId);
}
