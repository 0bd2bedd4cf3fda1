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
import { randomBytes } from 'node:crypto';
import { and, asc, count, eq, lte, sql } from 'drizzle-orm';
import { Hono, type Context } from 'hono';
import { filterInstant } from '../../src/contract/zoned-time.ts';
import type { PermissionName } from '../../src/contract/permissions.ts';
import type { ReportContext } from '../../src/contract/report-schemas.ts';
import { transactionExportBody } from '../../src/contract/transaction-schemas.ts';
import { maxExportFilters, toMajorUnits, transactionListSpec } from '../../src/contract/transactions.ts';
import type { TransactionDetail } from '../../src/contract/transaction-schemas.ts';
import { encodeOrdering, type ParsedListQuery } from '../../src/contract/list-query.ts';
import { recordAudit } from '../audit/record.ts';
import { openVaultedCard } from '../cards/card-vault.ts';
import { paymentActionsOf, refundableMinor } from '../../src/contract/payment-jobs.ts';
import { loadJobState } from '../payments/payment-state.ts';
import type { Database } from '../db/client.ts';
import { auditEvents, businesses, merchants, paymentJobs, transactions, users } from '../db/schema.ts';
import { insertQueuedReport } from '../reports/queue.ts';
import { permissionsIn, resolveContext, resolvePartner } from '../policy/principal.ts';
import { type AppEnv, type Deps, readBody, requirePermission } from '../http/env.ts';
import { ApiError, badRequest, forbidden, notFound } from '../http/errors.ts';
import { filterCondition, parseListRequest, singleValuedQuery } from '../http/list-sql.ts';
import { countedPage, exactCount, toListItem, totalsOf, transactionOrderKeys, transactionResource, type ListRequest } from '../transactions/list.ts';
import { grantedScope, scopeWhere, type TransactionScope } from '../transactions/scope.ts';
import { sqlNow } from '../clock.ts';
import { requireStepUp } from './step-up.ts';

const t = transactions;

export const maxListOffset = 100_000;
/**
 * The merchant sort reads up to offset + page rows of every merchant (a lateral walk by name): deep pages cost
 * merchants × offset rows, so they stop earlier (page 999 took 935 ms on the embedded database and held others up).
 */
export const maxMerchantSortOffset = 5_000;

const totalsNeedCurrencyMessage = 'Totals are given for one currency: choose one currency.';

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
    return {
      scope: { level: 'business', businessId: resolved.business.id },
      context: { level: 'business', businessId: resolved.business.id, title: resolved.business.name },
    };
  };
  const merchant: ScopeResolver = async (c, permissions) => {
    const resolved = await resolveContext(database, c.get('principal'), c.req.param('businessId') ?? '', c.req.param('merchantId') ?? '');
    if (!resolved?.merchant) throw notFound();
    requireAll(resolved.permissions, permissions);
    return {
      scope: { level: 'merchant', businessId: resolved.business.id, merchantId: resolved.merchant.id },
      context: {
        level: 'merchant',
        businessId: resolved.business.id,
        merchantId: resolved.merchant.id,
        title: `${resolved.merchant.name} (${resolved.business.name})`,
      },
    };
  };
  const partner: ScopeResolver = async (c, permissions) => {
    const resolved = await resolvePartner(database, c.get('principal'), c.req.param('partnerId') ?? '');
    if (!resolved) throw notFound();
    requireAll(resolved.permissions, permissions);
    return {
      scope: { level: 'partner', partnerId: resolved.partner.id },
      context: { level: 'partner', partnerId: resolved.partner.id, title: resolved.partner.name },
    };
  };
  return [
    { prefix: '/transactions', resolve: contextFree },
    { prefix: '/businesses/:businessId/transactions', resolve: business },
    { prefix: '/businesses/:businessId/merchants/:merchantId/transactions', resolve: merchant },
    { prefix: '/partners/:partnerId/transactions', resolve: partner },
  ];
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
    const [row] = await db
      .select({ transaction: t, merchantName: merchants.name, businessName: businesses.name })
      .from(t)
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
        throw badRequest(
          `A list sorted by merchant shows its first ${maxMerchantSortOffset.toLocaleString('en-GB')} rows; filter by merchant, sort by another column or export the list.`,
        );
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
        ? await db
            .select()
            .from(t)
            .where(and(eq(t.parentReference, row.parentReference), sql`${t.reference} <> ${row.reference}`))
            .orderBy(asc(t.createdAt), asc(t.reference))
            .limit(100)
        : [];
      const linked = (relation: 'parent' | 'child' | 'sibling') => (linkedRow: typeof t.$inferSelect) => ({
        reference: linkedRow.reference,
        kind: linkedRow.kind,
        relation,
        date: linkedRow.createdAt.toISOString(),
        amount: toMajorUnits(linkedRow.amountMinor, linkedRow.currency),
        currency: linkedRow.currency,
        status: linkedRow.status,
      });
      const detail: TransactionDetail = {
        ...toListItem({
          ...row,
          merchantName,
          refundedMinor: children.filter((child) => child.kind === 'refund' && child.status === 'paid').reduce((sum, child) => sum + child.amountMinor, 0),
        }),
        businessName,
        partnerId: row.partnerId,
        configurationId: row.configurationId,
        parentReference: row.parentReference,
        maskedCardNumber: row.cardMasked,
        declineReason: row.declineReason,
        customerEmail: row.customerEmail,
        originatingIpAddress: row.originatingIpAddress,
        paymentMethods: [{ paymentMethod: row.paymentMethod, ewalletType: row.ewalletType, maskedCardNumber: row.cardMasked }],
        paymentJob: job
          ? {
              reference: job.reference,
              orderNumber: job.orderNumber,
              status: job.status,
              createDateTimeUtc: job.createDateTimeUtc.toISOString(),
              amount: toMajorUnits(job.amountMinor, job.currency),
              currency: job.currency,
              configurationId: job.configurationId,
            }
          : null,
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
        const [recent] = await tx
          .select({ reveals: count() })
          .from(auditEvents)
          .where(
            and(eq(auditEvents.userId, principal.userId), eq(auditEvents.event, 'CardNumberRevealed'), sql`${auditEvents.dateTimeUtc} > ${sqlNow(-60_000)}`),
          );
        if ((recent?.reveals ?? 0) >= revealsPerMinute) {
          c.header('Retry-After', '60');
          throw new ApiError(429, `At most ${revealsPerMinute} card numbers can be revealed a minute. Please wait a minute and try again.`);
        }
        const [row] = await tx
          .select({ cardToken: t.cardToken, businessId: t.businessId, merchantId: t.merchantId })
          .from(t)
          .where(and(eq(t.reference, found.reference), scopeWhere(scope)));
        if (!row) throw notFound();
        const revealed = row.cardToken === null ? null : await openVaultedCard(tx, cardKeys, row.cardToken);
        if (revealed === null) throw new ApiError(404, 'No card number is on file for this transaction.');
        await recordAudit(
          tx,
          principal,
          'CardNumberRevealed',
          { businessId: row.businessId, merchantId: row.merchantId },
          { transactionReference: found.reference },
        );
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
