// Filter presets saved in the database: personal,
// shared with everyone on a business, or shared with an internal role; a page can have one default preset per
// business. Shared presets are read-only to those they are shared with; their owner or an admin edits them.
//
//   GET    /filter-presets?page=&businessId=          what the caller sees on a page: their own, their roles', the business's
//   POST   /filter-presets                            a personal preset, or (internal staff) one shared with a role
//   GET    /businesses/{b}/filter-presets?page=       the presets shared with everyone on business b
//   POST   /businesses/{b}/filter-presets             share one with everyone on business b (isDefault: the page's default)
//   PUT    /filter-presets/{id}                       change (owner or admin); 409 on a stale version
//   DELETE /filter-presets/{id}?version=              remove (owner or admin); 409 on a stale version
//
// A date range that is one of the date dropdown's presets is stored as that preset ('lastMonth'), never as the
// dates it meant the day it was saved: 'last month' stays last month.
import { type } from 'arktype';
import { datePresetIds, type DatePresetId } from './date-range-filter.ts';
import { roleKinds, roleNames, type RoleName } from './permissions.ts';

export const presetSharings = ['personal', 'business', 'role'] as const;

/** Roles a preset can be shared with: internal staff roles only. */
export const shareableRoles = roleNames.filter((role) => roleKinds[role].includes('internal')) as RoleName[];

export const presetPagePattern = /^[a-z][A-Za-z0-9-]{0,39}$/;
export const maxPresetFilters = 20;
export const maxStoredPresetNameLength = 50;

const page = type(presetPagePattern).describe('a page name such as transactions');
const presetName = type('string').narrow(
  (value, ctx) =>
    (value.trim().length > 0 && value.trim().length <= maxStoredPresetNameLength) || ctx.mustBe(`a name of 1 to ${maxStoredPresetNameLength} characters`),
);
const filterMap = type({ '[string]': 'string <= 512' }).narrow((value, ctx) => {
  const keys = Object.keys(value);
  if (keys.length > maxPresetFilters) return ctx.mustBe(`at most ${maxPresetFilters} filters`);
  return keys.every((key) => /^[A-Za-z][A-Za-z0-9]{0,39}$/.test(key)) || ctx.mustBe('filters named by letters and digits');
});
const relativeDate = type.enumerated(...datePresetIds).or('null');

export const personalPresetBody = type({
  page,
  name: presetName,
  filters: filterMap,
  'relativeDate?': relativeDate,
  'sharing?': "'personal' | 'role'",
  'role?': type.enumerated(...shareableRoles),
  '+': 'reject',
});
export const businessPresetBody = type({
  page,
  name: presetName,
  filters: filterMap,
  'relativeDate?': relativeDate,
  'isDefault?': 'boolean',
  '+': 'reject',
});
export const presetUpdateBody = type({
  name: presetName,
  filters: filterMap,
  'relativeDate?': relativeDate,
  'isDefault?': 'boolean',
  version: 'number.integer >= 1',
  '+': 'reject',
});

export const storedPreset = type({
  id: 'string',
  page: 'string',
  name: 'string',
  filters: { '[string]': 'string' },
  relativeDate: type.enumerated(...datePresetIds).or('null'),
  sharing: type.enumerated(...presetSharings),
  businessId: 'string | null',
  role: 'string | null',
  isDefault: 'boolean',
  ownerName: 'string',
  /** the caller may change or remove it (its owner, or an admin) */
  editable: 'boolean',
  version: 'number',
  updatedUtc: 'string',
});
export type StoredPreset = typeof storedPreset.infer;
export const storedPresetList = type({ results: storedPreset.array() });

/** The filters a preset applies today: its relative date resolved against today, its other filters as stored. */
export function presetFiltersFor(
  preset: Pick<StoredPreset, 'filters' | 'relativeDate'>,
  resolveDate: (preset: DatePresetId) => string | undefined,
): Record<string, string> {
  const filters = { ...preset.filters };
  if (preset.relativeDate) {
    const date = resolveDate(preset.relativeDate);
    if (date) filters.date = date;
  }
  return filters;
}

/**
 * A preset in words, for the preset list: each filter by its label and values, the date as its relative name.
 * filterWords gives a filter's words (or undefined to leave it out).
 */
export function describePreset(
  preset: Pick<StoredPreset, 'filters' | 'relativeDate'>,
  filterWords: (name: string, value: string) => string | undefined,
  relativeDateLabel: (preset: DatePresetId) => string,
): string {
  const parts: string[] = [];
  if (preset.relativeDate) parts.push(`Date: ${relativeDateLabel(preset.relativeDate)}`);
  for (const [name, value] of Object.entries(preset.filters)) {
    if (name === 'date' && preset.relativeDate) continue;
    const words = filterWords(name, value);
    if (words) parts.push(words);
  }
  return parts.length > 0 ? parts.join(' · ') : 'No filters';
}

/** A preset name's problem as the save form says it, or nothing. */
export function presetNameProblem(name: string): string | undefined {
  const trimmed = name.trim();
  if (trimmed === '') return 'Name is required';
  if (trimmed.length > maxStoredPresetNameLength) return `Name may have ${maxStoredPresetNameLength} characters maximum`;
  return undefined;
}
