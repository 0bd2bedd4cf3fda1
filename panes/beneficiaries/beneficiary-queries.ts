// Beneficiaries and screening alerts (query factory and actions), answers validated in the worker.
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api } from '../../src/api/api-client.ts';
import { validate } from '../../src/api/validate.ts';
import type { BeneficiaryBody } from '../../src/contract/beneficiary-schemas.ts';

const base = (businessId: string) => `/businesses/${encodeURIComponent(businessId)}/beneficiaries`;

export const beneficiaryQueries = {
  all: ['beneficiaries'] as const,
  list: (businessId: string, pageNumber: number, pageSize: number, status: string | null) =>
    queryOptions({
      queryKey: [...beneficiaryQueries.all, 'list', businessId, { pageNumber, pageSize, status }] as const,
      queryFn: async ({ signal }) =>
        validate(
          'beneficiaryList',
          await api.get<unknown>(base(businessId), {
            query: { pagenumber: String(pageNumber), pagesize: String(pageSize), ...(status ? { status: `[eq]${status}` } : {}) },
            signal,
          }),
        ),
      placeholderData: keepPreviousData,
      staleTime: 10_000,
    }),
  detail: (businessId: string, beneficiaryId: string) =>
    queryOptions({
      queryKey: [...beneficiaryQueries.all, 'detail', businessId, beneficiaryId] as const,
      queryFn: async ({ signal }) =>
        validate('beneficiaryDetail', await api.get<unknown>(`${base(businessId)}/${encodeURIComponent(beneficiaryId)}`, { signal })),
      staleTime: 5_000,
    }),
  /**
   * The approval queue across businesses, by its list query (the pane's address, as the server reads it). Under
   * `all`: an approval or rejection on the beneficiary (which re-reads `all`) drops it from the queue at once.
   */
  approvals: (query: Readonly<Record<string, string>>) =>
    queryOptions({
      queryKey: [...beneficiaryQueries.all, 'approvals', query] as const,
      queryFn: async ({ signal }) => validate('beneficiaryApprovalList', await api.get<unknown>('/beneficiary-approvals', { query: { ...query }, signal })),
      placeholderData: keepPreviousData,
      staleTime: 10_000,
    }),
  alerts: (status: string | null, pageNumber: number, pageSize: number) =>
    queryOptions({
      queryKey: [...beneficiaryQueries.all, 'alerts', { status, pageNumber, pageSize }] as const,
      queryFn: async ({ signal }) =>
        validate(
          'screeningAlertList',
          await api.get<unknown>('/screening-alerts', {
            query: { pagenumber: String(pageNumber), pagesize: String(pageSize), ...(status ? { status: `[eq]${status}` } : {}) },
            signal,
          }),
        ),
      placeholderData: keepPreviousData,
      staleTime: 10_000,
    }),
};

export const createBeneficiary = (businessId: string, body: BeneficiaryBody) => api.post<{ beneficiaryId: string }>(base(businessId), body);
export const setBeneficiaryStatus = (businessId: string, beneficiaryId: string, status: string, version: number) =>
  api.put<unknown>(`${base(businessId)}/${encodeURIComponent(beneficiaryId)}/status`, { status, version });
export const resolveAlert = (
  businessId: string,
  beneficiaryId: string,
  alertId: string,
  decision: 'confirmed' | 'dismissed',
  reason: string,
  version: number,
) => api.put<unknown>(`${base(businessId)}/${encodeURIComponent(beneficiaryId)}/alerts/${encodeURIComponent(alertId)}`, { decision, reason, version });
