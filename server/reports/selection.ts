// A selection of an overview's rows as a bulk job (server/bulk/) and the report it queues (the report worker, worker.ts)
// both hold it: the overview's filters plus or minus picked ids, in a context that is re-resolved with the user's
// access every time it is used (scopeOf), and the refusal of a selection that no longer holds (SelectionRefused).
import type { BulkContext } from '../../src/contract/bulk-jobs.ts';
import type { PermissionName } from '../../src/contract/permissions.ts';
import type { Database } from '../db/client.ts';
import { ApiError } from '../http/errors.ts';
import type { PaymentJobScope } from '../payments/payment-job-list.ts';
import { resolveContext, resolvePartner, type Principal } from '../policy/principal.ts';
import type { TicketScope } from '../tickets/list.ts';
import { readableGrantCondition } from '../users/user-list.ts';

export type StoredSelection = { allMatching: boolean; filters: Record<string, string>; includedIds: string[]; excludedIds: string[] };

export class SelectionRefused extends Error {}

/** A job's scope: a context, or (the users overview, which is not contextual) every user the caller may read. */
export type BulkScope = PaymentJobScope | { level: 'all' };

/** Resolves a context to a scope the principal may read now; null: unreachable (404) or not permitted. */
export async function scopeOf(
  database: Database,
  principal: Principal,
  context: BulkContext,
  permission: PermissionName,
): Promise<{ scope: BulkScope; reachable: boolean } | null> {
  switch (context.level) {
    case 'business':
    case 'merchant': {
      const resolved = await resolveContext(
        database,
        principal,
        context.businessId ?? '',
        context.level === 'merchant' ? (context.merchantId ?? '') : undefined,
      );
      if (!resolved || (context.level === 'merchant' && !resolved.merchant)) return null;
      const scope: PaymentJobScope = resolved.merchant
        ? { level: 'merchant', businessId: resolved.business.id, merchantId: resolved.merchant.id }
        : { level: 'business', businessId: resolved.business.id };
      return { scope, reachable: resolved.permissions.has(permission) };
    }
    case 'partner': {
      const resolved = await resolvePartner(database, principal, context.partnerId ?? '');
      if (!resolved) return null;
      return { scope: { level: 'partner', partnerId: resolved.partner.id }, reachable: resolved.permissions.has(permission) };
    }
    case 'all': {
      // Only the users overview reads without a context (GET /user/users): who the caller may read, now.
      if (permission !== 'Mapi.Users.Read') return null;
      const reachable = await readableGrantCondition(database.db, principal).then(
        () => true,
        (error: unknown) => {
          if (error instanceof ApiError) return false;
          throw error;
        },
      );
      return { scope: { level: 'all' }, reachable };
    }
  }
}

/** The tickets' scope of a selection's scope (a partner's: the tickets of its businesses). */
export const ticketScopeOf = (scope: BulkScope): TicketScope =>
  scope.level === 'partner' ? { level: 'grants', partnerIds: [scope.partnerId], businessIds: [], merchantIds: [] } : scope;
