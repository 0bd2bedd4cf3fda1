// A versioned record's save from its detail pane, with the 409 handled once for every pane. The save sends the version
// the edit started from; on success the record's query holds the saved version and the form closes. A stale save
// answers 409 and the shell asks 'Someone updated this view': Stay keeps the edits and reads the other side's version
// fresh, to compare (a second save then replaces it knowingly); Discard closes the form.
import { type DataTag, type QueryKey, type UseQueryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { isApiError } from '../../src/api/api-error.ts';
import type { VersionedDraft } from '../../src/ui/record-changed.tsx';

export function useVersionedSave<T extends { version: number }, D, K extends QueryKey>({
  editor,
  record,
  save,
  onSaved,
}: {
  editor: VersionedDraft<T, D>;
  /** the record's query (its queryOptions): holds the saved version, and is read again after a 409 the user stayed on */
  record: UseQueryOptions<T, Error, T, K> & { queryKey: DataTag<K, T, Error> };
  save: (draft: D, version: number) => Promise<T>;
  /** after the form closed: the toast, lists to read again */
  onSaved: (saved: T) => unknown;
}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (values: { draft: D; version: number }) => save(values.draft, values.version),
    onSuccess: async (saved) => {
      queryClient.setQueryData<T>(record.queryKey, saved);
      editor.stop();
      await onSaved(saved);
    },
    onError: async (error) => {
      if (!isApiError(error)) return;
      if (error.kind === 'conflictKept')
        editor.conflictKept(await queryClient.fetchQuery({ queryKey: record.queryKey, queryFn: record.queryFn, staleTime: 0 }));
      else if (error.kind === 'conflictDiscarded') editor.stop();
    },
  });
}
