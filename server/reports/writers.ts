// Report file writers that stream row by row into a stream (the FileStore's put reads it): CSV (RFC 4180, UTF-8 with
// BOM for Excel, formula injection neutralised) and XLSX (exceljs's streaming WorkbookWriter: rows are flushed as
// they are committed). Neither holds the file in memory.
import { once } from 'node:events';
import type { Writable } from 'node:stream';
import ExcelJS from 'exceljs';

/**
 * text: anything a person or another system typed (neutralised in CSV); decimal: '12.50' made by us from
 * integers; datetime: 'yyyy-MM-dd HH:mm:ss' wall-clock in the report's zone.
 */
export type ColumnKind = 'text' | 'decimal' | 'datetime';
export type ReportColumnSpec = { header: string; kind: ColumnKind; width?: number };
export type ReportRow = (string | null)[];

export type ReportWriter = {
  write: (row: ReportRow) => Promise<void>;
  /**
   * Optional: the same as write for each row in turn, for a whole batch at once (the CSV writer makes one string
   * of it and waits on the stream once). Callers use it when present and fall back to write.
   */
  writeBatch?: (rows: readonly ReportRow[]) => Promise<void>;
  /** Writes the end of the file and ends the stream; resolves once the stream has taken every byte. */
  finish: () => Promise<void>;
  /** Stops without finishing: the stream is destroyed, so whatever reads it stores nothing. */
  abort: () => Promise<void>;
};

const formulaTriggers = new Set(['=', '+', '-', '@', '\t', '\r']);

/**
 * A spreadsheet must never read a cell as a formula: text starting with = + - @ tab or carriage return gets a
 * leading apostrophe (OWASP's CSV injection advice), so '=HYPERLINK(…)' shows as text.
 */
export function neutraliseFormula(value: string): string {
  return value.length > 0 && formulaTriggers.has(value[0] as string) ? `'${value}` : value;
}

/** RFC 4180: a field holding a quote, comma, CR or LF is quoted, with quotes doubled. */
export function csvQuote(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value;
}

const needsQuotes = /[",\r\n]/;

export function csvLine(row: ReportRow, kinds: readonly ColumnKind[]): string {
  let line = '';
  for (let index = 0; index < row.length; index += 1) {
    if (index > 0) line += ',';
    const value = row[index];
    if (value === null || value === undefined || value === '') continue;
    const text = kinds[index] === 'text' && formulaTriggers.has(value[0] as string) ? `'${value}` : value;
    line += needsQuotes.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
  }
  return `${line}\r\n`;
}

const byteOrderMark = '\uFEFF';

export async function openCsvWriter(stream: Writable, columns: readonly ReportColumnSpec[]): Promise<ReportWriter> {
  const kinds = columns.map((column) => column.kind);
  let failure: Error | null = null;
  stream.on('error', (error) => { failure = error; });
  const write = async (text: string) => {
    if (failure) throw failure;
    if (!stream.write(text)) await once(stream, 'drain');
  };
  // Headers are ours, but neutralised all the same: the rule is simplest when it has no exceptions.
  await write(byteOrderMark + csvLine(columns.map((column) => column.header), columns.map(() => 'text')));
  return {
    write: (row) => write(csvLine(row, kinds)),
    writeBatch: (rows) => {
      let text = '';
      for (const row of rows) text += csvLine(row, kinds);
      return write(text);
    },
    finish: async () => {
      if (failure) throw failure;
      const finished = once(stream, 'finish');
      stream.end();
      await finished;
    },
    abort: async () => {
      stream.destroy();
    },
  };
}

/** Excel holds 1,048,576 rows a sheet; longer reports continue on 'Transactions 2', 3… with the header repeated. */
export const xlsxRowsPerSheet = 1_048_575;

const numberFormats: Record<ColumnKind, string | undefined> = {
  text: '@',
  decimal: undefined,
  datetime: 'yyyy-mm-dd hh:mm:ss',
};

function wallClockToExcelDate(value: string): Date | null {
  const match = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/.exec(value);
  if (!match) return null;
  // Excel dates have no zone: the wall-clock components are written as they read.
  return new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]), Number(match[4]), Number(match[5]), Number(match[6])));
}

export async function openXlsxWriter(stream: Writable, columns: readonly ReportColumnSpec[], sheetName: string, options: { rowsPerSheet?: number } = {}): Promise<ReportWriter> {
  const rowsPerSheet = options.rowsPerSheet ?? xlsxRowsPerSheet;
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream, useStyles: true, useSharedStrings: false });
  let sheetNumber = 0;
  let rowsInSheet = 0;
  const newSheet = () => {
    sheetNumber += 1;
    const sheet = workbook.addWorksheet(sheetNumber === 1 ? sheetName : `${sheetName} ${sheetNumber}`, { views: [{ state: 'frozen', ySplit: 1 }] });
    sheet.columns = columns.map((column, index) => {
      const numFmt = numberFormats[column.kind];
      return { header: column.header, key: String(index), width: column.width ?? Math.max(12, column.header.length + 2), ...(numFmt ? { style: { numFmt } } : {}) };
    });
    sheet.getRow(1).font = { bold: true };
    rowsInSheet = 0;
    return sheet;
  };
  let sheet = newSheet();
  const writer: ReportWriter = {
    write: async (row) => {
      if (rowsInSheet >= rowsPerSheet) {
        sheet.commit();
        sheet = newSheet();
      }
      const values = row.map((value, index) => {
        if (value === null) return null;
        const column = columns[index];
        if (column?.kind === 'decimal') return Number(value);
        if (column?.kind === 'datetime') return wallClockToExcelDate(value) ?? value;
        return value;
      });
      const added = sheet.addRow(values);
      row.forEach((value, index) => {
        // A decimal keeps its currency's places: 12.50 and ¥1,250 both read as written.
        if (value !== null && columns[index]?.kind === 'decimal') {
          const places = value.includes('.') ? (value.split('.')[1]?.length ?? 0) : 0;
          added.getCell(index + 1).numFmt = places === 0 ? '#,##0' : `#,##0.${'0'.repeat(places)}`;
        }
      });
      added.commit();
      rowsInSheet += 1;
    },
    writeBatch: async (rows) => {
      for (const row of rows) await writer.write(row);
    },
    finish: async () => {
      sheet.commit();
      // Resolves on the stream's 'finish': the zip has been written whole.
      await workbook.commit();
    },
    abort: async () => {
      stream.destroy();
    },
  };
  return writer;
}
