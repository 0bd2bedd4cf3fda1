// The mail outbox (query factory), validated against the contract in the validation worker.
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api } from '../../src/api/api-client.ts';
import { validate } from '../../src/api/validate.ts';
import { encodeSearchTerm } from '../../src/contract/list-state.ts';

export const outboxQueries = {
  all: ['outbox'] as const,
  /** search: recipient or subject contains it, any case ('' for all) */
  list: (pageNumber: number, pageSize: number, status: string | null, search = '') =>
    queryOptions({
      queryKey: [...outboxQueries.all, 'list', { pageNumber, pageSize, status, search }] as const,
      queryFn: async ({ signal }) =>
        validate(
          'outboxMessageList',
          await api.get<unknown>('/outbox', {
            query: {
              pagenumber: String(pageNumber),
              pagesize: String(pageSize),
              ...(status ? { status: `[eq]${status}` } : {}),
              searchterm: encodeSearchTerm(search),
            },
            signal,
          }),
        ),
      placeholderData: keepPreviousData,
      staleTime: 5_000,
      refetchInterval: 10_000,
    }),
  detail: (id: string) =>
    queryOptions({
      queryKey: [...outboxQueries.all, 'detail', id] as const,
      queryFn: async ({ signal }) => validate('outboxMessageDetail', await api.get<unknown>(`/outbox/${encodeURIComponent(id)}`, { signal })),
      staleTime: 5_000,
    }),
};
