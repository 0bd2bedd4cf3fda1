// The account watch list's computation. Two steps, both incremental:
// 1. refreshRiskSignals: merchant_risk_signals_daily gets the days since the last refresh (and the one before,
//    which may have been partial) recomputed from transactions through the created_at index; never two years.
// 2. recomputeWatchList: each merchant's score from those daily rows (a few dozen rows a merchant), upserted into
//    watch_list_entries with its signals and a 30-day trend; analysts' statuses and notes are kept.
// The seed runs both; GET /account-watch-list runs them when the last refresh is older than staleAfterMs
// (the lead may instead call refreshWatchList from a periodic job).
import { eq, gte, sql } from 'drizzle-orm';
import { baselineDays, maxScore, recentDays, trendDays, watchThresholds, type WatchSignal } from '../../src/contract/watch-list.ts';
import type { Db, DbWriter } from '../db/client.ts';
import { merchantRiskSignalsDaily, riskSettings, watchListEntries } from '../db/schema.ts';

export const refreshedKey = 'watch.signalsRefreshedUtc';
export const staleAfterMs = 10 * 60_000;
const day = 86_400_000;
const startOfDay = (at: Date) => new Date(Math.floor(at.getTime() / day) * day);

export type DailySignals = { day: Date; payments: number; paid: number; declined: number; smallDeclines: number; refunds: number; paidMilli: number };
export type SignalValue = { signal: WatchSignal; value: number; threshold: number };

export async function lastRefresh(reader: DbWriter): Promise<Date | null> {
  const [row] = await reader.select().from(riskSettings).where(eq(riskSettings.key, refreshedKey));
  return row ? new Date(row.value) : null;
}

/** Recomputes the daily rows from the day before the last refresh (or the last 90 days the first time) to now. */
export async function refreshRiskSignals(tx: DbWriter, now: Date): Promise<Date> {
  const last = await lastRefresh(tx);
  const from = last ? new Date(startOfDay(last).getTime() - day) : new Date(startOfDay(now).getTime() - 90 * day);
  await tx.delete(merchantRiskSignalsDaily).where(gte(merchantRiskSignalsDaily.day, from));
  await tx.execute(sql`
    INSERT INTO merchant_risk_signals_daily (merchant_id, business_id, day, payments, paid, declined, small_declines, refunds, paid_milli)
    SELECT merchant_id, business_id, date_bin('1 day', created_at, TIMESTAMPTZ '2000-01-01T00:00:00Z') AS day,
      count(*) FILTER (WHERE kind = 'payment')::int,
      count(*) FILTER (WHERE kind = 'payment' AND status = 'paid')::int,
      count(*) FILTER (WHERE kind = 'payment' AND status IN ('declined', 'failed'))::int,
      count(*) FILTER (WHERE kind = 'payment' AND status IN ('declined', 'failed') AND amount_milli < ${watchThresholds.cardTesting.smallAmountMilli})::int,
      count(*) FILTER (WHERE kind = 'refund' AND status = 'paid')::int,
      coalesce(sum(amount_milli) FILTER (WHERE kind = 'payment' AND status = 'paid'), 0)::bigint
    FROM transactions
    WHERE created_at >= ${from} AND created_at <= ${now}
    GROUP BY merchant_id, business_id, 3`);
  await tx
    .insert(riskSettings)
    .values({ key: refreshedKey, value: now.toISOString() })
    .onConflictDoUpdate({ target: riskSettings.key, set: { value: now.toISOString(), updatedUtc: new Date(), version: sql`${riskSettings.version} + 1` } });
  return from;
}

const sum = (rows: readonly DailySignals[], key: keyof Omit<DailySignals, 'day'>) => rows.reduce((total, row) => total + row[key], 0);

/**
 * The signals that cross their thresholds on the day `asOf` (a UTC day start), from the merchant's daily rows.
 * Recent window: the recentDays days up to asOf; baseline: the baselineDays days before it.
 */
export function signalsAsOf(rows: readonly DailySignals[], asOf: Date): SignalValue[] {
  const end = asOf.getTime() + day;
  const recentStart = end - recentDays * day;
  const baselineStart = recentStart - baselineDays * day;
  const recent = rows.filter((row) => row.day.getTime() >= recentStart && row.day.getTime() < end);
  const baseline = rows.filter((row) => row.day.getTime() >= baselineStart && row.day.getTime() < recentStart);
  const window = [...baseline, ...recent];
  const crossed: SignalValue[] = [];
  const t = watchThresholds;

  const payments = sum(window, 'payments');
  if (payments >= t.chargebackProxy.minimumPayments) {
    const value = (sum(window, 'refunds') + sum(window, 'declined')) / payments;
    if (value >= t.chargebackProxy.threshold) crossed.push({ signal: 'chargebackProxy', value, threshold: t.chargebackProxy.threshold });
  }
  const paid = sum(window, 'paid');
  if (paid >= t.refundRatio.minimumPayments) {
    const value = sum(window, 'refunds') / paid;
    if (value >= t.refundRatio.threshold) crossed.push({ signal: 'refundRatio', value, threshold: t.refundRatio.threshold });
  }
  const recentPayments = sum(recent, 'payments');
  const baselinePayments = sum(baseline, 'payments');
  if (recentPayments >= t.declineSpike.minimumPayments && baselinePayments >= t.declineSpike.minimumPayments) {
    const recentRate = sum(recent, 'declined') / recentPayments;
    const baselineRate = sum(baseline, 'declined') / baselinePayments;
    const value = baselineRate === 0 ? (recentRate > 0 ? t.declineSpike.threshold * 2 : 0) : recentRate / baselineRate;
    if (value >= t.declineSpike.threshold && recentRate - baselineRate >= t.declineSpike.minimumIncrease) {
      crossed.push({ signal: 'declineSpike', value, threshold: t.declineSpike.threshold });
    }
  }
  const baselinePerDay = baselinePayments / baselineDays;
  const recentPerDay = recentPayments / recentDays;
  if (baselinePayments >= t.volumeChange.minimumPayments * baselineDays) {
    const value = recentPerDay / baselinePerDay;
    if (value >= t.volumeChange.threshold || value <= 1 / t.volumeChange.threshold)
      crossed.push({ signal: 'volumeChange', value, threshold: t.volumeChange.threshold });
  }
  const worstDay = recent.reduce<DailySignals | null>((worst, row) => (!worst || row.smallDeclines > worst.smallDeclines ? row : worst), null);
  if (worstDay && worstDay.smallDeclines >= t.cardTesting.threshold && worstDay.smallDeclines >= worstDay.declined * t.cardTesting.minimumShare) {
    crossed.push({ signal: 'cardTesting', value: worstDay.smallDeclines, threshold: t.cardTesting.threshold });
  }
  return crossed;
}

/** Each crossed signal's weight times how far past its threshold (1 to 2 times; a drop in volume by its inverse), capped. */
export function scoreOf(signals: readonly SignalValue[]): number {
  let score = 0;
  for (const signal of signals) {
    const ratio = signal.signal === 'volumeChange' && signal.value < 1 ? 1 / Math.max(signal.value, 1e-6) / signal.threshold : signal.value / signal.threshold;
    score += watchThresholds[signal.signal].weight * Math.min(2, Math.max(1, ratio));
  }
  return Math.min(maxScore, Math.round(score));
}

/** Scores every merchant with daily rows as of today; flagged merchants are upserted, analysts' work kept. */
export async function recomputeWatchList(tx: DbWriter, now: Date): Promise<{ flagged: number }> {
  const today = startOfDay(now);
  const since = new Date(today.getTime() - (trendDays + baselineDays + recentDays) * day);
  const rows = await tx.select().from(merchantRiskSignalsDaily).where(gte(merchantRiskSignalsDaily.day, since));
  const byMerchant = new Map<string, { businessId: string; rows: DailySignals[] }>();
  for (const row of rows) {
    const entry = byMerchant.get(row.merchantId) ?? { businessId: row.businessId, rows: [] };
    entry.rows.push({
      day: row.day,
      payments: row.payments,
      paid: row.paid,
      declined: row.declined,
      smallDeclines: row.smallDeclines,
      refunds: row.refunds,
      paidMilli: row.paidMilli,
    });
    byMerchant.set(row.merchantId, entry);
  }
  const existing = new Map((await tx.select({ merchantId: watchListEntries.merchantId }).from(watchListEntries)).map((row) => [row.merchantId, true]));
  let flagged = 0;
  for (const [merchantId, { businessId, rows: merchantRows }] of byMerchant) {
    const signals = signalsAsOf(merchantRows, today);
    const score = scoreOf(signals);
    if (score === 0 && !existing.has(merchantId)) continue;
    const trend = Array.from({ length: trendDays }, (_, index) =>
      scoreOf(signalsAsOf(merchantRows, new Date(today.getTime() - (trendDays - 1 - index) * day))),
    );
    if (score > 0) flagged += 1;
    await tx
      .insert(watchListEntries)
      .values({
        merchantId,
        businessId,
        score,
        signals,
        trend,
        status: 'open',
        firstFlaggedUtc: now,
        lastComputedUtc: now,
      })
      .onConflictDoUpdate({ target: watchListEntries.merchantId, set: { score, signals, trend, lastComputedUtc: now } });
  }
  return { flagged };
}

/** Both steps in one transaction, at most one node at a time (the others skip: someone is refreshing already). */
export async function refreshWatchList(db: Db, now: Date): Promise<boolean> {
  return db.transaction(async (tx) => {
    const result = (await tx.execute(sql`SELECT pg_try_advisory_xact_lock(7270022) AS locked`)) as unknown as { rows: { locked: boolean }[] };
    if (!result.rows[0]?.locked) return false;
    await refreshRiskSignals(tx, now);
    await recomputeWatchList(tx, now);
    return true;
  });
}
