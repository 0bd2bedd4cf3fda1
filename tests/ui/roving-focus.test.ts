// The listbox pattern's movement keys as a table of cases.
import { describe, expect, it } from 'vitest';
import { rovingTarget, type RovingOrientation, typeaheadTarget } from '../../src/ui/roving-focus.ts';

describe('rovingTarget', () => {
  const cases: [key: string, index: number, count: number, orientation: RovingOrientation, expected: number | null][] = [
    ['ArrowDown', 0, 3, 'vertical', 1],
    ['ArrowDown', 2, 3, 'vertical', 2],
    ['ArrowUp', 1, 3, 'vertical', 0],
    ['ArrowUp', 0, 3, 'vertical', 0],
    ['Home', 2, 3, 'vertical', 0],
    ['End', 0, 3, 'vertical', 2],
    ['ArrowRight', 0, 3, 'vertical', null],
    ['ArrowRight', 0, 3, 'horizontal', 1],
    ['ArrowDown', 0, 3, 'horizontal', null],
    ['ArrowLeft', 2, 3, 'both', 1],
    ['ArrowDown', 1, 3, 'both', 2],
    [' ', 1, 3, 'both', null],
    ['Enter', 1, 3, 'vertical', null],
    ['ArrowDown', 0, 0, 'vertical', null],
  ];
  it.each(cases)('%s from %i of %i (%s) → %s', (key, index, count, orientation, expected) => {
    expect(rovingTarget(key, index, count, orientation)).toBe(expected);
  });
});

describe('typeaheadTarget', () => {
  const presets = ['Today', 'Yesterday', 'This week', 'Last week', 'This month', 'Last month', 'This year', 'Last year'];
  const cases: [key: string, index: number, expected: number | null][] = [
    ['l', 0, 3],
    ['l', 3, 5],
    ['L', 5, 7],
    ['l', 7, 3],
    ['t', 0, 2],
    ['y', 0, 1],
    ['y', 1, 1],
    ['x', 0, null],
    [' ', 0, null],
    ['ArrowDown', 0, null],
  ];
  it.each(cases)('%s from %i → %s', (key, index, expected) => {
    expect(typeaheadTarget(key, index, presets)).toBe(expected);
  });
});
