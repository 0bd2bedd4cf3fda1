// The account watch list (query factory and actions), answers validated against the contract in the worker.
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api } from '../../src/api/api-client.ts';
import { validate } from '../../src/api/validate.ts';
import type { TicketPriority } from '../../src/contract/tickets.ts';
import type { WatchEntryStatusName } from '../../src/contract/watch-list.ts';

export const watchListQueries = {
  all: ['watch-list'] as const,
  list: (pageNumber: number, pageSize: number, status: string | null) =>
    queryOptions({
      queryKey: [...watchListQueries.all, 'list', { pageNumber, pageSize, status }] as const,
      queryFn: async ({ signal }) =>
        validate(
          'watchListList',
          await api.get<unknown>('/account-watch-list', {
            query: { pagenumber: String(pageNumber), pagesize: String(pageSize), ...(status ? { status: `[eq]${status}` } : {}) },
            signal,
          }),
        ),
      placeholderData: keepPreviousData,
      staleTime: 30_000,
    }),
  detail: (merchantId: string) =>
    queryOptions({
      queryKey: [...watchListQueries.all, 'detail', merchantId] as const,
      queryFn: async ({ signal }) =>
        validate('watchListEntryDetail', await api.get<unknown>(`/account-watch-list/${encodeURIComponent(merchantId)}`, { signal })),
      staleTime: 10_000,
    }),
};

export const setWatchStatus = (merchantId: string, status: WatchEntryStatusName, version: number) =>
  api.put<unknown>(`/account-watch-list/${encodeURIComponent(merchantId)}/status`, { status, version });
export const addWatchNote = (merchantId: string, text: string) => api.post<unknown>(`/account-watch-list/${encodeURIComponent(merchantId)}/notes`, { text });
/** Escalate to a ticket: 201 { ticketId, entry }; the entry's detail is re-read (and validated) afterwards. */
export const escalateWatchEntry = (merchantId: string, version: number, priority: TicketPriority) =>
  api.post<{ ticketId: string }>(`/account-watch-list/${encodeURIComponent(merchantId)}/ticket`, { version, priority });
