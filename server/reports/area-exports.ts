// Exports of the payment jobs, tickets and users overviews (bulk 'export', server/bulk/exports.ts): the rows of a report
// in My report queue, read by the report worker (worker.ts) in keyset batches, scoped and checked as the overviews'
// list calls are.
//   payment jobs  the job's context re-resolved now (scopeOf, selection.ts) and the overview's filters.
//   tickets       the job's context re-resolved now (scopeOf), the overview's filters, and per row Portal.Tickets.Read
//                 where the ticket lives; comments count and show internal notes only where the reader holds
//                 Portal.Tickets.Read.Internal (the same rule as GET …/comments), never otherwise.
//   users         GET /user/users' own rows (userListWhere: whom the caller may read now, never internal users to
//                 business or partner readers); roles and businesses only those of the grants the caller may read.
// A selection of picked rows travels in the report's filters under two reserved keys (pickKeys), so a retried or
// re-queued report holds the same rows.
import { and, asc, count, desc, eq, gt, inArray, lte, sql } from 'drizzle-orm';
import { parseListQuery } from '../../src/contract/list-query.ts';
import { roleLabels, type RoleName } from '../../src/contract/permissions.ts';
import {
  ticketExportColumnLabels,
  ticketListSpec,
  ticketPriorities,
  ticketStatusLabels,
  ticketTypeLabels,
  type TicketExportColumn,
  type TicketType,
} from '../../src/contract/tickets.ts';
import { userExportColumnLabels, userListSpec, type UserExportColumn } from '../../src/contract/users.ts';
import { paymentJobColumnLabels, paymentJobListSpec, type PaymentJobColumn } from '../../src/contract/payment-jobs.ts';
import { statusLabelOf } from '../../src/contract/payment-job-labels.ts';
import { currencyExponent, toMajorUnits } from '../../src/contract/transactions.ts';
import type { Db } from '../db/client.ts';
import { businesses, merchants, paymentJobs, ticketComments, tickets, userRoles, users } from '../db/schema.ts';
import { jobScopeWhere, paymentJobResource, type PaymentJobScope } from '../payments/payment-job-list.ts';
import { customerOf } from '../payments/payment-views.ts';
import { filterCondition, type Picks, picksWhere } from '../http/list-sql.ts';
import { ticketResource, ticketRows, ticketScopeWhere, type TicketScope } from '../tickets/list.ts';
import { statusOf, userListWhere } from '../users/user-list.ts';
import { permissionsIn, type Principal } from '../policy/principal.ts';
import type { ReportColumnSpec, ReportRow } from './writers.ts';
import { SelectionRefused, type StoredSelection } from './selection.ts';

/** The report filters' reserved keys holding a selection's picks (JSON arrays of ids); never list filters. */
export const pickKeys = { included: 'selection.included', excluded: 'selection.excluded' } as const;

/** A selection as report filters: the overview's filters plus its picks. */
export function reportFiltersOf(selection: StoredSelection): Record<string, string> {
  return {
    ...selection.filters,
    ...(selection.allMatching ? {} : { [pickKeys.included]: JSON.stringify(selection.includedIds) }),
    ...(selection.allMatching && selection.excludedIds.length > 0 ? { [pickKeys.excluded]: JSON.stringify(selection.excludedIds) } : {}),
  };
}

const idList = (text: string | undefined): string[] => {
  if (text === undefined) return [];
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new SelectionRefused("The report's selection is not valid.");
  }
  if (!Array.isArray(value) || !value.every((id) => typeof id === 'string')) throw new SelectionRefused("The report's selection is not valid.");
  return value as string[];
};

/** The list filters and the picks of a report's filters. */
export function splitReportFilters(filters: Record<string, string>): { filters: Record<string, string>; picks: Picks } {
  const { [pickKeys.included]: included, [pickKeys.excluded]: excluded, ...rest } = filters;
  return { filters: rest, picks: { allMatching: included === undefined, includedIds: idList(included), excludedIds: idList(excluded) } };
}

export const localTime = (value: Date | null, timeZone: string) =>
  value === null
    ? null
    : new Intl.DateTimeFormat('sv-SE', {
        timeZone,
        year: 'numeric',
        month: '2-digit',
        day: '2-digit',
        hour: '2-digit',
        minute: '2-digit',
        second: '2-digit',
      }).format(value);

/** The columns asked for that an export of this kind has, in the order asked; all of them when none is. */
export function chosenColumns<C extends string>(known: readonly C[], asked: readonly string[] | undefined): C[] {
  const chosen = (asked ?? []).filter((column): column is C => (known as readonly string[]).includes(column));
  return chosen.length > 0 ? [...new Set(chosen)] : [...known];
}

const isDate = (column: string) =>
  column === 'createdUtc' || column === 'lastUpdatedUtc' || column === 'lastSignIn' || column === 'created' || column === 'lockedUntil';

export function ticketExportSpecs(columns: readonly TicketExportColumn[], timeZone: string): ReportColumnSpec[] {
  return columns.map((column) => ({
    header: isDate(column) ? `${ticketExportColumnLabels[column]} (${timeZone})` : ticketExportColumnLabels[column],
    kind: isDate(column) ? 'datetime' : 'text',
  }));
}

export function userExportSpecs(columns: readonly UserExportColumn[], timeZone: string): ReportColumnSpec[] {
  return columns.map((column) => ({
    header: isDate(column) ? `${userExportColumnLabels[column]} (${timeZone})` : userExportColumnLabels[column],
    kind: isDate(column) ? 'datetime' : 'text',
  }));
}

const t = tickets;
const c = ticketComments;
const personName = (person: { id: string | null; givenName: string | null; familyName: string | null } | null) =>
  person?.id ? `${person.givenName ?? ''} ${person.familyName ?? ''}`.trim() : null;

/** Tickets of a scope, the overview's filters and picks, keyset by id, as file rows; only tickets that existed at asOf. */
export async function* ticketExportBatches(
  db: Db,
  options: {
    principal: Principal;
    scope: TicketScope;
    filters: Record<string, string>;
    columns: readonly TicketExportColumn[];
    timeZone: string;
    asOf: Date;
    batchSize: number;
  },
): AsyncGenerator<ReportRow[]> {
  const { filters, picks } = splitReportFilters(options.filters);
  const parsed = parseListQuery(filters, ticketListSpec);
  if (!parsed.ok) throw new SelectionRefused(`The report's filters are no longer valid: ${parsed.errors.join('; ')}`);
  const where = and(
    ticketScopeWhere(db, options.scope),
    filterCondition(ticketResource, parsed.query.filters, options.timeZone),
    picksWhere(t.id, picks),
    lte(t.createdUtc, options.asOf),
  );
  const wantsComments = options.columns.includes('comments') || options.columns.includes('lastComment');
  let cursor: string | null = null;
  for (;;) {
    const rows = await ticketRows(db)
      .where(cursor === null ? where : and(where, gt(t.id, cursor)))
      .orderBy(asc(t.id))
      .limit(options.batchSize);
    if (rows.length === 0) return;
    cursor = rows[rows.length - 1]?.ticket.id ?? null;
    // Each ticket as its own business and merchant allow: the list call's rule, and internal notes for staff only.
    const readable = rows
      .map((row) => {
        const here = permissionsIn(options.principal, { partnerId: row.partnerId, businessId: row.ticket.businessId, merchantId: row.ticket.merchantId });
        return { row, read: here.has('Portal.Tickets.Read'), staff: here.has('Portal.Tickets.Read.Internal') };
      })
      .filter((entry) => entry.read);
    const ids = readable.map((entry) => entry.row.ticket.id);
    const counts = new Map<string, { all: number; public: number }>();
    const latest = new Map<string, { any: string | null; public: string | null }>();
    if (wantsComments && ids.length > 0) {
      for (const internal of [false, true]) {
        const counted = await db
          .select({ ticketId: c.ticketId, n: count() })
          .from(c)
          .where(and(inArray(c.ticketId, ids), eq(c.internal, internal)))
          .groupBy(c.ticketId);
        for (const entry of counted) {
          const now = counts.get(entry.ticketId) ?? { all: 0, public: 0 };
          counts.set(entry.ticketId, { all: now.all + Number(entry.n), public: now.public + (internal ? 0 : Number(entry.n)) });
        }
      }
      for (const publicOnly of [true, false]) {
        const newest = await db
          .selectDistinctOn([c.ticketId], { ticketId: c.ticketId, text: c.text })
          .from(c)
          .where(and(inArray(c.ticketId, ids), publicOnly ? eq(c.internal, false) : undefined))
          .orderBy(c.ticketId, desc(c.createdUtc), desc(c.id));
        for (const entry of newest) {
          const now = latest.get(entry.ticketId) ?? { any: null, public: null };
          latest.set(entry.ticketId, publicOnly ? { ...now, public: entry.text } : { ...now, any: entry.text });
        }
      }
    }
    yield readable.map(({ row, staff }) => {
      const { ticket } = row;
      const counted = counts.get(ticket.id) ?? { all: 0, public: 0 };
      const newest = latest.get(ticket.id) ?? { any: null, public: null };
      const cell: Record<TicketExportColumn, string | null> = {
        ticketId: ticket.id,
        createdUtc: localTime(ticket.createdUtc, options.timeZone),
        lastUpdatedUtc: localTime(ticket.lastUpdatedUtc, options.timeZone),
        type: ticketTypeLabels[ticket.type as TicketType] ?? ticket.type,
        status: ticketStatusLabels[ticket.status as keyof typeof ticketStatusLabels] ?? ticket.status,
        priority: (ticketPriorities as readonly string[]).includes(ticket.priority) ? ticket.priority : null,
        subject: ticket.subject,
        description: ticket.description,
        business: row.businessName,
        merchant: row.merchantName,
        createdBy: personName(row.creator) ?? 'Former user',
        assignee: personName(row.assignee),
        comments: String(staff ? counted.all : counted.public),
        lastComment: staff ? newest.any : newest.public,
      };
      return options.columns.map((column) => cell[column]);
    });
  }
}

const u = users;

/** Users of GET /user/users (or a partner's users), its filters and picks, keyset by id, as file rows; only users that existed at asOf. */
export async function* userExportBatches(
  db: Db,
  options: {
    principal: Principal;
    partnerId?: string;
    filters: Record<string, string>;
    columns: readonly UserExportColumn[];
    timeZone: string;
    asOf: Date;
    batchSize: number;
  },
): AsyncGenerator<ReportRow[]> {
  const { filters, picks } = splitReportFilters(options.filters);
  const parsed = parseListQuery(filters, userListSpec);
  if (!parsed.ok) throw new SelectionRefused(`The report's filters are no longer valid: ${parsed.errors.join('; ')}`);
  // Throws a 403 ApiError when the caller may read no users any more: the worker fails the report with it.
  const { readable, where: listed } = await userListWhere(
    db,
    options.principal,
    parsed.query.filters,
    options.partnerId ? { partnerId: options.partnerId } : {},
  );
  const where = and(listed, picksWhere(u.id, picks), lte(u.createdAt, options.asOf));
  let cursor: string | null = null;
  for (;;) {
    const rows = await db
      .select()
      .from(u)
      .where(cursor === null ? where : and(where, gt(u.id, cursor)))
      .orderBy(asc(u.id))
      .limit(options.batchSize);
    if (rows.length === 0) return;
    cursor = rows[rows.length - 1]?.id ?? null;
    const ids = rows.map((row) => row.id);
    // Only the grants the caller may read, as the list shows them: no role in another business leaks through a file.
    const roleRows = await db
      .select({ userId: userRoles.userId, role: userRoles.role, businessName: businesses.name })
      .from(userRoles)
      .leftJoin(businesses, eq(businesses.id, userRoles.businessId))
      .where(and(inArray(userRoles.userId, ids), readable ?? undefined))
      .orderBy(userRoles.id);
    const now = new Date();
    yield rows.map((row) => {
      const own = roleRows.filter((roleRow) => roleRow.userId === row.id);
      const roles = [...new Set(own.map((roleRow) => roleLabels[roleRow.role as RoleName] ?? roleRow.role))];
      const businessNames = [...new Set(own.map((roleRow) => roleRow.businessName).filter((value): value is string => value !== null))];
      const cell: Record<UserExportColumn, string | null> = {
        userId: row.id,
        name: `${row.givenName} ${row.familyName}`.trim() || null,
        email: row.email,
        status: statusOf(row, now),
        roles: roles.join('; '),
        businesses: row.internal ? 'Internal' : businessNames.join('; '),
        lastSignIn: localTime(row.lastSignInUtc, options.timeZone),
        created: localTime(row.createdAt, options.timeZone),
        lockedUntil: row.lockoutEndDateUtc && row.lockoutEndDateUtc > now ? localTime(row.lockoutEndDateUtc, options.timeZone) : null,
      };
      return options.columns.map((column) => cell[column]);
    });
  }
}

/** How many rows an export of tickets would hold now (the job's total, for the queue's progress). */
export async function ticketExportCount(db: Db, scope: TicketScope, selection: StoredSelection, timeZone: string): Promise<number> {
  const parsed = parseListQuery(selection.filters, ticketListSpec);
  if (!parsed.ok) throw new SelectionRefused(`The selection's filters are not valid: ${parsed.errors.join('; ')}`);
  const where = and(ticketScopeWhere(db, scope), filterCondition(ticketResource, parsed.query.filters, timeZone), picksWhere(t.id, selection));
  return Number((await db.select({ n: count() }).from(t).where(where))[0]?.n ?? 0);
}

export async function userExportCount(db: Db, principal: Principal, partnerId: string | undefined, selection: StoredSelection): Promise<number> {
  const parsed = parseListQuery(selection.filters, userListSpec);
  if (!parsed.ok) throw new SelectionRefused(`The selection's filters are not valid: ${parsed.errors.join('; ')}`);
  const { where } = await userListWhere(db, principal, parsed.query.filters, partnerId ? { partnerId } : {});
  return Number(
    (
      await db
        .select({ n: count() })
        .from(u)
        .where(and(where, picksWhere(u.id, selection)))
    )[0]?.n ?? 0,
  );
}

const j = paymentJobs;

export function paymentJobExportSpecs(columns: readonly PaymentJobColumn[], timeZone: string): ReportColumnSpec[] {
  return columns.map((column) => ({
    header: column.endsWith('DateTimeUtc') ? `${paymentJobColumnLabels[column]} (${timeZone})` : paymentJobColumnLabels[column],
    kind: column === 'amount' ? 'decimal' : column.endsWith('DateTimeUtc') ? 'datetime' : 'text',
  }));
}

/** Payment jobs of a scope and filters, keyset by reference, as file rows; only jobs that existed at asOf. */
export async function* paymentJobExportBatches(
  db: Db,
  options: {
    scope: PaymentJobScope;
    filters: Record<string, string>;
    columns: readonly PaymentJobColumn[];
    timeZone: string;
    asOf: Date;
    batchSize: number;
  },
): AsyncGenerator<ReportRow[]> {
  const { filters, picks } = splitReportFilters(options.filters);
  const parsed = parseListQuery(filters, paymentJobListSpec);
  if (!parsed.ok) throw new SelectionRefused(`The report's filters are no longer valid: ${parsed.errors.join('; ')}`);
  const where = and(
    jobScopeWhere(options.scope),
    filterCondition(paymentJobResource, parsed.query.filters, options.timeZone),
    picksWhere(j.reference, picks),
    lte(j.createDateTimeUtc, options.asOf),
  );
  let cursor: string | null = null;
  for (;;) {
    const rows = await db
      .select({
        job: j,
        merchantName: merchants.name,
        paymentMethod: sql<
          string | null
        >`(SELECT t.payment_method FROM transactions t WHERE t.payment_job_reference = ${j.reference} AND t.kind = 'payment' ORDER BY t.created_at DESC LIMIT 1)`,
      })
      .from(j)
      .innerJoin(merchants, eq(merchants.id, j.merchantId))
      .where(cursor === null ? where : and(where, gt(j.reference, cursor)))
      .orderBy(asc(j.reference))
      .limit(options.batchSize);
    if (rows.length === 0) return;
    cursor = rows[rows.length - 1]?.job.reference ?? null;
    yield rows.map(({ job, merchantName, paymentMethod }) => {
      const order = (job.order ?? {}) as Parameters<typeof customerOf>[0];
      const cell: Record<PaymentJobColumn, string | null> = {
        createDateTimeUtc: localTime(job.createDateTimeUtc, options.timeZone),
        reference: job.reference,
        orderNumber: job.orderNumber,
        customer: customerOf(order),
        emailAddress: order.billingIdentity?.emailAddress ?? null,
        amount: toMajorUnits(job.amountMinor, job.currency).toFixed(currencyExponent(job.currency)),
        currency: job.currency,
        status: statusLabelOf('payment', job.status),
        paymentMethod,
        merchant: merchantName,
        configurationId: job.configurationId,
        paidDateTimeUtc: localTime(job.paidDateTimeUtc, options.timeZone),
        expirationDateTimeUtc: localTime(job.expirationDateTimeUtc, options.timeZone),
      };
      return options.columns.map((column) => cell[column]);
    });
  }
}
