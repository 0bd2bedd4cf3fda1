// The rows of a transactions export, read in keyset batches along the same indexes as the overview: each batch is
// a short query that starts where the last one ended, so two million rows never sit in memory or in one statement.
import { TZDate } from '@date-fns/tz';
import { format } from 'date-fns';
import { and, asc, desc, eq, lte, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { SortKey } from '../../src/contract/list-query.ts';
import { currencyExponent, displayStatusOf, takesMoneyBack, toMajorUnits, transactionColumnLabels, type TransactionColumn } from '../../src/contract/transactions.ts';
import type { Db } from '../db/client.ts';
import { businesses, merchants, transactions } from '../db/schema.ts';
import { filterCondition, keysetAfter, orderByOf, type OrderKey, type Picks, picksWhere } from '../api/list-sql.ts';
import { merchantScopeWhere, refundedMinorOf, scopeWhere, transactionOrderKeys, transactionResource, type TransactionScope } from '../api/transactions.ts';
import type { FilterClause } from '../../src/contract/list-query.ts';
import type { ColumnKind, ReportColumnSpec, ReportRow } from './writers.ts';

const t = transactions;

const exportFields = {
  reference: t.reference,
  kind: t.kind,
  parentReference: t.parentReference,
  businessId: t.businessId,
  merchantId: t.merchantId,
  paymentJobReference: t.paymentJobReference,
  createdAt: t.createdAt,
  // Microseconds survive as text; a JS Date would round them and a keyset could skip or repeat a row.
  createdAtExact: sql<string>`${t.createdAt}::text`.as('created_at_exact'),
  amountMinor: t.amountMinor,
  amountMilli: t.amountMilli,
  currency: t.currency,
  status: t.status,
  paymentMethod: t.paymentMethod,
  channel: t.channel,
  ewalletType: t.ewalletType,
  cardMasked: t.cardMasked,
  declineReason: t.declineReason,
  customerEmail: t.customerEmail,
  merchantName: merchants.name,
  businessName: businesses.name,
  refundedMinor: refundedMinorOf(),
};

export type ExportRow = {
  reference: string; kind: string; parentReference: string | null; businessId: string; merchantId: string; paymentJobReference: string;
  createdAt: Date; createdAtExact: string; amountMinor: number; amountMilli: number; currency: string; status: string; paymentMethod: string; channel: string;
  ewalletType: string | null; cardMasked: string | null; declineReason: string | null; customerEmail: string | null; merchantName: string; businessName: string;
  /** a payment's paid refunds (minor units); 0 otherwise */
  refundedMinor?: number | string | null;
};

/** A refund's amount is negative in the file, as on screen. */
const signedMinor = (row: ExportRow) => (takesMoneyBack(row.kind) ? -Math.abs(row.amountMinor) : row.amountMinor);

/** 'refunded' / 'partiallyRefunded' for a paid payment with paid refunds, else the status as stored. */
const exportStatus = (row: ExportRow) => displayStatusOf({
  kind: row.kind, status: row.status, amount: toMajorUnits(row.amountMinor, row.currency), refundedAmount: toMajorUnits(Number(row.refundedMinor ?? 0), row.currency),
});

/** 1234 minor units of a 2-decimal currency → '12.34'; exact for every integer (no floating point). */
export function minorUnitsToDecimal(amountMinor: number, exponent: number): string {
  const negative = amountMinor < 0;
  const digits = String(Math.abs(amountMinor)).padStart(exponent + 1, '0');
  const whole = digits.slice(0, digits.length - exponent);
  const fraction = digits.slice(digits.length - exponent);
  return `${negative ? '-' : ''}${whole}${exponent > 0 ? `.${fraction}` : ''}`;
}

export function wallClock(instant: Date, timeZone: string): string {
  return format(new TZDate(instant.getTime(), timeZone), 'yyyy-MM-dd HH:mm:ss');
}

type ColumnDefinition = { kind: ColumnKind; width: number; value: (row: ExportRow, timeZone: string) => string | null };

export const exportColumnDefinitions: Record<TransactionColumn, ColumnDefinition> = {
  date: { kind: 'datetime', width: 20, value: (row, zone) => wallClock(row.createdAt, zone) },
  reference: { kind: 'text', width: 18, value: (row) => row.reference },
  merchant: { kind: 'text', width: 28, value: (row) => row.merchantName },
  amount: { kind: 'decimal', width: 14, value: (row) => minorUnitsToDecimal(signedMinor(row), currencyExponent(row.currency)) },
  currency: { kind: 'text', width: 10, value: (row) => row.currency },
  status: { kind: 'text', width: 18, value: exportStatus },
  paymentMethod: { kind: 'text', width: 16, value: (row) => row.paymentMethod },
  channel: { kind: 'text', width: 12, value: (row) => row.channel },
  ewalletType: { kind: 'text', width: 12, value: (row) => row.ewalletType },
  kind: { kind: 'text', width: 10, value: (row) => row.kind },
  paymentJobReference: { kind: 'text', width: 18, value: (row) => row.paymentJobReference },
  parentReference: { kind: 'text', width: 18, value: (row) => row.parentReference },
  business: { kind: 'text', width: 28, value: (row) => row.businessName },
  merchantId: { kind: 'text', width: 14, value: (row) => row.merchantId },
  customerEmail: { kind: 'text', width: 28, value: (row) => row.customerEmail },
  maskedCardNumber: { kind: 'text', width: 20, value: (row) => row.cardMasked },
  declineReason: { kind: 'text', width: 24, value: (row) => row.declineReason },
};

export function exportColumnSpecs(columns: readonly TransactionColumn[], timeZone: string): ReportColumnSpec[] {
  return columns.map((column) => {
    const definition = exportColumnDefinitions[column];
    const header = column === 'date' ? `${transactionColumnLabels.date} (${timeZone})` : transactionColumnLabels[column];
    return { header, kind: definition.kind, width: definition.width };
  });
}

export function exportCells(row: ExportRow, columns: readonly TransactionColumn[], timeZone: string): ReportRow {
  return columns.map((column) => exportColumnDefinitions[column].value(row, timeZone));
}

/** The cursor value of a key column for the row a batch ended on. */
function cursorValue(expression: AnyPgColumn | SQL, row: ExportRow): unknown {
  if (expression === t.createdAt) return sql`${row.createdAtExact}::timestamptz`;
  if (expression === t.reference) return row.reference;
  if (expression === t.amountMilli) return row.amountMilli;
  if (expression === t.status) return row.status;
  if (expression === t.currency) return row.currency;
  throw new Error('export keyset: a key without a cursor value');
}

export type ExportQuery = {
  scope: TransactionScope;
  filters: Record<string, FilterClause[]>;
  sort: SortKey;
  timeZone: string;
  /** rows created after this are not part of the export (the report was counted at queue time) */
  asOf: Date;
  batchSize: number;
  /** rows picked in the overview (a bulk export of a selection): only these, or every match but these */
  picks?: Picks;
};

async function batchAfter(db: Db, where: SQL | undefined, keys: readonly OrderKey[], after: ExportRow | null, limit: number): Promise<ExportRow[]> {
  const continuation = after ? keysetAfter(keys, keys.map((key) => cursorValue(key.expression, after))) : undefined;
  return db.select(exportFields).from(t)
    .innerJoin(merchants, eq(merchants.id, t.merchantId))
    .innerJoin(businesses, eq(businesses.id, t.businessId))
    .where(and(where, continuation))
    .orderBy(...orderByOf(keys))
    .limit(limit) as Promise<ExportRow[]>;
}

/** Every matching row, batch by batch, in the report's ordering. */
export async function* transactionExportBatches(db: Db, query: ExportQuery): AsyncGenerator<ExportRow[]> {
  const where = and(scopeWhere(query.scope), filterCondition(transactionResource, query.filters, query.timeZone), lte(t.createdAt, query.asOf), query.picks ? picksWhere(t.reference, query.picks) : undefined);
  if (query.sort.field === 'merchant') {
    // By merchant name: walk the scope's merchants in order and page each one's rows newest first.
    const order = query.sort.descending ? desc : asc;
    const merchantRows = await db.select({ id: merchants.id }).from(merchants)
      .where(merchantScopeWhere(db, query.scope)).orderBy(order(merchants.name), order(merchants.id));
    const keys: OrderKey[] = [{ expression: t.createdAt, descending: true }, { expression: t.reference, descending: false }];
    for (const merchant of merchantRows) {
      let last: ExportRow | null = null;
      for (;;) {
        const batch = await batchAfter(db, and(where, eq(t.merchantId, merchant.id)), keys, last, query.batchSize);
        if (batch.length > 0) yield batch;
        if (batch.length < query.batchSize) break;
        last = batch[batch.length - 1] ?? null;
      }
    }
    return;
  }
  const keys = transactionOrderKeys(query.sort, query.filters);
  let last: ExportRow | null = null;
  for (;;) {
    const batch = await batchAfter(db, where, keys, last, query.batchSize);
    if (batch.length > 0) yield batch;
    if (batch.length < query.batchSize) return;
    last = batch[batch.length - 1] ?? null;
  }
}
