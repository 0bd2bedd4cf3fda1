// Settlement batch cut-off: every Open batch whose UTC day has ended is closed, set-based, in the caller's
// transaction (a job on any node, or the seed for two years at once). Per batch, in this order:
//
//   reserveHold:{batch}      trading −H, reserve +H    H = reserve share of the day's sales less refunds and reversals
//   reserveRelease:{hold}    reserve −H, trading +H    holds older than the group's reserve days, in the first
//                                                      closing batch on or after their due date
//   payout:{batch}           trading −N, remittance +N (automatic remittance on) or business +N (off)
//                            N = the trading account's movement in the batch: the trading account ends every batch at 0
//   transfer:{batch}         remittance −N, bank +N    the next day (automatic remittance on), with a transfers row
//
// Business account groups pay out on their remittance schedule (payBusinessRemittances). Every posting's id is its
// idempotency key, so a cut-off run twice (two nodes, a retry) posts once.
import { and, eq, lte, sql } from 'drizzle-orm';
import { businessAccountNumber } from '../../src/contract/ledger.ts';
import { businessAccountGroups, businesses, ledgerAccounts, merchantAccountGroups, remittanceSettings } from '../db/schema.ts';
import type { StatsWriter } from '../stats/record-transaction.ts';
import { groupAccountId, utcDayStart } from './post-transactions.ts';

/** Business account groups (and accounts) for every merchant group of a business with automatic remittance off. */
export async function ensureBusinessAccountGroups(writer: StatsWriter): Promise<void> {
  const pairs = await writer.selectDistinct({ businessId: merchantAccountGroups.businessId, currency: merchantAccountGroups.currency })
    .from(merchantAccountGroups).innerJoin(businesses, eq(businesses.id, merchantAccountGroups.businessId))
    .where(eq(businesses.camAutoRemittance, false));
  if (pairs.length === 0) return;
  const rows = pairs.map((pair) => ({ accountNumber: businessAccountNumber(pair.businessId, pair.currency), ...pair })).sort((a, b) => (a.accountNumber < b.accountNumber ? -1 : 1));
  await writer.insert(businessAccountGroups).values(rows).onConflictDoNothing();
  await writer.insert(ledgerAccounts).values(rows.map((row) => ({
    id: groupAccountId(row.accountNumber, 'business'), owner: 'business' as const, accountNumber: row.accountNumber, kind: 'business' as const, businessId: row.businessId, merchantId: null, currency: row.currency,
  }))).onConflictDoNothing();
}

/** Closes every Open batch that started before the UTC day of asOf; returns how many it closed. */
export async function closeDueBatches(writer: StatsWriter, asOf: Date, log?: (line: string) => void): Promise<number> {
  const cutoff = utcDayStart(asOf);
  await ensureBusinessAccountGroups(writer);
  let mark = performance.now();
  let step = 0;
  const run = async (query: ReturnType<typeof sql>) => {
    const result = await writer.execute(query);
    step += 1;
    log?.(`cut-off step ${step}: ${((performance.now() - mark) / 1000).toFixed(1)} s`);
    mark = performance.now();
    return result;
  };
  const due = sql`SELECT b.id, b.account_number, b.business_id, b.merchant_id, b.currency, b.batch_start + interval '1 day' AS cutoff,
      b.sales_minor, b.refunds_minor, b.reversals_minor
    FROM settlement_batches b WHERE b.status = 'Open' AND b.batch_start < ${cutoff}::timestamptz`;

  // Reserve holds.
  await run(sql`WITH due AS (${due}),
    held AS (
      SELECT due.*, (greatest(0, due.sales_minor - due.refunds_minor - due.reversals_minor) * g.reserve_basis_points / 10000)::bigint AS hold
      FROM due JOIN merchant_account_groups g ON g.account_number = due.account_number WHERE g.reserve_basis_points > 0
    ),
    p AS (
      INSERT INTO ledger_postings (id, category, transaction_reference, batch_id, business_id, merchant_id, currency, value_at)
      SELECT 'reserveHold:' || id, 'reserveHold', NULL, id, business_id, merchant_id, currency, cutoff FROM held WHERE hold > 0
      ON CONFLICT (id) DO NOTHING RETURNING id, batch_id
    )
    INSERT INTO ledger_entries (posting_id, account_id, business_id, merchant_id, category, amount_minor, currency, value_at, batch_id)
    SELECT p.id, e.account_id, held.business_id, held.merchant_id, 'reserveHold', e.amount, held.currency, held.cutoff, held.id
    FROM p JOIN held ON held.id = p.batch_id
    CROSS JOIN LATERAL (VALUES (held.account_number || ':trading', -held.hold), (held.account_number || ':reserve', held.hold)) e(account_id, amount)`);

  // Reserve releases: each hold in the first closing batch at or after its due date.
  await run(sql`WITH holds AS (
      SELECT h.id AS hold_id, e.amount_minor AS amount, g.account_number, h.value_at + make_interval(days => g.reserve_days) AS due_at
      FROM ledger_postings h
      JOIN ledger_entries e ON e.posting_id = h.id AND e.category = 'reserveHold' AND e.amount_minor > 0
      JOIN merchant_account_groups g ON e.account_id = g.account_number || ':reserve'
      WHERE h.category = 'reserveHold' AND h.value_at <= ${cutoff}::timestamptz
        AND NOT EXISTS (SELECT 1 FROM ledger_postings r WHERE r.id = 'reserveRelease:' || h.id)
    ),
    placed AS (
      -- The batches table itself (not the due list) so that its (account_number, batch_start) index finds each one.
      SELECT holds.*, d.id AS batch_id, d.business_id, d.merchant_id, d.currency, d.batch_start + interval '1 day' AS cutoff
      FROM holds JOIN LATERAL (
        SELECT * FROM settlement_batches sb
        WHERE sb.account_number = holds.account_number AND sb.batch_start >= holds.due_at - interval '1 day'
          AND sb.status = 'Open' AND sb.batch_start < ${cutoff}::timestamptz
        ORDER BY sb.batch_start LIMIT 1
      ) d ON true
    ),
    p AS (
      INSERT INTO ledger_postings (id, category, transaction_reference, batch_id, business_id, merchant_id, currency, value_at)
      SELECT 'reserveRelease:' || hold_id, 'reserveRelease', NULL, batch_id, business_id, merchant_id, currency, cutoff FROM placed
      ON CONFLICT (id) DO NOTHING RETURNING id
    )
    INSERT INTO ledger_entries (posting_id, account_id, business_id, merchant_id, category, amount_minor, currency, value_at, batch_id)
    SELECT p.id, e.account_id, placed.business_id, placed.merchant_id, 'reserveRelease', e.amount, placed.currency, placed.cutoff, placed.batch_id
    FROM p JOIN placed ON p.id = 'reserveRelease:' || placed.hold_id
    CROSS JOIN LATERAL (VALUES (placed.account_number || ':reserve', -placed.amount), (placed.account_number || ':trading', placed.amount)) e(account_id, amount)`);

  // Payouts: the trading account's movement of the batch leaves it, to the remittance or the business account.
  await run(sql`WITH due AS (${due}),
    moved AS (
      SELECT e.batch_id, sum(e.amount_minor)::bigint AS net
      FROM due JOIN ledger_entries e ON e.batch_id = due.id AND e.account_id = due.account_number || ':trading'
      GROUP BY e.batch_id
    ),
    net AS (
      SELECT due.id, due.account_number, due.business_id, due.merchant_id, due.currency, due.cutoff, b.cam_auto_remittance AS auto,
        moved.net, bg.account_number AS business_account
      FROM due JOIN moved ON moved.batch_id = due.id JOIN businesses b ON b.id = due.business_id
      LEFT JOIN business_account_groups bg ON bg.business_id = due.business_id AND bg.currency = due.currency
    ),
    p AS (
      INSERT INTO ledger_postings (id, category, transaction_reference, batch_id, business_id, merchant_id, currency, value_at)
      SELECT 'payout:' || id, 'payout', NULL, id, business_id, merchant_id, currency, cutoff FROM net WHERE net <> 0
      ON CONFLICT (id) DO NOTHING RETURNING id, batch_id
    )
    INSERT INTO ledger_entries (posting_id, account_id, business_id, merchant_id, category, amount_minor, currency, value_at, batch_id)
    SELECT p.id, e.account_id, net.business_id, net.merchant_id, 'payout', e.amount, net.currency, net.cutoff, net.id
    FROM p JOIN net ON net.id = p.batch_id
    CROSS JOIN LATERAL (VALUES
      (net.account_number || ':trading', -net.net),
      (CASE WHEN net.auto OR net.business_account IS NULL THEN net.account_number || ':remittance' ELSE net.business_account || ':business' END, net.net)
    ) e(account_id, amount)`);

  // Transfers to the bank the next day, where automatic remittance is on.
  await run(sql`WITH due AS (${due}),
    paid AS (
      SELECT due.*, e.amount_minor AS amount, e.account_id
      FROM due JOIN ledger_entries e ON e.posting_id = 'payout:' || due.id AND e.amount_minor <> 0 AND e.account_id = due.account_number || ':remittance'
    ),
    tr AS (
      INSERT INTO ledger_transfers (id, account_number, group_kind, business_id, merchant_id, currency, transfer_date, maturity_date, amount_minor, sale_amount_minor, batch_id)
      SELECT 'T' || substr(id, 2), account_number, 'merchant', business_id, merchant_id, currency, cutoff + interval '1 day', cutoff + interval '3 days', amount, sales_minor, id FROM paid
      ON CONFLICT (id) DO NOTHING RETURNING id
    ),
    p AS (
      INSERT INTO ledger_postings (id, category, transaction_reference, batch_id, business_id, merchant_id, currency, value_at)
      SELECT 'transfer:' || paid.id, 'transfer', NULL, paid.id, business_id, merchant_id, currency, cutoff + interval '1 day' FROM paid JOIN tr ON tr.id = 'T' || substr(paid.id, 2)
      ON CONFLICT (id) DO NOTHING RETURNING id, batch_id
    )
    INSERT INTO ledger_entries (posting_id, account_id, business_id, merchant_id, category, amount_minor, currency, value_at, batch_id)
    SELECT p.id, e.account_id, paid.business_id, paid.merchant_id, 'transfer', e.amount, paid.currency, paid.cutoff + interval '1 day', paid.id
    FROM p JOIN paid ON paid.id = p.batch_id
    CROSS JOIN LATERAL (VALUES (paid.account_number || ':remittance', -paid.amount), ('provider:bank:' || paid.currency, paid.amount)) e(account_id, amount)`);

  const closed = await run(sql`WITH due AS (${due}),
    sums AS (
      SELECT due.id,
        coalesce(-sum(e.amount_minor) FILTER (WHERE e.category = 'payout' AND e.account_id = due.account_number || ':trading'), 0)::bigint AS net,
        coalesce(sum(e.amount_minor) FILTER (WHERE e.account_id = due.account_number || ':reserve'), 0)::bigint AS reserve
      FROM due LEFT JOIN ledger_entries e ON e.batch_id = due.id AND e.category IN ('payout', 'reserveHold', 'reserveRelease')
      GROUP BY due.id
    )
    UPDATE settlement_batches b SET status = 'Closed', closed_at = ${asOf}::timestamptz, net_minor = sums.net, reserve_minor = sums.reserve
    FROM sums WHERE b.id = sums.id AND b.status = 'Open'
    RETURNING b.id`) as unknown as { rows?: unknown[]; length?: number };
  return Array.isArray(closed) ? closed.length : (closed.rows?.length ?? 0);
}

const dayMs = 86_400_000;
const isoDay = (at: Date) => at.toISOString().slice(0, 10);

/** The payment dates of a schedule in [from, to] (UTC days, 'yyyy-mm-dd'). */
export function scheduleDates(schedule: { frequency: 'daily' | 'weekly' | 'monthly'; dayOfPeriod: number }, from: string, to: string): string[] {
  const dates: string[] = [];
  for (let at = Date.parse(`${from}T00:00:00Z`); at <= Date.parse(`${to}T00:00:00Z`); at += dayMs) {
    const day = new Date(at);
    const matches = schedule.frequency === 'daily'
      || (schedule.frequency === 'weekly' && ((day.getUTCDay() + 6) % 7) + 1 === schedule.dayOfPeriod)
      || (schedule.frequency === 'monthly' && day.getUTCDate() === schedule.dayOfPeriod);
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
 * business −B, bank +B, with a transfers row. Dates run in order, so each pays what arrived since the last.
 */
export async function payBusinessRemittances(writer: StatsWriter, asOf: Date): Promise<number> {
  const today = isoDay(asOf);
  const settings = await writer.select().from(remittanceSettings).where(lte(remittanceSettings.nextPaymentDate, today));
  const byDate = new Map<string, (typeof settings)[number][]>();
  for (const setting of settings) {
    for (const date of scheduleDates(setting, setting.nextPaymentDate, today)) byDate.set(date, [...(byDate.get(date) ?? []), setting]);
  }
  let paid = 0;
  for (const date of [...byDate.keys()].sort()) {
    const groups = (byDate.get(date) ?? []).map((setting) => setting.accountNumber);
    const at = new Date(`${date}T00:00:00Z`);
    const result = await writer.execute(sql`WITH owed AS (
        SELECT g.account_number, g.business_id, g.currency,
          (SELECT coalesce(sum(e.amount_minor), 0) FROM ledger_entries e WHERE e.account_id = g.account_number || ':business' AND e.value_at < ${at}::timestamptz)::bigint AS amount
        FROM business_account_groups g WHERE g.account_number IN (${sql.join(groups.map((group) => sql`${group}`), sql`, `)})
      ),
      tr AS (
        INSERT INTO ledger_transfers (id, account_number, group_kind, business_id, merchant_id, currency, transfer_date, maturity_date, amount_minor, sale_amount_minor, batch_id)
        SELECT 'R' || account_number || '-' || ${date.replaceAll('-', '')}, account_number, 'business', business_id, NULL, currency, ${at}::timestamptz, ${at}::timestamptz + interval '2 days', amount, amount, NULL
        FROM owed WHERE amount <> 0
        ON CONFLICT (id) DO NOTHING RETURNING id, account_number
      ),
      p AS (
        INSERT INTO ledger_postings (id, category, transaction_reference, batch_id, business_id, merchant_id, currency, value_at)
        SELECT 'transfer:' || tr.id, 'transfer', NULL, NULL, owed.business_id, NULL, owed.currency, ${at}::timestamptz FROM tr JOIN owed ON owed.account_number = tr.account_number
        ON CONFLICT (id) DO NOTHING RETURNING id, business_id, currency
      )
      INSERT INTO ledger_entries (posting_id, account_id, business_id, merchant_id, category, amount_minor, currency, value_at, batch_id)
      SELECT p.id, e.account_id, owed.business_id, NULL, 'transfer', e.amount, owed.currency, ${at}::timestamptz, NULL
      FROM p JOIN owed ON p.id = 'transfer:R' || owed.account_number || '-' || ${date.replaceAll('-', '')}
      CROSS JOIN LATERAL (VALUES (owed.account_number || ':business', -owed.amount), ('provider:bank:' || owed.currency, owed.amount)) e(account_id, amount)
      RETURNING posting_id`) as unknown as { rows?: unknown[] } | unknown[];
    paid += (Array.isArray(result) ? result.length : (result.rows?.length ?? 0)) / 2;
  }
  for (const setting of settings) {
    const [next, after] = nextScheduleDates(setting, today);
    await writer.update(remittanceSettings).set({ nextPaymentDate: next, nextScheduleDate: after })
      .where(and(eq(remittanceSettings.accountNumber, setting.accountNumber), eq(remittanceSettings.nextPaymentDate, setting.nextPaymentDate)));
  }
  return paid;
}


/**
 * Monthly minimums: for each month that has ended (UTC) since the plan's start, a shortfall of the month's fees
 * below the plan's minimum is invoiced: minimumFee:{group}:{yyyymm}, invoice −S, costs +S, at the month's end. The
 * settlement itself is untouched (the trading account's batches stay as they were); the invoice account collects it.
 */
export async function postMonthlyMinimums(writer: StatsWriter, asOf: Date): Promise<void> {
  const monthStart = new Date(Date.UTC(asOf.getUTCFullYear(), asOf.getUTCMonth(), 1));
  await writer.execute(sql`WITH months AS (
      SELECT g.account_number, g.business_id, g.merchant_id, g.currency, pp.monthly_minimum_minor AS minimum, m.month_start
      FROM merchant_account_groups g
      JOIN pricing_plans pp ON pp.merchant_id = g.merchant_id AND pp.currency = g.currency AND pp.monthly_minimum_minor > 0
      CROSS JOIN LATERAL generate_series(date_trunc('month', pp.valid_from AT TIME ZONE 'UTC') AT TIME ZONE 'UTC', ${monthStart}::timestamptz - interval '1 month', interval '1 month') m(month_start)
      WHERE NOT EXISTS (SELECT 1 FROM ledger_postings x WHERE x.id = 'minimumFee:' || g.account_number || ':' || to_char(m.month_start AT TIME ZONE 'UTC', 'YYYYMM'))
    ),
    short AS (
      SELECT months.*, months.month_start + interval '1 month' AS month_end,
        months.minimum - (SELECT coalesce(sum(e.amount_minor), 0) FROM ledger_entries e
          WHERE e.account_id = months.account_number || ':costs' AND e.category = 'fee'
            AND e.value_at >= months.month_start AND e.value_at < months.month_start + interval '1 month')::bigint AS shortfall
      FROM months
    ),
    p AS (
      INSERT INTO ledger_postings (id, category, transaction_reference, batch_id, business_id, merchant_id, currency, value_at)
      SELECT 'minimumFee:' || account_number || ':' || to_char(month_start AT TIME ZONE 'UTC', 'YYYYMM'), 'minimumFee', NULL, NULL, business_id, merchant_id, currency, month_end
      FROM short WHERE shortfall > 0
      ON CONFLICT (id) DO NOTHING RETURNING id
    )
    INSERT INTO ledger_entries (posting_id, account_id, business_id, merchant_id, category, amount_minor, currency, value_at, batch_id)
    SELECT p.id, e.account_id, short.business_id, short.merchant_id, 'minimumFee', e.amount, short.currency, short.month_end, NULL
    FROM p JOIN short ON p.id = 'minimumFee:' || short.account_number || ':' || to_char(short.month_start AT TIME ZONE 'UTC', 'YYYYMM')
    CROSS JOIN LATERAL (VALUES (short.account_number || ':invoice', -short.shortfall), (short.account_number || ':costs', short.shortfall)) e(account_id, amount)`);
}
