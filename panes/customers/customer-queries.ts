// A merchant's customers (query factory and actions), answers validated in the worker. The list (also across a
// business's or a partner's merchants) is a declared context list: contextListQuery('customers', …).
import { queryOptions } from '@tanstack/react-query';
import { api } from '../../src/api/api-client.ts';
import { validate } from '../../src/api/validate.ts';
import type { CustomerBody } from '../../src/contract/customer-schemas.ts';

export const customersBase = (businessId: string, merchantId: string) =>
  `/businesses/${encodeURIComponent(businessId)}/merchants/${encodeURIComponent(merchantId)}/customers`;

export const customerQueries = {
  all: ['customers'] as const,
  detail: (businessId: string, merchantId: string, customerId: string) =>
    queryOptions({
      queryKey: [...customerQueries.all, 'detail', businessId, merchantId, customerId] as const,
      queryFn: async ({ signal }) =>
        validate('customerDetail', await api.get<unknown>(`${customersBase(businessId, merchantId)}/${encodeURIComponent(customerId)}`, { signal })),
      staleTime: 5_000,
    }),
  data: (businessId: string, merchantId: string, customerId: string) =>
    queryOptions({
      queryKey: [...customerQueries.all, 'data', businessId, merchantId, customerId] as const,
      queryFn: async ({ signal }) =>
        validate('customerDataList', await api.get<unknown>(`${customersBase(businessId, merchantId)}/${encodeURIComponent(customerId)}/data`, { signal })),
      staleTime: 5_000,
    }),
};

export const eraseCustomer = (businessId: string, merchantId: string, customerId: string) =>
  api.delete<unknown>(`${customersBase(businessId, merchantId)}/${encodeURIComponent(customerId)}`);
export const eraseCustomerData = (businessId: string, merchantId: string, customerId: string, dataId: string) =>
  api.delete<unknown>(`${customersBase(businessId, merchantId)}/${encodeURIComponent(customerId)}/data/${encodeURIComponent(dataId)}`);

/** 'Export this customer's data': the server's JSON file, saved under the name it gives. */
export async function downloadCustomerData(businessId: string, merchantId: string, customerId: string, reference: string): Promise<void> {
  const blob = await api.get<Blob>(`${customersBase(businessId, merchantId)}/${encodeURIComponent(customerId)}/export`, {
    responseType: 'blob',
    headers: { Accept: 'application/json' },
  });
  const url = URL.createObjectURL(blob);
  const anchor = document.createElement('a');
  anchor.href = url;
  anchor.download = `customer-${reference.replace(/[^A-Za-z0-9_.-]/g, '_')}.json`;
  anchor.rel = 'noopener';
  document.body.append(anchor);
  anchor.click();
  anchor.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

export async function createCustomer(businessId: string, merchantId: string, body: CustomerBody) {
  return validate('customerDetail', await api.post<unknown>(customersBase(businessId, merchantId), body));
}

/** PUT with the version the form started from: a stale one answers 409 (the shell's 'Someone updated this view'). */
export async function updateCustomer(businessId: string, merchantId: string, customerId: string, body: CustomerBody & { version: number }) {
  return validate('customerDetail', await api.put<unknown>(`${customersBase(businessId, merchantId)}/${encodeURIComponent(customerId)}`, body));
}
