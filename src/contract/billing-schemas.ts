// The billing contract's schemas (arktype): previews, runs, invoices and credit notes, and the bodies the API accepts.
import { type } from 'arktype';
import { invoiceKinds, invoiceStatuses } from './billing.ts';

const isoDateTime = 'string.date.iso';
const month = /^\d{4}-(0[1-9]|1[0-2])$/;

export const invoiceLine = type({
  merchantId: 'string',
  merchantName: 'string',
  paymentMethod: 'string | null',
  description: 'string',
  transactionCount: 'number.integer',
  volumeMinor: 'number.integer',
  feesMinor: 'number.integer',
  minimumTopUpMinor: 'number.integer',
  amountMinor: 'number.integer',
});
export type InvoiceLine = typeof invoiceLine.infer;

/** One business's invoice-to-be in a preview (per currency). */
export const previewInvoice = type({
  businessId: 'string',
  businessName: 'string',
  currency: 'string',
  status: "'draft'",
  lines: invoiceLine.array(),
  feesMinor: 'number.integer',
  minimumTopUpMinor: 'number.integer',
  totalMinor: 'number.integer',
});
export const billingPreview = type({
  month: 'string',
  alreadyRun: 'boolean',
  invoices: previewInvoice.array(),
  totals: type({
    currency: 'string',
    feesMinor: 'number.integer',
    minimumTopUpMinor: 'number.integer',
    totalMinor: 'number.integer',
    invoiceCount: 'number.integer',
  }).array(),
});
export type BillingPreview = typeof billingPreview.infer;

export const billingRun = type({ runId: 'string', month: 'string', createdBy: 'string', createdUtc: isoDateTime, invoiceCount: 'number.integer' });
export type BillingRun = typeof billingRun.infer;
export const billingRunList = type({ results: billingRun.array(), numberOfResults: 'number.integer' });
export type BillingRunList = typeof billingRunList.infer;
export const createdBillingRun = billingRun.merge({ invoiceNumbers: 'string[]' });

export const invoiceListItem = type({
  invoiceId: 'string',
  number: 'string',
  kind: type.enumerated(...invoiceKinds),
  month: 'string',
  businessId: 'string',
  businessName: 'string',
  currency: 'string',
  status: type.enumerated(...invoiceStatuses),
  issuedUtc: isoDateTime,
  dueUtc: isoDateTime,
  paidUtc: type(isoDateTime).or('null'),
  totalMinor: 'number.integer',
  creditedInvoiceId: 'string | null',
  version: 'number.integer',
});
export type InvoiceListItem = typeof invoiceListItem.infer;
export const invoiceList = type({ results: invoiceListItem.array(), numberOfResults: 'number.integer' });
export type InvoiceList = typeof invoiceList.infer;

export const invoiceDetail = invoiceListItem.merge({
  feesMinor: 'number.integer',
  minimumTopUpMinor: 'number.integer',
  lines: invoiceLine.array(),
  reason: 'string | null',
  creditedInvoiceNumber: 'string | null',
  creditNotes: type({ invoiceId: 'string', number: 'string', totalMinor: 'number.integer', issuedUtc: isoDateTime }).array(),
  /** what a further credit note may still credit (minor units, positive; 0 for a credit note) */
  creditableMinor: 'number.integer',
});
export type Invoice = typeof invoiceDetail.infer;

export const billingMonthBody = type({ month: type(month).describe('a month (YYYY-MM)'), '+': 'reject' });
export const invoiceStatusBody = type({ status: "'paid'", version: 'number.integer >= 1', '+': 'reject' });
export const creditNoteBody = type({
  reason: '0 < string <= 500',
  /** omitted: the whole remaining amount */
  'amountMinor?': 'number.integer > 0',
  '+': 'reject',
});
