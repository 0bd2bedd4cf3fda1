// The support desk's reply workflow (Zendesk's basics, in the spec's status names) and the readable ticket numbers.
//
// A comment moves the ticket, in the comment's own transaction:
//   staff's public reply   → On hold (waiting on the requester; a Closed ticket stays Closed), assigned to the replier
//                            when nobody handles it yet, and the requester's flag cleared (staff answered)
//   staff's internal note  → nothing changes
//   a requester-side reply → Open (reopened, Closed included) and flagged 'Updated by requester' until writing staff
//                            reply or open the ticket
// and raises a personal notification (the bell and the inbox, announced on the live events stream) for the other side:
//   to staff:    the assignee, or every writing support staff member while nobody is assigned (the queue)
//   to merchant: the requester and every non-internal user whose role reads tickets of the ticket's business,
//                merchant or partner, on public staff replies only: internal notes never reach the merchant
// The author is never notified of their own words.
import { randomBytes } from 'node:crypto';
import { and, eq, isNotNull, isNull, or, sql, type SQL } from 'drizzle-orm';
import type { NotificationBlock } from '../../src/contract/notifications.ts';
import type { TicketStatus } from '../../src/contract/tickets.ts';
import type { Db } from '../db/client.ts';
import { nextReadableId, type ReadableIdKind } from '../db/readable-ids.ts';
import { notifications, tickets, userRoles, users } from '../db/schema.ts';
import { now } from '../clock.ts';
import { recordEvent } from '../events/event-bus.ts';
import { portalLink } from '../mail/compose.ts';
import type { Principal } from '../policy/principal.ts';
import { permissionsOfRoles } from '../policy/role-permissions.ts';

const t = tickets;
const atLeast = (at: Date, floor: SQL) => sql`GREATEST(${at.toISOString()}::timestamptz, COALESCE(${floor}, ${at.toISOString()}::timestamptz))`;
// The two stamps never tie (the same millisecond twice): a later event is stamped at least just after the other one.
const staffSeenAt = (at: Date) => atLeast(at, sql`${t.requesterUpdatedUtc}`);
const requesterUpdatedAt = (at: Date) => atLeast(at, sql`${t.staffSeenUtc} + interval '1 millisecond'`);

/** Ticket numbers: TCK and at least five digits, as the seed writes them (TCK00040). */
const ticketIds: ReadableIdKind = { sequence: 'ticket_number_seq', prefix: 'TCK', digits: 5, table: tickets, column: tickets.id };

/** The next ticket id, from the ticket_number_seq sequence (server/db/readable-ids.ts: unique under concurrency). */
export const nextTicketId = (tx: Db): Promise<string> => nextReadableId(tx, ticketIds);

/** Flagged: the requester side wrote after writing staff last replied or opened the ticket. */
export const updatedByRequester: SQL = sql`(${t.requesterUpdatedUtc} IS NOT NULL AND (${t.staffSeenUtc} IS NULL OR ${t.requesterUpdatedUtc} > ${t.staffSeenUtc}))`;

export const isUpdatedByRequester = (ticket: { requesterUpdatedUtc: Date | null; staffSeenUtc: Date | null }) =>
  ticket.requesterUpdatedUtc !== null && (ticket.staffSeenUtc === null || ticket.requesterUpdatedUtc > ticket.staffSeenUtc);

const isWritingStaff = (granted: Set<string>) => granted.has('Portal.Tickets.Read.Internal') && granted.has('Portal.Tickets.Create');

/** Internal users with a root role that works tickets (the ones GET /ticket-assignees offers). */
export async function writingStaffIds(tx: Db): Promise<string[]> {
  const rows = await tx
    .selectDistinct({ id: users.id, role: userRoles.role })
    .from(users)
    .innerJoin(userRoles, eq(userRoles.userId, users.id))
    .where(and(eq(users.internal, true), eq(userRoles.level, 'root')));
  return [...new Set(rows.filter((row) => isWritingStaff(permissionsOfRoles([row.role]))).map((row) => row.id))].sort();
}

type ReplyTicket = {
  id: string;
  subject: string;
  status: string;
  createdBy: string;
  assigneeId: string | null;
  businessId: string;
  merchantId: string | null;
  partnerId: string | null;
};

/** The merchant side of a ticket: its requester and the non-internal users whose role reads tickets there. */
export async function merchantSideIds(tx: Db, ticket: ReplyTicket): Promise<string[]> {
  const rows = await tx
    .select({ id: users.id, role: userRoles.role })
    .from(userRoles)
    .innerJoin(users, eq(users.id, userRoles.userId))
    .where(
      and(
        eq(users.internal, false),
        or(
          and(eq(userRoles.level, 'business'), eq(userRoles.businessId, ticket.businessId)),
          ticket.merchantId ? and(eq(userRoles.level, 'merchant'), eq(userRoles.merchantId, ticket.merchantId)) : undefined,
          ticket.partnerId ? and(eq(userRoles.level, 'partner'), eq(userRoles.partnerId, ticket.partnerId)) : undefined,
        ),
      ),
    );
  const readers = rows.filter((row) => permissionsOfRoles([row.role]).has('Portal.Tickets.Read')).map((row) => row.id);
  const [requester] = await tx
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.id, ticket.createdBy), eq(users.internal, false)));
  return [...new Set([...(requester ? [requester.id] : []), ...readers])].sort();
}

const excerpt = (text: string) => {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > 280 ? `${flat.slice(0, 279)}…` : flat;
};

/** One personal notification, published at once, and the bell's event (every open tab re-reads its own count). */
export async function notifyUsers(
  tx: Db,
  recipients: readonly string[],
  notification: { title: string; blocks: NotificationBlock[]; internalOnly: boolean },
): Promise<string | null> {
  if (recipients.length === 0) return null;
  const reference = `NTF${randomBytes(6).toString('hex').toUpperCase()}`;
  const at = now();
  await tx.insert(notifications).values({
    reference,
    title: notification.title,
    content: JSON.stringify({ blocks: notification.blocks }),
    status: 'published',
    viewRestriction: notification.internalOnly ? 'internalUsers' : 'allUsers',
    publishedUtc: at,
    lastEditedUtc: at,
    version: 1,
    audienceUserIds: [...recipients],
  });
  await recordEvent(tx, 'notifications');
  return reference;
}

export type ReplyOutcome = { status: TicketStatus; assigneeId: string | null; changes: Record<string, { from: unknown; to: unknown }> };

/**
 * The ticket's move on a new comment and the other side's notification, inside the comment's transaction.
 * `staff`: the author holds Portal.Tickets.Read.Internal on the ticket; `assignable`: they may be assigned (writing
 * support staff at root level).
 */
export async function recordReply(
  tx: Db,
  publicUrl: string,
  input: {
    ticket: ReplyTicket;
    principal: Principal;
    staff: boolean;
    assignable: boolean;
    internal: boolean;
    text: string;
    at: Date;
  },
): Promise<ReplyOutcome> {
  const { ticket, principal, staff, internal, at } = input;
  const from = { status: ticket.status as TicketStatus, assigneeId: ticket.assigneeId };
  let next = { ...from };
  if (staff && !internal) {
    next = {
      status: ticket.status === 'Closed' ? 'Closed' : 'OnHold',
      assigneeId: ticket.assigneeId ?? (input.assignable ? principal.userId : null),
    };
    await tx
      .update(t)
      .set({ status: next.status, assigneeId: next.assigneeId, staffSeenUtc: staffSeenAt(at), lastUpdatedUtc: at, version: sql`${t.version} + 1` })
      .where(eq(t.id, ticket.id));
  } else if (!staff) {
    next = { status: 'Open', assigneeId: ticket.assigneeId };
    await tx
      .update(t)
      .set({ status: 'Open', requesterUpdatedUtc: requesterUpdatedAt(at), lastUpdatedUtc: at, version: sql`${t.version} + 1` })
      .where(eq(t.id, ticket.id));
  } else {
    await tx.update(t).set({ lastUpdatedUtc: at }).where(eq(t.id, ticket.id));
  }
  const changes: ReplyOutcome['changes'] = {};
  if (next.status !== from.status) changes.status = { from: from.status, to: next.status };
  if (next.assigneeId !== from.assigneeId) changes.assigneeId = { from: from.assigneeId, to: next.assigneeId };

  const author = `${principal.givenName} ${principal.familyName}`.trim();
  const link = portalLink(publicUrl, `/tickets/${ticket.id}`);
  const blocks = (said: string): NotificationBlock[] => [
    { type: 'paragraph', text: `${said} on ticket ${ticket.id}: ${ticket.subject}` },
    { type: 'paragraph', text: excerpt(input.text) },
    { type: 'text', inlines: [{ text: `Open ticket ${ticket.id}`, href: link }] },
  ];
  const others = (ids: readonly string[]) => ids.filter((id) => id !== principal.userId);
  // Staff hear of the requester side's replies and of each other's internal notes.
  if (!staff || internal) {
    const staffIds = next.assigneeId ? [next.assigneeId] : await writingStaffIds(tx);
    const said = internal ? `${author} added an internal note` : `${author} replied`;
    await notifyUsers(tx, others(staffIds), {
      title: `${internal ? 'Internal note' : 'Reply from the requester'} on ${ticket.id}: ${ticket.subject}`,
      blocks: blocks(said),
      internalOnly: true,
    });
  }
  if (staff && !internal) {
    await notifyUsers(tx, others(await merchantSideIds(tx, ticket)), {
      title: `Support replied on ${ticket.id}: ${ticket.subject}`,
      blocks: blocks(`${author} from support replied`),
      internalOnly: false,
    });
  }
  return { ...next, changes };
}

/** Writing staff opened the ticket: its flag clears (written only when it is set, so reading stays a read). */
export async function markSeenByStaff(tx: Db, ticketId: string, at: Date): Promise<boolean> {
  const cleared = await tx
    .update(t)
    .set({ staffSeenUtc: staffSeenAt(at) })
    .where(and(eq(t.id, ticketId), isNotNull(t.requesterUpdatedUtc), or(isNull(t.staffSeenUtc), sql`${t.requesterUpdatedUtc} > ${t.staffSeenUtc}`)))
    .returning({ id: t.id });
  return cleared.length > 0;
}
