// The demo seed: deterministic (two fresh databases, same options → same rows; PostgreSQL too when
// TEST_DATABASE_URL is set), the demo accounts and the ids the other suites rely on, the merchant without
// payments, the statistics equal to an independent aggregation of the transactions, and refusal to seed twice.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../../server/db/client.ts';
import {
  demoAccounts,
  demoPassword,
  isSeeded,
  resetDatabase,
  seedDatabase,
  statsAggregationSql,
  type SeedOptions,
  type SeedSummary,
} from '../../../server/seed/seed.ts';
import { openCardNumber, maskCardNumber } from '../../../server/cards/card-seal.ts';
import { seedTestCards } from '../../../server/seed/seed-bulk.ts';
import { verifyPassword } from '../../../server/identity/passwords.ts';
import { nextUserId } from '../../../server/users/invitations.ts';
import { createTestDatabase, testCardKeys } from '../support.ts';

const now = new Date('2026-03-02T14:00:00Z');
const options: SeedOptions = { transactions: 5000, now, cardKeys: testCardKeys };
const day = 86_400_000;

/** One md5 per table over every column that does not depend on the wall clock or the password salt. */
const fingerprintQueries: Record<string, string> = {
  partners: `SELECT md5(string_agg(t::text, '|' ORDER BY id)) FROM partners t`,
  businesses: `SELECT md5(string_agg(t::text, '|' ORDER BY id)) FROM businesses t`,
  merchants: `SELECT md5(string_agg(t::text, '|' ORDER BY id)) FROM merchants t`,
  configurations: `SELECT md5(string_agg(t::text, '|' ORDER BY id)) FROM configurations t`,
  users: `SELECT md5(string_agg(concat_ws(',', id, email, given_name, family_name, lockout_end_date_utc, password_expires_utc, internal, created_at), '|' ORDER BY id)) FROM users`,
  userRoles: `SELECT md5(string_agg(t::text, '|' ORDER BY id)) FROM user_roles t`,
  notifications: `SELECT md5(string_agg(t::text, '|' ORDER BY reference)) FROM notifications t`,
  notificationReads: `SELECT md5(string_agg(t::text, '|' ORDER BY user_id, reference)) FROM notification_reads t`,
  tickets: `SELECT md5(string_agg(t::text, '|' ORDER BY id)) FROM tickets t`,
  ticketComments: `SELECT md5(string_agg(t::text, '|' ORDER BY id)) FROM ticket_comments t`,
  auditEvents: `SELECT md5(string_agg(concat_ws(',', user_id, event, date_time_utc, business_id, merchant_id, meta_data, recorded_utc), '|' ORDER BY id)) FROM audit_events`,
  transactions: `SELECT md5(string_agg(t::text, '|' ORDER BY reference)) FROM transactions t`,
  // The sealed value differs each time (a random nonce per row); everything else about a card is deterministic.
  cardVault: `SELECT md5(string_agg(concat_ws(',', token, merchant_id, fingerprint, masked, key_id), '|' ORDER BY token)) FROM card_vault`,
  paymentJobs: `SELECT md5(string_agg(t::text, '|' ORDER BY reference)) FROM payment_jobs t`,
  transactionStats: `SELECT md5(string_agg(t::text, '|' ORDER BY merchant_id, currency, bucket_start)) FROM transaction_stats t`,
  // The settlement ledger (seed-ledger.ts): entries without their serial ids and the batches (each closed at its day's end).
  ledgerEntries: `SELECT md5(string_agg(concat_ws(',', posting_id, account_id, category, amount_minor, currency, value_at, transaction_reference, batch_id), '|' ORDER BY posting_id, account_id)) FROM ledger_entries`,
  settlementBatches: `SELECT md5(string_agg(t::text, '|' ORDER BY id)) FROM settlement_batches t`,
  ledgerTransfers: `SELECT md5(string_agg(t::text, '|' ORDER BY id)) FROM ledger_transfers t`,
  // Billing (seed-billing.ts): the invoices of the two months before last, issued at fixed times.
  invoices: `SELECT md5(string_agg(t::text, '|' ORDER BY id)) FROM invoices t`,
};

async function fingerprint(database: Database): Promise<Record<string, string>> {
  const result: Record<string, string> = {};
  await database.db.transaction(async (tx) => {
    // Timestamps print in the session's zone: fix it so that engines configured differently still agree.
    await tx.execute(`SET LOCAL TIME ZONE 'UTC'`);
    for (const [name, query] of Object.entries(fingerprintQueries)) {
      const { rows } = (await tx.execute(query)) as unknown as { rows: { md5: string | null }[] };
      result[name] = rows[0]?.md5 ?? 'empty';
    }
  });
  return result;
}

const count = async (database: Database, query: string, params: unknown[] = []) =>
  Number((await database.query<{ n: string | number }>(query, params))[0]?.n ?? 0);

describe('demo seed', () => {
  let first: Database;
  let second: Database;
  let summary: SeedSummary;
  let secondSummary: SeedSummary;
  let seededBefore: boolean;

  beforeAll(async () => {
    [first, second] = await Promise.all([createTestDatabase('pglite'), createTestDatabase('pglite')]);
    seededBefore = await isSeeded(first);
    summary = await seedDatabase(first, options);
    secondSummary = await seedDatabase(second, options);
  }, 180_000);
  afterAll(async () => {
    await first?.close();
    await second?.close();
  });

  it('flips isSeeded and refuses to seed twice', async () => {
    expect(seededBefore).toBe(false);
    expect(await isSeeded(first)).toBe(true);
    await expect(seedDatabase(first, options)).rejects.toThrow(/already seeded/);
    expect(await count(first, 'SELECT count(*) AS n FROM transactions')).toBe(5000);
    expect(await count(first, 'SELECT count(*) AS n FROM businesses')).toBe(40);
  });

  it('gives identical data in two fresh databases', async () => {
    const [a, b] = await Promise.all([fingerprint(first), fingerprint(second)]);
    expect(Object.values(a)).not.toContain('empty');
    expect(b).toEqual(a);
    const { timings: _a, ...restA } = summary;
    const { timings: _b, ...restB } = secondSummary;
    expect(restB).toEqual(restA);
  });

  it('reports the counts it inserted', async () => {
    expect(summary).toMatchObject({ partners: 3, businesses: 40, merchants: 120, users: 43, transactions: 5000, now: now.toISOString() });
    expect(summary.paymentJobs).toBe(await count(first, `SELECT count(*) AS n FROM payment_jobs`));
    // A job may hold more than one payment (a retry after a decline): every job has one, and every payment a job.
    expect(summary.paymentJobs).toBe(await count(first, `SELECT count(DISTINCT payment_job_reference) AS n FROM transactions WHERE kind = 'payment'`));
    expect(
      await count(
        first,
        `SELECT count(*) AS n FROM transactions t LEFT JOIN payment_jobs j ON j.reference = t.payment_job_reference WHERE j.reference IS NULL`,
      ),
    ).toBe(0);
    expect(summary.configurations).toBe(await count(first, 'SELECT count(*) AS n FROM configurations'));
    expect(summary.transactionStats).toBe(await count(first, 'SELECT count(*) AS n FROM transaction_stats'));
    expect(await count(first, 'SELECT count(*) AS n FROM queued_reports')).toBe(0);
  });

  it('builds the organisations the demo needs', async () => {
    const partners = await first.query<{ id: string; n: number }>(
      `SELECT p.id, count(b.id)::int AS n FROM partners p LEFT JOIN businesses b ON b.partner_id = p.id GROUP BY p.id ORDER BY p.id`,
    );
    expect(partners).toHaveLength(3);
    expect(partners.find((p) => p.id === summary.demo.partnerId)?.n).toBeGreaterThanOrEqual(3);
    const underPartners = await count(first, 'SELECT count(*) AS n FROM businesses WHERE partner_id IS NOT NULL');
    expect(underPartners).toBeGreaterThanOrEqual(15);
    expect(underPartners).toBeLessThanOrEqual(25);
    expect(await count(first, 'SELECT count(*) AS n FROM businesses WHERE NOT live')).toBeGreaterThan(0);
    expect(await count(first, 'SELECT count(*) AS n FROM businesses WHERE NOT cam_auto_remittance')).toBeGreaterThan(0);
    expect(await count(first, 'SELECT count(*) AS n FROM merchants WHERE NOT live')).toBeGreaterThan(0);
    expect(await count(first, 'SELECT count(*) AS n FROM merchants WHERE gross_settlement')).toBeGreaterThan(0);
    expect(await count(first, `SELECT count(*) AS n FROM merchants WHERE 'GBP' = ANY(currencies)`)).toBeGreaterThan(10);
    expect(await count(first, `SELECT count(*) AS n FROM merchants WHERE 'JPY' = ANY(currencies)`)).toBeGreaterThanOrEqual(1);
    expect(await count(first, `SELECT count(*) AS n FROM merchants WHERE NOT (currencies <@ ARRAY['GBP', 'EUR', 'USD', 'JPY'])`)).toBe(0);
    const perMerchant = await first.query<{ n: number }>(
      `SELECT count(c.id)::int AS n FROM merchants m LEFT JOIN configurations c ON c.merchant_id = m.id GROUP BY m.id`,
    );
    expect(Math.min(...perMerchant.map((r) => r.n))).toBe(1);
    expect(Math.max(...perMerchant.map((r) => r.n))).toBe(3);
    expect(await count(first, `SELECT count(*) AS n FROM configurations WHERE (switches ->> 'virtualTerminalMenuEnabled')::boolean = false`)).toBeGreaterThan(
      0,
    );
    expect(await count(first, `SELECT count(*) AS n FROM configurations c JOIN merchants m ON m.id = c.merchant_id WHERE m.business_id <> c.business_id`)).toBe(
      0,
    );

    const { demo } = summary;
    const merchantsOf = (businessId: string) => count(first, 'SELECT count(*) AS n FROM merchants WHERE business_id = $1', [businessId]);
    expect(await merchantsOf(demo.ownerBusinessId)).toBeGreaterThanOrEqual(3);
    expect(await merchantsOf(demo.soloBusinessId)).toBe(1);
    expect(await count(first, 'SELECT count(*) AS n FROM merchants WHERE id = $1 AND business_id = $2', [demo.soloMerchantId, demo.soloBusinessId])).toBe(1);
    expect(await count(first, 'SELECT count(*) AS n FROM merchants WHERE id = $1 AND business_id = $2', [demo.vtMerchantId, demo.vtBusinessId])).toBe(1);
    expect(
      await count(first, 'SELECT count(*) AS n FROM merchants WHERE id = $1 AND business_id = $2', [demo.merchantWithoutPayments, demo.ownerBusinessId]),
    ).toBe(1);
  });

  it('creates every demo account with the documented roles', async () => {
    const { demo } = summary;
    const users = await first.query<{ id: string; email: string; internal: boolean; password_hash: string; password_expires_utc: Date; given_name: string }>(
      `SELECT id, email, internal, password_hash, password_expires_utc, given_name FROM users WHERE email LIKE '%@demo.test' ORDER BY id`,
    );
    expect(users.map((u) => u.email).sort()).toEqual(demoAccounts.map((a) => a.email).sort());
    expect(demoAccounts).toHaveLength(13);
    const roles = await first.query<{
      email: string;
      role: string;
      level: string;
      partner_id: string | null;
      business_id: string | null;
      merchant_id: string | null;
    }>(
      `SELECT u.email, r.role, r.level, r.partner_id, r.business_id, r.merchant_id FROM user_roles r JOIN users u ON u.id = r.user_id WHERE u.email LIKE '%@demo.test' ORDER BY r.id`,
    );
    const rolesOf = (email: string) => roles.filter((r) => r.email === email).map(({ email: _e, ...rest }) => rest);
    const root = (role: string) => [{ role, level: 'root', partner_id: null, business_id: null, merchant_id: null }];
    const business = (role: string, businessId: string) => [{ role, level: 'business', partner_id: null, business_id: businessId, merchant_id: null }];

    expect(rolesOf('admin@demo.test')).toEqual(root('TechnicalAdmin'));
    expect(rolesOf('service@demo.test')).toEqual(root('CustomerService'));
    expect(rolesOf('readonly@demo.test')).toEqual(root('InternalReadOnly'));
    expect(rolesOf('risk@demo.test')).toEqual(root('RiskAnalyst'));
    expect(rolesOf('owner@demo.test')).toEqual(business('Owner', demo.ownerBusinessId));
    expect(rolesOf('solo@demo.test')).toEqual(business('Owner', demo.soloBusinessId));
    expect(rolesOf('finance@demo.test')).toEqual(business('Finance', demo.financeBusinessId));
    expect(rolesOf('developer@demo.test')).toEqual(business('ExternalDeveloper', demo.developerBusinessId));
    expect(rolesOf('vt@demo.test')).toEqual([
      { role: 'VirtualTerminal', level: 'merchant', partner_id: null, business_id: demo.vtBusinessId, merchant_id: demo.vtMerchantId },
    ]);
    expect(rolesOf('partner@demo.test')).toEqual([{ role: 'Owner', level: 'partner', partner_id: demo.partnerId, business_id: null, merchant_id: null }]);
    expect(rolesOf('expiring@demo.test')).toEqual(business('Owner', demo.expiringBusinessId));
    expect(rolesOf('expired@demo.test')).toEqual(business('Finance', demo.soloBusinessId));
    expect(rolesOf('billing@demo.test')).toEqual(root('FinanceAdmin'));

    const internal = ['admin@demo.test', 'service@demo.test', 'readonly@demo.test', 'risk@demo.test', 'billing@demo.test'];
    for (const user of users) {
      expect(user.internal, user.email).toBe(internal.includes(user.email));
      expect(user.given_name.length).toBeGreaterThan(1);
      const expires = new Date(user.password_expires_utc).getTime() - now.getTime();
      expect(expires, user.email).toBe(({ 'expiring@demo.test': 3 * day, 'expired@demo.test': -2 * day } as Record<string, number>)[user.email] ?? 180 * day);
    }
    // One hash for everyone who has a password (invited users have none yet), and it is the demo password's.
    expect(
      new Set((await first.query<{ password_hash: string }>(`SELECT password_hash FROM users WHERE status = 'active'`)).map((u) => u.password_hash)).size,
    ).toBe(1);
    expect(await count(first, `SELECT count(*) AS n FROM users WHERE status = 'invited' AND password_hash <> '!invited'`)).toBe(0);
    expect(await verifyPassword(demoPassword, users[0]?.password_hash ?? '')).toBe(true);

    // The virtual-terminal merchant's first configuration shows the virtual terminal.
    const [firstConfiguration] = await first.query<{ enabled: boolean }>(
      `SELECT (switches ->> 'virtualTerminalMenuEnabled')::boolean AS enabled FROM configurations WHERE merchant_id = $1 ORDER BY id LIMIT 1`,
      [demo.vtMerchantId],
    );
    expect(firstConfiguration?.enabled).toBe(true);
  });

  it('lets new users continue the seed’s readable ids (USR and five digits), after its highest', async () => {
    const ids = (await first.query<{ id: string }>(`SELECT id FROM users`)).map((row) => row.id);
    expect(ids.every((id) => /^USR\d{5}$/.test(id))).toBe(true);
    const highest = Math.max(...ids.map((id) => Number(id.slice(3))));
    expect(await nextUserId(first.db)).toBe(`USR${String(highest + 1).padStart(5, '0')}`);
  });

  it('leaves exactly one merchant without payments, the one it names', async () => {
    const { merchantWithoutPayments } = summary.demo;
    expect(await count(first, 'SELECT count(*) AS n FROM transactions WHERE merchant_id = $1', [merchantWithoutPayments])).toBe(0);
    expect(await count(first, 'SELECT count(*) AS n FROM payment_jobs WHERE merchant_id = $1', [merchantWithoutPayments])).toBe(0);
    expect(await count(first, 'SELECT count(*) AS n FROM transaction_stats WHERE merchant_id = $1', [merchantWithoutPayments])).toBe(0);
    const without = await first.query<{ id: string }>(
      `SELECT m.id FROM merchants m WHERE NOT EXISTS (SELECT 1 FROM transactions t WHERE t.merchant_id = m.id)`,
    );
    expect(without.map((m) => m.id)).toEqual([merchantWithoutPayments]);
  });

  it('generates plausible transactions and payment jobs', async () => {
    const span = await first.query<{ earliest: Date; latest: Date }>('SELECT min(created_at) AS earliest, max(created_at) AS latest FROM transactions');
    expect(new Date(span[0]?.latest ?? 0).getTime()).toBeLessThanOrEqual(now.getTime());
    expect(new Date(span[0]?.earliest ?? 0).getTime()).toBeGreaterThanOrEqual(now.getTime() - 732 * day);
    expect(new Date(span[0]?.earliest ?? 0).getTime()).toBeLessThan(now.getTime() - 700 * day);

    const kinds = await first.query<{ kind: string; status: string; n: number }>('SELECT kind, status, count(*)::int AS n FROM transactions GROUP BY 1, 2');
    const paidPayments = kinds.find((k) => k.kind === 'payment' && k.status === 'paid')?.n ?? 0;
    expect(paidPayments / summary.paymentJobs).toBeGreaterThan(0.7);
    for (const status of ['declined', 'failed', 'cancelled', 'expired'])
      expect(
        kinds.some((k) => k.kind === 'payment' && k.status === status),
        status,
      ).toBe(true);
    expect(kinds.some((k) => k.kind === 'refund')).toBe(true);
    expect(kinds.some((k) => k.kind === 'capture')).toBe(true);

    // Children belong to a paid payment of the same merchant, job and currency, never before it, and a
    // capture only to a card payment; refunds never exceed the payment.
    expect(
      await count(
        first,
        `SELECT count(*) AS n FROM transactions c LEFT JOIN transactions p ON p.reference = c.parent_reference
      WHERE c.kind <> 'payment' AND (p.reference IS NULL OR p.kind <> 'payment' OR p.status <> 'paid' OR p.merchant_id <> c.merchant_id
        OR p.payment_job_reference <> c.payment_job_reference OR p.currency <> c.currency OR c.created_at < p.created_at
        OR c.amount_minor > p.amount_minor OR (c.kind = 'capture' AND p.payment_method <> 'card'))`,
      ),
    ).toBe(0);
    expect(await count(first, `SELECT count(*) AS n FROM transactions WHERE (kind = 'payment') <> (parent_reference IS NULL)`)).toBe(0);

    // Card details only on cards: a token of the card vault, never the number; the token's row belongs to the
    // transaction's merchant, its mask is the transaction's, and it opens to the test number of that mask.
    expect(await count(first, `SELECT count(*) AS n FROM transactions WHERE card_number IS NOT NULL`)).toBe(0);
    expect(
      await count(
        first,
        `SELECT count(*) AS n FROM transactions t LEFT JOIN card_vault v ON v.token = t.card_token
      WHERE (t.payment_method = 'card') <> (t.card_token IS NOT NULL)
        OR (t.card_token IS NOT NULL AND (v.token IS NULL OR v.merchant_id <> t.merchant_id OR v.masked <> t.card_masked))`,
      ),
    ).toBe(0);
    const vault = await first.query<{ token: string; key_id: string; sealed: string; masked: string }>('SELECT token, key_id, sealed, masked FROM card_vault');
    // The risk area's saved cards of stored customers (seed-risk.ts, tokens CVS…) are rows of their own, never a
    // transaction's card.
    expect(vault.filter((row) => !row.token.startsWith('CVS'))).toHaveLength(summary.cards);
    expect(await count(first, `SELECT count(*) AS n FROM transactions WHERE card_token LIKE 'CVS%'`)).toBe(0);
    expect(
      await count(
        first,
        `SELECT count(*) AS n FROM card_vault v WHERE v.token LIKE 'CVS%' AND NOT EXISTS (SELECT 1 FROM customer_data d WHERE d.value->>'cardToken' = v.token)`,
      ),
    ).toBe(0);
    expect(summary.cards).toBe((summary.merchants - 1) * seedTestCards.length);
    for (const row of vault) expect(maskCardNumber(openCardNumber(testCardKeys, { token: row.token, keyId: row.key_id, sealed: row.sealed }))).toBe(row.masked);
    expect(await count(first, `SELECT count(DISTINCT card_token) AS n FROM transactions`)).toBeGreaterThan(100);
    expect(await count(first, `SELECT count(*) AS n FROM transactions WHERE card_masked = '411111******1111'`)).toBeGreaterThan(0);
    expect(
      await count(
        first,
        `SELECT count(*) AS n FROM transactions WHERE (kind = 'payment' AND status IN ('declined', 'failed')) <> (decline_reason IS NOT NULL)`,
      ),
    ).toBe(0);
    expect(
      await count(
        first,
        `SELECT count(*) AS n FROM transactions WHERE (payment_method IN ('applePay', 'googlePay', 'samsungPay', 'clickToPay')) <> (ewallet_type IS NOT NULL)`,
      ),
    ).toBe(0);
    expect(await count(first, `SELECT count(*) AS n FROM transactions WHERE channel NOT IN ('Gateway', 'Acquiring', 'Chp')`)).toBe(0);
    expect(await count(first, `SELECT count(DISTINCT payment_method) AS n FROM transactions`)).toBeGreaterThanOrEqual(8);
    expect(await count(first, `SELECT count(*) AS n FROM transactions WHERE currency = 'JPY' AND kind = 'payment' AND amount_minor % 10 <> 0`)).toBe(0);
    expect(await count(first, `SELECT count(*) AS n FROM transactions WHERE amount_minor <= 0`)).toBe(0);
    // Denormalised ids agree with the organisation.
    expect(
      await count(
        first,
        `SELECT count(*) AS n FROM transactions t JOIN merchants m ON m.id = t.merchant_id JOIN businesses b ON b.id = m.business_id
      JOIN configurations c ON c.id = t.configuration_id
      WHERE t.business_id <> m.business_id OR t.partner_id IS DISTINCT FROM b.partner_id OR c.merchant_id <> t.merchant_id OR NOT t.currency = ANY(m.currencies)`,
      ),
    ).toBe(0);
    expect(await count(first, `SELECT count(*) AS n FROM transactions t LEFT JOIN merchants m ON m.id = t.merchant_id WHERE m.id IS NULL`)).toBe(0);

    // One job per payment, agreeing with it; its order lines add up to the amount.
    expect(
      await count(
        first,
        `SELECT count(*) AS n FROM transactions t JOIN payment_jobs j ON j.reference = t.payment_job_reference
      WHERE t.kind = 'payment' AND j.amount_minor = t.amount_minor AND j.currency = t.currency AND j.merchant_id = t.merchant_id
        AND j.status = t.status AND j.create_date_time_utc <= t.created_at
        AND j."order" -> 'billingIdentity' ->> 'emailAddress' = t.customer_email`,
      ),
    ).toBe(summary.paymentJobs);
    expect(
      await count(
        first,
        `SELECT count(*) AS n FROM payment_jobs j WHERE j.amount_minor <> (
      SELECT sum((l ->> 'quantity')::bigint * (l ->> 'unitPriceInclVat')::bigint) FROM jsonb_array_elements(j."order" -> 'orderLines') l)`,
      ),
    ).toBe(0);
    expect(await count(first, `SELECT count(*) AS n FROM payment_jobs WHERE NOT ("order" ? 'billingAddress' AND "order" ? 'shippingAddress')`)).toBe(0);
  });

  it('seeds the payments area: authorisations to capture, open jobs, refunds with reasons and steps', async () => {
    const owner = summary.demo.ownerBusinessId;
    // Authorisations waiting for capture have no capture yet, and their job agrees; the owner has some to act on.
    expect(
      await count(
        first,
        `SELECT count(*) AS n FROM transactions t JOIN payment_jobs j ON j.reference = t.payment_job_reference
      WHERE t.kind = 'payment' AND t.status = 'reserved' AND j.status = 'reserved' AND j.paid_date_time_utc IS NULL AND t.payment_method = 'card'
        AND NOT EXISTS (SELECT 1 FROM transactions c WHERE c.parent_reference = t.reference)`,
      ),
    ).toBe(await count(first, `SELECT count(*) AS n FROM transactions WHERE status = 'reserved'`));
    expect(await count(first, `SELECT count(*) AS n FROM payment_jobs WHERE status = 'reserved'`)).toBeGreaterThanOrEqual(1);
    expect(
      await count(
        first,
        `SELECT count(*) AS n FROM payment_jobs j JOIN transactions t ON t.payment_job_reference = j.reference AND t.kind = 'payment'
      WHERE j.business_id = $1 AND j.status = 'pending' AND t.status = 'pending' AND j.expiration_date_time_utc > $2`,
        [owner, now.toISOString()],
      ),
    ).toBeGreaterThanOrEqual(1);
    // Every refund has its reason and steps, its status agreeing with its transaction; some failed, some still requested.
    expect(
      await count(
        first,
        `SELECT count(*) AS n FROM transactions t LEFT JOIN payment_refunds r ON r.refund_id = t.reference
      WHERE t.kind = 'refund' AND (r.refund_id IS NULL OR r.payment_id <> t.parent_reference
        OR (r.status = 'completed') <> (t.status = 'paid') OR (r.status = 'failed') <> (t.status = 'failed')
        OR (r.status IN ('requested', 'processing')) <> (t.status = 'pending') OR jsonb_array_length(r.steps) < 1)`,
      ),
    ).toBe(0);
    expect(await count(first, `SELECT count(*) AS n FROM payment_refunds WHERE status = 'failed'`)).toBeGreaterThan(0);
    // Some delayed captures are partial.
    expect(
      await count(
        first,
        `SELECT count(*) AS n FROM transactions c JOIN transactions p ON p.reference = c.parent_reference
      WHERE c.kind = 'capture' AND c.amount_minor < p.amount_minor`,
      ),
    ).toBeGreaterThan(0);
    expect(await count(first, `SELECT count(DISTINCT reason) AS n FROM payment_refunds`)).toBeGreaterThanOrEqual(5);
    // Paid at the second attempt: a declined payment of the same card, between the job's creation and the paid one.
    const retried = await count(
      first,
      `SELECT count(*) AS n FROM payment_jobs j
      JOIN transactions d ON d.payment_job_reference = j.reference AND d.kind = 'payment' AND d.status = 'declined'
      JOIN transactions p ON p.payment_job_reference = j.reference AND p.kind = 'payment' AND p.status IN ('paid', 'reserved')
      WHERE j.create_date_time_utc <= d.created_at AND d.created_at < p.created_at AND d.card_masked = p.card_masked AND d.decline_reason IS NOT NULL`,
    );
    expect(retried).toBeGreaterThan(0);
    expect(retried).toBe(
      await count(
        first,
        `SELECT count(*) AS n FROM payment_jobs j WHERE (SELECT count(*) FROM transactions t WHERE t.payment_job_reference = j.reference AND t.kind = 'payment') > 1`,
      ),
    );
    // Chargebacks: paid, under a paid card payment with no refund, at most what was captured, each with its step;
    // the number of transactions stays the one asked for (both are made of generated refunds).
    expect(await count(first, `SELECT count(*) AS n FROM transactions WHERE kind = 'chargeback'`)).toBeGreaterThan(0);
    expect(
      await count(
        first,
        `SELECT count(*) AS n FROM transactions c JOIN transactions p ON p.reference = c.parent_reference
      WHERE c.kind = 'chargeback' AND (c.status <> 'paid' OR p.payment_method <> 'card' OR c.created_at > $1
        OR c.amount_minor > coalesce((SELECT sum(x.amount_minor) FROM transactions x WHERE x.parent_reference = p.reference AND x.kind = 'capture' AND x.status = 'paid'), p.amount_minor)
        OR EXISTS (SELECT 1 FROM transactions r WHERE r.parent_reference = p.reference AND r.kind = 'refund')
        OR NOT EXISTS (SELECT 1 FROM payment_steps s WHERE s.payment_id = p.reference AND s.step = 'chargedBack' AND s.date_time_utc = c.created_at AND s.amount_minor = c.amount_minor))`,
        [now.toISOString()],
      ),
    ).toBe(0);
    // The ledger credits what was captured: a payment's sales on the trading account (its own when captured
    // with the authorisation, else its captures') are its captured amount, never the uncaptured rest; the rest of an
    // older partial capture is released (a 'voided' step of it).
    expect(
      await count(
        first,
        `SELECT count(*) AS n FROM transactions p
      LEFT JOIN (SELECT parent_reference, sum(amount_minor) FILTER (WHERE status = 'paid') AS captured FROM transactions WHERE kind = 'capture' GROUP BY 1) c ON c.parent_reference = p.reference
      LEFT JOIN (SELECT coalesce(t.parent_reference, t.reference) AS reference, sum(e.amount_minor) AS sale FROM ledger_entries e JOIN transactions t ON t.reference = e.transaction_reference
        WHERE e.category = 'sale' AND e.account_id LIKE '%:trading' GROUP BY 1) l ON l.reference = p.reference
      WHERE p.kind = 'payment' AND coalesce(l.sale, 0) <> coalesce(c.captured, CASE WHEN p.status = 'paid' THEN p.amount_minor ELSE 0 END)`,
      ),
    ).toBe(0);
    expect(
      await count(
        first,
        `SELECT count(*) AS n FROM payment_steps s JOIN transactions p ON p.reference = s.payment_id
      WHERE s.step = 'voided' AND p.status = 'paid' AND s.amount_minor = p.amount_minor - (SELECT sum(c.amount_minor) FROM transactions c WHERE c.parent_reference = p.reference AND c.kind = 'capture')`,
      ),
    ).toBeGreaterThan(0);
  });

  it('fills transaction_stats with exactly the aggregation of the transactions', async () => {
    // Independent of the SQL: bucket the raw rows in JavaScript.
    type Measures = { volume: number; revenue: number; unsuccessfulVolume: number; unsuccessfulRevenue: number; salesCount: number };
    const expected = new Map<string, Measures>();
    const rows = await first.query<{
      reference: string;
      kind: string;
      parent_reference: string | null;
      merchant_id: string;
      currency: string;
      epoch: string | number;
      amount_minor: string | number;
      status: string;
    }>(
      `SELECT reference, kind, parent_reference, merchant_id, currency, extract(epoch FROM created_at)::bigint AS epoch, amount_minor, status FROM transactions`,
    );
    const keyOfPayment = new Map<string, string>();
    // A payment captured in parts counts what its paid captures took, never its authorised amount.
    const captured = new Map<string, number>();
    for (const row of rows.filter((r) => r.kind === 'capture')) {
      captured.set(row.parent_reference ?? '', (captured.get(row.parent_reference ?? '') ?? 0) + (row.status === 'paid' ? Number(row.amount_minor) : 0));
    }
    for (const row of rows.filter((r) => r.kind === 'payment')) {
      const key = `${row.merchant_id}|${row.currency}|${Math.floor(Number(row.epoch) / 900) * 900}`;
      keyOfPayment.set(row.reference, key);
      const m = expected.get(key) ?? { volume: 0, revenue: 0, unsuccessfulVolume: 0, unsuccessfulRevenue: 0, salesCount: 0 };
      const amount = Number(row.amount_minor);
      const takenMinor = captured.has(row.reference) ? (captured.get(row.reference) ?? 0) : row.status === 'paid' ? amount : 0;
      m.volume += takenMinor;
      m.revenue += takenMinor;
      if (row.status === 'paid') m.salesCount += 1;
      if (row.status === 'declined' || row.status === 'failed') {
        m.unsuccessfulVolume += amount;
        m.unsuccessfulRevenue += amount;
      }
      expected.set(key, m);
    }
    // Refunds and chargebacks both take their amount off their payment's revenue.
    for (const row of rows.filter((r) => (r.kind === 'refund' || r.kind === 'chargeback') && r.status === 'paid')) {
      const m = expected.get(keyOfPayment.get(row.parent_reference ?? '') ?? '');
      if (!m) throw new Error(`${row.kind} ${row.reference} without its payment`);
      m.revenue -= Number(row.amount_minor);
    }
    const stored = await first.query<Record<string, string | number>>(
      `SELECT merchant_id, currency, extract(epoch FROM bucket_start)::bigint AS epoch, volume, revenue, unsuccessful_volume, unsuccessful_revenue, sales_count FROM transaction_stats`,
    );
    const actual = new Map(
      stored.map((r) => [
        `${r.merchant_id}|${r.currency}|${Number(r.epoch)}`,
        {
          volume: Number(r.volume),
          revenue: Number(r.revenue),
          unsuccessfulVolume: Number(r.unsuccessful_volume),
          unsuccessfulRevenue: Number(r.unsuccessful_revenue),
          salesCount: Number(r.sales_count),
        },
      ]),
    );
    expect(actual.size).toBe(expected.size);
    expect(Object.fromEntries(actual)).toEqual(Object.fromEntries(expected));
    expect([...expected.values()].some((m) => m.revenue < m.volume)).toBe(true);

    // And statsAggregationSql, which the statistics store reuses, says the same.
    const columns = 'merchant_id, business_id, partner_id, currency, bucket_start, volume, revenue, unsuccessful_volume, unsuccessful_revenue, sales_count';
    expect(
      await count(
        first,
        `SELECT count(*) AS n FROM ((SELECT ${columns} FROM transaction_stats EXCEPT ALL SELECT ${columns} FROM (${statsAggregationSql}) a)
      UNION ALL (SELECT ${columns} FROM (${statsAggregationSql}) a EXCEPT ALL SELECT ${columns} FROM transaction_stats)) d`,
      ),
    ).toBe(0);
  });

  it("closes each historical batch when its own cut-off ran, not at the seed's time", async () => {
    expect(await count(first, `SELECT count(*) AS n FROM settlement_batches WHERE status = 'Closed'`)).toBeGreaterThan(100);
    // A batch is its business's day: it closes at the next local midnight (23 or 25 hours later when the clocks change).
    expect(
      await count(
        first,
        `SELECT count(*) AS n FROM settlement_batches sb JOIN businesses b ON b.id = sb.business_id WHERE sb.status = 'Closed'
      AND sb.closed_at IS DISTINCT FROM ((sb.batch_start AT TIME ZONE b.time_zone) + interval '1 day') AT TIME ZONE b.time_zone`,
      ),
    ).toBe(0);
  });

  it('gives each business transfer the sales of the batches it pays, not its amount again', async () => {
    expect(await count(first, `SELECT count(*) AS n FROM ledger_transfers WHERE group_kind = 'business'`)).toBeGreaterThan(0);
    // Per business group: the transfers' sale amounts add up to the sales of every batch paid into the group before
    // its last transfer.
    expect(
      await count(
        first,
        `SELECT count(*) AS n FROM (
        SELECT t.account_number, sum(t.sale_amount_minor) AS sales, max(t.transfer_date) AS last FROM ledger_transfers t WHERE t.group_kind = 'business' GROUP BY 1
      ) g WHERE g.sales <> (SELECT coalesce(sum(sb.sales_minor), 0) FROM ledger_entries e JOIN settlement_batches sb ON sb.id = e.batch_id
        WHERE e.account_id = g.account_number || ':business' AND e.category = 'payout' AND e.value_at < g.last)`,
      ),
    ).toBe(0);
    expect(
      await count(first, `SELECT count(*) AS n FROM ledger_transfers WHERE group_kind = 'business' AND sale_amount_minor <> amount_minor`),
    ).toBeGreaterThan(0);
  });

  it('keeps the hostile strings the security suites look for', async () => {
    expect(
      await count(
        first,
        `SELECT count(*) AS n FROM notifications WHERE (title || content) LIKE '%<script>alert(1)</script>%'
      AND (title || content) LIKE '%<img src=x onerror=alert(1)>%' AND status = 'published'`,
      ),
    ).toBe(1);
    expect(await count(first, `SELECT count(*) AS n FROM tickets WHERE subject LIKE '%<script>%' AND business_id = $1`, [summary.demo.ownerBusinessId])).toBe(
      1,
    );
    const notifications = await first.query<{ content: string; status: string; view_restriction: string }>(
      'SELECT content, status, view_restriction FROM notifications',
    );
    for (const n of notifications) expect(() => JSON.parse(n.content)).not.toThrow();
    expect(new Set(notifications.map((n) => n.status))).toEqual(new Set(['draft', 'readyForPublication', 'published', 'unpublished']));
    expect(new Set(notifications.map((n) => n.view_restriction))).toEqual(new Set(['allUsers', 'internalUsers']));
    // Most demo users have something unread.
    const unread = await first.query<{ email: string; n: number }>(`SELECT u.email, count(n.reference)::int AS n FROM users u
      CROSS JOIN notifications n LEFT JOIN notification_reads r ON r.user_id = u.id AND r.reference = n.reference
      WHERE u.email LIKE '%@demo.test' AND n.status = 'published' AND (n.view_restriction = 'allUsers' OR u.internal) AND r.user_id IS NULL
      GROUP BY u.email`);
    expect(unread.filter((u) => u.n > 0).length).toBeGreaterThanOrEqual(9);
    // Billing: the two months before last are invoiced, paid but for one overdue invoice; last month is open.
    const invoices = await first.query<{ month: string; status: string; overdue: boolean; kind: string }>(
      `SELECT month, status, kind, (status = 'issued' AND kind = 'invoice' AND due_utc < now()) AS overdue FROM invoices`,
    );
    expect(invoices.filter((row) => row.kind === 'invoice').length).toBeGreaterThan(2);
    expect(invoices.filter((row) => row.overdue)).toHaveLength(1);
    expect(invoices.filter((row) => row.kind === 'creditNote')).toHaveLength(1);
    expect(new Set(invoices.map((row) => row.month)).size).toBe(2);
  });

  it('resets to empty tables and seeds again', async () => {
    await resetDatabase(second);
    expect(await isSeeded(second)).toBe(false);
    expect(await count(second, 'SELECT count(*) AS n FROM transactions')).toBe(0);
    const again = await seedDatabase(second, options);
    expect(again.demo).toEqual(summary.demo);
    expect((await fingerprint(second)).transactions).toBe((await fingerprint(first)).transactions);
  }, 120_000);
});

describe.skipIf(!process.env.TEST_DATABASE_URL)('demo seed on PostgreSQL', () => {
  const adminUrl = process.env.TEST_DATABASE_URL ?? '';
  const name = `seed_test_${randomBytes(6).toString('hex')}`;
  let postgres: Database;
  let pglite: Database;

  beforeAll(async () => {
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    await admin.end();
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    [postgres, pglite] = await Promise.all([openDatabase({ url: url.toString(), poolSize: 2 }), createTestDatabase('pglite')]);
    await Promise.all([seedDatabase(postgres, options), seedDatabase(pglite, options)]);
  }, 180_000);
  afterAll(async () => {
    await postgres?.close();
    await pglite?.close();
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  });

  it('gives the same data as PGlite', async () => {
    expect(await fingerprint(postgres)).toEqual(await fingerprint(pglite));
  });
});
