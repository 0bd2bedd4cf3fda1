import { describe, expect, it } from 'vitest';
import { pickerColumns } from '../../../src/ui/data-table/date-range-picker.tsx';

describe('the date range picker', () => {
  it('shows one column under 576 px', () => {
    expect(pickerColumns(575)).toBe(1);
    expect(pickerColumns(576)).toBe(2);
  });
});
