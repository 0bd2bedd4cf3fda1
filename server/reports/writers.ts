// Report file writers that stream row by row into a stream (the FileStore's put reads it): CSV (RFC 4180, UTF-8 with
// BOM for Excel, formula injection neutralised) and XLSX (exceljs's streaming WorkbookWriter: rows are flushed as
// they are committed). Neither holds the file in memory.
import { once } from 'node:events';
import type { Writable } from 'node:stream';
import type ExcelJS from 'exceljs';
import WorkbookWriter from 'exceljs/lib/stream/xlsx/workbook-writer.js';
import { rowsOfCellText } from './cell-text.ts';

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
  /** CSV only: lines already formatted by csvLine's rules (the database wrote them: transaction-csv.ts), as they are. */
  writeText?: (text: string) => Promise<void>;
  /** XLSX only: a batch's rows as cell text (cell-text.ts), pieces of whole rows. */
  writeCells?: (chunks: string[]) => Promise<void>;
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
  stream.on('error', (error) => {
    failure = error;
  });
  const write = async (text: string) => {
    if (failure) throw failure;
    if (!stream.write(text)) await once(stream, 'drain');
  };
  // Headers are ours, but neutralised all the same: the rule is simplest when it has no exceptions.
  await write(
    byteOrderMark +
      csvLine(
        columns.map((column) => column.header),
        columns.map(() => 'text'),
      ),
  );
  return {
    write: (row) => write(csvLine(row, kinds)),
    writeBatch: (rows) => {
      let text = '';
      for (const row of rows) text += csvLine(row, kinds);
      return write(text);
    },
    writeText: write,
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

/** The XLSX writer: it always takes whole batches, as rows or as cell text. */
export type XlsxWriter = ReportWriter & Required<Pick<ReportWriter, 'writeBatch' | 'writeCells'>>;

/** Excel holds 1,048,576 rows a sheet; longer reports continue on 'Transactions 2', 3… with the header repeated. */
export const xlsxRowsPerSheet = 1_048_575;

/**
 * zlib's level for the workbook's zip: 1 (fastest) takes a third of the default's time for a file about a fifth
 * larger; the cells are the same.
 */
const xlsxZipLevel = 1;

const numberFormats: Record<ColumnKind, string | undefined> = {
  text: '@',
  decimal: undefined,
  datetime: 'yyyy-mm-dd hh:mm:ss',
};

const digit = (text: string, index: number) => text.charCodeAt(index) - 48;

function wallClockToExcelDate(value: string): Date | null {
  // 'yyyy-MM-dd HH:mm:ss' read by character codes (a regular expression per cell cost more than the rest of the cell).
  if (value.length !== 19 || value[4] !== '-' || value[7] !== '-' || value[10] !== ' ' || value[13] !== ':' || value[16] !== ':') return null;
  const parts = [0, 5, 8, 11, 14, 17].map((at, index) => {
    const width = index === 0 ? 4 : 2;
    let number = 0;
    for (let offset = 0; offset < width; offset += 1) {
      const code = digit(value, at + offset);
      if (code < 0 || code > 9) return NaN;
      number = number * 10 + code;
    }
    return number;
  });
  if (parts.some(Number.isNaN)) return null;
  const [year, month, day, hours, minutes, seconds] = parts as [number, number, number, number, number, number];
  // Excel dates have no zone: the wall-clock components are written as they read.
  return new Date(Date.UTC(year, month - 1, day, hours, minutes, seconds));
}

/**
 * Cells of one column and format share one style object: exceljs keys its style table by the style object's identity
 * (a WeakMap) and otherwise renders every cell's style to XML to find its number, which was most of an export's time.
 */
function styleCache() {
  const styles = new Map<string, { numFmt: string }>();
  return (numFmt: string) => {
    let style = styles.get(numFmt);
    if (!style) {
      style = Object.freeze({ numFmt }) as { numFmt: string };
      styles.set(numFmt, style);
    }
    return style;
  };
}

/** A decimal keeps its currency's places: 12.50 and ¥1,250 both read as written. */
const decimalFormat = (value: string) => {
  const point = value.indexOf('.');
  const places = point < 0 ? 0 : value.length - point - 1;
  return places === 0 ? '#,##0' : `#,##0.${'0'.repeat(places)}`;
};

/** The part of a stream's state the back-pressure check reads (archiver's streams are readable-stream 2's). */
type EntryStream = {
  once: (event: 'drain', listener: () => void) => void;
  off: (event: 'drain', listener: () => void) => void;
  _writableState?: { needDrain?: boolean };
};

/** The zip entry exceljs pipes a sheet's XML into (archiver wraps the sheet's stream in a PassThrough), when it has that shape. */
function sheetEntryOf(sheet: ExcelJS.Worksheet): EntryStream | null {
  const entry = (sheet as unknown as { stream?: { pipes?: unknown[] } }).stream?.pipes?.[0] as EntryStream | undefined;
  return entry && typeof entry.once === 'function' && typeof entry.off === 'function' && typeof entry._writableState === 'object' ? entry : null;
}

export async function openXlsxWriter(
  stream: Writable,
  columns: readonly ReportColumnSpec[],
  sheetName: string,
  options: { rowsPerSheet?: number } = {},
): Promise<XlsxWriter> {
  const rowsPerSheet = options.rowsPerSheet ?? xlsxRowsPerSheet;
  const workbook = new WorkbookWriter({ stream, useStyles: true, useSharedStrings: false, zip: { zlib: { level: xlsxZipLevel } } });
  const sharedStyle = styleCache();
  const count = columns.length;
  const kinds = columns.map((column) => column.kind);
  const columnStyles = columns.map((column) => {
    const numFmt = numberFormats[column.kind];
    return numFmt ? sharedStyle(numFmt) : null;
  });
  let sheetNumber = 0;
  let rowsInSheet = 0;
  const newSheet = () => {
    sheetNumber += 1;
    const sheet = workbook.addWorksheet(sheetNumber === 1 ? sheetName : `${sheetName} ${sheetNumber}`, { views: [{ state: 'frozen', ySplit: 1 }] });
    sheet.columns = columns.map((column, index) => {
      const numFmt = numberFormats[column.kind];
      return {
        header: column.header,
        key: String(index),
        width: column.width ?? Math.max(12, column.header.length + 2),
        ...(numFmt ? { style: { numFmt } } : {}),
      };
    });
    sheet.getRow(1).font = { bold: true };
    rowsInSheet = 0;
    return sheet;
  };
  let sheet = newSheet();
  const values: (string | number | Date | null)[] = new Array(count);
  const writeRow = (row: ReportRow) => {
    if (rowsInSheet >= rowsPerSheet) {
      sheet.commit();
      sheet = newSheet();
    }
    for (let index = 0; index < count; index += 1) {
      const value = row[index] ?? null;
      const kind = kinds[index];
      values[index] = value === null ? null : kind === 'decimal' ? Number(value) : kind === 'datetime' ? (wallClockToExcelDate(value) ?? value) : value;
    }
    const added = sheet.addRow(values);
    for (let index = 0; index < count; index += 1) {
      const value = row[index] ?? null;
      const style = kinds[index] !== 'decimal' ? columnStyles[index] : value === null ? null : sharedStyle(decimalFormat(value));
      if (style) added.getCell(index + 1).style = style;
    }
    added.commit();
    rowsInSheet += 1;
  };
  /**
   * exceljs writes a sheet's XML into its zip entry without waiting for the zip to take it: a batch waits until the
   * entry has drained, so rows never pile up in memory ahead of the compression.
   */
  const zipCaughtUp = async () => {
    const entry = sheetEntryOf(sheet);
    if (!entry?._writableState?.needDrain) return;
    // The file's stream may end first (its store failed, the export was discarded): then nothing drains any more.
    await new Promise<void>((done) => {
      const settle = () => {
        entry.off('drain', settle);
        stream.off('close', settle);
        stream.off('error', settle);
        done();
      };
      entry.once('drain', settle);
      stream.once('close', settle);
      stream.once('error', settle);
    });
    if (stream.destroyed) throw stream.errored ?? new Error('The report file stream closed before the workbook was written.');
  };
  const writer: XlsxWriter = {
    write: async (row) => {
      writeRow(row);
      if (rowsInSheet % 1000 === 0) await zipCaughtUp();
    },
    writeBatch: async (rows) => {
      for (const row of rows) writeRow(row);
      await zipCaughtUp();
    },
    // A piece at a time (a few hundred rows), so each row's cells die young.
    writeCells: async (chunks) => {
      for (const chunk of chunks) for (const row of rowsOfCellText([chunk], count)) writeRow(row);
      await zipCaughtUp();
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
