// A transactions export as CSV, written by the database: each keyset batch comes back as the text of its CSV lines,
// formatted in SQL by the same rules as the row-by-row writer (writers.ts csvLine, transaction-export.ts
// exportCellsOf), so the server only passes text on. The row-by-row path reads each value into JavaScript and formats
// it there; at a million rows that was most of an export's time and memory. The golden files
// (tests/server/reports/export-golden.test.ts) hold both paths to the same bytes.
import { and, eq, sql, type SQL } from 'drizzle-orm';
import { moneyBackKinds, threeDecimalCurrencies, zeroDecimalCurrencies, type TransactionColumn } from '../../src/contract/transactions.ts';
import type { Database } from '../db/client.ts';
import { businesses, merchants, transactions } from '../db/schema.ts';
import { keysetAfter, orderByOf, type OrderKey } from '../http/list-sql.ts';
import { keyCursor, transactionExportWalks, type ExportQuery } from './transaction-export.ts';

const t = transactions;

/**
 * A batch as text: CSV lines, or rows of cells for the XLSX writer (cell-text.ts), in pieces of about chunkChars
 * (each holding whole rows), and how many rows. Pieces rather than one text: a batch's 2 MB text would live in V8's
 * old space until a full collection, and a hundred of them raised the server's memory by tens of MB during an
 * export; pieces this small are collected young, as soon as the file has them.
 */
export type TextBatch = { format: 'csv' | 'cells'; chunks: string[]; rows: number };

const chunkChars = 32 * 1024;

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
  return (
    `case when ${value} is null or ${value} = '' then ''` +
    ` when left(${value}, 1) in ('=', '+', '-', '@', chr(9), chr(13)) then (case when ${needsQuotes} then ${quoted("''")} else '''' || ${value} end)` +
    ` when ${needsQuotes} then ${quoted('')} else ${value} end`
  );
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
function cellOf(column: TransactionColumn, zone: string, text: (value: string) => string): string {
  switch (column) {
    case 'date':
      // 'datetime': the wall clock in the report's zone, whole seconds (to_char truncates, as the JavaScript does).
      return `to_char(p.c_created_at at time zone ${literal(zone)}, 'YYYY-MM-DD HH24:MI:SS')`;
    case 'amount':
      // 'decimal': the currency's places; a refund or chargeback negative, as on screen.
      return (
        `(case when upper(p.c_currency) in (${inList(threeDecimalCurrencies)}) then ${decimalOf('p.c_signed', 3)}` +
        ` when upper(p.c_currency) in (${inList(zeroDecimalCurrencies)}) then p.c_signed::text else ${decimalOf('p.c_signed', 2)} end)`
      );
    case 'status':
      // displayStatusOf: a paid payment with paid refunds reads refunded or partially refunded.
      return text(
        `(case when p.c_kind = 'payment' and p.c_status = 'paid' and coalesce(rf.refunded, 0) > 0` +
          ` then (case when rf.refunded >= abs(p.c_amount_minor) then 'refunded' else 'partiallyRefunded' end) else p.c_status end)`,
      );
    default:
      return text(`p.${textColumns[column]}`);
  }
}

/**
 * A row's CSV line. Most rows hold no text that needs quoting or neutralising, and for them each text cell is the
 * value itself: one regular expression over the row's text values (joined by the unit separator, so each value
 * starts the text or follows one) tells them apart, and only the others take textCell's tests cell by cell (which
 * cost most of a batch's time when every cell took them). A separator inside a value can only send a row the
 * careful way, which is right for every row.
 */
function lineOf(columns: readonly TransactionColumn[], zone: string): string {
  const texts = textValuesOf(columns);
  const line = (text: (value: string) => string) => `${columns.map((column) => cellOf(column, zone, text)).join(` || ',' || `)} || chr(13) || chr(10)`;
  const plain = line((value) => `coalesce(${value}, '')`);
  if (texts.length === 0) return plain;
  return `case when concat_ws(chr(31), ${texts.join(', ')}) ~ '[",\\r\\n]|(^|\\x1f)[=+@\\t-]' then ${line(textCell)} else ${plain} end`;
}

/** The SQL of the text columns' values in a row (status as stored: displayStatusOf only ever writes a word). */
function textValuesOf(columns: readonly TransactionColumn[]): string[] {
  return columns
    .filter((column) => column !== 'date' && column !== 'amount')
    .map((column) => (column === 'status' ? 'p.c_status' : `p.${textColumns[column]}`));
}

/**
 * A row as cell text (cell-text.ts): the cells as exportCellsOf gives them, unneutralised (the XLSX writer types
 * text cells as text), a null as the escape character alone. As in lineOf, one regular expression over the row's
 * text values sends the rare row holding an escape or separator character the careful way.
 */
function cellsOf(columns: readonly TransactionColumn[], zone: string): string {
  const texts = textValuesOf(columns);
  const row = (text: (value: string) => string) => `${columns.map((column) => cellOf(column, zone, text)).join(' || chr(31) || ')} || chr(30)`;
  const plain = row((value) => `coalesce(${value}, chr(27))`);
  if (texts.length === 0) return plain;
  const escaped = (value: string) =>
    `coalesce(replace(replace(replace(${value}, chr(27), chr(27) || chr(27)), chr(31), chr(27) || 'u'), chr(30), chr(27) || 'r'), chr(27))`;
  return `case when concat_ws(chr(2), ${texts.join(', ')}) ~ '[\\x1b\\x1e\\x1f]' then ${row(escaped)} else ${plain} end`;
}

/** The batch's text columns by export column (everything but date, amount and status). */
const textColumns: Record<Exclude<TransactionColumn, 'date' | 'amount' | 'status'>, string> = {
  reference: 'c_reference',
  merchant: 'c_merchant_name',
  currency: 'c_currency',
  paymentMethod: 'c_payment_method',
  channel: 'c_channel',
  ewalletType: 'c_ewallet_type',
  kind: 'c_kind',
  paymentJobReference: 'c_payment_job_reference',
  parentReference: 'c_parent_reference',
  business: 'c_business_name',
  merchantId: 'c_merchant_id',
  customerEmail: 'c_customer_email',
  maskedCardNumber: 'c_card_masked',
  declineReason: 'c_decline_reason',
};

/** The row's values the cells read, as text (the amount as a number, the date as a timestamp). */
const rowFields = {
  c_reference: sql`${t.reference}::text`,
  c_kind: sql`${t.kind}::text`,
  c_status: sql`${t.status}::text`,
  c_currency: sql`${t.currency}::text`,
  c_created_at: sql`${t.createdAt}`,
  c_amount_minor: sql`${t.amountMinor}`,
  c_signed: sql`(case when ${t.kind}::text in (${sql.raw(inList(moneyBackKinds))}) then -abs(${t.amountMinor}) else ${t.amountMinor} end)`,
  c_merchant_name: sql`${merchants.name}::text`,
  c_business_name: sql`${businesses.name}::text`,
  c_payment_method: sql`${t.paymentMethod}::text`,
  c_channel: sql`${t.channel}::text`,
  c_ewallet_type: sql`${t.ewalletType}::text`,
  c_payment_job_reference: sql`${t.paymentJobReference}::text`,
  c_parent_reference: sql`${t.parentReference}::text`,
  c_merchant_id: sql`${t.merchantId}::text`,
  c_customer_email: sql`${t.customerEmail}::text`,
  c_card_masked: sql`${t.cardMasked}::text`,
  c_decline_reason: sql`${t.declineReason}::text`,
};

/**
 * The zone's name when the database can write wall clocks in it exactly as the JavaScript path does: an IANA name
 * the runtime knows (not an offset such as '+03:00', which PostgreSQL would read as a POSIX zone, west positive)
 * and the database has a zone file of (pg_timezone_names: not a POSIX rule such as 'GMT+3'). Null otherwise: the export then takes the row-by-row path.
 */
export async function databaseTimeZone(database: Database, zone: string): Promise<string | null> {
  if (!/^[A-Za-z][A-Za-z0-9_+\-/]*$/.test(zone)) return null;
  try {
    new Intl.DateTimeFormat('en-GB', { timeZone: zone });
  } catch {
    return null;
  }
  const known = await database.query<[number]>('select count(*)::int from pg_timezone_names where name = $1', [zone], { rowMode: 'array' });
  return Number(known[0]?.[0] ?? 0) > 0 ? zone : null;
}

/** The rows after `after` in the walk's ordering (all from the start when null), up to `limit`, as the ORM writes them. */
function rowsAfter(
  database: Database,
  where: SQL | undefined,
  keys: readonly OrderKey[],
  after: string[] | null,
  fields: Record<string, SQL.Aliased>,
  limit: number,
  offset = 0,
) {
  const continuation = after
    ? keysetAfter(
        keys,
        keys.map((key, index) => keyCursor(key.expression, after[index] as string)),
      )
    : undefined;
  return database.db
    .select(fields)
    .from(t)
    .innerJoin(merchants, eq(merchants.id, t.merchantId))
    .innerJoin(businesses, eq(businesses.id, t.businessId))
    .where(and(where, continuation))
    .orderBy(...orderByOf(keys))
    .limit(limit)
    .offset(offset)
    .toSQL();
}

const lineFields = Object.fromEntries(Object.entries(rowFields).map(([alias, field]) => [alias, field.as(alias)]));

/**
 * The key values (text) of the `limit`-th row after `after`: where the next batch starts. A walk along the index
 * that formats nothing, so the batches' formatting can run side by side on two connections.
 */
async function boundaryAfter(
  database: Database,
  where: SQL | undefined,
  keys: readonly OrderKey[],
  after: string[] | null,
  limit: number,
): Promise<string[] | null> {
  const keyFields = Object.fromEntries(keys.map((key, index) => [`k${index}`, sql`${key.expression}::text`.as(`k${index}`)]));
  const statement = rowsAfter(database, where, keys, after, keyFields, 1, limit - 1);
  const [row] = await database.query<string[]>(statement.sql, statement.params, { rowMode: 'array' });
  return row ?? null;
}

/**
 * The lines (CSV, or rows of cell text) of up to `limit` rows after `after`, in order. A paid payment's paid refunds are summed by
 * the parent index beside its row (the status column needs them); the lines come back in the walk's order, which
 * the sub-query's ORDER BY … LIMIT gives and the outer ORDER BY (on the same key columns) keeps.
 */
async function linesAfter(
  database: Database,
  where: SQL | undefined,
  keys: readonly OrderKey[],
  after: string[] | null,
  limit: number,
  columns: readonly TransactionColumn[],
  format: TextBatch['format'],
  line: string,
): Promise<TextBatch> {
  const orderFields = Object.fromEntries(keys.map((key, index) => [`o${index}`, sql`${key.expression}`.as(`o${index}`)]));
  const rows = rowsAfter(database, where, keys, after, { ...lineFields, ...orderFields }, limit);
  const order = keys.map((key, index) => `p.o${index} ${key.descending ? 'desc' : 'asc'}`).join(', ');
  const refunds = columns.includes('status')
    ? ` left join lateral (select sum("refunds"."amount_minor") as refunded from "transactions" "refunds" where p.c_kind = 'payment' and p.c_status = 'paid'` +
      ` and "refunds"."parent_reference" = p.c_reference and "refunds"."kind" = 'refund' and "refunds"."status" = 'paid') rf on true`
    : '';
  const text = `select ${line} from (${rows.sql}) p${refunds} order by ${order}`;
  // A line a row: one value each (a single text of the batch would be one message the driver reassembles as it grows).
  const lines = await database.query<[string]>(text, rows.params, { rowMode: 'array' });
  const chunks: string[] = [];
  let chunk = '';
  for (const [value] of lines) {
    chunk += value;
    if (chunk.length >= chunkChars) {
      chunks.push(chunk);
      chunk = '';
    }
  }
  if (chunk !== '') chunks.push(chunk);
  return { format, chunks, rows: lines.length };
}

/** Batches formatted side by side: the database's two cores each format one while the file takes the last. */
const batchesInFlight = 2;

/**
 * The CSV lines of every matching row (no header), batch by batch in the report's ordering, with the cells of
 * `columns` in order; `zone` must come from databaseTimeZone. Each walk (transactionExportWalks) is cut into batches
 * by boundaryAfter, one step ahead, and up to batchesInFlight batches are formatted at once and given back in order.
 */
export function transactionCsvBatches(database: Database, query: ExportQuery, columns: readonly TransactionColumn[], zone: string): AsyncGenerator<TextBatch> {
  return textBatches(database, query, columns, 'csv', lineOf(columns, zone));
}

/** The same rows as cell text (cell-text.ts) for the XLSX writer's thread: exportCellsOf's cells, written by the database. */
export function transactionCellBatches(database: Database, query: ExportQuery, columns: readonly TransactionColumn[], zone: string): AsyncGenerator<TextBatch> {
  return textBatches(database, query, columns, 'cells', cellsOf(columns, zone));
}

async function* textBatches(
  database: Database,
  query: ExportQuery,
  columns: readonly TransactionColumn[],
  format: TextBatch['format'],
  line: string,
): AsyncGenerator<TextBatch> {
  const limit = query.batchSize;
  for (const { where, keys } of await transactionExportWalks(database, query)) {
    const pending: Promise<TextBatch>[] = [];
    let after: string[] | null = null;
    let cut = false;
    while (!cut || pending.length > 0) {
      while (!cut && pending.length < batchesInFlight) {
        const batch = linesAfter(database, where, keys, after, limit, columns, format, line);
        // A walk stopped early (the export cancelled or failed) leaves these unread, and their failure unheard.
        batch.catch(() => undefined);
        pending.push(batch);
        after = await boundaryAfter(database, where, keys, after, limit);
        if (after === null) cut = true;
      }
      const batch = await (pending.shift() as Promise<TextBatch>);
      if (batch.rows > 0) yield batch;
    }
  }
}
