// The one writer of the audit trail: one row per recorded action, written through the caller's writer, so an audit
// of a write inside a transaction is part of that transaction (no change without its record).
import type { DbWriter } from '../db/client.ts';
import { auditEvents } from '../db/schema.ts';

/** The business and merchant an event belongs to (null where it belongs to none: root, a user's own account). */
export type AuditPlace = { businessId: string | null; merchantId: string | null };

/** Who acted: a principal, a user or an actor of the payments door; null for a shopper paying a link. */
type AuditActor = { userId: string } | null;

type AuditOptions = {
  /** the event's time (dateTimeUtc); now by the wall clock when not given */
  at?: Date;
  /** 'client' for what a client reported through POST /audit-events; 'server' otherwise */
  source?: 'server' | 'client';
};

/** Writes one audit row and returns its id. */
export async function recordAudit(
  writer: DbWriter,
  actor: AuditActor,
  event: string,
  place: AuditPlace,
  metaData: Record<string, unknown> = {},
  options: AuditOptions = {},
): Promise<number> {
  const [row] = await writer
    .insert(auditEvents)
    .values({
      // A shopper paying a link has no portal user: the row says who acted in words the audit list can show.
      userId: actor?.userId ?? 'shopper',
      event,
      dateTimeUtc: options.at ?? new Date(),
      businessId: place.businessId,
      merchantId: place.merchantId,
      metaData,
      ...(options.source ? { source: options.source } : {}),
    })
    .returning({ id: auditEvents.id });
  if (!row) throw new Error('recordAudit: the audit row was not written');
  return row.id;
}
