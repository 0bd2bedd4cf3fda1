// The settlement ledger of the demo world, derived in bulk from the seeded transactions (INSERT … SELECT, no row
// loops): account groups per merchant and currency, pricing plans, security deposits, the sale, fee and refund
// postings the write path (server/ledger/post-transactions.ts) would have made for each transaction as it was
// inserted, the daily batches they fall in (each business's days, in its time zone: server/ledger/periods.ts), then the same cut-off, remittance and monthly-minimum code the live
// ledger runs (server/ledger/close-batches.ts) over two years at once. Deterministic: only ids and integer arithmetic.
import { sql } from 'drizzle-orm';
import { merchantAccountKinds } from '../../src/contract/ledger.ts';
import { closeDueBatches, ensureBusinessAccountGroups, payBusinessRemittances, postMonthlyMinimums } from '../ledger/close-batches.ts';
import { rebuildDailyBalances } from '../ledger/daily-balances.ts';
import type { DbWriter } from '../db/client.ts';

/** Base rates per payment method: basis points and fixed minor units (GBP, EUR, USD; JPY fixed parts are in yen). */
export const seedMethodRates: readonly (readonly [string, number, number])[] = [
  ['card', 140, 20],
  ['applePay', 150, 20],
  ['googlePay', 150, 20],
  ['samsungPay', 150, 20],
  ['clickToPay', 145, 20],
  ['payPal', 290, 30],
  ['wallet', 200, 25],
  ['ideal', 0, 29],
  ['bancontact', 0, 35],
  ['sepaBanktransfer', 0, 25],
  ['directDebit', 50, 20],
  ['klarnaPayLater', 299, 35],
  ['klarnaPayNow', 199, 30],
  ['klarnaSliceIt', 349, 35],
  ['afterPay', 349, 30],
];

const securityDeposit = 50_000;
const monthlyMinimum = 2_500;

export async function seedLedger(tx: DbWriter, now: Date, log: (line: string) => void): Promise<void> {
  const started = performance.now();
  let mark = started;
  const lap = (label: string) => {
    const at = performance.now();
    log(`ledger: ${label}: ${((at - mark) / 1000).toFixed(1)} s`);
    mark = at;
  };
  const run = (query: ReturnType<typeof sql>) => tx.execute(query);
  const planStart = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()) - 731 * 86_400_000);
  // Currency → six digits (letters A–Z as 01–26), as currencyDigits does in src/contract/ledger.ts.
  const digits = (column: string) =>
    sql.raw(
      `(lpad((ascii(substr(${column}, 1, 1)) - 64)::text, 2, '0') || lpad((ascii(substr(${column}, 2, 1)) - 64)::text, 2, '0') || lpad((ascii(substr(${column}, 3, 1)) - 64)::text, 2, '0'))`,
    );

  // Account groups: one per merchant and currency. Reserve: travel, hotels and aviation hold 10 % for 90 days,
  // every seventh other merchant 3 % for 60 days.
  await run(sql`INSERT INTO merchant_account_groups (account_number, business_id, merchant_id, currency, reserve_basis_points, reserve_days, created_at)
    SELECT '3' || m.id || ${digits('c.currency')}, m.business_id, m.id, c.currency,
      CASE WHEN b.name ~ '(Travel|Hotel|Aviation)' THEN 1000 WHEN m.id::int % 7 = 0 THEN 300 ELSE 0 END,
      CASE WHEN b.name ~ '(Travel|Hotel|Aviation)' THEN 90 ELSE 60 END, ${planStart}::timestamptz
    FROM merchants m JOIN businesses b ON b.id = m.business_id CROSS JOIN LATERAL unnest(m.currencies) c(currency)`);
  await run(sql`INSERT INTO ledger_accounts (id, owner, account_number, kind, business_id, merchant_id, currency)
    SELECT g.account_number || ':' || k.kind, 'merchant', g.account_number, k.kind, g.business_id, g.merchant_id, g.currency
    FROM merchant_account_groups g CROSS JOIN unnest(${sql.raw(`ARRAY[${merchantAccountKinds.map((kind) => `'${kind}'`).join(', ')}]`)}::text[]) k(kind)
    UNION ALL
    SELECT 'provider:' || k.kind || ':' || c.currency, 'provider', NULL, k.kind, NULL, NULL, c.currency
    FROM (SELECT DISTINCT currency FROM merchant_account_groups) c CROSS JOIN (VALUES ('clearing'), ('bank')) k(kind)`);
  await ensureBusinessAccountGroups(tx);

  // Pricing plans: the base rates, ten basis points cheaper for every step of the merchant's size band.
  const rates = sql.raw(
    `(VALUES ${seedMethodRates.map(([method, points, fixed]) => `('${method}', ${points}, ${fixed})`).join(', ')}) r(method, points, fixed)`,
  );
  await run(sql`INSERT INTO pricing_plans (merchant_id, business_id, currency, name, monthly_minimum_minor, valid_from)
    SELECT g.merchant_id, g.business_id, g.currency, CASE WHEN g.merchant_id::int % 3 = 0 THEN 'Standard' ELSE 'Growth' END,
      ${sql.raw(String(monthlyMinimum))}::bigint, ${planStart}::timestamptz
    FROM merchant_account_groups g`);
  await run(sql`INSERT INTO pricing_plan_rates (merchant_id, currency, payment_method, percentage_basis_points, fixed_minor)
    SELECT g.merchant_id, g.currency, r.method, greatest(0, r.points - (g.merchant_id::int % 4) * 10), r.fixed
    FROM merchant_account_groups g CROSS JOIN ${rates}`);
  lap('account groups, accounts and pricing plans');

  // The bulk rows go in without the entries' and postings' secondary indexes; they are built once afterwards.
  const bulkIndexes = (
    (await tx.execute(sql`SELECT indexname AS name, indexdef AS definition FROM pg_indexes
    WHERE schemaname = current_schema() AND tablename IN ('ledger_entries', 'ledger_postings') AND indexname NOT LIKE '%_pkey'`)) as unknown as {
      rows: { name: string; definition: string }[];
    }
  ).rows;
  for (const index of bulkIndexes) await run(sql.raw(`DROP INDEX ${index.name}`));

  // Security deposits paid in when the groups opened.
  await run(sql`WITH p AS (
      INSERT INTO ledger_postings (id, category, business_id, merchant_id, currency, value_at)
      SELECT 'securityDeposit:' || account_number, 'securityDeposit', business_id, merchant_id, currency, ${planStart}::timestamptz FROM merchant_account_groups
      RETURNING id
    )
    INSERT INTO ledger_entries (posting_id, account_id, business_id, merchant_id, category, amount_minor, currency, value_at)
    SELECT 'securityDeposit:' || g.account_number, e.account_id, g.business_id, g.merchant_id, 'securityDeposit', e.amount, g.currency, ${planStart}::timestamptz
    FROM merchant_account_groups g
    CROSS JOIN LATERAL (VALUES ('provider:bank:' || g.currency, -${sql.raw(String(securityDeposit))}::bigint), (g.account_number || ':security', ${sql.raw(String(securityDeposit))}::bigint)) e(account_id, amount)`);

  // The bulk-loaded transactions have no planner statistics yet: without them the joins below run as nested loops.
  await run(sql`ANALYZE transactions, merchants, merchant_account_groups, pricing_plan_rates`);
  // Sales, fees, refunds and chargebacks: what postingsOfChange makes of each transaction inserted as it is (valued at
  // its creation). A capture credits what it captured (its own sale, the fee on its amount); a payment with captures
  // is credited by them alone, so the uncaptured rest of an authorisation is never credited nor charged a fee.
  const source = sql`SELECT t.reference, CASE WHEN t.kind = 'capture' THEN 'payment' ELSE t.kind END AS kind, t.business_id, t.merchant_id, t.currency, t.created_at, t.amount_minor, g.account_number, m.gross_settlement,
      bz.time_zone, 'B' || g.account_number || '-' || to_char(t.created_at AT TIME ZONE bz.time_zone, 'YYYYMMDD') AS batch_id,
      CASE WHEN t.kind IN ('payment', 'capture') THEN ((t.amount_minor * coalesce(r.percentage_basis_points, 190) + 5000) / 10000 + coalesce(r.fixed_minor, 25))::bigint ELSE 0 END AS fee
    FROM transactions t
    JOIN merchant_account_groups g ON g.merchant_id = t.merchant_id AND g.currency = t.currency
    JOIN merchants m ON m.id = t.merchant_id
    JOIN businesses bz ON bz.id = t.business_id
    LEFT JOIN pricing_plan_rates r ON r.merchant_id = t.merchant_id AND r.currency = t.currency AND r.payment_method = t.payment_method
    LEFT JOIN (SELECT DISTINCT parent_reference FROM transactions WHERE kind = 'capture') captured ON t.kind = 'payment' AND captured.parent_reference = t.reference
    WHERE t.status = 'paid' AND t.kind IN ('payment', 'capture', 'refund', 'chargeback') AND captured.parent_reference IS NULL`;
  // Computed once (the fee joins the plan's rates) and read three times.
  await run(sql`CREATE TEMPORARY TABLE ledger_seed_source ON COMMIT DROP AS ${source}`);
  const sourceRows = sql.raw('ledger_seed_source');
  await run(sql`INSERT INTO ledger_postings (id, category, transaction_reference, batch_id, business_id, merchant_id, currency, value_at)
    SELECT CASE s.kind WHEN 'payment' THEN 'sale:' WHEN 'chargeback' THEN 'chargeback:' ELSE 'refund:' END || s.reference, CASE s.kind WHEN 'payment' THEN 'sale' WHEN 'chargeback' THEN 'reversal' ELSE 'refund' END,
      s.reference, s.batch_id, s.business_id, s.merchant_id, s.currency, s.created_at FROM ${sourceRows} s
    UNION ALL
    SELECT 'fee:' || s.reference, 'fee', s.reference, s.batch_id, s.business_id, s.merchant_id, s.currency, s.created_at FROM ${sourceRows} s WHERE s.fee <> 0`);
  lap('sale, fee and refund postings');
  await run(sql`INSERT INTO ledger_entries (posting_id, account_id, business_id, merchant_id, category, amount_minor, currency, value_at, transaction_reference, batch_id)
    SELECT e.posting_id, e.account_id, s.business_id, s.merchant_id, e.category, e.amount, s.currency, s.created_at, s.reference, s.batch_id
    FROM ${sourceRows} s
    CROSS JOIN LATERAL (VALUES
      (CASE s.kind WHEN 'payment' THEN 'sale:' WHEN 'chargeback' THEN 'chargeback:' ELSE 'refund:' END || s.reference, 'provider:clearing:' || s.currency, CASE s.kind WHEN 'payment' THEN 'sale' WHEN 'chargeback' THEN 'reversal' ELSE 'refund' END, CASE WHEN s.kind = 'payment' THEN -s.amount_minor ELSE s.amount_minor END),
      (CASE s.kind WHEN 'payment' THEN 'sale:' WHEN 'chargeback' THEN 'chargeback:' ELSE 'refund:' END || s.reference, s.account_number || ':trading', CASE s.kind WHEN 'payment' THEN 'sale' WHEN 'chargeback' THEN 'reversal' ELSE 'refund' END, CASE WHEN s.kind = 'payment' THEN s.amount_minor ELSE -s.amount_minor END),
      ('fee:' || s.reference, CASE WHEN s.gross_settlement THEN s.account_number || ':invoice' ELSE s.account_number || ':trading' END, 'fee', -s.fee),
      ('fee:' || s.reference, s.account_number || ':costs', 'fee', s.fee)
    ) e(posting_id, account_id, category, amount)
    WHERE e.category <> 'fee' OR s.fee <> 0`);
  lap('their entries');

  await run(sql`INSERT INTO settlement_batches (id, account_number, business_id, merchant_id, currency, batch_start, status, sales_count, sales_minor, refunds_minor, reversals_minor, fees_minor)
    SELECT s.batch_id, min(s.account_number), min(s.business_id), min(s.merchant_id), min(s.currency),
      date_trunc('day', min(s.created_at) AT TIME ZONE min(s.time_zone)) AT TIME ZONE min(s.time_zone), 'Open',
      count(*) FILTER (WHERE s.kind = 'payment'), coalesce(sum(s.amount_minor) FILTER (WHERE s.kind = 'payment'), 0),
      coalesce(sum(s.amount_minor) FILTER (WHERE s.kind = 'refund'), 0), coalesce(sum(s.amount_minor) FILTER (WHERE s.kind = 'chargeback'), 0), coalesce(sum(s.fee), 0)
    FROM ${sourceRows} s GROUP BY s.batch_id`);
  lap('daily batches');
  for (const index of bulkIndexes) await run(sql.raw(index.definition));
  await run(sql`ANALYZE ledger_postings, ledger_entries, settlement_batches, merchant_account_groups, ledger_accounts`);
  lap(`${bulkIndexes.length} indexes of entries and postings`);
  // The day checkpoints of the bulk entries in one pass; the cut-offs below add theirs as they post (daily-balances.ts).
  await rebuildDailyBalances(tx);
  await run(sql`ANALYZE ledger_daily_balances`);
  lap('day checkpoints of the entries');

  // Replayed as the daily cut-offs would have run: each batch closes at its own day's end, not at the seed's time.
  const closed = await closeDueBatches(tx, now, (line) => log(`ledger: ${line}`), { replay: true });
  lap(`cut-off of ${closed.toLocaleString('en-GB')} batches (reserves, payouts, transfers)`);

  // Remittance: every business account group pays out weekly on Friday to the business itself.
  await run(sql`INSERT INTO remittance_settings (account_number, business_id, frequency, day_of_period, start_date, next_payment_date, next_schedule_date, beneficiary, iban_masked)
    SELECT g.account_number, g.business_id, 'weekly', 5, ${planStart.toISOString().slice(0, 10)}, ${planStart.toISOString().slice(0, 10)}, ${planStart.toISOString().slice(0, 10)},
      jsonb_build_object('companyName', b.name), 'GB** **** **** **** ' || lpad((b.id::int % 10000)::text, 4, '0')
    FROM business_account_groups g JOIN businesses b ON b.id = g.business_id`);
  const remitted = await payBusinessRemittances(tx, now);
  await postMonthlyMinimums(tx, now);
  await run(
    sql`ANALYZE ledger_postings, ledger_entries, ledger_daily_balances, settlement_batches, ledger_transfers, remittance_settings, pricing_plans, pricing_plan_rates, business_account_groups`,
  );
  lap(`${remitted.toLocaleString('en-GB')} business remittances and the monthly minimums`);
  log(`ledger: ${((performance.now() - started) / 1000).toFixed(1)} s in all`);
}
