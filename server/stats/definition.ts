// What the dashboard statistics count, as the write path applies it to one transaction. The rules are those of
// the seed's `statsAggregationSql` (server/seed/seed.ts) and of `activityAggregationSql` (rebuild.ts), which build the
// same tables in bulk; the statistics integration test holds them together. Money is in minor units. Per (merchant,
// currency, quarter hour):
//
//   volume               what was captured of paid payments: the amount of a payment captured at authorisation (no
//                        capture rows), else the sum of its paid captures (a partial capture counts what it took,
//                        never the authorised amount)
//   revenue              volume less the paid refunds and chargebacks
//   unsuccessfulVolume   amount of declined and failed payments
//   unsuccessfulRevenue  the same amount
//   salesCount           number of paid payments
//
// Two views of the same measures (the dashboard's date basis):
//   by payment date   everything counts in its payment's quarter hour (a refund today lowers the revenue of the day
//                     the payment was made): transaction_stats and its rollups
//   by activity date  money counts when it moved: a payment captured at authorisation and a sale at the payment's
//                     time, a capture at the capture's, a refund or chargeback at its own: transaction_activity_stats
//                     and its rollups
// Declines are the declined and failed payments that carry a reason.
import { dashboardDateBases, type DashboardDateBasis, type DashboardTotals } from '../../src/contract/dashboard-intervals.ts';
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

/** Where a transaction's measures land: its own bucket for a payment, its payment's for a refund or capture. */
export type StatsKey = { merchantId: string; businessId: string; partnerId: string | null; currency: string; at: Date };

/** The dashboard's two views of the statistics: by the payment's date, or by the date the money moved. */
export const dateBases = dashboardDateBases;
export type DateBasis = DashboardDateBasis;

export const isUnsuccessful = (status: string) => (unsuccessfulStatuses as readonly string[]).includes(status);

const noMeasures = (): StatsMeasures => ({ volume: 0, revenue: 0, unsuccessfulVolume: 0, unsuccessfulRevenue: 0, salesCount: 0 });

/**
 * The measures one transaction adds (the same in both views; only where they land differs). A payment of any status
 * adds (possibly all-zero) measures, so its bucket exists as in the bulk aggregation; a paid payment adds its amount
 * only when it was captured at authorisation (`capturedInParts` false: it has no capture rows), else its paid
 * captures add what they captured; a paid refund or chargeback takes its amount off revenue; anything else adds nothing.
 */
export function contributionOf(transaction: Pick<StatsTransaction, 'kind' | 'status' | 'amountMinor'>, capturedInParts = false): StatsMeasures | null {
  const { kind, status, amountMinor } = transaction;
  if (kind === 'payment') {
    const paid = status === paidStatus;
    const unsuccessful = isUnsuccessful(status);
    const captured = paid && !capturedInParts ? amountMinor : 0;
    return {
      volume: captured,
      revenue: captured,
      unsuccessfulVolume: unsuccessful ? amountMinor : 0,
      unsuccessfulRevenue: unsuccessful ? amountMinor : 0,
      salesCount: paid ? 1 : 0,
    };
  }
  if (kind === 'capture') return status === paidStatus ? { ...noMeasures(), volume: amountMinor, revenue: amountMinor } : null;
  if (takesMoneyBack(kind) && status === paidStatus) return { ...noMeasures(), revenue: -amountMinor };
  return null;
}

/** A decline: an unsuccessful payment that carries the reason it was refused. */
export function declineOf(transaction: Pick<StatsTransaction, 'kind' | 'status' | 'declineReason' | 'amountMinor'>): { reason: string; amount: number } | null {
  if (transaction.kind !== 'payment' || !isUnsuccessful(transaction.status) || transaction.declineReason === null) return null;
  return { reason: transaction.declineReason, amount: transaction.amountMinor };
}
