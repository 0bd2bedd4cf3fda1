// A PDF writer for statements and ledger reports (pdfkit, standard fonts): a title block with the provider's and the
// account holder's names and the period, a table whose header repeats on every page, 'Page n of N' and a footer on
// every page, then the totals per category and the closing balance. The page count is known only at the end, so
// pages are buffered (pdfkit's bufferPages) and the footers are written in a final pass over them before the
// document is flushed; the PDF objects themselves stay small (text with standard fonts). A4 portrait, black on white,
// readable printed.
import PDFDocument from 'pdfkit';
import type { Writable } from 'node:stream';
import { once } from 'node:events';
import type { ReportColumnSpec, ReportRow, ReportWriter } from './writers.ts';

export const providerName = 'Portal Payments Ltd';

export type PdfHeading = {
  title: string;
  holder: string;
  accountNumber: string;
  period: string;
  currency: string;
  /** lines printed under the heading (opening balance…) */
  lines?: readonly string[];
};

export type PdfSummary = { heading: string; lines: readonly (readonly [string, string])[] };

const margin = 40;
const rowHeight = 14;
const fontSize = 8;

export type PdfReportWriter = ReportWriter & { setSummary: (summary: PdfSummary) => void };

export async function openPdfWriter(stream: Writable, columns: readonly ReportColumnSpec[], heading: PdfHeading, generatedAt: Date): Promise<PdfReportWriter> {
  const doc = new PDFDocument({
    size: 'A4',
    margin,
    info: { Title: `${heading.title} ${heading.accountNumber}`, Author: providerName },
    autoFirstPage: false,
    bufferPages: true,
  });
  let failure: Error | null = null;
  stream.on('error', (error) => {
    failure = error;
  });
  doc.pipe(stream);
  const width = () => doc.page.width - margin * 2;
  const totalWeight = columns.reduce((sum, column) => sum + (column.width ?? 12), 0);
  const columnWidths = () => columns.map((column) => ((column.width ?? 12) / totalWeight) * width());
  let y = 0;
  let summary: PdfSummary | null = null;

  /** The footer of one page: written once every page exists, so it can say how many there are. */
  const footer = (pageNumber: number, pageCount: number) => {
    const bottom = doc.page.height - margin + 10;
    // pdfkit starts a new page for text inside the bottom margin: the footer lives there, so the margin is lifted for it.
    const bottomMargin = doc.page.margins.bottom;
    doc.page.margins.bottom = 0;
    doc.font('Helvetica').fontSize(7).fillColor('#000000');
    doc.text(
      `${providerName} · ${heading.title} · account ${heading.accountNumber} · generated ${generatedAt.toISOString().slice(0, 16).replace('T', ' ')} UTC`,
      margin,
      bottom,
      { width: width() - 90, lineBreak: false },
    );
    doc.text(`Page ${pageNumber} of ${pageCount}`, margin + width() - 90, bottom, { width: 90, align: 'right', lineBreak: false });
    doc.page.margins.bottom = bottomMargin;
  };
  const tableHeader = () => {
    doc.font('Helvetica-Bold').fontSize(fontSize);
    let x = margin;
    columns.forEach((column, index) => {
      const w = columnWidths()[index] ?? 40;
      doc.text(column.header, x + 2, y + 3, { width: w - 4, align: column.kind === 'decimal' ? 'right' : 'left', lineBreak: false });
      x += w;
    });
    y += rowHeight;
    doc
      .moveTo(margin, y)
      .lineTo(margin + width(), y)
      .lineWidth(0.75)
      .stroke('#000000');
    y += 2;
  };
  const newPage = (withHeader: boolean) => {
    doc.addPage();
    y = margin;
    if (withHeader) tableHeader();
  };

  newPage(false);
  doc.font('Helvetica-Bold').fontSize(14).fillColor('#000000').text(heading.title, margin, y);
  doc.font('Helvetica').fontSize(9);
  doc.text(providerName);
  doc.text(`Account holder: ${heading.holder}`);
  doc.text(`Account number: ${heading.accountNumber} (${heading.currency})`);
  doc.text(`Period: ${heading.period}`);
  for (const line of heading.lines ?? []) doc.text(line);
  y = doc.y + 10;
  tableHeader();

  const bottomLimit = () => doc.page.height - margin - rowHeight - 6;
  const drain = async () => {
    if (failure) throw failure;
    if (stream.writableNeedDrain) await once(stream, 'drain');
  };

  return {
    setSummary: (value) => {
      summary = value;
    },
    write: async (row: ReportRow) => {
      if (y > bottomLimit()) newPage(true);
      doc.font('Helvetica').fontSize(fontSize).fillColor('#000000');
      let x = margin;
      const widths = columnWidths();
      row.forEach((value, index) => {
        const w = widths[index] ?? 40;
        doc.text(value ?? '', x + 2, y + 3, { width: w - 4, align: columns[index]?.kind === 'decimal' ? 'right' : 'left', lineBreak: false, ellipsis: true });
        x += w;
      });
      y += rowHeight;
      await drain();
    },
    finish: async () => {
      if (summary) {
        const lines = (summary as PdfSummary).lines;
        if (y + (lines.length + 3) * rowHeight > bottomLimit()) newPage(false);
        y += 8;
        doc
          .moveTo(margin, y)
          .lineTo(margin + width(), y)
          .lineWidth(0.75)
          .stroke('#000000');
        y += 6;
        doc
          .font('Helvetica-Bold')
          .fontSize(10)
          .text((summary as PdfSummary).heading, margin, y, { lineBreak: false });
        y += rowHeight + 2;
        for (const [label, value] of lines) {
          const bold = /closing|opening/i.test(label);
          doc.font(bold ? 'Helvetica-Bold' : 'Helvetica').fontSize(9);
          doc.text(label, margin, y, { width: width() / 2, lineBreak: false });
          doc.text(value, margin + width() / 2, y, { width: width() / 2, align: 'right', lineBreak: false });
          y += rowHeight;
        }
      }
      const pages = doc.bufferedPageRange();
      for (let index = 0; index < pages.count; index += 1) {
        doc.switchToPage(pages.start + index);
        footer(index + 1, pages.count);
      }
      const finished = once(stream, 'finish');
      doc.end();
      await finished;
      if (failure) throw failure;
    },
    abort: async () => {
      stream.destroy();
    },
  };
}
