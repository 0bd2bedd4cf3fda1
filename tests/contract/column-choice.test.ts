import { describe, expect, it } from 'vitest';
import { applyColumnChoice, serialiseColumnChoice } from '../../src/contract/column-choice.ts';

describe('column choices', () => {
  const columns = ['date', 'reference', 'merchant', 'amount', 'kind'];
  const defaults = ['date', 'reference', 'merchant', 'amount'];

  it('starts from the defaults', () => {
    expect(applyColumnChoice(null, columns, defaults)).toEqual({ order: columns, visible: defaults });
  });

  it('applies a saved order and hidden set', () => {
    const saved = serialiseColumnChoice(['amount', 'date', 'reference', 'merchant', 'kind'], ['amount', 'date', 'kind']);
    expect(applyColumnChoice(saved, columns, defaults)).toEqual({
      order: ['amount', 'date', 'reference', 'merchant', 'kind'],
      visible: ['amount', 'date', 'kind'],
    });
  });

  it('places columns added since in their default position, and drops columns that are gone', () => {
    const saved = JSON.stringify({ order: ['amount', 'gone', 'date', 'merchant'], hidden: [] });
    expect(applyColumnChoice(saved, columns, defaults)).toEqual({
      order: ['amount', 'date', 'reference', 'merchant', 'kind'],
      visible: ['amount', 'date', 'reference', 'merchant'],
    });
  });

  it('never hides every column', () => {
    const saved = JSON.stringify({ order: columns, hidden: columns });
    expect(applyColumnChoice(saved, columns, defaults).visible).toEqual(defaults);
  });
});
