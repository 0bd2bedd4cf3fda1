// The rows of a transactions export, read in keyset batches along the same indexes as the overview: each batch is
// a short query that starts where the last one ended, so two million rows never sit in memory or in one statement.
import { TZDate, tzOffset } from '@date-fns/tz';
import { format } from 'date-fns';
import { and, asc, desc, eq, lte, sql, type SQL } from 'drizzle-orm';
import { alias, type AnyPgColumn } from 'drizzle-orm/pg-core';
import type { SortKey } from '../../src/contract/list-query.ts';
import {
  currencyExponent,
  displayStatusOf,
  takesMoneyBack,
  toMajorUnits,
  transactionColumnLabels,
  type TransactionColumn,
} from '../../src/contract/transactions.ts';
import type { Database } from '../db/client.ts';
import { businesses, merchants, transactions } from '../db/schema.ts';
import { filterCondition, keysetAfter, orderByOf, type OrderKey, type Picks, picksWhere } from '../http/list-sql.ts';
import { transactionOrderKeys, transactionResource } from '../transactions/list.ts';
import { merchantScopeWhere, scopeWhere, type TransactionScope } from '../transactions/scope.ts';
import type { FilterClause } from '../../src/contract/list-query.ts';
import type { ColumnKind, ReportColumnSpec, ReportRow } from './writers.ts';

const t = transactions;

/**
 * The columns of a batch in this order, as text (the timestamp keeps its microseconds, so a keyset continues from
 * the exact value; amounts are their digits).
 */
const exportFields = {
  reference: t.reference,
  kind: t.kind,
  parentReference: t.parentReference,
  merchantId: t.merchantId,
  paymentJobReference: t.paymentJobReference,
  createdAt: t.createdAt,
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

/**
 * A batch comes as one JSON array of rows, each an array of exportFields' text: one value to read instead of 18 per
 * row. The drivers' per-value cost (PGlite's above all) was most of an export's time; json_agg of a text[] is the
 * cheapest JSON for PostgreSQL to write, and JSON.parse gives back every string exactly.
 */
const exportRowArray = sql.join([
  sql`array[`,
  sql.join(
    Object.values(exportFields).map((field) => sql`${field}::text`),
    sql`, `,
  ),
  sql`]`,
]);

/** Where each field sits in a row of a batch; refundedMinor is added after reading (the payments' paid refunds, minor units). */
const at = {
  reference: 0,
  kind: 1,
  parentReference: 2,
  merchantId: 3,
  paymentJobReference: 4,
  createdAt: 5,
  amountMinor: 6,
  amountMilli: 7,
  currency: 8,
  status: 9,
  paymentMethod: 10,
  channel: 11,
  ewalletType: 12,
  cardMasked: 13,
  declineReason: 14,
  customerEmail: 15,
  merchantName: 16,
  businessName: 17,
  refundedMinor: 18,
} as const satisfies Record<keyof typeof exportFields | 'refundedMinor', number>;

/** One transaction of an export as read: exportFields' values in order (text or null), then its paid refunds in minor units. */
export type ExportRow = (string | number | null)[];

const text = (row: ExportRow, index: number) => row[index] as string;
const textOrNull = (row: ExportRow, index: number) => row[index] as string | null;
const amountMinorOf = (row: ExportRow) => Number(row[at.amountMinor]);

/** A refund's amount is negative in the file, as on screen. */
const signedMinor = (row: ExportRow) => (takesMoneyBack(text(row, at.kind)) ? -Math.abs(amountMinorOf(row)) : amountMinorOf(row));

/** 'refunded' / 'partiallyRefunded' for a paid payment with paid refunds, else the status as stored. */
const exportStatus = (row: ExportRow) => {
  const kind = text(row, at.kind);
  const status = text(row, at.status);
  // Only a paid payment with paid refunds reads otherwise: every other row keeps its status as stored.
  if (kind !== 'payment' || status !== 'paid' || !row[at.refundedMinor]) return status;
  const currency = text(row, at.currency);
  return displayStatusOf({
    kind,
    status,
    amount: toMajorUnits(amountMinorOf(row), currency),
    refundedAmount: toMajorUnits(Number(row[at.refundedMinor] ?? 0), currency),
  });
};

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
 * The instant is given in milliseconds (whole seconds are enough: the text has no fractions), with the way to its
 * wallClock text for the instants the arithmetic leaves out.
 */
function wallClockArithmetic(timeZone: string): (ms: number, slowly: () => string) => string {
  /** UTC hour → the zone's offset in ms through that hour, or null when it changes within it */
  const offsets = new Map<number, number | null>();
  /** wall-clock hour → its 'yyyy-MM-dd HH:' */
  const prefixes = new Map<number, string>();
  /** the zone's offset in whole minutes as TZDate reads it (one Intl call), else NaN */
  const offsetAt = (ms: number) => tzOffset(timeZone, new Date(ms)) * 60_000;
  return (ms, slowly) => {
    if (!(ms >= 0 && ms < fastRangeEndMs)) return slowly();
    const hour = Math.floor(ms / hourMs);
    let offset = offsets.get(hour);
    if (offset === undefined) {
      if (offsets.size > 100_000) offsets.clear();
      const first = offsetAt(hour * hourMs);
      const last = offsetAt(hour * hourMs + hourMs - 1000);
      offset = first === last && Number.isInteger(first / 60_000) ? first : null;
      offsets.set(hour, offset);
    }
    if (offset === null) return slowly();
    const wall = ms + offset;
    // The last hours of 9999 in a zone east of UTC are already in a five-digit year.
    if (wall >= fastRangeEndMs) return slowly();
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

export function wallClockFormatter(timeZone: string): (instant: Date) => string {
  const arithmetic = wallClockArithmetic(timeZone);
  return (instant) => arithmetic(instant.getTime(), () => wallClock(instant, timeZone));
}

/** The number of `width` digits at `from`, or NaN. */
function digitsAt(value: string, from: number, width: number): number {
  let number = 0;
  for (let index = from; index < from + width; index += 1) {
    const code = value.charCodeAt(index) - 48;
    if (!(code >= 0 && code <= 9)) return NaN;
    number = number * 10 + code;
  }
  return number;
}

/**
 * The instant of PostgreSQL's text of a timestamptz ('2026-10-25 00:30:00.123456+00', '…+05:30'), to the whole
 * second (the fraction only ever rounds down, as Date's reading of it does for instants from 1970 on); NaN for any
 * other shape (a year past 9999, BC, infinity), which is then read by Date as before.
 */
export function timestampTextSecondsMs(value: string): number {
  if (
    value.length < 22 ||
    value.charCodeAt(4) !== 45 ||
    value.charCodeAt(7) !== 45 ||
    value.charCodeAt(10) !== 32 ||
    value.charCodeAt(13) !== 58 ||
    value.charCodeAt(16) !== 58
  )
    return NaN;
  let index = 19;
  if (value.charCodeAt(index) === 46) {
    index += 1;
    while (index < value.length && value.charCodeAt(index) >= 48 && value.charCodeAt(index) <= 57) index += 1;
  }
  const sign = value.charCodeAt(index);
  if (sign !== 43 && sign !== 45) return NaN;
  const rest = value.length - index - 1;
  if (rest !== 2 && rest !== 5) return NaN;
  const offsetHours = digitsAt(value, index + 1, 2);
  const offsetMinutes = rest === 5 && value.charCodeAt(index + 3) === 58 ? digitsAt(value, index + 4, 2) : rest === 5 ? NaN : 0;
  const offsetMs = (sign === 45 ? -1 : 1) * (offsetHours * 3_600_000 + offsetMinutes * 60_000);
  return (
    Date.UTC(digitsAt(value, 0, 4), digitsAt(value, 5, 2) - 1, digitsAt(value, 8, 2), digitsAt(value, 11, 2), digitsAt(value, 14, 2), digitsAt(value, 17, 2)) -
    offsetMs
  );
}

/** wallClockFormatter for PostgreSQL's text of a timestamptz, as the text read by Date would format. */
export function wallClockOfTextFormatter(timeZone: string): (timestamp: string) => string {
  const arithmetic = wallClockArithmetic(timeZone);
  return (timestamp) => arithmetic(timestampTextSecondsMs(timestamp), () => wallClock(new Date(timestamp), timeZone));
}

type ColumnDefinition = { kind: ColumnKind; width: number; value: (row: ExportRow, timeZone: string) => string | null };

export const exportColumnDefinitions: Record<TransactionColumn, ColumnDefinition> = {
  date: { kind: 'datetime', width: 20, value: (row, zone) => wallClock(new Date(text(row, at.createdAt)), zone) },
  reference: { kind: 'text', width: 18, value: (row) => text(row, at.reference) },
  merchant: { kind: 'text', width: 28, value: (row) => text(row, at.merchantName) },
  amount: { kind: 'decimal', width: 14, value: (row) => minorUnitsToDecimal(signedMinor(row), currencyExponent(text(row, at.currency))) },
  currency: { kind: 'text', width: 10, value: (row) => text(row, at.currency) },
  status: { kind: 'text', width: 18, value: exportStatus },
  paymentMethod: { kind: 'text', width: 16, value: (row) => text(row, at.paymentMethod) },
  channel: { kind: 'text', width: 12, value: (row) => text(row, at.channel) },
  ewalletType: { kind: 'text', width: 12, value: (row) => textOrNull(row, at.ewalletType) },
  kind: { kind: 'text', width: 10, value: (row) => text(row, at.kind) },
  paymentJobReference: { kind: 'text', width: 18, value: (row) => text(row, at.paymentJobReference) },
  parentReference: { kind: 'text', width: 18, value: (row) => textOrNull(row, at.parentReference) },
  business: { kind: 'text', width: 28, value: (row) => text(row, at.businessName) },
  merchantId: { kind: 'text', width: 14, value: (row) => text(row, at.merchantId) },
  customerEmail: { kind: 'text', width: 28, value: (row) => textOrNull(row, at.customerEmail) },
  maskedCardNumber: { kind: 'text', width: 20, value: (row) => textOrNull(row, at.cardMasked) },
  declineReason: { kind: 'text', width: 24, value: (row) => textOrNull(row, at.declineReason) },
};

export function exportColumnSpecs(columns: readonly TransactionColumn[], timeZone: string): ReportColumnSpec[] {
  return columns.map((column) => {
    const definition = exportColumnDefinitions[column];
    const header = column === 'date' ? `${transactionColumnLabels.date} (${timeZone})` : transactionColumnLabels[column];
    return { header, kind: definition.kind, width: definition.width };
  });
}

/**
 * exportCells for every row of one export, with the same cells: the columns are looked up once, the dates go
 * through one formatter for the export instead of a TZDate and a format per row, and an amount's decimal point is
 * placed by its currency's exponent looked up once per currency.
 */
export function exportCellsOf(columns: readonly TransactionColumn[], timeZone: string): (row: ExportRow) => ReportRow {
  const clock = wallClockOfTextFormatter(timeZone);
  const exponents = new Map<string, number>();
  const exponentOf = (currency: string) => {
    let exponent = exponents.get(currency);
    if (exponent === undefined) {
      exponent = currencyExponent(currency);
      exponents.set(currency, exponent);
    }
    return exponent;
  };
  const values = columns.map((column): ColumnDefinition['value'] => {
    if (column === 'date') return (row) => clock(text(row, at.createdAt));
    if (column === 'amount') return (row) => minorUnitsToDecimal(signedMinor(row), exponentOf(text(row, at.currency)));
    return exportColumnDefinitions[column].value;
  });
  const count = values.length;
  return (row) => {
    const cells: ReportRow = new Array(count);
    for (let index = 0; index < count; index += 1) cells[index] = (values[index] as ColumnDefinition['value'])(row, timeZone);
    return cells;
  };
}

/** A key's value (its text, as a batch reads it) back as the key column's type, to continue a keyset from. */
export function keyCursor(expression: AnyPgColumn | SQL, value: string): unknown {
  if (expression === t.createdAt) return sql`${value}::timestamptz`;
  if (expression === t.amountMilli) return sql`${value}::bigint`;
  if (expression === t.reference || expression === t.status || expression === t.currency) return value;
  throw new Error('export keyset: a key without a cursor value');
}

/** Where each key column sits in a row of a batch. */
const keyFields = new Map<AnyPgColumn | SQL, number>([
  [t.createdAt, at.createdAt],
  [t.reference, at.reference],
  [t.amountMilli, at.amountMilli],
  [t.status, at.status],
  [t.currency, at.currency],
]);

/** The cursor value of a key column for the row a batch ended on. */
function cursorValue(expression: AnyPgColumn | SQL, row: ExportRow): unknown {
  const index = keyFields.get(expression);
  if (index === undefined) throw new Error('export keyset: a key without a cursor value');
  return keyCursor(expression, text(row, index));
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
 * One batch: the rows after the last one, along the ordering's index (keysetAfter bounds the leading key too, so each
 * batch starts where the last one ended). The ORM writes the statement; it comes back as one JSON text.
 */
async function batchAfter(database: Database, where: SQL | undefined, keys: readonly OrderKey[], after: ExportRow | null, limit: number): Promise<ExportRow[]> {
  const continuation = after
    ? keysetAfter(
        keys,
        keys.map((key) => cursorValue(key.expression, after)),
      )
    : undefined;
  const rows = database.db
    .select({ row: exportRowArray.as('row') })
    .from(t)
    .innerJoin(merchants, eq(merchants.id, t.merchantId))
    .innerJoin(businesses, eq(businesses.id, t.businessId))
    .where(and(where, continuation))
    .orderBy(...orderByOf(keys))
    .limit(limit)
    .toSQL();
  // json_agg takes the rows in the order the sub-query gives them (its ORDER BY … LIMIT).
  const [batch] = await database.query<[string]>(`select coalesce(json_agg("batch"."row"), '[]')::text from (${rows.sql}) "batch"`, rows.params, {
    rowMode: 'array',
  });
  return JSON.parse(batch?.[0] ?? '[]') as ExportRow[];
}

/**
 * The paid refunds of a batch's payments, in one statement per batch (one scan of the parent index for all of
 * them) instead of a correlated sub-query run once per row.
 */
async function withRefunds(database: Database, batch: ExportRow[]): Promise<ExportRow[]> {
  const payments: string[] = [];
  for (const row of batch) if (row[at.kind] === 'payment') payments.push(text(row, at.reference));
  const refunded = new Map<string, number>();
  if (payments.length > 0) {
    const refunds = alias(t, 'refunds');
    const statement = database.db
      .select({ parentReference: refunds.parentReference, refundedMinor: sql<string>`sum(${refunds.amountMinor})::text` })
      .from(refunds)
      // One array parameter, not one parameter per payment (the ORM's cost per parameter outweighed the statement's).
      .where(and(sql`${refunds.parentReference} = any(${sql.param(payments)}::text[])`, eq(refunds.kind, 'refund'), eq(refunds.status, 'paid')))
      .groupBy(refunds.parentReference)
      .toSQL();
    const sums = await database.query<[string | null, string]>(statement.sql, statement.params, { rowMode: 'array' });
    for (const [parentReference, refundedMinor] of sums) if (parentReference !== null) refunded.set(parentReference, Number(refundedMinor));
  }
  for (const row of batch) row[at.refundedMinor] = row[at.kind] === 'payment' ? (refunded.get(text(row, at.reference)) ?? 0) : 0;
  return batch;
}

export type ExportBatchOptions = {
  /** read the payments' paid refunds (the status column needs them; default true) */
  refunds?: boolean;
};

/**
 * The batches of one keyset walk. The next batch is asked for as soon as this one has arrived (its cursor is this
 * one's last row), so the database reads it while this one is formatted and written: the two overlap on two cores.
 */
async function* keysetWalk(
  read: (after: ExportRow | null) => Promise<ExportRow[]>,
  complete: (batch: ExportRow[]) => Promise<ExportRow[]>,
  limit: number,
): AsyncGenerator<ExportRow[]> {
  type Fetched = { batch: ExportRow[]; completed: Promise<ExportRow[]> };
  const fetch = (after: ExportRow | null): Promise<Fetched> => {
    const pending: Promise<Fetched> = read(after).then(async (batch) => ({ batch, completed: batch.length > 0 ? complete(batch) : Promise.resolve(batch) }));
    // Read ahead: a walk stopped early (the export cancelled or failed) leaves this one unread, and its failure unheard.
    pending.then(
      ({ completed }) => completed.catch(() => undefined),
      () => undefined,
    );
    return pending;
  };
  let next: Promise<Fetched> | null = fetch(null);
  while (next) {
    const { batch, completed }: Fetched = await next;
    next = batch.length < limit ? null : fetch(batch[batch.length - 1] ?? null);
    if (batch.length > 0) yield await completed;
  }
}

/**
 * The keyset walks of one export, in order: one over the whole scope, or (sorted by merchant name) one per merchant
 * of the scope by name, each newest first. Each walk is a condition and the keys its batches continue along.
 */
export async function transactionExportWalks(database: Database, query: ExportQuery): Promise<{ where: SQL | undefined; keys: OrderKey[] }[]> {
  const where = and(
    scopeWhere(query.scope),
    filterCondition(transactionResource, query.filters, query.timeZone),
    lte(t.createdAt, query.asOf),
    query.picks ? picksWhere(t.reference, query.picks) : undefined,
  );
  if (query.sort.field !== 'merchant') return [{ where, keys: transactionOrderKeys(query.sort, query.filters) }];
  const order = query.sort.descending ? desc : asc;
  const merchantRows = await database.db
    .select({ id: merchants.id })
    .from(merchants)
    .where(merchantScopeWhere(database.db, query.scope))
    .orderBy(order(merchants.name), order(merchants.id));
  const keys: OrderKey[] = [
    { expression: t.createdAt, descending: true },
    { expression: t.reference, descending: false },
  ];
  return merchantRows.map((merchant) => ({ where: and(where, eq(t.merchantId, merchant.id)), keys }));
}

/** Every matching row, batch by batch, in the report's ordering. */
export async function* transactionExportBatches(database: Database, query: ExportQuery, options: ExportBatchOptions = {}): AsyncGenerator<ExportRow[]> {
  const complete = options.refunds === false ? async (batch: ExportRow[]) => batch : (batch: ExportRow[]) => withRefunds(database, batch);
  for (const { where, keys } of await transactionExportWalks(database, query)) {
    yield* keysetWalk((after) => batchAfter(database, where, keys, after, query.batchSize), complete, query.batchSize);
  }
}
