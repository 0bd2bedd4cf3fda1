// The PDF writer numbers its pages 'Page n of N': pages are buffered and the footers written once the count is known.
import { PassThrough } from 'node:stream';
import { inflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { openPdfWriter } from '../../../server/reports/pdf-statement.ts';
import type { ReportColumnSpec } from '../../../server/reports/writers.ts';

/**
 * The text pdfkit drew, page content by page content: every Flate stream inflated, and the hex strings of each TJ
 * array (standard fonts write text as hex codes of WinAnsi characters, split where kerning applies) joined.
 */
function pdfTexts(bytes: Buffer): string[] {
  const texts: string[] = [];
  const raw = bytes.toString('latin1');
  for (let at = raw.indexOf('stream\n'); at !== -1; at = raw.indexOf('stream\n', at + 1)) {
    if (raw.slice(at - 3, at) === 'end') continue;
    const end = raw.indexOf('\nendstream', at);
    if (end === -1) break;
    let content: string;
    try {
      content = inflateSync(bytes.subarray(at + 'stream\n'.length, end)).toString('latin1');
    } catch {
      continue;
    }
    for (const match of content.matchAll(/\[([^\]]*)\]\s*TJ/g)) {
      const hex = [...(match[1] ?? '').matchAll(/<([0-9a-fA-F]*)>/g)].map((part) => part[1] ?? '').join('');
      texts.push(Buffer.from(hex, 'hex').toString('latin1'));
    }
  }
  return texts;
}

async function pdfOf(rowCount: number): Promise<Buffer> {
  const stream = new PassThrough();
  const chunks: Buffer[] = [];
  stream.on('data', (chunk: Buffer) => chunks.push(chunk));
  const columns: ReportColumnSpec[] = [
    { header: 'Date (UTC)', kind: 'datetime' },
    { header: 'Category', kind: 'text' },
    { header: 'Amount (GBP)', kind: 'decimal' },
  ];
  const writer = await openPdfWriter(
    stream,
    columns,
    {
      title: 'Trading account statement',
      holder: 'Alpha Web (Alpha Trading Ltd)',
      accountNumber: '3M1a070215',
      currency: 'GBP',
      period: '1 October 2026 to 31 October 2026 (UTC)',
    },
    new Date('2026-11-01T08:00:00Z'),
  );
  for (let index = 0; index < rowCount; index += 1) await writer.write(['2026-10-01 10:00:00', `Sale ${index + 1}`, '12.50']);
  writer.setSummary({ heading: 'Totals', lines: [['Closing balance', '1.00 GBP']] });
  await writer.finish();
  return Buffer.concat(chunks);
}

describe('PDF statement pages', () => {
  it('says "Page n of N" on every page of a long statement', async () => {
    const texts = pdfTexts(await pdfOf(130));
    // The rows were drawn, so the text could be read at all.
    expect(texts).toContain('Sale 130');
    const pages = texts.filter((text) => text.startsWith('Page '));
    expect(pages).toEqual(['Page 1 of 3', 'Page 2 of 3', 'Page 3 of 3']);
  });

  it('a one-page statement is page 1 of 1', async () => {
    expect(pdfTexts(await pdfOf(3)).filter((text) => text.startsWith('Page '))).toEqual(['Page 1 of 1']);
  });
});
