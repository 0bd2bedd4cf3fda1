// The export bulk action: a report in My report queue over the selection's filters (server/reports/). Queued once
// per job (the report id derives from the job id, so a retried attempt finds it). Payment jobs are exported by the
// report worker as report type 'payment-jobs' (paymentJobExport below); transactions as the existing 'transactions';
// tickets and users as 'tickets' and 'users' (area-exports.ts), whose exports may also hold picked rows only.
import { and, asc, eq, gt, lte, sql } from 'drizzle-orm';
import type { BulkContext } from '../../src/contract/bulk-jobs.ts';
import { paymentJobColumnLabels, paymentJobColumns, paymentJobListSpec, type PaymentJobColumn } from '../../src/contract/payment-jobs.ts';
import { statusLabelOf } from '../../src/contract/payment-job-labels.ts';
import { parseListQuery } from '../../src/contract/list-query.ts';
import type { ReportContext } from '../../src/contract/report-schemas.ts';
import { currencyExponent, defaultTransactionColumns, toMajorUnits, transactionColumns } from '../../src/contract/transactions.ts';
import type { Database, Db } from '../db/client.ts';
import { auditEvents, businesses, type bulkJobs, merchants, partners, paymentJobs, queuedReports } from '../db/schema.ts';
import { jobScopeWhere, paymentJobResource, type PaymentJobScope } from '../api/payment-jobs.ts';
import { filterCondition, picksWhere } from '../http/list-sql.ts';
import { customerOf } from '../payments/payment-views.ts';
import { insertQueuedReport } from '../reports/queue.ts';
import type { ReportColumnSpec, ReportRow } from '../reports/writers.ts';
import type { Principal } from '../policy/principal.ts';
import { SelectionRefused, type BulkScope } from './areas.ts';
import { reportFiltersOf, splitReportFilters } from './area-exports.ts';
import { ticketExportColumns } from '../../src/contract/tickets.ts';
import { userExportColumns } from '../../src/contract/users.ts';

export const bulkReportIdOf = (jobId: string) => `RPT${jobId.replace(/^BLK/, 'B')}`;

async function titleOf(db: Db, scope: BulkScope): Promise<string> {
  if (scope.level === 'all') return 'All users';
  if (scope.level === 'partner') return (await db.select({ name: partners.name }).from(partners).where(eq(partners.id, scope.partnerId)))[0]?.name ?? scope.partnerId;
  if (scope.level === 'merchant') return (await db.select({ name: merchants.name }).from(merchants).where(eq(merchants.id, scope.merchantId)))[0]?.name ?? scope.merchantId;
  return (await db.select({ name: businesses.name }).from(businesses).where(eq(businesses.id, scope.businessId)))[0]?.name ?? scope.businessId;
}

/** Queues (once) the job's report and returns its id. */
type BulkJobRow = typeof bulkJobs.$inferSelect;

export async function exportReportOf(database: Database, principal: Principal, job: BulkJobRow, scope: BulkScope, context: BulkContext & { timeZone: string }): Promise<string> {
  const { db } = database;
  const reportId = bulkReportIdOf(job.id);
  const [existing] = await db.select({ id: queuedReports.id }).from(queuedReports).where(eq(queuedReports.id, reportId));
  if (existing) return reportId;
  // Every area may export picked rows: the picks travel in the report's filters (area-exports.ts pickKeys).
  if (scope.level === 'all' && job.area !== 'users') throw new SelectionRefused(`Bulk export of ${job.area} needs a business, merchant or partner.`);
  const params = job.params as { fileType?: 'csv' | 'xlsx'; columns?: string[] };
  const reportContext: ReportContext = { ...scope, title: await titleOf(db, scope), timeZone: context.timeZone };
  const all: Record<string, readonly string[]> = { transactions: transactionColumns, 'payment-jobs': paymentJobColumns, tickets: ticketExportColumns, users: userExportColumns };
  const known = all[job.area];
  if (!known) throw new SelectionRefused(`Exports of ${job.area} are not available yet.`);
  const chosen = [...new Set((params.columns ?? []).filter((column) => known.includes(column)))];
  const columns = chosen.length > 0 ? chosen : [...(job.area === 'transactions' ? defaultTransactionColumns : known)];
  const filters = reportFiltersOf({ allMatching: job.allMatching, filters: job.filters as Record<string, string>, includedIds: job.includedIds, excludedIds: job.excludedIds });
  try {
    await db.transaction(async (tx) => {
      await insertQueuedReport(tx as unknown as Db, {
        id: reportId, userId: principal.userId, reportType: job.area, fileType: params.fileType ?? 'csv', status: 'queued',
        context: reportContext, filters, ordering: null, columns,
        totalRows: job.area === 'transactions' ? null : job.totalItems, queuedAt: job.createdAt,
      });
      // Tickets and users carry people's words and addresses: who took which out is audited with the report.
      if (job.area === 'tickets' || job.area === 'users') {
        await tx.insert(auditEvents).values({
          userId: principal.userId, event: 'RecordsExported', dateTimeUtc: new Date(),
          businessId: 'businessId' in scope ? scope.businessId : null, merchantId: 'merchantId' in scope ? scope.merchantId : null,
          metaData: { area: job.area, reportId, bulkJobId: job.id, context: reportContext.level, filters, rows: job.totalItems },
        });
      }
    });
  } catch (error) {
    if (error instanceof Error && 'status' in error) throw new SelectionRefused(error.message);
    throw error;
  }
  return reportId;
}

const j = paymentJobs;

export function paymentJobExportSpecs(columns: readonly PaymentJobColumn[], timeZone: string): ReportColumnSpec[] {
  return columns.map((column) => ({
    header: column.endsWith('DateTimeUtc') ? `${paymentJobColumnLabels[column]} (${timeZone})` : paymentJobColumnLabels[column],
    kind: column === 'amount' ? 'decimal' : column.endsWith('DateTimeUtc') ? 'datetime' : 'text',
  }));
}

const localTime = (value: Date | null, timeZone: string) => (value === null ? null
  : new Intl.DateTimeFormat('sv-SE', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit' }).format(value));

/** Payment jobs of a scope and filters, keyset by reference, as file rows; only jobs that existed at asOf. */
export async function* paymentJobExportBatches(db: Db, options: {
  scope: PaymentJobScope; filters: Record<string, string>; columns: readonly PaymentJobColumn[]; timeZone: string; asOf: Date; batchSize: number;
}): AsyncGenerator<ReportRow[]> {
  const { filters, picks } = splitReportFilters(options.filters);
  const parsed = parseListQuery(filters, paymentJobListSpec);
  if (!parsed.ok) throw new SelectionRefused(`The report's filters are no longer valid: ${parsed.errors.join('; ')}`);
  const where = and(jobScopeWhere(options.scope), filterCondition(paymentJobResource, parsed.query.filters, options.timeZone), picksWhere(j.reference, picks), lte(j.createDateTimeUtc, options.asOf));
  let cursor: string | null = null;
  for (;;) {
    const rows = await db.select({
      job: j, merchantName: merchants.name,
      paymentMethod: sql<string | null>`(SELECT t.payment_method FROM transactions t WHERE t.payment_job_reference = ${j.reference} AND t.kind = 'payment' ORDER BY t.created_at DESC LIMIT 1)`,
    }).from(j).innerJoin(merchants, eq(merchants.id, j.merchantId)).where(cursor === null ? where : and(where, gt(j.reference, cursor)))
      .orderBy(asc(j.reference)).limit(options.batchSize);
    if (rows.length === 0) return;
    cursor = rows[rows.length - 1]?.job.reference ?? null;
    yield rows.map(({ job, merchantName, paymentMethod }) => {
      const order = (job.order ?? {}) as Parameters<typeof customerOf>[0];
      const cell: Record<PaymentJobColumn, string | null> = {
        createDateTimeUtc: localTime(job.createDateTimeUtc, options.timeZone), reference: job.reference, orderNumber: job.orderNumber,
        customer: customerOf(order), emailAddress: order.billingIdentity?.emailAddress ?? null,
        amount: toMajorUnits(job.amountMinor, job.currency).toFixed(currencyExponent(job.currency)),
        currency: job.currency, status: statusLabelOf('payment', job.status), paymentMethod, merchant: merchantName, configurationId: job.configurationId,
        paidDateTimeUtc: localTime(job.paidDateTimeUtc, options.timeZone), expirationDateTimeUtc: localTime(job.expirationDateTimeUtc, options.timeZone),
      };
      return options.columns.map((column) => cell[column]);
    });
  }
}
