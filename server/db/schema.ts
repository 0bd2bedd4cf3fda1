// One PostgreSQL schema for PGlite and PostgreSQL alike. Money is stored in minor units (bigint as number).
import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  bigint,
  bigserial,
  boolean,
  date,
  index,
  integer,
  jsonb,
  pgSequence,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import type { Ordering } from '../../src/contract/list-query.ts';
import { threeDecimalCurrencies, zeroDecimalCurrencies, type TransactionKind } from '../../src/contract/transactions.ts';
import { now } from '../clock.ts';

const utc = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

export const partners = pgTable('partners', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  createdAt: utc('created_at').notNull().defaultNow().$defaultFn(now),
  /** the highest n of a commission plan id 'CP-{id}-{n}' ever issued: a deleted plan's id is not given to another */
  lastCommissionPlanNumber: integer('last_commission_plan_number').notNull().default(0),
});

export const businesses = pgTable(
  'businesses',
  {
    id: text('id').primaryKey(),
    name: text('name').notNull(),
    partnerId: text('partner_id').references(() => partners.id),
    live: boolean('live').notNull().default(true),
    camAutoRemittance: boolean('cam_auto_remittance').notNull().default(true),
    businessUrl: text('business_url'),
    /** The business's IANA time zone: every money period of its merchants (statement days and months, settlement
     * batches, invoice months, monthly minimums, commission months) is cut in it (server/ledger/periods.ts). */
    timeZone: text('time_zone').notNull().default('Europe/London'),
    createdAt: utc('created_at').notNull().defaultNow().$defaultFn(now),
    /** raised by every edit of the editable fields; a stale one is a 409 */
    version: integer('version').notNull().default(1),
  },
  (t) => [
    index('businesses_name_idx').on(t.name, t.id),
    index('businesses_partner_idx').on(t.partnerId, t.name),
    index('businesses_search_idx').using('gin', sql`(lower(${t.name}) || ' ' || lower(${t.id})) gin_trgm_ops`),
  ],
);

export const merchants = pgTable(
  'merchants',
  {
    id: text('id').primaryKey(),
    businessId: text('business_id')
      .notNull()
      .references(() => businesses.id),
    name: text('name').notNull(),
    live: boolean('live').notNull().default(true),
    grossSettlement: boolean('gross_settlement').notNull().default(false),
    currencies: text('currencies').array().notNull(),
    merchantUrl: text('merchant_url'),
    supportUrl: text('support_url'),
    /** where shoppers' replies to the merchant's emails go (their Reply-To); null: the emails say no reply is read */
    supportEmail: text('support_email'),
    createdAt: utc('created_at').notNull().defaultNow().$defaultFn(now),
    /** raised by every edit of the editable fields; a stale one is a 409 */
    version: integer('version').notNull().default(1),
  },
  (t) => [
    index('merchants_business_idx').on(t.businessId, t.name, t.id),
    index('merchants_search_idx').using('gin', sql`(lower(${t.name}) || ' ' || lower(${t.id})) gin_trgm_ops`),
  ],
);

export type ConfigurationSwitches = { virtualTerminalMenuEnabled: boolean; [name: string]: boolean };

export const configurations = pgTable(
  'configurations',
  {
    id: text('id').primaryKey(),
    merchantId: text('merchant_id')
      .notNull()
      .references(() => merchants.id),
    businessId: text('business_id')
      .notNull()
      .references(() => businesses.id),
    tradeName: text('trade_name').notNull(),
    description: text('description').notNull().default(''),
    switches: jsonb('switches').$type<ConfigurationSwitches>().notNull(),
    version: integer('version').notNull().default(1),
  },
  (t) => [index('configurations_merchant_idx').on(t.merchantId, t.id)],
);

export const users = pgTable(
  'users',
  {
    id: text('id').primaryKey(),
    email: text('email').notNull(),
    givenName: text('given_name').notNull(),
    familyName: text('family_name').notNull(),
    passwordHash: text('password_hash').notNull(),
    failedSignIns: integer('failed_sign_ins').notNull().default(0),
    lockoutEndDateUtc: utc('lockout_end_date_utc'),
    /** the last counted (or reserved) wrong sign-in: failedSignIns starts again once it is older than the lockout window */
    lastFailedSignInUtc: utc('last_failed_sign_in_utc'),
    passwordExpiresUtc: utc('password_expires_utc'),
    internal: boolean('internal').notNull().default(false),
    version: integer('version').notNull().default(1),
    createdAt: utc('created_at').notNull().defaultNow().$defaultFn(now),
    // ── users ──
    phoneNumber: text('phone_number'),
    language: text('language').notNull().default('en-GB'),
    /** 'active' or 'invited' (no password yet: the invitation sets it); locked is derived from lockoutEndDateUtc */
    status: text('status').$type<'active' | 'invited'>().notNull().default('active'),
    lastSignInUtc: utc('last_sign_in_utc'),
    /** wrong two-factor codes since the last right one (sign-in, step-up, removal alike): the tenth locks */
    failedSecondFactorCodes: integer('failed_second_factor_codes').notNull().default(0),
  },
  (t) => [uniqueIndex('users_email_idx').on(sql`lower(${t.email})`), index('users_id_pattern_idx').on(t.id.op('text_pattern_ops'))],
);

/** The number of the next user id (USR00043): readable aloud like the seed's ids, unique under concurrency (server/db/readable-ids.ts). */
export const userNumbers = pgSequence('user_number_seq', { startWith: 1, increment: 1 });

export type RoleLevel = 'root' | 'partner' | 'business' | 'merchant';

/** The policy structure: one row per role a user holds at one level. Root rows have no ids. */
export const userRoles = pgTable(
  'user_roles',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    role: text('role').notNull(),
    level: text('level').$type<RoleLevel>().notNull(),
    partnerId: text('partner_id').references(() => partners.id),
    businessId: text('business_id').references(() => businesses.id),
    merchantId: text('merchant_id').references(() => merchants.id),
  },
  (t) => [index('user_roles_user_idx').on(t.userId)],
);

export const userSettings = pgTable(
  'user_settings',
  {
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    key: text('key').notNull(),
    value: text('value').notNull(),
    updatedAt: utc('updated_at').notNull().defaultNow().$defaultFn(now),
  },
  (t) => [primaryKey({ columns: [t.userId, t.key] })],
);

/**
 * A payment job's amount in thousandths of its major unit (as transactions.amount_milli), the expression of
 * payment_jobs_business_amount_idx. The currency lists are literals (DDL), and a query must build the expression with
 * this function for PostgreSQL to match it to the index (server/api/search.ts, server/api/payment-jobs.ts).
 */
export const jobAmountMilliOf = (amountMinor: AnyPgColumn, currency: AnyPgColumn) => {
  const literals = (codes: readonly string[]) => {
    if (!codes.every((code) => /^[A-Z]{3}$/.test(code))) throw new Error('currency codes must be three capital letters');
    return sql.raw(codes.map((code) => `'${code}'`).join(', '));
  };
  return sql`(${amountMinor} * CASE WHEN ${currency} IN (${literals(zeroDecimalCurrencies)}) THEN 1000 WHEN ${currency} IN (${literals(threeDecimalCurrencies)}) THEN 1 ELSE 10 END)`;
};

export const paymentJobs = pgTable(
  'payment_jobs',
  {
    reference: text('reference').primaryKey(),
    partnerId: text('partner_id'),
    businessId: text('business_id').notNull(),
    merchantId: text('merchant_id').notNull(),
    configurationId: text('configuration_id').notNull(),
    createDateTimeUtc: utc('create_date_time_utc').notNull(),
    expirationDateTimeUtc: utc('expiration_date_time_utc'),
    paidDateTimeUtc: utc('paid_date_time_utc'),
    orderNumber: text('order_number').notNull(),
    amountMinor: bigint('amount_minor', { mode: 'number' }).notNull(),
    currency: text('currency').notNull(),
    status: text('status').notNull(),
    order: jsonb('order').notNull(),
    /** Optimistic concurrency of the job and its payments' actions (server/payments/): a stale version is a 409. */
    version: integer('version').notNull().default(1),
  },
  (t) => [
    index('payment_jobs_merchant_created_idx').on(t.merchantId, t.createDateTimeUtc.desc().nullsFirst()),
    // The payment jobs overview per scope (server/api/payment-jobs.ts) and the record look-up by order number.
    index('payment_jobs_business_created_idx').on(t.businessId, t.createDateTimeUtc.desc().nullsFirst(), t.reference),
    index('payment_jobs_partner_created_idx').on(t.partnerId, t.createDateTimeUtc.desc().nullsFirst(), t.reference),
    index('payment_jobs_order_number_idx').on(t.orderNumber),
    // Record search (server/api/search.ts): reference and order number by prefix (LIKE 'abc%').
    index('payment_jobs_reference_pattern_idx').on(t.reference.op('text_pattern_ops')),
    index('payment_jobs_order_number_pattern_idx').on(t.orderNumber.op('text_pattern_ops')),
    // … and field queries across every tenant (internal users), newest first.
    index('payment_jobs_created_idx').on(t.createDateTimeUtc.desc().nullsFirst(), t.reference),
    // … and amount bounds in a business (a bound no job of the scope reaches walked every job of it: 0.4–0.65 s on 2M).
    index('payment_jobs_business_amount_idx').on(t.businessId, jobAmountMilliOf(t.amountMinor, t.currency)),
    // … and a currency or status no job of the scope has (currency:JPY in a business without yen read every job of the
    // business, 1.0 s on PGlite at 2M): a range of the currency (status) alone for internal users, of the currency
    // (status) in a business for everyone else.
    index('payment_jobs_currency_idx').on(t.currency, t.businessId, t.createDateTimeUtc.desc().nullsFirst(), t.reference),
    index('payment_jobs_status_idx').on(t.status, t.businessId, t.createDateTimeUtc.desc().nullsFirst(), t.reference),
  ],
);

/**
 * Every money movement: payments, refunds and captures (kind), linked by parentReference.
 * The busiest table; its indexes serve the documented sorts per scope.
 */
const currencyList = (codes: readonly string[]) => {
  if (!codes.every((code) => /^[A-Z]{3}$/.test(code))) throw new Error('currency codes must be three capital letters');
  return sql.raw(codes.map((code) => `'${code}'`).join(', '));
};
/** amount_minor × 10^(3 − the currency's exponent): DDL, so the currency lists are literals. */
const amountMilliSql = sql`"amount_minor" * CASE WHEN "currency" IN (${currencyList(zeroDecimalCurrencies)}) THEN 1000 WHEN "currency" IN (${currencyList(threeDecimalCurrencies)}) THEN 1 ELSE 10 END`;

export const transactions = pgTable(
  'transactions',
  {
    reference: text('reference').primaryKey(),
    kind: text('kind').$type<TransactionKind>().notNull(),
    parentReference: text('parent_reference'),
    partnerId: text('partner_id'),
    businessId: text('business_id').notNull(),
    merchantId: text('merchant_id').notNull(),
    configurationId: text('configuration_id').notNull(),
    paymentJobReference: text('payment_job_reference').notNull(),
    createdAt: utc('created_at').notNull(),
    amountMinor: bigint('amount_minor', { mode: 'number' }).notNull(),
    /** The amount in thousandths of the major unit: one scale across currencies for amount filters and sorts. */
    amountMilli: bigint('amount_milli', { mode: 'number' }).notNull().generatedAlwaysAs(amountMilliSql),
    currency: text('currency').notNull(),
    status: text('status').notNull(),
    paymentMethod: text('payment_method').notNull(),
    channel: text('channel').notNull(),
    ewalletType: text('ewallet_type'),
    cardMasked: text('card_masked'),
    /**
     * Before card data was sealed, the full number in clear. Sealed into card_vault and cleared on start
     * (server/cards/seal-legacy.ts); nothing writes or reads it otherwise. Kept only so older data directories migrate.
     */
    legacyCardNumber: text('card_number'),
    /** The card in card_vault (its full number sealed there); null for payments without a card. */
    cardToken: text('card_token'),
    /**
     * The card's last four digits and its first six (the BIN), read from the masked number: what a caller reads out
     * and what the overview and the record search filter by. Never derived from, nor able to rebuild, the full number.
     */
    cardLast4: text('card_last4').generatedAlwaysAs(sql`right("card_masked", 4)`),
    cardBin: text('card_bin').generatedAlwaysAs(sql`left("card_masked", 6)`),
    declineReason: text('decline_reason'),
    customerEmail: text('customer_email'),
    originatingIpAddress: text('originating_ip_address'),
  },
  (t) => [
    index('transactions_merchant_created_idx').on(t.merchantId, t.createdAt.desc().nullsFirst(), t.reference),
    index('transactions_business_created_idx').on(t.businessId, t.createdAt.desc().nullsFirst(), t.reference),
    index('transactions_partner_created_idx').on(t.partnerId, t.createdAt.desc().nullsFirst(), t.reference),
    index('transactions_created_idx').on(t.createdAt.desc().nullsFirst(), t.reference),
    index('transactions_job_idx').on(t.paymentJobReference),
    index('transactions_parent_idx').on(t.parentReference),
    // Overview sorts and selective filters (server/api/transactions.ts): amount per scope, status, prefix search, and
    // the low-cardinality columns a rare value is looked up by.
    index('transactions_merchant_amount_idx').on(t.merchantId, t.amountMilli, t.reference),
    index('transactions_business_amount_idx').on(t.businessId, t.amountMilli, t.reference),
    index('transactions_partner_amount_idx').on(t.partnerId, t.amountMilli, t.reference),
    index('transactions_amount_idx').on(t.amountMilli, t.reference),
    index('transactions_status_idx').on(t.status, t.createdAt.desc().nullsFirst(), t.reference),
    // Prefix search (LIKE 'abc%'): pattern operator classes, since only the "C" collation lets a plain index serve LIKE.
    index('transactions_reference_pattern_idx').on(t.reference.op('text_pattern_ops')),
    index('transactions_job_pattern_idx').on(t.paymentJobReference.op('text_pattern_ops')),
    index('transactions_customer_email_idx').on(sql`lower(${t.customerEmail}) text_pattern_ops`),
    index('transactions_payment_method_idx').on(t.paymentMethod),
    index('transactions_channel_idx').on(t.channel),
    index('transactions_currency_idx').on(t.currency),
    // A currency within a business, newest first: the record search's field query for a currency the business does
    // not take (status:declined currency:USD, currency:JPY) finds nothing at once instead of ANDing three bitmaps of
    // 100,000+ rows each (100 ms at 2M on PostgreSQL).
    index('transactions_currency_business_idx').on(t.currency, t.businessId, t.createdAt.desc().nullsFirst(), t.reference),
    index('transactions_kind_idx').on(t.kind),
    // A card by its last four or first six, newest first: selective for real cards, and a range of the index either way.
    index('transactions_card_last4_idx').on(t.cardLast4, t.createdAt.desc().nullsFirst(), t.reference),
    index('transactions_card_bin_idx').on(t.cardBin, t.createdAt.desc().nullsFirst(), t.reference),
  ],
);

/**
 * Dashboard statistics per merchant, currency and quarter hour (UTC), written in the same
 * transaction as the payment. Quarter hours make every IANA offset (+05:30, +05:45) exact. The hourly and daily
 * rollups below hold the same sums coarser; the measures trail the scope index keys so that all of them cover a
 * period's sums by index-only scans (drizzle has no INCLUDE; extra key columns serve the same end).
 */
/** One statistics table per granularity: the same sums per merchant, currency and UTC bucket, covering indexes. */
function statsTable<Name extends string>(name: Name) {
  return pgTable(
    name,
    {
      merchantId: text('merchant_id').notNull(),
      businessId: text('business_id').notNull(),
      partnerId: text('partner_id'),
      currency: text('currency').notNull(),
      bucketStart: utc('bucket_start').notNull(),
      volume: bigint('volume', { mode: 'number' }).notNull().default(0),
      revenue: bigint('revenue', { mode: 'number' }).notNull().default(0),
      unsuccessfulVolume: bigint('unsuccessful_volume', { mode: 'number' }).notNull().default(0),
      unsuccessfulRevenue: bigint('unsuccessful_revenue', { mode: 'number' }).notNull().default(0),
      salesCount: bigint('sales_count', { mode: 'number' }).notNull().default(0),
    },
    (t) => [
      primaryKey({ columns: [t.merchantId, t.currency, t.bucketStart] }),
      index(`${name}_business_idx`).on(t.businessId, t.currency, t.bucketStart, t.volume, t.revenue, t.unsuccessfulVolume, t.unsuccessfulRevenue, t.salesCount),
      index(`${name}_partner_idx`).on(t.partnerId, t.currency, t.bucketStart, t.volume, t.revenue, t.unsuccessfulVolume, t.unsuccessfulRevenue, t.salesCount),
    ],
  );
}

export const transactionStats = statsTable('transaction_stats');

/** The same statistics rolled up per UTC hour: exact for every whole-hour offset. Kept by server/stats. */
export const transactionStatsHourly = statsTable('transaction_stats_hourly');

/** Per UTC day: the whole days inside a period come from here, the edges from the finer tables. Kept by server/stats. */
export const transactionStatsDaily = statsTable('transaction_stats_daily');

/**
 * The same measures by activity date (the dashboard's 'By activity date' view): money counts on the day it moved (a
 * capture at its capture, a refund or chargeback at its own time), not on its payment's day. Kept by server/stats.
 */
export const transactionActivityStats = statsTable('transaction_activity_stats');
export const transactionActivityStatsHourly = statsTable('transaction_activity_stats_hourly');
export const transactionActivityStatsDaily = statsTable('transaction_activity_stats_daily');

/** Declined payments per merchant, currency, UTC day and reason (covering indexes too); partial days are read from transactions. */
export const transactionDeclinesDaily = pgTable(
  'transaction_declines_daily',
  {
    merchantId: text('merchant_id').notNull(),
    businessId: text('business_id').notNull(),
    partnerId: text('partner_id'),
    currency: text('currency').notNull(),
    bucketStart: utc('bucket_start').notNull(),
    reason: text('reason').notNull(),
    declineCount: bigint('decline_count', { mode: 'number' }).notNull().default(0),
    amount: bigint('amount', { mode: 'number' }).notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.merchantId, t.currency, t.bucketStart, t.reason] }),
    index('transaction_declines_daily_business_idx').on(t.businessId, t.currency, t.bucketStart, t.reason, t.declineCount, t.amount),
    index('transaction_declines_daily_partner_idx').on(t.partnerId, t.currency, t.bucketStart, t.reason, t.declineCount, t.amount),
  ],
);

export const notifications = pgTable('notifications', {
  reference: text('reference').primaryKey(),
  title: text('title').notNull(),
  content: text('content').notNull(),
  status: text('status').$type<'draft' | 'readyForPublication' | 'published' | 'unpublished'>().notNull(),
  viewRestriction: text('view_restriction').$type<'allUsers' | 'internalUsers'>().notNull(),
  publishedUtc: utc('published_utc'),
  lastEditedUtc: utc('last_edited_utc').notNull().defaultNow().$defaultFn(now),
  version: integer('version').notNull().default(1),
  // support: scheduled publication, an optional audience (null: everyone the restriction allows), the author
  publishAtUtc: utc('publish_at_utc'),
  audiencePartnerIds: text('audience_partner_ids').array(),
  audienceBusinessIds: text('audience_business_ids').array(),
  lastEditedBy: text('last_edited_by'),
  // a personal notification (a ticket reply): only these users read it; null for the authored ones
  audienceUserIds: text('audience_user_ids').array(),
});

export const notificationReads = pgTable(
  'notification_reads',
  {
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    reference: text('reference')
      .notNull()
      .references(() => notifications.reference, { onDelete: 'cascade' }),
    readUtc: utc('read_utc').notNull().defaultNow().$defaultFn(now),
  },
  (t) => [primaryKey({ columns: [t.userId, t.reference] })],
);

export const tickets = pgTable(
  'tickets',
  {
    id: text('id').primaryKey(),
    businessId: text('business_id').notNull(),
    merchantId: text('merchant_id'),
    createdBy: text('created_by').notNull(),
    type: text('type').notNull(),
    status: text('status').notNull(),
    priority: text('priority').notNull(),
    subject: text('subject').notNull(),
    description: text('description').notNull(),
    createdUtc: utc('created_utc').notNull().defaultNow().$defaultFn(now),
    lastUpdatedUtc: utc('last_updated_utc').notNull().defaultNow().$defaultFn(now),
    version: integer('version').notNull().default(1),
    // support: the internal staff member handling it, and the record it is about
    assigneeId: text('assignee_id'),
    linkedTransactionReference: text('linked_transaction_reference'),
    linkedPaymentJobReference: text('linked_payment_job_reference'),
    // the requester side's last comment, and when writing staff last replied or opened it: flagged while the first is later
    requesterUpdatedUtc: utc('requester_updated_utc'),
    staffSeenUtc: utc('staff_seen_utc'),
  },
  (t) => [index('tickets_business_idx').on(t.businessId, t.createdUtc), index('tickets_id_pattern_idx').on(t.id.op('text_pattern_ops'))],
);

/** The number of the next ticket id (TCK00041): one readable format for the seed and new tickets, unique under concurrency. */
export const ticketNumbers = pgSequence('ticket_number_seq', { startWith: 1, increment: 1 });

export const ticketComments = pgTable(
  'ticket_comments',
  {
    id: text('id').primaryKey(),
    ticketId: text('ticket_id')
      .notNull()
      .references(() => tickets.id, { onDelete: 'cascade' }),
    authorId: text('author_id').notNull(),
    text: text('text').notNull(),
    createdUtc: utc('created_utc').notNull().defaultNow().$defaultFn(now),
    // support: internal notes are read only with Portal.Tickets.Read.Internal; edits are versioned
    internal: boolean('internal').notNull().default(false),
    lastUpdatedUtc: utc('last_updated_utc').notNull().defaultNow().$defaultFn(now),
    version: integer('version').notNull().default(1),
  },
  (t) => [index('ticket_comments_ticket_idx').on(t.ticketId, t.createdUtc, t.id)],
);

export type ReportStatus = 'queued' | 'generating' | 'generated' | 'failed' | 'cancelled';

/** The report queue: jobs claimed with FOR UPDATE SKIP LOCKED by any node's worker. */
export const queuedReports = pgTable(
  'queued_reports',
  {
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    reportType: text('report_type').notNull(),
    fileType: text('file_type').$type<'csv' | 'xlsx' | 'pdf' | 'xml'>().notNull(),
    status: text('status').$type<ReportStatus>().notNull(),
    context: jsonb('context').notNull(),
    filters: jsonb('filters').notNull(),
    /** { OrderingField, OrderingDirection } of the list the report was made from */
    ordering: jsonb('ordering'),
    columns: jsonb('columns').$type<string[]>().notNull(),
    startDate: utc('start_date'),
    endDate: utc('end_date'),
    totalRows: integer('total_rows'),
    processedRows: integer('processed_rows').notNull().default(0),
    attempts: integer('attempts').notNull().default(0),
    lockedBy: text('locked_by'),
    lockedUntil: utc('locked_until'),
    queuedAt: utc('queued_at').notNull().defaultNow().$defaultFn(now),
    generatedAt: utc('generated_at'),
    expirationDateTime: utc('expiration_date_time'),
    deletedAt: utc('deleted_at'),
    filePath: text('file_path'),
    fileSize: bigint('file_size', { mode: 'number' }),
    error: text('error'),
  },
  (t) => [index('queued_reports_user_idx').on(t.userId, t.queuedAt), index('queued_reports_claim_idx').on(t.status, t.queuedAt)],
);

/**
 * Full card numbers, sealed with AES-256-GCM (server/cards/): one row per card and merchant, found by a keyed
 * fingerprint (HMAC-SHA-256, never the number), with the id of the key that sealed it so keys can rotate.
 */
export const cardVault = pgTable(
  'card_vault',
  {
    token: text('token').primaryKey(),
    merchantId: text('merchant_id').notNull(),
    fingerprint: text('fingerprint').notNull(),
    /** '411111******1111': what may be shown */
    masked: text('masked').notNull(),
    keyId: text('key_id').notNull(),
    /** base64 of nonce (12 bytes) ‖ ciphertext ‖ tag (16 bytes); the token is the additional authenticated data */
    sealed: text('sealed').notNull(),
    createdAt: utc('created_at').notNull().defaultNow().$defaultFn(now),
  },
  (t) => [uniqueIndex('card_vault_merchant_fingerprint_idx').on(t.merchantId, t.fingerprint)],
);

export type OutboundEmailStatus = 'queued' | 'sending' | 'sent' | 'deliveredLocally' | 'failed';

/**
 * Every message the portal sends (server/mail/): written in the transaction of the request that sends it, then
 * claimed by any node's mail worker with FOR UPDATE SKIP LOCKED and a lease, sent, retried with back-off.
 */
export const outboundEmails = pgTable(
  'outbound_emails',
  {
    id: text('id').primaryKey(),
    recipient: text('recipient').notNull(),
    subject: text('subject').notNull(),
    template: text('template').notNull(),
    html: text('html').notNull(),
    text: text('text').notNull(),
    status: text('status').$type<OutboundEmailStatus>().notNull().default('queued'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: utc('next_attempt_at').notNull().defaultNow().$defaultFn(now),
    lockedBy: text('locked_by'),
    lockedUntil: utc('locked_until'),
    sentAt: utc('sent_at'),
    providerMessageId: text('provider_message_id'),
    lastError: text('last_error'),
    createdAt: utc('created_at').notNull().defaultNow().$defaultFn(now),
    /**
     * A message whose link is a working secret (password reset, invitation, email change): both bodies with the link
     * removed, which replace html and text once the message is sent (or given up); null when there is nothing to remove.
     */
    redactedHtml: text('redacted_html'),
    redactedText: text('redacted_text'),
    /** the merchant a shopper's email comes from: its From name ('{name} via Payments portal'); null: the portal's own */
    senderName: text('sender_name'),
    /** the merchant's support address, the message's Reply-To; null: none */
    replyTo: text('reply_to'),
  },
  (t) => [index('outbound_emails_claim_idx').on(t.status, t.nextAttemptAt), index('outbound_emails_created_idx').on(t.createdAt.desc().nullsFirst(), t.id)],
);

export const auditEvents = pgTable(
  'audit_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: text('user_id').notNull(),
    event: text('event').notNull(),
    dateTimeUtc: utc('date_time_utc').notNull(),
    businessId: text('business_id'),
    merchantId: text('merchant_id'),
    metaData: jsonb('meta_data').notNull().default({}),
    recordedUtc: utc('recorded_utc').notNull().defaultNow().$defaultFn(now),
    /** 'server': written by the server in the transaction of what it records; 'client': reported through POST /audit-events */
    source: text('source').$type<'server' | 'client'>().notNull().default('server'),
  },
  (t) => [index('audit_events_business_idx').on(t.businessId, t.dateTimeUtc), index('audit_events_merchant_idx').on(t.merchantId, t.dateTimeUtc)],
);

/** oidc-provider's own state (sessions, grants, codes, tokens), shared by every API node. */
export const oidcPayloads = pgTable(
  'oidc_payloads',
  {
    id: text('id').notNull(),
    type: text('type').notNull(),
    payload: jsonb('payload').notNull(),
    grantId: text('grant_id'),
    userCode: text('user_code'),
    uid: text('uid'),
    expiresAt: utc('expires_at'),
    consumedAt: utc('consumed_at'),
  },
  (t) => [
    primaryKey({ columns: [t.id, t.type] }),
    index('oidc_payloads_grant_idx').on(t.grantId),
    index('oidc_payloads_uid_idx').on(t.uid),
    index('oidc_payloads_user_code_idx').on(t.userCode),
  ],
);

/** Signing keys of the identity provider, generated once and shared by every node. */
export const signingKeys = pgTable('signing_keys', {
  kid: text('kid').primaryKey(),
  jwk: jsonb('jwk').notNull(),
  createdAt: utc('created_at').notNull().defaultNow().$defaultFn(now),
});

// ── users ──

/** Invitations to set up an account: the link carries a secret whose SHA-256 alone is kept; single use, 7 days. */
export const userInvitations = pgTable(
  'user_invitations',
  {
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull(),
    invitedBy: text('invited_by').notNull(),
    createdAt: utc('created_at').notNull().defaultNow().$defaultFn(now),
    expiresAt: utc('expires_at').notNull(),
    acceptedAt: utc('accepted_at'),
    revokedAt: utc('revoked_at'),
    /** the hand-off that signs the invitee in right after accepting: SHA-256 of a cookie's secret, single use, minutes long */
    signInTokenHash: text('sign_in_token_hash'),
    signInExpiresAt: utc('sign_in_expires_at'),
    signedInAt: utc('signed_in_at'),
  },
  (t) => [
    uniqueIndex('user_invitations_token_idx').on(t.tokenHash),
    index('user_invitations_user_idx').on(t.userId, t.createdAt),
    uniqueIndex('user_invitations_sign_in_token_idx').on(t.signInTokenHash),
  ],
);

/** Password reset links: SHA-256 of the secret, single use, 15 minutes; rows also count requests for rate limits. */
export const passwordResets = pgTable(
  'password_resets',
  {
    id: text('id').primaryKey(),
    userId: text('user_id').references(() => users.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash'),
    emailKey: text('email_key').notNull(),
    requestedFrom: text('requested_from').notNull(),
    createdAt: utc('created_at').notNull().defaultNow().$defaultFn(now),
    expiresAt: utc('expires_at').notNull(),
    usedAt: utc('used_at'),
  },
  (t) => [
    uniqueIndex('password_resets_token_idx').on(t.tokenHash),
    index('password_resets_email_idx').on(t.emailKey, t.createdAt),
    index('password_resets_from_idx').on(t.requestedFrom, t.createdAt),
  ],
);

/** Emails of deleted users (lower-cased): refused by invitations and POST /users for good. */
export const deletedUserEmails = pgTable('deleted_user_emails', {
  email: text('email').primaryKey(),
  deletedBy: text('deleted_by').notNull(),
  deletedAt: utc('deleted_at').notNull().defaultNow().$defaultFn(now),
});
// ── support ──

/** Files attached to a ticket or to one of its comments; the bytes live in the FileStore under storageKey. */
export const ticketAttachments = pgTable(
  'ticket_attachments',
  {
    id: text('id').primaryKey(),
    ticketId: text('ticket_id')
      .notNull()
      .references(() => tickets.id, { onDelete: 'cascade' }),
    commentId: text('comment_id').references(() => ticketComments.id, { onDelete: 'cascade' }),
    fileName: text('file_name').notNull(),
    mimeType: text('mime_type').notNull(),
    size: integer('size').notNull(),
    storageKey: text('storage_key').notNull(),
    uploadedBy: text('uploaded_by').notNull(),
    createdUtc: utc('created_utc').notNull().defaultNow().$defaultFn(now),
  },
  (t) => [index('ticket_attachments_ticket_idx').on(t.ticketId, t.createdUtc)],
);
// ── configurations ──
// Per-method settings of a configuration, hosted payment pages, images and API keys. A configuration's
// version (configurations.version) is shared by the configuration, its payment-method settings and its hosted pages:
// every write to any of them sends the version it read and raises it by one (stale → 409).

/** Thousandths of the major unit (the amount scale of src/contract/transactions.ts), so one limit reads the same in every currency. */
export const configurationPaymentMethods = pgTable(
  'configuration_payment_methods',
  {
    configurationId: text('configuration_id')
      .notNull()
      .references(() => configurations.id, { onDelete: 'cascade' }),
    paymentMethod: text('payment_method').notNull(),
    enabled: boolean('enabled').notNull().default(false),
    displayName: text('display_name').notNull(),
    threeDSecurePolicy: text('three_d_secure_policy').$type<'always' | 'riskBased' | 'never'>(),
    minimumAmountMilli: bigint('minimum_amount_milli', { mode: 'number' }),
    maximumAmountMilli: bigint('maximum_amount_milli', { mode: 'number' }),
    currencies: text('currencies').array().notNull(),
  },
  (t) => [primaryKey({ columns: [t.configurationId, t.paymentMethod] })],
);

export type HostedPageDesign = {
  logoImageReference: string | null;
  colours: { brand: string; background: string; text: string; buttonBackground: string; buttonText: string };
  font: string;
  texts: { title: string; description: string; payButtonLabel: string; footer: string };
  paymentMethodOrder: string[];
  showOrderLines: boolean;
  returnUrls: { success: string; cancel: string; failure: string };
};

export const hostedPages = pgTable(
  'hosted_pages',
  {
    reference: text('reference').primaryKey(),
    configurationId: text('configuration_id')
      .notNull()
      .references(() => configurations.id, { onDelete: 'cascade' }),
    businessId: text('business_id').notNull(),
    merchantId: text('merchant_id').notNull(),
    name: text('name').notNull(),
    design: jsonb('design').$type<HostedPageDesign>().notNull(),
    createdAt: utc('created_at').notNull().defaultNow().$defaultFn(now),
    updatedAt: utc('updated_at').notNull().defaultNow().$defaultFn(now),
  },
  (t) => [index('hosted_pages_configuration_idx').on(t.configurationId, t.name, t.reference)],
);

/** Logos and other images, kept in the FileStore (filePath); the reference is opaque and unguessable. */
export const images = pgTable(
  'images',
  {
    reference: text('reference').primaryKey(),
    businessId: text('business_id').notNull(),
    merchantId: text('merchant_id'),
    configurationId: text('configuration_id'),
    mimeType: text('mime_type').notNull(),
    width: integer('width').notNull(),
    height: integer('height').notNull(),
    byteSize: integer('byte_size').notNull(),
    filePath: text('file_path').notNull(),
    createdBy: text('created_by').notNull(),
    createdAt: utc('created_at').notNull().defaultNow().$defaultFn(now),
  },
  (t) => [index('images_owner_idx').on(t.businessId, t.merchantId, t.configurationId)],
);

/** API keys of a configuration: only a SHA-256 of the secret is kept; the prefix identifies a key on screen. */
export const apiKeys = pgTable(
  'api_keys',
  {
    id: text('id').primaryKey(),
    configurationId: text('configuration_id')
      .notNull()
      .references(() => configurations.id, { onDelete: 'cascade' }),
    businessId: text('business_id').notNull(),
    merchantId: text('merchant_id').notNull(),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    prefix: text('prefix').notNull(),
    keyHash: text('key_hash').notNull(),
    expiresAt: utc('expires_at'),
    revokedAt: utc('revoked_at'),
    /** the key this one replaces while the replacement is pending (step 1 done, step 2 not yet) */
    replacesId: text('replaces_id'),
    replacementCompletedAt: utc('replacement_completed_at'),
    expiryWarnedAt: utc('expiry_warned_at'),
    createdBy: text('created_by').notNull(),
    createdAt: utc('created_at').notNull().defaultNow().$defaultFn(now),
  },
  (t) => [uniqueIndex('api_keys_hash_idx').on(t.keyHash), index('api_keys_configuration_idx').on(t.configurationId, t.createdAt)],
);
// ── ledger ──
// The settlement ledger (server/ledger/): double-entry, money in minor units of one currency per entry, and the
// entries of every posting sum to zero. Balances and statements are sums of entries, read through day checkpoints
// (ledger_daily_balances) written with the entries.

export type LedgerAccountKind = 'trading' | 'reserve' | 'security' | 'remittance' | 'invoice' | 'costs' | 'business' | 'clearing' | 'bank';

/** One per merchant and currency: the accounts a merchant's settlement runs through, numbered for people. */
export const merchantAccountGroups = pgTable(
  'merchant_account_groups',
  {
    accountNumber: text('account_number').primaryKey(),
    businessId: text('business_id').notNull(),
    merchantId: text('merchant_id').notNull(),
    currency: text('currency').notNull(),
    /** share of each day's net sales held in the reserve account, in basis points (0 = none) */
    reserveBasisPoints: integer('reserve_basis_points').notNull().default(0),
    /** days a reserve hold stays before its release */
    reserveDays: integer('reserve_days').notNull().default(90),
    createdAt: utc('created_at').notNull().defaultNow().$defaultFn(now),
  },
  (t) => [uniqueIndex('merchant_account_groups_merchant_idx').on(t.merchantId, t.currency)],
);

/** One per business and currency where automatic remittance is off: merchants' payouts gather here. */
export const businessAccountGroups = pgTable(
  'business_account_groups',
  {
    accountNumber: text('account_number').primaryKey(),
    businessId: text('business_id').notNull(),
    currency: text('currency').notNull(),
    createdAt: utc('created_at').notNull().defaultNow().$defaultFn(now),
  },
  (t) => [uniqueIndex('business_account_groups_business_idx').on(t.businessId, t.currency)],
);

/** Accounts of the groups above, plus the provider's own clearing and bank accounts per currency. */
export const ledgerAccounts = pgTable(
  'ledger_accounts',
  {
    id: text('id').primaryKey(),
    owner: text('owner').$type<'merchant' | 'business' | 'provider'>().notNull(),
    accountNumber: text('account_number'),
    kind: text('kind').$type<LedgerAccountKind>().notNull(),
    businessId: text('business_id'),
    merchantId: text('merchant_id'),
    currency: text('currency').notNull(),
  },
  (t) => [index('ledger_accounts_group_idx').on(t.accountNumber, t.kind)],
);

/** A balanced set of entries; its id is its idempotency key ('sale:T…', 'batch:B…:payout'). */
export const ledgerPostings = pgTable(
  'ledger_postings',
  {
    id: text('id').primaryKey(),
    category: text('category').notNull(),
    transactionReference: text('transaction_reference'),
    batchId: text('batch_id'),
    businessId: text('business_id').notNull(),
    merchantId: text('merchant_id'),
    currency: text('currency').notNull(),
    valueAt: utc('value_at').notNull(),
    postedAt: utc('posted_at').notNull().defaultNow().$defaultFn(now),
  },
  (t) => [index('ledger_postings_transaction_idx').on(t.transactionReference), index('ledger_postings_category_idx').on(t.category, t.valueAt)],
);

export const ledgerEntries = pgTable(
  'ledger_entries',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    postingId: text('posting_id').notNull(),
    accountId: text('account_id').notNull(),
    businessId: text('business_id').notNull(),
    merchantId: text('merchant_id'),
    category: text('category').notNull(),
    /** positive: the account's holder is owed more (credit); negative: less */
    amountMinor: bigint('amount_minor', { mode: 'number' }).notNull(),
    currency: text('currency').notNull(),
    valueAt: utc('value_at').notNull(),
    transactionReference: text('transaction_reference'),
    batchId: text('batch_id'),
  },
  (t) => [
    index('ledger_entries_account_idx').on(t.accountId, t.valueAt, t.id),
    /** a statement page sorted by amount reads its 25 rows from here, not by sorting the period */
    index('ledger_entries_account_amount_idx').on(t.accountId, t.amountMinor, t.id),
    index('ledger_entries_batch_idx').on(t.batchId, t.accountId),
    index('ledger_entries_posting_idx').on(t.postingId),
  ],
);

/**
 * Checkpoints of the ledger: per account, business day (in the account's business's zone, server/ledger/periods.ts)
 * and category, the credits and debits of that day's entries. Written in the same statement as the entries
 * (server/ledger/daily-balances.ts), so always their sum; a statement reads its opening balance, totals and running
 * balances from here instead of summing a whole period. The provider's own accounts (no business) have none: every
 * payment posts to them, and one row per currency and day would serialise every payment.
 */
export const ledgerDailyBalances = pgTable(
  'ledger_daily_balances',
  {
    accountId: text('account_id').notNull(),
    day: date('day', { mode: 'string' }).notNull(),
    category: text('category').notNull(),
    credits: integer('credits').notNull(),
    /** sum of the entries of zero and above */
    creditsMinor: bigint('credits_minor', { mode: 'number' }).notNull(),
    debits: integer('debits').notNull(),
    /** sum of the negative entries (zero or below) */
    debitsMinor: bigint('debits_minor', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.day, t.category] })],
);

/** The merchant's pricing plan per currency: the monthly minimum of fees (topped up at month end). */
export const pricingPlans = pgTable(
  'pricing_plans',
  {
    merchantId: text('merchant_id').notNull(),
    businessId: text('business_id').notNull(),
    currency: text('currency').notNull(),
    name: text('name').notNull(),
    monthlyMinimumMinor: bigint('monthly_minimum_minor', { mode: 'number' }).notNull().default(0),
    validFrom: utc('valid_from').notNull(),
  },
  (t) => [primaryKey({ columns: [t.merchantId, t.currency] }), index('pricing_plans_business_idx').on(t.businessId)],
);

/** Per payment method: a percentage (basis points) plus a fixed amount (minor units) per paid payment. */
export const pricingPlanRates = pgTable(
  'pricing_plan_rates',
  {
    merchantId: text('merchant_id').notNull(),
    currency: text('currency').notNull(),
    paymentMethod: text('payment_method').notNull(),
    percentageBasisPoints: integer('percentage_basis_points').notNull(),
    fixedMinor: bigint('fixed_minor', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.merchantId, t.currency, t.paymentMethod] })],
);

/** Daily settlement batch per merchant account group: Open until the day's cut-off (UTC midnight), then Closed. */
export const settlementBatches = pgTable(
  'settlement_batches',
  {
    id: text('id').primaryKey(),
    accountNumber: text('account_number').notNull(),
    businessId: text('business_id').notNull(),
    merchantId: text('merchant_id').notNull(),
    currency: text('currency').notNull(),
    batchStart: utc('batch_start').notNull(),
    status: text('status').$type<'Open' | 'Closed'>().notNull(),
    salesCount: integer('sales_count').notNull().default(0),
    salesMinor: bigint('sales_minor', { mode: 'number' }).notNull().default(0),
    refundsMinor: bigint('refunds_minor', { mode: 'number' }).notNull().default(0),
    reversalsMinor: bigint('reversals_minor', { mode: 'number' }).notNull().default(0),
    feesMinor: bigint('fees_minor', { mode: 'number' }).notNull().default(0),
    reserveMinor: bigint('reserve_minor', { mode: 'number' }).notNull().default(0),
    /** what the batch paid out (closed batches): the trading account's movement of the batch, before the payout */
    netMinor: bigint('net_minor', { mode: 'number' }).notNull().default(0),
    closedAt: utc('closed_at'),
  },
  (t) => [uniqueIndex('settlement_batches_group_day_idx').on(t.accountNumber, t.batchStart), index('settlement_batches_open_idx').on(t.status, t.batchStart)],
);

/** Money leaving a group for the bank: a merchant group's daily payout or a business group's scheduled remittance. */
export const ledgerTransfers = pgTable(
  'ledger_transfers',
  {
    id: text('id').primaryKey(),
    accountNumber: text('account_number').notNull(),
    groupKind: text('group_kind').$type<'merchant' | 'business'>().notNull(),
    businessId: text('business_id').notNull(),
    merchantId: text('merchant_id'),
    currency: text('currency').notNull(),
    transferDate: utc('transfer_date').notNull(),
    maturityDate: utc('maturity_date').notNull(),
    amountMinor: bigint('amount_minor', { mode: 'number' }).notNull(),
    saleAmountMinor: bigint('sale_amount_minor', { mode: 'number' }).notNull(),
    batchId: text('batch_id'),
  },
  (t) => [index('ledger_transfers_group_idx').on(t.accountNumber, t.transferDate, t.id)],
);

export type RemittanceBeneficiary = { companyName?: string; givenName?: string; familyName?: string; dateOfBirth?: string };

/** The remittance schedule and beneficiary of a business account group (automatic remittance off). */
export const remittanceSettings = pgTable('remittance_settings', {
  accountNumber: text('account_number').primaryKey(),
  businessId: text('business_id').notNull(),
  frequency: text('frequency').$type<'daily' | 'weekly' | 'monthly'>().notNull(),
  /** 1 (Monday) … 7 for weekly; 1 … 28 for monthly */
  dayOfPeriod: integer('day_of_period').notNull().default(1),
  startDate: text('start_date').notNull(),
  nextPaymentDate: text('next_payment_date').notNull(),
  nextScheduleDate: text('next_schedule_date').notNull(),
  beneficiary: jsonb('beneficiary').$type<RemittanceBeneficiary>().notNull(),
  ibanMasked: text('iban_masked').notNull(),
  version: integer('version').notNull().default(1),
  updatedAt: utc('updated_at').notNull().defaultNow().$defaultFn(now),
});
// ── risk: customers, beneficiaries and screening, account watch list ──

/** A merchant's stored customers: addresses and phone numbers as the spec's Address fields. */
export type CustomerAddress = {
  title?: string | null;
  firstName?: string | null;
  middleName?: string | null;
  lastName?: string | null;
  addressLine1?: string | null;
  addressLine2?: string | null;
  organisation?: string | null;
  department?: string | null;
  zipCode?: string | null;
  city?: string | null;
  stateProvince?: string | null;
  countryIso3166Alpha2?: string | null;
  phoneNumber1?: string | null;
  phoneNumber1Type?: 'Unknown' | 'Mobile' | 'Fixed' | null;
  phoneNumber2?: string | null;
  phoneNumber2Type?: 'Unknown' | 'Mobile' | 'Fixed' | null;
};

export const customers = pgTable(
  'customers',
  {
    id: text('id').primaryKey(),
    businessId: text('business_id')
      .notNull()
      .references(() => businesses.id),
    merchantId: text('merchant_id')
      .notNull()
      .references(() => merchants.id),
    reference: text('reference').notNull(),
    title: text('title'),
    firstName: text('first_name').notNull(),
    middleName: text('middle_name'),
    lastName: text('last_name').notNull(),
    emailAddress: text('email_address'),
    dateOfBirth: text('date_of_birth'),
    billingAddress: jsonb('billing_address').$type<CustomerAddress>(),
    shippingAddress: jsonb('shipping_address').$type<CustomerAddress>(),
    createdUtc: utc('created_utc').notNull().defaultNow().$defaultFn(now),
    lastUpdatedUtc: utc('last_updated_utc').notNull().defaultNow().$defaultFn(now),
    version: integer('version').notNull().default(1),
  },
  (t) => [
    uniqueIndex('customers_merchant_reference_idx').on(t.merchantId, t.reference),
    index('customers_merchant_name_idx').on(t.merchantId, t.lastName, t.firstName, t.id),
    index('customers_merchant_created_idx').on(t.merchantId, t.createdUtc, t.id),
    index('customers_id_pattern_idx').on(t.id.op('text_pattern_ops')),
    index('customers_reference_pattern_idx').on(t.reference.op('text_pattern_ops')),
  ],
);

export type CustomerDataKind = 'savedCard' | 'address' | 'consent';

/**
 * What a merchant keeps about a customer beyond the record: saved cards (a card vault token and what may be shown),
 * extra addresses, consents. Erasing an item erases what it points at (a saved card's vault row).
 */
export const customerData = pgTable(
  'customer_data',
  {
    id: text('id').primaryKey(),
    customerId: text('customer_id')
      .notNull()
      .references(() => customers.id, { onDelete: 'cascade' }),
    merchantId: text('merchant_id').notNull(),
    kind: text('kind').$type<CustomerDataKind>().notNull(),
    /** savedCard: { cardToken, maskedCardNumber, expiryMonth, expiryYear, cardholderName }; address: CustomerAddress; consent: { purpose, granted, grantedUtc } */
    value: jsonb('value').$type<Record<string, unknown>>().notNull(),
    createdUtc: utc('created_utc').notNull().defaultNow().$defaultFn(now),
  },
  (t) => [index('customer_data_customer_idx').on(t.customerId, t.createdUtc)],
);

export type BeneficiaryStatus = 'Approved' | 'Referred' | 'Rejected';

/** A business's payout beneficiaries: screened against screening_list_entries on creation and on every change. */
export const beneficiaries = pgTable(
  'beneficiaries',
  {
    id: text('id').primaryKey(),
    businessId: text('business_id')
      .notNull()
      .references(() => businesses.id),
    kind: text('kind').$type<'company' | 'person'>().notNull(),
    companyName: text('company_name'),
    firstName: text('first_name'),
    lastName: text('last_name'),
    dateOfBirth: text('date_of_birth'),
    countryIso3166Alpha2: text('country_iso3166_alpha2'),
    nameOnBankAccount: text('name_on_bank_account').notNull(),
    iban: text('iban').notNull(),
    bic: text('bic').notNull(),
    status: text('status').$type<BeneficiaryStatus>().notNull(),
    createdBy: text('created_by').notNull(),
    lastChangedBy: text('last_changed_by').notNull(),
    statusChangedBy: text('status_changed_by'),
    /** when statusChangedBy approved or rejected it; equal to lastUpdatedUtc while that status change is the latest change */
    statusChangedUtc: utc('status_changed_utc'),
    createdUtc: utc('created_utc').notNull().defaultNow().$defaultFn(now),
    lastUpdatedUtc: utc('last_updated_utc').notNull().defaultNow().$defaultFn(now),
    version: integer('version').notNull().default(1),
  },
  (t) => [
    index('beneficiaries_business_created_idx').on(t.businessId, t.createdUtc, t.id),
    index('beneficiaries_business_status_idx').on(t.businessId, t.status, t.id),
  ],
);

/** The sanctions and politically-exposed-persons list screened against (fictional in the seed). */
export const screeningListEntries = pgTable('screening_list_entries', {
  id: text('id').primaryKey(),
  list: text('list').$type<'sanctions' | 'pep'>().notNull(),
  kind: text('kind').$type<'person' | 'company'>().notNull(),
  name: text('name').notNull(),
  aliases: text('aliases').array().notNull(),
  dateOfBirth: text('date_of_birth'),
  country: text('country'),
  /** why the entry is listed: a sanctions programme or a public function */
  reason: text('reason').notNull(),
});

export type ScreeningAlertStatus = 'open' | 'confirmed' | 'dismissed';

/** One possible match of a beneficiary against a list entry, resolved by a risk analyst. */
export const screeningAlerts = pgTable(
  'screening_alerts',
  {
    id: text('id').primaryKey(),
    beneficiaryId: text('beneficiary_id')
      .notNull()
      .references(() => beneficiaries.id, { onDelete: 'cascade' }),
    businessId: text('business_id').notNull(),
    entryId: text('entry_id')
      .notNull()
      .references(() => screeningListEntries.id),
    /** 0..1000: the fuzzy name score with the date of birth taken into account, in thousandths */
    score: integer('score_permille').notNull(),
    matchedName: text('matched_name').notNull(),
    screenedName: text('screened_name').notNull(),
    status: text('status').$type<ScreeningAlertStatus>().notNull(),
    reason: text('reason'),
    resolvedBy: text('resolved_by'),
    resolvedUtc: utc('resolved_utc'),
    createdUtc: utc('created_utc').notNull().defaultNow().$defaultFn(now),
    version: integer('version').notNull().default(1),
  },
  (t) => [index('screening_alerts_beneficiary_idx').on(t.beneficiaryId, t.createdUtc), index('screening_alerts_status_idx').on(t.status, t.createdUtc)],
);

/** Settings of the risk area, one row per key (screening sensitivity). */
export const riskSettings = pgTable('risk_settings', {
  key: text('key').primaryKey(),
  value: text('value').notNull(),
  updatedBy: text('updated_by'),
  updatedUtc: utc('updated_utc').notNull().defaultNow().$defaultFn(now),
  version: integer('version').notNull().default(1),
});

/** Risk signals per merchant and UTC day, refreshed incrementally from transactions (server/risk/watch-signals.ts). */
export const merchantRiskSignalsDaily = pgTable(
  'merchant_risk_signals_daily',
  {
    merchantId: text('merchant_id').notNull(),
    businessId: text('business_id').notNull(),
    day: utc('day').notNull(),
    payments: integer('payments').notNull().default(0),
    paid: integer('paid').notNull().default(0),
    declined: integer('declined').notNull().default(0),
    /** declined payments under the card-testing amount (thresholds: smallDeclineMilli) */
    smallDeclines: integer('small_declines').notNull().default(0),
    refunds: integer('refunds').notNull().default(0),
    /** paid volume in thousandths of the major unit (amount_milli), all currencies on one scale */
    paidMilli: bigint('paid_milli', { mode: 'number' }).notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.merchantId, t.day] }), index('merchant_risk_signals_daily_day_idx').on(t.day)],
);

export type WatchEntryStatus = 'open' | 'acknowledged' | 'monitoring';

/** A merchant on the watch list: its latest score and signals, and what risk analysts did about it. */
export const watchListEntries = pgTable(
  'watch_list_entries',
  {
    merchantId: text('merchant_id').primaryKey(),
    businessId: text('business_id').notNull(),
    score: integer('score').notNull(),
    signals: jsonb('signals').$type<{ signal: string; value: number; threshold: number; since?: string }[]>().notNull(),
    /** the last 30 daily scores, oldest first */
    trend: jsonb('trend').$type<number[]>().notNull(),
    status: text('status').$type<WatchEntryStatus>().notNull(),
    firstFlaggedUtc: utc('first_flagged_utc').notNull(),
    lastComputedUtc: utc('last_computed_utc').notNull(),
    statusChangedBy: text('status_changed_by'),
    statusChangedUtc: utc('status_changed_utc'),
    version: integer('version').notNull().default(1),
    /** the support ticket the entry was escalated to (in the merchant's business), null until escalated */
    ticketId: text('ticket_id'),
  },
  (t) => [index('watch_list_entries_score_idx').on(t.score, t.merchantId)],
);

export const watchListNotes = pgTable(
  'watch_list_notes',
  {
    id: text('id').primaryKey(),
    merchantId: text('merchant_id').notNull(),
    authorId: text('author_id').notNull(),
    text: text('text').notNull(),
    createdUtc: utc('created_utc').notNull().defaultNow().$defaultFn(now),
  },
  (t) => [index('watch_list_notes_merchant_idx').on(t.merchantId, t.createdUtc)],
);
// ── payments ──

export type PaymentRefundStatus = 'requested' | 'processing' | 'completed' | 'failed' | 'cancelled';
export type PaymentStepRecord = { step: string; dateTimeUtc: string; amountMinor?: number; detail?: string };

/**
 * What a refund is beyond its transactions row (kind 'refund', same reference): reason, note, where it is in its
 * steps. Refunds made before this table (the bulk seed) have no row; their status is read from the transaction.
 */
export const paymentRefunds = pgTable(
  'payment_refunds',
  {
    refundId: text('refund_id').primaryKey(),
    paymentId: text('payment_id').notNull(),
    paymentJobReference: text('payment_job_reference').notNull(),
    status: text('status').$type<PaymentRefundStatus>().notNull(),
    reason: text('reason').notNull(),
    note: text('note'),
    notifyCustomer: boolean('notify_customer').notNull().default(false),
    steps: jsonb('steps').$type<PaymentStepRecord[]>().notNull(),
    requestedBy: text('requested_by'),
    createdAt: utc('created_at').notNull(),
    updatedAt: utc('updated_at').notNull(),
  },
  (t) => [index('payment_refunds_payment_idx').on(t.paymentId)],
);

/** Steps of a payment after its authorisation (voided, cancelled, captured…), appended by server/payments/. */
export const paymentSteps = pgTable(
  'payment_steps',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    paymentId: text('payment_id').notNull(),
    paymentJobReference: text('payment_job_reference').notNull(),
    step: text('step').notNull(),
    amountMinor: bigint('amount_minor', { mode: 'number' }),
    detail: text('detail'),
    dateTimeUtc: utc('date_time_utc').notNull(),
  },
  (t) => [index('payment_steps_payment_idx').on(t.paymentId, t.id)],
);

/**
 * Idempotency-Key of the payment actions, per user: the first answer is kept, so the same key and body answer it
 * again without acting; the same key with another body is a 422. Written in the action's database transaction.
 */
export const paymentIdempotencyKeys = pgTable(
  'payment_idempotency_keys',
  {
    userId: text('user_id').notNull(),
    idempotencyKey: text('idempotency_key').notNull(),
    requestFingerprint: text('request_fingerprint').notNull(),
    responseStatus: integer('response_status').notNull(),
    responseBody: jsonb('response_body').notNull(),
    createdAt: utc('created_at').notNull().defaultNow().$defaultFn(now),
  },
  (t) => [primaryKey({ columns: [t.userId, t.idempotencyKey] })],
);

/** Time-based one-time passwords (RFC 6238): the secret sealed with the card data key (AES-256-GCM, user id as AAD). */
export const userSecondFactors = pgTable('user_second_factors', {
  userId: text('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  keyId: text('key_id').notNull(),
  sealed: text('sealed').notNull(),
  /** 'pending' until the first code is confirmed, then 'active' */
  status: text('status').$type<'pending' | 'active'>().notNull(),
  /** the last 30-second step accepted: a code is never accepted twice */
  lastUsedStep: bigint('last_used_step', { mode: 'number' }).notNull().default(0),
  /** SHA-256 of each unused recovery code */
  recoveryCodeHashes: text('recovery_code_hashes').array().notNull().default(sql`'{}'::text[]`),
  createdAt: utc('created_at').notNull().defaultNow().$defaultFn(now),
  activatedAt: utc('activated_at'),
});

/** Between the password and the second factor at sign-in: a single-use ticket, 10 minutes, 5 attempts. */
export const signInChallenges = pgTable(
  'sign_in_challenges',
  {
    id: text('id').primaryKey(),
    tokenHash: text('token_hash').notNull(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    passwordExpired: boolean('password_expired').notNull().default(false),
    attempts: integer('attempts').notNull().default(0),
    expiresAt: utc('expires_at').notNull(),
    usedAt: utc('used_at'),
  },
  (t) => [uniqueIndex('sign_in_challenges_token_idx').on(t.tokenHash)],
);

/**
 * The live events every signed-in tab's stream carries (server/events/), kept so a stream that reconnects with
 * Last-Event-ID receives what it missed on any node. Events carry no data of any tenant: they say what to refresh.
 */
export const portalEvents = pgTable('portal_events', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  kind: text('kind').notNull(),
  /** kind 'record': what changed (a resource and its id), and whose it is: only streams that may read it are told */
  resource: text('resource'),
  resourceId: text('resource_id'),
  businessId: text('business_id'),
  merchantId: text('merchant_id'),
  /** an event for one user only (their report's generation) */
  userId: text('user_id'),
  createdUtc: utc('created_utc').notNull().defaultNow().$defaultFn(now),
});
/** A change of one's own email address, confirmed from a link sent to the new address (24 hours, single use). */
export const emailChanges = pgTable(
  'email_changes',
  {
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    newEmail: text('new_email').notNull(),
    tokenHash: text('token_hash').notNull(),
    createdAt: utc('created_at').notNull().defaultNow().$defaultFn(now),
    expiresAt: utc('expires_at').notNull(),
    usedAt: utc('used_at'),
    // ── The old address is told at once, with a link that undoes the change (before or after it applies) ──
    oldEmail: text('old_email'),
    undoTokenHash: text('undo_token_hash'),
    undoExpiresAt: utc('undo_expires_at'),
    /** when the link sent to the new address applied the change */
    confirmedAt: utc('confirmed_at'),
    undoneAt: utc('undone_at'),
  },
  (t) => [
    uniqueIndex('email_changes_token_idx').on(t.tokenHash),
    uniqueIndex('email_changes_undo_token_idx').on(t.undoTokenHash),
    index('email_changes_user_idx').on(t.userId),
  ],
);
// ── virtual terminal ──
/**
 * The virtual terminal's settings of a configuration; no row means the defaults. Saved with the
 * configuration's shared version (configurations.version): a write sends the version it read and raises it.
 */
export const virtualTerminalSettings = pgTable('virtual_terminal_settings', {
  configurationId: text('configuration_id')
    .primaryKey()
    .references(() => configurations.id, { onDelete: 'cascade' }),
  defaultCurrency: text('default_currency'),
  orderConfirmationEmails: boolean('order_confirmation_emails').notNull().default(false),
  savedCardsAllowed: boolean('saved_cards_allowed').notNull().default(true),
  savedCardLimit: integer('saved_card_limit').notNull().default(5),
  defaultOrderLineType: text('default_order_line_type').notNull().default('physicalItem'),
  askShippingAddress: boolean('ask_shipping_address').notNull().default(true),
  updatedAt: utc('updated_at').notNull().defaultNow().$defaultFn(now),
});
// ── partners: commission plans ──
/** A partner's commission plan, valid over UTC calendar dates (validTo inclusive, null: open-ended). */
export const commissionPlans = pgTable(
  'commission_plans',
  {
    id: text('id').primaryKey(),
    partnerId: text('partner_id')
      .notNull()
      .references(() => partners.id),
    name: text('name').notNull(),
    validFrom: text('valid_from').notNull(),
    validTo: text('valid_to'),
    version: integer('version').notNull().default(1),
    createdAt: utc('created_at').notNull().defaultNow().$defaultFn(now),
  },
  (t) => [index('commission_plans_partner_idx').on(t.partnerId, t.validFrom)],
);

/**
 * One rule of a plan: a share of each fee (basis points) and/or a fixed amount per fee-bearing transaction, for a
 * band of the partner's monthly volume [from, to) and optional conditions; the lowest priority number that matches wins.
 */
export const commissionRules = pgTable(
  'commission_rules',
  {
    id: text('id').primaryKey(),
    planId: text('plan_id')
      .notNull()
      .references(() => commissionPlans.id, { onDelete: 'cascade' }),
    priority: integer('priority').notNull(),
    description: text('description').notNull(),
    volumeFromMinor: bigint('volume_from_minor', { mode: 'number' }).notNull().default(0),
    volumeToMinor: bigint('volume_to_minor', { mode: 'number' }),
    percentageBasisPoints: integer('percentage_basis_points').notNull().default(0),
    fixedMinor: bigint('fixed_minor', { mode: 'number' }).notNull().default(0),
    channel: text('channel'),
    currency: text('currency'),
    paymentMethod: text('payment_method'),
    cardType: text('card_type'),
  },
  (t) => [uniqueIndex('commission_rules_plan_priority_idx').on(t.planId, t.priority)],
);

// ── billing ──
/** One monthly billing run; the month is unique, so a second run of the same month is refused (409). */
export const billingRuns = pgTable(
  'billing_runs',
  {
    id: text('id').primaryKey(),
    /** 'YYYY-MM' (UTC month) */
    month: text('month').notNull(),
    createdBy: text('created_by').notNull(),
    createdUtc: utc('created_utc').notNull().defaultNow().$defaultFn(now),
    invoiceCount: integer('invoice_count').notNull(),
  },
  (t) => [uniqueIndex('billing_runs_month_idx').on(t.month)],
);

/**
 * An issued invoice or credit note (a negative invoice referencing the original). Never edited once issued: only
 * its payment status and version change. Lines are kept as issued (jsonb). Overdue is derived from dueUtc.
 */
export const invoices = pgTable(
  'invoices',
  {
    id: text('id').primaryKey(),
    /** INV-2026-000123 or CN-2026-000007: gapless per series and year (invoice_counters) */
    number: text('number').notNull(),
    kind: text('kind').$type<'invoice' | 'creditNote'>().notNull(),
    runId: text('run_id'),
    month: text('month').notNull(),
    businessId: text('business_id').notNull(),
    currency: text('currency').notNull(),
    status: text('status').$type<'issued' | 'paid'>().notNull(),
    issuedUtc: utc('issued_utc').notNull(),
    dueUtc: utc('due_utc').notNull(),
    paidUtc: utc('paid_utc'),
    feesMinor: bigint('fees_minor', { mode: 'number' }).notNull(),
    minimumTopUpMinor: bigint('minimum_top_up_minor', { mode: 'number' }).notNull(),
    totalMinor: bigint('total_minor', { mode: 'number' }).notNull(),
    lines: jsonb('lines')
      .$type<
        {
          merchantId: string;
          merchantName: string;
          paymentMethod: string | null;
          description: string;
          transactionCount: number;
          volumeMinor: number;
          feesMinor: number;
          minimumTopUpMinor: number;
          amountMinor: number;
        }[]
      >()
      .notNull(),
    creditedInvoiceId: text('credited_invoice_id'),
    reason: text('reason'),
    createdBy: text('created_by').notNull(),
    version: integer('version').notNull().default(1),
  },
  (t) => [
    uniqueIndex('invoices_number_idx').on(t.number),
    index('invoices_business_idx').on(t.businessId, t.issuedUtc),
    index('invoices_month_idx').on(t.month, t.businessId),
    index('invoices_credited_idx').on(t.creditedInvoiceId),
  ],
);

/** The last number used per series ('INV', 'CN') and year, raised in the transaction that issues the document. */
export const invoiceCounters = pgTable(
  'invoice_counters',
  {
    series: text('series').notNull(),
    year: integer('year').notNull(),
    last: integer('last').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.series, t.year] })],
);
// ── sign-in security ──
/**
 * Every password sign-in attempt (and step-up), written before the password is checked: the sliding windows that
 * throttle per client address and per email count these rows, so the limits hold across every node.
 */
export const signInAttempts = pgTable(
  'sign_in_attempts',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    /** the email as typed, trimmed and lower-cased (at most 320 characters) */
    emailKey: text('email_key').notNull(),
    address: text('address').notNull(),
    userId: text('user_id'),
    /**
     * 'pending' while the password is checked, counted like a failure. 'probe': a request of the shopper's page for a
     * payment link that does not exist (emailKey 'pay:' and the reference tried), counted per address by
     * server/api/shopper-page.ts and never by the sign-in throttles
     */
    outcome: text('outcome').$type<'pending' | 'succeeded' | 'failed' | 'throttled' | 'probe'>().notNull(),
    attemptedAt: utc('attempted_at').notNull().defaultNow().$defaultFn(now),
    /** the provider's sign-in interaction (one sign-in page) the attempt was posted on; null for step-up checks */
    interactionId: text('interaction_id'),
  },
  (t) => [
    index('sign_in_attempts_address_idx').on(t.address, t.attemptedAt),
    index('sign_in_attempts_email_idx').on(t.emailKey, t.attemptedAt),
    index('sign_in_attempts_interaction_idx').on(t.interactionId, t.attemptedAt),
  ],
);

/** A recent re-entry of the password (and code) in one session: sensitive actions need one (5 minutes). */
export const stepUpGrants = pgTable(
  'step_up_grants',
  {
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** the provider grant of the session that stepped up ('' for tokens that name none, in tests) */
    sessionKey: text('session_key').notNull(),
    expiresAt: utc('expires_at').notNull(),
    createdAt: utc('created_at').notNull().defaultNow().$defaultFn(now),
  },
  (t) => [primaryKey({ columns: [t.userId, t.sessionKey] })],
);
// ── bulk jobs ──
/**
 * A bulk action over a selection, run on the server (server/bulk/): the selection is a filter in a scope (the
 * context it was made in) plus explicit picks, never a browser's list of every id. Leased like the report queue:
 * a node that dies mid-job loses its presence lock and another takes over from `cursor` (the last item done, in
 * item-id order). (user_id, client_key) makes a retried create return the first job.
 */
export const bulkJobs = pgTable(
  'bulk_jobs',
  {
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    clientKey: text('client_key').notNull(),
    /** sha-256 of what the job was asked to do: the same key with another request is a 422 */
    requestFingerprint: text('request_fingerprint').notNull(),
    area: text('area').notNull(),
    action: text('action').notNull(),
    /** { level, partnerId?, businessId?, merchantId? } the selection was made in; re-resolved when the job runs */
    scope: jsonb('scope').notNull(),
    /** the overview's filters as its query parameters (validated against the area's list spec) */
    filters: jsonb('filters').notNull(),
    /** true: every item matching the filters, minus excludedIds; false: only includedIds (that still match the scope) */
    allMatching: boolean('all_matching').notNull(),
    includedIds: jsonb('included_ids').$type<string[]>().notNull(),
    excludedIds: jsonb('excluded_ids').$type<string[]>().notNull(),
    params: jsonb('params').notNull(),
    status: text('status').$type<'queued' | 'running' | 'completed' | 'cancelled' | 'failed'>().notNull(),
    cancelRequested: boolean('cancel_requested').notNull().default(false),
    totalItems: integer('total_items').notNull().default(0),
    processedItems: integer('processed_items').notNull().default(0),
    succeededItems: integer('succeeded_items').notNull().default(0),
    failedItems: integer('failed_items').notNull().default(0),
    /** the id of the last item handled: the next attempt goes on after it */
    cursor: text('cursor'),
    attempts: integer('attempts').notNull().default(0),
    lockedBy: text('locked_by'),
    lockedUntil: utc('locked_until'),
    /** export: the queued report that makes the file (server/reports/) */
    reportId: text('report_id'),
    resultPath: text('result_path'),
    error: text('error'),
    createdAt: utc('created_at').notNull().defaultNow().$defaultFn(now),
    finishedAt: utc('finished_at'),
  },
  (t) => [uniqueIndex('bulk_jobs_client_key_idx').on(t.userId, t.clientKey), index('bulk_jobs_claim_idx').on(t.status, t.createdAt)],
);

/** What happened to each item of a bulk job: written in the same transaction as the item's change (exactly once). */
export const bulkJobItems = pgTable(
  'bulk_job_items',
  {
    jobId: text('job_id')
      .notNull()
      .references(() => bulkJobs.id, { onDelete: 'cascade' }),
    itemId: text('item_id').notNull(),
    outcome: text('outcome').$type<'succeeded' | 'failed'>().notNull(),
    reason: text('reason'),
    at: utc('at').notNull().defaultNow().$defaultFn(now),
  },
  (t) => [primaryKey({ columns: [t.jobId, t.itemId] })],
);
// ── filter presets ──
/**
 * Saved filters of a page: personal (owner only), shared with everyone on a business (business_id), or shared with
 * an internal role (role). relative_date keeps a date dropdown preset ('lastMonth') as relative. At most one
 * default preset per page and business (is_default, business-shared presets only).
 */
export const filterPresets = pgTable(
  'filter_presets',
  {
    id: text('id').primaryKey(),
    page: text('page').notNull(),
    name: text('name').notNull(),
    filters: jsonb('filters').$type<Record<string, string>>().notNull().default({}),
    relativeDate: text('relative_date'),
    sharing: text('sharing').$type<'personal' | 'business' | 'role'>().notNull(),
    ownerId: text('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    businessId: text('business_id').references(() => businesses.id, { onDelete: 'cascade' }),
    role: text('role'),
    isDefault: boolean('is_default').notNull().default(false),
    version: integer('version').notNull().default(1),
    createdUtc: utc('created_utc').notNull().defaultNow().$defaultFn(now),
    updatedUtc: utc('updated_utc').notNull().defaultNow().$defaultFn(now),
  },
  (t) => [
    index('filter_presets_owner_idx').on(t.ownerId, t.page),
    index('filter_presets_business_idx').on(t.businessId, t.page),
    index('filter_presets_role_idx').on(t.role, t.page),
    uniqueIndex('filter_presets_default_idx').on(t.page, t.businessId).where(sql`${t.isDefault}`),
  ],
);
// ── scheduled statements ──
/**
 * A statement or ledger report a user receives on a schedule (daily, weekly on a weekday, monthly on a day) at an
 * hour of their time zone: each run queues a report for the period just ended (server/reports/schedules.ts) into
 * the owner's report queue and, if they opt in, emails a link to it when it is ready.
 */
export const reportSchedules = pgTable(
  'report_schedules',
  {
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    reportType: text('report_type').notNull(),
    fileType: text('file_type').$type<'csv' | 'xlsx' | 'pdf' | 'xml'>().notNull(),
    /** the report's context ({ level, businessId, merchantId, title }) without the zone: the schedule has its own */
    context: jsonb('context').notNull(),
    /** { accountNumber, kind?, category? } as a queued report's filters; a transactions export's list filters (no date) */
    filters: jsonb('filters').$type<Record<string, string>>().notNull(),
    /** a transactions export's columns, in order; empty for statements (their columns are fixed) */
    columns: jsonb('columns').$type<string[]>().notNull().default(sql`'[]'::jsonb`),
    /** a transactions export's ordering as the overview's (OrderingField, OrderingDirection); null: newest first */
    ordering: jsonb('ordering').$type<Ordering>(),
    frequency: text('frequency').$type<'daily' | 'weekly' | 'monthly'>().notNull(),
    /** 1 (Monday) to 7 for weekly schedules */
    weekday: integer('weekday'),
    /** 1 to 31 for monthly schedules (the month's last day when it is shorter) */
    dayOfMonth: integer('day_of_month'),
    hour: integer('hour').notNull(),
    timeZone: text('time_zone').notNull(),
    emailWhenReady: boolean('email_when_ready').notNull().default(false),
    paused: boolean('paused').notNull().default(false),
    nextRunAt: utc('next_run_at').notNull(),
    lastRunAt: utc('last_run_at'),
    /** the last run's outcome: null (none yet), 'queued', 'generated' or 'failed' */
    lastOutcome: text('last_outcome').$type<'queued' | 'generated' | 'failed'>(),
    lastError: text('last_error'),
    version: integer('version').notNull().default(1),
    createdAt: utc('created_at').notNull().defaultNow().$defaultFn(now),
  },
  (t) => [index('report_schedules_user_idx').on(t.userId, t.createdAt), index('report_schedules_due_idx').on(t.nextRunAt).where(sql`NOT ${t.paused}`)],
);

/** Each report a schedule queued: one row per attempt of a run (a failed report is queued once more, then reported). */
export const reportScheduleRuns = pgTable(
  'report_schedule_runs',
  {
    reportId: text('report_id').primaryKey(),
    scheduleId: text('schedule_id')
      .notNull()
      .references(() => reportSchedules.id, { onDelete: 'cascade' }),
    /** the instant the run was due */
    dueAt: utc('due_at').notNull(),
    attempt: integer('attempt').notNull(),
    status: text('status').$type<'queued' | 'generated' | 'retried' | 'failed'>().notNull().default('queued'),
    notifiedAt: utc('notified_at'),
    /** a run asked for by its owner ('Run now'): the Idempotency-Key of that request (a retry answers this run); null for timed runs and retries */
    requestKey: text('request_key'),
    createdAt: utc('created_at').notNull().defaultNow().$defaultFn(now),
  },
  (t) => [
    index('report_schedule_runs_open_idx').on(t.status).where(sql`${t.status} = 'queued'`),
    index('report_schedule_runs_schedule_idx').on(t.scheduleId, t.dueAt),
    uniqueIndex('report_schedule_runs_request_key_idx').on(t.scheduleId, t.requestKey).where(sql`${t.requestKey} IS NOT NULL`),
  ],
);
