// The payments area's part of the demo world, in bulk SQL over the rows seed-bulk.ts just generated and
// before the statistics are aggregated from them, so the dashboard agrees with whatever is changed here:
// - recent card payments not yet captured become authorisations ('reserved' payment and job), some in the owner's
//   business so the demo can capture and void them;
// - the owner's most recent open jobs stay open for a week (to cancel, or to mail a payment link for);
// - a quarter of the delayed captures are partial;
// - every seeded refund gets its reason and steps (payment_refunds); recent pending ones are still 'requested'
//   (cancellable) or 'processing'; a few older ones failed at the acquirer (their transaction 'failed').
// - some paid card jobs were paid at the second attempt: a declined payment of the same card came first (the
//   shopper retried after 'Insufficient funds' and the like), a payment row of its own under the same job;
// - some older card payments were charged back (a transaction of kind 'chargeback' under the payment, 20 to 25 days
//   later, paid; the scheme's reason is the payment's 'chargedBack' step).
// Both are made of refunds the bulk seed generated, so the seed keeps the number of transactions it was asked for.
// Everything else of a payment (amounts, captures, steps, attributes, traces) is read from the transactions by
// server/payments/, so it needs no rows of its own. Deterministic: hashes of references and the seed's `now`.
import { chargebackReasons } from '../payments/payment-views.ts';
import type { DemoIds } from './seed-world.ts';

type Run = (text: string, params?: readonly unknown[]) => Promise<unknown[]>;

const reasons = [
  'requestedByCustomer',
  'requestedByCustomer',
  'requestedByCustomer',
  'productNotReceived',
  'productNotAsDescribed',
  'duplicate',
  'goodwill',
  'fraudulent',
];
const reasonsArray = `ARRAY[${reasons.map((reason) => `'${reason}'`).join(', ')}]::text[]`;
const sqlTextArray = (values: readonly string[]) => `ARRAY[${values.map((value) => `'${value.replaceAll("'", "''")}'`).join(', ')}]::text[]`;
// Reasons of the card declines the bulk seed uses (seed-bulk.ts), so the dashboard's declines read alike.
const retryDeclines = ['Insufficient funds', 'Insufficient funds', 'Do not honour', '3-D Secure failed', 'Exceeds withdrawal limit'];
const retryDeclinesArray = sqlTextArray(retryDeclines);
const chargebackReasonsArray = sqlTextArray(chargebackReasons);

export async function seedPayments(run: Run, options: { now: Date; demo: DemoIds; ownerMerchantId: string }): Promise<void> {
  const now = options.now.toISOString();
  // The owner's demo jobs are those of their first merchant's configuration the context panel selects first (by trade
  // name), so a demo (and the browser journey) finds them where it lands.
  await run(
    `
    CREATE TEMPORARY TABLE seed_demo_configuration ON COMMIT DROP AS
    SELECT id FROM configurations WHERE merchant_id = $1 ORDER BY trade_name, id LIMIT 1`,
    [options.ownerMerchantId],
  );
  // Authorisations waiting for capture: 1 in 12 card payments of the last four days that have no capture or refund
  // yet, and the owner's ten most recent such payments of the last month (the demo configuration's).
  await run(
    `
    CREATE TEMPORARY TABLE seed_reserved ON COMMIT DROP AS
    SELECT p.reference, p.payment_job_reference FROM transactions p
    WHERE p.kind = 'payment' AND p.status = 'paid' AND p.payment_method = 'card' AND p.created_at > $1::timestamptz - interval '4 days'
      AND NOT EXISTS (SELECT 1 FROM transactions c WHERE c.parent_reference = p.reference)
      AND (hashtext(p.reference) & 2147483647) % 12 = 0
    UNION
    SELECT q.reference, q.payment_job_reference FROM (
      SELECT p.reference, p.payment_job_reference FROM transactions p
      WHERE p.business_id = $2 AND p.configuration_id IN (SELECT id FROM seed_demo_configuration) AND p.kind = 'payment' AND p.status = 'paid'
        AND p.payment_method = 'card' AND p.created_at > $1::timestamptz - interval '30 days'
        AND NOT EXISTS (SELECT 1 FROM transactions c WHERE c.parent_reference = p.reference)
      ORDER BY p.created_at DESC LIMIT 10) q`,
    [now, options.demo.ownerBusinessId],
  );
  await run(`UPDATE transactions t SET status = 'reserved' FROM seed_reserved r WHERE t.reference = r.reference`);
  await run(`UPDATE payment_jobs j SET status = 'reserved', paid_date_time_utc = NULL FROM seed_reserved r WHERE j.reference = r.payment_job_reference`);

  // The owner's five most recent unpaid jobs (pending, or expired unpaid) stay open for a week after seeding.
  await run(
    `
    CREATE TEMPORARY TABLE seed_open ON COMMIT DROP AS
    SELECT reference FROM payment_jobs WHERE business_id = $1 AND configuration_id IN (SELECT id FROM seed_demo_configuration) AND status IN ('pending', 'expired')
    ORDER BY create_date_time_utc DESC LIMIT 5`,
    [options.demo.ownerBusinessId],
  );
  await run(`UPDATE transactions t SET status = 'pending' FROM seed_open o WHERE t.payment_job_reference = o.reference AND t.kind = 'payment'`);
  await run(
    `UPDATE payment_jobs j SET status = 'pending', expiration_date_time_utc = $1::timestamptz + interval '7 days' FROM seed_open o WHERE j.reference = o.reference`,
    [now],
  );

  // Partial captures: 1 in 4 delayed captures took 70–95 % of the authorisation (a partial shipment). The statistics
  // (built after this) and the ledger (seed-ledger.ts) count what they captured. The rest
  // of an authorisation captured more than a week ago was voided (released to the shopper: a 'voided' step of the
  // rest, the payment stays paid); a younger one's rest is still open, to capture or void.
  await run(`
    UPDATE transactions SET amount_minor = greatest(1, amount_minor * (70 + (hashtext(reference) & 2147483647) % 26) / 100)
    WHERE kind = 'capture' AND currency <> 'JPY' AND (hashtext(reference) & 2147483647) % 4 = 0`);
  await run(
    `
    INSERT INTO payment_steps (payment_id, payment_job_reference, step, amount_minor, detail, date_time_utc)
    SELECT p.reference, p.payment_job_reference, 'voided', p.amount_minor - c.captured, 'Rest of the authorisation released', c.last_at + interval '1 minute'
    FROM (SELECT parent_reference, sum(amount_minor) AS captured, max(created_at) AS last_at FROM transactions WHERE kind = 'capture' AND status = 'paid' GROUP BY parent_reference) c
    JOIN transactions p ON p.reference = c.parent_reference
    WHERE p.status = 'paid' AND c.captured < p.amount_minor AND c.last_at < $1::timestamptz - interval '7 days'
    ORDER BY c.last_at, p.reference`,
    [now],
  );

  // The bulk-loaded rows have no planner statistics (nor indexes) yet: without them the joins below run as nested
  // loops, hours on 2,000,000 transactions; with them, hash joins.
  await run('ANALYZE transactions, payment_jobs');
  // Declined first, paid at the retry, and chargebacks. Both are made of refunds the bulk seed generated (1 in 8 of
  // those of card payments each), so the number of transactions stays the one asked for. A retry's declined attempt
  // sits between the job's creation and the paid payment, with the same card and amount.
  await run(`
    UPDATE transactions r SET kind = 'payment', parent_reference = NULL, status = 'declined', amount_minor = p.amount_minor,
      created_at = j.create_date_time_utc + (p.created_at - j.create_date_time_utc) / 2, originating_ip_address = p.originating_ip_address,
      decline_reason = (${retryDeclinesArray})[1 + (hashtext('reason:' || r.reference) & 2147483647) % ${retryDeclines.length}]
    FROM transactions p JOIN payment_jobs j ON j.reference = p.payment_job_reference
    WHERE r.kind = 'refund' AND p.reference = r.parent_reference AND p.payment_method = 'card' AND (hashtext('retry:' || r.reference) & 2147483647) % 8 = 0`);
  // A chargeback comes 20 to 25 days after the payment: paid (the money has left the merchant), its reason the
  // payment's 'chargedBack' step.
  await run(
    `
    UPDATE transactions r SET kind = 'chargeback', status = 'paid',
      created_at = p.created_at + interval '20 days' + ((hashtext('chargeback:' || r.reference) & 2147483647) % 7200) * interval '1 minute'
    FROM transactions p
    WHERE r.kind = 'refund' AND p.reference = r.parent_reference AND p.payment_method = 'card' AND (hashtext('retry:' || r.reference) & 2147483647) % 8 = 1
      AND p.created_at + interval '25 days' < $1::timestamptz`,
    [now],
  );
  await run(`
    INSERT INTO payment_steps (payment_id, payment_job_reference, step, amount_minor, detail, date_time_utc)
    SELECT c.parent_reference, c.payment_job_reference, 'chargedBack', c.amount_minor,
      (${chargebackReasonsArray})[1 + (hashtext('reason:' || c.reference) & 2147483647) % ${chargebackReasons.length}], c.created_at
    FROM transactions c WHERE c.kind = 'chargeback' ORDER BY c.created_at, c.reference`);

  // A few older completed refunds failed at the acquirer instead (1 in 40).
  await run(
    `
    UPDATE transactions SET status = 'failed'
    WHERE kind = 'refund' AND status = 'paid' AND created_at < $1::timestamptz - interval '3 days' AND (hashtext(reference) & 2147483647) % 40 = 0`,
    [now],
  );

  // Reasons and steps of every refund. Pending ones younger than two hours are still requested (cancellable).
  await run(
    `
    INSERT INTO payment_refunds (refund_id, payment_id, payment_job_reference, status, reason, note, notify_customer, steps, requested_by, created_at, updated_at)
    SELECT r.reference, r.parent_reference, r.payment_job_reference, s.status,
      (${reasonsArray})[1 + (hashtext(r.reference) & 2147483647) % ${reasons.length}], NULL, (hashtext(r.reference) & 2147483647) % 3 = 0,
      jsonb_build_array(jsonb_build_object('step', 'requested', 'dateTimeUtc', to_char(r.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), 'amountMinor', r.amount_minor))
        || CASE WHEN s.status = 'requested' THEN '[]'::jsonb
             ELSE jsonb_build_array(jsonb_build_object('step', 'processing', 'dateTimeUtc', to_char((r.created_at + interval '2 minutes') AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))) END
        || CASE WHEN s.status IN ('completed', 'failed') THEN jsonb_build_array(jsonb_build_object('step', s.status,
             'dateTimeUtc', to_char((r.created_at + interval '95 minutes') AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
             'detail', CASE WHEN s.status = 'failed' THEN (ARRAY['Refused by the issuer: account closed', 'Card expired since the payment', 'Acquirer timeout'])[1 + (hashtext(r.reference) & 2147483647) % 3] END)) ELSE '[]'::jsonb END,
      NULL, r.created_at, r.created_at + CASE WHEN s.status IN ('completed', 'failed') THEN interval '95 minutes' ELSE interval '0 minutes' END
    FROM transactions r
    CROSS JOIN LATERAL (SELECT CASE r.status WHEN 'paid' THEN 'completed' WHEN 'failed' THEN 'failed'
      ELSE CASE WHEN r.created_at > $1::timestamptz - interval '2 hours' THEN 'requested' ELSE 'processing' END END AS status) s
    WHERE r.kind = 'refund'`,
    [now],
  );
}
