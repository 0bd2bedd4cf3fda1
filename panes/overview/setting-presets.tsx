// Filter presets kept as a user setting (<page>FilterPresets): apply, remove and save, each saying what happened.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { saveUserSetting, userSettingQueries } from '../../src/api/user-setting-queries.ts';
import { presetNameProblem } from '../../src/contract/filter-presets.ts';
import { filterPresetsOf, filterPresetsSettingKey, removePreset, savePreset } from '../../src/contract/user-setting-presets.ts';
import { showToast } from '../../src/state/toast-store.ts';
import { FilterPresets } from '../../src/ui/data-table/filter-presets.tsx';

const newIdentifier = () => globalThis.crypto?.randomUUID?.() ?? `preset-${Date.now()}-${Math.random().toString(36).slice(2)}`;

export type SettingFilterPresetsProps = {
  /** the page name of the user setting: 'tickets' → ticketsFilterPresets */
  page: string;
  /** what Save keeps: the filters as the form shows them (typed drafts included) */
  filters: Record<string, string>;
  onApply: (filters: Record<string, string>) => void;
};

export function SettingFilterPresets({ page, filters, onApply }: SettingFilterPresetsProps) {
  const queryClient = useQueryClient();
  const presetsKey = filterPresetsSettingKey(page);
  const presetSetting = useQuery(userSettingQueries.detail(presetsKey));
  const presets = filterPresetsOf(presetSetting.data);
  const storePresets = useMutation({
    mutationFn: (next: ReturnType<typeof filterPresetsOf>) => saveUserSetting(presetsKey, next),
    onSuccess: (_result, next) => queryClient.setQueryData(userSettingQueries.detail(presetsKey).queryKey, next),
  });
  return (
    <FilterPresets
      presets={presets}
      saveBlockedBy={undefined}
      nameProblem={presetNameProblem}
      onApply={(identifier) => {
        const preset = presets.find((candidate) => candidate.identifier === identifier);
        if (!preset) return;
        onApply(preset.filters);
        showToast({ kind: 'success', message: `Filter preset '${preset.name}' applied.` });
      }}
      onRemove={(identifier) => {
        const preset = presets.find((candidate) => candidate.identifier === identifier);
        storePresets.mutate(removePreset(presets, identifier), {
          onSuccess: () => showToast({ kind: 'success', message: `Filter preset '${preset?.name ?? ''}' removed.` }),
        });
      }}
      onSave={(name) => {
        const { presets: next, preset } = savePreset(presets, { name, filters }, newIdentifier());
        storePresets.mutate(next, { onSuccess: () => showToast({ kind: 'success', message: `Filter preset '${preset.name}' saved.` }) });
      }}
    />
  );
}
