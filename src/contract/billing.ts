// Billing: monthly runs that invoice each business the fees the ledger charged it, invoice statuses, the
// list spec and the messages the finance admin reads. Schemas (arktype) in billing-schemas.ts.
import type { ListQuerySpec } from './list-query.ts';

/** Stored statuses are issued and paid; draft is what a run's preview shows; overdue is issued past its due date. */
export const invoiceStatuses = ['draft', 'issued', 'paid', 'overdue'] as const;
export type InvoiceStatusName = (typeof invoiceStatuses)[number];
export const invoiceStatusLabels: Record<InvoiceStatusName, string> = { draft: 'Draft', issued: 'Issued', paid: 'Paid', overdue: 'Overdue' };
export const invoiceKinds = ['invoice', 'creditNote'] as const;
export type InvoiceKind = (typeof invoiceKinds)[number];
export const invoiceKindLabels: Record<InvoiceKind, string> = { invoice: 'Invoice', creditNote: 'Credit note' };

/** Days between issue and due date. */
export const paymentTermDays = 14;
/** Number series: invoices and credit notes are each gapless per calendar year of issue. */
export const invoiceSeries = { invoice: 'INV', creditNote: 'CN' } as const;
export const invoiceNumberOf = (series: string, year: number, sequence: number) => `${series}-${year}-${String(sequence).padStart(6, '0')}`;

/**
 * What a typed term says about an invoice or credit note number, for the palette's record search: a prefix of the full
 * number ('INV-2026-0001', 'cn-2026'), or the short number, the sequence with or without its year ('104', '2026-104'),
 * matched as the end of the number with its zeros ('…-000104'). null: the term is not a number.
 */
export type InvoiceNumberQuery = { kind: 'prefix'; prefix: string } | { kind: 'suffix'; suffix: string };
export function invoiceNumberQuery(term: string): InvoiceNumberQuery | null {
  const trimmed = term.trim().toUpperCase();
  if (/^(INV|CN)(-\d{0,4}(-\d{0,6})?)?$/.test(trimmed)) return { kind: 'prefix', prefix: trimmed };
  const short = /^(?:(\d{4})-)?(\d{1,6})$/.exec(trimmed);
  if (!short?.[2]) return null;
  return { kind: 'suffix', suffix: `${short[1] ? `-${short[1]}` : ''}-${short[2].padStart(6, '0')}` };
}

export const monthPattern = /^\d{4}-(0[1-9]|1[0-2])$/;
/** 'YYYY-MM' of the month before the given instant's UTC month: the default month of a run. */
export function previousMonthOf(now: Date): string {
  const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1));
  return start.toISOString().slice(0, 7);
}
/** The UTC instants [start, end) of a 'YYYY-MM' month. */
export function monthBounds(month: string): { start: Date; end: Date } {
  const [year, monthNumber] = month.split('-').map(Number) as [number, number];
  return { start: new Date(Date.UTC(year, monthNumber - 1, 1)), end: new Date(Date.UTC(year, monthNumber, 1)) };
}
export function monthLabel(month: string): string {
  return monthBounds(month).start.toLocaleDateString('en-GB', { month: 'long', year: 'numeric', timeZone: 'UTC' });
}

export const duplicateRunMessage = (month: string) =>
  `Invoices for ${monthLabel(month)} have already been created. A month is billed once; correct an invoice with a credit note.`;
export const monthNotEndedMessage = 'Only a month that has ended can be billed.';
export const alreadyPaidMessage = 'This invoice is already marked paid.';
export const creditNoteNotPayableMessage = 'A credit note is not paid; only invoices are.';
export const creditExceedsMessage = 'The credit is more than what is left to credit on this invoice.';
export const creditOfCreditMessage = 'A credit note cannot be credited; credit the original invoice.';

/** GET /billing/invoices: filters status, business, month, kind, number; sort issued, number, total. */
export const invoiceListSpec: ListQuerySpec = {
  filters: {
    status: { kind: { oneOf: ['issued', 'paid', 'overdue'] }, operators: ['eq'] },
    business: { kind: { pattern: /^[A-Za-z0-9_-]{1,64}$/, description: 'a business id' }, operators: ['eq'] },
    month: { kind: { pattern: monthPattern, description: 'a month (YYYY-MM)' }, operators: ['eq'] },
    kind: { kind: { oneOf: invoiceKinds }, operators: ['eq'] },
    /** part of the invoice number, any case: 'Go to invoice…' */
    number: { kind: { pattern: /^[A-Za-z0-9-]{1,20}$/, description: 'part of an invoice number' }, operators: ['eq'] },
  },
  sortable: ['issued', 'number', 'total'],
  defaultSort: [{ field: 'number', descending: true }],
};
/** GET /businesses/{b}/invoices: what the business's owner and finance users read. */
export const businessInvoiceListSpec: ListQuerySpec = {
  filters: {
    status: invoiceListSpec.filters.status as ListQuerySpec['filters'][string],
    month: invoiceListSpec.filters.month as ListQuerySpec['filters'][string],
  },
  sortable: ['issued', 'number'],
  defaultSort: [{ field: 'number', descending: true }],
};
