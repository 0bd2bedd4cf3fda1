// A transactions export as CSV, written by the database: each keyset batch comes back as the text of its CSV lines,
// formatted in SQL by the same rules as the row-by-row writer (writers.ts csvLine, transaction-export.ts
// exportCellsOf), so the server only passes text on. The row-by-row path reads each value into JavaScript and formats
// it there; at a million rows that was most of an export's time and memory. The golden files
// (tests/server/reports/export-golden.test.ts) hold both paths to the same bytes.
import { and, eq, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { moneyBackKinds, threeDecimalCurrencies, zeroDecimalCurrencies, type TransactionColumn } from '../../src/contract/transactions.ts';
import type { Database } from '../db/client.ts';
import { businesses, merchants, transactions } from '../db/schema.ts';
import { keysetAfter, orderByOf, type OrderKey } from '../http/list-sql.ts';
import { keysetWalk, transactionExportWalks, type ExportQuery } from './transaction-export.ts';

const t = transactions;

/** A batch of CSV lines: their text, how many rows, and the last row's key values (text) to continue from. */
export type CsvTextBatch = { text: string; rows: number; last: string[] | null };

/** A SQL string literal of text we chose ourselves (a zone name, a currency code): quotes doubled. */
const literal = (value: string) => `'${value.replaceAll("'", "''")}'`;

/**
 * The CSV cell of text a person or another system typed (writers.ts csvLine, kind 'text'): nothing for null or
 * empty; a leading = + - @ tab or carriage return gets an apostrophe; quoted, quotes doubled, when it holds a quote,
 * comma, CR or LF (the apostrophe is none of these, so the test reads the value itself).
 */
function textCell(value: string): string {
  const quoted = (prefix: string) => `'"${prefix}' || replace(${value}, '"', '""') || '"'`;
  const needsQuotes = `${value} ~ '[",\\r\\n]'`;
  return `case when ${value} is null or ${value} = '' then ''`
    + ` when left(${value}, 1) in ('=', '+', '-', '@', chr(9), chr(13)) then (case when ${needsQuotes} then ${quoted("''")} else '''' || ${value} end)`
    + ` when ${needsQuotes} then ${quoted('')} else ${value} end`;
}

/** minorUnitsToDecimal in SQL: '-12.34' from -1234 minor units of a currency with two decimals. */
function decimalOf(signed: string, exponent: 2 | 3): string {
  const unit = exponent === 2 ? 100 : 1000;
  return `(case when ${signed} < 0 then '-' else '' end) || (abs(${signed}) / ${unit})::text || '.' || lpad((abs(${signed}) % ${unit})::text, ${exponent}, '0')`;
}

const inList = (codes: readonly string[]) => codes.map(literal).join(', ');

/**
 * The SQL of one column's cell over the batch's row (aliases c_…; rf.refunded the payment's paid refunds), as
 * exportColumnDefinitions gives it in JavaScript.
 */
function cellOf(column: TransactionColumn, zone: string): string {
  switch (column) {
    case 'date':
      // 'datetime': the wall clock in the report's zone, whole seconds (to_char truncates, as the JavaScript does).
      return `to_char(p.c_created_at at time zone ${literal(zone)}, 'YYYY-MM-DD HH24:MI:SS')`;
    case 'amount':
      // 'decimal': the currency's places; a refund or chargeback negative, as on screen.
      return `(case when upper(p.c_currency) in (${inList(threeDecimalCurrencies)}) then ${decimalOf('p.c_signed', 3)}`
        + ` when upper(p.c_currency) in (${inList(zeroDecimalCurrencies)}) then p.c_signed::text else ${decimalOf('p.c_signed', 2)} end)`;
    case 'status':
      // displayStatusOf: a paid payment with paid refunds reads refunded or partially refunded.
      return textCell(`(case when p.c_kind = 'payment' and p.c_status = 'paid' and coalesce(rf.refunded, 0) > 0`
        + ` then (case when rf.refunded >= abs(p.c_amount_minor) then 'refunded' else 'partiallyRefunded' end) else p.c_status end)`);
    default:
      return textCell(`p.${textColumns[column]}`);
  }
}

/** The batch's text columns by export column (everything but date, amount and status). */
const textColumns: Record<Exclude<TransactionColumn, 'date' | 'amount' | 'status'>, string> = {
  reference: 'c_reference', merchant: 'c_merchant_name', currency: 'c_currency', paymentMethod: 'c_payment_method', channel: 'c_channel',
  ewalletType: 'c_ewallet_type', kind: 'c_kind', paymentJobReference: 'c_payment_job_reference', parentReference: 'c_parent_reference',
  business: 'c_business_name', merchantId: 'c_merchant_id', customerEmail: 'c_customer_email', maskedCardNumber: 'c_card_masked', declineReason: 'c_decline_reason',
};

/** The row's values the cells read, as text (the amount as a number, the date as a timestamp). */
const rowFields = {
  c_reference: sql`${t.reference}::text`, c_kind: sql`${t.kind}::text`, c_status: sql`${t.status}::text`, c_currency: sql`${t.currency}::text`,
  c_created_at: sql`${t.createdAt}`, c_amount_minor: sql`${t.amountMinor}`,
  c_signed: sql`(case when ${t.kind}::text in (${sql.raw(inList(moneyBackKinds))}) then -abs(${t.amountMinor}) else ${t.amountMinor} end)`,
  c_merchant_name: sql`${merchants.name}::text`, c_business_name: sql`${businesses.name}::text`, c_payment_method: sql`${t.paymentMethod}::text`,
  c_channel: sql`${t.channel}::text`, c_ewallet_type: sql`${t.ewalletType}::text`, c_payment_job_reference: sql`${t.paymentJobReference}::text`,
  c_parent_reference: sql`${t.parentReference}::text`, c_merchant_id: sql`${t.merchantId}::text`, c_customer_email: sql`${t.customerEmail}::text`,
  c_card_masked: sql`${t.cardMasked}::text`, c_decline_reason: sql`${t.declineReason}::text`,
};

/** A key's value of the row a batch ended on, back as the key column's type. */
function cursorOf(expression: AnyPgColumn | SQL, value: string): unknown {
  if (expression === t.createdAt) return sql`${value}::timestamptz`;
  if (expression === t.amountMilli) return sql`${value}::bigint`;
  if (expression === t.reference || expression === t.status || expression === t.currency) return value;
  throw new Error('export keyset: a key without a cursor value');
}

/**
 * The zone's name when the database can write wall clocks in it exactly as the JavaScript path does: an IANA name
 * the runtime knows (not an offset such as '+03:00', which PostgreSQL would read as a POSIX zone, west positive)
 * and the database knows too. Null otherwise: the export then takes the row-by-row path.
 */
export async function databaseTimeZone(database: Database, zone: string): Promise<string | null> {
  if (zone !== 'UTC' && !Intl.supportedValuesOf('timeZone').includes(zone)) return null;
  if (!/^[A-Za-z][A-Za-z0-9_+\-/]*$/.test(zone)) return null;
  const known = await database.query<[number]>('select count(*)::int from pg_timezone_names where name = $1', [zone], { rowMode: 'array' });
  return Number(known[0]?.[0] ?? 0) > 0 ? zone : null;
}

/** One batch's statement: the rows after `last`, their CSV lines in order, their count and the last row's keys. */
function batchStatement(database: Database, where: SQL | undefined, keys: readonly OrderKey[], last: string[] | null, limit: number, columns: readonly TransactionColumn[], zone: string) {
  const continuation = last ? keysetAfter(keys, keys.map((key, index) => cursorOf(key.expression, last[index] as string))) : undefined;
  const keyFields = Object.fromEntries(keys.map((key, index) => [`k${index}`, sql`${key.expression}::text`.as(`k${index}`)]));
  const fields = { ...Object.fromEntries(Object.entries(rowFields).map(([alias, field]) => [alias, field.as(alias)])), ...keyFields };
  const rows = database.db.select(fields).from(t)
    .innerJoin(merchants, eq(merchants.id, t.merchantId))
    .innerJoin(businesses, eq(businesses.id, t.businessId))
    .where(and(where, continuation))
    .orderBy(...orderByOf(keys))
    .limit(limit)
    .toSQL();
  const refunds = columns.includes('status');
  const line = `${columns.map((column) => cellOf(column, zone)).join(` || ',' || `)} || chr(13) || chr(10)`;
  const lastKeys = `array_to_json(array[${keys.map((_, index) => `k${index}`).join(', ')}])::text`;
  // p numbers the rows in the sub-query's order (its ORDER BY … LIMIT); rf sums the paid refunds of the batch's paid
  // payments in one scan of the parent index, not a sub-query per row.
  const text = `with p as materialized (select "batch".*, row_number() over () as ord from (${rows.sql}) "batch")`
    + (refunds
      ? `, rf as (select "refunds"."parent_reference" as reference, sum("refunds"."amount_minor") as refunded from "transactions" "refunds"`
        + ` where "refunds"."parent_reference" in (select c_reference from p where c_kind = 'payment' and c_status = 'paid')`
        + ` and "refunds"."kind" = 'refund' and "refunds"."status" = 'paid' group by "refunds"."parent_reference")`
      : '')
    + ` select coalesce(string_agg(${line}, '' order by p.ord), '') as text, count(*)::int as rows,`
    + ` (select ${lastKeys} from p order by ord desc limit 1) as last`
    + ` from p${refunds ? ' left join rf on rf.reference = p.c_reference' : ''}`;
  return { text, params: rows.params };
}

async function csvBatchAfter(database: Database, where: SQL | undefined, keys: readonly OrderKey[], before: CsvTextBatch | null, limit: number, columns: readonly TransactionColumn[], zone: string): Promise<CsvTextBatch> {
  const statement = batchStatement(database, where, keys, before?.last ?? null, limit, columns, zone);
  const [row] = await database.query<[string, number, string | null]>(statement.text, statement.params, { rowMode: 'array' });
  const [text, rows, last] = row ?? ['', 0, null];
  return { text, rows: Number(rows), last: last === null ? null : (JSON.parse(last) as string[]) };
}

/**
 * The CSV lines of every matching row (no header), batch by batch in the report's ordering: the same walks,
 * keysets and read-ahead as transactionExportBatches, with the cells of `columns` in order. `zone` must come from
 * databaseTimeZone.
 */
export async function* transactionCsvBatches(database: Database, query: ExportQuery, columns: readonly TransactionColumn[], zone: string): AsyncGenerator<CsvTextBatch> {
  for (const { where, keys } of await transactionExportWalks(database, query)) {
    yield* keysetWalk((before) => csvBatchAfter(database, where, keys, before, query.batchSize, columns, zone), async (batch) => batch, (batch) => batch.rows, query.batchSize);
  }
}
