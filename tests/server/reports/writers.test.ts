import { createWriteStream, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { minorUnitsToDecimal, wallClock, wallClockFormatter, wallClockOfTextFormatter } from '../../../server/reports/transaction-export.ts';
import { csvLine, csvQuote, neutraliseFormula, openCsvWriter, openXlsxWriter, type ReportColumnSpec } from '../../../server/reports/writers.ts';
import { openXlsxThreadWriter } from '../../../server/reports/xlsx-remote.ts';
import { parseCsv } from './csv-reader.ts';

describe('CSV', () => {
  it.each([
    ['plain', 'plain'],
    ['a,b', '"a,b"'],
    ['say "hi"', '"say ""hi"""'],
    ['two\nlines', '"two\nlines"'],
    ['cr\r', '"cr\r"'],
    ['', ''],
  ])('quotes %j as %j (RFC 4180)', (value, quoted) => {
    expect(csvQuote(value)).toBe(quoted);
  });

  it.each([
    ['=1+1', "'=1+1"],
    ['+44 20 7946 0000', "'+44 20 7946 0000"],
    ['-2+3', "'-2+3"],
    ['@SUM(A1)', "'@SUM(A1)"],
    ['\tx', "'\tx"],
    ['\rx', "'\rx"],
    ['a=b', 'a=b'],
    ['Alpha Online', 'Alpha Online'],
    ['', ''],
  ])('neutralises formula triggers: %j → %j', (value, safe) => {
    expect(neutraliseFormula(value)).toBe(safe);
  });

  it('neutralises text cells only: amounts and dates are ours and stay numbers', () => {
    expect(csvLine(['=HYPERLINK("http://x")', '-12.50', '2026-11-01 10:00:00', null], ['text', 'decimal', 'datetime', 'text'])).toBe(
      `"'=HYPERLINK(""http://x"")",-12.50,2026-11-01 10:00:00,\r\n`,
    );
  });

  it('reads back every text exactly, neutralised or not', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ maxLength: 20 }), { minLength: 1, maxLength: 5 }), (cells) => {
        const parsed = parseCsv(
          csvLine(
            cells,
            cells.map(() => 'text'),
          ),
        );
        expect(parsed).toEqual([cells.map(neutraliseFormula)]);
      }),
    );
  });

  it('writes UTF-8 with a byte-order mark and CRLF lines', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'csv-')), 'out.csv');
    const writer = await openCsvWriter(createWriteStream(path), [
      { header: 'Name', kind: 'text' },
      { header: 'Amount', kind: 'decimal' },
    ]);
    await writer.write(['Crème brûlée, “fancy”', '3.50']);
    await writer.write(['=cmd', '0.00']);
    await writer.finish();
    const bytes = readFileSync(path);
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(bytes.toString('utf8').slice(1)).toBe('Name,Amount\r\n"Crème brûlée, “fancy”",3.50\r\n\'=cmd,0.00\r\n');
  });
});

describe('wall clock of one export', () => {
  const zones = [
    'Europe/London',
    'America/New_York',
    'Australia/Lord_Howe',
    'Asia/Kathmandu',
    'America/St_Johns',
    'Pacific/Chatham',
    'UTC',
    'Africa/Casablanca',
  ];

  it.each(zones)('reads %s as wallClock does, across its clock changes and at any millisecond', (zone) => {
    const clock = wallClockFormatter(zone);
    // About every 3½ hours (odd seconds and milliseconds) through 2026 and 2027, and each hour's first and last minute.
    for (let ms = Date.UTC(2026, 0, 1); ms < Date.UTC(2028, 0, 1); ms += 12_611_997) {
      const instant = new Date(ms);
      if (clock(instant) !== wallClock(instant, zone)) expect(clock(instant), instant.toISOString()).toBe(wallClock(instant, zone));
    }
  });

  it('reads the seconds around London’s clock changes as wallClock does', () => {
    const clock = wallClockFormatter('Europe/London');
    for (const start of [Date.UTC(2026, 2, 29, 0, 59, 0), Date.UTC(2026, 9, 25, 0, 59, 0)]) {
      for (let ms = start; ms < start + 120_000; ms += 500) expect(clock(new Date(ms))).toBe(wallClock(new Date(ms), 'Europe/London'));
    }
    expect(clock(new Date('2026-10-25T00:30:00Z'))).toBe('2026-10-25 01:30:00');
    expect(clock(new Date('2026-10-25T01:30:00Z'))).toBe('2026-10-25 01:30:00');
    expect(clock(new Date('2026-03-29T01:00:00Z'))).toBe('2026-03-29 02:00:00');
  });

  it('hands instants outside 1970–9999 to wallClock', () => {
    const clock = wallClockFormatter('Europe/London');
    for (const iso of ['1969-12-31T23:59:59.999Z', '1847-11-30T12:00:00Z']) expect(clock(new Date(iso))).toBe(wallClock(new Date(iso), 'Europe/London'));
  });

  it("reads PostgreSQL's text of a timestamp as the text read by Date reads", () => {
    // Offsets as a session's TimeZone writes them, fractions of every length, both clock changes, and shapes only Date reads.
    const texts = [
      '2026-10-25 00:30:00+00',
      '2026-10-25 01:30:00.999999+00',
      '2026-03-29 00:59:59.999999+00',
      '2026-03-29 01:00:00+00',
      '2026-06-30 23:00:00.000001+00',
      '2026-06-30 23:00:00.5+00',
      '2026-01-01 05:30:00+05:30',
      '2025-12-31 19:00:00.12-05',
      '2026-07-01 01:00:00+01',
      '1970-01-01 00:00:00+00',
      '1969-12-31 23:59:59.5+00',
      '1847-11-30 12:00:00+00',
      '9999-12-31 23:59:59+00',
      '2026-10-25 02:00:00+01:00',
    ];
    for (const zone of ['Europe/London', 'Asia/Kathmandu', 'UTC']) {
      const clock = wallClockOfTextFormatter(zone);
      for (const text of texts) expect(clock(text), `${text} in ${zone}`).toBe(wallClock(new Date(text), zone));
    }
    // Any instant of 2026–2027, to the microsecond, at a few offsets.
    fc.assert(
      fc.property(
        fc.integer({ min: Date.UTC(2026, 0, 1), max: Date.UTC(2028, 0, 1) }),
        fc.integer({ min: 0, max: 999_999 }),
        fc.constantFrom(0, 60, -300, 330, 345),
        (ms, micros, offsetMinutes) => {
          const local = new Date(ms + offsetMinutes * 60_000).toISOString();
          const sign = offsetMinutes < 0 ? '-' : '+';
          const offset = `${sign}${String(Math.floor(Math.abs(offsetMinutes) / 60)).padStart(2, '0')}${Math.abs(offsetMinutes) % 60 ? `:${String(Math.abs(offsetMinutes) % 60).padStart(2, '0')}` : ''}`;
          const text = `${local.slice(0, 10)} ${local.slice(11, 19)}.${String(micros).padStart(6, '0')}${offset}`;
          expect(wallClockOfTextFormatter('Europe/London')(text)).toBe(wallClock(new Date(text), 'Europe/London'));
        },
      ),
      { numRuns: 500 },
    );
  });
});

describe('a batch of rows', () => {
  it('is the same CSV as its rows written one by one', async () => {
    const columns: ReportColumnSpec[] = [
      { header: 'Name', kind: 'text' },
      { header: 'Amount', kind: 'decimal' },
      { header: 'At', kind: 'datetime' },
    ];
    const rows = [
      ['=cmd', '-1.00', '2026-01-01 00:00:00'],
      ['a,"b"\nc', '0.00', null],
      [null, null, null],
      ['', '1', ''],
    ];
    const folder = mkdtempSync(join(tmpdir(), 'csv-'));
    const one = await openCsvWriter(createWriteStream(join(folder, 'one.csv')), columns);
    for (const row of rows) await one.write(row);
    await one.finish();
    const batch = await openCsvWriter(createWriteStream(join(folder, 'batch.csv')), columns);
    await batch.writeBatch?.(rows);
    await batch.finish();
    expect(readFileSync(join(folder, 'batch.csv')).equals(readFileSync(join(folder, 'one.csv')))).toBe(true);
    expect(readFileSync(join(folder, 'batch.csv'), 'utf8')).toBe(
      '\uFEFFName,Amount,At\r\n\'=cmd,-1.00,2026-01-01 00:00:00\r\n"a,""b""\nc",0.00,\r\n,,\r\n,1,\r\n',
    );
  });
});

describe.each([
  ['on the calling thread', openXlsxWriter],
  ['on its own thread', openXlsxThreadWriter],
])('XLSX written %s', (_where, openWriter) => {
  const columns: ReportColumnSpec[] = [
    { header: 'Date (Europe/London)', kind: 'datetime' },
    { header: 'Reference', kind: 'text' },
    { header: 'Amount', kind: 'decimal' },
  ];

  it('writes typed cells: dates as dates, amounts as numbers, text as text (never a formula)', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'xlsx-')), 'out.xlsx');
    const writer = await openWriter(createWriteStream(path), columns, 'Transactions');
    await writer.write(['2026-11-01 10:30:00', '=1+1', '12.50']);
    await writer.write(['2026-11-02 00:00:00', 'TX2', '1250']);
    await writer.finish();
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.readFile(path);
    const sheet = workbook.getWorksheet('Transactions');
    expect(sheet?.getRow(1).values).toEqual([undefined, 'Date (Europe/London)', 'Reference', 'Amount']);
    const row = sheet?.getRow(2);
    expect((row!.getCell(1).value as Date).toISOString()).toBe('2026-11-01T10:30:00.000Z');
    expect(row?.getCell(2).value).toBe('=1+1');
    expect(row?.getCell(2).formula).toBeUndefined();
    expect(row?.getCell(3).value).toBe(12.5);
    expect(row?.getCell(3).numFmt).toBe('#,##0.00');
    expect(sheet?.getRow(3).getCell(3).numFmt).toBe('#,##0');
  });

  it('continues on a new sheet when one is full, never dropping rows', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'xlsx-')), 'out.xlsx');
    const writer = await openWriter(createWriteStream(path), columns, 'Transactions', { rowsPerSheet: 2 });
    for (let i = 1; i <= 5; i += 1) await writer.write(['2026-11-01 10:30:00', `TX${i}`, '1.00']);
    await writer.finish();
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.readFile(path);
    expect(workbook.worksheets.map((sheet) => sheet.name)).toEqual(['Transactions', 'Transactions 2', 'Transactions 3']);
    const references = workbook.worksheets.flatMap((sheet) =>
      sheet
        .getSheetValues()
        .slice(2)
        .map((values) => (values as unknown[])[2]),
    );
    expect(references).toEqual(['TX1', 'TX2', 'TX3', 'TX4', 'TX5']);
  });
});

describe('XLSX on its own thread', () => {
  const columns: ReportColumnSpec[] = [
    { header: 'Date (UTC)', kind: 'datetime' },
    { header: 'Reference', kind: 'text' },
    { header: 'Amount', kind: 'decimal' },
    { header: 'Note', kind: 'text' },
  ];
  const rowAt = (index: number): (string | null)[] => [
    `2026-${String((index % 12) + 1).padStart(2, '0')}-${String((index % 28) + 1).padStart(2, '0')} 0${index % 10}:15:00`,
    index % 7 === 0 ? `=HYPERLINK("x${index}")` : `TX${index}`,
    index % 3 === 0 ? `${index}` : `${index}.${String(index % 100).padStart(2, '0')}`,
    index % 5 === 0 ? null : `note ${index} <&> "é"`,
  ];
  const cellsOf = async (path: string) => {
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.readFile(path);
    return workbook.worksheets.flatMap((sheet) => {
      const rows: unknown[][] = [];
      sheet.eachRow({ includeEmpty: true }, (row) => {
        rows.push(columns.map((_, index) => [row.getCell(index + 1).value, row.getCell(index + 1).numFmt]));
      });
      return [sheet.name, ...rows];
    });
  };

  it('writes the same cells as the writer on the calling thread, batch after batch and across sheets', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'xlsx-'));
    const rows = Array.from({ length: 12_345 }, (_, index) => rowAt(index));
    for (const [name, open] of [
      ['here.xlsx', openXlsxWriter],
      ['thread.xlsx', openXlsxThreadWriter],
    ] as const) {
      const writer = await open(createWriteStream(join(folder, name)), columns, 'Transactions', { rowsPerSheet: 10_000 });
      for (let start = 0; start < rows.length; start += 5_000) await writer.writeBatch?.(rows.slice(start, start + 5_000));
      await writer.write(rowAt(99_999));
      await writer.finish();
    }
    const here = await cellsOf(join(folder, 'here.xlsx'));
    expect(here.length).toBe(2 + 2 + 12_346);
    expect(here.filter((entry) => typeof entry === 'string')).toEqual(['Transactions', 'Transactions 2']);
    expect(await cellsOf(join(folder, 'thread.xlsx'))).toEqual(here);
  });

  // The thread's heap is 48 MB: a batch of about 60 MB of text (long values in every column) goes over in parts.
  it('writes a batch far larger than its thread’s heap, given as rows or as cell text', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'xlsx-'));
    const long = (index: number, column: number) => `${String(index).padStart(6, '0')}-${column}-${'y'.repeat(5_000)}`;
    const rows = Array.from({ length: 4_000 }, (_, index): (string | null)[] => ['2026-11-01 10:30:00', long(index, 1), '1.00', long(index, 3)]);
    const asRows = await openXlsxThreadWriter(createWriteStream(join(folder, 'rows.xlsx')), columns, 'Transactions');
    await asRows.writeBatch?.([...rows, ...rows, ...rows]);
    await asRows.finish();
    const cellText = rows.map((row) => `${row.join('\u001f')}\u001e`);
    const asCells = await openXlsxThreadWriter(createWriteStream(join(folder, 'cells.xlsx')), columns, 'Transactions');
    await asCells.writeCells?.([...cellText, ...cellText, ...cellText]);
    await asCells.finish();
    for (const name of ['rows.xlsx', 'cells.xlsx']) {
      const workbook = new ExcelJS.Workbook();
      await workbook.xlsx.readFile(join(folder, name));
      const sheet = workbook.getWorksheet('Transactions');
      expect(sheet?.rowCount).toBe(1 + 12_000);
      expect(sheet?.getRow(12_001).getCell(2).value).toBe(long(3_999, 1));
    }
  });

  it('fails the batch, not the process, when the file’s stream breaks, and ends its thread', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'xlsx-'));
    const stream = createWriteStream(join(folder, 'broken.xlsx'));
    const writer = await openXlsxThreadWriter(stream, columns, 'Transactions');
    stream.destroy(new Error('the store went away'));
    const rows = Array.from({ length: 5_000 }, (_, index) => rowAt(index));
    await expect(
      (async () => {
        for (let batch = 0; batch < 20; batch += 1) await writer.writeBatch?.(rows);
        await writer.finish();
      })(),
    ).rejects.toThrow('the store went away');
    await writer.abort();
  });

  it('stops at once when aborted: the stream is destroyed and nothing more is written', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'xlsx-'));
    const stream = createWriteStream(join(folder, 'aborted.xlsx'));
    const writer = await openXlsxThreadWriter(stream, columns, 'Transactions');
    await writer.writeBatch?.([rowAt(1), rowAt(2)]);
    await writer.abort();
    expect(stream.destroyed).toBe(true);
    await expect(writer.writeBatch?.([rowAt(3)])).rejects.toThrow();
  });
});

describe('cell values', () => {
  it.each([
    [1250, 2, '12.50'],
    [5, 2, '0.05'],
    [0, 2, '0.00'],
    [-1250, 2, '-12.50'],
    [1250, 0, '1250'],
    [1234, 3, '1.234'],
    [9_007_199_254_740_991, 2, '90071992547409.91'],
  ])('%d minor units at exponent %d read %s', (minor, exponent, decimal) => {
    expect(minorUnitsToDecimal(minor, exponent)).toBe(decimal);
  });

  it('writes dates as wall-clock time in the report’s zone', () => {
    expect(wallClock(new Date('2026-07-01T23:30:00Z'), 'Europe/London')).toBe('2026-07-02 00:30:00');
    expect(wallClock(new Date('2026-12-01T23:30:00Z'), 'Europe/London')).toBe('2026-12-01 23:30:00');
  });
});
