// The settlement ledger's reads and writes (query factories): account groups, statements, batches, transfers,
// remittance and the pricing plan, each answer checked against the contract in the validation worker.
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api } from '../../src/api/api-client.ts';
import { validate } from '../../src/api/validate.ts';
import { listRequestParams, type ListState } from '../../src/contract/list-state.ts';
import type { RemittanceUpdateBody } from '../../src/contract/ledger-schemas.ts';
import type { MerchantAccountKind } from '../../src/contract/ledger.ts';

const id = encodeURIComponent;
export const merchantGroupsPath = (businessId: string, merchantId: string) =>
  `/businesses/${id(businessId)}/merchants/${id(merchantId)}/merchant-accountgroups`;
export const businessGroupsPath = (businessId: string) => `/businesses/${id(businessId)}/business-accountgroups`;

/** Where a statement of an account is read: a merchant account's, or the business account's. */
export type StatementSource =
  | { owner: 'merchant'; businessId: string; merchantId: string; accountNumber: string; kind: MerchantAccountKind }
  | { owner: 'business'; businessId: string; accountNumber: string };

export const statementPath = (source: StatementSource) =>
  source.owner === 'business'
    ? `${businessGroupsPath(source.businessId)}/${id(source.accountNumber)}/statement`
    : `${merchantGroupsPath(source.businessId, source.merchantId)}/${id(source.accountNumber)}/statements/${source.kind}`;

export const ledgerQueries = {
  all: ['ledger'] as const,
  merchantGroups: (businessId: string, merchantId: string) =>
    queryOptions({
      queryKey: [...ledgerQueries.all, 'merchantGroups', businessId, merchantId] as const,
      queryFn: async ({ signal }) => validate('merchantAccountGroupList', await api.get<unknown>(merchantGroupsPath(businessId, merchantId), { signal })),
      staleTime: 30_000,
    }),
  merchantGroup: (businessId: string, merchantId: string, accountNumber: string) =>
    queryOptions({
      queryKey: [...ledgerQueries.all, 'merchantGroup', businessId, merchantId, accountNumber] as const,
      queryFn: async ({ signal }) =>
        validate('merchantAccountGroup', await api.get<unknown>(`${merchantGroupsPath(businessId, merchantId)}/${id(accountNumber)}`, { signal })),
      staleTime: 30_000,
    }),
  businessGroups: (businessId: string) =>
    queryOptions({
      queryKey: [...ledgerQueries.all, 'businessGroups', businessId] as const,
      queryFn: async ({ signal }) => validate('businessAccountGroupList', await api.get<unknown>(businessGroupsPath(businessId), { signal })),
      staleTime: 30_000,
    }),
  businessGroup: (businessId: string, accountNumber: string) =>
    queryOptions({
      queryKey: [...ledgerQueries.all, 'businessGroup', businessId, accountNumber] as const,
      queryFn: async ({ signal }) =>
        validate('businessAccountGroup', await api.get<unknown>(`${businessGroupsPath(businessId)}/${id(accountNumber)}`, { signal })),
      staleTime: 30_000,
    }),
  statement: (source: StatementSource, state: ListState) => {
    const query = listRequestParams(state);
    return queryOptions({
      queryKey: [...ledgerQueries.all, 'statement', source, query] as const,
      queryFn: async ({ signal }) => validate('accountStatement', await api.get<unknown>(statementPath(source), { query, signal })),
      placeholderData: keepPreviousData,
      staleTime: 15_000,
    });
  },
  batches: (businessId: string, merchantId: string, accountNumber: string, state: ListState) => {
    const query = listRequestParams(state);
    return queryOptions({
      queryKey: [...ledgerQueries.all, 'batches', businessId, merchantId, accountNumber, query] as const,
      queryFn: async ({ signal }) =>
        validate(
          'settlementBatchList',
          await api.get<unknown>(`${merchantGroupsPath(businessId, merchantId)}/${id(accountNumber)}/batches`, { query, signal }),
        ),
      placeholderData: keepPreviousData,
      staleTime: 15_000,
    });
  },
  batch: (businessId: string, merchantId: string, accountNumber: string, batchId: string, pageNumber: number, pageSize: number) =>
    queryOptions({
      queryKey: [...ledgerQueries.all, 'batch', businessId, merchantId, accountNumber, batchId, pageNumber, pageSize] as const,
      queryFn: async ({ signal }) =>
        validate(
          'settlementBatchDetail',
          await api.get<unknown>(`${merchantGroupsPath(businessId, merchantId)}/${id(accountNumber)}/batches/${id(batchId)}`, {
            query: { pagenumber: String(pageNumber), pagesize: String(pageSize) },
            signal,
          }),
        ),
      placeholderData: keepPreviousData,
      staleTime: 15_000,
    }),
  transfers: (path: string, state: ListState) => {
    const query = listRequestParams(state);
    return queryOptions({
      queryKey: [...ledgerQueries.all, 'transfers', path, query] as const,
      queryFn: async ({ signal }) => validate('ledgerTransferList', await api.get<unknown>(path, { query, signal })),
      placeholderData: keepPreviousData,
      staleTime: 15_000,
    });
  },
  transfer: (businessId: string, accountNumber: string, transferId: string) =>
    queryOptions({
      queryKey: [...ledgerQueries.all, 'transfer', businessId, accountNumber, transferId] as const,
      queryFn: async ({ signal }) =>
        validate('transferDetail', await api.get<unknown>(`${businessGroupsPath(businessId)}/${id(accountNumber)}/transfers/${id(transferId)}`, { signal })),
      staleTime: 30_000,
    }),
  remittance: (businessId: string, accountNumber: string) =>
    queryOptions({
      queryKey: [...ledgerQueries.all, 'remittance', businessId, accountNumber] as const,
      queryFn: async ({ signal }) =>
        validate('remittance', await api.get<unknown>(`${businessGroupsPath(businessId)}/${id(accountNumber)}/remittance`, { signal })),
    }),
  internalAccounts: () =>
    queryOptions({
      queryKey: [...ledgerQueries.all, 'internalAccounts'] as const,
      queryFn: async ({ signal }) => validate('internalAccountList', await api.get<unknown>('/ledger/internal-accounts', { signal })),
      staleTime: 15_000,
    }),
  pricingPlan: (businessId: string) =>
    queryOptions({
      queryKey: [...ledgerQueries.all, 'pricingPlan', businessId] as const,
      queryFn: async ({ signal }) => validate('pricingPlanList', await api.get<unknown>(`/businesses/${id(businessId)}/pricing-plan`, { signal })),
      staleTime: 60_000,
    }),
};

/** Queues a statement or report file (csv, xlsx, pdf; xml: a statement as camt.053) of a list with its filters. */
export async function queueLedgerReport(path: string, fileType: 'csv' | 'xlsx' | 'pdf' | 'xml', filters: Record<string, string>) {
  return validate('ledgerReportQueued', await api.post<unknown>(`${path}/reports`, { fileType, filters }));
}

export async function saveRemittance(businessId: string, accountNumber: string, body: RemittanceUpdateBody) {
  return validate('remittance', await api.post<unknown>(`${businessGroupsPath(businessId)}/${id(accountNumber)}/remittance`, body));
}
