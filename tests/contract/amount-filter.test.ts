import { describe, expect, it } from 'vitest';
import { amountProblems, decodeAmount, encodeAmount, type AmountFilter } from '../../src/contract/amount-filter.ts';

describe('an amount to a filter value and back', () => {
  it.each<[AmountFilter, string | undefined]>([
    [{ mode: 'exact', exact: '12.50', min: '1', max: '2' }, '[eq]12.50'],
    [{ mode: 'range', exact: '', min: '10', max: '' }, '[gte]10'],
    [{ mode: 'range', exact: '', min: '', max: ' 20 ' }, '[lte]20'],
    [{ mode: 'range', exact: '', min: '10', max: '20' }, '[gte]10[and][lte]20'],
    [{ mode: 'range', exact: '5', min: '', max: '' }, undefined],
    [{ mode: 'exact', exact: ' ', min: '', max: '' }, undefined],
  ])('encodes the amount %j as %s', (amount, encoded) => {
    expect(encodeAmount(amount)).toBe(encoded);
    if (encoded) expect(encodeAmount(decodeAmount(encoded))).toBe(encoded);
  });

  it('checks amounts', () => {
    expect(amountProblems({ mode: 'range', exact: '', min: '20', max: '10' })).toEqual({ max: 'Maximum amount should be above 20' });
    expect(amountProblems({ mode: 'range', exact: '', min: '1e3', max: '' })).toEqual({ min: 'Only decimal input is allowed' });
    expect(amountProblems({ mode: 'exact', exact: '-5', min: '', max: '' })).toEqual({ exact: 'Only decimal input is allowed' });
    expect(amountProblems({ mode: 'range', exact: 'x', min: '10', max: '10' })).toEqual({});
  });
});
