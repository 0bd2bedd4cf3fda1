// Reading the ledger: balances, statements (opening balance, movements with a running balance, closing balance,
// totals per category) and the period a list's date filter stands for. Shared by the API and the report files.
import { and, asc, desc, eq, gte, inArray, lt, lte, sql, type SQL } from 'drizzle-orm';
import { filterInstant } from '../../src/contract/zoned-time.ts';
import type { FilterClause, SortKey } from '../../src/contract/list-query.ts';
import type { EntryCategory } from '../../src/contract/ledger.ts';
import type { Db } from '../db/client.ts';
import { ledgerEntries } from '../db/schema.ts';
import { badRequest } from '../http/errors.ts';
import { balancesAfterEntries, checkpointZone, openingBalanceOf, periodCheckpoints } from './daily-balances.ts';

const e = ledgerEntries;

export type Period = { start: Date | null; end: Date | null };

/** The period of a date filter ([gte] start, [lte] end, [eq] one day), in the given zone (the business's: periods.ts). */
export function periodOf(clauses: readonly FilterClause[] | undefined, timeZone: string): Period {
  const period: Period = { start: null, end: null };
  for (const clause of clauses ?? []) {
    try {
      if (clause.operator === 'gte' || clause.operator === 'eq') period.start = filterInstant(clause.value, 'start', timeZone);
      if (clause.operator === 'lte' || clause.operator === 'eq') period.end = filterInstant(clause.value, 'end', timeZone);
    } catch {
      throw badRequest(`filter date '${clause.value.slice(0, 40)}' is not an ISO date`);
    }
  }
  if (period.start && period.end && period.start > period.end) throw badRequest('The period ends before it starts.');
  return period;
}

/**
 * Whether a merchant account group's invoice account is in use, so has a statement: always under gross
 * settlement (the fees are invoiced there), and under net settlement once it holds entries (monthly minimum top-ups,
 * their payments and credits). Every account with a balance has a statement; an unused one answers 404.
 */
export async function invoiceAccountInUse(db: Pick<Db, 'select'>, grossSettlement: boolean, accountNumber: string): Promise<boolean> {
  if (grossSettlement) return true;
  const [entry] = await db
    .select({ id: e.id })
    .from(e)
    .where(eq(e.accountId, `${accountNumber}:invoice`))
    .limit(1);
  return entry !== undefined;
}

export async function balanceOf(db: Db, accountId: string, asOf: Date | null = null): Promise<number> {
  const [row] = await db
    .select({ total: sql<string>`coalesce(sum(${e.amountMinor}), 0)` })
    .from(e)
    .where(and(eq(e.accountId, accountId), asOf ? lte(e.valueAt, asOf) : undefined));
  return Number(row?.total ?? 0);
}

/** Balances of many accounts at once (one grouped read). */
export async function balancesOf(db: Db, accountIds: readonly string[], asOf: Date): Promise<Map<string, number>> {
  if (accountIds.length === 0) return new Map();
  const rows = await db
    .select({ accountId: e.accountId, total: sql<string>`sum(${e.amountMinor})` })
    .from(e)
    .where(and(inArray(e.accountId, [...accountIds]), lte(e.valueAt, asOf)))
    .groupBy(e.accountId);
  return new Map(rows.map((row) => [row.accountId, Number(row.total)]));
}

export type MovementRow = {
  id: number;
  valueAt: Date;
  category: string;
  amountMinor: number;
  runningBalanceMinor: number;
  transactionReference: string | null;
  batchId: string | null;
  postingId: string;
};

export type StatementRequest = {
  accountId: string;
  period: Period;
  categories?: readonly EntryCategory[];
  sort: SortKey;
  limit: number;
  offset: number;
};

export type StatementResult = {
  openingBalanceMinor: number;
  closingBalanceMinor: number;
  totals: { category: string; amountMinor: number; count: number }[];
  movements: MovementRow[];
  numberOfResults: number;
};

function inPeriod(accountId: string, period: Period): SQL | undefined {
  return and(eq(e.accountId, accountId), period.start ? gte(e.valueAt, period.start) : undefined, period.end ? lte(e.valueAt, period.end) : undefined);
}

/**
 * Opening balance (everything before the start), the period's totals per category, the closing balance (opening plus
 * the period's movements) and one page of movements, each with the balance after it in date order.
 */
export async function readStatement(db: Db, request: StatementRequest): Promise<StatementResult> {
  const zone = await checkpointZone(db, request.accountId);
  return zone === null ? readStatementFromEntries(db, request) : readStatementFromCheckpoints(db, request, zone);
}

/** Totals per category of the period, in the order of their category (so every reader lists them alike). */
async function periodTotals(db: Db, accountId: string, zone: string, period: Period) {
  const rows = (
    (await db.execute(sql`SELECT p.category, sum(p.credits_minor + p.debits_minor) AS total, sum(p.credits + p.debits) AS count
    FROM (${periodCheckpoints(accountId, zone, period)}) p GROUP BY p.category HAVING sum(p.credits + p.debits) > 0 ORDER BY p.category`)) as unknown as {
      rows: { category: string; total: string; count: string }[];
    }
  ).rows;
  return rows.map((row) => ({ category: row.category, amountMinor: Number(row.total), count: Number(row.count) }));
}

/**
 * The statement of an account that keeps day checkpoints (daily-balances.ts): opening balance and totals from the
 * checkpoints (and the entries of the period's first and last day beyond its bounds), the page's rows by the index
 * that matches its order, and each row's running balance from the checkpoints of the days before it.
 */
async function readStatementFromCheckpoints(db: Db, request: StatementRequest, zone: string): Promise<StatementResult> {
  const { accountId, period } = request;
  const opening = period.start ? await openingBalanceOf(db, accountId, zone, period.start) : 0;
  const totals = await periodTotals(db, accountId, zone, period);
  const closing = opening + totals.reduce((sum, row) => sum + row.amountMinor, 0);
  const categories = request.categories && request.categories.length > 0 ? request.categories : null;
  const numberOfResults = totals.filter((row) => !categories || categories.includes(row.category as EntryCategory)).reduce((sum, row) => sum + row.count, 0);
  // A page in the second half is read from the other end (the count is known), so the last page costs what the first does.
  const fromEnd = request.offset + request.limit / 2 > numberOfResults / 2 && request.offset < numberOfResults;
  const descending = fromEnd ? !request.sort.descending : request.sort.descending;
  const order = descending ? desc : asc;
  const limit = fromEnd ? Math.min(request.limit, numberOfResults - request.offset) : request.limit;
  const offset = fromEnd ? Math.max(0, numberOfResults - request.offset - request.limit) : request.offset;
  const read = await db
    .select({
      id: e.id,
      valueAt: e.valueAt,
      category: e.category,
      amountMinor: e.amountMinor,
      transactionReference: e.transactionReference,
      batchId: e.batchId,
      postingId: e.postingId,
    })
    .from(e)
    .where(and(inPeriod(accountId, period), categories ? inArray(e.category, [...categories]) : undefined))
    .orderBy(...(request.sort.field === 'amount' ? [order(e.amountMinor), order(e.id)] : [order(e.valueAt), order(e.id)]))
    .limit(limit)
    .offset(offset);
  const rows = fromEnd ? read.reverse() : read;
  const balances = await balancesAfterEntries(
    db,
    accountId,
    zone,
    rows.map((row) => row.id),
  );
  return {
    openingBalanceMinor: opening,
    closingBalanceMinor: closing,
    totals,
    numberOfResults,
    movements: rows.map((row) => ({ ...row, amountMinor: Number(row.amountMinor), runningBalanceMinor: balances.get(row.id) ?? 0 })),
  };
}

/**
 * The statement of an account without checkpoints (the provider's own): everything summed from the entries. Also the
 * reference the checkpoint reading must equal (the ledger's property tests compare them).
 */
export async function readStatementFromEntries(db: Db, request: StatementRequest): Promise<StatementResult> {
  const { accountId, period } = request;
  const opening = period.start
    ? await (async () => {
        const [row] = await db
          .select({ total: sql<string>`coalesce(sum(${e.amountMinor}), 0)` })
          .from(e)
          .where(and(eq(e.accountId, accountId), lt(e.valueAt, period.start as Date)));
        return Number(row?.total ?? 0);
      })()
    : 0;
  const totalsRows = await db
    .select({ category: e.category, total: sql<string>`sum(${e.amountMinor})`, count: sql<string>`count(*)` })
    .from(e)
    .where(inPeriod(accountId, period))
    .groupBy(e.category);
  const totals = totalsRows
    .map((row) => ({ category: row.category, amountMinor: Number(row.total), count: Number(row.count) }))
    .sort((a, b) => (a.category < b.category ? -1 : a.category > b.category ? 1 : 0));
  const closing = opening + totals.reduce((sum, row) => sum + row.amountMinor, 0);
  const categoryFilter = request.categories && request.categories.length > 0 ? inArray(sql`category`, [...request.categories]) : undefined;
  const numberOfResults = categoryFilter
    ? totals.filter((row) => request.categories?.includes(row.category as EntryCategory)).reduce((sum, row) => sum + row.count, 0)
    : totals.reduce((sum, row) => sum + row.count, 0);
  const running = db
    .select({
      id: e.id,
      valueAt: e.valueAt,
      category: e.category,
      amountMinor: e.amountMinor,
      transactionReference: e.transactionReference,
      batchId: e.batchId,
      postingId: e.postingId,
      runningBalanceMinor: sql<string>`(${opening}::bigint + sum(${e.amountMinor}) OVER (ORDER BY ${e.valueAt}, ${e.id}))`.as('running_balance'),
    })
    .from(e)
    .where(inPeriod(accountId, period))
    .as('running');
  const order = request.sort.descending ? desc : asc;
  const orderBy = request.sort.field === 'amount' ? [order(running.amountMinor), order(running.id)] : [order(running.valueAt), order(running.id)];
  const rows = await db
    .select()
    .from(running)
    .where(categoryFilter ? inArray(running.category, [...(request.categories ?? [])]) : undefined)
    .orderBy(...orderBy)
    .limit(request.limit)
    .offset(request.offset);
  return {
    openingBalanceMinor: opening,
    closingBalanceMinor: closing,
    totals,
    numberOfResults,
    movements: rows.map((row) => ({ ...row, amountMinor: Number(row.amountMinor), runningBalanceMinor: Number(row.runningBalanceMinor) })),
  };
}

/**
 * The balance at the end of each calendar day of the period in the given zone: the opening balance plus the
 * movements up to that day's end. Days without movements repeat the day before. At most maxDays days.
 */
export async function readDailyBalances(
  db: Db,
  accountId: string,
  period: { start: Date; end: Date },
  days: readonly { date: string; end: Date }[],
  timeZone: string,
): Promise<{ date: string; balanceMinor: number }[]> {
  if ((await checkpointZone(db, accountId)) === timeZone) {
    // The days' movements straight from the checkpoints (cut in this very zone).
    const opening = await openingBalanceOf(db, accountId, timeZone, period.start);
    const rows = (
      (await db.execute(
        sql`SELECT to_char(p.day, 'YYYY-MM-DD') AS day, sum(p.credits_minor + p.debits_minor) AS total FROM (${periodCheckpoints(accountId, timeZone, period)}) p GROUP BY 1`,
      )) as unknown as { rows: { day: string; total: string }[] }
    ).rows;
    const byDay = new Map(rows.map((row) => [row.day, Number(row.total)]));
    let balance = opening;
    return days.map(({ date }) => {
      balance += byDay.get(date) ?? 0;
      return { date, balanceMinor: balance };
    });
  }
  const [opening] = await db
    .select({ total: sql<string>`coalesce(sum(${e.amountMinor}), 0)` })
    .from(e)
    .where(and(eq(e.accountId, accountId), lt(e.valueAt, period.start)));
  const rows = await db
    .select({ day: sql<string>`to_char(${e.valueAt} AT TIME ZONE ${timeZone}, 'YYYY-MM-DD')`, total: sql<string>`sum(${e.amountMinor})` })
    .from(e)
    .where(and(eq(e.accountId, accountId), gte(e.valueAt, period.start), lte(e.valueAt, period.end)))
    .groupBy(sql`1`);
  const byDay = new Map(rows.map((row) => [row.day, Number(row.total)]));
  let balance = Number(opening?.total ?? 0);
  return days.map(({ date }) => {
    balance += byDay.get(date) ?? 0;
    return { date, balanceMinor: balance };
  });
}
