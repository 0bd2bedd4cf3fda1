// The ledger's reports in the report queue: account statements (trading, reserve, security, remittance, invoice,
// costs, business account), the settlement batch overview, a batch's detail and transfers, as CSV, XLSX or PDF.
// Access is checked again when the worker runs (the user's grants may have changed since queueing). Rows are read in
// keyset batches (value date, id), so a statement of any length streams.
import { and, asc, eq, gt, gte, lte, or, sql, type SQL } from 'drizzle-orm';
import { TZDate } from '@date-fns/tz';
import { format } from 'date-fns';
import {
  statementAccountKindOfReport,
  accountKindLabels,
  camtOnlyForStatementsMessage,
  entryCategories,
  entryCategoryLabels,
  ledgerReportTypes,
  type EntryCategory,
  type LedgerReportType,
  type StatementAccountKind,
} from '../../src/contract/ledger.ts';
import type { PermissionName } from '../../src/contract/permissions.ts';
import type { ReportContext } from '../../src/contract/report-schemas.ts';
import { currencyExponent } from '../../src/contract/transactions.ts';
import type { Database } from '../db/client.ts';
import { businessAccountGroups, ledgerEntries, ledgerTransfers, merchantAccountGroups, settlementBatches } from '../db/schema.ts';
import { camt053Statement } from '../ledger/camt053.ts';
import { batchNetMinor } from '../ledger/close-batches.ts';
import { groupAccountId } from '../ledger/post-transactions.ts';
import { invoiceAccountInUse, readStatement } from '../ledger/statement.ts';
import { resolveContext, type Principal } from '../policy/principal.ts';
import type { PdfHeading, PdfSummary } from './pdf-statement.ts';
import type { ReportRow as QueuedReportRow } from './queue.ts';
import { minorUnitsToDecimal, wallClock } from './transaction-export.ts';
import type { ReportColumnSpec, ReportRow } from './writers.ts';
import { openSettlementDetails } from './settlement-details.ts';

/** How a batch's net reads: what a closed batch paid out, or an open batch's net so far, not yet paid out. */
const netLabel = (status: 'Open' | 'Closed') => (status === 'Closed' ? 'Net paid out' : 'Net so far (not yet paid out)');

export const isLedgerReportType = (reportType: string): reportType is LedgerReportType => Object.hasOwn(ledgerReportTypes, reportType);

export type LedgerReport = {
  columns: ReportColumnSpec[];
  sheetName: string;
  heading: PdfHeading;
  batches: AsyncGenerator<ReportRow[]>;
  /** known once every batch has been read (totals of a statement) */
  summary: () => PdfSummary | null;
};

const day = (instant: Date | null, timeZone: string) => (instant ? format(new TZDate(instant.getTime(), timeZone), 'd MMMM yyyy') : null);

function periodText(start: Date | null, end: Date | null, timeZone: string): string {
  const from = day(start, timeZone) ?? 'the first entry';
  const to = day(end, timeZone) ?? 'the last entry';
  return `${from} to ${to} (${timeZone})`;
}

type LedgerReportAccess = { accountNumber: string; currency: string; holder: string; kind: StatementAccountKind | undefined; grossSettlement: boolean };

/** Whether the report's owner still reads its account group, and the group's currency and holder; else a refusal. */
async function ledgerReportAccess(database: Database, principal: Principal, report: QueuedReportRow): Promise<LedgerReportAccess | string> {
  const { db } = database;
  const context = report.context as ReportContext;
  const filters = report.filters as Record<string, string>;
  const reportType = report.reportType as LedgerReportType;
  const accountNumber = filters.accountNumber ?? '';
  const kind = statementAccountKindOfReport[reportType];
  const needed: PermissionName[] = context.level === 'business' ? ['Mapi.BagsExternal.Read'] : ['Mapi.MerchantAccountGroups.Read'];
  if (kind === 'costs') needed.push('Mapi.GatewayFees.Read');
  const resolved = await resolveContext(database, principal, context.businessId ?? '', context.level === 'merchant' ? (context.merchantId ?? '') : undefined);
  if (!resolved || needed.some((permission) => !resolved.permissions.has(permission))) return 'You do not have the correct permissions.';
  if (context.level === 'business') {
    const [group] = await db
      .select()
      .from(businessAccountGroups)
      .where(and(eq(businessAccountGroups.accountNumber, accountNumber), eq(businessAccountGroups.businessId, resolved.business.id)));
    if (!group) return 'The account group no longer exists.';
    return { accountNumber, currency: group.currency, holder: resolved.business.name, kind, grossSettlement: false };
  }
  const [group] = await db
    .select()
    .from(merchantAccountGroups)
    .where(and(eq(merchantAccountGroups.accountNumber, accountNumber), eq(merchantAccountGroups.merchantId, resolved.merchant?.id ?? '')));
  if (!group) return 'The account group no longer exists.';
  if (kind === 'invoice' && !(await invoiceAccountInUse(db, resolved.merchant?.grossSettlement ?? false, group.accountNumber)))
    return "The merchant's invoice account is not in use.";
  return {
    accountNumber,
    currency: group.currency,
    holder: `${resolved.merchant?.name ?? ''} (${resolved.business.name})`,
    kind,
    grossSettlement: resolved.merchant?.grossSettlement ?? false,
  };
}

/**
 * An account statement as ISO 20022 camt.053.001.08 XML (file type 'xml'), in pieces as it is read; the pieces end
 * with the reconciliation check of camt053Statement. Only statements: other report types are refused.
 */
export async function openCamtReport(database: Database, principal: Principal, report: QueuedReportRow): Promise<AsyncGenerator<string> | string> {
  const access = await ledgerReportAccess(database, principal, report);
  if (typeof access === 'string') return access;
  if (!access.kind) return camtOnlyForStatementsMessage;
  return camt053Statement(database.db, {
    accountId: groupAccountId(access.accountNumber, access.kind),
    accountNumber: access.accountNumber,
    kind: access.kind,
    currency: access.currency,
    holder: access.holder,
    period: { start: report.startDate, end: report.endDate },
    createdAt: report.queuedAt,
  });
}

/** The report's rows and headings, or a refusal that no retry can cure. */
export async function openLedgerReport(database: Database, principal: Principal, report: QueuedReportRow, batchSize: number): Promise<LedgerReport | string> {
  const { db } = database;
  const context = report.context as ReportContext;
  const filters = report.filters as Record<string, string>;
  const reportType = report.reportType as LedgerReportType;
  const timeZone = context.timeZone;
  const access = await ledgerReportAccess(database, principal, report);
  if (typeof access === 'string') return access;
  const { accountNumber, currency, holder, kind, grossSettlement } = access;
  const exponent = currencyExponent(currency);
  const money = (minor: number) => minorUnitsToDecimal(minor, exponent);
  const start = report.startDate;
  const end = report.endDate;
  const heading = (title: string, lines: string[] = []): PdfHeading => ({
    title,
    holder,
    accountNumber,
    currency,
    period: periodText(start, end, timeZone),
    lines,
  });
  if (reportType === 'settlementDetails') {
    return openSettlementDetails(
      db,
      { accountNumber, currency, fileType: report.fileType, filters, start, end, timeZone, batchSize },
      heading('Settlement details'),
    );
  }

  if (kind || reportType === 'batchDetail') {
    const accountId = groupAccountId(accountNumber, kind ?? 'trading');
    const batchId = reportType === 'batchDetail' ? (filters.batchId ?? '') : null;
    const categories = (filters.category ?? '')
      .split('[and]')
      .map((part) => part.replace(/^\[eq\]/, ''))
      .filter((value): value is EntryCategory => (entryCategories as readonly string[]).includes(value));
    const statement =
      batchId === null ? await readStatement(db, { accountId, period: { start, end }, sort: { field: 'date', descending: false }, limit: 1, offset: 0 }) : null;
    const opening = statement?.openingBalanceMinor ?? 0;
    const title = batchId ? `Batch ${batchId}` : `${accountKindLabels[kind ?? 'trading']} statement`;
    // A batch's file ends with its net as the API answers it (batchNetMinor): paid out, or so far and not yet paid out.
    const [batch] =
      batchId === null
        ? []
        : await db
            .select()
            .from(settlementBatches)
            .where(and(eq(settlementBatches.id, batchId), eq(settlementBatches.accountNumber, accountNumber)));
    const batchNet = batch ? { label: netLabel(batch.status), minor: batchNetMinor(batch, grossSettlement) } : null;
    const columns: ReportColumnSpec[] = [
      { header: `Date (${timeZone})`, kind: 'datetime', width: 20 },
      { header: 'Category', kind: 'text', width: 22 },
      { header: 'Transaction', kind: 'text', width: 16 },
      { header: 'Batch', kind: 'text', width: 26 },
      { header: `Amount (${currency})`, kind: 'decimal', width: 14 },
      { header: `Balance (${currency})`, kind: 'decimal', width: 14 },
    ];
    const where: SQL | undefined = and(
      eq(ledgerEntries.accountId, accountId),
      batchId !== null ? eq(ledgerEntries.batchId, batchId) : undefined,
      batchId === null && start ? gte(ledgerEntries.valueAt, start) : undefined,
      batchId === null && end ? lte(ledgerEntries.valueAt, end) : undefined,
    );
    let running = opening;
    let closing = opening;
    const totals = new Map<string, number>();
    async function* batches(): AsyncGenerator<ReportRow[]> {
      yield [[null, 'Opening balance', null, null, null, money(opening)]];
      let after: { valueAt: string; id: number } | null = null;
      // Keyset on the row (value_at, id): read on from the last entry through the account's index.
      for (;;) {
        const rows: {
          id: number;
          valueAt: Date;
          valueAtExact: string;
          category: string;
          amountMinor: number;
          transactionReference: string | null;
          batchId: string | null;
        }[] = await db
          .select({
            id: ledgerEntries.id,
            valueAt: ledgerEntries.valueAt,
            valueAtExact: sql<string>`${ledgerEntries.valueAt}::text`,
            category: ledgerEntries.category,
            amountMinor: ledgerEntries.amountMinor,
            transactionReference: ledgerEntries.transactionReference,
            batchId: ledgerEntries.batchId,
          })
          .from(ledgerEntries)
          .where(and(where, after ? sql`(${ledgerEntries.valueAt}, ${ledgerEntries.id}) > (${after.valueAt}::timestamptz, ${after.id}::bigint)` : undefined))
          .orderBy(asc(ledgerEntries.valueAt), asc(ledgerEntries.id))
          .limit(batchSize);
        const out: ReportRow[] = [];
        for (const row of rows) {
          running += Number(row.amountMinor);
          totals.set(row.category, (totals.get(row.category) ?? 0) + Number(row.amountMinor));
          if (categories.length > 0 && !categories.includes(row.category as EntryCategory)) continue;
          out.push([
            wallClock(row.valueAt, timeZone),
            entryCategoryLabels[row.category as EntryCategory] ?? row.category,
            row.transactionReference,
            row.batchId,
            money(Number(row.amountMinor)),
            money(running),
          ]);
        }
        closing = running;
        if (out.length > 0) yield out;
        const last = rows[rows.length - 1];
        if (rows.length < batchSize || !last) break;
        after = { valueAt: last.valueAtExact, id: Number(last.id) };
      }
      yield [[null, 'Closing balance', null, null, null, money(closing)]];
      if (batchNet) yield [[null, batchNet.label, null, batchId, money(batchNet.minor), null]];
    }
    return {
      columns,
      sheetName: batchId ? 'Batch' : 'Statement',
      heading: heading(
        title,
        batchNet
          ? [`Status: ${batch?.status ?? ''}`, `${batchNet.label}: ${money(batchNet.minor)} ${currency}`]
          : batchId
            ? []
            : [`Opening balance: ${money(opening)} ${currency}`],
      ),
      batches: batches(),
      summary: () => ({
        heading: 'Totals',
        lines: [
          ['Opening balance', `${money(opening)} ${currency}`],
          ...entryCategories
            .filter((category) => totals.has(category))
            .map((category) => [entryCategoryLabels[category], `${money(totals.get(category) ?? 0)} ${currency}`] as const),
          ['Closing balance', `${money(closing)} ${currency}`],
          ...(batchNet ? [[batchNet.label, `${money(batchNet.minor)} ${currency}`] as const] : []),
        ],
      }),
    };
  }

  if (reportType === 'settlementBatchOverview') {
    const status = (filters.status ?? '').replace(/^\[eq\]/, '');
    const where = and(
      eq(settlementBatches.accountNumber, accountNumber),
      start ? gte(settlementBatches.batchStart, new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth(), start.getUTCDate()))) : undefined,
      end ? lte(settlementBatches.batchStart, end) : undefined,
      status === 'Open' || status === 'Closed' ? eq(settlementBatches.status, status) : undefined,
    );
    const sums = { sales: 0, net: 0, openNet: 0, fees: 0 };
    async function* batches(): AsyncGenerator<ReportRow[]> {
      let after: Date | null = null;
      for (;;) {
        const rows: (typeof settlementBatches.$inferSelect)[] = await db
          .select()
          .from(settlementBatches)
          .where(and(where, after ? gt(settlementBatches.batchStart, after) : undefined))
          .orderBy(asc(settlementBatches.batchStart))
          .limit(batchSize);
        if (rows.length > 0) {
          yield rows.map((row) => {
            // The net as the API states it: an open batch's is the net so far, labelled as not yet paid out.
            const net = batchNetMinor(row, grossSettlement);
            sums.sales += row.salesMinor;
            sums.fees += row.feesMinor;
            if (row.status === 'Closed') sums.net += net;
            else sums.openNet += net;
            return [
              row.id,
              format(new TZDate(row.batchStart.getTime(), 'UTC'), 'yyyy-MM-dd'),
              row.status,
              String(row.salesCount),
              money(row.salesMinor),
              money(row.refundsMinor),
              money(row.reversalsMinor),
              money(row.feesMinor),
              money(row.reserveMinor),
              money(net),
              netLabel(row.status),
            ];
          });
        }
        const last = rows[rows.length - 1];
        if (rows.length < batchSize || !last) break;
        after = last.batchStart;
      }
    }
    return {
      columns: ['Batch', 'Date (UTC)', 'Status', 'Sales count', 'Sales', 'Refunds', 'Reversals', 'Fees', 'Reserve', 'Net', 'Payout'].map((header, index) => ({
        header,
        kind: index >= 4 && index <= 9 ? ('decimal' as const) : ('text' as const),
        width: index === 0 ? 26 : index === 10 ? 26 : 12,
      })),
      sheetName: 'Batches',
      heading: heading('Settlement batch overview'),
      batches: batches(),
      summary: () => ({
        heading: 'Totals',
        lines: [
          ['Sales', `${money(sums.sales)} ${currency}`],
          ['Fees', `${money(sums.fees)} ${currency}`],
          ['Net paid out (closed batches)', `${money(sums.net)} ${currency}`],
          ['Net so far, not yet paid out (open batches)', `${money(sums.openNet)} ${currency}`],
        ],
      }),
    };
  }

  // transfers
  const where = and(
    eq(ledgerTransfers.accountNumber, accountNumber),
    start ? gte(ledgerTransfers.transferDate, start) : undefined,
    end ? lte(ledgerTransfers.transferDate, end) : undefined,
  );
  let total = 0;
  async function* transferBatches(): AsyncGenerator<ReportRow[]> {
    let after: { at: Date; id: string } | null = null;
    for (;;) {
      const rows: (typeof ledgerTransfers.$inferSelect)[] = await db
        .select()
        .from(ledgerTransfers)
        .where(
          and(
            where,
            after
              ? or(gt(ledgerTransfers.transferDate, after.at), and(eq(ledgerTransfers.transferDate, after.at), gt(ledgerTransfers.id, after.id)))
              : undefined,
          ),
        )
        .orderBy(asc(ledgerTransfers.transferDate), asc(ledgerTransfers.id))
        .limit(batchSize);
      if (rows.length > 0) {
        yield rows.map((row) => {
          total += row.amountMinor;
          return [
            row.id,
            wallClock(row.transferDate, timeZone),
            money(row.amountMinor),
            money(row.saleAmountMinor),
            wallClock(row.maturityDate, timeZone),
            row.batchId,
          ];
        });
      }
      const last = rows[rows.length - 1];
      if (rows.length < batchSize || !last) break;
      after = { at: last.transferDate, id: last.id };
    }
  }
  return {
    columns: [
      { header: 'Transfer', kind: 'text', width: 26 },
      { header: `Transfer date (${timeZone})`, kind: 'datetime', width: 20 },
      { header: `Amount (${currency})`, kind: 'decimal', width: 14 },
      { header: `Sale amount (${currency})`, kind: 'decimal', width: 14 },
      { header: `Maturity date (${timeZone})`, kind: 'datetime', width: 20 },
      { header: 'Batch', kind: 'text', width: 26 },
    ],
    sheetName: 'Transfers',
    heading: heading('Transfers'),
    batches: transferBatches(),
    summary: () => ({ heading: 'Totals', lines: [['Transferred', `${money(total)} ${currency}`]] }),
  };
}
