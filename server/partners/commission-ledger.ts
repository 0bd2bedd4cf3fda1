// Reads what commission is computed from: the ledger's fee entries (the costs account's side of each fee:{ref}
// posting, server/ledger/post-transactions.ts) and sale entries (the trading account's side of sale:{ref}) of a
// partner's businesses, per month and currency. Months and days are each business's own (its time zone,
// server/ledger/periods.ts): a fee at 00:03 London time on 1 October counts in October, as in the business's statement
// and invoice; the window's bounds are dates, each read at the business's midnight. Minimum-fee top-ups
// (minimumFee:…) are not transaction fees and earn no commission. Reached through the accounts (indexed by account and value date), never a scan of the ledger.
import { sql, type SQL } from 'drizzle-orm';
import { cardTypeOf } from '../../src/contract/partners.ts';
import { widestOffsetMs } from '../ledger/periods.ts';
import {
  allocateCommission,
  monthCommission,
  type CommissionRuleTerms,
  type FeeGroup,
  type MonthCommission,
  type TransactionCommission,
  type TransactionFee,
} from './commission.ts';
import type { DbWriter } from '../db/client.ts';

type Row = Record<string, unknown>;
const rowsOf = async (reader: DbWriter, query: SQL): Promise<Row[]> => ((await reader.execute(query)) as unknown as { rows: Row[] }).rows;
const timestamp = (date: Date) => sql`${date.toISOString()}::timestamptz`;
/** A bound as a wall-clock time (its UTC digits: a date's midnight), compared with each entry's local time. */
const wallClock = (date: Date) => sql`${date.toISOString().slice(0, 23).replace('T', ' ')}::timestamp`;
/**
 * Entries of the window [from, to): from and to are wall-clock times (a plan's dates, a month's first day at UTC
 * midnight standing for that midnight in every zone) and each entry is placed by its business's local time. Read
 * first within the instants any zone could give (widestOffsetMs either side), which an index can use.
 */
const inWindow = (
  from: Date,
  to: Date,
) => sql`e.value_at >= ${timestamp(new Date(from.getTime() - widestOffsetMs))} AND e.value_at < ${timestamp(new Date(to.getTime() + widestOffsetMs))}
    AND (e.value_at AT TIME ZONE b.time_zone) >= ${wallClock(from)} AND (e.value_at AT TIME ZONE b.time_zone) < ${wallClock(to)}`;

/** The partner's businesses' fee entries in the window, with their transaction (t) and payment job (j). */
export const partnerFeeEntries = (partnerId: string, from: Date, to: Date) => sql`FROM ledger_accounts a
    JOIN businesses b ON b.id = a.business_id
    JOIN ledger_entries e ON e.account_id = a.id
    JOIN transactions t ON t.reference = e.transaction_reference
    LEFT JOIN payment_jobs j ON j.reference = t.payment_job_reference
    WHERE b.partner_id = ${partnerId} AND a.kind = 'costs' AND e.category = 'fee' AND e.amount_minor > 0
      AND ${inWindow(from, to)}`;

/** The facts of a fee entry's transaction; an order taken by mail or phone counts as Moto. */
export const factColumns = sql`CASE WHEN j."order"->>'channel' IN ('moto', 'moto-link') THEN 'Moto' ELSE t.channel END AS channel,
  t.payment_method AS payment_method, left(t.card_masked, 2) AS card_prefix`;

const saleEntries = (partnerId: string, from: Date, to: Date) => sql`
  FROM ledger_accounts a
  JOIN businesses b ON b.id = a.business_id
  JOIN ledger_entries e ON e.account_id = a.id
  WHERE b.partner_id = ${partnerId} AND a.kind = 'trading' AND e.category = 'sale' AND e.amount_minor > 0
    AND ${inWindow(from, to)}`;

const monthOf = sql`to_char(e.value_at AT TIME ZONE b.time_zone, 'YYYY-MM')`;
const key = (month: string, currency: string) => `${month}|${currency}`;

/** The partner's paid sales per month and currency: what volume bands are read against. */
export async function monthlyVolumes(reader: DbWriter, partnerId: string, from: Date, to: Date): Promise<Map<string, number>> {
  const rows = await rowsOf(
    reader,
    sql`SELECT ${monthOf} AS month, e.currency AS currency, sum(e.amount_minor) AS volume
    ${saleEntries(partnerId, from, to)} GROUP BY 1, 2`,
  );
  return new Map(rows.map((row) => [key(String(row.month), String(row.currency)), Number(row.volume)]));
}

export type CommissionMonthRow = MonthCommission & { month: string; currency: string; volumeMinor: number };

/** Commission earned per month and currency over [from, to), newest month first. */
export async function commissionByMonth(
  reader: DbWriter,
  partnerId: string,
  rules: readonly CommissionRuleTerms[],
  from: Date,
  to: Date,
): Promise<CommissionMonthRow[]> {
  const grouped = await rowsOf(
    reader,
    sql`SELECT ${monthOf} AS month, e.currency AS currency, ${factColumns},
      sum(e.amount_minor) AS fee, count(*) AS n
    ${partnerFeeEntries(partnerId, from, to)}
    GROUP BY 1, 2, 3, 4, 5`,
  );
  const volumes = await monthlyVolumes(reader, partnerId, from, to);
  const groups = new Map<string, { month: string; currency: string; fees: FeeGroup[] }>();
  for (const row of grouped) {
    const month = String(row.month);
    const currency = String(row.currency);
    const entry = groups.get(key(month, currency)) ?? { month, currency, fees: [] };
    entry.fees.push({
      currency,
      channel: String(row.channel),
      paymentMethod: String(row.payment_method),
      cardType: cardTypeOf(row.card_prefix as string | null),
      feeMinor: Number(row.fee),
      count: Number(row.n),
    });
    groups.set(key(month, currency), entry);
  }
  return [...groups.values()]
    .map(({ month, currency, fees }) => {
      const volumeMinor = volumes.get(key(month, currency)) ?? 0;
      return { month, currency, volumeMinor, ...monthCommission(rules, fees, volumeMinor) };
    })
    .sort((a, b) => (a.month === b.month ? (a.currency < b.currency ? -1 : 1) : a.month > b.month ? -1 : 1));
}

/**
 * One month's fees transaction by transaction in one currency, with each one's share of the month's commission. The
 * month is named by its first day at UTC midnight and is each business's own month.
 */
export async function commissionOfTransactions(
  reader: DbWriter,
  partnerId: string,
  rules: readonly CommissionRuleTerms[],
  monthStart: Date,
  currency: string,
): Promise<(TransactionFee & TransactionCommission)[]> {
  const monthEnd = new Date(Date.UTC(monthStart.getUTCFullYear(), monthStart.getUTCMonth() + 1, 1));
  const rows = await rowsOf(
    reader,
    sql`SELECT e.transaction_reference AS reference, ${factColumns}, sum(e.amount_minor) AS fee
    FROM ledger_accounts a
    JOIN businesses b ON b.id = a.business_id
    JOIN ledger_entries e ON e.account_id = a.id
    JOIN transactions t ON t.reference = e.transaction_reference
    LEFT JOIN payment_jobs j ON j.reference = t.payment_job_reference
    WHERE b.partner_id = ${partnerId} AND a.kind = 'costs' AND e.category = 'fee' AND e.amount_minor > 0 AND e.currency = ${currency}
      AND ${inWindow(monthStart, monthEnd)}
    GROUP BY 1, 2, 3, 4 ORDER BY 1`,
  );
  const volume = (await monthlyVolumes(reader, partnerId, monthStart, monthEnd)).get(key(monthStart.toISOString().slice(0, 7), currency)) ?? 0;
  const fees: TransactionFee[] = rows.map((row) => ({
    reference: String(row.reference),
    currency,
    channel: String(row.channel),
    paymentMethod: String(row.payment_method),
    cardType: cardTypeOf(row.card_prefix as string | null),
    feeMinor: Number(row.fee),
  }));
  const shares = allocateCommission(rules, fees, volume);
  return fees.map((fee, index) => ({ ...fee, ...(shares[index] as TransactionCommission) }));
}
