// Billing: query factories and actions, answers validated against the contract in the worker.
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api } from '../../src/api/api-client.ts';
import { validate } from '../../src/api/validate.ts';
import { encodeAnyOf } from '../../src/contract/list-state.ts';

export type InvoiceListView = {
  pageNumber: number;
  pageSize: number;
  status: string | null;
  month: string | null;
  business: string | null;
  number: string | null;
};

export const billingQueries = {
  all: ['billing'] as const,
  invoices: (view: InvoiceListView) =>
    queryOptions({
      queryKey: [...billingQueries.all, 'invoices', view] as const,
      queryFn: async ({ signal }) =>
        validate(
          'invoiceList',
          await api.get<unknown>('/billing/invoices', {
            query: {
              pagenumber: String(view.pageNumber),
              pagesize: String(view.pageSize),
              ...(view.status ? { status: encodeAnyOf(view.status.split(',')) } : {}),
              ...(view.month ? { month: `[eq]${view.month}` } : {}),
              ...(view.business ? { business: `[eq]${view.business}` } : {}),
              ...(view.number ? { number: `[eq]${view.number}` } : {}),
            },
            signal,
          }),
        ),
      placeholderData: keepPreviousData,
      staleTime: 15_000,
    }),
  runs: () =>
    queryOptions({
      queryKey: [...billingQueries.all, 'runs'] as const,
      queryFn: async ({ signal }) => validate('billingRunList', await api.get<unknown>('/billing/runs', { query: { pagesize: '25' }, signal })),
      staleTime: 15_000,
    }),
  detail: (invoiceId: string) =>
    queryOptions({
      queryKey: [...billingQueries.all, 'detail', invoiceId] as const,
      queryFn: async ({ signal }) => validate('invoiceDetail', await api.get<unknown>(`/billing/invoices/${encodeURIComponent(invoiceId)}`, { signal })),
      staleTime: 10_000,
    }),
  businessInvoices: (businessId: string, pageNumber: number, pageSize: number) =>
    queryOptions({
      queryKey: [...billingQueries.all, 'business', businessId, { pageNumber, pageSize }] as const,
      queryFn: async ({ signal }) =>
        validate(
          'invoiceList',
          await api.get<unknown>(`/businesses/${encodeURIComponent(businessId)}/invoices`, {
            query: { pagenumber: String(pageNumber), pagesize: String(pageSize) },
            signal,
          }),
        ),
      placeholderData: keepPreviousData,
      staleTime: 15_000,
    }),
};

export const previewBillingRun = async (month: string) => validate('billingPreview', await api.post<unknown>('/billing/runs/preview', { month }));
/** A month already billed answers 409 with its own message: shown as it is, not as the 'someone updated this view' dialog. */
export const createBillingRun = async (month: string) =>
  validate('createdBillingRun', await api.post<unknown>('/billing/runs', { month }, { handleErrors: (status) => status !== 409 }));
export const markInvoicePaid = async (invoiceId: string, version: number) =>
  validate('invoiceDetail', await api.put<unknown>(`/billing/invoices/${encodeURIComponent(invoiceId)}/status`, { status: 'paid', version }));
export const issueCreditNote = async (invoiceId: string, reason: string, amountMinor: number | null) =>
  validate(
    'invoiceDetail',
    await api.post<unknown>(`/billing/invoices/${encodeURIComponent(invoiceId)}/credit-notes`, { reason, ...(amountMinor === null ? {} : { amountMinor }) }),
  );

/** Downloads a PDF through the API client (bearer), then hands it to the browser as a file. */
export async function downloadInvoicePdf(path: string, number: string): Promise<void> {
  const blob = await api.get<Blob>(path, { responseType: 'blob', headers: { Accept: 'application/pdf' } });
  const url = URL.createObjectURL(blob);
  const anchor = document.createElement('a');
  anchor.href = url;
  anchor.download = `${number}.pdf`;
  anchor.rel = 'noopener';
  document.body.append(anchor);
  anchor.click();
  anchor.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
export const internalPdfPath = (invoiceId: string) => `/billing/invoices/${encodeURIComponent(invoiceId)}/pdf`;
export const businessPdfPath = (businessId: string, invoiceId: string) =>
  `/businesses/${encodeURIComponent(businessId)}/invoices/${encodeURIComponent(invoiceId)}/pdf`;
