// Commission earned by a partner, from the ledger's fees (pure: property-tested in tests/server/partners/).
//
// Each fee-bearing transaction of the partner's businesses is matched to the plan's rules in priority order (lowest
// number first): a rule matches when every condition it names (channel, currency, payment method, card type) holds
// and the partner's volume that month, in the fee's currency, lies in the rule's band [from, to). The first match
// earns percentageBasisPoints of the fee plus fixedMinor; no match earns nothing.
//
// Rounding (README, Decisions): amounts are kept exactly in ten-thousandths of a minor unit. A month's commission in
// one currency is its exact sum rounded once, half up. A transaction's share is its exact commission rounded down,
// and the minor units still missing to reach the month's total go, one each, to the transactions with the largest
// remainders (ties by reference): the shares add up to the month's total to the cent, and no share is a whole minor
// unit away from its exact value.

import type { CommissionRuleEdit } from '../../src/contract/partners.ts';

/** A rule as the computation reads it: the terms the portal edits (less the description) and the rule's id. */
export type CommissionRuleTerms = Omit<CommissionRuleEdit, 'description'> & { ruleId: string };

/** What a rule's conditions are tested against. */
export type FeeFacts = { currency: string; channel: string; paymentMethod: string; cardType: string | null };
/** A set of fees with the same facts (the SQL's groups), or one transaction's fee (count 1). */
export type FeeGroup = FeeFacts & { feeMinor: number; count: number };
export type TransactionFee = FeeFacts & { reference: string; feeMinor: number };

const scale = 10_000n;

/** The rules in the order they are tried. */
export const byPriority = (rules: readonly CommissionRuleTerms[]) => [...rules].sort((a, b) => a.priority - b.priority || (a.ruleId < b.ruleId ? -1 : 1));

export function matches(rule: CommissionRuleTerms, facts: FeeFacts, monthlyVolumeMinor: number): boolean {
  return (
    (rule.channel === null || rule.channel === facts.channel) &&
    (rule.currency === null || rule.currency === facts.currency) &&
    (rule.paymentMethod === null || rule.paymentMethod === facts.paymentMethod) &&
    (rule.cardType === null || rule.cardType === facts.cardType) &&
    monthlyVolumeMinor >= rule.volumeFromMinor &&
    (rule.volumeToMinor === null || monthlyVolumeMinor < rule.volumeToMinor)
  );
}

/** The first rule (by priority) that matches, or null. `ordered` must come from byPriority. */
export function ruleFor(ordered: readonly CommissionRuleTerms[], facts: FeeFacts, monthlyVolumeMinor: number): CommissionRuleTerms | null {
  return ordered.find((rule) => matches(rule, facts, monthlyVolumeMinor)) ?? null;
}

/** The exact commission of `count` fees summing to feeMinor under a rule, in ten-thousandths of a minor unit. */
export function exactCommission(rule: CommissionRuleTerms, feeMinor: number, count: number): bigint {
  return BigInt(feeMinor) * BigInt(rule.percentageBasisPoints) + BigInt(rule.fixedMinor) * BigInt(count) * scale;
}

/** Half up, to whole minor units (commission is never negative: fees, percentages and fixed amounts are not). */
export const roundHalfUp = (exact: bigint): number => Number((exact + scale / 2n) / scale);

export type MonthCommission = { feesMinor: number; transactionCount: number; unmatchedCount: number; commissionMinor: number; exact: bigint };

/** One month's commission in one currency, from its fees grouped by facts (all groups of the same currency). */
export function monthCommission(rules: readonly CommissionRuleTerms[], groups: readonly FeeGroup[], monthlyVolumeMinor: number): MonthCommission {
  const ordered = byPriority(rules);
  let exact = 0n;
  let feesMinor = 0;
  let transactionCount = 0;
  let unmatchedCount = 0;
  for (const group of groups) {
    feesMinor += group.feeMinor;
    transactionCount += group.count;
    const rule = ruleFor(ordered, group, monthlyVolumeMinor);
    if (rule) exact += exactCommission(rule, group.feeMinor, group.count);
    else unmatchedCount += group.count;
  }
  return { feesMinor, transactionCount, unmatchedCount, commissionMinor: roundHalfUp(exact), exact };
}

export type TransactionCommission = { reference: string; ruleId: string | null; commissionMinor: number };

/** Each transaction's share of its month's commission (same month and currency): they sum to monthCommission's total. */
export function allocateCommission(
  rules: readonly CommissionRuleTerms[],
  fees: readonly TransactionFee[],
  monthlyVolumeMinor: number,
): TransactionCommission[] {
  const ordered = byPriority(rules);
  const exacts = fees.map((fee) => {
    const rule = ruleFor(ordered, fee, monthlyVolumeMinor);
    const exact = rule ? exactCommission(rule, fee.feeMinor, 1) : 0n;
    return { reference: fee.reference, ruleId: rule?.ruleId ?? null, exact, floor: exact / scale, remainder: exact % scale };
  });
  const total = roundHalfUp(exacts.reduce((sum, entry) => sum + entry.exact, 0n));
  let missing = total - Number(exacts.reduce((sum, entry) => sum + entry.floor, 0n));
  const extra = new Set<number>();
  const byRemainder = exacts
    .map((entry, index) => ({ index, remainder: entry.remainder, reference: entry.reference }))
    .filter((entry) => entry.remainder > 0n)
    .sort((a, b) => (a.remainder === b.remainder ? (a.reference < b.reference ? -1 : 1) : a.remainder > b.remainder ? -1 : 1));
  for (const entry of byRemainder) {
    if (missing <= 0) break;
    extra.add(entry.index);
    missing -= 1;
  }
  return exacts.map((entry, index) => ({
    reference: entry.reference,
    ruleId: entry.ruleId,
    commissionMinor: Number(entry.floor) + (extra.has(index) ? 1 : 0),
  }));
}
