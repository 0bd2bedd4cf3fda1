// One PostgreSQL schema for PGlite and PostgreSQL alike. Money is stored in minor units (bigint as number).
import { sql } from 'drizzle-orm';
import {
  bigint, bigserial, boolean, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex,
} from 'drizzle-orm/pg-core';
import { threeDecimalCurrencies, zeroDecimalCurrencies } from '../../src/contract/transactions.ts';

const utc = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

export const partners = pgTable('partners', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  createdAt: utc('created_at').notNull().defaultNow(),
});

export const businesses = pgTable('businesses', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  partnerId: text('partner_id').references(() => partners.id),
  live: boolean('live').notNull().default(true),
  camAutoRemittance: boolean('cam_auto_remittance').notNull().default(true),
  businessUrl: text('business_url'),
  createdAt: utc('created_at').notNull().defaultNow(),
}, (t) => [
  index('businesses_name_idx').on(t.name, t.id),
  index('businesses_partner_idx').on(t.partnerId, t.name),
  index('businesses_search_idx').using('gin', sql`(lower(${t.name}) || ' ' || lower(${t.id})) gin_trgm_ops`),
]);

export const merchants = pgTable('merchants', {
  id: text('id').primaryKey(),
  businessId: text('business_id').notNull().references(() => businesses.id),
  name: text('name').notNull(),
  live: boolean('live').notNull().default(true),
  grossSettlement: boolean('gross_settlement').notNull().default(false),
  currencies: text('currencies').array().notNull(),
  merchantUrl: text('merchant_url'),
  supportUrl: text('support_url'),
  createdAt: utc('created_at').notNull().defaultNow(),
}, (t) => [
  index('merchants_business_idx').on(t.businessId, t.name, t.id),
  index('merchants_search_idx').using('gin', sql`(lower(${t.name}) || ' ' || lower(${t.id})) gin_trgm_ops`),
]);

export type ConfigurationSwitches = { virtualTerminalMenuEnabled: boolean; [name: string]: boolean };

export const configurations = pgTable('configurations', {
  id: text('id').primaryKey(),
  merchantId: text('merchant_id').notNull().references(() => merchants.id),
  businessId: text('business_id').notNull().references(() => businesses.id),
  tradeName: text('trade_name').notNull(),
  description: text('description').notNull().default(''),
  switches: jsonb('switches').$type<ConfigurationSwitches>().notNull(),
  version: integer('version').notNull().default(1),
}, (t) => [index('configurations_merchant_idx').on(t.merchantId, t.id)]);

export const users = pgTable('users', {
  id: text('id').primaryKey(),
  email: text('email').notNull(),
  givenName: text('given_name').notNull(),
  familyName: text('family_name').notNull(),
  passwordHash: text('password_hash').notNull(),
  failedSignIns: integer('failed_sign_ins').notNull().default(0),
  lockoutEndDateUtc: utc('lockout_end_date_utc'),
  passwordExpiresUtc: utc('password_expires_utc'),
  internal: boolean('internal').notNull().default(false),
  version: integer('version').notNull().default(1),
  createdAt: utc('created_at').notNull().defaultNow(),
  // ── users (issue 20) ──
  phoneNumber: text('phone_number'),
  language: text('language').notNull().default('en-GB'),
  /** 'active' or 'invited' (no password yet: the invitation sets it); locked is derived from lockoutEndDateUtc */
  status: text('status').$type<'active' | 'invited'>().notNull().default('active'),
  lastSignInUtc: utc('last_sign_in_utc'),
}, (t) => [uniqueIndex('users_email_idx').on(sql`lower(${t.email})`)]);

export type RoleLevel = 'root' | 'partner' | 'business' | 'merchant';

/** The policy structure: one row per role a user holds at one level. Root rows have no ids. */
export const userRoles = pgTable('user_roles', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  userId: text('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
  role: text('role').notNull(),
  level: text('level').$type<RoleLevel>().notNull(),
  partnerId: text('partner_id').references(() => partners.id),
  businessId: text('business_id').references(() => businesses.id),
  merchantId: text('merchant_id').references(() => merchants.id),
}, (t) => [index('user_roles_user_idx').on(t.userId)]);

export const userSettings = pgTable('user_settings', {
  userId: text('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
  key: text('key').notNull(),
  value: text('value').notNull(),
  updatedAt: utc('updated_at').notNull().defaultNow(),
}, (t) => [primaryKey({ columns: [t.userId, t.key] })]);

export const paymentJobs = pgTable('payment_jobs', {
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
}, (t) => [index('payment_jobs_merchant_created_idx').on(t.merchantId, t.createDateTimeUtc.desc().nullsFirst())]);

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

export const transactions = pgTable('transactions', {
  reference: text('reference').primaryKey(),
  kind: text('kind').$type<'payment' | 'refund' | 'capture'>().notNull(),
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
  declineReason: text('decline_reason'),
  customerEmail: text('customer_email'),
  originatingIpAddress: text('originating_ip_address'),
}, (t) => [
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
  index('transactions_kind_idx').on(t.kind),
]);

/**
 * Dashboard statistics per merchant, currency and quarter hour (UTC), written in the same
 * transaction as the payment. Quarter hours make every IANA offset (+05:30, +05:45) exact. The hourly and daily
 * rollups below hold the same sums coarser; the measures trail the scope index keys so that all of them cover a
 * period's sums by index-only scans (drizzle has no INCLUDE; extra key columns serve the same end).
 */
/** One statistics table per granularity: the same sums per merchant, currency and UTC bucket, covering indexes. */
function statsTable<Name extends string>(name: Name) {
  return pgTable(name, {
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
  }, (t) => [
    primaryKey({ columns: [t.merchantId, t.currency, t.bucketStart] }),
    index(`${name}_business_idx`).on(t.businessId, t.currency, t.bucketStart, t.volume, t.revenue, t.unsuccessfulVolume, t.unsuccessfulRevenue, t.salesCount),
    index(`${name}_partner_idx`).on(t.partnerId, t.currency, t.bucketStart, t.volume, t.revenue, t.unsuccessfulVolume, t.unsuccessfulRevenue, t.salesCount),
  ]);
}

export const transactionStats = statsTable('transaction_stats');

/** The same statistics rolled up per UTC hour: exact for every whole-hour offset. Kept by server/stats. */
export const transactionStatsHourly = statsTable('transaction_stats_hourly');

/** Per UTC day: the whole days inside a period come from here, the edges from the finer tables. Kept by server/stats. */
export const transactionStatsDaily = statsTable('transaction_stats_daily');

/** Declined payments per merchant, currency, UTC day and reason (covering indexes too); partial days are read from transactions. */
export const transactionDeclinesDaily = pgTable('transaction_declines_daily', {
  merchantId: text('merchant_id').notNull(),
  businessId: text('business_id').notNull(),
  partnerId: text('partner_id'),
  currency: text('currency').notNull(),
  bucketStart: utc('bucket_start').notNull(),
  reason: text('reason').notNull(),
  declineCount: bigint('decline_count', { mode: 'number' }).notNull().default(0),
  amount: bigint('amount', { mode: 'number' }).notNull().default(0),
}, (t) => [
  primaryKey({ columns: [t.merchantId, t.currency, t.bucketStart, t.reason] }),
  index('transaction_declines_daily_business_idx').on(t.businessId, t.currency, t.bucketStart, t.reason, t.declineCount, t.amount),
  index('transaction_declines_daily_partner_idx').on(t.partnerId, t.currency, t.bucketStart, t.reason, t.declineCount, t.amount),
]);

export const notifications = pgTable('notifications', {
  reference: text('reference').primaryKey(),
  title: text('title').notNull(),
  content: text('content').notNull(),
  status: text('status').$type<'draft' | 'readyForPublication' | 'published' | 'unpublished'>().notNull(),
  viewRestriction: text('view_restriction').$type<'allUsers' | 'internalUsers'>().notNull(),
  publishedUtc: utc('published_utc'),
  lastEditedUtc: utc('last_edited_utc').notNull().defaultNow(),
  version: integer('version').notNull().default(1),
});

export const notificationReads = pgTable('notification_reads', {
  userId: text('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
  reference: text('reference').notNull().references(() => notifications.reference, { onDelete: 'cascade' }),
  readUtc: utc('read_utc').notNull().defaultNow(),
}, (t) => [primaryKey({ columns: [t.userId, t.reference] })]);

export const tickets = pgTable('tickets', {
  id: text('id').primaryKey(),
  businessId: text('business_id').notNull(),
  merchantId: text('merchant_id'),
  createdBy: text('created_by').notNull(),
  type: text('type').notNull(),
  status: text('status').notNull(),
  priority: text('priority').notNull(),
  subject: text('subject').notNull(),
  description: text('description').notNull(),
  createdUtc: utc('created_utc').notNull().defaultNow(),
  lastUpdatedUtc: utc('last_updated_utc').notNull().defaultNow(),
  version: integer('version').notNull().default(1),
}, (t) => [index('tickets_business_idx').on(t.businessId, t.createdUtc)]);

export const ticketComments = pgTable('ticket_comments', {
  id: text('id').primaryKey(),
  ticketId: text('ticket_id').notNull().references(() => tickets.id, { onDelete: 'cascade' }),
  authorId: text('author_id').notNull(),
  text: text('text').notNull(),
  createdUtc: utc('created_utc').notNull().defaultNow(),
});

export type ReportStatus = 'queued' | 'generating' | 'generated' | 'failed' | 'cancelled';

/** The report queue: jobs claimed with FOR UPDATE SKIP LOCKED by any node's worker. */
export const queuedReports = pgTable('queued_reports', {
  id: text('id').primaryKey(),
  userId: text('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
  reportType: text('report_type').notNull(),
  fileType: text('file_type').$type<'csv' | 'xlsx' | 'pdf'>().notNull(),
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
  queuedAt: utc('queued_at').notNull().defaultNow(),
  generatedAt: utc('generated_at'),
  expirationDateTime: utc('expiration_date_time'),
  deletedAt: utc('deleted_at'),
  filePath: text('file_path'),
  fileSize: bigint('file_size', { mode: 'number' }),
  error: text('error'),
}, (t) => [
  index('queued_reports_user_idx').on(t.userId, t.queuedAt),
  index('queued_reports_claim_idx').on(t.status, t.queuedAt),
]);

/**
 * Full card numbers, sealed with AES-256-GCM (server/cards/): one row per card and merchant, found by a keyed
 * fingerprint (HMAC-SHA-256, never the number), with the id of the key that sealed it so keys can rotate.
 */
export const cardVault = pgTable('card_vault', {
  token: text('token').primaryKey(),
  merchantId: text('merchant_id').notNull(),
  fingerprint: text('fingerprint').notNull(),
  /** '411111******1111': what may be shown */
  masked: text('masked').notNull(),
  keyId: text('key_id').notNull(),
  /** base64 of nonce (12 bytes) ‖ ciphertext ‖ tag (16 bytes); the token is the additional authenticated data */
  sealed: text('sealed').notNull(),
  createdAt: utc('created_at').notNull().defaultNow(),
}, (t) => [uniqueIndex('card_vault_merchant_fingerprint_idx').on(t.merchantId, t.fingerprint)]);

export type OutboundEmailStatus = 'queued' | 'sending' | 'sent' | 'deliveredLocally' | 'failed';

/**
 * Every message the portal sends (server/mail/): written in the transaction of the request that sends it, then
 * claimed by any node's mail worker with FOR UPDATE SKIP LOCKED and a lease, sent, retried with back-off.
 */
export const outboundEmails = pgTable('outbound_emails', {
  id: text('id').primaryKey(),
  recipient: text('recipient').notNull(),
  subject: text('subject').notNull(),
  template: text('template').notNull(),
  html: text('html').notNull(),
  text: text('text').notNull(),
  status: text('status').$type<OutboundEmailStatus>().notNull().default('queued'),
  attempts: integer('attempts').notNull().default(0),
  nextAttemptAt: utc('next_attempt_at').notNull().defaultNow(),
  lockedBy: text('locked_by'),
  lockedUntil: utc('locked_until'),
  sentAt: utc('sent_at'),
  providerMessageId: text('provider_message_id'),
  lastError: text('last_error'),
  createdAt: utc('created_at').notNull().defaultNow(),
}, (t) => [
  index('outbound_emails_claim_idx').on(t.status, t.nextAttemptAt),
  index('outbound_emails_created_idx').on(t.createdAt.desc().nullsFirst(), t.id),
]);

export const auditEvents = pgTable('audit_events', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  userId: text('user_id').notNull(),
  event: text('event').notNull(),
  dateTimeUtc: utc('date_time_utc').notNull(),
  businessId: text('business_id'),
  merchantId: text('merchant_id'),
  metaData: jsonb('meta_data').notNull().default({}),
  recordedUtc: utc('recorded_utc').notNull().defaultNow(),
}, (t) => [
  index('audit_events_business_idx').on(t.businessId, t.dateTimeUtc),
  index('audit_events_merchant_idx').on(t.merchantId, t.dateTimeUtc),
]);

/** oidc-provider's own state (sessions, grants, codes, tokens), shared by every API node. */
export const oidcPayloads = pgTable('oidc_payloads', {
  id: text('id').notNull(),
  type: text('type').notNull(),
  payload: jsonb('payload').notNull(),
  grantId: text('grant_id'),
  userCode: text('user_code'),
  uid: text('uid'),
  expiresAt: utc('expires_at'),
  consumedAt: utc('consumed_at'),
}, (t) => [
  primaryKey({ columns: [t.id, t.type] }),
  index('oidc_payloads_grant_idx').on(t.grantId),
  index('oidc_payloads_uid_idx').on(t.uid),
  index('oidc_payloads_user_code_idx').on(t.userCode),
]);

/** Signing keys of the identity provider, generated once and shared by every node. */
export const signingKeys = pgTable('signing_keys', {
  kid: text('kid').primaryKey(),
  jwk: jsonb('jwk').notNull(),
  createdAt: utc('created_at').notNull().defaultNow(),
});

// ── users ──

/** Invitations to set up an account: the link carries a secret whose SHA-256 alone is kept; single use, 7 days. */
export const userInvitations = pgTable('user_invitations', {
  id: text('id').primaryKey(),
  userId: text('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
  tokenHash: text('token_hash').notNull(),
  invitedBy: text('invited_by').notNull(),
  createdAt: utc('created_at').notNull().defaultNow(),
  expiresAt: utc('expires_at').notNull(),
  acceptedAt: utc('accepted_at'),
  revokedAt: utc('revoked_at'),
}, (t) => [uniqueIndex('user_invitations_token_idx').on(t.tokenHash), index('user_invitations_user_idx').on(t.userId, t.createdAt)]);

/** Password reset links: SHA-256 of the secret, single use, 15 minutes; rows also count requests for rate limits. */
export const passwordResets = pgTable('password_resets', {
  id: text('id').primaryKey(),
  userId: text('user_id').references(() => users.id, { onDelete: 'cascade' }),
  tokenHash: text('token_hash'),
  emailKey: text('email_key').notNull(),
  requestedFrom: text('requested_from').notNull(),
  createdAt: utc('created_at').notNull().defaultNow(),
  expiresAt: utc('expires_at').notNull(),
  usedAt: utc('used_at'),
}, (t) => [
  uniqueIndex('password_resets_token_idx').on(t.tokenHash),
  index('password_resets_email_idx').on(t.emailKey, t.createdAt),
  index('password_resets_from_idx').on(t.requestedFrom, t.createdAt),
]);

/** Emails of deleted users (lower-cased): refused by invitations and POST /users for good. */
export const deletedUserEmails = pgTable('deleted_user_emails', {
  email: text('email').primaryKey(),
  deletedBy: text('deleted_by').notNull(),
  deletedAt: utc('deleted_at').notNull().defaultNow(),
});

/** Time-based one-time passwords (RFC 6238): the secret sealed with the card data key (AES-256-GCM, user id as AAD). */
export const userSecondFactors = pgTable('user_second_factors', {
  userId: text('user_id').primaryKey().references(() => users.id, { onDelete: 'cascade' }),
  keyId: text('key_id').notNull(),
  sealed: text('sealed').notNull(),
  /** 'pending' until the first code is confirmed, then 'active' */
  status: text('status').$type<'pending' | 'active'>().notNull(),
  /** the last 30-second step accepted: a code is never accepted twice */
  lastUsedStep: bigint('last_used_step', { mode: 'number' }).notNull().default(0),
  /** SHA-256 of each unused recovery code */
  recoveryCodeHashes: text('recovery_code_hashes').array().notNull().default(sql`'{}'::text[]`),
  createdAt: utc('created_at').notNull().defaultNow(),
  activatedAt: utc('activated_at'),
});

/** Between the password and the second factor at sign-in: a single-use ticket, 10 minutes, 5 attempts. */
export const signInChallenges = pgTable('sign_in_challenges', {
  id: text('id').primaryKey(),
  tokenHash: text('token_hash').notNull(),
  userId: text('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
  passwordExpired: boolean('password_expired').notNull().default(false),
  attempts: integer('attempts').notNull().default(0),
  expiresAt: utc('expires_at').notNull(),
  usedAt: utc('used_at'),
}, (t) => [uniqueIndex('sign_in_challenges_token_idx').on(t.tokenHash)]);

/** A change of one's own email address, confirmed from a link sent to the new address (24 hours, single use). */
export const emailChanges = pgTable('email_changes', {
  id: text('id').primaryKey(),
  userId: text('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
  newEmail: text('new_email').notNull(),
  tokenHash: text('token_hash').notNull(),
  createdAt: utc('created_at').notNull().defaultNow(),
  expiresAt: utc('expires_at').notNull(),
  usedAt: utc('used_at'),
}, (t) => [uniqueIndex('email_changes_token_idx').on(t.tokenHash), index('email_changes_user_idx').on(t.userId)]);
