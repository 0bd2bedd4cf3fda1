// The partners suites' fixture on top of the shared fixture world: commission plans for P1 and P2 and payments of
// P1's businesses written through the statistics and ledger write path (server/stats, server/ledger), so the fees
// commission is computed from are the ledger's own.
import type { Database } from '../../../server/db/client.ts';
import * as schema from '../../../server/db/schema.ts';
import { postTransactionChanges } from '../../../server/ledger/post-transactions.ts';
import { recordTransactionChanges, toStatsTransaction, type NewTransactionRow } from '../../../server/stats/record-transaction.ts';

/** The middle of last month (UTC): inside the plans' validity, never in the future. */
export const lastMonthStart = (now = new Date()) => new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1));
export const paymentDay = (now = new Date()) => new Date(lastMonthStart(now).getTime() + 10 * 86_400_000);

export const partnerPlanIds = { p1: 'CP-P1', p2: 'CP-P2' } as const;

export type FixturePayment = {
  reference: string;
  merchantId: 'M1a' | 'M1b' | 'M2a';
  amountMinor: number;
  currency: string;
  paymentMethod: string;
  cardMasked: string | null;
  moto?: boolean;
  status?: string;
  declineReason?: string;
};

/** Inserts payments (with their jobs) and writes their statistics and ledger postings as the payments module would. */
export async function insertPartnerPayments(database: Database, payments: readonly FixturePayment[], at = paymentDay()): Promise<void> {
  const { db } = database;
  const businessOf = { M1a: 'B1', M1b: 'B1', M2a: 'B2' } as const;
  await db.insert(schema.paymentJobs).values(
    payments.map((payment) => ({
      reference: `PJ-${payment.reference}`,
      partnerId: 'P1',
      businessId: businessOf[payment.merchantId],
      merchantId: payment.merchantId,
      configurationId: `C-${payment.merchantId}`,
      createDateTimeUtc: at,
      orderNumber: `ORD-${payment.reference}`,
      amountMinor: payment.amountMinor,
      currency: payment.currency,
      status: payment.status ?? 'paid',
      order: payment.moto ? { channel: 'moto' } : {},
    })),
  );
  const rows: NewTransactionRow[] = payments.map((payment) => ({
    reference: payment.reference,
    kind: 'payment',
    businessId: businessOf[payment.merchantId],
    merchantId: payment.merchantId,
    partnerId: 'P1',
    configurationId: `C-${payment.merchantId}`,
    paymentJobReference: `PJ-${payment.reference}`,
    createdAt: at,
    amountMinor: payment.amountMinor,
    currency: payment.currency,
    status: payment.status ?? 'paid',
    paymentMethod: payment.paymentMethod,
    channel: 'Gateway',
    cardMasked: payment.cardMasked,
    declineReason: payment.declineReason ?? null,
  }));
  await db.transaction(async (tx) => {
    await tx.insert(schema.transactions).values(rows);
    const changes = rows.map((row) => ({ before: null, after: toStatsTransaction(row) }));
    await recordTransactionChanges(tx, changes);
    await postTransactionChanges(tx, changes, { now: at });
  });
}

/** P1's plan: Moto first, Amex, a GBP volume band, GBP below it, a catch-all. P2's plan: one rule. */
export async function insertCommissionPlans(database: Database, now = new Date()): Promise<void> {
  const validFrom = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 3, 1)).toISOString().slice(0, 10);
  await database.db.insert(schema.commissionPlans).values([
    { id: partnerPlanIds.p1, partnerId: 'P1', name: 'Tiered revenue share', validFrom, validTo: null },
    { id: partnerPlanIds.p2, partnerId: 'P2', name: 'Southwind share', validFrom, validTo: null },
  ]);
  const base = {
    volumeFromMinor: 0,
    volumeToMinor: null,
    percentageBasisPoints: 0,
    fixedMinor: 0,
    channel: null,
    currency: null,
    paymentMethod: null,
    cardType: null,
  };
  await database.db.insert(schema.commissionRules).values([
    { ...base, id: 'R5', planId: partnerPlanIds.p1, priority: 5, description: 'MOTO: 10% of the fee', channel: 'Moto', percentageBasisPoints: 1000 },
    {
      ...base,
      id: 'R10',
      planId: partnerPlanIds.p1,
      priority: 10,
      description: 'Amex: 10% of the fee',
      cardType: 'American Express',
      percentageBasisPoints: 1000,
    },
    {
      ...base,
      id: 'R20',
      planId: partnerPlanIds.p1,
      priority: 20,
      description: 'GBP, £10,000 a month and over: 30%',
      currency: 'GBP',
      volumeFromMinor: 1_000_000,
      percentageBasisPoints: 3000,
    },
    {
      ...base,
      id: 'R30',
      planId: partnerPlanIds.p1,
      priority: 30,
      description: 'GBP: 20% plus 1p',
      currency: 'GBP',
      percentageBasisPoints: 2000,
      fixedMinor: 1,
    },
    { ...base, id: 'R40', planId: partnerPlanIds.p1, priority: 40, description: 'Any other fee: 15%', percentageBasisPoints: 1500 },
    { ...base, id: 'R90', planId: partnerPlanIds.p2, priority: 10, description: 'Any fee: 20%', percentageBasisPoints: 2000 },
  ]);
}

/**
 * Fees at the default rate (1.90% + 25, rounded half up): T1 215, T2 74, T3 120, T4 88, T5 101.
 * GBP volume 21,599 (below the band): T1 R30 44.0, T2 R30 15.8, T3 R10 12.0, T5 R5 10.1 → exact 81.9 → 82, the
 * missing unit going to T2 (largest remainder); EUR: T4 R40 13.2 → 13.
 */
export const partnerPayments: readonly FixturePayment[] = [
  { reference: 'TXP0001', merchantId: 'M1a', amountMinor: 10000, currency: 'GBP', paymentMethod: 'card', cardMasked: '411111******1111' },
  { reference: 'TXP0002', merchantId: 'M1a', amountMinor: 2599, currency: 'GBP', paymentMethod: 'card', cardMasked: '555555******4444' },
  { reference: 'TXP0003', merchantId: 'M1b', amountMinor: 5000, currency: 'GBP', paymentMethod: 'card', cardMasked: '378282*****0005' },
  { reference: 'TXP0004', merchantId: 'M2a', amountMinor: 3333, currency: 'EUR', paymentMethod: 'ideal', cardMasked: null },
  { reference: 'TXP0005', merchantId: 'M1a', amountMinor: 4000, currency: 'GBP', paymentMethod: 'card', cardMasked: '401288******1881', moto: true },
  {
    reference: 'TXP0006',
    merchantId: 'M1a',
    amountMinor: 1500,
    currency: 'GBP',
    paymentMethod: 'card',
    cardMasked: '400000******0002',
    status: 'declined',
    declineReason: 'Insufficient funds',
  },
  {
    reference: 'TXP0007',
    merchantId: 'M2a',
    amountMinor: 900,
    currency: 'GBP',
    paymentMethod: 'card',
    cardMasked: '400000******0002',
    status: 'declined',
    declineReason: 'Do not honour',
  },
];
