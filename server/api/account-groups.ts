// Account groups: the settlement ledger (server/ledger/) as the merchant, the business and finance staff read it.
//
// {m} = /businesses/{businessId}/merchants/{merchantId}/merchant-accountgroups
// {b} = /businesses/{businessId}/business-accountgroups
//
// | method | path                                    | permission                                       | answer |
// |--------|-----------------------------------------|--------------------------------------------------|--------|
// | GET    | {m}                                     | Mapi.MerchantAccountGroups.Read                  | { results: groups with balances, numberOfResults } |
// | GET    | {m}/{accountNumber}                     | Mapi.MerchantAccountGroups.Read                  | the group with its balances |
// | GET    | {m}/{n}/statements/{kind}               | Mapi.MerchantAccountGroups.Read (+ GatewayFees for costs) | statement: opening, totals, movements with running balance, closing; invoice: where in use (gross settlement, or entries) |
// | GET    | {m}/{n}/statements/{kind}/balances      | as the statement                                 | { currency, results: [{ date, balance }] } each day's closing balance |
// | GET    | {m}/{n}/statements/{kind}/camt053       | as the statement                                 | the statement as ISO 20022 camt.053.001.08 XML (streamed) |
// | GET    | {m}/{n}/costs                           | Mapi.MerchantAccountGroups.Read, Mapi.GatewayFees.Read | the costs account's statement |
// | GET    | {m}/{n}/transfers                       | Mapi.MerchantAccountGroups.Read                  | { results, numberOfResults } (paged) |
// | GET    | {m}/{n}/batches                         | Mapi.MerchantAccountGroups.Read                  | { results, numberOfResults } (paged; status Any/Open/Closed) |
// | GET    | {m}/{n}/batches/{batchId}               | Mapi.MerchantAccountGroups.Read                  | the batch and its movements (paged) |
// | POST   | {m}/{n}/statements/{kind}/reports, {m}/{n}/costs/reports, {m}/{n}/transfers/reports, {m}/{n}/batches/reports, {m}/{n}/batches/{batchId}/reports | the read's permission + Portal.Reports.Create | 202 { reportId, totalRows } |
// | POST   | {m}/{n}/settlement-details/reports, {m}/{n}/batches/{batchId}/settlement-details/reports | Mapi.MerchantAccountGroups.Read + Portal.Reports.Create | 202 { reportId, totalRows }: one row per transaction (CSV, XLSX) of the batch, or of the batches of the date filter's period (default: this month; at most maxSettlementDetailsDays days) |
// | GET    | {b}                                     | Mapi.BagsExternal.Read                           | { results, numberOfResults } (none while automatic remittance is on) |
// | GET    | {b}/{accountNumber}                     | Mapi.BagsExternal.Read                           | the group and its balance |
// | GET    | {b}/{n}/statement                       | Mapi.BagsExternal.Read                           | statement of the business account |
// | GET    | {b}/{n}/statement/camt053               | Mapi.BagsExternal.Read                           | the business account statement as camt.053.001.08 |
// | GET    | {b}/{n}/remittance                      | Mapi.BagsExternal.Read                           | schedule and beneficiary, with version |
// | POST   | {b}/{n}/remittance                      | Mapi.BagsExternal.Read + Portal.Settings.Update  | the changed remittance; 409 on a stale version; audited |
// | GET    | {b}/{n}/transfers                       | Mapi.BagsExternal.Read                           | { results, numberOfResults } |
// | GET    | {b}/{n}/transfers/{transferId}          | Mapi.BagsExternal.Read                           | the transfer, its remittance text and the payouts it pays (they sum to it) |
// | POST   | {b}/{n}/statement/reports, {b}/{n}/transfers/reports | Mapi.BagsExternal.Read + Portal.Reports.Create | 202 { reportId, totalRows } |
// | GET    | /ledger/internal-accounts               | Mapi.InternalMerchantAccounts.Read (root roles)  | the provider's clearing and bank accounts per currency with balances |
// | GET    | /businesses/{businessId}/pricing-plan   | Mapi.MerchantAccountPricingPlan.Read             | { results: plan per merchant and currency with rates } |
//
// A business or merchant the caller cannot reach, or an account number or batch of another merchant, answers 404.
// Blank or malformed ids answer 400 with the spec's messages. Dates: the list convention's date filter.
import { randomBytes } from 'node:crypto';
import { and, asc, count, desc, eq, gte, inArray, lte, sql, type SQL } from 'drizzle-orm';
import { Hono, type Context } from 'hono';
import { addDays, calendarDate } from '../../src/contract/calendar-date.ts';
import { filterInstant } from '../../src/contract/zoned-time.ts';
import { encodeDateRange } from '../../src/contract/date-range-filter.ts';
import type { PermissionName } from '../../src/contract/permissions.ts';
import {
  accountNumberPattern,
  batchIdPattern,
  batchListSpec,
  entryCategories,
  maxStatementDays,
  merchantAccountKinds,
  movementListSpec,
  camtOnlyForStatementsMessage,
  statementReportTypeOf,
  statementReportTypes,
  transferListSpec,
  type EntryCategory,
  type MerchantAccountKind,
  type StatementAccountKind,
  maxSettlementDetailsDays,
  settlementDetailsFileTypeMessage,
  settlementDetailsFileTypes,
} from '../../src/contract/ledger.ts';
import { ledgerReportBody, remittanceUpdateBody, type Remittance, type TransferDetail } from '../../src/contract/ledger-schemas.ts';
import type { ParsedListQuery } from '../../src/contract/list-query.ts';
import type { ReportContext } from '../../src/contract/report-schemas.ts';
import { toMajorUnits } from '../../src/contract/transactions.ts';
import { recordAudit } from '../audit/record.ts';
import type { Db } from '../db/client.ts';
import {
  businessAccountGroups,
  type businesses,
  ledgerAccounts,
  ledgerEntries,
  ledgerTransfers,
  merchantAccountGroups,
  merchants,
  pricingPlanRates,
  pricingPlans,
  queuedReports,
  remittanceSettings,
  settlementBatches,
} from '../db/schema.ts';
import { now } from '../clock.ts';
import { contentDisposition } from '../files/content-disposition.ts';
import { camt053Statement } from '../ledger/camt053.ts';
import { batchNetMinor, nextScheduleDates } from '../ledger/close-batches.ts';
import { groupAccountId } from '../ledger/post-transactions.ts';
import { dayOf } from '../ledger/periods.ts';
import { balancesOf, invoiceAccountInUse, periodOf, readDailyBalances, readStatement, type MovementRow } from '../ledger/statement.ts';
import { permissionsIn, resolveContext } from '../policy/principal.ts';
import { reportDownloadName } from '../reports/naming.ts';
import { countSettlementDetails, settlementDetailBatches } from '../reports/settlement-details.ts';
import { remittanceText } from '../ledger/remittance-text.ts';
import { type AppEnv, type Deps, readBody, requirePermission } from '../http/env.ts';
import { badRequest, conflict, notFound } from '../http/errors.ts';
import { parseListRequest, singleValuedQuery } from '../http/list-sql.ts';
import { reportQueued } from '../reports/wake.ts';

export const merchantIdsRequiredMessage = 'Invalid parameters: businessId and merchantId are required.';
export const businessIdRequiredMessage = 'Business ID is required.';
export const accountNumberRequiredMessage = 'Business ID and Account Number are required.';

const idPattern = /^[A-Za-z0-9_-]{1,64}$/;
const blankId = (value: string | undefined) => !value || !idPattern.test(value) || value === 'undefined' || value === 'null';

const m = '/businesses/:businessId/merchants/:merchantId/merchant-accountgroups';
const b = '/businesses/:businessId/business-accountgroups';

/** timeZone: the business's, in which every period of its ledger is cut (ledger/periods.ts), whatever the caller's zone. */
type MerchantScope = { businessId: string; merchantId: string; merchantName: string; businessName: string; grossSettlement: boolean; timeZone: string };

const movementOut = (currency: string) => (row: MovementRow) => ({
  id: row.id,
  date: row.valueAt.toISOString(),
  category: row.category as EntryCategory,
  amount: toMajorUnits(row.amountMinor, currency),
  runningBalance: toMajorUnits(row.runningBalanceMinor, currency),
  transactionReference: row.transactionReference,
  batchId: row.batchId,
  postingId: row.postingId,
});

function batchOut(row: typeof settlementBatches.$inferSelect, grossSettlement: boolean) {
  const major = (minor: number) => toMajorUnits(minor, row.currency);
  return {
    batchId: row.id,
    accountNumber: row.accountNumber,
    date: row.batchStart.toISOString(),
    status: row.status,
    currency: row.currency,
    salesCount: row.salesCount,
    salesAmount: major(row.salesMinor),
    refundsAmount: major(row.refundsMinor),
    reversalsAmount: major(row.reversalsMinor),
    feesAmount: major(row.feesMinor),
    reserveAmount: major(row.reserveMinor),
    netAmount: major(batchNetMinor(row, grossSettlement)),
    closedAt: row.closedAt?.toISOString() ?? null,
  };
}

function transferOut(row: typeof ledgerTransfers.$inferSelect) {
  return {
    id: row.id,
    accountNumber: row.accountNumber,
    transferDate: row.transferDate.toISOString(),
    maturityDate: row.maturityDate.toISOString(),
    amount: toMajorUnits(row.amountMinor, row.currency),
    saleAmount: toMajorUnits(row.saleAmountMinor, row.currency),
    currency: row.currency,
    batchId: row.batchId,
  };
}

const categoriesOf = (query: ParsedListQuery): EntryCategory[] =>
  (query.filters.category ?? [])
    .map((clause) => entryCategories.find((category) => category.toLowerCase() === clause.value.toLowerCase()))
    .filter((value): value is EntryCategory => value !== undefined);

export function accountGroupRoutes({ database }: Deps) {
  const { db } = database;
  const routes = new Hono<AppEnv>();

  async function merchantScope(c: Context<AppEnv>, permissions: readonly PermissionName[]): Promise<MerchantScope> {
    const businessId = c.req.param('businessId');
    const merchantId = c.req.param('merchantId');
    if (blankId(businessId)) throw badRequest(merchantIdsRequiredMessage);
    if (blankId(merchantId)) await merchantMissing(c);
    const resolved = await resolveContext(database, c.get('principal'), businessId as string, merchantId as string);
    if (!resolved?.merchant) throw notFound();
    for (const permission of permissions) requirePermission(resolved.permissions, permission);
    return {
      businessId: resolved.business.id,
      merchantId: resolved.merchant.id,
      merchantName: resolved.merchant.name,
      businessName: resolved.business.name,
      grossSettlement: resolved.merchant.grossSettlement,
      timeZone: resolved.business.timeZone,
    };
  }

  async function merchantGroup(c: Context<AppEnv>, permissions: readonly PermissionName[]) {
    const scope = await merchantScope(c, permissions);
    const accountNumber = c.req.param('accountNumber') ?? '';
    if (!accountNumberPattern.test(accountNumber)) throw notFound();
    const [group] = await db
      .select()
      .from(merchantAccountGroups)
      .where(and(eq(merchantAccountGroups.accountNumber, accountNumber), eq(merchantAccountGroups.merchantId, scope.merchantId)));
    if (!group) throw notFound();
    return { scope, group };
  }

  async function requireInvoiceAccount(scope: MerchantScope, accountNumber: string): Promise<void> {
    if (!(await invoiceAccountInUse(db, scope.grossSettlement, accountNumber))) throw notFound();
  }

  /** The group with the balance of each account it uses: the invoice account only where it is in use (statement.ts). */
  async function groupOut(scope: MerchantScope, group: typeof merchantAccountGroups.$inferSelect, balances: Map<string, number>) {
    const invoiceInUse = await invoiceAccountInUse(db, scope.grossSettlement, group.accountNumber);
    return {
      accountNumber: group.accountNumber,
      businessId: group.businessId,
      merchantId: group.merchantId,
      merchantName: scope.merchantName,
      currency: group.currency,
      grossSettlement: scope.grossSettlement,
      reservePercentage: group.reserveBasisPoints / 100,
      reserveDays: group.reserveDays,
      balances: merchantAccountKinds
        .filter((kind) => kind !== 'invoice' || invoiceInUse)
        .map((kind) => ({ kind, balance: toMajorUnits(balances.get(groupAccountId(group.accountNumber, kind)) ?? 0, group.currency) })),
    };
  }

  async function statementAnswer(c: Context<AppEnv>, accountNumber: string, kind: StatementAccountKind, currency: string, timeZone: string) {
    const query = parseListRequest(singleValuedQuery(c), movementListSpec);
    const period = periodOf(query.filters.date, timeZone);
    const statement = await readStatement(db, {
      accountId: groupAccountId(accountNumber, kind),
      period,
      categories: categoriesOf(query),
      sort: query.sort[0] ?? { field: 'date', descending: false },
      limit: query.pageSize,
      offset: (query.pageNumber - 1) * query.pageSize,
    });
    return {
      accountNumber,
      kind,
      currency,
      timeZone,
      periodStart: period.start?.toISOString() ?? null,
      periodEnd: period.end?.toISOString() ?? null,
      openingBalance: toMajorUnits(statement.openingBalanceMinor, currency),
      closingBalance: toMajorUnits(statement.closingBalanceMinor, currency),
      totals: statement.totals.map((row) => ({ category: row.category as EntryCategory, amount: toMajorUnits(row.amountMinor, currency), count: row.count })),
      results: statement.movements.map(movementOut(currency)),
      numberOfResults: statement.numberOfResults,
    };
  }

  async function queueReport(
    c: Context<AppEnv>,
    options: {
      reportType: string;
      context: Omit<ReportContext, 'timeZone'> & { timeZone?: string };
      filters: Record<string, string>;
      spec: typeof movementListSpec;
      countRows: (query: ParsedListQuery) => Promise<number>;
      /** the file types the report is offered as (default: every ledger file type) and the refusal of another */
      fileTypes?: { allowed: readonly string[]; message: string };
      /** filters the report takes when the body names none of its own (settlement details: this month) */
      defaultFilters?: (timeZone: string) => Record<string, string>;
    },
  ) {
    const body = await readBody(c, ledgerReportBody);
    if (body.fileType === 'xml' && !(statementReportTypes as readonly string[]).includes(options.reportType)) throw badRequest(camtOnlyForStatementsMessage);
    if (options.fileTypes && !options.fileTypes.allowed.includes(body.fileType)) throw badRequest(options.fileTypes.message);
    const userFilters = { ...(options.defaultFilters?.(options.context.timeZone ?? c.get('timeZone')) ?? {}), ...(body.filters ?? {}) };
    const filters = { ...userFilters, ...options.filters };
    for (const name of Object.keys(userFilters)) {
      if (['pagenumber', 'pagesize'].includes(name.toLowerCase())) throw badRequest(`'${name}' is not a filter; a report holds every matching row`);
    }
    const query = parseListRequest(userFilters, options.spec);
    // The business's zone, where the context names it: the file's period and its times (the header says which).
    const timeZone = options.context.timeZone ?? c.get('timeZone');
    const period = periodOf(query.filters.date, timeZone);
    const totalRows = await options.countRows(query);
    const reportId = `RPT${randomBytes(8).toString('hex').toUpperCase()}`;
    await db.insert(queuedReports).values({
      id: reportId,
      userId: c.get('principal').userId,
      reportType: options.reportType,
      fileType: body.fileType,
      status: 'queued',
      context: { ...options.context, timeZone },
      filters,
      ordering: null,
      columns: [],
      startDate: period.start,
      endDate: period.end,
      totalRows,
      queuedAt: new Date(),
    });
    reportQueued();
    return c.json({ reportId, totalRows }, 202);
  }

  const merchantContext = (scope: MerchantScope) => ({
    level: 'merchant' as const,
    businessId: scope.businessId,
    merchantId: scope.merchantId,
    title: `${scope.merchantName} (${scope.businessName})`,
    timeZone: scope.timeZone,
  });

  /** A merchant id is missing: the spec's message, once the business is known to be the caller's (else 404). */
  async function merchantMissing(c: Context<AppEnv>): Promise<never> {
    const businessId = c.req.param('businessId') ?? '';
    const resolved = blankId(businessId) ? null : await resolveContext(database, c.get('principal'), businessId);
    if (!resolved) throw notFound();
    // A merchant-level role sees the business in its policy but holds nothing there.
    requirePermission(resolved.permissions, 'Mapi.MerchantAccountGroups.Read');
    throw badRequest(merchantIdsRequiredMessage);
  }

  // ── merchant account groups ──
  routes.get('/businesses/:businessId/merchant-accountgroups', (c) => merchantMissing(c));

  routes.get(m, async (c) => {
    const scope = await merchantScope(c, ['Mapi.MerchantAccountGroups.Read']);
    const groups = await db
      .select()
      .from(merchantAccountGroups)
      .where(eq(merchantAccountGroups.merchantId, scope.merchantId))
      .orderBy(asc(merchantAccountGroups.accountNumber));
    const balances = await balancesOf(
      db,
      groups.flatMap((group) => merchantAccountKinds.map((kind) => groupAccountId(group.accountNumber, kind))),
      new Date(),
    );
    const results = await Promise.all(groups.map((group) => groupOut(scope, group, balances)));
    return c.json({ results, numberOfResults: results.length });
  });

  routes.get(`${m}/:accountNumber`, async (c) => {
    const { scope, group } = await merchantGroup(c, ['Mapi.MerchantAccountGroups.Read']);
    const balances = await balancesOf(
      db,
      merchantAccountKinds.map((kind) => groupAccountId(group.accountNumber, kind)),
      new Date(),
    );
    return c.json(await groupOut(scope, group, balances));
  });

  const statementPermissions = (kind: MerchantAccountKind): PermissionName[] =>
    kind === 'costs' ? ['Mapi.MerchantAccountGroups.Read', 'Mapi.GatewayFees.Read'] : ['Mapi.MerchantAccountGroups.Read'];
  const kindParam = (c: Context<AppEnv>): MerchantAccountKind => {
    const kind = c.req.param('kind') as MerchantAccountKind;
    if (!(merchantAccountKinds as readonly string[]).includes(kind)) throw notFound();
    return kind;
  };

  routes.get(`${m}/:accountNumber/statements/:kind`, async (c) => {
    const kind = kindParam(c);
    const { scope, group } = await merchantGroup(c, statementPermissions(kind));
    if (kind === 'invoice') await requireInvoiceAccount(scope, group.accountNumber);
    return c.json(await statementAnswer(c, group.accountNumber, kind, group.currency, scope.timeZone));
  });

  /** The statement as camt.053.001.08 XML, streamed as it is read (the period of the date filter, as the statement). */
  function camt053Answer(c: Context<AppEnv>, accountNumber: string, kind: StatementAccountKind, currency: string, holder: string, timeZone: string) {
    const query = parseListRequest(singleValuedQuery(c), movementListSpec);
    const period = periodOf(query.filters.date, timeZone);
    const chunks = camt053Statement(db, {
      accountId: groupAccountId(accountNumber, kind),
      accountNumber,
      kind,
      currency,
      holder,
      period,
      createdAt: new Date(),
      timeZone,
    });
    const encoder = new TextEncoder();
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        const next = await chunks.next();
        if (next.done) controller.close();
        else controller.enqueue(encoder.encode(next.value));
      },
      async cancel() {
        await chunks.return(undefined);
      },
    });
    c.header('Content-Type', 'application/xml; charset=utf-8');
    // Named by account and period, as the same statement queued as a report is (reports/naming.ts).
    c.header(
      'Content-Disposition',
      contentDisposition(
        reportDownloadName({
          id: '',
          reportType: statementReportTypeOf[kind],
          fileType: 'xml',
          queuedAt: now(),
          context: { timeZone },
          filters: { accountNumber },
          startDate: period.start,
          endDate: period.end,
        }),
      ),
    );
    c.header('Cache-Control', 'no-store');
    return c.body(body);
  }

  /** Daily closing balances of the period (default: the last 31 days), in the business's zone; at most maxStatementDays days. */
  async function dailyBalancesAnswer(c: Context<AppEnv>, accountNumber: string, kind: StatementAccountKind, currency: string, timeZone: string) {
    const query = parseListRequest(singleValuedQuery(c), movementListSpec);
    const requested = periodOf(query.filters.date, timeZone);
    const today = calendarDate(new Date(), timeZone);
    const lastDay = requested.end ? calendarDate(requested.end, timeZone) : today;
    const firstDay = requested.start ? calendarDate(requested.start, timeZone) : addDays(lastDay, -30);
    const days: { date: string; end: Date }[] = [];
    for (let date = firstDay; date <= lastDay; date = addDays(date, 1)) {
      if (days.length >= maxStatementDays) throw badRequest(`A balance chart covers ${maxStatementDays} days at most; choose a shorter period.`);
      days.push({ date, end: filterInstant(date, 'end', timeZone) });
    }
    const period = { start: filterInstant(firstDay, 'start', timeZone), end: filterInstant(lastDay, 'end', timeZone) };
    const balances = await readDailyBalances(db, groupAccountId(accountNumber, kind), period, days, timeZone);
    return { currency, results: balances.map((row) => ({ date: row.date, balance: toMajorUnits(row.balanceMinor, currency) })) };
  }

  routes.get(`${m}/:accountNumber/statements/:kind/balances`, async (c) => {
    const kind = kindParam(c);
    const { scope, group } = await merchantGroup(c, statementPermissions(kind));
    if (kind === 'invoice') await requireInvoiceAccount(scope, group.accountNumber);
    return c.json(await dailyBalancesAnswer(c, group.accountNumber, kind, group.currency, scope.timeZone));
  });

  routes.get(`${m}/:accountNumber/statements/:kind/camt053`, async (c) => {
    const kind = kindParam(c);
    const { scope, group } = await merchantGroup(c, statementPermissions(kind));
    if (kind === 'invoice') await requireInvoiceAccount(scope, group.accountNumber);
    return camt053Answer(c, group.accountNumber, kind, group.currency, `${scope.merchantName} (${scope.businessName})`, scope.timeZone);
  });

  routes.get(`${m}/:accountNumber/costs`, async (c) => {
    const { scope, group } = await merchantGroup(c, statementPermissions('costs'));
    return c.json(await statementAnswer(c, group.accountNumber, 'costs', group.currency, scope.timeZone));
  });

  const statementReport = (kindOf: (c: Context<AppEnv>) => MerchantAccountKind) => async (c: Context<AppEnv>) => {
    const kind = kindOf(c);
    const { scope, group } = await merchantGroup(c, [...statementPermissions(kind), 'Portal.Reports.Create']);
    if (kind === 'invoice') await requireInvoiceAccount(scope, group.accountNumber);
    return queueReport(c, {
      reportType: statementReportTypeOf[kind],
      context: merchantContext(scope),
      filters: { accountNumber: group.accountNumber, kind },
      spec: movementListSpec,
      countRows: async (query) =>
        (
          await readStatement(db, {
            accountId: groupAccountId(group.accountNumber, kind),
            period: periodOf(query.filters.date, scope.timeZone),
            categories: categoriesOf(query),
            sort: { field: 'date', descending: false },
            limit: 1,
            offset: 0,
          })
        ).numberOfResults,
    });
  };
  routes.post(`${m}/:accountNumber/statements/:kind/reports`, statementReport(kindParam));
  routes.post(
    `${m}/:accountNumber/costs/reports`,
    statementReport(() => 'costs'),
  );

  function transferWhere(accountNumber: string, query: ParsedListQuery, timeZone: string): SQL | undefined {
    const period = periodOf(query.filters.date, timeZone);
    return and(
      eq(ledgerTransfers.accountNumber, accountNumber),
      period.start ? gte(ledgerTransfers.transferDate, period.start) : undefined,
      period.end ? lte(ledgerTransfers.transferDate, period.end) : undefined,
    );
  }
  async function transferPage(c: Context<AppEnv>, accountNumber: string, timeZone: string) {
    const query = parseListRequest(singleValuedQuery(c), transferListSpec);
    const where = transferWhere(accountNumber, query, timeZone);
    const sort = query.sort[0] ?? { field: 'date', descending: true };
    const order = sort.descending ? desc : asc;
    const [total] = await db.select({ value: count() }).from(ledgerTransfers).where(where);
    const rows = await db
      .select()
      .from(ledgerTransfers)
      .where(where)
      .orderBy(order(sort.field === 'amount' ? ledgerTransfers.amountMinor : ledgerTransfers.transferDate), order(ledgerTransfers.id))
      .limit(query.pageSize)
      .offset((query.pageNumber - 1) * query.pageSize);
    return { results: rows.map(transferOut), numberOfResults: Number(total?.value ?? 0) };
  }
  const countTransfers = (accountNumber: string, timeZone: string) => async (query: ParsedListQuery) => {
    const [total] = await db
      .select({ value: count() })
      .from(ledgerTransfers)
      .where(transferWhere(accountNumber, query, timeZone));
    return Number(total?.value ?? 0);
  };

  routes.get(`${m}/:accountNumber/transfers`, async (c) => {
    const { scope, group } = await merchantGroup(c, ['Mapi.MerchantAccountGroups.Read']);
    return c.json(await transferPage(c, group.accountNumber, scope.timeZone));
  });
  routes.post(`${m}/:accountNumber/transfers/reports`, async (c) => {
    const { scope, group } = await merchantGroup(c, ['Mapi.MerchantAccountGroups.Read', 'Portal.Reports.Create']);
    return queueReport(c, {
      reportType: 'transfers',
      context: merchantContext(scope),
      filters: { accountNumber: group.accountNumber },
      spec: transferListSpec,
      countRows: countTransfers(group.accountNumber, scope.timeZone),
    });
  });

  /** Batches of the date filter's days: a batch is a business day, so the filter is read in the business's zone. */
  function batchWhere(accountNumber: string, query: ParsedListQuery, timeZone: string): SQL | undefined {
    const period = periodOf(query.filters.date, timeZone);
    const status = query.filters.status?.[0]?.value;
    return and(
      eq(settlementBatches.accountNumber, accountNumber),
      period.start ? gte(settlementBatches.batchStart, dayOf(period.start, timeZone).start) : undefined,
      period.end ? lte(settlementBatches.batchStart, period.end) : undefined,
      status && status.toLowerCase() !== 'any' ? eq(settlementBatches.status, status.toLowerCase() === 'open' ? 'Open' : 'Closed') : undefined,
    );
  }
  const countBatches = (accountNumber: string, timeZone: string) => async (query: ParsedListQuery) => {
    const [total] = await db
      .select({ value: count() })
      .from(settlementBatches)
      .where(batchWhere(accountNumber, query, timeZone));
    return Number(total?.value ?? 0);
  };

  routes.get(`${m}/:accountNumber/batches`, async (c) => {
    const { scope, group } = await merchantGroup(c, ['Mapi.MerchantAccountGroups.Read']);
    const query = parseListRequest(singleValuedQuery(c), batchListSpec);
    const where = batchWhere(group.accountNumber, query, scope.timeZone);
    const sort = query.sort[0] ?? { field: 'date', descending: true };
    const order = sort.descending ? desc : asc;
    const key = sort.field === 'net' ? settlementBatches.netMinor : sort.field === 'sales' ? settlementBatches.salesMinor : settlementBatches.batchStart;
    const [total] = await db.select({ value: count() }).from(settlementBatches).where(where);
    const rows = await db
      .select()
      .from(settlementBatches)
      .where(where)
      .orderBy(order(key), order(settlementBatches.id))
      .limit(query.pageSize)
      .offset((query.pageNumber - 1) * query.pageSize);
    return c.json({ results: rows.map((row) => batchOut(row, scope.grossSettlement)), numberOfResults: Number(total?.value ?? 0) });
  });
  routes.post(`${m}/:accountNumber/batches/reports`, async (c) => {
    const { scope, group } = await merchantGroup(c, ['Mapi.MerchantAccountGroups.Read', 'Portal.Reports.Create']);
    return queueReport(c, {
      reportType: 'settlementBatchOverview',
      context: merchantContext(scope),
      filters: { accountNumber: group.accountNumber },
      spec: batchListSpec,
      countRows: countBatches(group.accountNumber, scope.timeZone),
    });
  });

  async function findBatch(c: Context<AppEnv>, accountNumber: string) {
    const batchId = c.req.param('batchId') ?? '';
    if (!batchIdPattern.test(batchId)) throw notFound();
    const [batch] = await db
      .select()
      .from(settlementBatches)
      .where(and(eq(settlementBatches.id, batchId), eq(settlementBatches.accountNumber, accountNumber)));
    if (!batch) throw notFound();
    return batch;
  }

  routes.get(`${m}/:accountNumber/batches/:batchId`, async (c) => {
    const { scope, group } = await merchantGroup(c, ['Mapi.MerchantAccountGroups.Read']);
    const batch = await findBatch(c, group.accountNumber);
    const query = parseListRequest(singleValuedQuery(c), { ...movementListSpec, filters: { category: movementListSpec.filters.category as never } });
    const movements = await batchMovements(db, batch.id, groupAccountId(group.accountNumber, 'trading'), query);
    return c.json({ ...batchOut(batch, scope.grossSettlement), results: movements.rows.map(movementOut(group.currency)), numberOfResults: movements.total });
  });
  routes.post(`${m}/:accountNumber/batches/:batchId/reports`, async (c) => {
    const { scope, group } = await merchantGroup(c, ['Mapi.MerchantAccountGroups.Read', 'Portal.Reports.Create']);
    const batch = await findBatch(c, group.accountNumber);
    return queueReport(c, {
      reportType: 'batchDetail',
      context: merchantContext(scope),
      filters: { accountNumber: group.accountNumber, batchId: batch.id },
      spec: { ...movementListSpec, filters: { category: movementListSpec.filters.category as never } },
      countRows: async (query) =>
        (await batchMovements(db, batch.id, groupAccountId(group.accountNumber, 'trading'), { ...query, pageSize: 1, pageNumber: 1 })).total,
    });
  });

  // Settlement details (reports/settlement-details.ts): one row per transaction of a batch, or of a period's batches.
  const settlementDetailsFiles = { allowed: settlementDetailsFileTypes, message: settlementDetailsFileTypeMessage };
  /** This month in the caller's zone: the month report's period when the request names none. */
  const thisMonth = (timeZone: string): Record<string, string> => {
    const today = calendarDate(now(), timeZone);
    const first = `${today.slice(0, 7)}-01`;
    const date = encodeDateRange({ start: first, end: addDays(`${addDays(first, 32).slice(0, 7)}-01`, -1) });
    return date ? { date } : {};
  };
  routes.post(`${m}/:accountNumber/settlement-details/reports`, async (c) => {
    const { scope, group } = await merchantGroup(c, ['Mapi.MerchantAccountGroups.Read', 'Portal.Reports.Create']);
    return queueReport(c, {
      reportType: 'settlementDetails',
      context: merchantContext(scope),
      filters: { accountNumber: group.accountNumber },
      spec: batchListSpec,
      fileTypes: settlementDetailsFiles,
      defaultFilters: thisMonth,
      countRows: async (query) => {
        const period = periodOf(query.filters.date, scope.timeZone);
        if (!period.start || !period.end) throw badRequest('Settlement details cover a period with a first and a last day (a month, for instance).');
        if (period.end.getTime() - period.start.getTime() > maxSettlementDetailsDays * 86_400_000) {
          throw badRequest(`Settlement details cover ${maxSettlementDetailsDays} days at most; choose a month or a shorter period.`);
        }
        return countSettlementDetails(db, await settlementDetailBatches(db, group.accountNumber, period));
      },
    });
  });
  routes.post(`${m}/:accountNumber/batches/:batchId/settlement-details/reports`, async (c) => {
    const { scope, group } = await merchantGroup(c, ['Mapi.MerchantAccountGroups.Read', 'Portal.Reports.Create']);
    const batch = await findBatch(c, group.accountNumber);
    return queueReport(c, {
      reportType: 'settlementDetails',
      context: merchantContext(scope),
      filters: { accountNumber: group.accountNumber, batchId: batch.id },
      spec: { filters: {}, sortable: [], defaultSort: [] },
      fileTypes: settlementDetailsFiles,
      countRows: async () => countSettlementDetails(db, [batch]),
    });
  });

  // ── business account groups ──
  async function businessScope(c: Context<AppEnv>, permissions: readonly PermissionName[]) {
    const businessId = c.req.param('businessId');
    if (blankId(businessId)) throw badRequest(businessIdRequiredMessage);
    const resolved = await resolveContext(database, c.get('principal'), businessId as string);
    if (!resolved) throw notFound();
    for (const permission of permissions) requirePermission(resolved.permissions, permission);
    return resolved.business;
  }
  async function businessGroup(c: Context<AppEnv>, permissions: readonly PermissionName[]) {
    const businessId = c.req.param('businessId');
    const accountNumber = c.req.param('accountNumber');
    if (blankId(businessId)) throw badRequest(accountNumberRequiredMessage);
    const business = await businessScope(c, permissions);
    if (!accountNumber?.trim() || accountNumber === 'undefined' || accountNumber === 'null') throw badRequest(accountNumberRequiredMessage);
    if (!accountNumberPattern.test(accountNumber)) throw notFound();
    const [group] = await db
      .select()
      .from(businessAccountGroups)
      .where(and(eq(businessAccountGroups.accountNumber, accountNumber), eq(businessAccountGroups.businessId, business.id)));
    if (!group) throw notFound();
    return { business, group };
  }
  async function businessGroupOut(business: typeof businesses.$inferSelect, group: typeof businessAccountGroups.$inferSelect, balance: number) {
    const linked = await db
      .select({ accountNumber: merchantAccountGroups.accountNumber, merchantId: merchants.id, merchantName: merchants.name })
      .from(merchantAccountGroups)
      .innerJoin(merchants, eq(merchants.id, merchantAccountGroups.merchantId))
      .where(and(eq(merchantAccountGroups.businessId, business.id), eq(merchantAccountGroups.currency, group.currency)))
      .orderBy(asc(merchants.name));
    return {
      accountNumber: group.accountNumber,
      businessId: business.id,
      businessName: business.name,
      currency: group.currency,
      balance: toMajorUnits(balance, group.currency),
      merchantAccounts: linked,
    };
  }
  const businessContext = (business: typeof businesses.$inferSelect) => ({
    level: 'business' as const,
    businessId: business.id,
    title: business.name,
    timeZone: business.timeZone,
  });

  routes.get(b, async (c) => {
    const business = await businessScope(c, ['Mapi.BagsExternal.Read']);
    // Only a business with automatic remittance off has business account groups.
    const groups = business.camAutoRemittance
      ? []
      : await db
          .select()
          .from(businessAccountGroups)
          .where(eq(businessAccountGroups.businessId, business.id))
          .orderBy(asc(businessAccountGroups.accountNumber));
    const balances = await balancesOf(
      db,
      groups.map((group) => groupAccountId(group.accountNumber, 'business')),
      new Date(),
    );
    const results = await Promise.all(
      groups.map((group) => businessGroupOut(business, group, balances.get(groupAccountId(group.accountNumber, 'business')) ?? 0)),
    );
    return c.json({ results, numberOfResults: results.length });
  });
  routes.get(`${b}/:accountNumber`, async (c) => {
    const { business, group } = await businessGroup(c, ['Mapi.BagsExternal.Read']);
    const balances = await balancesOf(db, [groupAccountId(group.accountNumber, 'business')], new Date());
    return c.json(await businessGroupOut(business, group, balances.get(groupAccountId(group.accountNumber, 'business')) ?? 0));
  });
  routes.get(`${b}/:accountNumber/statement`, async (c) => {
    const { business, group } = await businessGroup(c, ['Mapi.BagsExternal.Read']);
    return c.json(await statementAnswer(c, group.accountNumber, 'business', group.currency, business.timeZone));
  });
  routes.get(`${b}/:accountNumber/statement/balances`, async (c) => {
    const { business, group } = await businessGroup(c, ['Mapi.BagsExternal.Read']);
    return c.json(await dailyBalancesAnswer(c, group.accountNumber, 'business', group.currency, business.timeZone));
  });
  routes.get(`${b}/:accountNumber/statement/camt053`, async (c) => {
    const { business, group } = await businessGroup(c, ['Mapi.BagsExternal.Read']);
    return camt053Answer(c, group.accountNumber, 'business', group.currency, business.name, business.timeZone);
  });
  routes.post(`${b}/:accountNumber/statement/reports`, async (c) => {
    const { business, group } = await businessGroup(c, ['Mapi.BagsExternal.Read', 'Portal.Reports.Create']);
    return queueReport(c, {
      reportType: 'businessAccount',
      context: businessContext(business),
      filters: { accountNumber: group.accountNumber, kind: 'business' },
      spec: movementListSpec,
      countRows: async (query) =>
        (
          await readStatement(db, {
            accountId: groupAccountId(group.accountNumber, 'business'),
            period: periodOf(query.filters.date, business.timeZone),
            categories: categoriesOf(query),
            sort: { field: 'date', descending: false },
            limit: 1,
            offset: 0,
          })
        ).numberOfResults,
    });
  });

  async function remittanceOut(group: typeof businessAccountGroups.$inferSelect): Promise<Remittance> {
    const [settings] = await db.select().from(remittanceSettings).where(eq(remittanceSettings.accountNumber, group.accountNumber));
    if (!settings) throw notFound();
    const linked = await db
      .select({ accountNumber: merchantAccountGroups.accountNumber })
      .from(merchantAccountGroups)
      .where(and(eq(merchantAccountGroups.businessId, group.businessId), eq(merchantAccountGroups.currency, group.currency)))
      .orderBy(asc(merchantAccountGroups.accountNumber));
    return {
      accountNumber: settings.accountNumber,
      frequency: settings.frequency,
      dayOfPeriod: settings.dayOfPeriod,
      startDate: settings.startDate,
      nextPaymentDate: settings.nextPaymentDate,
      nextScheduleDate: settings.nextScheduleDate,
      beneficiary: settings.beneficiary,
      ibanMasked: settings.ibanMasked,
      version: settings.version,
      merchantAccounts: linked.map((row) => row.accountNumber),
    };
  }
  routes.get(`${b}/:accountNumber/remittance`, async (c) => {
    const { group } = await businessGroup(c, ['Mapi.BagsExternal.Read']);
    return c.json(await remittanceOut(group));
  });
  routes.post(`${b}/:accountNumber/remittance`, async (c) => {
    const { business, group } = await businessGroup(c, ['Mapi.BagsExternal.Read', 'Portal.Settings.Update']);
    const body = await readBody(c, remittanceUpdateBody);
    const beneficiary = body.beneficiary;
    const person = beneficiary.givenName !== undefined || beneficiary.familyName !== undefined || beneficiary.dateOfBirth !== undefined;
    if (beneficiary.companyName !== undefined && person)
      throw badRequest('The beneficiary is a company (companyName) or a person (givenName, familyName, dateOfBirth), not both.');
    if (beneficiary.companyName === undefined && !(beneficiary.givenName && beneficiary.familyName && beneficiary.dateOfBirth)) {
      throw badRequest('The beneficiary needs a companyName, or a givenName, familyName and dateOfBirth.');
    }
    if (beneficiary.dateOfBirth !== undefined) {
      const born = Date.parse(`${beneficiary.dateOfBirth}T00:00:00Z`);
      if (Number.isNaN(born) || new Date(born).toISOString().slice(0, 10) !== beneficiary.dateOfBirth) throw badRequest('Date of birth is invalid');
      if (born > Date.now()) throw badRequest('Date of birth is in the future');
    }
    if (body.frequency === 'weekly' && body.dayOfPeriod > 7) throw badRequest('Day of the week should be between 1 and 7');
    const start = Date.parse(`${body.startDate}T00:00:00Z`);
    if (Number.isNaN(start) || new Date(start).toISOString().slice(0, 10) !== body.startDate) throw badRequest('Start date is invalid');
    const schedule = { frequency: body.frequency, dayOfPeriod: body.frequency === 'daily' ? 1 : body.dayOfPeriod };
    const today = new Date().toISOString().slice(0, 10);
    const fromDay = body.startDate > today ? new Date(start - 86_400_000).toISOString().slice(0, 10) : today;
    const [nextPaymentDate, nextScheduleDate] = nextScheduleDates(schedule, fromDay);
    await db.transaction(async (tx) => {
      const [updated] = await tx
        .update(remittanceSettings)
        .set({
          frequency: schedule.frequency,
          dayOfPeriod: schedule.dayOfPeriod,
          startDate: body.startDate,
          nextPaymentDate,
          nextScheduleDate,
          beneficiary,
          version: sql`${remittanceSettings.version} + 1`,
          updatedAt: new Date(),
        })
        .where(and(eq(remittanceSettings.accountNumber, group.accountNumber), eq(remittanceSettings.version, body.version)))
        .returning({ version: remittanceSettings.version });
      if (!updated) {
        const [exists] = await tx
          .select({ version: remittanceSettings.version })
          .from(remittanceSettings)
          .where(eq(remittanceSettings.accountNumber, group.accountNumber));
        if (!exists) throw notFound();
        throw conflict();
      }
      await recordAudit(
        tx,
        c.get('principal'),
        'RemittanceSettingsChanged',
        { businessId: business.id, merchantId: null },
        {
          accountNumber: group.accountNumber,
          frequency: schedule.frequency,
          dayOfPeriod: schedule.dayOfPeriod,
          startDate: body.startDate,
          version: updated.version,
        },
      );
    });
    return c.json(await remittanceOut(group));
  });
  routes.get(`${b}/:accountNumber/transfers`, async (c) => {
    const { business, group } = await businessGroup(c, ['Mapi.BagsExternal.Read']);
    return c.json(await transferPage(c, group.accountNumber, business.timeZone));
  });
  // A business transfer and the payouts it pays: the merchant batches' payouts (and any other entry but transfers)
  // that reached the business account from the group's transfer before it (payBusinessRemittances pays the balance
  // of its day, so those are exactly what it pays) up to its own date. carriedOver is what the account held beyond
  // them, so the payouts and it always sum to the transfer.
  routes.get(`${b}/:accountNumber/transfers/:transferId`, async (c) => {
    const { group } = await businessGroup(c, ['Mapi.BagsExternal.Read']);
    const transferId = c.req.param('transferId') ?? '';
    if (!/^R[A-Za-z0-9]{6,40}-[0-9]{8}$/.test(transferId)) throw notFound();
    const [transfer] = await db
      .select()
      .from(ledgerTransfers)
      .where(and(eq(ledgerTransfers.id, transferId), eq(ledgerTransfers.accountNumber, group.accountNumber), eq(ledgerTransfers.groupKind, 'business')));
    if (!transfer) throw notFound();
    const [previous] = await db
      .select({ at: ledgerTransfers.transferDate })
      .from(ledgerTransfers)
      .where(
        and(
          eq(ledgerTransfers.accountNumber, group.accountNumber),
          eq(ledgerTransfers.groupKind, 'business'),
          sql`${ledgerTransfers.transferDate} < ${transfer.transferDate}`,
        ),
      )
      .orderBy(desc(ledgerTransfers.transferDate))
      .limit(1);
    const e = ledgerEntries;
    const rows = await db
      .select({
        postingId: e.postingId,
        category: e.category,
        batchId: e.batchId,
        merchantId: e.merchantId,
        valueAt: e.valueAt,
        amountMinor: e.amountMinor,
        merchantName: merchants.name,
        merchantAccountNumber: settlementBatches.accountNumber,
        batchStart: settlementBatches.batchStart,
      })
      .from(e)
      .leftJoin(settlementBatches, eq(settlementBatches.id, e.batchId))
      .leftJoin(merchants, eq(merchants.id, e.merchantId))
      .where(
        and(
          eq(e.accountId, groupAccountId(group.accountNumber, 'business')),
          sql`${e.category} <> 'transfer'`,
          previous ? gte(e.valueAt, previous.at) : undefined,
          sql`${e.valueAt} < ${transfer.transferDate}`,
        ),
      )
      .orderBy(asc(e.valueAt), asc(e.id));
    const payoutsMinor = rows.reduce((sum, row) => sum + Number(row.amountMinor), 0);
    const major = (minor: number) => toMajorUnits(minor, transfer.currency);
    const body: TransferDetail = {
      ...transferOut(transfer),
      businessId: transfer.businessId,
      remittanceText: remittanceText({ id: transfer.id, businessId: transfer.businessId, transferDate: transfer.transferDate }),
      periodStart: previous?.at.toISOString() ?? null,
      payouts: rows.map((row) => ({
        postingId: row.postingId,
        category: row.category,
        batchId: row.batchId,
        merchantId: row.merchantId,
        merchantName: row.merchantName ?? null,
        merchantAccountNumber: row.merchantAccountNumber ?? null,
        batchDate: row.batchStart?.toISOString() ?? null,
        valueDate: row.valueAt.toISOString(),
        amount: major(Number(row.amountMinor)),
      })),
      payoutsTotal: major(payoutsMinor),
      carriedOver: major(transfer.amountMinor - payoutsMinor),
    };
    return c.json(body);
  });
  routes.post(`${b}/:accountNumber/transfers/reports`, async (c) => {
    const { business, group } = await businessGroup(c, ['Mapi.BagsExternal.Read', 'Portal.Reports.Create']);
    return queueReport(c, {
      reportType: 'transfers',
      context: businessContext(business),
      filters: { accountNumber: group.accountNumber },
      spec: transferListSpec,
      countRows: countTransfers(group.accountNumber, business.timeZone),
    });
  });

  // ── the provider's own accounts (internal users) ──
  routes.get('/ledger/internal-accounts', async (c) => {
    requirePermission(permissionsIn(c.get('principal'), {}), 'Mapi.InternalMerchantAccounts.Read');
    const accounts = await db
      .select()
      .from(ledgerAccounts)
      .where(eq(ledgerAccounts.owner, 'provider'))
      .orderBy(asc(ledgerAccounts.currency), asc(ledgerAccounts.kind));
    const balances = await balancesOf(
      db,
      accounts.map((account) => account.id),
      new Date(),
    );
    const results = accounts.map((account) => ({
      accountId: account.id,
      kind: account.kind,
      currency: account.currency,
      balance: toMajorUnits(balances.get(account.id) ?? 0, account.currency),
    }));
    return c.json({ results, numberOfResults: results.length });
  });

  // ── pricing plan ──
  routes.get('/businesses/:businessId/pricing-plan', async (c) => {
    const business = await businessScope(c, ['Mapi.MerchantAccountPricingPlan.Read']);
    const plans = await db
      .select({ plan: pricingPlans, merchantName: merchants.name })
      .from(pricingPlans)
      .innerJoin(merchants, eq(merchants.id, pricingPlans.merchantId))
      .where(eq(pricingPlans.businessId, business.id))
      .orderBy(asc(merchants.name), asc(pricingPlans.currency));
    const rates =
      plans.length === 0
        ? []
        : await db
            .select()
            .from(pricingPlanRates)
            .innerJoin(merchants, eq(merchants.id, pricingPlanRates.merchantId))
            .where(eq(merchants.businessId, business.id))
            .orderBy(asc(pricingPlanRates.paymentMethod));
    const results = plans.map(({ plan, merchantName }) => ({
      merchantId: plan.merchantId,
      merchantName,
      currency: plan.currency,
      name: plan.name,
      monthlyMinimum: toMajorUnits(plan.monthlyMinimumMinor, plan.currency),
      validFrom: plan.validFrom.toISOString(),
      rates: rates
        .filter(({ pricing_plan_rates: rate }) => rate.merchantId === plan.merchantId && rate.currency === plan.currency)
        .map(({ pricing_plan_rates: rate }) => ({
          paymentMethod: rate.paymentMethod,
          percentage: rate.percentageBasisPoints / 100,
          fixedAmount: toMajorUnits(rate.fixedMinor, plan.currency),
        })),
    }));
    return c.json({ results, numberOfResults: results.length });
  });

  return routes;
}

/** Movements of a batch on its trading account, in date order, each with the batch's balance after it. */
export async function batchMovements(db: Db, batchId: string, tradingAccountId: string, query: Pick<ParsedListQuery, 'filters' | 'pageSize' | 'pageNumber'>) {
  const e = ledgerEntries;
  const categories = categoriesOf({ filters: query.filters } as ParsedListQuery);
  const where = and(eq(e.batchId, batchId), eq(e.accountId, tradingAccountId), categories.length > 0 ? inArray(e.category, categories) : undefined);
  const [total] = await db.select({ value: count() }).from(e).where(where);
  const running = db
    .select({
      id: e.id,
      valueAt: e.valueAt,
      category: e.category,
      amountMinor: e.amountMinor,
      transactionReference: e.transactionReference,
      batchId: e.batchId,
      postingId: e.postingId,
      runningBalanceMinor: sql<string>`sum(${e.amountMinor}) OVER (ORDER BY ${e.valueAt}, ${e.id})`.as('running_balance'),
    })
    .from(e)
    .where(where)
    .as('running');
  const rows = await db
    .select()
    .from(running)
    .orderBy(asc(running.valueAt), asc(running.id))
    .limit(query.pageSize)
    .offset((query.pageNumber - 1) * query.pageSize);
  return {
    total: Number(total?.value ?? 0),
    rows: rows.map((row): MovementRow => ({ ...row, amountMinor: Number(row.amountMinor), runningBalanceMinor: Number(row.runningBalanceMinor) })),
  };
}
