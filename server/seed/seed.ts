// Seeds an empty database with a deterministic demo world: the small entities from seed-world.ts through the
// ORM, then hundreds of thousands to millions of transactions generated inside the database (seed-bulk.ts),
// one payment job per payment, and the dashboard statistics aggregated from them. The same options (and the
// same `now`) give the same data on PGlite and PostgreSQL alike; only the password hash's salt differs.
import { sql, type SQL } from 'drizzle-orm';
import type { CardKeys } from '../cards/card-keys.ts';
import { cardFingerprints, maskCardNumber, sealCardNumber } from '../cards/card-seal.ts';
import { readConfig } from '../config.ts';
import { hashPassword } from '../identity/passwords.ts';
import { seedOutbox } from './seed-outbox.ts';
import { seedRisk } from './seed-risk.ts';
import { seedVirtualTerminal } from './seed-virtual-terminal.ts';
import { seedBilling } from './seed-billing.ts';
import { seedBulkJobs } from './seed-bulk-jobs.ts';
import { seedMoney } from './seed-money.ts';
import { rebuildStatsRollups, statsRollupTables } from '../stats/rebuild.ts';
import type { Database } from '../db/client.ts';
import * as schema from '../db/schema.ts';
import {
  childrenInsertSql,
  customerEmailsJson,
  customerOrdersJson,
  merchantItemsJson,
  merchantLookupJson,
  merchantSlotsLiteral,
  paymentJobsInsertSql,
  paymentsInsertSql,
  planBulk,
  seedCardToken,
  seedTestCards,
  timeSlotsLiteral,
} from './seed-bulk.ts';
import { seedLedger } from './seed-ledger.ts';
import { seedPayments } from './seed-payments.ts';
import { buildWorld, demoPassword, type DemoIds, type MerchantLookup } from './seed-world.ts';
import { seedUsers } from './seed-users.ts';
import { seedSecurity } from './seed-security.ts';
import { seedSupport } from './seed-support.ts';
import { seedConfigurations } from './seed-configurations.ts';
import { seedPartners } from './seed-partners.ts';

export { demoAccounts, demoPassword } from './seed-world.ts';

export type SeedOptions = {
  /** Rows in `transactions` (payments plus their refunds and captures); exactly this many are inserted. */
  transactions: number;
  /** Seed of the pseudo-random choices; the default gives the documented demo world. */
  randomSeed?: number;
  /**
   * Derive the settlement ledger from the transactions (default true). The benchmarks' data sets of a million
   * transactions and more leave it out: its bulk cut-off does not finish at that size yet (open).
   */
  ledger?: boolean;
  /** Anchor of every timestamp (transactions run up to it, passwords expire relative to it). Default: now, truncated to the hour. */
  now?: Date;
  log?: (line: string) => void;
  /** the keys the test cards are sealed with (server/cards/card-keys.ts): the server's own */
  cardKeys: CardKeys;
};

export type SeedTimings = {
  passwordHashMs: number;
  entitiesMs: number;
  cardsMs: number;
  dropIndexesMs: number;
  paymentsMs: number;
  childrenMs: number;
  paymentJobsMs: number;
  ledgerMs: number;
  createIndexesMs: number;
  statsMs: number;
  rollupsMs: number;
  commitMs: number;
  vacuumAnalyzeMs: number;
  totalMs: number;
};

export type SeedSummary = {
  partners: number;
  businesses: number;
  merchants: number;
  configurations: number;
  users: number;
  transactions: number;
  paymentJobs: number;
  transactionStats: number;
  /** rows of card_vault: each test card at each merchant that takes payments */
  cards: number;
  notifications: number;
  tickets: number;
  /** The anchor every timestamp is relative to. */
  now: string;
  demo: DemoIds;
  timings: SeedTimings;
};

export const defaultRandomSeed = 20_240_601;

/**
 * The dashboard statistics of every (merchant, currency, 15-minute UTC bucket) as the transactions define them,
 * in the column order of `transaction_stats`. Over payments (kind 'payment') in the bucket:
 * - volume: what was captured: the amount of a paid payment without capture rows (captured at authorisation), and
 *   the paid captures of a payment captured in parts (never its authorised amount);
 * - revenue: volume minus the refunds and chargebacks (kind 'refund' or 'chargeback', status 'paid') of those
 *   payments — a refund or chargeback counts in its payment's bucket, not its own;
 * - unsuccessfulVolume = unsuccessfulRevenue: sum of the amounts of declined and failed payments;
 * - salesCount: number of paid payments.
 * A bucket exists as soon as it holds any payment (of any status), so some rows are all zeros.
 * Captures count in their payment's bucket, as refunds do.
 */
export const statsAggregationSql = `
SELECT p.merchant_id, p.business_id, p.partner_id, p.currency,
  date_bin('15 minutes', p.created_at, TIMESTAMPTZ '2000-01-01T00:00:00Z') AS bucket_start,
  (coalesce(sum(p.amount_minor) FILTER (WHERE p.status = 'paid' AND c.parent_reference IS NULL), 0) + coalesce(sum(c.captured), 0))::bigint AS volume,
  (coalesce(sum(p.amount_minor) FILTER (WHERE p.status = 'paid' AND c.parent_reference IS NULL), 0) + coalesce(sum(c.captured), 0) - coalesce(sum(r.refunded), 0))::bigint AS revenue,
  coalesce(sum(p.amount_minor) FILTER (WHERE p.status IN ('declined', 'failed')), 0)::bigint AS unsuccessful_volume,
  coalesce(sum(p.amount_minor) FILTER (WHERE p.status IN ('declined', 'failed')), 0)::bigint AS unsuccessful_revenue,
  count(*) FILTER (WHERE p.status = 'paid')::bigint AS sales_count
FROM transactions p
LEFT JOIN (
  SELECT parent_reference, sum(amount_minor) AS refunded
  FROM transactions
  WHERE kind IN ('refund', 'chargeback') AND status = 'paid'
  GROUP BY parent_reference
) r ON r.parent_reference = p.reference
LEFT JOIN (
  -- A payment captured in parts counts what its captures took, not its authorised amount (server/stats/definition.ts).
  SELECT parent_reference, sum(amount_minor) FILTER (WHERE status = 'paid') AS captured
  FROM transactions
  WHERE kind = 'capture'
  GROUP BY parent_reference
) c ON c.parent_reference = p.reference
WHERE p.kind = 'payment'
GROUP BY p.merchant_id, p.business_id, p.partner_id, p.currency, 5`;

/** Fills transaction_stats from the transactions by statsAggregationSql; run it on an empty table (the seed does, after the bulk load). */
export const statsInsertSql = `
INSERT INTO transaction_stats (merchant_id, business_id, partner_id, currency, bucket_start, volume, revenue,
  unsuccessful_volume, unsuccessful_revenue, sales_count)
${statsAggregationSql}`;

const seededSql = 'SELECT (EXISTS (SELECT 1 FROM businesses) OR EXISTS (SELECT 1 FROM users)) AS seeded';
/** Tables filled in bulk here: their indexes are dropped for the load and rebuilt once after it. */
const bulkTables = ['transactions', 'payment_jobs', 'transaction_stats', ...statsRollupTables];
const advisoryLockKey = 7_270_001;

export async function isSeeded(database: Database): Promise<boolean> {
  const [row] = await database.query<{ seeded: boolean }>(seededSql);
  return Boolean(row?.seeded);
}

const truncatedToHour = (date: Date) => new Date(Math.floor(date.getTime() / 3_600_000) * 3_600_000);
const quoteIdent = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** `text` with $1…$n placeholders → a drizzle SQL object with bound parameters. */
function rawQuery(text: string, params: readonly unknown[] = []): SQL {
  const chunks: SQL[] = [];
  let last = 0;
  for (const match of text.matchAll(/\$(\d+)/g)) {
    const position = Number(match[1]);
    if (position < 1 || position > params.length) throw new Error(`no parameter $${position}`);
    chunks.push(sql.raw(text.slice(last, match.index)), sql`${params[position - 1]}`);
    last = (match.index ?? 0) + match[0].length;
  }
  chunks.push(sql.raw(text.slice(last)));
  return sql.join(chunks);
}

export async function seedDatabase(database: Database, options: SeedOptions): Promise<SeedSummary> {
  const startedAt = performance.now();
  const log = options.log ?? (() => undefined);
  const total = options.transactions;
  if (!Number.isSafeInteger(total) || total < 0) throw new RangeError(`transactions must be a non-negative integer, got ${total}`);
  if (await isSeeded(database)) throw new Error('The database is already seeded: reset it first (npm run seed -- --reset).');

  const now = options.now ?? truncatedToHour(new Date());
  const randomSeed = options.randomSeed ?? defaultRandomSeed;
  const timings: SeedTimings = {
    passwordHashMs: 0,
    entitiesMs: 0,
    cardsMs: 0,
    dropIndexesMs: 0,
    paymentsMs: 0,
    childrenMs: 0,
    paymentJobsMs: 0,
    ledgerMs: 0,
    createIndexesMs: 0,
    statsMs: 0,
    rollupsMs: 0,
    commitMs: 0,
    vacuumAnalyzeMs: 0,
    totalMs: 0,
  };
  let mark = performance.now();
  const lap = (key: keyof SeedTimings, label: string) => {
    const at = performance.now();
    timings[key] = Math.round(at - mark);
    mark = at;
    log(`${label}: ${(timings[key] / 1000).toFixed(1)} s`);
  };

  // One scrypt hash shared by every demo user: hashing is deliberately slow.
  const passwordHash = await hashPassword(demoPassword);
  lap('passwordHashMs', 'password hash');

  const world = buildWorld(randomSeed, now, passwordHash);
  const plan = planBulk(total, now, randomSeed, world.merchantLookup.length, world.customers.length);
  const bulkParams = [
    merchantLookupJson(world.merchantLookup),
    merchantSlotsLiteral(world.merchantLookup),
    timeSlotsLiteral(plan),
    customerEmailsJson(world.customers),
  ];
  let statsRows = 0;
  let cardRows = 0;

  await database.db.transaction(async (tx) => {
    const run = async <Row = Record<string, unknown>>(text: string, params?: readonly unknown[]) =>
      ((await tx.execute(rawQuery(text, params))) as unknown as { rows: Row[] }).rows;

    // Two nodes starting together on one PostgreSQL: the second waits, then sees the data and refuses.
    await run(`SELECT pg_advisory_xact_lock(${advisoryLockKey})`);
    const [state] = await run<{ seeded: boolean }>(seededSql);
    if (state?.seeded) throw new Error('The database is already seeded: reset it first (npm run seed -- --reset).');
    await run(`SET LOCAL work_mem = '256MB'`);
    await run(`SET LOCAL maintenance_work_mem = '256MB'`);

    await tx.insert(schema.partners).values(world.partners);
    await tx.insert(schema.businesses).values(world.businesses);
    await tx.insert(schema.merchants).values(world.merchants);
    await tx.insert(schema.configurations).values(world.configurations);
    await tx.insert(schema.users).values(world.users);
    await tx.insert(schema.userRoles).values(world.userRoles);
    await tx.insert(schema.notifications).values(world.notifications);
    await tx.insert(schema.notificationReads).values(world.notificationReads);
    await tx.insert(schema.tickets).values(world.tickets);
    await tx.insert(schema.ticketComments).values(world.ticketComments);
    await tx.insert(schema.auditEvents).values(world.auditEvents);
    await seedOutbox(tx, { now, publicUrl: readConfig().publicUrl });
    await seedUsers(tx, { now, passwordHash, world });
    await seedConfigurations(tx, world, now);
    lap('entitiesMs', `partners, businesses, merchants, users and the rest (${world.users.length} users)`);

    // The vault holds each test card once per merchant, sealed here; the bulk SQL gives each card payment the
    // token of its (merchant, card) (seedCardToken), so no number is ever written to the transactions.
    const cards = seedVaultRows(world.merchantLookup, options.cardKeys);
    for (let start = 0; start < cards.length; start += 1000) await tx.insert(schema.cardVault).values(cards.slice(start, start + 1000));
    cardRows = cards.length;
    lap('cardsMs', `${cards.length.toLocaleString('en-GB')} test cards sealed into the card vault`);

    // Indexes of the bulk tables (primary keys included: their keys arrive in random order) are built once
    // after the load rather than maintained row by row. Their definitions are read back from the catalogue,
    // so they come back exactly as the migrations made them.
    const indexes = await run<{ drop: string; restore: string }>(`
      SELECT format('ALTER TABLE %I.%I DROP CONSTRAINT %I', n.nspname, t.relname, k.conname) AS drop,
             format('ALTER TABLE %I.%I ADD CONSTRAINT %I %s', n.nspname, t.relname, k.conname, pg_get_constraintdef(k.oid)) AS restore
      FROM pg_constraint k
      JOIN pg_class t ON t.oid = k.conrelid
      JOIN pg_namespace n ON n.oid = t.relnamespace
      WHERE n.nspname = current_schema() AND t.relname IN (${bulkTables.map((name) => `'${name}'`).join(', ')})
        AND k.contype = 'p'
        AND NOT EXISTS (SELECT 1 FROM pg_constraint f WHERE f.confrelid = t.oid)
      UNION ALL
      SELECT format('DROP INDEX %I.%I', i.schemaname, i.indexname), i.indexdef
      FROM pg_indexes i
      JOIN pg_namespace n ON n.nspname = i.schemaname
      JOIN pg_class c ON c.relname = i.indexname AND c.relnamespace = n.oid
      WHERE i.schemaname = current_schema() AND i.tablename IN (${bulkTables.map((name) => `'${name}'`).join(', ')})
        AND NOT EXISTS (SELECT 1 FROM pg_constraint k WHERE k.conindid = c.oid)`);
    for (const index of indexes) await run(index.drop);
    lap('dropIndexesMs', `dropped ${indexes.length} indexes and primary keys of ${bulkTables.join(', ')}`);

    if (plan.payments > 0) {
      await run(paymentsInsertSql(plan), bulkParams);
      lap('paymentsMs', `${plan.payments.toLocaleString('en-GB')} payments`);
    }
    if (plan.children > 0) {
      await run(childrenInsertSql(plan), bulkParams);
      lap('childrenMs', `${plan.children.toLocaleString('en-GB')} refunds and captures`);
    }
    if (plan.payments > 0) {
      await run(paymentJobsInsertSql(), [customerOrdersJson(world.customers), merchantItemsJson(world.merchantLookup)]);
      lap('paymentJobsMs', `${plan.payments.toLocaleString('en-GB')} payment jobs`);
    }

    await seedPayments(run, {
      now,
      demo: world.demo,
      ownerMerchantId: world.merchants.find((merchant) => merchant.businessId === world.demo.ownerBusinessId)?.id ?? '',
    });
    await run(statsInsertSql);
    const [count] = await run<{ n: number | string }>('SELECT count(*) AS n FROM transaction_stats');
    statsRows = Number(count?.n ?? 0);
    lap('statsMs', `${statsRows.toLocaleString('en-GB')} statistics buckets`);

    // The hourly, daily and declines tables of the statistics store, from the quarter hours just written.
    await rebuildStatsRollups(tx);
    lap('rollupsMs', 'statistics rollups (hourly, daily, declines)');
    if (options.ledger !== false) {
      await seedLedger(tx, now, log);
      // The ledger says its own time ('ledger: … s in all'); the indexes' lap below counts the indexes alone.
      timings.ledgerMs = Math.round(performance.now() - mark);
      mark = performance.now();
    } else log('ledger: left out (--no-ledger)');

    for (const index of indexes) await run(index.restore);
    lap('createIndexesMs', `recreated ${indexes.length} indexes and keys`);
    await seedSupport(tx);
    await seedRisk(tx, { world, now, cardKeys: options.cardKeys });
    await seedVirtualTerminal(tx, { world, now, cardKeys: options.cardKeys });
    await seedPartners(tx, { world, now });
    await seedBilling(tx, { now });
    await seedSecurity(tx, { now, world });
    await seedBulkJobs(tx, { world, now });
    await seedMoney(tx, { world });
  });
  lap('commitMs', 'commit');

  // Fresh statistics for the planner and a visibility map for index-only counts.
  await database.query(`VACUUM (ANALYZE) ${bulkTables.join(', ')}`);
  await database.query(
    'ANALYZE partners, businesses, merchants, configurations, users, user_roles, notifications, notification_reads, tickets, ticket_comments, audit_events',
  );
  lap('vacuumAnalyzeMs', 'vacuum and analyse');

  timings.totalMs = Math.round(performance.now() - startedAt);
  log(`seeded ${total.toLocaleString('en-GB')} transactions in ${(timings.totalMs / 1000).toFixed(1)} s`);
  return {
    partners: world.partners.length,
    businesses: world.businesses.length,
    merchants: world.merchants.length,
    configurations: world.configurations.length,
    users: world.users.length,
    transactions: plan.total,
    paymentJobs: plan.payments,
    transactionStats: statsRows,
    cards: cardRows,
    notifications: world.notifications.length,
    tickets: world.tickets.length,
    now: now.toISOString(),
    demo: world.demo,
    timings,
  };
}

/** One vault row per (merchant that takes payments, test card), its token the one the bulk SQL computes. */
function seedVaultRows(lookup: readonly MerchantLookup[], keys: CardKeys): (typeof schema.cardVault.$inferInsert)[] {
  return lookup.flatMap((merchant) =>
    seedTestCards.map((cardNumber, cardIndex) => {
      const token = seedCardToken(merchant.idx, cardIndex);
      return {
        token,
        merchantId: merchant.merchant_id,
        fingerprint: cardFingerprints(keys, merchant.merchant_id, cardNumber)[0] as string,
        masked: maskCardNumber(cardNumber),
        ...sealCardNumber(keys, token, cardNumber),
      };
    }),
  );
}

/** Empties every table of the application schema (the migration journal lives elsewhere and stays). */
export async function resetDatabase(database: Database): Promise<string[]> {
  const tables = (
    await database.query<{ name: string }>(
      `SELECT tablename AS name FROM pg_tables WHERE schemaname = current_schema() AND tablename NOT LIKE '%drizzle_migrations' ORDER BY tablename`,
    )
  ).map((row) => row.name);
  if (tables.length > 0) await database.query(`TRUNCATE TABLE ${tables.map(quoteIdent).join(', ')} RESTART IDENTITY CASCADE`);
  return tables;
}
