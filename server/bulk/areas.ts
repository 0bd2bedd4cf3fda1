// What a bulk job acts on, per overview: the scope it was made in (re-resolved with the user's current access every
// time the job runs, so a filter never reaches beyond what the user may read now, nor another tenant), the rows its
// selection means (the overview's own filters, plus or minus explicit picks), and what one item's action does.
import { and, asc, desc, eq, gt, sql, type SQL } from 'drizzle-orm';
import type { BulkAction, BulkArea } from '../../src/contract/bulk-jobs.ts';
import { paymentJobListSpec } from '../../src/contract/payment-jobs.ts';
import type { PermissionName } from '../../src/contract/permissions.ts';
import { parseListQuery } from '../../src/contract/list-query.ts';
import type { Db } from '../db/client.ts';
import { businesses, paymentJobs, tickets, transactions } from '../db/schema.ts';
import { ticketListSpec } from '../../src/contract/tickets.ts';
import { ticketStatuses } from '../../src/contract/enumerations.ts';
import { ticketResource, ticketScopeWhere } from '../tickets/list.ts';
import { SelectionRefused, ticketScopeOf, type BulkScope, type StoredSelection } from '../reports/selection.ts';
import { updateTicket } from '../tickets/writes.ts';
import { ApiError, notFoundMessage } from '../http/errors.ts';
import { users } from '../db/schema.ts';
import { userListSpec, userMessages } from '../../src/contract/users.ts';
import { auditUserEvent, indefiniteLock, setUserLock } from '../users/user-lock.ts';
import { userListWhere } from '../users/user-list.ts';
import { canManageWholeUser, canSeeUser, loadTarget } from '../users/user-access.ts';
import { jobScopeWhere, paymentJobResource } from '../payments/payment-job-list.ts';
import { filterCondition, picksWhere } from '../http/list-sql.ts';
import { noPermissionMessage } from '../http/errors.ts';
import { cancelJob, mailPaymentLink, PaymentActionError, type ActionOutcome } from '../payments/payment-operations.ts';
import { permissionsIn, type Principal } from '../policy/principal.ts';

export type ItemOutcome = { ok: true } | { ok: false; reason: string };
export type Item = { id: string; partnerId: string | null; businessId: string; merchantId: string | null };
/** What an action is asked to set (tickets: status, assigneeId). */
export type BulkParams = { status?: string; assigneeId?: string | null };

export type AreaRunner = {
  /** the rows of the selection after `cursor` in id order */
  batch: (db: Db, cursor: string | null, size: number) => Promise<Item[]>;
  count: (db: Db) => Promise<number>;
  /** one item's action, inside the job's per-item transaction; a refusal is an outcome, not an error */
  act: (tx: Db, item: Item, at: Date) => Promise<ItemOutcome>;
};

/** The permission to act on an item of an area, checked where the item lives. */
export const actionPermission: Partial<Record<`${BulkArea}:${BulkAction}`, PermissionName>> = {
  'payment-jobs:cancel': 'Portal.PaymentJobs.Cancel',
  'payment-jobs:resend-links': 'Portal.PaymentJobs.MailPaymentLink',
  'payment-jobs:export': 'Portal.Reports.Create',
  'transactions:export': 'Portal.Reports.Create',
  // a ticket's update is Create where it lives; the workflow (status, assignee) is staff's: updateTicket checks it
  'tickets:export': 'Portal.Reports.Create',
  'users:export': 'Portal.Reports.Create',
  'tickets:status': 'Portal.Tickets.Create',
  'tickets:assignee': 'Portal.Tickets.Create',
  // locking is Update over the whole user (every role they hold): canManageWholeUser checks it per user
  'users:lock': 'Mapi.Users.Update',
};
/** What reading the area's overview needs in the job's context. */
export const readPermission: Record<BulkArea, PermissionName> = {
  'payment-jobs': 'Portal.PaymentJobs.Read',
  transactions: 'Mapi.Transactions.Read',
  tickets: 'Portal.Tickets.Read',
  users: 'Mapi.Users.Read',
};

const j = paymentJobs;

function selectionWhere(
  idColumn: typeof j.reference | typeof tickets.id | typeof users.id,
  selection: StoredSelection,
  filterSql: SQL | undefined,
): SQL | undefined {
  return and(filterSql, picksWhere(idColumn, selection));
}

const messageOf = (outcome: ActionOutcome): string => {
  const report = outcome.body.errorReport as { errors?: { message?: string }[] } | undefined;
  return report?.errors?.map((error) => error.message).join(' ') || String(outcome.body.message ?? `Refused (${outcome.status}).`);
};

/** Runs a payment action in a savepoint: a thrown refusal (404, 409) undoes only this item's writes. */
async function paymentItem(tx: Db, run: (inner: Db) => Promise<ActionOutcome>): Promise<ItemOutcome> {
  try {
    const outcome = await tx.transaction(async (inner) => run(inner as unknown as Db));
    return outcome.status < 300 ? { ok: true } : { ok: false, reason: messageOf(outcome) };
  } catch (error) {
    if (error instanceof PaymentActionError) return { ok: false, reason: error.message };
    throw error;
  }
}

export function areaRunner(options: {
  area: BulkArea;
  action: BulkAction;
  scope: BulkScope;
  selection: StoredSelection;
  timeZone: string;
  principal: Principal;
  publicUrl: string;
  params?: BulkParams;
}): AreaRunner {
  const { area, action, scope, selection, principal } = options;
  if (area === 'tickets') return ticketRunner(options);
  if (area === 'users') return userRunner(options);
  if (scope.level === 'all') throw new SelectionRefused(`Bulk ${action} of ${area} needs a business, merchant or partner.`);
  if (area !== 'payment-jobs') throw new SelectionRefused(`Bulk ${action} of ${area} is not available yet.`);
  const parsed = parseListQuery(selection.filters, paymentJobListSpec);
  if (!parsed.ok) throw new SelectionRefused(`The selection's filters are not valid: ${parsed.errors.join('; ')}`);
  const where = and(jobScopeWhere(scope), selectionWhere(j.reference, selection, filterCondition(paymentJobResource, parsed.query.filters, options.timeZone)));
  const permission = actionPermission[`${area}:${action}`];
  const actor = { userId: principal.userId };
  const address = (item: Item) => ({ reference: item.id, where: jobScopeWhere(scope) });
  return {
    count: async (db) => Number((await db.select({ n: sql<number>`count(*)` }).from(j).where(where))[0]?.n ?? 0),
    batch: async (db, cursor, size) =>
      db
        .select({ id: j.reference, partnerId: j.partnerId, businessId: j.businessId, merchantId: j.merchantId })
        .from(j)
        .where(cursor === null ? where : and(where, gt(j.reference, cursor)))
        .orderBy(asc(j.reference))
        .limit(size),
    act: async (tx, item, at) => {
      if (!permission || !permissionsIn(principal, item).has(permission)) return { ok: false, reason: noPermissionMessage };
      if (action === 'cancel') return paymentItem(tx, (inner) => cancelJob(inner as never, actor, address(item), { confirmed: true, version: null }, at));
      if (action === 'resend-links') {
        const [payment] = await tx
          .select({ reference: transactions.reference, email: transactions.customerEmail })
          .from(transactions)
          .where(and(eq(transactions.paymentJobReference, item.id), eq(transactions.kind, 'payment')))
          .orderBy(desc(transactions.createdAt))
          .limit(1);
        if (!payment) return { ok: false, reason: 'This payment job has no payment to send a link for.' };
        if (!payment.email) return { ok: false, reason: 'No email address is known for this payment job.' };
        return paymentItem(tx, (inner) =>
          mailPaymentLink(inner as never, actor, address(item), { paymentId: payment.reference, emailAddress: payment.email as string }, at, options.publicUrl),
        );
      }
      return { ok: false, reason: `Bulk ${action} is not an item action.` };
    },
  };
}

const tk = tickets;

/** Refusals of a single action (ApiError), as its route answers them, are the item's outcome; a savepoint undoes its writes. */
async function apiItem(tx: Db, run: (inner: Db) => Promise<void>): Promise<ItemOutcome> {
  try {
    await tx.transaction(async (inner) => run(inner as unknown as Db));
    return { ok: true };
  } catch (error) {
    if (error instanceof ApiError) return { ok: false, reason: error.message };
    throw error;
  }
}

/** Tickets: change status or assignee, each ticket through updateTicket (the single PUT's rules, audit and mails). */
function ticketRunner(options: Parameters<typeof areaRunner>[0]): AreaRunner {
  const { action, scope, selection, principal, params = {} } = options;
  if (action !== 'status' && action !== 'assignee') throw new SelectionRefused(`Bulk ${action} of tickets is not available yet.`);
  const status = params.status;
  if (action === 'status' && !ticketStatuses.includes(status as never))
    throw new SelectionRefused(`params.status must be one of ${ticketStatuses.join(', ')}.`);
  if (action === 'assignee' && params.assigneeId === undefined)
    throw new SelectionRefused('params.assigneeId is required: a support staff member, or null to unassign.');
  const parsed = parseListQuery(selection.filters, ticketListSpec);
  if (!parsed.ok) throw new SelectionRefused(`The selection's filters are not valid: ${parsed.errors.join('; ')}`);
  const inScope = (db: Db) => ticketScopeWhere(db, ticketScopeOf(scope));
  const where = (db: Db) => and(inScope(db), selectionWhere(tk.id, selection, filterCondition(ticketResource, parsed.query.filters, options.timeZone)));
  return {
    count: async (db) => Number((await db.select({ n: sql<number>`count(*)` }).from(tk).where(where(db)))[0]?.n ?? 0),
    batch: async (db, cursor, size) =>
      db
        .select({ id: tk.id, partnerId: businesses.partnerId, businessId: tk.businessId, merchantId: tk.merchantId })
        .from(tk)
        .innerJoin(businesses, eq(businesses.id, tk.businessId))
        .where(cursor === null ? where(db) : and(where(db), gt(tk.id, cursor)))
        .orderBy(asc(tk.id))
        .limit(size),
    act: async (tx, item) => {
      const here = permissionsIn(principal, item);
      if (!here.has('Portal.Tickets.Read') || !here.has('Portal.Tickets.Create')) return { ok: false, reason: noPermissionMessage };
      // The ticket as it is now, locked: its version is the one this item's update is made against.
      const [row] = await tx
        .select()
        .from(tk)
        .where(and(eq(tk.id, item.id), inScope(tx)))
        .for('update');
      if (!row) return { ok: false, reason: 'This ticket no longer exists.' };
      const nextStatus = action === 'status' ? (status as (typeof ticketStatuses)[number]) : (row.status as (typeof ticketStatuses)[number]);
      const nextAssignee = action === 'assignee' ? (params.assigneeId ?? null) : row.assigneeId;
      if (nextStatus === row.status && nextAssignee === row.assigneeId) return { ok: true };
      const opened = {
        ticket: { ...row, partnerId: item.partnerId, businessName: '', merchantName: null },
        here,
        staff: here.has('Portal.Tickets.Read.Internal'),
        principal,
      };
      return apiItem(tx, (inner) =>
        updateTicket(inner, options.publicUrl, opened, {
          type: row.type as never,
          priority: row.priority as never,
          status: nextStatus,
          subject: row.subject,
          description: row.description,
          assigneeId: nextAssignee,
          version: row.version,
        }),
      );
    },
  };
}

/** Users: lock sign-in, each user checked and locked as PUT /users/{id}/login does (setUserLock: sessions ended, audited). */
function userRunner(options: Parameters<typeof areaRunner>[0]): AreaRunner {
  const { action, scope, selection, principal } = options;
  if (action !== 'lock') throw new SelectionRefused(`Bulk ${action} of users is not available yet.`);
  if (scope.level !== 'all' && scope.level !== 'partner') throw new SelectionRefused("Users are selected in the users overview, or a partner's users.");
  const parsed = parseListQuery(selection.filters, userListSpec);
  if (!parsed.ok) throw new SelectionRefused(`The selection's filters are not valid: ${parsed.errors.join('; ')}`);
  const filters = parsed.query.filters;
  const u = users;
  // The overview's own rows (who the caller may read now, the filters), plus or minus the picks.
  const where = async (db: Db) =>
    and(
      (await userListWhere(db, principal, filters, scope.level === 'partner' ? { partnerId: scope.partnerId } : {})).where,
      selectionWhere(u.id, selection, undefined),
    );
  /** A refusal is audited as the single action's refusal is (UserAdministrationRefused), then is the item's outcome. */
  const refuse = async (tx: Db, userId: string, status: number, reason: string): Promise<ItemOutcome> => {
    await auditUserEvent(tx, principal, 'UserAdministrationRefused', { userId }, { action: 'login', status, reason, via: 'bulk-job' });
    return { ok: false, reason };
  };
  return {
    count: async (db) =>
      Number(
        (
          await db
            .select({ n: sql<number>`count(*)` })
            .from(u)
            .where(await where(db))
        )[0]?.n ?? 0,
      ),
    // A user lives where their roles are: the item carries no context of its own, act checks every role.
    batch: async (db, cursor, size) =>
      (
        await db
          .select({ id: u.id })
          .from(u)
          .where(cursor === null ? await where(db) : and(await where(db), gt(u.id, cursor)))
          .orderBy(asc(u.id))
          .limit(size)
      ).map((row) => ({ id: row.id, partnerId: null, businessId: '', merchantId: null })),
    act: async (tx, item, at) => {
      const [row] = await tx.select().from(u).where(eq(u.id, item.id)).for('update');
      if (!row) return { ok: false, reason: 'This user no longer exists.' };
      const target = await loadTarget(tx, row);
      if (!canSeeUser(principal, target)) return refuse(tx, row.id, 404, notFoundMessage);
      if (!canManageWholeUser(principal, 'Mapi.Users.Update', target)) return refuse(tx, row.id, 403, noPermissionMessage);
      if (row.id === principal.userId) return { ok: false, reason: userMessages.cannotLockSelf };
      if (row.lockoutEndDateUtc && row.lockoutEndDateUtc > at) return { ok: true }; // locked already: nothing to do
      return apiItem(tx, (inner) => setUserLock(inner, principal, row, target, indefiniteLock, { via: 'bulk-job' }));
    },
  };
}
