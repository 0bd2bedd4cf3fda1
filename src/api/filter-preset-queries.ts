// Filter presets saved in the database (src/contract/filter-presets.ts): what a page offers the caller (their own,
// their roles', and the business's shared ones), and the writes. Answers are checked against the contract.
import { queryOptions } from '@tanstack/react-query';
import type { StoredPreset } from '../contract/filter-presets.ts';
import type { DatePresetId } from '../contract/date-range-filter.ts';
import { api } from './api-client.ts';
import { validate } from './validate.ts';

export type PresetInput = { name: string; filters: Record<string, string>; relativeDate: DatePresetId | null };

export const filterPresetQueries = {
  all: ['filterPresets'] as const,
  page: (page: string, businessId: string | null) =>
    queryOptions({
      queryKey: [...filterPresetQueries.all, page, businessId ?? ''] as const,
      queryFn: async ({ signal }) =>
        validate(
          'storedPresetList',
          await api.get<unknown>('/filter-presets', {
            query: { page, ...(businessId ? { businessId } : {}) },
            signal,
          }),
        ),
      staleTime: 60_000,
    }),
};

/** Personal, or shared with everyone on the business. */
export async function createPreset(page: string, input: PresetInput, share: { businessId: string } | null): Promise<StoredPreset> {
  const path = share ? `/businesses/${encodeURIComponent(share.businessId)}/filter-presets` : '/filter-presets';
  return validate('storedPreset', await api.post<unknown>(path, { page, ...input }));
}

export async function updatePreset(preset: StoredPreset, input: PresetInput): Promise<StoredPreset> {
  return validate('storedPreset', await api.put<unknown>(`/filter-presets/${encodeURIComponent(preset.id)}`, { ...input, version: preset.version }));
}

export async function removePresetRecord(preset: StoredPreset): Promise<void> {
  await api.delete(`/filter-presets/${encodeURIComponent(preset.id)}?version=${preset.version}`);
}
