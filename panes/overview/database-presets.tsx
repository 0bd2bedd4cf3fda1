// Filter presets of an overview, saved in the database (src/contract/filter-presets.ts): the caller's own, their roles',
// and those shared with the business (read-only unless theirs or they administer it, with a badge saying so). Saving
// under the name of one of the caller's presets replaces it; with a business a preset may be shared with everyone on
// it. The business's default preset applies when the overview opens without filters of its own (once). Each action
// says what happened.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { createPreset, filterPresetQueries, removePresetRecord, updatePreset } from '../../src/api/filter-preset-queries.ts';
import { describePreset, presetFiltersFor, presetNameProblem, type StoredPreset } from '../../src/contract/filter-presets.ts';
import { datePresetLabels, datePresetRange, decodeDateRange, encodeDateRange, presetOfRange } from '../../src/contract/date-range-filter.ts';
import { compactFilters } from '../../src/contract/list-state.ts';
import { roleLabels, type RoleName } from '../../src/contract/permissions.ts';
import { showToast } from '../../src/state/toast-store.ts';
import { FilterPresets } from '../../src/ui/data-table/filter-presets.tsx';

function presetBadge(preset: StoredPreset): string | undefined {
  if (preset.sharing === 'business')
    return preset.isDefault ? 'Default, shared with the business' : `Shared with the business by ${preset.ownerName}${preset.editable ? '' : ' (read-only)'}`;
  if (preset.sharing === 'role') return `Shared with ${roleLabels[preset.role as RoleName] ?? preset.role}${preset.editable ? '' : ' (read-only)'}`;
  return undefined;
}

export type DatabaseFilterPresetsProps = {
  /** the page name of the presets (presetPagePattern): 'transactions', 'tickets' */
  page: string;
  /** the business whose shared presets show and with whom a preset may be shared; null: personal and role presets only */
  businessId: string | null;
  /** what Save keeps: the filters as the form shows them (typed drafts included) */
  filters: Record<string, string>;
  /** shows a preset's filters (a relative date resolved against today); replace: the default preset applying on opening */
  onApply: (filters: Record<string, string>, options: { replace?: boolean }) => void;
  /** the business's default preset may apply: the overview opened without filters of its own (read when the presets first load) */
  defaultApplies: boolean;
  /** why the current filters cannot be saved (an invalid form), if they cannot */
  saveBlockedBy?: string | undefined;
  /** one filter in words for the preset list ('Type: Refund'), or undefined to leave it out; without it, no summaries */
  describeFilter?: (name: string, value: string) => string | undefined;
  /**
   * The page's 'date' filter (a date range) is saved as the date dropdown's preset when it is one ('lastMonth'), so
   * 'last month' stays last month; applying resolves it against today.
   */
  relativeDates?: { today: string };
};

export function DatabaseFilterPresets({
  page,
  businessId,
  filters,
  onApply,
  defaultApplies,
  saveBlockedBy,
  describeFilter,
  relativeDates,
}: DatabaseFilterPresetsProps) {
  const queryClient = useQueryClient();
  const presetQuery = useQuery(filterPresetQueries.page(page, businessId));
  const presets = presetQuery.data?.results ?? [];
  const filtersOf = (preset: StoredPreset) =>
    presetFiltersFor(preset, (relative) => (relativeDates ? encodeDateRange(datePresetRange(relative, relativeDates.today)) : undefined));
  const presetEntries = presets.map((preset) => ({
    identifier: preset.id,
    name: preset.name,
    summary: describeFilter ? describePreset(preset, describeFilter, (relative) => datePresetLabels[relative]) : undefined,
    badge: presetBadge(preset),
    removable: preset.editable,
  }));
  const refreshPresets = () => queryClient.invalidateQueries({ queryKey: filterPresetQueries.all });
  const storePreset = useMutation({
    mutationFn: async ({ name, shared }: { name: string; shared: boolean }) => {
      const relativeDate = relativeDates ? presetOfRange(decodeDateRange(filters.date), relativeDates.today) : null;
      const input = { name, filters: compactFilters({ ...filters, date: relativeDate ? undefined : filters.date }), relativeDate };
      const sharing = shared && businessId ? 'business' : 'personal';
      const existing = presets.find((preset) => preset.editable && preset.sharing === sharing && preset.name.toLowerCase() === name.toLowerCase());
      return existing ? updatePreset(existing, input) : createPreset(page, input, sharing === 'business' && businessId ? { businessId } : null);
    },
    onSuccess: (preset) => {
      void refreshPresets();
      showToast({ kind: 'success', message: `Filter preset '${preset.name}' saved.` });
    },
  });
  const dropPreset = useMutation({
    mutationFn: (preset: StoredPreset) => removePresetRecord(preset),
    onSuccess: (_nothing, preset) => {
      void refreshPresets();
      showToast({ kind: 'success', message: `Filter preset '${preset.name}' removed.` });
    },
  });
  const defaultApplied = useRef(false);
  const defaultPreset = presets.find((preset) => preset.isDefault && preset.sharing === 'business');
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, when the presets first load; the filters and onApply are read as they are then
  useEffect(() => {
    if (defaultApplied.current || !presetQuery.isSuccess) return;
    defaultApplied.current = true;
    if (defaultPreset && defaultApplies) onApply(filtersOf(defaultPreset), { replace: true });
  }, [presetQuery.isSuccess]);

  return (
    <FilterPresets
      presets={presetEntries}
      saveBlockedBy={saveBlockedBy}
      nameProblem={presetNameProblem}
      shareLabel={businessId ? 'Share with everyone on this business (read-only to them)' : undefined}
      onApply={(identifier) => {
        const preset = presets.find((candidate) => candidate.id === identifier);
        if (!preset) return;
        onApply(filtersOf(preset), {});
        showToast({ kind: 'success', message: `Filter preset '${preset.name}' applied.` });
      }}
      onRemove={(identifier) => {
        const preset = presets.find((candidate) => candidate.id === identifier);
        if (preset) dropPreset.mutate(preset);
      }}
      onSave={(name, { shared }) => storePreset.mutate({ name, shared })}
    />
  );
}
