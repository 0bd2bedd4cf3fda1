// Demo data of the partners area: each seeded partner's commission plans, an ended one and the current
// one, with rules a partner manager would write: card-scheme and MOTO carve-outs first, then volume bands per
// currency, then a catch-all. Deterministic: the same world and anchor give the same rows.
import * as schema from '../db/schema.ts';
import type { World } from './seed-world.ts';
import type { DbWriter } from '../db/client.ts';

type RuleSeed = Omit<typeof schema.commissionRules.$inferInsert, 'id' | 'planId'>;

const rule = (priority: number, description: string, terms: Partial<RuleSeed>): RuleSeed => ({
  priority,
  description,
  volumeFromMinor: 0,
  volumeToMinor: null,
  percentageBasisPoints: 0,
  fixedMinor: 0,
  channel: null,
  currency: null,
  paymentMethod: null,
  cardType: null,
  ...terms,
});

/** 'YYYY-MM-DD' of the first day of the month `monthsBack` months before the anchor's (UTC). */
const monthStart = (now: Date, monthsBack: number) => new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - monthsBack, 1)).toISOString().slice(0, 10);
const dayBefore = (date: string) => new Date(Date.parse(`${date}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);

/** The current plans' rules, one set per partner: a tiered revenue share (the first partner's is the richest). */
const currentRules: Record<number, RuleSeed[]> = {
  0: [
    rule(10, 'American Express: 10% of the fee (the scheme keeps most of it)', { cardType: 'American Express', percentageBasisPoints: 1000 }),
    rule(20, 'MOTO orders: 12% of the fee', { channel: 'Moto', percentageBasisPoints: 1200 }),
    rule(30, 'GBP, monthly volume £250,000 and over: 30% of the fee plus 2p a transaction', {
      currency: 'GBP',
      volumeFromMinor: 25_000_000,
      percentageBasisPoints: 3000,
      fixedMinor: 2,
    }),
    rule(40, 'GBP, monthly volume £50,000 to £250,000: 25% of the fee', {
      currency: 'GBP',
      volumeFromMinor: 5_000_000,
      volumeToMinor: 25_000_000,
      percentageBasisPoints: 2500,
    }),
    rule(50, 'GBP, monthly volume under £50,000: 20% of the fee', { currency: 'GBP', volumeToMinor: 5_000_000, percentageBasisPoints: 2000 }),
    rule(60, 'EUR wallets (Apple Pay): 18% of the fee plus 1 cent', { currency: 'EUR', paymentMethod: 'applePay', percentageBasisPoints: 1800, fixedMinor: 1 }),
    rule(70, 'EUR, any method: 22% of the fee', { currency: 'EUR', percentageBasisPoints: 2200 }),
    rule(80, 'Any other fee: 15%', { percentageBasisPoints: 1500 }),
  ],
  1: [
    rule(10, 'Acquiring (card present): 10% of the fee', { channel: 'Acquiring', percentageBasisPoints: 1000 }),
    rule(20, 'Visa, monthly volume £100,000 and over: 25% of the fee', {
      currency: 'GBP',
      cardType: 'Visa',
      volumeFromMinor: 10_000_000,
      percentageBasisPoints: 2500,
    }),
    rule(30, 'Mastercard: 20% of the fee plus 1p', { currency: 'GBP', cardType: 'Mastercard', percentageBasisPoints: 2000, fixedMinor: 1 }),
    rule(40, 'Any other fee: 18%', { percentageBasisPoints: 1800 }),
  ],
  2: [
    rule(10, 'MOTO orders: no commission', { channel: 'Moto' }),
    rule(20, 'iDEAL: 3 cents a transaction', { paymentMethod: 'ideal', currency: 'EUR', fixedMinor: 3 }),
    rule(30, 'Monthly volume £75,000 and over: 20% of the fee', { currency: 'GBP', volumeFromMinor: 7_500_000, percentageBasisPoints: 2000 }),
    rule(40, 'Any other fee: 12.5%', { percentageBasisPoints: 1250 }),
  ],
};

export async function seedPartners(tx: DbWriter, { world, now }: { world: World; now: Date }): Promise<void> {
  const plans: (typeof schema.commissionPlans.$inferInsert)[] = [];
  const rules: (typeof schema.commissionRules.$inferInsert)[] = [];
  world.partners.forEach((partner, index) => {
    const currentFrom = monthStart(now, 11);
    const ended = {
      id: `CP-${partner.id}-1`,
      partnerId: partner.id,
      name: 'Introductory revenue share',
      validFrom: monthStart(now, 23),
      validTo: dayBefore(currentFrom),
    };
    const current = {
      id: `CP-${partner.id}-2`,
      partnerId: partner.id,
      name: index === 0 ? 'Tiered revenue share' : 'Standard revenue share',
      validFrom: currentFrom,
      validTo: null,
    };
    plans.push(ended, current);
    [
      rule(10, 'MOTO orders: 10% of the fee', { channel: 'Moto', percentageBasisPoints: 1000 }),
      rule(20, 'Any fee: 20%', { percentageBasisPoints: 2000 }),
    ].forEach((terms) => {
      rules.push({ ...terms, id: `${ended.id}-R${terms.priority}`, planId: ended.id });
    });
    (currentRules[index % 3] ?? []).forEach((terms) => {
      rules.push({ ...terms, id: `${current.id}-R${terms.priority}`, planId: current.id });
    });
  });
  if (plans.length === 0) return;
  await tx.insert(schema.commissionPlans).values(plans);
  await tx.insert(schema.commissionRules).values(rules);
}
