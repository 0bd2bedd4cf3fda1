// The transactions overview's list: the whitelist of filters and sorts (transactionResource), its orderings, and the
// queries behind a page, its count and its totals (the plans are described at the top of server/api/transactions.ts).
// The routes (server/api/transactions.ts) and the export (server/reports/transaction-export.ts) read from here.
import { and, asc, count, desc, eq, or, sql, type SQL } from 'drizzle-orm';
import {
  amountFilterCurrencyProblem,
  amountScale,
  moneyBackKindsSql,
  toMajorUnits,
  transactionListSpec,
  type TransactionTotals,
} from '../../src/contract/transactions.ts';
import type { TransactionListItem } from '../../src/contract/transaction-schemas.ts';
import type { FilterClause, SortKey } from '../../src/contract/list-query.ts';
import type { Database, Db } from '../db/client.ts';
import { merchants, transactions } from '../db/schema.ts';
import { badRequest } from '../http/errors.ts';
import { assertResourceMatchesSpec, likeLiteral, orderByOf, orderKeysOf, type FilterContext, type ListResource, type OrderKey } from '../http/list-sql.ts';
import { countBudgetMs, exactCountLimit, isStatementTimeout, plannerEstimate, withStatementBudget } from '../http/list-count.ts';
import { merchantScopeWhere, type TransactionScope } from './scope.ts';

const t = transactions;

function searchCondition(clauses: FilterClause[]): SQL | undefined {
  const term = clauses.find((clause) => clause.operator === 'eq')?.value.trim();
  if (!term) return undefined;
  // Prefix matches on references (upper-case) and customer email (lower-case): each is a btree range scan.
  const upper = `${likeLiteral(term.toUpperCase())}%`;
  const lower = `${likeLiteral(term.toLowerCase())}%`;
  return or(sql`${t.reference} LIKE ${upper}`, sql`${t.paymentJobReference} LIKE ${upper}`, sql`lower(${t.customerEmail}) LIKE ${lower}`);
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
    date: [
      { expression: t.createdAt, descending: false },
      { expression: t.reference, descending: true },
    ],
    amount: [
      { expression: t.amountMilli, descending: false },
      { expression: t.reference, descending: false },
    ],
    status: [
      { expression: t.status, descending: false },
      { expression: t.createdAt, descending: true },
      { expression: t.reference, descending: false },
    ],
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

export function toListItem(row: ListRow): TransactionListItem {
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
  if (expression === t.status || expression === t.currency || expression === t.reference || expression === merchants.name || expression === merchants.id)
    return sql`(${expression} || '')`;
  return expression;
}

/** One page of the list, read by the given plan. */
export async function pageOfTransactions(db: Db, request: ListRequest): Promise<TransactionListItem[]> {
  const { where, limit, offset } = request;
  const sortMatches = request.plan === 'sortMatches';
  if (request.sortField === 'merchant' && !sortMatches) {
    const perMerchant = db
      .select(listFields)
      .from(t)
      .where(and(eq(t.merchantId, merchants.id), where))
      .orderBy(desc(t.createdAt), asc(t.reference))
      .limit(offset + limit)
      .as('page_rows');
    const nameOrder = request.orderKeys[0]?.descending ? desc : asc;
    const rows = await db
      .select({ ...perMerchant._.selectedFields, merchantName: merchants.name })
      .from(merchants)
      .innerJoinLateral(perMerchant, sql`true`)
      .where(merchantScopeWhere(db, request.scope))
      .orderBy(nameOrder(merchants.name), nameOrder(merchants.id), desc(perMerchant.createdAt), asc(perMerchant.reference))
      .limit(limit)
      .offset(offset);
    return rows.map((row) => toListItem(row as ListRow));
  }
  const orderKeys = sortMatches ? request.orderKeys.map((key) => ({ ...key, expression: unindexed(key.expression) })) : request.orderKeys;
  const rows = await db
    .select({ ...listFields, merchantName: merchants.name })
    .from(t)
    .innerJoin(merchants, eq(merchants.id, t.merchantId))
    .where(where)
    .orderBy(...orderByOf(orderKeys))
    .limit(limit)
    .offset(offset);
  return rows.map(toListItem);
}

/** How long an index walk may take on PostgreSQL before the page is read by sorting the matches instead. */
export const walkBudgetMs = 150;

/**
 * Picks the plan. With few matches (an exact count of at most exactCountLimit) the matches are sorted. Otherwise the
 * sort's index is walked, which is fast when matches are spread along the sort order and slow when they are not
 * (JPY amounts sit at the top of the amount scale, refunds are never 'cancelled'): on PostgreSQL the walk gets a
 * budget, and past it the page is read by sorting the matches. PGlite (one embedded node, smaller data) walks.
 */
export async function readPage(
  database: Database,
  request: ListRequest,
  count: { numberOfResults: number; numberOfResultsIsEstimate: boolean },
): Promise<TransactionListItem[]> {
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

/** The dashboard's measures over the rows `where` matches (minor units of `currency`). */
export async function totalsOf(db: Db, where: SQL | undefined, currency: string): Promise<TransactionTotals> {
  const payments = and(where, eq(t.kind, 'payment'));
  const [row] = await db
    .select({
      volume: sql<string>`coalesce(sum(${t.amountMinor}) FILTER (WHERE ${t.status} = 'paid'), 0)`,
      salesCount: sql<string>`count(*) FILTER (WHERE ${t.status} = 'paid')`,
      unsuccessfulVolume: sql<string>`coalesce(sum(${t.amountMinor}) FILTER (WHERE ${t.status} IN ('declined', 'failed')), 0)`,
      unsuccessfulCount: sql<string>`count(*) FILTER (WHERE ${t.status} IN ('declined', 'failed'))`,
    })
    .from(t)
    .where(payments);
  const matchedPayments = db.select({ reference: t.reference }).from(t).where(payments);
  const [refunds] = await db
    .select({
      amount: sql<string>`coalesce(sum(refunds.amount_minor) FILTER (WHERE refunds.kind = 'refund'), 0)`,
      count: sql<string>`count(*) FILTER (WHERE refunds.kind = 'refund')`,
      chargebacks: sql<string>`coalesce(sum(refunds.amount_minor) FILTER (WHERE refunds.kind = 'chargeback'), 0)`,
      chargebacksCount: sql<string>`count(*) FILTER (WHERE refunds.kind = 'chargeback')`,
    })
    .from(sql`transactions AS refunds`)
    .where(sql`refunds.kind IN (${sql.raw(moneyBackKindsSql)}) AND refunds.status = 'paid' AND refunds.parent_reference IN (${matchedPayments})`);
  const volume = Number(row?.volume ?? 0);
  const refunded = Number(refunds?.amount ?? 0);
  const chargedBack = Number(refunds?.chargebacks ?? 0);
  return {
    currency,
    volume,
    salesCount: Number(row?.salesCount ?? 0),
    refunds: refunded,
    refundsCount: Number(refunds?.count ?? 0),
    chargebacks: chargedBack,
    chargebacksCount: Number(refunds?.chargebacksCount ?? 0),
    revenue: volume - refunded - chargedBack,
    unsuccessfulVolume: Number(row?.unsuccessfulVolume ?? 0),
    unsuccessfulCount: Number(row?.unsuccessfulCount ?? 0),
  };
}

export async function exactCount(db: Db, where: SQL | undefined): Promise<number> {
  const [row] = await db.select({ value: count() }).from(t).where(where);
  return Number(row?.value ?? 0);
}

/**
 * The number of matches, counting stops at the cap plus one; null when PostgreSQL's budget ran out first. Counting
 * means visiting every matching row, and when no index narrows the filters inside a large scope that is a walk
 * through the whole scope; past the budget the total is the planner's estimate, flagged as such (see the header).
 */
async function cappedCount(database: Database, where: SQL | undefined): Promise<number | null> {
  const countUpToCap = async (runner: Db) => {
    const capped = runner
      .select({ one: sql`1` })
      .from(t)
      .where(where)
      .limit(exactCountLimit + 1)
      .as('capped');
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
const estimatedTotal = (estimate: number, capped: number | null) => ({
  numberOfResults: Math.max(estimate, capped === null ? 1 : exactCountLimit + 1),
  numberOfResultsIsEstimate: true,
});

/**
 * The total and the page. Past the cap, the planner's estimate and the page need nothing from each other: they are
 * sent together (side by side on two PostgreSQL connections; PGlite takes them in turn).
 */
export async function countedPage(
  database: Database,
  request: ListRequest,
): Promise<{ total: { numberOfResults: number; numberOfResultsIsEstimate: boolean }; results: TransactionListItem[] }> {
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
