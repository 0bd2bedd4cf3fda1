// Partners: the query factory, answers validated in the worker against the contract's schemas.
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api } from '../../src/api/api-client.ts';
import { validate } from '../../src/api/validate.ts';
import type { CommissionPlanCreateBody, CommissionPlanUpdateBody } from '../../src/contract/partner-schemas.ts';

export const partnerPath = (partnerId: string) => `/partners/${encodeURIComponent(partnerId)}`;
export const commissionPlanPath = (partnerId: string, planId: string) => `${partnerPath(partnerId)}/commissions/${encodeURIComponent(planId)}`;
/** One month's commission per transaction of a plan (currency: one currency's, else every currency's). */
export const commissionTransactionsPath = (partnerId: string, planId: string, month: string, currency?: string) =>
  `${commissionPlanPath(partnerId, planId)}/transactions/${encodeURIComponent(month)}${currency ? `?currency=${encodeURIComponent(currency)}` : ''}`;
export const newCommissionPlanPath = (partnerId: string) => `${partnerPath(partnerId)}/commissions/new`;
export const partnerBusinessPath = (partnerId: string, businessId: string) => `${partnerPath(partnerId)}/business/${encodeURIComponent(businessId)}`;

export const partnerQueries = {
  all: ['partners'] as const,
  list: (params: Record<string, string>) =>
    queryOptions({
      queryKey: [...partnerQueries.all, 'list', params] as const,
      queryFn: async ({ signal }) => validate('partnerList', await api.get<unknown>('/partners', { query: params, signal })),
      placeholderData: keepPreviousData,
      staleTime: 30_000,
    }),
  detail: (partnerId: string) =>
    queryOptions({
      queryKey: [...partnerQueries.all, 'detail', partnerId] as const,
      queryFn: async ({ signal }) => validate('partnerDetail', await api.get<unknown>(partnerPath(partnerId), { signal })),
      staleTime: 30_000,
    }),
  businesses: (partnerId: string, params: Record<string, string>) =>
    queryOptions({
      queryKey: [...partnerQueries.all, 'businesses', partnerId, params] as const,
      queryFn: async ({ signal }) => validate('businessList', await api.get<unknown>(`${partnerPath(partnerId)}/businesses`, { query: params, signal })),
      placeholderData: keepPreviousData,
      staleTime: 30_000,
    }),
  commissionPlan: (partnerId: string, planId: string) =>
    queryOptions({
      queryKey: [...partnerQueries.all, 'commissionPlan', partnerId, planId] as const,
      queryFn: async ({ signal }) =>
        validate('commissionPlanDetail', await api.get<unknown>(`${partnerPath(partnerId)}/commission-plans/${encodeURIComponent(planId)}`, { signal })),
      staleTime: 60_000,
    }),
  commissionTransactions: (partnerId: string, planId: string, query: { month: string; currency: string | null; pageNumber: number; pageSize: number }) =>
    queryOptions({
      queryKey: [...partnerQueries.all, 'commissionTransactions', partnerId, planId, query] as const,
      queryFn: async ({ signal }) =>
        validate(
          'commissionTransactionList',
          await api.get<unknown>(`${partnerPath(partnerId)}/commission-plans/${encodeURIComponent(planId)}/transactions`, {
            query: {
              month: query.month,
              ...(query.currency ? { currency: query.currency } : {}),
              pagenumber: String(query.pageNumber),
              pagesize: String(query.pageSize),
            },
            signal,
          }),
        ),
      placeholderData: keepPreviousData,
      staleTime: 60_000,
    }),
  declines: (partnerId: string, currency: string, startDate: string, endDate: string) =>
    queryOptions({
      queryKey: [...partnerQueries.all, 'declines', partnerId, currency, startDate, endDate] as const,
      queryFn: async ({ signal }) =>
        validate(
          'partnerDeclines',
          await api.post<unknown>(
            `${partnerPath(partnerId)}/declines`,
            {
              currency,
              dateRange: { startDate, endDate },
            },
            { signal },
          ),
        ),
      placeholderData: keepPreviousData,
      staleTime: 60_000,
    }),
};

/** PUT the whole plan with the version it was read at; the answer is the plan as GET gives it. */
export async function saveCommissionPlan(partnerId: string, planId: string, body: CommissionPlanUpdateBody) {
  return validate('commissionPlanDetail', await api.put<unknown>(`${partnerPath(partnerId)}/commission-plans/${encodeURIComponent(planId)}`, body));
}

/** POST a new plan; the answer is the plan as GET gives it (its id the server's). */
export async function createCommissionPlan(partnerId: string, body: CommissionPlanCreateBody) {
  return validate('commissionPlanDetail', await api.post<unknown>(`${partnerPath(partnerId)}/commission-plans`, body));
}

/** DELETE a plan that has not started, with the version it was read at (409 when stale). */
export async function deleteCommissionPlan(partnerId: string, planId: string, version: number): Promise<void> {
  await api.delete<unknown>(`${partnerPath(partnerId)}/commission-plans/${encodeURIComponent(planId)}`, { query: { version: String(version) } });
}
