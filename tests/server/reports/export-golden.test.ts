// Golden files: a transactions export of a small fixed data set, every column, through the worker in batches of two,
// must come out as the expected file — the CSV byte for byte, the XLSX cell for cell (value, type, number format,
// weight) with the same sheets, columns and frozen header. The expected output was made by the export as it was
// before it was made fast (exceljs's writer, a TZDate per row, a refund sub-query per row), so the faster path is
// held to the very same files. The data covers both of London's 2026 clock changes, refunds (partial, full, not yet
// paid), JPY and BHD amounts, empty values, microseconds, and text with quotes, commas, newlines and formulas.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../../server/db/client.ts';
import { runNextReport } from '../../../server/reports/worker.ts';
import { rowsOfCellText } from '../../../server/reports/cell-text.ts';
import { databaseTimeZone, transactionCellBatches, transactionCsvBatches } from '../../../server/reports/transaction-csv.ts';
import { exportCellsOf, exportColumnSpecs, transactionExportBatches } from '../../../server/reports/transaction-export.ts';
import { csvLine } from '../../../server/reports/writers.ts';
import type { TransactionColumn } from '../../../src/contract/transactions.ts';
import { createTestApp, createTestDatabase, databaseKinds, fixture, insertFixtureWorld } from '../support.ts';
import { openTestFileStore, queueExport, reportRow, storedBytes, type Caller, type TestFileStore } from './report-support.ts';

const everyColumn = [
  'date',
  'reference',
  'merchant',
  'amount',
  'currency',
  'status',
  'paymentMethod',
  'channel',
  'ewalletType',
  'kind',
  'paymentJobReference',
  'parentReference',
  'business',
  'merchantId',
  'customerEmail',
  'maskedCardNumber',
  'declineReason',
];

type Golden = [
  reference: string,
  kind: string,
  parent: string | null,
  createdAt: string,
  amountMinor: number,
  currency: string,
  status: string,
  method: string,
  channel: string,
  ewallet: string | null,
  card: string | null,
  decline: string | null,
  email: string | null,
];

const goldenRows: Golden[] = [
  // Europe/London: 01:30 BST, then 01:30 GMT an hour later (the clocks went back at 01:00 UTC).
  ['TXGOLD01', 'payment', null, '2026-10-25 00:30:00+00', 1250, 'GBP', 'paid', 'card', 'Gateway', null, '411111******1111', null, 'a,b@shop.test'],
  ['TXGOLD02', 'payment', null, '2026-10-25 01:30:00+00', 1000, 'GBP', 'paid', 'card', 'Gateway', null, '555555******4444', null, 'say "hi"@shop.test'],
  ['TXGOLD02R', 'refund', 'TXGOLD02', '2026-10-26 09:15:00+00', 300, 'GBP', 'paid', 'card', 'Gateway', null, null, null, null],
  ['TXGOLD02Q', 'refund', 'TXGOLD02', '2026-10-26 09:16:00+00', 200, 'GBP', 'pending', 'card', 'Gateway', null, null, null, null],
  ['TXGOLD03', 'payment', null, '2026-03-29 00:59:59.999999+00', 125000, 'JPY', 'paid', 'ewallet', 'Hosted', 'PayPay', null, null, null],
  ['TXGOLD03R', 'refund', 'TXGOLD03', '2026-03-30 12:00:00+00', 125000, 'JPY', 'paid', 'ewallet', 'Hosted', 'PayPay', null, null, null],
  // 01:00 UTC on 29 March: 02:00 BST, the first second after the clocks went forward.
  [
    'TXGOLD04',
    'payment',
    null,
    '2026-03-29 01:00:00+00',
    1234,
    'BHD',
    'declined',
    'card',
    'Gateway',
    null,
    '400000******0002',
    'Declined, "insufficient funds"\nretry later',
    '=HYPERLINK("x")',
  ],
  ['TXGOLD05', 'payment', null, '2026-06-30 23:00:00.000001+00', 5, 'EUR', 'paid', 'card', 'VirtualTerminal', null, null, '', '+44 20 7946 0000'],
  ['TXGOLD06', 'payment', null, '2026-06-30 23:00:00.000002+00', 0, 'EUR', 'failed', 'card', 'Gateway', null, null, 'Crème brûlée\r\n-1', '@me'],
  ['TXGOLD07', 'capture', 'TXGOLD05', '2026-07-01 00:00:00+00', 5, 'EUR', 'paid', 'card', 'Gateway', null, null, null, null],
];

async function insertGoldenRows(database: Database): Promise<void> {
  const values: unknown[] = [];
  const rows = goldenRows.map((row, index) => {
    values.push(...row);
    const p = (offset: number) => `$${index * row.length + offset}`;
    return `(${p(1)}, ${p(2)}, ${p(3)}, 'B2', 'M2a', 'P1', 'C-M2a', 'PJGOLD${index}', ${p(4)}::timestamptz, ${p(5)}::int, ${p(6)}, ${p(7)}, ${p(8)}, ${p(9)}, ${p(10)}, ${p(11)}, ${p(12)}, ${p(13)})`;
  });
  await database.query(
    `INSERT INTO transactions (reference, kind, parent_reference, business_id, merchant_id, partner_id, configuration_id, payment_job_reference,
    created_at, amount_minor, currency, status, payment_method, channel, ewallet_type, card_masked, decline_reason, customer_email) VALUES ${rows.join(', ')}`,
    values,
  );
}

// Made by the export before it was made fast; a change to them is a change to what every user downloads.
const goldenFolder = join(import.meta.dirname, 'golden');
const expectedCsv = readFileSync(join(goldenFolder, 'transactions-export.csv'));

type CellView = { address: string; type: number; value: unknown; numFmt: string | undefined; bold: boolean };
type SheetView = { name: string; columns: { width: number | undefined }[]; frozen: unknown; cells: CellView[] };

async function workbookView(bytes: Buffer): Promise<SheetView[]> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(bytes as unknown as ArrayBuffer);
  return workbook.worksheets.map((sheet) => {
    const cells: CellView[] = [];
    sheet.eachRow({ includeEmpty: true }, (row) =>
      row.eachCell({ includeEmpty: true }, (cell) => {
        cells.push({
          address: cell.address,
          type: cell.type,
          value: cell.value instanceof Date ? cell.value.toISOString() : cell.value,
          numFmt: cell.numFmt,
          bold: cell.font?.bold === true,
        });
      }),
    );
    return { name: sheet.name, columns: (sheet.columns ?? []).map((column) => ({ width: column.width })), frozen: sheet.views[0], cells };
  });
}

const expectedXlsx = JSON.parse(readFileSync(join(goldenFolder, 'transactions-export.xlsx.json'), 'utf8')) as SheetView[];

/** An export's query over every row whose reference holds `search`, in `timeZone`, sorted by `field`. */
const walkQuery = (
  search: string,
  timeZone: string,
  field: 'date' | 'amount' | 'status' | 'reference' | 'merchant',
  descending: boolean,
  batchSize: number,
) => ({
  scope: { level: 'all' as const },
  filters: { searchterm: [{ operator: 'eq' as const, value: search }] },
  sort: { field, descending },
  timeZone,
  asOf: new Date(Date.UTC(2030, 0, 1)),
  batchSize,
});

describe.each(databaseKinds)('the golden transactions export on %s', (kind) => {
  let database: Database;
  let call: Caller;
  let store: TestFileStore;
  /** the statements the export sent, while captured */
  let statements: string[] | null = null;

  beforeAll(async () => {
    database = await createTestDatabase(kind, { onQuery: (text) => statements?.push(text) });
    // The export reads its batches through the raw query (array mode): those statements are captured here.
    const query = database.query;
    database.query = ((text, params, options) => {
      statements?.push(text);
      return query(text, params, options);
    }) as Database['query'];
    await insertFixtureWorld(database);
    await insertGoldenRows(database);
    ({ call } = createTestApp(database));
    store = await openTestFileStore('folder');
  });
  afterAll(async () => {
    await database?.close();
    await store?.close();
  });

  const generate = async (fileType: 'csv' | 'xlsx', timeZone = 'Europe/London') => {
    const { reportId, totalRows } = await queueExport(
      call,
      fixture.users.admin,
      '/transactions/full/reports',
      {
        fileType,
        columns: everyColumn,
        filters: { searchterm: '[eq]TXGOLD' },
        ordering: { OrderingField: 'date', OrderingDirection: 'Ascending' },
      },
      { 'time-zone': timeZone },
    );
    expect(totalRows).toBe(goldenRows.length);
    expect(await runNextReport({ database, files: store.files, nodeId: 'golden', batchSize: 2, log: () => undefined }), 'generated').toBe('generated');
    return storedBytes(store.files, (await reportRow(database, reportId)).filePath!);
  };

  it('writes the CSV byte for byte', async () => {
    const bytes = await generate('csv');
    expect(bytes.toString('utf8')).toBe(expectedCsv.toString('utf8'));
    expect(bytes.equals(expectedCsv)).toBe(true);
  });

  // The row-by-row path: a zone the database is not given (an offset) has each value read into JavaScript.
  it('reads each batch from where the last ended, with the refunds of a batch in one statement (row by row)', async () => {
    statements = [];
    await generate('xlsx', '+03:00');
    const captured = statements;
    statements = null;
    const batches = captured.filter((text) => /from "transactions" inner join "merchants"/i.test(text) && /limit \$\d+\) "batch"/i.test(text));
    // Ten rows in batches of two: five full batches and an empty one.
    expect(batches).toHaveLength(6);
    // After the first batch the leading key is bounded too (an index condition), not only the keyset's OR.
    for (const text of batches.slice(1)) expect(text).toMatch(/"transactions"\."created_at" >= \$\d+::timestamptz/);
    // No refund sub-query per row: one statement per batch that has payments in it.
    expect(
      captured.filter((text) => /"refunds"\."parent_reference" = "transactions"\."reference"|parent_reference = "transactions"\."reference"/i.test(text)),
    ).toEqual([]);
    expect(captured.filter((text) => /from "transactions" "refunds"/i.test(text)).length).toBeGreaterThan(0);
  });

  // CSV: the database writes each batch's lines (transaction-csv.ts); a walk along the index that formats nothing
  // finds where each batch starts, so two batches can be formatted at once.
  it('cuts the CSV into batches along the index, each starting where the last ended, with its refunds in its own statement', async () => {
    statements = [];
    await generate('csv');
    const captured = statements;
    statements = null;
    const lines = captured.filter((text) => text.includes('chr(13) || chr(10)'));
    const boundaries = captured.filter((text) => /from "transactions" inner join "merchants"/i.test(text) && /limit \$\d+ offset \$\d+$/i.test(text.trim()));
    // Ten rows in batches of two: five full batches and an empty one, and as many cuts (the last finds none).
    expect(lines).toHaveLength(6);
    expect(boundaries).toHaveLength(6);
    // After the first batch the leading key is bounded too (an index condition), not only the keyset's OR.
    for (const text of [...lines.slice(1), ...boundaries.slice(1)]) expect(text).toMatch(/"transactions"\."created_at" >= \$\d+::timestamptz/);
    // A paid payment's refunds are read in its batch's statement, by the parent index; no other statement reads them.
    for (const text of lines) expect(text).toMatch(/"refunds"\."parent_reference" = p\.c_reference/);
    expect(captured.filter((text) => /from "transactions" "refunds"/i.test(text) && !text.includes('chr(13) || chr(10)'))).toEqual([]);
  });

  // The database's lines and the row-by-row path's (a zone the database is not given, such as '+03:00') agree in
  // zones with half hours, quarter hours and daylight saving on either side of the year, in every sort.
  it.each([
    ['Europe/London', 'date', false],
    ['America/St_Johns', 'date', true],
    ['Asia/Kathmandu', 'amount', true],
    ['Pacific/Chatham', 'status', false],
    ['Australia/Lord_Howe', 'reference', true],
    ['UTC', 'merchant', false],
  ] as const)('writes the same lines in SQL as row by row in %s, sorted by %s', async (timeZone, field, descending) => {
    expect(await databaseTimeZone(database, timeZone)).toBe(timeZone);
    const query = walkQuery('TXGOLD', timeZone, field, descending, 3);
    const columns = everyColumn as TransactionColumn[];
    const kinds = exportColumnSpecs(columns, timeZone).map((spec) => spec.kind);
    const cellsOf = exportCellsOf(columns, timeZone);
    let rowByRow = '';
    for await (const batch of transactionExportBatches(database, query)) for (const row of batch) rowByRow += csvLine(cellsOf(row), kinds);
    let inSql = '';
    let rows = 0;
    for await (const batch of transactionCsvBatches(database, query, columns, timeZone)) {
      inSql += batch.chunks.join('');
      rows += batch.rows;
    }
    expect(rows).toBe(goldenRows.length);
    expect(inSql).toBe(rowByRow);
  });

  // XLSX: the database writes each batch's cells as text (cell-text.ts) for the workbook's thread; they must read back
  // as the row-by-row path's cells, nulls and empty texts apart, whatever characters a person typed.
  it.each([
    ['Europe/London', 'date', false],
    ['America/St_Johns', 'amount', true],
    ['Asia/Kathmandu', 'status', false],
    ['UTC', 'reference', true],
  ] as const)('writes the same cells in SQL as row by row in %s, sorted by %s', async (timeZone, field, descending) => {
    const query = walkQuery('TXGOLD', timeZone, field, descending, 3);
    const columns = everyColumn as TransactionColumn[];
    const cellsOf = exportCellsOf(columns, timeZone);
    const rowByRow: unknown[] = [];
    for await (const batch of transactionExportBatches(database, query)) for (const row of batch) rowByRow.push(cellsOf(row));
    const inSql: unknown[] = [];
    let rows = 0;
    for await (const batch of transactionCellBatches(database, query, columns, timeZone)) {
      expect(batch.format).toBe('cells');
      inSql.push(...rowsOfCellText(batch.chunks, columns.length));
      rows += batch.rows;
    }
    expect(rows).toBe(goldenRows.length);
    expect(inSql).toEqual(rowByRow);
    expect(inSql.flat()).toContain(null);
    expect(inSql.flat()).toContain('');
  });

  it('gives back text holding the cell text’s own separators and escape as it was typed', async () => {
    const typed = ['\u001b', 'a\u001fb\u001ec', '\u001b\u001bu', 'end\u001b', '\u001bu', '\u001br'];
    await database.query(
      `INSERT INTO transactions (reference, kind, business_id, merchant_id, partner_id, configuration_id, payment_job_reference,
      created_at, amount_minor, currency, status, payment_method, channel, decline_reason, customer_email)
      SELECT 'TXCELLS' || n, 'payment', 'B2', 'M2a', 'P1', 'C-M2a', 'PJCELLS', '2026-05-01 10:00:00+00'::timestamptz + n * interval '1 second',
      100, 'EUR', 'declined', 'card', 'Gateway', ($1::text[])[n], CASE WHEN n = 1 THEN '' ELSE ($1::text[])[n] END
      FROM generate_series(1, 6) AS n`,
      [typed],
    );
    const query = walkQuery('TXCELLS', 'UTC', 'date', false, 4);
    const columns: TransactionColumn[] = ['reference', 'declineReason', 'customerEmail', 'parentReference'];
    const read: unknown[] = [];
    for await (const batch of transactionCellBatches(database, query, columns, 'UTC')) read.push(...rowsOfCellText(batch.chunks, columns.length));
    expect(read).toEqual(typed.map((text, index) => [`TXCELLS${index + 1}`, text, index === 0 ? '' : text, null]));
  });

  it('leaves an offset or an unknown zone to the row-by-row path', async () => {
    expect(await databaseTimeZone(database, '+03:00')).toBeNull();
    expect(await databaseTimeZone(database, 'Mars/Olympus_Mons')).toBeNull();
    expect(await databaseTimeZone(database, 'GMT+3')).toBeNull();
  });

  it('writes the XLSX cell for cell', async () => {
    const bytes = await generate('xlsx');
    expect(await workbookView(bytes)).toEqual(expectedXlsx);
  });
});
