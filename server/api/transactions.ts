// Transactions: overview, count, detail, card numbers and the export into the report queue.
//
// Every path exists under four prefixes ({context}):
//   /transactions                                          context-free: internal users see all, others every
//                                                           business, merchant and partner where they hold the
//                                                           permission
//   /businesses/{businessId}/transactions                   one business
//   /businesses/{businessId}/merchants/{merchantId}/transactions   one merchant
//   /partners/{partnerId}/transactions                      one partner's businesses
// An unreachable business, merchant or partner answers 404; a reachable one without the permission 403.
//
// | method | path                                   | permission                                | answer                                       |
// |--------|----------------------------------------|-------------------------------------------|----------------------------------------------|
// | GET    | {context}                              | Mapi.Transactions.Read                    | { results, numberOfResults, numberOfResultsIsEstimate } |
// | GET    | {context}/count                        | Mapi.Transactions.Read                    | { numberOfResults } exact (export dialog)    |
// | GET    | {context}/totals                       | Mapi.Transactions.Read                    | the dashboard's measures for the filters (one currency, minor units) |
// | POST   | {context}/full/reports                 | Mapi.Transactions.Read, Portal.Reports.Create | 202 { reportId, totalRows }             |
// | GET    | {context}/{reference}                  | Mapi.Transaction.Read                     | detail with linked transactions, payment job |
// | GET    | {context}/{reference}/maskedCardNumber | Mapi.Transaction.Read                     | { maskedCardNumber }                         |
// | GET    | {context}/{reference}/cardNumber       | Mapi.Transaction.CardNumber.Read (in the  | { cardNumber }; audited as CardNumberRevealed|
// |        |                                        | transaction's own context)                | in the same database transaction as the read |
// |        |                                        |                                           | (opened from the card vault, server/cards/)  |
// A transaction outside the addressed context (another tenant's) answers 404.
//
// List parameters: pagenumber, pagesize (10, 25, 50, 100), OrderingField (date, amount, status, reference,
// merchant) with OrderingDirection (Ascending | Descending; default date Descending), and the filters declared in
// src/contract/transactions.ts (date, amount, status, channel, paymentmethod, kind, currency, merchantid, last4,
// bin, searchterm). Anything undeclared, repeated or malformed is a 400 naming it. An amount compares each row in its
// own currency's major units (as the palette's record search does), with or without a currency filter. The card
// filters read the stored last four and first six digits (generated from the masked number, indexed), never the
// full number.
//
// Count: a capped count first (at most exactCountLimit + 1 = 10,001 matching rows are visited); at or under the
// cap the total is exact. Above it, or when on PostgreSQL the capped count needs more than countBudgetMs (60 ms:
// no index narrows the filters inside a big scope, so every row of the scope would be visited), the total is the
// planner's row estimate for the same query, flagged numberOfResultsIsEstimate ('about 1,234,567'), so page 1 of
// two million rows never waits for a full count. GET {context}/count is always exact (the export dialog asks it),
// and an export records the exact count at queue time.
//
// The page itself: with an exact small count the matches are found through the filters' indexes and sorted; else
// the sort's index is walked and each row tested (fast when matches are spread along the sort order). On
// PostgreSQL the walk gets walkBudgetMs (150 ms) and falls back to sorting the matches, which bounds the cost of
// filters that correlate with the sort (JPY amounts top the amount scale; refunds are never 'cancelled').
//
// Paging is by offset up to maxListOffset rows (deep offsets cost a scan of every skipped row; the merchant sort,
// which walks every merchant, stops at maxMerchantSortOffset); beyond that the answer is a 400 that points to
// filters or an export. Exports page by keyset in the worker.
import { requireStepUp } from './step-up.ts';
import { randomBytes } from 'node:crypto';
import { and, asc, count, desc, eq, inArray, lte, or, sql, type SQL } from 'drizzle-orm';
import { Hono, type Context } from 'hono';
import { filterInstant } from '../../src/contract/filters.ts';
import type { PermissionName } from '../../src/contract/permissions.ts';
import type { ReportContext } from '../../src/contract/report-schemas.ts';
import { transactionExportBody } from '../../src/contract/transaction-schemas.ts';
import { amountFilterCurrencyProblem, amountScale, moneyBackKindsSql, maxExportFilters, toMajorUnits, transactionListSpec, type TransactionTotals } from '../../src/contract/transactions.ts';
import type { TransactionDetail, TransactionListItem } from '../../src/contract/transaction-schemas.ts';
import { encodeOrdering, type FilterClause, type ParsedListQuery, type SortKey } from '../../src/contract/list-query.ts';
import { openVaultedCard } from '../cards/card-vault.ts';
import { paymentActionsOf, refundableMinor } from '../../src/contract/payment-jobs.ts';
import { loadJobState } from '../payments/payment-state.ts';
import type { Database, Db } from '../db/client.ts';
import { auditEvents, businesses, merchants, paymentJobs, transactions, users } from '../db/schema.ts';
import { insertQueuedReport } from '../reports/queue.ts';
import { permissionsIn, resolveContext, resolvePartner, type Principal } from '../policy/principal.ts';
import { permissionsOfRoles } from '../policy/role-permissions.ts';
import { type AppEnv, type Deps, readBody, requirePermission } from '../http/env.ts';
import { ApiError, badRequest, forbidden, notFound } from '../http/errors.ts';
import {
  assertResourceMatchesSpec, filterCondition, likeLiteral, orderByOf, orderKeysOf, parseListRequest,
  singleValuedQuery, type FilterContext, type ListResource, type OrderKey,
} from '../http/list-sql.ts';
import { sqlNow } from '../clock.ts';

const t = transactions;

export const exactCountLimit = 10_000;
export const maxListOffset = 100_000;
/**
 * The merchant sort reads up to offset + page rows of every merchant (a lateral walk by name): deep pages cost
 * merchants × offset rows, so they stop earlier (page 999 took 935 ms on the embedded database and held others up).
 */
export const maxMerchantSortOffset = 5_000;

function searchCondition(clauses: FilterClause[]): SQL | undefined {
  const term = clauses.find((clause) => clause.operator === 'eq')?.value.trim();
  if (!term) return undefined;
  // Prefix matches on references (upper-case) and customer email (lower-case): each is a btree range scan.
  const upper = `${likeLiteral(term.toUpperCase())}%`;
  const lower = `${likeLiteral(term.toLowerCase())}%`;
  return or(
    sql`${t.reference} LIKE ${upper}`,
    sql`${t.paymentJobReference} LIKE ${upper}`,
    sql`lower(${t.customerEmail}) LIKE ${lower}`,
  );
}

/** The whitelist: filter and sort names of transactionListSpec → columns of the transactions table. */
export const transactionResource: ListResource = {
  spec: transactionListSpec,
  filters: {
    date: { type: 'date', column: t.createdAt },
    // Major units of each row's own currency: ¥1,250 matches [eq]1250, £12.50 matches [eq]12.5.
    amount: { type: 'decimal', column: t.amountMilli, scale: amountScale },
    status: { type: 'equals', column: t.status },
    channel: { type: 'equals', column: t.channel },
    paymentmethod: { type: 'equals', column: t.paymentMethod },
    kind: { type: 'equals', column: t.kind },
    currency: { type: 'equals', column: t.currency, normalise: (value) => value.toUpperCase() },
    merchantid: { type: 'equals', column: t.merchantId },
    last4: { type: 'equals', column: t.cardLast4 },
    bin: { type: 'equals', column: t.cardBin },
    searchterm: { type: 'custom', condition: (clauses: FilterClause[], _context: FilterContext) => searchCondition(clauses) },
  },
  // Ascending orders; each is the backward or forward scan of an index per scope (migration 0002).
  sorts: {
    date: [{ expression: t.createdAt, descending: false }, { expression: t.reference, descending: true }],
    amount: [{ expression: t.amountMilli, descending: false }, { expression: t.reference, descending: false }],
    status: [{ expression: t.status, descending: false }, { expression: t.createdAt, descending: true }, { expression: t.reference, descending: false }],
    reference: [{ expression: t.reference, descending: false }],
    merchant: [
      { expression: merchants.name, descending: false },
      { expression: merchants.id, descending: false },
      { expression: t.createdAt, descending: true, fixedDirection: true },
      { expression: t.reference, descending: false, fixedDirection: true },
    ],
  },
};
assertResourceMatchesSpec(transactionResource);

// ---------------------------------------------------------------------------------------------------
// Scope: which rows an addressed context (or the caller's whole reach) covers

export type TransactionScope =
  | { level: 'all' }
  | { level: 'partner'; partnerId: string }
  | { level: 'business'; businessId: string }
  | { level: 'merchant'; businessId: string; merchantId: string }
  | { level: 'grants'; partnerIds: string[]; businessIds: string[]; merchantIds: string[] };

export function scopeWhere(scope: TransactionScope): SQL | undefined {
  switch (scope.level) {
    case 'all': return undefined;
    case 'partner': return eq(t.partnerId, scope.partnerId);
    case 'business': return eq(t.businessId, scope.businessId);
    // Merchant ids are unique: adding the business would only make the planner think the scope is tiny.
    case 'merchant': return eq(t.merchantId, scope.merchantId);
    case 'grants': return or(
      scope.partnerIds.length > 0 ? inArray(t.partnerId, scope.partnerIds) : undefined,
      scope.businessIds.length > 0 ? inArray(t.businessId, scope.businessIds) : undefined,
      scope.merchantIds.length > 0 ? inArray(t.merchantId, scope.merchantIds) : undefined,
    ) ?? sql`false`;
  }
}

/** The merchants a scope can hold rows of (a superset is fine: the rows' own scope condition still applies). */
export function merchantScopeWhere(db: Db, scope: TransactionScope): SQL | undefined {
  const ofPartners = (partnerIds: string[]) => inArray(merchants.businessId, db.select({ id: businesses.id }).from(businesses).where(inArray(businesses.partnerId, partnerIds)));
  switch (scope.level) {
    case 'all': return undefined;
    case 'partner': return ofPartners([scope.partnerId]);
    case 'business': return eq(merchants.businessId, scope.businessId);
    case 'merchant': return eq(merchants.id, scope.merchantId);
    case 'grants': return or(
      scope.partnerIds.length > 0 ? ofPartners(scope.partnerIds) : undefined,
      scope.businessIds.length > 0 ? inArray(merchants.businessId, scope.businessIds) : undefined,
      scope.merchantIds.length > 0 ? inArray(merchants.id, scope.merchantIds) : undefined,
    ) ?? sql`false`;
  }
}

/** Where a permission reaches without a context: everything (a root role has it) or the grants that confer it. */
export function grantedScope(principal: Principal, permission: PermissionName): TransactionScope | null {
  const confers = (role: string) => permissionsOfRoles([role]).has(permission);
  const grants = principal.grants.filter((grant) => confers(grant.role));
  if (grants.some((grant) => grant.level === 'root')) return { level: 'all' };
  const ids = (level: 'partner' | 'business' | 'merchant', key: 'partnerId' | 'businessId' | 'merchantId') =>
    [...new Set(grants.filter((grant) => grant.level === level).map((grant) => grant[key]).filter((id): id is string => id !== null))];
  const scope = { level: 'grants' as const, partnerIds: ids('partner', 'partnerId'), businessIds: ids('business', 'businessId'), merchantIds: ids('merchant', 'merchantId') };
  return scope.partnerIds.length + scope.businessIds.length + scope.merchantIds.length === 0 ? null : scope;
}

type AddressedScope = { scope: TransactionScope; context: Omit<ReportContext, 'timeZone'> };
type ScopeResolver = (c: Context<AppEnv>, permissions: readonly PermissionName[]) => Promise<AddressedScope>;

function requireAll(granted: Set<PermissionName>, permissions: readonly PermissionName[]): void {
  for (const permission of permissions) requirePermission(granted, permission);
}

function resolvers(database: Database): { prefix: string; resolve: ScopeResolver }[] {
  const contextFree: ScopeResolver = async (c, permissions) => {
    const principal = c.get('principal');
    let scope: TransactionScope | null = null;
    for (const permission of permissions) {
      const granted = grantedScope(principal, permission);
      if (!granted) throw forbidden();
      // Several permissions: where all of them hold. Root-wide ones do not narrow; otherwise the first one's grants.
      if (scope === null || scope.level === 'all') scope = granted;
    }
    if (!scope) throw forbidden();
    return { scope, context: { level: 'all', title: scope.level === 'all' ? 'All transactions' : 'All my transactions' } };
  };
  const business: ScopeResolver = async (c, permissions) => {
    const resolved = await resolveContext(database, c.get('principal'), c.req.param('businessId') ?? '');
    if (!resolved) throw notFound();
    requireAll(resolved.permissions, permissions);
    return { scope: { level: 'business', businessId: resolved.business.id }, context: { level: 'business', businessId: resolved.business.id, title: resolved.business.name } };
  };
  const merchant: ScopeResolver = async (c, permissions) => {
    const resolved = await resolveContext(database, c.get('principal'), c.req.param('businessId') ?? '', c.req.param('merchantId') ?? '');
    if (!resolved?.merchant) throw notFound();
    requireAll(resolved.permissions, permissions);
    return {
      scope: { level: 'merchant', businessId: resolved.business.id, merchantId: resolved.merchant.id },
      context: { level: 'merchant', businessId: resolved.business.id, merchantId: resolved.merchant.id, title: `${resolved.merchant.name} (${resolved.business.name})` },
    };
  };
  const partner: ScopeResolver = async (c, permissions) => {
    const resolved = await resolvePartner(database, c.get('principal'), c.req.param('partnerId') ?? '');
    if (!resolved) throw notFound();
    requireAll(resolved.permissions, permissions);
    return { scope: { level: 'partner', partnerId: resolved.partner.id }, context: { level: 'partner', partnerId: resolved.partner.id, title: resolved.partner.name } };
  };
  return [
    { prefix: '/transactions', resolve: contextFree },
    { prefix: '/businesses/:businessId/transactions', resolve: business },
    { prefix: '/businesses/:businessId/merchants/:merchantId/transactions', resolve: merchant },
    { prefix: '/partners/:partnerId/transactions', resolve: partner },
  ];
}

/** A report's context back into a scope, re-checked against the user's current grants (the worker runs later). */
export async function scopeOfReportContext(database: Database, principal: Principal, context: ReportContext, permission: PermissionName): Promise<TransactionScope | null> {
  switch (context.level) {
    case 'all': return grantedScope(principal, permission);
    case 'business': {
      const resolved = await resolveContext(database, principal, context.businessId ?? '');
      return resolved?.permissions.has(permission) ? { level: 'business', businessId: resolved.business.id } : null;
    }
    case 'merchant': {
      const resolved = await resolveContext(database, principal, context.businessId ?? '', context.merchantId ?? '');
      return resolved?.merchant && resolved.permissions.has(permission) ? { level: 'merchant', businessId: resolved.business.id, merchantId: resolved.merchant.id } : null;
    }
    case 'partner': {
      const resolved = await resolvePartner(database, principal, context.partnerId ?? '');
      return resolved?.permissions.has(permission) ? { level: 'partner', partnerId: resolved.partner.id } : null;
    }
  }
}

// ---------------------------------------------------------------------------------------------------
// Queries

/**
 * A payment's paid refunds in its minor units (0 for refunds and captures): evaluated for the rows of a page only,
 * through the parent index. 'Refunded' and 'Partially refunded' are read from it (displayStatusOf).
 */
export function refundedMinorOf() {
  return sql<number>`(CASE WHEN ${t.kind} = 'payment' THEN (SELECT coalesce(sum(refunds.amount_minor), 0) FROM transactions AS refunds
    WHERE refunds.parent_reference = ${t.reference} AND refunds.kind = 'refund' AND refunds.status = 'paid') ELSE 0 END)`.as('refunded_minor');
}

/**
 * The ordering of a list or an export. Amounts compare within a currency: sorted by amount, rows group by currency
 * first (ORDER BY currency, amount), unless the filters hold exactly one currency (then the amount index serves).
 */
export function transactionOrderKeys(sort: SortKey, filters: Record<string, FilterClause[]>): OrderKey[] {
  const keys = orderKeysOf(transactionResource, sort);
  if (sort.field !== 'amount') return keys;
  const currencies = new Set((filters.currency ?? []).filter((clause) => clause.operator === 'eq').map((clause) => clause.value.toUpperCase()));
  if (currencies.size === 1) return keys;
  return [{ expression: t.currency, descending: false }, ...keys];
}

/**
 * For a scheduled export (server/reports/schedules.ts): an amount filter without exactly one currency is a 400 there.
 * The overview, its count and its exports take such an amount in each row's own currency instead.
 */
export function assertAmountWithinCurrency(filters: Record<string, FilterClause[]>): void {
  const problem = amountFilterCurrencyProblem(filters);
  if (problem) throw badRequest(problem);
}

export const listFields = {
  reference: t.reference,
  kind: t.kind,
  createdAt: t.createdAt,
  businessId: t.businessId,
  merchantId: t.merchantId,
  amountMinor: t.amountMinor,
  currency: t.currency,
  status: t.status,
  paymentMethod: t.paymentMethod,
  channel: t.channel,
  ewalletType: t.ewalletType,
  paymentJobReference: t.paymentJobReference,
  cardMasked: t.cardMasked,
  refundedMinor: refundedMinorOf(),
};
type ListRow = Pick<typeof t.$inferSelect, Exclude<keyof typeof listFields, 'refundedMinor'>> & { merchantName: string; refundedMinor: number | string | null };

function toListItem(row: ListRow): TransactionListItem {
  return {
    reference: row.reference,
    kind: row.kind,
    date: row.createdAt.toISOString(),
    businessId: row.businessId,
    merchantId: row.merchantId,
    merchantName: row.merchantName,
    amount: toMajorUnits(row.amountMinor, row.currency),
    currency: row.currency,
    status: row.status,
    paymentMethod: row.paymentMethod,
    channel: row.channel,
    ewalletType: row.ewalletType,
    paymentJobReference: row.paymentJobReference,
    maskedCardNumber: row.cardMasked,
    ...(row.kind === 'payment' ? { refundedAmount: toMajorUnits(Number(row.refundedMinor ?? 0), row.currency) } : {}),
  };
}

export type ListRequest = {
  scope: TransactionScope;
  where: SQL | undefined;
  orderKeys: OrderKey[];
  sortField: string;
  limit: number;
  offset: number;
  /**
   * walk (default): follow the sort's index and test each row against the filters, stopping when the page is full
   * (a merchant sort walks merchants by name through a lateral join). sortMatches: find the matching rows through
   * whichever index serves the filters best, then sort them.
   */
  plan?: 'walk' | 'sortMatches';
};

/** The same orderings, in a form no index can serve, so the planner finds matches first and sorts them after. */
function unindexed(expression: OrderKey['expression']): OrderKey['expression'] {
  if (expression === t.createdAt) return sql`(${t.createdAt} + interval '0 seconds')`;
  if (expression === t.amountMilli) return sql`(${t.amountMilli} + 0)`;
  if (expression === t.status || expression === t.currency || expression === t.reference || expression === merchants.name || expression === merchants.id) return sql`(${expression} || '')`;
  return expression;
}

/** One page of the list, read by the given plan. */
export async function pageOfTransactions(db: Db, request: ListRequest): Promise<TransactionListItem[]> {
  const { where, limit, offset } = request;
  const sortMatches = request.plan === 'sortMatches';
  if (request.sortField === 'merchant' && !sortMatches) {
    const perMerchant = db.select(listFields).from(t)
      .where(and(eq(t.merchantId, merchants.id), where))
      .orderBy(desc(t.createdAt), asc(t.reference))
      .limit(offset + limit)
      .as('page_rows');
    const nameOrder = request.orderKeys[0]?.descending ? desc : asc;
    const rows = await db.select({ ...perMerchant._.selectedFields, merchantName: merchants.name })
      .from(merchants)
      .innerJoinLateral(perMerchant, sql`true`)
      .where(merchantScopeWhere(db, request.scope))
      .orderBy(nameOrder(merchants.name), nameOrder(merchants.id), desc(perMerchant.createdAt), asc(perMerchant.reference))
      .limit(limit).offset(offset);
    return rows.map((row) => toListItem(row as ListRow));
  }
  const orderKeys = sortMatches ? request.orderKeys.map((key) => ({ ...key, expression: unindexed(key.expression) })) : request.orderKeys;
  const rows = await db.select({ ...listFields, merchantName: merchants.name }).from(t)
    .innerJoin(merchants, eq(merchants.id, t.merchantId))
    .where(where)
    .orderBy(...orderByOf(orderKeys))
    .limit(limit).offset(offset);
  return rows.map(toListItem);
}

/** How long an index walk may take on PostgreSQL before the page is read by sorting the matches instead. */
export const walkBudgetMs = 150;

/**
 * Runs statements that PostgreSQL cancels after ms: on the database's budgeted connections (one round trip each), or,
 * for a Database without them, in a transaction that sets statement_timeout locally.
 */
export async function withStatementBudget<T>(database: Database, ms: number, run: (db: Db) => Promise<T>): Promise<T> {
  if (database.budgeted) return run(database.budgeted(ms));
  return database.db.transaction(async (tx) => {
    await tx.execute(sql`SELECT set_config('statement_timeout', ${String(ms)}, true)`);
    return run(tx as unknown as Db);
  });
}

export const isStatementTimeout = (error: unknown): boolean => {
  const cause = (error as { cause?: { code?: string }; code?: string } | null);
  return cause?.code === '57014' || cause?.cause?.code === '57014';
};

/**
 * Picks the plan. With few matches (an exact count of at most exactCountLimit) the matches are sorted. Otherwise the
 * sort's index is walked, which is fast when matches are spread along the sort order and slow when they are not
 * (JPY amounts sit at the top of the amount scale, refunds are never 'cancelled'): on PostgreSQL the walk gets a
 * budget, and past it the page is read by sorting the matches. PGlite (one embedded node, smaller data) walks.
 */
export async function readPage(database: Database, request: ListRequest, count: { numberOfResults: number; numberOfResultsIsEstimate: boolean }): Promise<TransactionListItem[]> {
  // An exact count means at most exactCountLimit matches, found quickly: sorting them beats any walk.
  if (!count.numberOfResultsIsEstimate) return pageOfTransactions(database.db, { ...request, plan: 'sortMatches' });
  if (database.kind !== 'postgres') return pageOfTransactions(database.db, { ...request, plan: 'walk' });
  try {
    return await withStatementBudget(database, walkBudgetMs, (db) => pageOfTransactions(db, { ...request, plan: 'walk' }));
  } catch (error) {
    if (!isStatementTimeout(error)) throw error;
    return pageOfTransactions(database.db, { ...request, plan: 'sortMatches' });
  }
}

export const totalsNeedCurrencyMessage = 'Totals are given for one currency: choose one currency.';

/** The dashboard's measures over the rows `where` matches (minor units of `currency`). */
export async function totalsOf(db: Db, where: SQL | undefined, currency: string): Promise<TransactionTotals> {
  const payments = and(where, eq(t.kind, 'payment'));
  const [row] = await db.select({
    volume: sql<string>`coalesce(sum(${t.amountMinor}) FILTER (WHERE ${t.status} = 'paid'), 0)`,
    salesCount: sql<string>`count(*) FILTER (WHERE ${t.status} = 'paid')`,
    unsuccessfulVolume: sql<string>`coalesce(sum(${t.amountMinor}) FILTER (WHERE ${t.status} IN ('declined', 'failed')), 0)`,
    unsuccessfulCount: sql<string>`count(*) FILTER (WHERE ${t.status} IN ('declined', 'failed'))`,
  }).from(t).where(payments);
  const matchedPayments = db.select({ reference: t.reference }).from(t).where(payments);
  const [refunds] = await db.select({
    amount: sql<string>`coalesce(sum(refunds.amount_minor) FILTER (WHERE refunds.kind = 'refund'), 0)`, count: sql<string>`count(*) FILTER (WHERE refunds.kind = 'refund')`,
    chargebacks: sql<string>`coalesce(sum(refunds.amount_minor) FILTER (WHERE refunds.kind = 'chargeback'), 0)`, chargebacksCount: sql<string>`count(*) FILTER (WHERE refunds.kind = 'chargeback')`,
  }).from(sql`transactions AS refunds`).where(sql`refunds.kind IN (${sql.raw(moneyBackKindsSql)}) AND refunds.status = 'paid' AND refunds.parent_reference IN (${matchedPayments})`);
  const volume = Number(row?.volume ?? 0);
  const refunded = Number(refunds?.amount ?? 0);
  const chargedBack = Number(refunds?.chargebacks ?? 0);
  return {
    currency, volume, salesCount: Number(row?.salesCount ?? 0), refunds: refunded, refundsCount: Number(refunds?.count ?? 0),
    chargebacks: chargedBack, chargebacksCount: Number(refunds?.chargebacksCount ?? 0),
    revenue: volume - refunded - chargedBack, unsuccessfulVolume: Number(row?.unsuccessfulVolume ?? 0), unsuccessfulCount: Number(row?.unsuccessfulCount ?? 0),
  };
}

export async function exactCount(db: Db, where: SQL | undefined): Promise<number> {
  const [row] = await db.select({ value: count() }).from(t).where(where);
  return Number(row?.value ?? 0);
}

/** How long the capped count may take on PostgreSQL before the planner's estimate stands in for it. */
export const countBudgetMs = 60;

/**
 * The number of matches, counting stops at the cap plus one; null when PostgreSQL's budget ran out first. Counting
 * means visiting every matching row, and when no index narrows the filters inside a large scope that is a walk
 * through the whole scope; past the budget the total is the planner's estimate, flagged as such (see the header).
 */
async function cappedCount(database: Database, where: SQL | undefined): Promise<number | null> {
  const countUpToCap = async (runner: Db) => {
    const capped = runner.select({ one: sql`1` }).from(t).where(where).limit(exactCountLimit + 1).as('capped');
    const [row] = await runner.select({ value: count() }).from(capped);
    return Number(row?.value ?? 0);
  };
  try {
    return database.kind === 'postgres' ? await withStatementBudget(database, countBudgetMs, countUpToCap) : await countUpToCap(database.db);
  } catch (error) {
    if (!isStatementTimeout(error)) throw error;
    return null;
  }
}

/** A count that ran out of time (null) saw at least some rows; an estimate of zero would hide them. */
const estimatedTotal = (estimate: number, capped: number | null) =>
  ({ numberOfResults: Math.max(estimate, capped === null ? 1 : exactCountLimit + 1), numberOfResultsIsEstimate: true });

/**
 * The total and the page. Past the cap, the planner's estimate and the page need nothing from each other: they are
 * sent together (side by side on two PostgreSQL connections; PGlite takes them in turn).
 */
export async function countedPage(database: Database, request: ListRequest): Promise<{ total: { numberOfResults: number; numberOfResultsIsEstimate: boolean }; results: TransactionListItem[] }> {
  const capped = await cappedCount(database, request.where);
  if (capped !== null && capped <= exactCountLimit) {
    const total = { numberOfResults: capped, numberOfResultsIsEstimate: false };
    return { total, results: await readPage(database, request, total) };
  }
  const { db } = database;
  const [estimate, results] = await Promise.all([
    plannerEstimate(db, db.select({ one: sql`1` }).from(t).where(request.where)),
    readPage(database, request, { numberOfResults: exactCountLimit + 1, numberOfResultsIsEstimate: true }),
  ]);
  return { total: estimatedTotal(estimate, capped), results };
}

export async function plannerEstimate(db: Db, query: { getSQL: () => SQL }): Promise<number> {
  const result = await db.execute(sql`EXPLAIN (FORMAT JSON) ${query}`) as unknown as { rows: Record<string, unknown>[] };
  const cell = result.rows[0]?.['QUERY PLAN'];
  const plan = (typeof cell === 'string' ? JSON.parse(cell) : cell) as { Plan?: { 'Plan Rows'?: number } }[] | undefined;
  return Math.round(plan?.[0]?.Plan?.['Plan Rows'] ?? 0);
}

// ---------------------------------------------------------------------------------------------------
// Routes

const referencePattern = /^[A-Za-z0-9_-]{1,64}$/;

/** Full card numbers one user may reveal a minute; each is audited. */
export const revealsPerMinute = 5;

export function transactionRoutes({ database, cardKeys }: Deps) {
  const { db } = database;
  const routes = new Hono<AppEnv>();

  function listRequest(scope: TransactionScope, query: ParsedListQuery, timeZone: string): ListRequest {
    const sort = query.sort[0] ?? { field: 'date', descending: true };
    return {
      scope,
      where: and(scopeWhere(scope), filterCondition(transactionResource, query.filters, timeZone)),
      orderKeys: transactionOrderKeys(sort, query.filters),
      sortField: sort.field,
      limit: query.pageSize,
      offset: (query.pageNumber - 1) * query.pageSize,
    };
  }

  async function findTransaction(scope: TransactionScope, reference: string) {
    if (!referencePattern.test(reference)) throw notFound();
    const [row] = await db.select({ transaction: t, merchantName: merchants.name, businessName: businesses.name }).from(t)
      .innerJoin(merchants, eq(merchants.id, t.merchantId))
      .innerJoin(businesses, eq(businesses.id, t.businessId))
      .where(and(eq(t.reference, reference), scopeWhere(scope)));
    if (!row) throw notFound();
    return row;
  }

  /**
   * A payment's refund offered where the transaction is shown: only when the refund endpoint of its payment job would
   * take it (the permissions where the payment lives, and something left to refund by the job's own rules).
   */
  async function refundableHere(row: typeof t.$inferSelect, here: Set<PermissionName>): Promise<{ refundable?: number }> {
    if (row.kind !== 'payment' || !here.has('Portal.Payments.Refund') || !here.has('Portal.PaymentJobs.Read')) return {};
    const state = await loadJobState(db, row.paymentJobReference, { lock: false });
    const payment = state?.payments.find((candidate) => candidate.transaction.reference === row.reference);
    if (!payment || !paymentActionsOf(payment.money).refund) return {};
    return { refundable: toMajorUnits(refundableMinor(payment.money), row.currency) };
  }

  for (const { prefix, resolve } of resolvers(database)) {
    routes.get(prefix, async (c) => {
      const { scope } = await resolve(c, ['Mapi.Transactions.Read']);
      const query = parseListRequest(singleValuedQuery(c), transactionListSpec);
      const request = listRequest(scope, query, c.get('timeZone'));
      if (request.offset + request.limit > maxListOffset) {
        throw badRequest(`Pages beyond row ${maxListOffset.toLocaleString('en-GB')} are not listed; narrow the filters or export the list.`);
      }
      if (request.sortField === 'merchant' && request.offset + request.limit > maxMerchantSortOffset) {
        throw badRequest(`A list sorted by merchant shows its first ${maxMerchantSortOffset.toLocaleString('en-GB')} rows; filter by merchant, sort by another column or export the list.`);
      }
      const { total, results } = await countedPage(database, request);
      return c.json({ results, ...total });
    });

    routes.get(`${prefix}/count`, async (c) => {
      const { scope } = await resolve(c, ['Mapi.Transactions.Read']);
      const query = parseListRequest(singleValuedQuery(c), transactionListSpec);
      return c.json({ numberOfResults: await exactCount(db, listRequest(scope, query, c.get('timeZone')).where) });
    });

    // The overview's totals for its filters, defined as the dashboard defines its measures (server/stats/definition.ts),
    // so the two agree for the same period and currency: volume and sales of the paid payments among the matches,
    // the paid refunds of those payments (whenever made), revenue = volume − those refunds, unsuccessful volume of
    // the declined and failed payments. One currency: amounts of several are never added up.
    routes.get(`${prefix}/totals`, async (c) => {
      const { scope } = await resolve(c, ['Mapi.Transactions.Read']);
      const query = parseListRequest(singleValuedQuery(c), transactionListSpec);
      const currencies = new Set((query.filters.currency ?? []).map((clause) => clause.value.toUpperCase()));
      const [currency] = [...currencies];
      if (currencies.size !== 1 || !currency) throw badRequest(totalsNeedCurrencyMessage);
      const { where } = listRequest(scope, query, c.get('timeZone'));
      return c.json(await totalsOf(db, where, currency));
    });

    routes.post(`${prefix}/full/reports`, async (c) => {
      const { scope, context } = await resolve(c, ['Mapi.Transactions.Read', 'Portal.Reports.Create']);
      const body = await readBody(c, transactionExportBody);
      const filters = body.filters ?? {};
      if (Object.keys(filters).length > maxExportFilters) throw badRequest(`filters may have ${maxExportFilters} entries maximum`);
      for (const name of Object.keys(filters)) {
        if (['pagenumber', 'pagesize', 'sort', 'orderingfield', 'orderingdirection'].includes(name.toLowerCase())) {
          throw badRequest(`'${name}' is not a filter; an export holds every matching row in the given ordering`);
        }
      }
      const query = parseListRequest({ ...filters, ...(body.ordering ?? {}) }, transactionListSpec);
      const timeZone = c.get('timeZone');
      const queuedAt = new Date();
      // The export holds the rows that existed when it was queued: the count now and the file later agree.
      const where = and(listRequest(scope, query, timeZone).where, lte(t.createdAt, queuedAt));
      const totalRows = await exactCount(db, where);
      const sort = query.sort[0] ?? { field: 'date', descending: true };
      const dateClauses = query.filters.date ?? [];
      const bound = (operator: 'gte' | 'lte') => {
        const clause = dateClauses.find((candidate) => candidate.operator === operator);
        return clause ? dateInstant(clause.value, operator === 'gte' ? 'start' : 'end', timeZone) : null;
      };
      const reportId = `RPT${randomBytes(8).toString('hex').toUpperCase()}`;
      const reportContext: ReportContext = { ...context, timeZone };
      await insertQueuedReport(db, {
        id: reportId,
        userId: c.get('principal').userId,
        reportType: 'transactions',
        fileType: body.fileType,
        status: 'queued',
        context: reportContext,
        filters,
        ordering: encodeOrdering(sort),
        columns: [...body.columns],
        startDate: bound('gte'),
        endDate: bound('lte'),
        totalRows,
        queuedAt,
      });
      return c.json({ reportId, totalRows }, 202);
    });

    routes.get(`${prefix}/:reference`, async (c) => {
      const { scope } = await resolve(c, ['Mapi.Transaction.Read']);
      const { transaction: row, merchantName, businessName } = await findTransaction(scope, c.req.param('reference'));
      const principal = c.get('principal');
      const here = permissionsIn(principal, { partnerId: row.partnerId, businessId: row.businessId, merchantId: row.merchantId });
      const [job] = await db.select().from(paymentJobs).where(eq(paymentJobs.reference, row.paymentJobReference));
      const parent = row.parentReference ? await db.select().from(t).where(eq(t.reference, row.parentReference)) : [];
      const children = await db.select().from(t).where(eq(t.parentReference, row.reference)).orderBy(asc(t.createdAt), asc(t.reference)).limit(100);
      const siblings = row.parentReference
        ? await db.select().from(t).where(and(eq(t.parentReference, row.parentReference), sql`${t.reference} <> ${row.reference}`)).orderBy(asc(t.createdAt), asc(t.reference)).limit(100)
        : [];
      const linked = (relation: 'parent' | 'child' | 'sibling') => (linkedRow: typeof t.$inferSelect) => ({
        reference: linkedRow.reference, kind: linkedRow.kind, relation, date: linkedRow.createdAt.toISOString(),
        amount: toMajorUnits(linkedRow.amountMinor, linkedRow.currency), currency: linkedRow.currency, status: linkedRow.status,
      });
      const detail: TransactionDetail = {
        ...toListItem({ ...row, merchantName, refundedMinor: children.filter((child) => child.kind === 'refund' && child.status === 'paid').reduce((sum, child) => sum + child.amountMinor, 0) }),
        businessName,
        partnerId: row.partnerId,
        configurationId: row.configurationId,
        parentReference: row.parentReference,
        maskedCardNumber: row.cardMasked,
        declineReason: row.declineReason,
        customerEmail: row.customerEmail,
        originatingIpAddress: row.originatingIpAddress,
        paymentMethods: [{ paymentMethod: row.paymentMethod, ewalletType: row.ewalletType, maskedCardNumber: row.cardMasked }],
        paymentJob: job ? {
          reference: job.reference, orderNumber: job.orderNumber, status: job.status, createDateTimeUtc: job.createDateTimeUtc.toISOString(),
          amount: toMajorUnits(job.amountMinor, job.currency), currency: job.currency, configurationId: job.configurationId,
        } : null,
        linkedTransactions: [...parent.map(linked('parent')), ...children.map(linked('child')), ...siblings.map(linked('sibling'))],
        cardNumberRevealable: row.cardToken !== null && here.has('Mapi.Transaction.CardNumber.Read'),
        ...(await refundableHere(row, here)),
      };
      return c.json(detail);
    });

    routes.get(`${prefix}/:reference/maskedCardNumber`, async (c) => {
      const { scope } = await resolve(c, ['Mapi.Transaction.Read']);
      const { transaction: row } = await findTransaction(scope, c.req.param('reference'));
      return c.json({ maskedCardNumber: row.cardMasked });
    });

    routes.get(`${prefix}/:reference/cardNumber`, async (c) => {
      const { scope } = await resolve(c, ['Mapi.Transaction.Read']);
      const reference = c.req.param('reference');
      const { transaction: found } = await findTransaction(scope, reference);
      const principal = c.get('principal');
      const here = permissionsIn(principal, { partnerId: found.partnerId, businessId: found.businessId, merchantId: found.merchantId });
      requirePermission(here, 'Mapi.Transaction.CardNumber.Read');
      // A full card number needs the password entered again in this session within the last minutes (step-up).
      await requireStepUp(c, db);
      // The read and its audit record commit together: no reveal without a record, no record without a reveal.
      const cardNumber = await db.transaction(async (tx) => {
        // At most revealsPerMinute reveals per user per minute, counted from the audit trail every node shares; the
        // user's row is locked so that concurrent reveals of one user are counted one after another.
        await tx.select({ id: users.id }).from(users).where(eq(users.id, principal.userId)).for('update');
        const [recent] = await tx.select({ reveals: count() }).from(auditEvents).where(and(
          eq(auditEvents.userId, principal.userId), eq(auditEvents.event, 'CardNumberRevealed'),
          sql`${auditEvents.dateTimeUtc} > ${sqlNow(-60_000)}`,
        ));
        if ((recent?.reveals ?? 0) >= revealsPerMinute) {
          c.header('Retry-After', '60');
          throw new ApiError(429, `At most ${revealsPerMinute} card numbers can be revealed a minute. Please wait a minute and try again.`);
        }
        const [row] = await tx.select({ cardToken: t.cardToken, businessId: t.businessId, merchantId: t.merchantId }).from(t)
          .where(and(eq(t.reference, found.reference), scopeWhere(scope)));
        if (!row) throw notFound();
        const revealed = row.cardToken === null ? null : await openVaultedCard(tx, cardKeys, row.cardToken);
        if (revealed === null) throw new ApiError(404, 'No card number is on file for this transaction.');
        await tx.insert(auditEvents).values({
          userId: principal.userId,
          event: 'CardNumberRevealed',
          dateTimeUtc: new Date(),
          businessId: row.businessId,
          merchantId: row.merchantId,
          metaData: { transactionReference: found.reference },
        });
        return revealed;
      });
      c.header('Cache-Control', 'no-store');
      return c.json({ cardNumber });
    });
  }
  return routes;
}

function dateInstant(value: string, bound: 'start' | 'end', timeZone: string): Date | null {
  try {
    return filterInstant(value, bound, timeZone);
  } catch {
    return null;
  }
}
