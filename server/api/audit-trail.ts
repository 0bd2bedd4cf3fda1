// One audit row per write of the business, merchant and configuration calls, inside the write's own transaction (no change without its record).
import type { Db } from '../db/client.ts';
import { auditEvents } from '../db/schema.ts';
import type { Principal } from '../policy/principal.ts';

export type AuditPlace = { businessId: string | null; merchantId: string | null };

export async function recordAudit(
  tx: Db,
  principal: Principal | null,
  event: string,
  place: AuditPlace,
  metaData: Record<string, unknown> = {},
): Promise<void> {
  await tx.insert(auditEvents).values({
    // A shopper paying a link has no portal user: the row says who acted in words the audit list can show.
    userId: principal?.userId ?? 'shopper',
    event,
    dateTimeUtc: new Date(),
    businessId: place.businessId,
    merchantId: place.merchantId,
    metaData,
  });
}
