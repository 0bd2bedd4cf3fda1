// Property tests of the commission reconciliation (server/partners/commission.ts): for any plan and any month of
// fees, the per-transaction shares add up to the month's total computed from the fees grouped as the SQL groups
// them (to the cent), no share is a whole minor unit away from its exact value, and the total is the exact sum
// rounded half up once. Also: rule priority decides, and bands are [from, to).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  allocateCommission,
  byPriority,
  exactCommission,
  monthCommission,
  roundHalfUp,
  ruleFor,
  type CommissionRuleTerms,
  type FeeGroup,
  type TransactionFee,
} from '../../../server/partners/commission.ts';
import { commissionCardTypes, commissionChannels } from '../../../src/contract/partners.ts';

const currencies = ['GBP', 'EUR', 'JPY'] as const;
const methods = ['card', 'ideal', 'applePay', 'payPal'] as const;
const cardTypes = [...commissionCardTypes, null] as const;

const rule = fc.record({
  ruleId: fc.string({ minLength: 1, maxLength: 4 }),
  priority: fc.integer({ min: 0, max: 50 }),
  volumeFromMinor: fc.integer({ min: 0, max: 2_000_000 }),
  volumeToMinor: fc.option(fc.integer({ min: 0, max: 5_000_000 }), { nil: null }),
  percentageBasisPoints: fc.integer({ min: 0, max: 10_000 }),
  fixedMinor: fc.integer({ min: 0, max: 50 }),
  channel: fc.option(fc.constantFrom(...commissionChannels), { nil: null }),
  currency: fc.option(fc.constantFrom(...currencies), { nil: null }),
  paymentMethod: fc.option(fc.constantFrom(...methods), { nil: null }),
  cardType: fc.option(fc.constantFrom(...commissionCardTypes), { nil: null }),
}) as fc.Arbitrary<CommissionRuleTerms>;

const fee = (currency: string) =>
  fc.record({
    reference: fc.string({ minLength: 1, maxLength: 8 }),
    currency: fc.constant(currency),
    channel: fc.constantFrom(...commissionChannels),
    paymentMethod: fc.constantFrom(...methods),
    cardType: fc.constantFrom(...cardTypes),
    feeMinor: fc.integer({ min: 0, max: 5_000_000 }),
  }) as fc.Arbitrary<TransactionFee>;

const month = fc.constantFrom(...currencies).chain((currency) =>
  fc.record({
    rules: fc.array(rule, { maxLength: 8 }),
    fees: fc.uniqueArray(fee(currency), { maxLength: 60, selector: (entry) => entry.reference }),
    volume: fc.integer({ min: 0, max: 6_000_000 }),
  }),
);

/** The fees grouped by their facts, as the SQL does. */
function grouped(fees: readonly TransactionFee[]): FeeGroup[] {
  const groups = new Map<string, FeeGroup>();
  for (const entry of fees) {
    const key = [entry.currency, entry.channel, entry.paymentMethod, entry.cardType].join('|');
    const group = groups.get(key) ?? {
      currency: entry.currency,
      channel: entry.channel,
      paymentMethod: entry.paymentMethod,
      cardType: entry.cardType,
      feeMinor: 0,
      count: 0,
    };
    group.feeMinor += entry.feeMinor;
    group.count += 1;
    groups.set(key, group);
  }
  return [...groups.values()];
}

describe('commission reconciliation', () => {
  it('per-transaction shares add up to the monthly total from grouped fees, each within one minor unit of exact', () => {
    fc.assert(
      fc.property(month, ({ rules, fees, volume }) => {
        const total = monthCommission(rules, grouped(fees), volume);
        const shares = allocateCommission(rules, fees, volume);
        expect(shares.reduce((sum, share) => sum + share.commissionMinor, 0)).toBe(total.commissionMinor);
        expect(total.feesMinor).toBe(fees.reduce((sum, entry) => sum + entry.feeMinor, 0));
        expect(total.transactionCount).toBe(fees.length);
        const ordered = byPriority(rules);
        fees.forEach((entry, index) => {
          const matched = ruleFor(ordered, entry, volume);
          const share = shares[index];
          expect(share?.ruleId ?? null).toBe(matched?.ruleId ?? null);
          const exact = matched ? exactCommission(matched, entry.feeMinor, 1) : 0n;
          const distance = BigInt(share?.commissionMinor ?? 0) * 10_000n - exact;
          expect(distance > -10_000n && distance < 10_000n).toBe(true);
        });
        expect(total.unmatchedCount).toBe(shares.filter((share) => share.ruleId === null).length);
      }),
      { numRuns: 500 },
    );
  });

  it('the monthly total is the exact sum rounded half up once', () => {
    fc.assert(
      fc.property(month, ({ rules, fees, volume }) => {
        const ordered = byPriority(rules);
        const exact = fees.reduce((sum, entry) => {
          const matched = ruleFor(ordered, entry, volume);
          return sum + (matched ? exactCommission(matched, entry.feeMinor, 1) : 0n);
        }, 0n);
        const total = monthCommission(rules, grouped(fees), volume);
        expect(total.exact).toBe(exact);
        expect(total.commissionMinor).toBe(Math.floor(Number(exact) / 10_000 + 0.5));
      }),
      { numRuns: 300 },
    );
  });

  it('is a table of cases: priority, bands [from, to), conditions, half-up rounding', () => {
    const base: CommissionRuleTerms = {
      ruleId: 'x',
      priority: 10,
      volumeFromMinor: 0,
      volumeToMinor: null,
      percentageBasisPoints: 0,
      fixedMinor: 0,
      channel: null,
      currency: null,
      paymentMethod: null,
      cardType: null,
    };
    const facts = { currency: 'GBP', channel: 'Moto', paymentMethod: 'card', cardType: 'Visa' as const };
    const rules = byPriority([
      { ...base, ruleId: 'band', priority: 20, currency: 'GBP', volumeFromMinor: 1000, volumeToMinor: 2000, percentageBasisPoints: 3000 },
      { ...base, ruleId: 'moto', priority: 5, channel: 'Moto', cardType: 'Mastercard', percentageBasisPoints: 1000 },
      { ...base, ruleId: 'any', priority: 90, percentageBasisPoints: 1500 },
    ]);
    expect(ruleFor(rules, facts, 999)?.ruleId).toBe('any');
    expect(ruleFor(rules, facts, 1000)?.ruleId).toBe('band');
    expect(ruleFor(rules, facts, 2000)?.ruleId).toBe('any');
    expect(ruleFor(rules, { ...facts, cardType: 'Mastercard' }, 1500)?.ruleId).toBe('moto');
    expect(roundHalfUp(5_000n)).toBe(1);
    expect(roundHalfUp(4_999n)).toBe(0);
    expect(roundHalfUp(0n)).toBe(0);
    // Three fees of 1 at 50%: exact 1.5 → 2; shares 1, 1, 0 (ties by reference).
    const half = { ...base, percentageBasisPoints: 5000 };
    const fees = ['c', 'a', 'b'].map((reference) => ({ ...facts, reference, feeMinor: 1 }));
    expect(allocateCommission([half], fees, 0).map((share) => [share.reference, share.commissionMinor])).toEqual([
      ['c', 0],
      ['a', 1],
      ['b', 1],
    ]);
  });
});
