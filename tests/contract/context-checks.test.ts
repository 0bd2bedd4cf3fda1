// The plain checks of the first load's path accept exactly what the arktype schemas accept: compared on values
// generated around the shapes (right, wrong, missing and extra fields), and on hand-picked edge cases.
import { type } from 'arktype';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isCachedBusiness, isCachedMerchant, isContextItem, isContextSelections } from '../../src/contract/context-checks.ts';
import { contextItemSchema, contextSelectionsSchema } from '../../src/contract/context.ts';
import { contextBusinessSchema, contextMerchantSchema } from '../../src/contract/context-responses.ts';

const accepts = (schema: (value: unknown) => unknown) => (value: unknown) => !(schema(value) instanceof type.errors);

// Values that are sometimes right and often nearly right: each field absent, of its type, or of another type.
const anyValue = fc.oneof(fc.string(), fc.boolean(), fc.constant(null), fc.integer(), fc.array(fc.string(), { maxLength: 2 }), fc.constant(undefined));
const stringish = fc.oneof({ weight: 4, arbitrary: fc.string({ maxLength: 4 }) }, { weight: 1, arbitrary: anyValue });
const booleanish = fc.oneof({ weight: 4, arbitrary: fc.boolean() }, { weight: 1, arbitrary: anyValue });
const idish = fc.oneof({ weight: 2, arbitrary: fc.string({ maxLength: 4 }) }, { weight: 2, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: anyValue });
const stringsish = fc.oneof(
  { weight: 4, arbitrary: fc.array(fc.string({ maxLength: 3 }), { maxLength: 3 }) },
  { weight: 1, arbitrary: fc.array(anyValue, { maxLength: 2 }) },
  { weight: 1, arbitrary: anyValue },
);
const record = (fields: Record<string, fc.Arbitrary<unknown>>) =>
  fc.oneof({ weight: 8, arbitrary: fc.record({ ...fields, extra: anyValue }, { requiredKeys: [] }) }, { weight: 1, arbitrary: anyValue });
const selection = (more: Record<string, fc.Arbitrary<unknown>> = {}) => record({ id: idish, title: stringish, ...more });
const switches = fc.oneof(
  { weight: 4, arbitrary: fc.record({ virtualTerminalMenuEnabled: booleanish, other: booleanish }, { requiredKeys: ['virtualTerminalMenuEnabled'] }) },
  { weight: 1, arbitrary: anyValue },
);

const runs = { numRuns: 3_000 };

describe('the plain context checks agree with the schemas', () => {
  it('selections of a /context/apply link', () => {
    const arbitrary = record({
      partner: selection(),
      business: selection({ camAutoRemittance: booleanish }),
      merchant: selection({ grossSettlement: booleanish, currencies: stringsish }),
      configuration: selection({ switches }),
    });
    // One deliberate difference: arktype takes an array for an object whose fields are all optional; the check does not.
    fc.assert(
      fc.property(arbitrary, (value) => isContextSelections(value) === (accepts(contextSelectionsSchema)(value) && !Array.isArray(value))),
      runs,
    );
    expect(isContextSelections({ business: { id: 'B1', title: 'Alpha' }, merchant: { id: null, title: '' } })).toBe(true);
    expect(isContextSelections({ configuration: { id: 'C1', title: 'x', switches: { virtualTerminalMenuEnabled: true, other: 'yes' } } })).toBe(false);
    expect(isContextSelections([])).toBe(false);
  });

  it('favourite and recent items', () => {
    const arbitrary = record({ businessId: stringish, merchantId: stringish, businessName: stringish, merchantName: stringish });
    fc.assert(
      fc.property(arbitrary, (value) => isContextItem(value) === accepts(contextItemSchema)(value)),
      runs,
    );
  });

  it('cached business and merchant look-ups', () => {
    const business = record({ id: stringish, name: stringish, camAutoRemittance: booleanish, live: booleanish, partnerId: idish });
    const merchant = record({ id: stringish, name: stringish, businessId: stringish, grossSettlement: booleanish, currencies: stringsish, live: booleanish });
    fc.assert(
      fc.property(business, (value) => isCachedBusiness(value) === accepts(contextBusinessSchema)(value)),
      runs,
    );
    fc.assert(
      fc.property(merchant, (value) => isCachedMerchant(value) === accepts(contextMerchantSchema)(value)),
      runs,
    );
  });
});
