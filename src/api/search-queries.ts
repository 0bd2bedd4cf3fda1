// The palette's record search (GET /search, the query language of src/contract/search-query.ts) and the merchant names that
// complete merchant:… (GET /search/merchants). Keyed by the query itself: an answer is only ever shown under the
// query it answers, and a query left behind by typing is cancelled (react-query aborts the signal of a query nobody
// observes any more). Failures show inline in the palette rather than as toasts on every keystroke.
import { queryOptions } from '@tanstack/react-query';
import type { RecordSearchResult, SearchMerchants } from '../contract/shell-responses.ts';
import { api } from './api-client.ts';
import { validate } from './validate.ts';

/** Worth a look-up: three characters or more (a field clause such as is:refund included). */
export function looksLikeRecordQuery(term: string): boolean {
  const trimmed = term.trim();
  return trimmed.length >= 3 && trimmed.length <= 200;
}

export const searchQueries = {
  all: ['search'] as const,
  records: (term: string) =>
    queryOptions({
      queryKey: [...searchQueries.all, 'records', term.trim()] as const,
      queryFn: async ({ signal }): Promise<RecordSearchResult[]> => {
        const data = await api.get<unknown>('/search', { query: { term: term.trim() }, signal, handleErrors: false });
        return (await validate('recordSearch', data)).results;
      },
      staleTime: 30_000,
      retry: false,
    }),
  merchants: (prefix: string) =>
    queryOptions({
      queryKey: [...searchQueries.all, 'merchants', prefix.trim().toLowerCase()] as const,
      queryFn: async ({ signal }): Promise<SearchMerchants['results']> => {
        const data = await api.get<unknown>('/search/merchants', { query: { prefix: prefix.trim() }, signal, handleErrors: false });
        return (await validate('searchMerchants', data)).results;
      },
      staleTime: 60_000,
      retry: false,
    }),
};
