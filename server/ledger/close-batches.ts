// Settlement batch cut-off: every Open batch whose business day has ended (in the business's time zone, periods.ts) is closed, set-based, in the caller's
// transaction (a job on any node, or the seed for two years at once). Per batch, in this order:
//
//   reserveHold:{batch}      trading −H, reserve +H    H = reserve share of the day's sales less refunds and reversals
//   reserveRelease:{hold}    reserve −H, trading +H    holds older than the group's reserve days, in the first
//                                                      closing batch on or after their due date
//   payout:{batch}           trading −N, remittance +N (automatic remittance on) or business +N (off)
//                            N = the trading account's movement in the batch: the trading account ends every batch at 0
//   transfer:{batch}         remittance −N, bank +N    the next day (automatic remittance on): the transfers row is
//                                                      scheduled at the cut-off, the posting booked by the first
//                                                      cut-off on or after its day, never ahead of it
//
// Business account groups pay out on their remittance schedule (payBusinessRemittances). Every posting's id is its
// idempotency key, so a cut-off run twice (two nodes, a retry) posts once.
import { and, eq, lte, sql } from 'drizzle-orm';
import { businessAccountNumber } from '../../src/contract/ledger.ts';
import { businessAccountGroups, businesses, ledgerAccounts, merchantAccountGroups, remittanceSettings } from '../db/schema.ts';
import { insertLedgerEntries } from './daily-balances.ts';
import { addMonthsTo, businessTimeZones, defaultBusinessTimeZone, localDay, localMonth, monthEnvelope, widestOffsetMs } from './periods.ts';
import { groupAccountId } from './post-transactions.ts';
import type { DbWriter } from '../db/client.ts';

/** Business account groups (and accounts) for every merchant group of a business with automatic remittance off. */
export async function ensureBusinessAccountGroups(writer: DbWriter): Promise<void> {
  const pairs = await writer
    .selectDistinct({ businessId: merchantAccountGroups.businessId, currency: merchantAccountGroups.currency })
    .from(merchantAccountGroups)
    .innerJoin(businesses, eq(businesses.id, merchantAccountGroups.businessId))
    .where(eq(businesses.camAutoRemittance, false));
  if (pairs.length === 0) return;
  const rows = pairs
    .map((pair) => ({ accountNumber: businessAccountNumber(pair.businessId, pair.currency), ...pair }))
    .sort((a, b) => (a.accountNumber < b.accountNumber ? -1 : 1));
  await writer.insert(businessAccountGroups).values(rows).onConflictDoNothing();
  await writer
    .insert(ledgerAccounts)
    .values(
      rows.map((row) => ({
        id: groupAccountId(row.accountNumber, 'business'),
        owner: 'business' as const,
        accountNumber: row.accountNumber,
        kind: 'business' as const,
        businessId: row.businessId,
        merchantId: null,
        currency: row.currency,
      })),
    )
    .onConflictDoNothing();
}

/**
 * A batch's net as the API, the batch reports and their files all state it: what a closed batch paid out; for an
 * open one the net so far (sales less refunds and reversals, less fees where they are deducted from the payout, i.e.
 * under net settlement), which is not yet paid out.
 */
export function batchNetMinor(
  batch: { status: 'Open' | 'Closed'; salesMinor: number; refundsMinor: number; reversalsMinor: number; feesMinor: number; netMinor: number },
  grossSettlement: boolean,
): number {
  if (batch.status === 'Closed') return batch.netMinor;
  return batch.salesMinor - batch.refundsMinor - batch.reversalsMinor - (grossSettlement ? 0 : batch.feesMinor);
}

/** The time zone of a row's business (a correlated read of the business's primary key). */
const zoneOfRow = (alias: string) => `(SELECT z.time_zone FROM businesses z WHERE z.id = ${alias}.business_id)`;
/**
 * A batch's end, its cut-off: the business's next midnight after the batch's start (the start is a local midnight), so
 * 23 hours after it on the day summer time starts and 25 on the day it ends.
 */
const batchEnd = (alias: string) => sql.raw(`(((${alias}.batch_start AT TIME ZONE ${zoneOfRow(alias)}) + interval '1 day') AT TIME ZONE ${zoneOfRow(alias)})`);
/** An Open batch whose day has ended by asOf (the plain bound first, for the index). */
const batchDue = (alias: string, asOf: Date) =>
  sql`${sql.raw(alias)}.status = 'Open' AND ${sql.raw(alias)}.batch_start < ${asOf}::timestamptz AND ${batchEnd(alias)} <= ${asOf}::timestamptz`;

/** Serialises cut-offs, remittances and minimums across nodes: each sees the others' committed postings. */
export const ledgerJobLockKey = 7_270_018;

/**
 * Posts a set of moves, each `amount` from one account to another as one posting of two entries, skipping postings
 * that exist already (idempotent). The moves are computed once into a temporary table (with planner statistics) and
 * then inserted by plain INSERT … SELECT: set-based for two years of batches in the seed as for one day live.
 * `moves` selects posting_id, category, batch_id, business_id, merchant_id, currency, value_at, from_account,
 * to_account, amount. Call it inside a transaction.
 */
export async function postMoves(writer: DbWriter, moves: ReturnType<typeof sql>): Promise<number> {
  await writer.execute(sql`DROP TABLE IF EXISTS ledger_moves`);
  await writer.execute(sql`CREATE TEMPORARY TABLE ledger_moves ON COMMIT DROP AS
    SELECT * FROM (${moves}) m WHERE m.amount <> 0 AND NOT EXISTS (SELECT 1 FROM ledger_postings x WHERE x.id = m.posting_id)`);
  await writer.execute(sql`ANALYZE ledger_moves`);
  const inserted =
    (await writer.execute(sql`INSERT INTO ledger_postings (id, category, transaction_reference, batch_id, business_id, merchant_id, currency, value_at)
    SELECT posting_id, category, NULL, batch_id, business_id, merchant_id, currency, value_at FROM ledger_moves`)) as unknown as {
      rowCount?: number;
      affectedRows?: number;
    };
  await insertLedgerEntries(
    writer,
    sql`INSERT INTO ledger_entries (posting_id, account_id, business_id, merchant_id, category, amount_minor, currency, value_at, batch_id)
    SELECT m.posting_id, e.account_id, m.business_id, m.merchant_id, m.category, e.amount, m.currency, m.value_at, m.batch_id
    FROM ledger_moves m CROSS JOIN LATERAL (VALUES (m.from_account, -m.amount), (m.to_account, m.amount)) e(account_id, amount)`,
  );
  return Number(inserted.rowCount ?? inserted.affectedRows ?? 0);
}

/**
 * Closes every Open batch whose business day ended by asOf (its business's next midnight) and books the transfers whose day has come; returns
 * how many batches it closed. `holdsSince` bounds how far back a live run looks for holds to release and scheduled
 * transfers to book. A batch's closed time is when its cut-off ran for it: asOf for a live run (the job's time, even
 * when it catches up on days it missed); `replay` closes history at once as the daily cut-off would have closed it
 * (the seed's two years), so each batch closes at its own day's end, not at the moment the history was built. Call it
 * in a transaction.
 */
export async function closeDueBatches(
  writer: DbWriter,
  asOf: Date,
  log?: (line: string) => void,
  options: { holdsSince?: Date; replay?: boolean } = {},
): Promise<number> {
  await writer.execute(sql`SELECT pg_advisory_xact_lock(${sql.raw(String(ledgerJobLockKey))})`);
  await ensureBusinessAccountGroups(writer);
  let mark = performance.now();
  const lap = (label: string) => {
    log?.(`cut-off ${label}: ${((performance.now() - mark) / 1000).toFixed(1)} s`);
    mark = performance.now();
  };
  const due = sql`SELECT b.id, b.account_number, b.business_id, b.merchant_id, b.currency, ${batchEnd('b')} AS cutoff,
      b.sales_minor, b.refunds_minor, b.reversals_minor
    FROM settlement_batches b WHERE ${batchDue('b', asOf)}`;
  // The due batches are locked before anything is reckoned from them. A change posting into one of them (postDrafts
  // locks its batches too) either commits first, and then every statement below sees its entries and totals, or waits
  // until this cut-off has committed and then finds the batch closed and posts into a later one. Without the lock, a
  // refund committing while the payouts were summed landed in a batch closed behind it: never paid out, the trading
  // account no longer at zero after the batch.
  await writer.execute(sql`SELECT b.id FROM settlement_batches b WHERE ${batchDue('b', asOf)} ORDER BY b.id FOR UPDATE`);

  // The batches' totals are kept as the moves are posted (each step's moves are still in ledger_moves), rather than
  // read back from the entries at the end: that UPDATE … FROM a join of every due batch with its entries did not
  // finish in 12 minutes for 2,000,000 transactions on PGlite. Every hold, release and payout of a due batch is posted
  // here, in this transaction (releases land only in batches this run closes), so the sums are the entries' sums.
  await writer.execute(sql`DROP TABLE IF EXISTS ledger_batch_totals`);
  await writer.execute(sql`CREATE TEMPORARY TABLE ledger_batch_totals (batch_id text NOT NULL, net bigint NOT NULL, reserve bigint NOT NULL) ON COMMIT DROP`);
  const keepTotals = (net: ReturnType<typeof sql>, reserve: ReturnType<typeof sql>) =>
    writer.execute(sql`INSERT INTO ledger_batch_totals (batch_id, net, reserve) SELECT batch_id, ${net}, ${reserve} FROM ledger_moves`);

  // Reserve holds: the reserve share of the day's sales less refunds and reversals.
  await postMoves(
    writer,
    sql`SELECT 'reserveHold:' || due.id AS posting_id, 'reserveHold' AS category, due.id AS batch_id, due.business_id, due.merchant_id,
      due.currency, due.cutoff AS value_at, due.account_number || ':trading' AS from_account, due.account_number || ':reserve' AS to_account,
      (greatest(0, due.sales_minor - due.refunds_minor - due.reversals_minor) * g.reserve_basis_points / 10000)::bigint AS amount
    FROM (${due}) due JOIN merchant_account_groups g ON g.account_number = due.account_number WHERE g.reserve_basis_points > 0`,
  );
  await keepTotals(sql`0`, sql`amount`);
  lap('reserve holds');

  // Reserve releases: each hold in the first closing batch whose cut-off is at or after its due date.
  await postMoves(
    writer,
    sql`SELECT 'reserveRelease:' || h.id AS posting_id, 'reserveRelease' AS category, d.id AS batch_id, d.business_id, d.merchant_id,
      d.currency, d.cutoff AS value_at, g.account_number || ':reserve' AS from_account, g.account_number || ':trading' AS to_account,
      e.amount_minor AS amount
    FROM ledger_postings h
    JOIN ledger_entries e ON e.posting_id = h.id AND e.amount_minor > 0 AND e.category = 'reserveHold'
    JOIN settlement_batches hb ON hb.id = h.batch_id
    JOIN merchant_account_groups g ON g.account_number = hb.account_number
    JOIN LATERAL (
      SELECT sb.id, sb.business_id, sb.merchant_id, sb.currency, sb.batch_start, ${batchEnd('sb')} AS cutoff FROM settlement_batches sb
      WHERE sb.account_number = hb.account_number AND sb.batch_start >= h.value_at + make_interval(days => g.reserve_days) - interval '1 day'
        AND ${batchDue('sb', asOf)}
      ORDER BY sb.batch_start LIMIT 1
    ) d ON true
    WHERE h.category = 'reserveHold' AND h.value_at <= ${asOf}::timestamptz${options.holdsSince ? sql` AND h.value_at >= ${options.holdsSince}::timestamptz` : sql``}`,
  );
  await keepTotals(sql`0`, sql`-amount`);
  lap('reserve releases');

  // Payouts: the trading account's movement of the batch leaves it, to the remittance or the business account.
  await postMoves(
    writer,
    sql`SELECT 'payout:' || due.id AS posting_id, 'payout' AS category, due.id AS batch_id, due.business_id, due.merchant_id,
      due.currency, due.cutoff AS value_at, due.account_number || ':trading' AS from_account,
      CASE WHEN b.cam_auto_remittance OR bg.account_number IS NULL THEN due.account_number || ':remittance' ELSE bg.account_number || ':business' END AS to_account,
      moved.net AS amount
    FROM (${due}) due
    JOIN (SELECT e.batch_id, sum(e.amount_minor)::bigint AS net FROM ledger_entries e JOIN settlement_batches sb ON sb.id = e.batch_id
          WHERE ${batchDue('sb', asOf)} AND e.account_id = sb.account_number || ':trading' GROUP BY e.batch_id) moved ON moved.batch_id = due.id
    JOIN businesses b ON b.id = due.business_id
    LEFT JOIN business_account_groups bg ON bg.business_id = due.business_id AND bg.currency = due.currency`,
  );
  await keepTotals(sql`amount`, sql`0`);
  lap('payouts');

  // Transfers to the bank the next day, where automatic remittance is on: the transfers row is scheduled with the
  // payout (the payouts just posted are still in ledger_moves, so none is ever missed), and its posting is booked when
  // its day comes, by the first cut-off at or after it: an entry is booked when it happens, so no statement or balance
  // holds a transfer that has not happened yet (until then it is scheduled, as camt.053 shows it).
  await writer.execute(sql`INSERT INTO ledger_transfers (id, account_number, group_kind, business_id, merchant_id, currency, transfer_date, maturity_date, amount_minor, sale_amount_minor, batch_id)
    SELECT 'T' || substr(sb.id, 2), sb.account_number, 'merchant', sb.business_id, sb.merchant_id, sb.currency,
      ((m.value_at AT TIME ZONE ${sql.raw(zoneOfRow('sb'))}) + interval '1 day') AT TIME ZONE ${sql.raw(zoneOfRow('sb'))},
      ((m.value_at AT TIME ZONE ${sql.raw(zoneOfRow('sb'))}) + interval '3 days') AT TIME ZONE ${sql.raw(zoneOfRow('sb'))},
      m.amount, sb.sales_minor, sb.id
    FROM ledger_moves m JOIN settlement_batches sb ON sb.id = m.batch_id
    WHERE m.to_account = sb.account_number || ':remittance'
    ON CONFLICT (id) DO NOTHING`);
  await postMoves(
    writer,
    sql`SELECT 'transfer:' || t.batch_id AS posting_id, 'transfer' AS category, t.batch_id, t.business_id, t.merchant_id, t.currency,
      t.transfer_date AS value_at, t.account_number || ':remittance' AS from_account, 'provider:bank:' || t.currency AS to_account, t.amount_minor AS amount
    FROM ledger_transfers t
    WHERE t.group_kind = 'merchant' AND t.batch_id IS NOT NULL AND t.transfer_date <= ${asOf}::timestamptz${options.holdsSince ? sql` AND t.transfer_date >= ${options.holdsSince}::timestamptz` : sql``}`,
  );
  lap('transfers');

  await writer.execute(sql`ANALYZE ledger_batch_totals`);
  const closedAt = options.replay ? sql`sums.cutoff` : sql`${asOf}::timestamptz`;
  const closed = (await writer.execute(sql`UPDATE settlement_batches b SET status = 'Closed', closed_at = ${closedAt},
      net_minor = coalesce(sums.net, 0), reserve_minor = coalesce(sums.reserve, 0)
    FROM (SELECT due.id, due.cutoff, t.net, t.reserve FROM (${due}) due
      LEFT JOIN (SELECT batch_id, sum(net)::bigint AS net, sum(reserve)::bigint AS reserve FROM ledger_batch_totals GROUP BY batch_id) t ON t.batch_id = due.id) sums
    WHERE b.id = sums.id
    RETURNING b.id`)) as unknown as { rows?: unknown[] } | unknown[];
  lap('batch totals');
  return Array.isArray(closed) ? closed.length : (closed.rows?.length ?? 0);
}

const dayMs = 86_400_000;
const isoDay = (at: Date) => at.toISOString().slice(0, 10);

/** The payment dates of a schedule in [from, to] (UTC days, 'yyyy-mm-dd'). */
export function scheduleDates(schedule: { frequency: 'daily' | 'weekly' | 'monthly'; dayOfPeriod: number }, from: string, to: string): string[] {
  const dates: string[] = [];
  for (let at = Date.parse(`${from}T00:00:00Z`); at <= Date.parse(`${to}T00:00:00Z`); at += dayMs) {
    const day = new Date(at);
    const matches =
      schedule.frequency === 'daily' ||
      (schedule.frequency === 'weekly' && ((day.getUTCDay() + 6) % 7) + 1 === schedule.dayOfPeriod) ||
      (schedule.frequency === 'monthly' && day.getUTCDate() === schedule.dayOfPeriod);
    if (matches) dates.push(isoDay(day));
  }
  return dates;
}

/** The first two payment dates after a day: next payment, and the one scheduled after it. */
export function nextScheduleDates(schedule: { frequency: 'daily' | 'weekly' | 'monthly'; dayOfPeriod: number }, after: string): [string, string] {
  const from = isoDay(new Date(Date.parse(`${after}T00:00:00Z`) + dayMs));
  const dates = scheduleDates(schedule, from, isoDay(new Date(Date.parse(`${from}T00:00:00Z`) + 70 * dayMs)));
  return [dates[0] ?? from, dates[1] ?? dates[0] ?? from];
}

/**
 * Business account groups pay their balance to the beneficiary on each scheduled date up to asOf: transfer:{group}:{date},
 * business −B, bank +B, with a transfers row. Dates run in order, so each pays what arrived since the last. The row's
 * sale amount is the sales of the batches whose payouts the transfer pays (those that reached the business account
 * since the group's previous transfer), not the amount again.
 */
export async function payBusinessRemittances(writer: DbWriter, asOf: Date): Promise<number> {
  await writer.execute(sql`SELECT pg_advisory_xact_lock(${sql.raw(String(ledgerJobLockKey))})`);
  // A payment date is a day of the business's zone and is paid from its midnight there (as its batches close then).
  const latestToday = isoDay(new Date(asOf.getTime() + widestOffsetMs));
  const candidates = await writer.select().from(remittanceSettings).where(lte(remittanceSettings.nextPaymentDate, latestToday));
  const zones = await businessTimeZones(
    writer,
    candidates.map((setting) => setting.businessId),
  );
  const todayOf = (setting: (typeof candidates)[number]) => localDay(asOf, zones.get(setting.businessId) ?? defaultBusinessTimeZone);
  const settings = candidates.filter((setting) => setting.nextPaymentDate <= todayOf(setting));
  const byDate = new Map<string, (typeof settings)[number][]>();
  for (const setting of settings) {
    for (const date of scheduleDates(setting, setting.nextPaymentDate, todayOf(setting))) byDate.set(date, [...(byDate.get(date) ?? []), setting]);
  }
  // Set-based over every due date at once: the first date of a group pays its whole balance before it, each later
  // date what arrived since the date before (entries other than the transfers themselves).
  const due = [...byDate.entries()].flatMap(([date, groups]) => groups.map((setting) => `${setting.accountNumber}|${date}`));
  if (due.length === 0) return 0;
  await writer.execute(sql`INSERT INTO ledger_transfers (id, account_number, group_kind, business_id, merchant_id, currency, transfer_date, maturity_date, amount_minor, sale_amount_minor, batch_id)
    WITH dates AS (
      SELECT split_part(d, '|', 1) AS account_number, split_part(d, '|', 2)::date AS day FROM unnest(${sql.raw('ARRAY[')}${sql.join(
        due.map((value) => sql`${value}`),
        sql`, `,
      )}${sql.raw(']::text[]')}) d
    ),
    windows AS (
      SELECT d.account_number, (d.day::timestamp AT TIME ZONE bz.time_zone) AS at, (lag(d.day) OVER (PARTITION BY d.account_number ORDER BY d.day))::timestamp AT TIME ZONE bz.time_zone AS since, d.day
      FROM dates d JOIN business_account_groups bg ON bg.account_number = d.account_number JOIN businesses bz ON bz.id = bg.business_id
    ),
    owed AS (
      SELECT w.account_number, w.day, w.at, g.business_id, g.currency,
        (SELECT coalesce(sum(e.amount_minor), 0) FROM ledger_entries e WHERE e.account_id = w.account_number || ':business' AND e.value_at < w.at
          AND (w.since IS NULL OR (e.value_at >= w.since AND e.category <> 'transfer')))::bigint AS amount,
        -- The first date of a run starts where the group's last transfer (of an earlier run) left off.
        coalesce(w.since, (SELECT max(t.transfer_date) FROM ledger_transfers t WHERE t.account_number = w.account_number AND t.group_kind = 'business' AND t.transfer_date < w.at)) AS paid_since
      FROM windows w JOIN business_account_groups g ON g.account_number = w.account_number
    )
    SELECT 'R' || o.account_number || '-' || to_char(o.day, 'YYYYMMDD'), o.account_number, 'business', o.business_id, NULL, o.currency, o.at, o.at + interval '2 days', o.amount,
      (SELECT coalesce(sum(sb.sales_minor), 0) FROM ledger_entries e JOIN settlement_batches sb ON sb.id = e.batch_id
        WHERE e.account_id = o.account_number || ':business' AND e.category = 'payout' AND e.value_at < o.at AND (o.paid_since IS NULL OR e.value_at >= o.paid_since))::bigint,
      NULL
    FROM owed o WHERE o.amount <> 0
    ON CONFLICT (id) DO NOTHING`);
  const paid = await postMoves(
    writer,
    sql`SELECT 'transfer:' || t.id AS posting_id, 'transfer' AS category, NULL::text AS batch_id, t.business_id, NULL::text AS merchant_id, t.currency,
      t.transfer_date AS value_at, t.account_number || ':business' AS from_account, 'provider:bank:' || t.currency AS to_account, t.amount_minor AS amount
    FROM ledger_transfers t WHERE t.group_kind = 'business' AND t.id = ANY(${sql.raw('ARRAY[')}${sql.join(
      due.map((value) => {
        const [group, date] = value.split('|');
        return sql`${`R${group}-${(date ?? '').replaceAll('-', '')}`}`;
      }),
      sql`, `,
    )}${sql.raw(']::text[]')})`,
  );
  for (const setting of settings) {
    const [next, after] = nextScheduleDates(setting, todayOf(setting));
    await writer
      .update(remittanceSettings)
      .set({ nextPaymentDate: next, nextScheduleDate: after })
      .where(and(eq(remittanceSettings.accountNumber, setting.accountNumber), eq(remittanceSettings.nextPaymentDate, setting.nextPaymentDate)));
  }
  return paid;
}

/**
 * The monthly minimum in force for a month: whole for a month the plan covers from its first day; prorated by the
 * days the plan is in force for the month it starts in (from its start day, inclusive, to the month's end), rounded
 * half up to the minor unit. Plans have no end date, so no last month is cut short. Days and months are the
 * business's (timeZone; monthStart is the instant its month begins there). postMonthlyMinimums computes the same in
 * SQL; the billing run's preview uses this one.
 */
export function proratedMonthlyMinimum(minimumMinor: number, validFrom: Date, monthStart: Date, timeZone = 'UTC'): number {
  const month = localMonth(monthStart, timeZone);
  const first = Date.parse(`${month}-01T00:00:00Z`);
  const next = Date.parse(`${addMonthsTo(month, 1)}-01T00:00:00Z`);
  const monthDays = Math.round((next - first) / dayMs);
  const firstDay = Math.max(first, Date.parse(`${localDay(validFrom, timeZone)}T00:00:00Z`));
  const days = Math.max(0, Math.round((next - firstDay) / dayMs));
  return Math.floor((minimumMinor * days * 2 + monthDays) / (2 * monthDays));
}

/**
 * Monthly minimums: for each month of a business that has ended by asOf (its months, in its time zone) since the
 * plan's start, a shortfall of the month's fees below the plan's minimum is invoiced: minimumFee:{group}:{yyyymm},
 * invoice −S, costs +S, at the month's end (the business's midnight). The first month of a plan that starts mid-month
 * owes only its share of the minimum (proratedMonthlyMinimum). fromMonth and toMonth ('YYYY-MM') bound the months
 * looked at. The settlement itself is untouched (the trading account's batches stay as they were); the invoice
 * account collects it.
 */
export async function postMonthlyMinimums(writer: DbWriter, asOf: Date, options: { fromMonth?: string; toMonth?: string } = {}): Promise<void> {
  await writer.execute(sql`SELECT pg_advisory_xact_lock(${sql.raw(String(ledgerJobLockKey))})`);
  // The live job looks at the last months only; the seed at every month since the plans began. Fees are read from the
  // earliest instant any zone's fromMonth begins; each is then counted in its business's month.
  const fromLocal = options.fromMonth ? sql`${`${options.fromMonth}-01`}::timestamp` : sql`'-infinity'::timestamp`;
  const lastLocal = (zone: ReturnType<typeof sql>) =>
    options.toMonth
      ? sql`least(date_trunc('month', ${asOf}::timestamptz AT TIME ZONE ${zone}) - interval '1 month', ${`${options.toMonth}-01`}::timestamp)`
      : sql`date_trunc('month', ${asOf}::timestamptz AT TIME ZONE ${zone}) - interval '1 month'`;
  const feesFrom = options.fromMonth ? sql` AND e.value_at >= ${monthEnvelope(options.fromMonth).start}::timestamptz` : sql``;
  await postMoves(
    writer,
    sql`SELECT 'minimumFee:' || months.account_number || ':' || to_char(months.local_start, 'YYYYMM') AS posting_id,
      'minimumFee' AS category, NULL::text AS batch_id, months.business_id, months.merchant_id, months.currency,
      (months.local_start + interval '1 month') AT TIME ZONE months.time_zone AS value_at,
      months.account_number || ':invoice' AS from_account, months.account_number || ':costs' AS to_account,
      greatest(0, months.minimum - coalesce(fees.total, 0))::bigint AS amount
    FROM (
      SELECT g.account_number, g.business_id, g.merchant_id, g.currency, bz.time_zone, m.local_start,
        -- The minimum times the days in force over the month's days, rounded half up (as proratedMonthlyMinimum).
        ((pp.monthly_minimum_minor * (d.next_month - greatest(d.first_day, (pp.valid_from AT TIME ZONE bz.time_zone)::date)) * 2 + (d.next_month - d.first_day))
          / (2 * (d.next_month - d.first_day)))::bigint AS minimum
      FROM merchant_account_groups g
      JOIN businesses bz ON bz.id = g.business_id
      JOIN pricing_plans pp ON pp.merchant_id = g.merchant_id AND pp.currency = g.currency AND pp.monthly_minimum_minor > 0
      CROSS JOIN LATERAL generate_series(greatest(date_trunc('month', pp.valid_from AT TIME ZONE bz.time_zone), ${fromLocal}), ${lastLocal(sql`bz.time_zone`)}, interval '1 month') m(local_start)
      CROSS JOIN LATERAL (SELECT m.local_start::date AS first_day, (m.local_start + interval '1 month')::date AS next_month) d
    ) months
    LEFT JOIN (
      SELECT e.account_id, date_trunc('month', e.value_at AT TIME ZONE bz.time_zone) AS local_start, sum(e.amount_minor) AS total
      FROM ledger_entries e JOIN ledger_accounts a ON a.id = e.account_id AND a.kind = 'costs' JOIN businesses bz ON bz.id = a.business_id
      WHERE e.category = 'fee' AND e.value_at < ${asOf}::timestamptz${feesFrom}
      GROUP BY 1, 2
    ) fees ON fees.account_id = months.account_number || ':costs' AND fees.local_start = months.local_start`,
  );
}
