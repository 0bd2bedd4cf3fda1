// The record search behind the palette: one endpoint, the query language of src/contract/search-query.ts.
//
// | method | path                      | who                    | answer                                                      |
// |--------|---------------------------|------------------------|-------------------------------------------------------------|
// | GET    | /search?term=             | signed in              | { results }: records grouped by kind, the best group first  |
// | GET    | /search/merchants?prefix= | signed in              | { results: [{ id, name, businessId, businessName }] }: the  |
// |        |                           |                        | merchants the caller may see whose name starts so (completion) |
//
// What matches: a reference or id by PREFIX from 4 characters (transactions by reference, payment jobs by reference
// and order number, customers by id and reference, tickets and users by id, businesses and merchants by id), names
// and emails by words (every word found), invoices and credit notes by number (a prefix of the full number, or the
// short number: '104' finds INV-2026-000104), and field clauses (status:paid amount:>100 …) narrowing transactions and
// payment jobs. Each kind is read under the permission that opens it (server/policy: the grants conferring
// Mapi.Transactions.Read, Portal.PaymentJobs.Read, Mapi.Customers.Read, Portal.Tickets.Read, Mapi.Users.Read;
// invoices: Billing.Invoices.Create through a root role opens any invoice, Mapi.MerchantAccountPricingPlan.Read in a
// business (directly or through its partner) the business's own invoice list);
// businesses and merchants as the context picker shows them. Another tenant's record is never suggested.
// Invalid clauses are ignored here (the palette explains them inline, and the list it opens names them), so a
// half-typed query still finds records. A card is found by its stored last four and first six digits (last4:, bin:, or
// 4 and 6 digits typed alone), never by the full number.
// Prefix look-ups are btree range scans on text_pattern_ops indexes (server/db/schema.ts), measured with EXPLAIN.
import { type } from 'arktype';
import { and, asc, desc, eq, gte, inArray, or, type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { Hono } from 'hono';
import { invoiceKindLabels, invoiceNumberQuery, monthLabel } from '../../src/contract/billing.ts';
import { calendarDate } from '../../src/contract/calendar-date.ts';
import { filterInstant } from '../../src/contract/zoned-time.ts';
import { takesMoneyBack, threeDecimalCurrencies, zeroDecimalCurrencies } from '../../src/contract/transactions.ts';
import { amountClauseBounds, dateClauseRange, type FieldClause, fieldsOf, parseQuery, type SearchField, wordsOf } from '../../src/contract/search-query.ts';
import type { Db } from '../db/client.ts';
import { businesses, customers, invoices, jobAmountMilliOf, merchants, paymentJobs, tickets, transactions, userRoles, users } from '../db/schema.ts';
import { isInternal, type Principal, scopeCondition } from '../policy/principal.ts';
import { holdsRootPermission, partnersOfBusinesses, permissionInBusiness, permissionInPartner } from '../users/user-access.ts';
import type { AppEnv, Deps } from '../http/env.ts';
import { badRequest, validationMessages } from '../http/errors.ts';
import { likeLiteral } from '../http/list-sql.ts';
import { grantedScope, type TransactionScope } from '../transactions/scope.ts';

export const maxSearchTermLength = 200;
export const searchQuery = type({ term: `0 < string <= ${maxSearchTermLength}`, '+': 'reject' });
export const merchantQuery = type({ 'prefix?': 'string <= 100', '+': 'reject' });
const perKind = 5;
/**
 * A field query's walk along the date index is bounded by rows: it reads at most the newest fieldWalk.rows records of
 * the scope (and dates); fewer than a page of matches there and the matches are found through the filters' indexes
 * and sorted. (On PostgreSQL a 20 ms statement budget bounded it before: a query with no match always spent the
 * budget, and on a 2-core machine 43 ms of it, before the sorted read.)
 */
export const fieldWalk = { rows: 5000 };
/** A reference or id worth a prefix look-up: 4 characters or more of the alphabet ids are made of. */
const referencePattern = /^[A-Za-z0-9_-]{4,64}$/;

export type SearchResultKind = 'transaction' | 'paymentJob' | 'customer' | 'ticket' | 'user' | 'business' | 'merchant' | 'invoice';
export type SearchResult = {
  kind: SearchResultKind;
  id: string;
  title: string;
  description: string;
  path: string;
  context: { business?: { id: string; title: string }; merchant?: { id: string; title: string } };
};
/** How well a result matched: an exact id beats a prefix, a prefix beats words or fields. */
type Scored = SearchResult & { score: number };
const kindOrder: SearchResultKind[] = ['transaction', 'paymentJob', 'customer', 'ticket', 'user', 'business', 'merchant', 'invoice'];

const transactionFields = new Set<SearchField>(['status', 'amount', 'currency', 'merchant', 'email', 'method', 'channel', 'date', 'is', 'in', 'last4', 'bin']);
const paymentJobFields = new Set<SearchField>(['status', 'amount', 'currency', 'merchant', 'date', 'order', 'in']);

const prefixOf = (value: string) => `${likeLiteral(value)}%`;
const containing = (value: string) => `%${likeLiteral(value.toLowerCase())}%`;
const money = (amountMinor: number, currency: string) => {
  const exponent = zeroDecimalCurrencies.includes(currency) ? 0 : threeDecimalCurrencies.includes(currency) ? 3 : 2;
  return `${currency} ${(amountMinor / 10 ** exponent).toFixed(exponent)}`;
};

/**
 * Ascending in the order of the text_pattern_ops index (byte order: the same as the database's C.UTF-8 order for
 * ids, which are ASCII), so a prefix look-up walks that index from the prefix and LIMIT stops it after a few rows.
 * Ordered by the column's own collation, PostgreSQL walked the primary key from its first entry instead, testing
 * LIKE on each row: 10 s for a prefix near the end of 2,000,000 references (the planner guesses 200 matches).
 */
const patternOrder = (column: AnyPgColumn) => sql`${column} USING ~<~`;

/**
 * The ids starting with `prefix` as a range of the text_pattern_ops index (byte order): prefix ≤ id < the prefix with
 * its last character's code one higher. The same rows as LIKE 'prefix%' for the ASCII ids referencePattern admits,
 * but the planner estimates it once: with LIKE it counted the prefix twice (the range it derives and the LIKE itself),
 * expected 7 of a business's transactions to start with 'TXFF' where 652 do, and read the whole business (168,613
 * rows, 44 ms) instead of walking the references from the prefix (0.6 ms).
 */
const startsWith = (column: AnyPgColumn, prefix: string) => {
  const end = `${prefix.slice(0, -1)}${String.fromCharCode(prefix.charCodeAt(prefix.length - 1) + 1)}`;
  return sql`(${column} ~>=~ ${prefix} AND ${column} ~<~ ${end})`;
};

/** Newest first in a form no index serves, so the planner finds the matches through the filters' indexes and sorts them. */
const sortedNewestFirst = (at: AnyPgColumn, id: AnyPgColumn) => [desc(sql`(${at} + interval '0 seconds')`), asc(sql`(${id} || '')`)];

/** A scope of grants as a row filter; null: nothing is visible. Partner grants reach a business through its partner. */
function grantCondition(
  scope: TransactionScope | null,
  columns: { partnerId?: AnyPgColumn; businessId: AnyPgColumn; merchantId?: AnyPgColumn },
  db: Deps['database']['db'],
): SQL | undefined | null {
  if (!scope) return null;
  if (scope.level === 'all') return undefined;
  if (scope.level !== 'grants') return null;
  const parts: (SQL | undefined)[] = [
    scope.partnerIds.length === 0
      ? undefined
      : columns.partnerId
        ? inArray(columns.partnerId, scope.partnerIds)
        : inArray(columns.businessId, db.select({ id: businesses.id }).from(businesses).where(inArray(businesses.partnerId, scope.partnerIds))),
    scope.businessIds.length > 0 ? inArray(columns.businessId, scope.businessIds) : undefined,
    scope.merchantIds.length > 0 && columns.merchantId ? inArray(columns.merchantId, scope.merchantIds) : undefined,
  ];
  return or(...parts) ?? null;
}

/** Clauses of one field with equality meaning 'any of' (status:paid status:failed); comparisons all hold. */
function anyOf(clauses: FieldClause[], field: SearchField, condition: (clause: FieldClause) => SQL | undefined): SQL | undefined {
  const mine = clauses.filter((clause) => clause.field === field);
  if (mine.length === 0) return undefined;
  return or(...mine.map(condition));
}

export function searchRoutes({ database }: Deps) {
  const { db } = database;
  /**
   * A sorted-matches read with JIT compilation off (the planner costs a bitmap scan of thousands of estimated rows
   * above jit_above_cost and compiled it, 7–35 ms on this machine, for a read of 0.1 ms) and room for the filters'
   * bitmaps: with the default 4 MB the AND of three indexes over a business of 160,000 payment jobs went lossy and
   * rechecked 75,000 rows (170 ms on PGlite at 2M) to find none.
   */
  const sortedMatches = <T>(run: (runner: Db) => Promise<T>) =>
    db.transaction(async (tx) => {
      await tx.execute(sql`SELECT set_config('jit', 'off', true), set_config('work_mem', '64MB', true)`);
      return run(tx as unknown as Db);
    });
  /**
   * A field query's rows, newest first: along the date index over the scope's newest fieldWalk.rows at most (where the
   * fieldWalk.rows-th newest lies), else the matches found through the filters' indexes and sorted: a rare or absent
   * match no longer walks a whole business (1.7 s on 2M). `read` adds the kind's conditions, the order and the bound.
   */
  async function newestFieldMatches<T>(
    table: typeof transactions | typeof paymentJobs,
    at: AnyPgColumn,
    id: AnyPgColumn,
    scope: SQL | undefined,
    read: (runner: Db, order: SQL[], bound?: SQL) => Promise<T[]>,
  ): Promise<T[]> {
    const [edge] = await db
      .select({ at })
      .from(table)
      .where(scope)
      .orderBy(desc(at), asc(id))
      .offset(fieldWalk.rows - 1)
      .limit(1);
    const rows = await read(db, [desc(at), asc(id)], edge ? gte(at, edge.at) : undefined);
    return edge && rows.length < perKind ? sortedMatches((runner) => read(runner, sortedNewestFirst(at, id))) : rows;
  }
  const routes = new Hono<AppEnv>();

  /** The users the caller may read: those holding a role where the caller holds Mapi.Users.Read; null: none. */
  async function readableUsers(principal: Principal): Promise<SQL | undefined | null> {
    if (holdsRootPermission(principal, 'Mapi.Users.Read')) return undefined;
    const candidates = [...new Set([...principal.businessIds, ...principal.partnerBusinessIds])];
    const partnerOf = await partnersOfBusinesses(db, candidates);
    const businessIds = candidates.filter((id) => permissionInBusiness(principal, 'Mapi.Users.Read', id, partnerOf.get(id) ?? null));
    const partnerIds = principal.partnerIds.filter((id) => permissionInPartner(principal, 'Mapi.Users.Read', id));
    if (businessIds.length === 0 && partnerIds.length === 0) return null;
    const grant = or(
      businessIds.length > 0 ? inArray(userRoles.businessId, businessIds) : undefined,
      partnerIds.length > 0 ? and(eq(userRoles.level, 'partner'), inArray(userRoles.partnerId, partnerIds)) : undefined,
    );
    return and(eq(users.internal, false), sql`EXISTS (SELECT 1 FROM ${userRoles} WHERE ${userRoles.userId} = ${users.id} AND ${grant})`);
  }

  /**
   * The invoices the caller may open: all of them for a finance admin (the invoice itself), else those of the
   * businesses where the caller reads the business's invoices (its list); null: none.
   */
  async function readableInvoices(principal: Principal): Promise<{ all: boolean; condition: SQL | undefined } | null> {
    if (holdsRootPermission(principal, 'Billing.Invoices.Create')) return { all: true, condition: undefined };
    const candidates = [...new Set([...principal.businessIds, ...principal.partnerBusinessIds])];
    const partnerOf = await partnersOfBusinesses(db, candidates);
    const businessIds = candidates.filter((id) => permissionInBusiness(principal, 'Mapi.MerchantAccountPricingPlan.Read', id, partnerOf.get(id) ?? null));
    return businessIds.length === 0 ? null : { all: false, condition: inArray(invoices.businessId, businessIds) };
  }

  routes.get('/search', async (c) => {
    const parsed = searchQuery(c.req.query());
    if (parsed instanceof type.errors) throw badRequest(validationMessages(parsed));
    const principal = c.get('principal');
    const timeZone = c.get('timeZone');
    const { query } = parseQuery(parsed.term.trim());
    const fields = fieldsOf(query);
    const words = wordsOf(query)
      .map((word) => word.trim())
      .filter((word) => word !== '');
    const reference = words.find((word) => referencePattern.test(word));
    const email = words.find((word) => word.includes('@'));
    const nameWords = words.filter((word) => word.length >= 2).slice(0, 5);
    const inKinds = fields.filter((clause) => clause.field === 'in').map((clause) => clause.value);
    const wants = (kind: 'transactions' | 'payments', applicable: Set<SearchField>) =>
      (inKinds.length === 0 || inKinds.includes(kind)) && fields.every((clause) => applicable.has(clause.field));
    const today = calendarDate(new Date(), timeZone);
    const results: Scored[] = [];
    const tasks: Promise<void>[] = [];

    const dayBounds = (clause: FieldClause, column: AnyPgColumn) => {
      const range = dateClauseRange(clause, today);
      return and(
        range.start ? sql`${column} >= ${filterInstant(range.start, 'start', timeZone)}` : undefined,
        range.end ? sql`${column} <= ${filterInstant(range.end, 'end', timeZone)}` : undefined,
      );
    };
    const amountBounds = (clause: FieldClause, milli: SQL | AnyPgColumn) => {
      const bounds = amountClauseBounds(clause);
      const toMilli = (value: string) => Math.round(Number(value) * 1000);
      return and(
        bounds.min !== null ? sql`${milli} >= ${toMilli(bounds.min)}` : undefined,
        bounds.max !== null ? sql`${milli} <= ${toMilli(bounds.max)}` : undefined,
      );
    };
    const merchantNamed = (column: AnyPgColumn) => (clause: FieldClause) =>
      inArray(
        column,
        db
          .select({ id: merchants.id })
          .from(merchants)
          .where(sql`lower(${merchants.name}) LIKE ${prefixOf(clause.value.toLowerCase())}`),
      );

    // ── transactions: reference prefix, customer email prefix, fields ──
    const transactionScope = grantCondition(grantedScope(principal, 'Mapi.Transactions.Read'), transactions, db);
    if (transactionScope !== null && wants('transactions', transactionFields) && (reference || email || fields.length > 0))
      tasks.push(
        (async () => {
          const t = transactions;
          const dateBounds = fields.filter((clause) => clause.field === 'date').map((clause) => dayBounds(clause, t.createdAt));
          const conditions = [
            transactionScope,
            reference ? startsWith(t.reference, reference.toUpperCase()) : undefined,
            email && !reference ? sql`lower(${t.customerEmail}) LIKE ${prefixOf(email.toLowerCase())}` : undefined,
            anyOf(fields, 'status', (clause) => eq(t.status, clause.value)),
            anyOf(fields, 'currency', (clause) => eq(t.currency, clause.value)),
            anyOf(fields, 'method', (clause) => eq(t.paymentMethod, clause.value)),
            anyOf(fields, 'channel', (clause) => eq(t.channel, clause.value)),
            anyOf(fields, 'is', (clause) => eq(t.kind, clause.value === 'refunded' ? 'refund' : (clause.value as 'payment'))),
            anyOf(fields, 'merchant', merchantNamed(t.merchantId)),
            anyOf(fields, 'email', (clause) => sql`lower(${t.customerEmail}) LIKE ${prefixOf(clause.value.toLowerCase())}`),
            anyOf(fields, 'last4', (clause) => eq(t.cardLast4, clause.value)),
            anyOf(fields, 'bin', (clause) => eq(t.cardBin, clause.value)),
            ...fields.filter((clause) => clause.field === 'amount').map((clause) => amountBounds(clause, t.amountMilli)),
            ...dateBounds,
          ];
          // A prefix in reference order (the index's own order, so LIMIT stops early; an exact match comes first), else newest first.
          const read = (runner: Db, order: SQL[], bound?: SQL) =>
            runner
              .select({ row: t, merchantName: merchants.name, businessName: businesses.name })
              .from(t)
              .innerJoin(merchants, eq(merchants.id, t.merchantId))
              .innerJoin(businesses, eq(businesses.id, t.businessId))
              .where(and(...conditions, bound))
              .orderBy(...order)
              .limit(perKind);
          const rows = reference
            ? await read(db, [patternOrder(t.reference)])
            : await newestFieldMatches(t, t.createdAt, t.reference, and(transactionScope, ...dateBounds), read);
          for (const { row, merchantName, businessName } of rows) {
            const kindLabel = row.kind === 'refund' ? 'Refund' : row.kind === 'capture' ? 'Capture' : row.kind === 'chargeback' ? 'Chargeback' : 'Transaction';
            results.push({
              kind: 'transaction',
              id: row.reference,
              title: `${kindLabel} ${row.reference}`,
              description: `${row.status} · ${money(takesMoneyBack(row.kind) ? -row.amountMinor : row.amountMinor, row.currency)} · ${merchantName}`,
              path: `/transactions/${row.reference}`,
              context: { business: { id: row.businessId, title: businessName }, merchant: { id: row.merchantId, title: merchantName } },
              score: reference && row.reference === reference.toUpperCase() ? 3 : reference ? 2 : 1,
            });
          }
        })(),
      );

    // ── payment jobs: reference or order number prefix, fields ──
    const jobScope = grantCondition(grantedScope(principal, 'Portal.PaymentJobs.Read'), paymentJobs, db);
    if (jobScope !== null && wants('payments', paymentJobFields) && (reference || fields.length > 0))
      tasks.push(
        (async () => {
          const j = paymentJobs;
          // The expression of payment_jobs_business_amount_idx, so an amount bound in a business is an index range.
          const jobMilli = jobAmountMilliOf(j.amountMinor, j.currency);
          const dateBounds = fields.filter((clause) => clause.field === 'date').map((clause) => dayBounds(clause, j.createDateTimeUtc));
          const conditions = [
            jobScope,
            anyOf(fields, 'status', (clause) => eq(j.status, clause.value)),
            anyOf(fields, 'currency', (clause) => eq(j.currency, clause.value)),
            anyOf(fields, 'merchant', merchantNamed(j.merchantId)),
            anyOf(fields, 'order', (clause) => sql`${j.orderNumber} LIKE ${prefixOf(clause.value)}`),
            ...fields.filter((clause) => clause.field === 'amount').map((clause) => amountBounds(clause, jobMilli)),
            ...dateBounds,
          ];
          const select = (match: SQL | undefined, order: SQL[] | AnyPgColumn[], runner: Db = db) =>
            runner
              .select({ row: j, merchantName: merchants.name, businessName: businesses.name })
              .from(j)
              .innerJoin(merchants, eq(merchants.id, j.merchantId))
              .innerJoin(businesses, eq(businesses.id, j.businessId))
              .where(and(...conditions, match))
              .orderBy(...order)
              .limit(perKind);
          let rows: Awaited<ReturnType<typeof select>>;
          if (reference) {
            // Reference and order number apart, each in its index's order (an OR of the two would sort every match).
            const orderPatterns = [...new Set([reference, reference.toUpperCase()])].map((value) => sql`${j.orderNumber} LIKE ${prefixOf(value)}`);
            const [byReference, byOrder] = await Promise.all([
              select(startsWith(j.reference, reference.toUpperCase()), [patternOrder(j.reference)]),
              select(or(...orderPatterns), [patternOrder(j.orderNumber), patternOrder(j.reference)]),
            ]);
            const isExact = (row: (typeof byReference)[number]['row']) => row.reference === reference.toUpperCase() || row.orderNumber === reference;
            const seen = new Set<string>();
            rows = [...byReference, ...byOrder]
              .filter((entry) => !seen.has(entry.row.reference) && Boolean(seen.add(entry.row.reference)))
              .sort((a, b) => Number(isExact(b.row)) - Number(isExact(a.row)))
              .slice(0, perKind);
          } else {
            // As for transactions (an amount bound in a business is then a range of payment_jobs_business_amount_idx).
            rows = await newestFieldMatches(j, j.createDateTimeUtc, j.reference, and(jobScope, ...dateBounds), (runner, order, bound) =>
              select(bound, order, runner),
            );
          }
          for (const { row, merchantName, businessName } of rows) {
            const exactMatch = reference !== undefined && (row.reference === reference.toUpperCase() || row.orderNumber === reference);
            results.push({
              kind: 'paymentJob',
              id: row.reference,
              title: `Payment job ${row.reference}`,
              description: `Order ${row.orderNumber} · ${row.status} · ${money(row.amountMinor, row.currency)} · ${merchantName}`,
              path: `/configurations/${row.configurationId}/payments/${row.reference}`,
              context: { business: { id: row.businessId, title: businessName }, merchant: { id: row.merchantId, title: merchantName } },
              score: exactMatch ? 3 : reference ? 2 : 1,
            });
          }
        })(),
      );

    // ── invoices and credit notes: by number, whatever else the term parses as (a 4- or 6-digit short number reads as a card) ──
    const invoiceNumber = invoiceNumberQuery(parsed.term);
    if (invoiceNumber)
      tasks.push(
        (async () => {
          const invoiceScope = await readableInvoices(principal);
          if (invoiceScope === null) return;
          const matched =
            invoiceNumber.kind === 'prefix'
              ? sql`${invoices.number} LIKE ${prefixOf(invoiceNumber.prefix)}`
              : sql`${invoices.number} LIKE ${`%${likeLiteral(invoiceNumber.suffix)}`}`;
          const rows = await db
            .select({ row: invoices, businessName: businesses.name })
            .from(invoices)
            .innerJoin(businesses, eq(businesses.id, invoices.businessId))
            .where(and(invoiceScope.condition, matched))
            .orderBy(desc(invoices.issuedUtc), asc(invoices.number))
            .limit(perKind);
          for (const { row, businessName } of rows) {
            const exact = invoiceNumber.kind === 'prefix' ? row.number === invoiceNumber.prefix : true;
            results.push({
              kind: 'invoice',
              id: row.id,
              title: `${invoiceKindLabels[row.kind]} ${row.number}`,
              description: `${businessName} · ${monthLabel(row.month)} · ${money(row.totalMinor, row.currency)} · ${row.status}`,
              path: invoiceScope.all ? `/billing/invoices/${row.id}` : `/business/${row.businessId}/invoices`,
              context: invoiceScope.all ? {} : { business: { id: row.businessId, title: businessName } },
              score: exact ? 3 : 2,
            });
          }
        })(),
      );

    // The rest are found by id or by words only: a field query is about money movements.
    if (fields.length === 0 && (reference || nameWords.length > 0)) {
      const wordsMatch = (text: SQL) => (nameWords.length === 0 ? undefined : and(...nameWords.map((word) => sql`${text} LIKE ${containing(word)}`)));

      // ── customers ──
      const customerScope = grantCondition(grantedScope(principal, 'Mapi.Customers.Read'), customers, db);
      if (customerScope !== null)
        tasks.push(
          (async () => {
            const cu = customers;
            const matched = or(
              reference ? sql`${cu.id} LIKE ${prefixOf(reference)}` : undefined,
              reference ? sql`${cu.reference} LIKE ${prefixOf(reference)}` : undefined,
              wordsMatch(sql`lower(${cu.firstName} || ' ' || ${cu.lastName} || ' ' || coalesce(${cu.emailAddress}, ''))`),
            );
            const rows = await db
              .select({ row: cu, merchantName: merchants.name, businessName: businesses.name })
              .from(cu)
              .innerJoin(merchants, eq(merchants.id, cu.merchantId))
              .innerJoin(businesses, eq(businesses.id, cu.businessId))
              .where(and(customerScope, matched))
              .orderBy(asc(cu.lastName), asc(cu.firstName), asc(cu.id))
              .limit(perKind);
            for (const { row, merchantName, businessName } of rows) {
              const exactMatch = reference !== undefined && (row.id === reference || row.reference === reference);
              results.push({
                kind: 'customer',
                id: row.id,
                title: `${row.firstName} ${row.lastName}`.trim(),
                description: `Customer ${row.reference}${row.emailAddress ? ` · ${row.emailAddress}` : ''} · ${merchantName}`,
                path: `/business/${row.businessId}/merchants/${row.merchantId}/customers/${row.id}`,
                context: { business: { id: row.businessId, title: businessName }, merchant: { id: row.merchantId, title: merchantName } },
                score: exactMatch ? 3 : reference && (row.id.startsWith(reference) || row.reference.startsWith(reference)) ? 2 : 1,
              });
            }
          })(),
        );

      // ── tickets ──
      const ticketScope = grantCondition(grantedScope(principal, 'Portal.Tickets.Read'), tickets, db);
      if (ticketScope !== null)
        tasks.push(
          (async () => {
            const tk = tickets;
            const matched = or(
              reference ? sql`${tk.id} LIKE ${prefixOf(reference.toUpperCase())}` : undefined,
              reference ? sql`${tk.id} LIKE ${prefixOf(reference)}` : undefined,
              wordsMatch(sql`lower(${tk.subject})`),
            );
            const rows = await db
              .select({ row: tk, businessName: businesses.name, merchantName: merchants.name })
              .from(tk)
              .innerJoin(businesses, eq(businesses.id, tk.businessId))
              .leftJoin(merchants, eq(merchants.id, tk.merchantId))
              .where(and(ticketScope, matched))
              .orderBy(desc(tk.lastUpdatedUtc), asc(tk.id))
              .limit(perKind);
            for (const { row, businessName, merchantName } of rows) {
              results.push({
                kind: 'ticket',
                id: row.id,
                title: row.subject,
                description: `Ticket ${row.id} · ${row.status} · ${merchantName ?? businessName}`,
                path: `/tickets/${row.id}`,
                context: {
                  business: { id: row.businessId, title: businessName },
                  ...(row.merchantId && merchantName ? { merchant: { id: row.merchantId, title: merchantName } } : {}),
                },
                score:
                  reference && row.id.toUpperCase() === reference.toUpperCase()
                    ? 3
                    : reference && row.id.toUpperCase().startsWith(reference.toUpperCase())
                      ? 2
                      : 1,
              });
            }
          })(),
        );

      // ── users ──
      tasks.push(
        (async () => {
          const userScope = await readableUsers(principal);
          if (userScope === null) return;
          const matched = or(
            reference ? sql`${users.id} LIKE ${prefixOf(reference)}` : undefined,
            wordsMatch(sql`lower(${users.givenName} || ' ' || ${users.familyName} || ' ' || ${users.email})`),
          );
          const rows = await db
            .select()
            .from(users)
            .where(and(userScope, matched))
            .orderBy(asc(users.givenName), asc(users.familyName), asc(users.id))
            .limit(perKind);
          for (const row of rows) {
            results.push({
              kind: 'user',
              id: row.id,
              title: `${row.givenName} ${row.familyName}`.trim(),
              description: `User · ${row.email}`,
              path: `/users/${row.id}`,
              context: {},
              score: reference && row.id === reference ? 3 : reference && row.id.startsWith(reference) ? 2 : 1,
            });
          }
        })(),
      );

      // ── businesses and merchants: the context picker's trigram-indexed expression ──
      const matchedBy = (name: AnyPgColumn, id: AnyPgColumn) => {
        const expression = sql`(lower(${name}) || ' ' || lower(${id}))`;
        return or(reference ? sql`lower(${id}) LIKE ${prefixOf(reference.toLowerCase())}` : undefined, wordsMatch(expression));
      };
      const visibleBusinessIds = [...principal.businessIds, ...principal.partnerBusinessIds];
      const businessScope = isInternal(principal) ? undefined : visibleBusinessIds.length > 0 ? inArray(businesses.id, visibleBusinessIds) : sql`false`;
      tasks.push(
        (async () => {
          const businessRows = await db
            .select()
            .from(businesses)
            .where(and(matchedBy(businesses.name, businesses.id), businessScope))
            .orderBy(asc(businesses.name))
            .limit(perKind);
          for (const business of businessRows) {
            results.push({
              kind: 'business',
              id: business.id,
              title: business.name,
              description: `Business ${business.id}`,
              path: `/business/${business.id}`,
              context: { business: { id: business.id, title: business.name } },
              score: reference && business.id.toLowerCase() === reference.toLowerCase() ? 3 : 1,
            });
          }
        })(),
      );
      tasks.push(
        (async () => {
          const merchantRows = await db
            .select({ merchant: merchants, businessName: businesses.name })
            .from(merchants)
            .innerJoin(businesses, eq(businesses.id, merchants.businessId))
            .where(and(matchedBy(merchants.name, merchants.id), scopeCondition(principal, { businessId: merchants.businessId, merchantId: merchants.id })))
            .orderBy(asc(merchants.name))
            .limit(perKind);
          for (const { merchant, businessName } of merchantRows) {
            results.push({
              kind: 'merchant',
              id: merchant.id,
              title: merchant.name,
              description: `Merchant ${merchant.id} of ${businessName}`,
              path: `/business/${merchant.businessId}/merchants/${merchant.id}`,
              context: { business: { id: merchant.businessId, title: businessName }, merchant: { id: merchant.id, title: merchant.name } },
              score: reference && merchant.id.toLowerCase() === reference.toLowerCase() ? 3 : 1,
            });
          }
        })(),
      );
    }

    // The kinds are looked up side by side (each its own statement on the pool).
    await Promise.all(tasks);

    // Grouped by kind, the group with the best match first; within a group, the order each query chose.
    const best = new Map<SearchResultKind, number>();
    for (const result of results) best.set(result.kind, Math.max(best.get(result.kind) ?? 0, result.score));
    const groups = [...best.keys()].sort((a, b) => (best.get(b) ?? 0) - (best.get(a) ?? 0) || kindOrder.indexOf(a) - kindOrder.indexOf(b));
    const ordered = groups.flatMap((kind) => results.filter((result) => result.kind === kind)).map(({ score: _score, ...result }): SearchResult => result);
    return c.json({ results: ordered });
  });

  // Merchant names for the palette's completion of merchant:… (the same visibility as the context picker).
  routes.get('/search/merchants', async (c) => {
    const parsed = merchantQuery(c.req.query());
    if (parsed instanceof type.errors) throw badRequest(validationMessages(parsed));
    const principal = c.get('principal');
    const prefix = (parsed.prefix ?? '').trim().toLowerCase();
    const rows = await db
      .select({ id: merchants.id, name: merchants.name, businessId: merchants.businessId, businessName: businesses.name })
      .from(merchants)
      .innerJoin(businesses, eq(businesses.id, merchants.businessId))
      .where(
        and(
          prefix ? sql`lower(${merchants.name}) LIKE ${prefixOf(prefix)}` : undefined,
          scopeCondition(principal, { businessId: merchants.businessId, merchantId: merchants.id }),
        ),
      )
      .orderBy(asc(merchants.name), asc(merchants.id))
      .limit(20);
    return c.json({ results: rows });
  });
  return routes;
}
