// Shared by the API integration suites: a fresh database per suite (PGlite always, PostgreSQL when
// TEST_DATABASE_URL is set), a small fixture world, and an app whose verifier maps 'user:<id>' tokens.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, inject } from 'vitest';
import { createApp, type AppOptions } from '../../server/app.ts';
import { cardKeysFrom } from '../../server/cards/card-keys.ts';
import { vaultCard } from '../../server/cards/card-vault.ts';
import { openDatabase, type Database, type OpenOptions } from '../../server/db/client.ts';
import { eventBusOf } from '../../server/events/event-bus.ts';
import * as schema from '../../server/db/schema.ts';

export type DatabaseKind = 'pglite' | 'postgres';

export const databaseKinds: DatabaseKind[] = process.env.TEST_DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];

function withDatabase(url: string, name: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${name}`;
  return parsed.toString();
}

/**
 * The database with a close that first stops its events bus: an events stream a test left open would otherwise keep
 * polling the closed database (a warning every half second for the rest of the worker's files).
 */
function closingItsEvents(database: Database, afterClose: () => Promise<void> = async () => undefined): Database {
  const closing: Database = {
    ...database,
    close: async () => {
      await eventBusOf(closing)
        .close()
        .catch(() => undefined);
      await database.close();
      await afterClose();
    },
  };
  return closing;
}

/** A fresh, migrated database; close() also stops its events bus and drops the PostgreSQL scratch database. */
export async function createTestDatabase(kind: DatabaseKind, options: Pick<OpenOptions, 'onQuery'> = {}): Promise<Database> {
  // Copies of the run's migrated template (tests/global-setup.ts); the migrations then find nothing to do.
  if (kind === 'pglite') return closingItsEvents(await openDatabase({ ...options, pgliteTemplate: inject('pgliteTemplate') }));
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) throw new Error('TEST_DATABASE_URL is not set');
  const name = `portal_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  const template = inject('postgresTemplate');
  await admin.query(`CREATE DATABASE ${name}${template ? ` TEMPLATE ${template}` : ''}`);
  await admin.end();
  const database = await openDatabase({ ...options, url: withDatabase(adminUrl, name), poolSize: 5 });
  return closingItsEvents(database, async () => {
    const dropper = new pg.Client({ connectionString: adminUrl });
    await dropper.connect();
    await dropper.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await dropper.end();
  });
}

export const tokenFor = (userId: string) => `user.${userId}`;

/** The card data key of every test database and app (a fixed key: what one suite seals, another may open). */
export const testCardKeys = cardKeysFrom(Buffer.alloc(32, 0x5a));

/** The fixture's one full card number: vaulted, never stored in clear. */
export const fixtureCardNumber = '4111111111111111';

export function createTestApp(database: Database, options: Pick<AppOptions, 'files'> = {}) {
  const app = createApp({
    ...options,
    database,
    cardKeys: testCardKeys,
    verifyAccessToken: async (token) => {
      if (!token.startsWith('user.')) throw new Error('bad token');
      return { userId: token.slice(5), scopes: ['portal'] };
    },
  });
  return {
    app,
    /** Sends a request as a user; body objects are sent as JSON. */
    call: (userId: string | null, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
      app.request(`/api/portal${path}`, {
        method,
        headers: {
          ...(userId ? { authorization: `Bearer ${tokenFor(userId)}` } : {}),
          ...(body !== undefined && typeof body !== 'string' ? { 'content-type': 'application/json' } : {}),
          ...headers,
        },
        body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
      }),
  };
}

/** A suite's fresh database with the fixture world and an app over it, opened before and closed after the suite. */
export function useFixtureApp(kind: DatabaseKind) {
  const harness = {} as { database: Database; call: ReturnType<typeof createTestApp>['call'] };
  beforeAll(async () => {
    harness.database = await createTestDatabase(kind);
    await insertFixtureWorld(harness.database);
    harness.call = createTestApp(harness.database).call;
  });
  afterAll(async () => harness.database?.close());
  return harness;
}

/**
 * Two partners' worth of tenants:
 * P1 owns B1 (merchants M1a, M1b) and B2 (M2a); B3 (M3a, M3b) has no partner; B4 (M4a) is not live.
 */
export const fixture = {
  users: {
    admin: 'u-admin',
    readonly: 'u-readonly',
    partner: 'u-partner',
    owner: 'u-owner',
    finance: 'u-finance',
    merchantOnly: 'u-vt',
    nobody: 'u-nobody',
  },
} as const;

export async function insertFixtureWorld(database: Database): Promise<void> {
  const { db } = database;
  await db.insert(schema.partners).values([
    { id: 'P1', name: 'Northwind Partners' },
    { id: 'P2', name: 'Southwind Partners' },
  ]);
  await db.insert(schema.businesses).values([
    { id: 'B1', name: 'Alpha Trading Ltd', partnerId: 'P1' },
    { id: 'B2', name: 'Beta Retail Ltd', partnerId: 'P1', camAutoRemittance: false },
    { id: 'B3', name: 'Gamma Foods plc' },
    { id: 'B4', name: 'Delta Dormant Ltd', live: false },
  ]);
  await db.insert(schema.merchants).values([
    { id: 'M1a', businessId: 'B1', name: 'Alpha Online', currencies: ['GBP', 'EUR'] },
    { id: 'M1b', businessId: 'B1', name: 'Alpha Stores', currencies: ['GBP'], grossSettlement: true },
    { id: 'M2a', businessId: 'B2', name: 'Beta Web', currencies: ['EUR'] },
    { id: 'M3a', businessId: 'B3', name: 'Gamma Deli', currencies: ['GBP'] },
    { id: 'M3b', businessId: 'B3', name: 'Gamma Bakery', currencies: ['JPY'] },
    { id: 'M4a', businessId: 'B4', name: 'Delta Shop', currencies: ['USD'], live: false },
  ]);
  const user = (id: string, email: string, internal = false) => ({
    id,
    email,
    givenName: id,
    familyName: 'Test',
    passwordHash: 'scrypt$1$1$1$x$y',
    internal,
    passwordExpiresUtc: new Date(Date.now() + 3 * 86_400_000 + 3_600_000),
  });
  const { users } = fixture;
  await db
    .insert(schema.users)
    .values([
      user(users.admin, 'admin@fixture.test', true),
      user(users.readonly, 'readonly@fixture.test', true),
      user(users.partner, 'partner@fixture.test'),
      user(users.owner, 'owner@fixture.test'),
      user(users.finance, 'finance@fixture.test'),
      user(users.merchantOnly, 'vt@fixture.test'),
      user(users.nobody, 'nobody@fixture.test'),
    ]);
  await db.insert(schema.userRoles).values([
    { userId: users.admin, role: 'TechnicalAdmin', level: 'root' },
    { userId: users.readonly, role: 'InternalReadOnly', level: 'root' },
    { userId: users.partner, role: 'Owner', level: 'partner', partnerId: 'P1' },
    { userId: users.owner, role: 'Owner', level: 'business', businessId: 'B3' },
    { userId: users.finance, role: 'Finance', level: 'business', businessId: 'B2' },
    { userId: users.merchantOnly, role: 'VirtualTerminal', level: 'merchant', businessId: 'B1', merchantId: 'M1b' },
  ]);
  const job = (reference: string, businessId: string, merchantId: string) => ({
    reference,
    businessId,
    merchantId,
    configurationId: `C-${merchantId}`,
    createDateTimeUtc: new Date('2026-11-01T10:00:00Z'),
    orderNumber: `ORD-${reference}`,
    amountMinor: 1250,
    currency: 'GBP',
    status: 'paid',
    order: {},
  });
  await db.insert(schema.configurations).values(
    ['M1a', 'M1b', 'M2a', 'M3a', 'M3b', 'M4a'].map((merchantId) => ({
      id: `C-${merchantId}`,
      merchantId,
      businessId: `B${merchantId.slice(1, 2)}`,
      tradeName: `${merchantId} shop`,
      switches: { virtualTerminalMenuEnabled: merchantId !== 'M3b' },
    })),
  );
  await db.insert(schema.paymentJobs).values([job('PJ1A0001', 'B1', 'M1a'), job('PJ3A0001', 'B3', 'M3a')]);
  const cardTokens = {
    M1a: await vaultCard(db, testCardKeys, { merchantId: 'M1a', cardNumber: fixtureCardNumber }),
    M3a: await vaultCard(db, testCardKeys, { merchantId: 'M3a', cardNumber: fixtureCardNumber }),
  };
  const transaction = (reference: string, businessId: string, merchantId: keyof typeof cardTokens, partnerId: string | null, paymentJobReference: string) => ({
    reference,
    kind: 'payment' as const,
    businessId,
    merchantId,
    partnerId,
    configurationId: `C-${merchantId}`,
    paymentJobReference,
    createdAt: new Date('2026-11-01T10:00:00Z'),
    amountMinor: 1250,
    currency: 'GBP',
    status: 'paid',
    paymentMethod: 'card',
    channel: 'Gateway',
    cardMasked: '411111******1111',
    cardToken: cardTokens[merchantId],
  });
  await db.insert(schema.transactions).values([transaction('TX1A0001', 'B1', 'M1a', 'P1', 'PJ1A0001'), transaction('TX3A0001', 'B3', 'M3a', null, 'PJ3A0001')]);
  await db.insert(schema.notifications).values([
    { reference: 'N1', title: 'Maintenance window', content: '{}', status: 'published', viewRestriction: 'allUsers', publishedUtc: new Date('2026-01-01') },
    { reference: 'N2', title: 'Internal memo', content: '{}', status: 'published', viewRestriction: 'internalUsers', publishedUtc: new Date('2026-02-01') },
    { reference: 'N3', title: 'Draft', content: '{}', status: 'draft', viewRestriction: 'allUsers' },
  ]);
}

/** Every row of every table, for 'the database is unchanged' checks. */
export async function snapshot(database: Database, options: { ignoreAuditEvents?: readonly string[] } = {}): Promise<string> {
  const tables = [
    'partners',
    'businesses',
    'merchants',
    'configurations',
    'users',
    'user_roles',
    'user_settings',
    'notifications',
    'notification_reads',
    'tickets',
    'ticket_comments',
    'ticket_attachments',
    'queued_reports',
    'audit_events',
    'transactions',
    'payment_jobs',
    'card_vault',
    'user_invitations',
    'password_resets',
    'deleted_user_emails',
    'ledger_postings',
    'ledger_entries',
    'settlement_batches',
    'ledger_transfers',
    'remittance_settings',
  ];
  const parts: string[] = [];
  for (const table of tables) {
    // Audit rows cannot be deleted (append-only): events a check expects are left out of the digest instead.
    const ignored = table === 'audit_events' && options.ignoreAuditEvents?.length ? ` WHERE t.event <> ALL($1)` : '';
    const rows = await database.query(
      `SELECT md5(coalesce(string_agg(t::text, '|' ORDER BY t::text), '')) AS digest FROM ${table} t${ignored}`,
      ignored ? [[...(options.ignoreAuditEvents ?? [])]] : [],
    );
    parts.push(`${table}:${String(rows[0]?.digest)}`);
  }
  return parts.join('\n');
}

/** A recent step-up for a user's test-token session (sessionKey ''): the sensitive calls then proceed. */
export async function grantStepUp(database: Database, userId: string, minutes = 5): Promise<void> {
  const expiresAt = new Date(Date.now() + minutes * 60_000);
  await database.db
    .insert(schema.stepUpGrants)
    .values({ userId, sessionKey: '', expiresAt })
    .onConflictDoUpdate({ target: [schema.stepUpGrants.userId, schema.stepUpGrants.sessionKey], set: { expiresAt } });
}
