// The rows of a transactions export, read in keyset batches along the same indexes as the overview: each batch is
// a short query that starts where the last one ended, so two million rows never sit in memory or in one statement.
import { TZDate, tzOffset } from '@date-fns/tz';
import { format } from 'date-fns';
import { and, asc, desc, eq, gte, inArray, lte, sql, type SQL } from 'drizzle-orm';
import { alias, type AnyPgColumn } from 'drizzle-orm/pg-core';
import type { SortKey } from '../../src/contract/list-query.ts';
import { currencyExponent, displayStatusOf, takesMoneyBack, toMajorUnits, transactionColumnLabels, type TransactionColumn } from '../../src/contract/transactions.ts';
import type { Db } from '../db/client.ts';
import { businesses, merchants, transactions } from '../db/schema.ts';
import { filterCondition, keysetAfter, orderByOf, type OrderKey, type Picks, picksWhere } from '../api/list-sql.ts';
import { merchantScopeWhere, scopeWhere, transactionOrderKeys, transactionResource, type TransactionScope } from '../api/transactions.ts';
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

const hourMs = 3_600_000;
/** 1970-01-01 to 9999-12-31: four-digit years, no negative arithmetic */
const fastRangeEndMs = 253_402_300_800_000;
const two = (value: number) => (value < 10 ? `0${value}` : String(value));

/** 'yyyy-MM-dd HH:mm:ss' of a wall-clock instant held as UTC milliseconds. */
function utcStamp(wallMs: number): string {
  const date = new Date(wallMs);
  return `${date.getUTCFullYear()}-${two(date.getUTCMonth() + 1)}-${two(date.getUTCDate())} ${two(date.getUTCHours())}:${two(date.getUTCMinutes())}:${two(date.getUTCSeconds())}`;
}

/**
 * wallClock for many instants in one zone, the same text for every instant, at a fraction of the cost: a zone's
 * offset is read once per UTC hour (as TZDate reads it, at the hour's first and last second) and the wall-clock
 * text is then arithmetic. An hour whose two ends disagree (a DST change happens in it), an offset that
 * is not whole minutes (local mean time before 1900) and instants outside 1970–9999 go through wallClock row by row.
 */
export function wallClockFormatter(timeZone: string): (instant: Date) => string {
  /** UTC hour → the zone's offset in ms through that hour, or null when it changes within it */
  const offsets = new Map<number, number | null>();
  /** wall-clock hour → its 'yyyy-MM-dd HH:' */
  const prefixes = new Map<number, string>();
  /** the zone's offset in whole minutes as TZDate reads it (one Intl call), else NaN */
  const offsetAt = (ms: number) => tzOffset(timeZone, new Date(ms)) * 60_000;
  return (instant) => {
    const ms = instant.getTime();
    if (!(ms >= 0 && ms < fastRangeEndMs)) return wallClock(instant, timeZone);
    const hour = Math.floor(ms / hourMs);
    let offset = offsets.get(hour);
    if (offset === undefined) {
      if (offsets.size > 100_000) offsets.clear();
      const first = offsetAt(hour * hourMs);
      const last = offsetAt(hour * hourMs + hourMs - 1000);
      offset = first === last && Number.isInteger(first / 60_000) ? first : null;
      offsets.set(hour, offset);
    }
    if (offset === null) return wallClock(instant, timeZone);
    const wall = ms + offset;
    const wallHour = Math.floor(wall / hourMs);
    let prefix = prefixes.get(wallHour);
    if (prefix === undefined) {
      if (prefixes.size > 100_000) prefixes.clear();
      prefix = utcStamp(wallHour * hourMs).slice(0, 14);
      prefixes.set(wallHour, prefix);
    }
    const within = wall - wallHour * hourMs;
    return `${prefix}${two(Math.floor(within / 60_000))}:${two(Math.floor((within % 60_000) / 1000))}`;
  };
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

/**
 * exportCells for every row of one export, with the same cells: the columns are looked up once and the dates go
 * through one wallClockFormatter for the export instead of a TZDate and a format per row.
 */
export function exportCellsOf(columns: readonly TransactionColumn[], timeZone: string): (row: ExportRow) => ReportRow {
  const clock = wallClockFormatter(timeZone);
  const values = columns.map((column) => (column === 'date' ? (row: ExportRow) => clock(row.createdAt) : exportColumnDefinitions[column].value));
  const count = values.length;
  return (row) => {
    const cells: ReportRow = new Array(count);
    for (let index = 0; index < count; index += 1) cells[index] = (values[index] as ColumnDefinition['value'])(row, timeZone);
    return cells;
  };
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

/**
 * One batch: the rows after the last one, along the ordering's index. Beside the keyset's OR (which PostgreSQL can
 * only filter by) the leading key is also bounded (created_at <= the last row's, for a newest-first export): that
 * bound is an index condition, so each batch starts where the last one ended instead of walking the index from its
 * start past every row already written (which made a long export quadratic).
 */
async function batchAfter(db: Db, where: SQL | undefined, keys: readonly OrderKey[], after: ExportRow | null, limit: number): Promise<ExportRow[]> {
  let continuation: SQL | undefined;
  if (after) {
    const values = keys.map((key) => cursorValue(key.expression, after));
    const [leading] = keys;
    const bound = leading ? (leading.descending ? lte : gte)(leading.expression as AnyPgColumn, values[0]) : undefined;
    continuation = and(bound, keysetAfter(keys, values));
  }
  return db.select(exportFields).from(t)
    .innerJoin(merchants, eq(merchants.id, t.merchantId))
    .innerJoin(businesses, eq(businesses.id, t.businessId))
    .where(and(where, continuation))
    .orderBy(...orderByOf(keys))
    .limit(limit) as Promise<ExportRow[]>;
}

/**
 * The paid refunds of a batch's payments, in one statement per batch (one scan of the parent index for all of
 * them) instead of a correlated sub-query run once per row.
 */
async function withRefunds(db: Db, batch: ExportRow[]): Promise<ExportRow[]> {
  const payments = batch.filter((row) => row.kind === 'payment').map((row) => row.reference);
  const refunded = new Map<string, number>();
  if (payments.length > 0) {
    const refunds = alias(t, 'refunds');
    const sums = await db.select({ parentReference: refunds.parentReference, refundedMinor: sql<string>`sum(${refunds.amountMinor})::text` }).from(refunds)
      .where(and(inArray(refunds.parentReference, payments), eq(refunds.kind, 'refund'), eq(refunds.status, 'paid')))
      .groupBy(refunds.parentReference);
    for (const sum of sums) if (sum.parentReference !== null) refunded.set(sum.parentReference, Number(sum.refundedMinor));
  }
  for (const row of batch) row.refundedMinor = row.kind === 'payment' ? (refunded.get(row.reference) ?? 0) : 0;
  return batch;
}

export type ExportBatchOptions = {
  /** read the payments' paid refunds (the status column needs them; default true) */
  refunds?: boolean;
};

/** Every matching row, batch by batch, in the report's ordering. */
export async function* transactionExportBatches(db: Db, query: ExportQuery, options: ExportBatchOptions = {}): AsyncGenerator<ExportRow[]> {
  const complete = options.refunds === false ? async (batch: ExportRow[]) => batch : (batch: ExportRow[]) => withRefunds(db, batch);
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
        if (batch.length > 0) yield await complete(batch);
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
    if (batch.length > 0) yield await complete(batch);
    if (batch.length < query.batchSize) return;
    last = batch[batch.length - 1] ?? null;
  }
}
