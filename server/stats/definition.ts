// What the dashboard statistics count, as the write path applies it to one transaction. The rules are those of
// the seed's `statsAggregationSql` (server/db/seed.ts), which builds the same table in bulk; the statistics
// integration test holds the two together. Money is in minor units. Per (merchant, currency, quarter hour of the
// payment's created_at):
//
//   volume               amount of paid payments
//   revenue              volume less the paid refunds and chargebacks of those payments (each counts in its
//                        payment's bucket)
//   unsuccessfulVolume   amount of declined and failed payments
//   unsuccessfulRevenue  the same amount
//   salesCount           number of paid payments
//
// Captures settle a payment that already counts, so they add nothing. Declines are the declined and failed
// payments that carry a reason.
import type { DashboardTotals } from '../../src/contract/dashboard-intervals.ts';
import { takesMoneyBack, type TransactionKind } from '../../src/contract/transactions.ts';

export const paidStatus = 'paid';
export const unsuccessfulStatuses = ['declined', 'failed'] as const;

export type StatsMeasures = DashboardTotals;

/** The fields of a transaction the statistics depend on. */
export type StatsTransaction = {
  reference: string;
  kind: TransactionKind;
  parentReference: string | null;
  status: string;
  amountMinor: number;
  currency: string;
  createdAt: Date;
  merchantId: string;
  businessId: string;
  partnerId: string | null;
  declineReason: string | null;
};

/** Where a transaction's measures land: its own bucket for a payment, its payment's for a refund. */
export type StatsKey = { merchantId: string; businessId: string; partnerId: string | null; currency: string; at: Date };

export const isUnsuccessful = (status: string) => (unsuccessfulStatuses as readonly string[]).includes(status);

/**
 * The measures one transaction adds. A payment of any status adds (possibly all-zero) measures, so its bucket
 * exists as in the bulk aggregation; a paid refund or chargeback takes its amount off revenue; anything else adds nothing.
 */
export function contributionOf(transaction: Pick<StatsTransaction, 'kind' | 'status' | 'amountMinor'>): StatsMeasures | null {
  const { kind, status, amountMinor } = transaction;
  if (kind === 'payment') {
    const paid = status === paidStatus;
    const unsuccessful = isUnsuccessful(status);
    return {
      volume: paid ? amountMinor : 0,
      revenue: paid ? amountMinor : 0,
      unsuccessfulVolume: unsuccessful ? amountMinor : 0,
      unsuccessfulRevenue: unsuccessful ? amountMinor : 0,
      salesCount: paid ? 1 : 0,
    };
  }
  if (takesMoneyBack(kind) && status === paidStatus) return { volume: 0, revenue: -amountMinor, unsuccessfulVolume: 0, unsuccessfulRevenue: 0, salesCount: 0 };
  return null;
}

/** A decline: an unsuccessful payment that carries the reason it was refused. */
export function declineOf(transaction: Pick<StatsTransaction, 'kind' | 'status' | 'declineReason' | 'amountMinor'>): { reason: string; amount: number } | null {
  if (transaction.kind !== 'payment' || !isUnsuccessful(transaction.status) || transaction.declineReason === null) return null;
  return { reason: transaction.declineReason, amount: transaction.amountMinor };
}
