// One PostgreSQL schema for PGlite and PostgreSQL alike. Money is stored in minor units (bigint as number).
import { sql } from 'drizzle-orm';
import {
  bigint, bigserial, boolean, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex,
} from 'drizzle-orm/pg-core';

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
  currency: text('currency').notNull(),
  status: text('status').notNull(),
  paymentMethod: text('payment_method').notNull(),
  channel: text('channel').notNull(),
  ewalletType: text('ewallet_type'),
  cardMasked: text('card_masked'),
  cardNumber: text('card_number'),
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
]);

/**
 * Dashboard statistics per merchant, currency and quarter hour (UTC), written in the same
 * transaction as the payment. Quarter hours make every IANA offset (+05:30, +05:45) exact.
 */
export const transactionStats = pgTable('transaction_stats', {
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
  index('transaction_stats_business_idx').on(t.businessId, t.currency, t.bucketStart),
  index('transaction_stats_partner_idx').on(t.partnerId, t.currency, t.bucketStart),
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
