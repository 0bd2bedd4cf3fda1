// Transactions and their exports (TkDodo-style query factory): keys from generic to specific, fetchers beside
// their keys, answers validated against the contract (in the validation worker, src/api/validate.ts).
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api } from '../../src/api/api-client.ts';
import { validate } from '../../src/api/validate.ts';
import { listRequestParams, type ListState } from '../../src/contract/list-state.ts';
import type { TransactionExportBody } from '../../src/contract/transaction-schemas.ts';

/**
 * The API path of the transactions a pane lists: a partner's or a business's when the route names one, else the
 * applied context's ({context} prefix, '' without one: the context-free list of everything the user may see).
 */
export function transactionsPath(contextPrefix: string): string {
  return `${contextPrefix}/transactions`;
}

export const transactionQueries = {
  all: ['transactions'] as const,
  list: (contextPrefix: string, state: ListState) => {
    const query = listRequestParams(state);
    return queryOptions({
      queryKey: [...transactionQueries.all, contextPrefix, 'list', query] as const,
      queryFn: async ({ signal }) => validate('transactionList', await api.get<unknown>(transactionsPath(contextPrefix), { query, signal })),
      placeholderData: keepPreviousData,
      staleTime: 15_000,
    });
  },
  count: (contextPrefix: string, filters: Record<string, string>) =>
    queryOptions({
      queryKey: [...transactionQueries.all, contextPrefix, 'count', filters] as const,
      queryFn: async ({ signal }) =>
        validate('transactionCount', await api.get<unknown>(`${transactionsPath(contextPrefix)}/count`, { query: filters, signal })),
      staleTime: 15_000,
    }),
  /** The dashboard's measures over the filters (one currency): what the overview's totals line shows. */
  totals: (contextPrefix: string, filters: Record<string, string>) =>
    queryOptions({
      queryKey: [...transactionQueries.all, contextPrefix, 'totals', filters] as const,
      queryFn: async ({ signal }) =>
        validate('transactionTotals', await api.get<unknown>(`${transactionsPath(contextPrefix)}/totals`, { query: filters, signal })),
      staleTime: 15_000,
    }),
  detail: (reference: string) =>
    queryOptions({
      queryKey: [...transactionQueries.all, 'detail', reference] as const,
      queryFn: async ({ signal }) => validate('transactionDetail', await api.get<unknown>(`/transactions/${encodeURIComponent(reference)}`, { signal })),
      staleTime: 30_000,
    }),
};

/** Reads the full card number; the server records the reveal as an audit event. Never cached. */
export async function revealCardNumber(reference: string): Promise<string> {
  // A 403 comes back to the caller: it may ask for a step-up (panes/step-up), which the detail pane handles.
  const answer = await validate(
    'cardNumber',
    await api.get<unknown>(`/transactions/${encodeURIComponent(reference)}/cardNumber`, { handleErrors: (status) => status !== 403 }),
  );
  return answer.cardNumber;
}

export async function queueTransactionExport(contextPrefix: string, body: TransactionExportBody) {
  return validate('queuedExport', await api.post<unknown>(`${transactionsPath(contextPrefix)}/full/reports`, body));
}
