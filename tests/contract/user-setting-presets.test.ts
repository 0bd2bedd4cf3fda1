import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { presetNameProblem } from '../../src/contract/filter-presets.ts';
import {
  filterPresetsSettingKey,
  parseFilterPresets,
  removePreset,
  savePreset,
  serialiseFilterPresets,
  type FilterPreset,
} from '../../src/contract/user-setting-presets.ts';

describe('filter presets', () => {
  const presets: FilterPreset[] = [{ identifier: 'a', name: 'Declined this month', filters: { status: '[eq]declined' } }];

  it('is stored per page', () => {
    expect(filterPresetsSettingKey('transactions')).toBe('transactionsFilterPresets');
  });

  it('saves a new preset last, and replaces one of the same name keeping its identifier', () => {
    const added = savePreset(presets, { name: ' Chip and PIN ', filters: { channel: '[eq]chp', amount: '' } }, 'b');
    expect(added.presets.map((preset) => preset.name)).toEqual(['Declined this month', 'Chip and PIN']);
    expect(added.preset).toEqual({ identifier: 'b', name: 'Chip and PIN', filters: { channel: '[eq]chp' } });
    const replaced = savePreset(added.presets, { name: 'declined THIS month', filters: { status: '[eq]failed' } }, 'c');
    expect(replaced.presets).toEqual([{ identifier: 'a', name: 'declined THIS month', filters: { status: '[eq]failed' } }, added.preset]);
  });

  it('removes by identifier', () => {
    expect(removePreset(presets, 'a')).toEqual([]);
    expect(removePreset(presets, 'zz')).toEqual(presets);
  });

  it('needs a name', () => {
    expect(presetNameProblem('  ')).toBe('Name is required');
    expect(presetNameProblem('x'.repeat(51))).toBe('Name may have 50 characters maximum');
    expect(presetNameProblem('Refunds')).toBeUndefined();
  });

  it('reads back what it stores', () => {
    expect(parseFilterPresets(serialiseFilterPresets(presets))).toEqual(presets);
  });

  it.each([
    ['nothing', null],
    ['not JSON', '{'],
    ['not a list', '{"a":1}'],
    [
      'junk entries',
      '[1, null, "x", {"identifier": 2, "name": "n", "filters": {}}, {"identifier": "i", "name": "", "filters": {}}, {"identifier": "i", "name": "n", "filters": []}]',
    ],
  ])('reads %s as no presets', (_name, stored) => {
    expect(parseFilterPresets(stored)).toEqual([]);
  });

  it('drops non-text filter values from a stored preset', () => {
    expect(parseFilterPresets('[{"identifier":"i","name":"n","filters":{"status":"[eq]paid","amount":5,"x":""}}]')).toEqual([
      { identifier: 'i', name: 'n', filters: { status: '[eq]paid' } },
    ]);
  });

  it('never throws on any stored text', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.json()), (stored) => {
        expect(Array.isArray(parseFilterPresets(stored))).toBe(true);
      }),
    );
  });
});
