// Filter presets kept as a user setting ({page}FilterPresets): the tickets, users and payment jobs overviews' until
// their presets move to the database (filter-presets.ts), as the transactions overview's have.
import { compactFilters } from './filters.ts';

function parseJson(json: string | null | undefined): unknown {
  if (!json) return null;
  try {
    return JSON.parse(json) as unknown;
  } catch {
    return null;
  }
}

export type FilterPreset = { identifier: string; name: string; filters: Record<string, string> };
export const maxFilterPresets = 50;
export const maxPresetNameLength = 50;
export const filterPresetsSettingKey = (page: string) => `${page}FilterPresets`;

/** Tolerant read of stored JSON text: anything that is not a well-formed preset is dropped, never thrown. */
export const parseFilterPresets = (json: string | null | undefined): FilterPreset[] => filterPresetsOf(parseJson(json));

/** The same for a value already parsed (user settings arrive parsed). */
export function filterPresetsOf(value: unknown): FilterPreset[] {
  if (!Array.isArray(value)) return [];
  const presets: FilterPreset[] = [];
  for (const entry of value as unknown[]) {
    if (typeof entry !== 'object' || entry === null) continue;
    const { identifier, name, filters } = entry as Record<string, unknown>;
    if (typeof identifier !== 'string' || typeof name !== 'string' || name.trim() === '') continue;
    if (typeof filters !== 'object' || filters === null || Array.isArray(filters)) continue;
    const cleanFilters: Record<string, string> = {};
    for (const [key, filter] of Object.entries(filters as Record<string, unknown>)) if (typeof filter === 'string' && filter !== '') cleanFilters[key] = filter;
    presets.push({ identifier, name: name.slice(0, maxPresetNameLength), filters: cleanFilters });
  }
  return presets.slice(0, maxFilterPresets);
}

export const serialiseFilterPresets = (presets: readonly FilterPreset[]) => JSON.stringify(presets);

/** Saving under an existing name (any case) replaces that preset and keeps its identifier; new ones go last. */
export function savePreset(
  presets: readonly FilterPreset[],
  input: { name: string; filters: Record<string, string> },
  newIdentifier: string,
): { presets: FilterPreset[]; preset: FilterPreset } {
  const name = input.name.trim();
  const existing = presets.find((preset) => preset.name.toLowerCase() === name.toLowerCase());
  const preset: FilterPreset = { identifier: existing?.identifier ?? newIdentifier, name, filters: compactFilters(input.filters) };
  const next = existing ? presets.map((candidate) => (candidate === existing ? preset : candidate)) : [...presets, preset];
  return { presets: next.slice(-maxFilterPresets), preset };
}

export const removePreset = (presets: readonly FilterPreset[], identifier: string) => presets.filter((preset) => preset.identifier !== identifier);
