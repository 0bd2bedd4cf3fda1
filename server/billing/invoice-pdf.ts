// An invoice or credit note as a PDF (pdfkit, the statements' library and standard fonts), kept in the file store
// under invoices/{id}.pdf. An issued document never changes, so the PDF is written once: after its run commits, or
// on the first download when that did not happen (the seed's invoices, a node that died in between).
import { PassThrough } from 'node:stream';
import PDFDocument from 'pdfkit';
import { invoiceKindLabels, monthLabel } from '../../src/contract/billing.ts';
import { currencyExponent } from '../../src/contract/transactions.ts';
import type { invoices } from '../db/schema.ts';
import type { FileStore } from '../files/file-store.ts';
import { providerName } from '../reports/pdf-statement.ts';

export type InvoiceDocument = typeof invoices.$inferSelect & { businessName: string; creditedInvoiceNumber: string | null };

export const invoicePdfKey = (invoiceId: string) => `invoices/${invoiceId}.pdf`;
export const invoicePdfName = (number: string) => `${number}.pdf`;

export function formatInvoiceMoney(amountMinor: number, currency: string): string {
  const exponent = currencyExponent(currency);
  return new Intl.NumberFormat('en-GB', { style: 'currency', currency, minimumFractionDigits: exponent, maximumFractionDigits: exponent }).format(
    amountMinor / 10 ** exponent,
  );
}
const day = (at: Date) => at.toLocaleDateString('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });

/** Renders the document into a stream (the caller consumes it). */
export function renderInvoicePdf(invoice: InvoiceDocument): PassThrough {
  const out = new PassThrough();
  const margin = 48;
  const doc = new PDFDocument({
    size: 'A4',
    margin,
    info: { Title: `${invoiceKindLabels[invoice.kind]} ${invoice.number}`, Author: providerName, CreationDate: invoice.issuedUtc },
  });
  doc.pipe(out);
  const width = doc.page.width - margin * 2;
  const money = (minor: number) => formatInvoiceMoney(minor, invoice.currency);
  doc.font('Helvetica-Bold').fontSize(18).text(`${invoiceKindLabels[invoice.kind]} ${invoice.number}`);
  doc.font('Helvetica').fontSize(10).moveDown(0.5);
  doc.text(`From: ${providerName}`);
  doc.text(`To: ${invoice.businessName} (business ${invoice.businessId})`);
  doc.text(`Period: ${monthLabel(invoice.month)}`);
  doc.text(`Issued: ${day(invoice.issuedUtc)}`);
  if (invoice.kind === 'invoice') doc.text(`Due: ${day(invoice.dueUtc)}`);
  if (invoice.creditedInvoiceNumber) doc.text(`Credits invoice ${invoice.creditedInvoiceNumber}${invoice.reason ? `: ${invoice.reason}` : ''}`);
  doc.text(`Currency: ${invoice.currency}`);
  doc.moveDown();

  const columns = [
    { header: 'Merchant', width: 0.24, right: false },
    { header: 'Description', width: 0.3, right: false },
    { header: 'Transactions', width: 0.12, right: true },
    { header: 'Volume', width: 0.17, right: true },
    { header: 'Amount', width: 0.17, right: true },
  ];
  const row = (cells: string[], bold = false) => {
    if (doc.y > doc.page.height - margin - 40) doc.addPage();
    const y = doc.y;
    let x = margin;
    doc.font(bold ? 'Helvetica-Bold' : 'Helvetica').fontSize(9);
    cells.forEach((cell, index) => {
      const column = columns[index];
      const w = (column?.width ?? 0.1) * width;
      doc.text(cell, x + 2, y, { width: w - 4, align: column?.right ? 'right' : 'left', lineBreak: false, ellipsis: true });
      x += w;
    });
    doc.x = margin;
    doc.y = y + 14;
  };
  row(
    columns.map((column) => column.header),
    true,
  );
  doc
    .moveTo(margin, doc.y - 2)
    .lineTo(margin + width, doc.y - 2)
    .lineWidth(0.75)
    .stroke('#000000');
  for (const line of invoice.lines) {
    row([
      line.merchantName,
      line.description,
      line.transactionCount ? String(line.transactionCount) : '',
      line.volumeMinor ? money(line.volumeMinor) : '',
      money(line.amountMinor),
    ]);
  }
  doc.moveDown();
  const total = (label: string, value: string, bold = false) => {
    const y = doc.y;
    doc.font(bold ? 'Helvetica-Bold' : 'Helvetica').fontSize(10);
    doc.text(label, margin + width / 2, y, { width: width / 4, lineBreak: false });
    doc.text(value, margin + (width * 3) / 4, y, { width: width / 4, align: 'right', lineBreak: false });
    doc.x = margin;
    doc.y = y + 15;
  };
  if (invoice.kind === 'invoice') {
    total('Transaction fees', money(invoice.feesMinor));
    total('Minimum top-up', money(invoice.minimumTopUpMinor));
  }
  total('VAT', 'exempt');
  total(invoice.kind === 'invoice' ? 'Total due' : 'Total credited', money(invoice.totalMinor), true);
  doc.moveDown(2);
  doc
    .font('Helvetica')
    .fontSize(8)
    .text(
      "Payment services are exempt from VAT. Fees are those charged in the settlement ledger for the period; the minimum top-up is the pricing plan's monthly minimum less those fees.",
      margin,
      doc.y,
      { width },
    );
  doc.end();
  return out;
}

/** Stores the PDF unless it is there already; returns its key. */
export async function ensureInvoicePdf(files: FileStore, invoice: InvoiceDocument): Promise<string> {
  const key = invoicePdfKey(invoice.id);
  if (await files.head(key)) return key;
  await files.put(key, renderInvoicePdf(invoice), { contentType: 'application/pdf', metadata: { invoice: invoice.number } });
  return key;
}
