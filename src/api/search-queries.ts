// The palette's record look-up: transactions, payment jobs, businesses and merchants by reference, id or name.
// Failures show inline in the palette rather than as toasts on every keystroke.
import { queryOptions } from '@tanstack/react-query';
import type { RecordSearchResult } from '../contract/shell-responses.ts';
import { api } from './api-client.ts';
import { validate } from './validate.ts';

/** Worth a look-up: three characters or more, not a lone word of the command vocabulary. */
export function looksLikeRecordQuery(term: string): boolean {
  const trimmed = term.trim();
  return trimmed.length >= 3 && trimmed.length <= 100;
}

export const searchQueries = {
  all: ['search'] as const,
  records: (term: string) => queryOptions({
    queryKey: [...searchQueries.all, 'records', term.trim().toLowerCase()] as const,
    queryFn: async ({ signal }): Promise<RecordSearchResult[]> => {
      const data = await api.get<unknown>('/search', { query: { term: term.trim() }, signal, handleErrors: false });
      return (await validate('recordSearch', data)).results;
    },
    staleTime: 30_000,
    retry: false,
  }),
};
