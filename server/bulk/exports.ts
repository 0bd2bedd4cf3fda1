// The export bulk action: a report in My report queue over the selection's filters (server/reports/). Queued once
// per job (the report id derives from the job id, so a retried attempt finds it). Payment jobs are exported by the
// report worker as report type 'payment-jobs', transactions as the existing 'transactions', tickets and users as
// 'tickets' and 'users' (the rows of each: server/reports/area-exports.ts); any of them may hold picked rows only.
import { eq } from 'drizzle-orm';
import type { BulkContext } from '../../src/contract/bulk-jobs.ts';
import { paymentJobColumns } from '../../src/contract/payment-jobs.ts';
import type { ReportContext } from '../../src/contract/report-schemas.ts';
import { defaultTransactionColumns, transactionColumns } from '../../src/contract/transactions.ts';
import { recordAudit } from '../audit/record.ts';
import type { Database, Db } from '../db/client.ts';
import { businesses, type bulkJobs, merchants, partners, queuedReports } from '../db/schema.ts';
import { insertQueuedReport } from '../reports/queue.ts';
import type { Principal } from '../policy/principal.ts';
import { SelectionRefused, type BulkScope } from '../reports/selection.ts';
import { reportFiltersOf } from '../reports/area-exports.ts';
import { ticketExportColumns } from '../../src/contract/tickets.ts';
import { userExportColumns } from '../../src/contract/users.ts';

export const bulkReportIdOf = (jobId: string) => `RPT${jobId.replace(/^BLK/, 'B')}`;

async function titleOf(db: Db, scope: BulkScope): Promise<string> {
  if (scope.level === 'all') return 'All users';
  if (scope.level === 'partner')
    return (await db.select({ name: partners.name }).from(partners).where(eq(partners.id, scope.partnerId)))[0]?.name ?? scope.partnerId;
  if (scope.level === 'merchant')
    return (await db.select({ name: merchants.name }).from(merchants).where(eq(merchants.id, scope.merchantId)))[0]?.name ?? scope.merchantId;
  return (await db.select({ name: businesses.name }).from(businesses).where(eq(businesses.id, scope.businessId)))[0]?.name ?? scope.businessId;
}

/** Queues (once) the job's report and returns its id. */
type BulkJobRow = typeof bulkJobs.$inferSelect;

export async function exportReportOf(
  database: Database,
  principal: Principal,
  job: BulkJobRow,
  scope: BulkScope,
  context: BulkContext & { timeZone: string },
): Promise<string> {
  const { db } = database;
  const reportId = bulkReportIdOf(job.id);
  const [existing] = await db.select({ id: queuedReports.id }).from(queuedReports).where(eq(queuedReports.id, reportId));
  if (existing) return reportId;
  // Every area may export picked rows: the picks travel in the report's filters (area-exports.ts pickKeys).
  if (scope.level === 'all' && job.area !== 'users') throw new SelectionRefused(`Bulk export of ${job.area} needs a business, merchant or partner.`);
  const params = job.params as { fileType?: 'csv' | 'xlsx'; columns?: string[] };
  const reportContext: ReportContext = { ...scope, title: await titleOf(db, scope), timeZone: context.timeZone };
  const all: Record<string, readonly string[]> = {
    transactions: transactionColumns,
    'payment-jobs': paymentJobColumns,
    tickets: ticketExportColumns,
    users: userExportColumns,
  };
  const known = all[job.area];
  if (!known) throw new SelectionRefused(`Exports of ${job.area} are not available yet.`);
  const chosen = [...new Set((params.columns ?? []).filter((column) => known.includes(column)))];
  const columns = chosen.length > 0 ? chosen : [...(job.area === 'transactions' ? defaultTransactionColumns : known)];
  const filters = reportFiltersOf({
    allMatching: job.allMatching,
    filters: job.filters as Record<string, string>,
    includedIds: job.includedIds,
    excludedIds: job.excludedIds,
  });
  try {
    await db.transaction(async (tx) => {
      await insertQueuedReport(tx as unknown as Db, {
        id: reportId,
        userId: principal.userId,
        reportType: job.area,
        fileType: params.fileType ?? 'csv',
        status: 'queued',
        context: reportContext,
        filters,
        ordering: null,
        columns,
        totalRows: job.area === 'transactions' ? null : job.totalItems,
        queuedAt: job.createdAt,
      });
      // Tickets and users carry people's words and addresses: who took which out is audited with the report.
      if (job.area === 'tickets' || job.area === 'users') {
        await recordAudit(
          tx,
          principal,
          'RecordsExported',
          { businessId: 'businessId' in scope ? scope.businessId : null, merchantId: 'merchantId' in scope ? scope.merchantId : null },
          { area: job.area, reportId, bulkJobId: job.id, context: reportContext.level, filters, rows: job.totalItems },
        );
      }
    });
  } catch (error) {
    if (error instanceof Error && 'status' in error) throw new SelectionRefused(error.message);
    throw error;
  }
  return reportId;
}
