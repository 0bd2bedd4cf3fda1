// The permission matrix: every write route of the Portal API (POST, PUT,
// PATCH, DELETE; read from the router, so a new route must be placed here) sent as every demo account, with a valid
// body, in a context the account can read (its own business or merchant; the internal accounts: one business), on
// records made fresh for each call. The answer must be exactly what the policy says: the roles holding the route's
// permissions there (server/policy permissionsIn over the role table) succeed (2xx), the others are refused (403 or
// 404) and change nothing. The tenant-isolation matrix beside it covers other tenants' records.
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../../server/db/client.ts';
import { demoAccounts, seedDatabase } from '../../../server/seed/seed.ts';
import { createFolderStore } from '../../../server/files/folder-store.ts';
import { loadPrincipal, permissionsIn, type Principal } from '../../../server/policy/principal.ts';
import { permissionsOfRoles } from '../../../server/policy/role-permissions.ts';
import { defaultHostedPageDesign } from '../../../src/contract/configurations.ts';
import type { PermissionName } from '../../../src/contract/permissions.ts';
import { createTestApp, createTestDatabase, databaseKinds, grantStepUp, testCardKeys, tokenFor } from '../support.ts';

type Route = { method: string; path: string };
/** Where a route's permissions are read: the addressed context, the root roles, or held at root level ('anywhere' = every context). */
type Rule =
  | { kind: 'permission'; permissions: readonly PermissionName[]; scope: 'context' | 'root' }
  | { kind: 'rootRole'; role: string }
  | { kind: 'own'; reason: string }
  | { kind: 'notCovered'; reason: string };

const needs = (scope: 'context' | 'root', ...permissions: PermissionName[]): Rule => ({ kind: 'permission', permissions, scope });

/**
 * The permissions each write route checks (read from server/api/*). Routes acting only on the caller's own records
 * (settings, presets, queued reports and jobs, read state, the caller's account) hold no role permission: 'own'.
 */
function ruleOf({ method, path }: Route): Rule {
  const p = path;
  // 'Run now' is the owner's (404 for anyone else) and checks the report's permissions in the schedule's context as
  // making it does: tests/server/reports/schedule-run-now.test.ts.
  if (p === '/report-schedules/:id/runs')
    return { kind: 'own', reason: 'the caller’s own schedule, with its report’s permissions checked as when it was made' };
  if (
    /^\/user-settings\/|^\/user\/|^\/filter-presets|^\/reports\/|^\/bulk-jobs\/:jobId|^\/report-schedules\/:id/.test(p) ||
    (method === 'PATCH' && p === '/users')
  )
    return { kind: 'own', reason: 'the caller’s own settings, presets, account, queued reports and jobs' };
  if (p === '/businesses/:businessId/filter-presets') return { kind: 'own', reason: 'the caller’s own presets' };
  if (p === '/report-schedules' || p === '/bulk-jobs')
    return { kind: 'notCovered', reason: 'the context is in the body and checked by area; probed per context by the tenant-isolation matrix' };
  if (p === '/audit-events') return needs('context', 'Mapi.Transaction.Read');
  if (p === '/tickets' || p === '/partners/:partnerId/tickets')
    return { kind: 'notCovered', reason: 'a ticket is created in a business or merchant only: 400 for everyone' };
  if (/\/dashboard(\/declines|\/breakdown)?$/.test(p) || p === '/partners/:partnerId/declines') return needs('context', 'Mapi.MerchantDashboardReport.Read');
  if (p.endsWith('/transactions/full/reports'))
    return p === '/transactions/full/reports'
      ? { kind: 'notCovered', reason: 'context-free export: the caller’s granted scope decides, probed by the isolation matrix' }
      : needs('context', 'Mapi.Transactions.Read', 'Portal.Reports.Create');
  // Payment actions: the payment must be in a state allowing the action (capture: authorised…): see stateBound.
  if (p.endsWith('/actions/capture')) return needs('context', 'Portal.Payments.Capture');
  if (p.endsWith('/actions/refund') || p.endsWith('/refunds/:refundId/actions/cancel')) return needs('context', 'Portal.Payments.Refund');
  if (p.endsWith('/actions/void')) return needs('context', 'Portal.Payments.Void');
  if (p.endsWith('/actions/cancel') || p.endsWith('/actions/expire')) return needs('context', 'Portal.PaymentJobs.Cancel');
  if (p.endsWith('/actions/mail-payment-link')) return needs('context', 'Portal.PaymentJobs.MailPaymentLink');
  // Users (server/api/users.ts)
  if (p === '/users' && method === 'POST') return needs('context', 'Mapi.Users.Create');
  if (p === '/users/:userId' && method === 'PUT') return needs('context', 'Mapi.Users.Update');
  if (p === '/users/:userId' && method === 'DELETE') return needs('context', 'Mapi.Users.Delete');
  // Resetting another user's second factor is the technical admin's alone (a role, not a permission).
  if (p === '/users/:userId/second-factor') return { kind: 'rootRole', role: 'TechnicalAdmin' };
  if (p === '/users/:userId/login' || p === '/users/:userId/password-reset-email') return needs('context', 'Mapi.Users.Update');
  if (p === '/users/:userId/invitation') return needs('context', 'Mapi.Users.Create');
  if (p === '/partners/:partnerId/users') return needs('context', 'Mapi.Users.Create');
  if (p === '/partners/:partnerId/users/:userId') return needs('context', 'Mapi.Users.Update');
  // Tickets: every write needs Portal.Tickets.Create (the caller is the requester and author of the fresh records).
  if (p.includes('/tickets')) return needs('context', 'Portal.Tickets.Create');
  if (p === '/businesses/:businessId' || p === '/businesses/:businessId/merchants/:merchantId') return needs('context', 'Mapi.Business.Update');
  if (p === '/businesses/:businessId/images' || p === '/businesses/:businessId/images/:imageReference') return needs('context', 'Mapi.Business.Update');
  if (p.includes('/api-keys')) return needs('context', 'Mapi.ApiKeys.Manage');
  if (p.includes('/virtual-terminal/settings')) return needs('context', 'Portal.Settings.Update');
  if (p.includes('/virtual-terminal/')) return needs('context', 'Portal.Moto.Create');
  if (p.includes('/configurations') || p.includes('/hosted-pages') || p.includes('/images')) return needs('context', 'Mapi.Configurations.Update');
  if (p.includes('/merchant-accountgroups/'))
    return needs('context', 'Mapi.MerchantAccountGroups.Read', 'Portal.Reports.Create', ...(p.includes('/costs/') ? ['Mapi.GatewayFees.Read' as const] : []));
  if (p.endsWith('/remittance')) return needs('context', 'Mapi.BagsExternal.Read', 'Portal.Settings.Update');
  if (p.includes('/business-accountgroups/')) return needs('context', 'Mapi.BagsExternal.Read', 'Portal.Reports.Create');
  if (p.includes('/customers')) return needs('context', 'Mapi.Customers.Update');
  if (p === '/businesses/:businessId/beneficiaries' || p === '/businesses/:businessId/beneficiaries/:beneficiaryId')
    return needs('context', 'Mapi.Beneficiary.Create');
  if (p.endsWith('/beneficiaries/:beneficiaryId/status')) return needs('context', 'Mapi.Beneficiary.Approve');
  if (p.includes('/alerts/')) return needs('context', 'Mapi.Screening.Resolve');
  if (p === '/screening/settings') return needs('root', 'Mapi.Screening.Resolve');
  if (p.startsWith('/account-watch-list/')) return needs('root', 'Mapi.AccountWatchList.Update');
  if (p.startsWith('/notifications')) return needs('root', 'Portal.Notifications.Create');
  if (p.startsWith('/partners/:partnerId/commission-plans')) return needs('context', 'Mapi.Partner.Read', 'Mapi.CommissionPlans.Update');
  if (p.startsWith('/billing/')) return needs('root', 'Billing.Invoices.Create');
  throw new Error(`no rule for ${method} ${path}: place the new write route in the permission matrix`);
}

/**
 * Routes whose success also depends on the record's state, which a fresh record cannot give for every account in
 * turn (a payment captured once is captured): an allowed account must not be refused (403/404), may get 400 or 409.
 */
const stateBound: Record<string, string> = {
  capture: 'the payment must be authorised and not yet captured',
  refund: 'the payment must be captured with an amount left',
  void: 'the payment must be authorised',
  cancel: 'the job or refund must still be open',
  expire: 'the link must still be open',
  'mail-payment-link': 'the job must be a payment link',
  invitation: 'the user must have an invitation waiting',
  'second-factor': 'the user must have a second factor',
  status: 'an approval needs a beneficiary pending by someone else; an invoice status its lifecycle',
  'credit-notes': 'the invoice must be issued',
  runs: 'a billing run needs a month not yet billed',
  orders: 'a virtual-terminal order needs the configuration’s terminal on and a currency it takes',
  attempts: 'another attempt needs a declined telephone order of the configuration',
  'saved-cards': 'the saved card belongs to one customer and goes with the first delete',
  ticket: 'an entry is escalated once',
};
const stateBoundReason = (route: Route) =>
  stateBound[route.path.split('/').at(-1)?.replace(/^:.*/, '') ?? ''] ?? stateBound[route.path.split('/').at(-2) ?? ''];

type Account = { email: string; userId: string; principal: Principal };
type Home = { partnerId: string | null; businessId: string; merchantId: string; viaPartner: boolean };
type Records = Record<string, string | null>;

const today = '2026-11-30';
const lastMonth = '2026-10-31';
let serial = 0;
const fresh = (prefix: string) => `${prefix}${randomBytes(8).toString('hex').toUpperCase()}`;

function bodyOf(route: Route, records: Records): unknown {
  const p = route.path;
  if (route.method === 'DELETE' && p === '/users/:userId') return { version: 1, acknowledgeAccessLoss: true, acknowledgeEmailBlocked: true };
  if (route.method === 'DELETE') return undefined;
  if (p.endsWith('/full/reports')) return { fileType: 'csv', columns: ['reference'] };
  if (p.endsWith('/dashboard/declines') || p === '/partners/:partnerId/declines')
    return { currency: 'GBP', dateRange: { startDate: lastMonth, endDate: today } };
  if (p.endsWith('/dashboard/breakdown')) return { by: 'merchant', dateRange: { startDate: lastMonth, endDate: today } };
  if (p.endsWith('/dashboard')) return { interval: 'month', dateRange: { startDate: '2026-11-01', endDate: today } };
  if (p === '/audit-events')
    return { event: 'RecordPrinted', dateTimeUtc: '2026-11-30T10:00:00.000Z', businessId: records.businessId, merchantId: records.merchantId };
  if (p === '/users')
    return {
      emails: [`matrix.${++serial}@matrix.test`],
      policy: { roles: [], businessPolicies: [{ businessId: records.businessId, roles: ['Finance'], merchantPolicies: [] }] },
    };
  if (p === '/users/:userId')
    return {
      version: 1,
      givenName: 'Matrix',
      familyName: 'Probe',
      policy: { roles: [], businessPolicies: [{ businessId: records.businessId, roles: ['Sales'], merchantPolicies: [] }] },
    };
  if (p === '/users/:userId/login') return { version: 1, locked: true };
  if (p === '/partners/:partnerId/users') return { emails: [`matrix.${++serial}@matrix.test`], roles: ['Finance'] };
  if (p === '/partners/:partnerId/users/:userId') return { version: 1, roles: ['Finance'] };
  if (p.endsWith('/attachments')) return 'multipart';
  if (p.endsWith('/comments')) return { text: 'A matrix reply' };
  if (p.endsWith('/comments/:commentId')) return { text: 'A matrix edit', version: 1 };
  if (p.endsWith('/tickets')) return { type: 'general', subject: 'Matrix', description: 'A matrix ticket' };
  if (p.endsWith('/tickets/:ticketId'))
    return { type: 'general', priority: 'High', status: 'Closed', subject: 'Matrix', description: 'x', assigneeId: null, version: 1 };
  if (p.endsWith('/images')) return { data: tinyPng, mimeType: 'image/png' };
  if (p.endsWith('/replacement/complete')) return { oldKeyStops: '7d' };
  if (p.endsWith('/replacement')) return undefined;
  if (p.endsWith('/api-keys')) return { name: 'Matrix', description: '', expiresAt: null };
  if (p.endsWith('/hosted-pages')) return { configurationId: records.configurationId, name: 'Matrix', design: defaultHostedPageDesign, version: 1 };
  if (p.endsWith('/hosted-pages/:reference')) return { name: 'Matrix', design: defaultHostedPageDesign, version: 1 };
  if (p.includes('/:paymentMethod'))
    return {
      enabled: true,
      displayName: 'Card',
      threeDSecurePolicy: 'always',
      minimumAmount: null,
      maximumAmount: null,
      currencies: [records.currency],
      version: 1,
    };
  if (p.endsWith('/configurations') && route.method === 'POST') return { tradeName: 'Matrix', description: '' };
  if (p.endsWith('/configurations/:configurationId'))
    return { tradeName: 'Matrix', description: '', switches: { virtualTerminalMenuEnabled: true }, version: 1 };
  if (p.endsWith('/merchants/:merchantId')) return { merchantName: 'Matrix', merchantUrl: null, supportUrl: null, version: 1 };
  if (p === '/businesses/:businessId') return { businessName: 'Matrix', businessUrl: null, version: 1 };
  if (p.endsWith('/actions/capture')) return { amount: 1, version: 1 };
  if (p.endsWith('/actions/refund')) return { amount: 1, reason: 'duplicate', version: 1 };
  if (p.endsWith('/actions/void')) return { version: 1 };
  if (p.endsWith('/refunds/:refundId/actions/cancel')) return { version: 1 };
  if (p.endsWith('/payment-jobs/:paymentJobReference/actions/cancel')) return { confirmed: true, version: 1 };
  // An address per call: a few payment links an hour may go to one address (server/payments/payment-link-limits.ts).
  if (p.endsWith('/actions/mail-payment-link')) return { emailAddress: `matrix.${++serial}@example.test` };
  if (p.endsWith('/actions/expire')) return { version: 1 };
  if (p.endsWith('/reports')) return { fileType: 'csv' };
  if (p.endsWith('/remittance'))
    return {
      frequency: 'weekly',
      dayOfPeriod: 5,
      startDate: today,
      beneficiary: { companyName: 'Matrix Ltd' },
      version: records.remittanceVersion ? Number(records.remittanceVersion) : 1,
    };
  if (p.endsWith('/customers')) return { reference: `MX-${++serial}`, firstName: 'Mat', lastName: 'Rix' };
  if (p.endsWith('/customers/:customerId')) return { reference: `MX-${++serial}`, firstName: 'Mat', lastName: 'Rix', version: 1 };
  const beneficiary = { kind: 'company', companyName: 'Matrix Ltd', nameOnBankAccount: 'Matrix Ltd', iban: 'GB82WEST12345698765432', bic: 'NWBKGB2L' };
  if (p.endsWith('/beneficiaries')) return beneficiary;
  if (p.endsWith('/beneficiaries/:beneficiaryId')) return { ...beneficiary, version: 1 };
  if (p.endsWith('/beneficiaries/:beneficiaryId/status')) return { status: 'Approved' };
  if (p.endsWith('/alerts/:alertId')) return { decision: 'dismissed', reason: 'Matrix probe', version: 1 };
  if (p === '/screening/settings') return { sensitivity: 'high', version: Number(records.screeningVersion ?? 1) };
  if (p.endsWith('/account-watch-list/:merchantId/status')) return { status: 'acknowledged', version: 1 };
  if (p.endsWith('/account-watch-list/:merchantId/notes')) return { text: 'Matrix probe' };
  if (p.endsWith('/account-watch-list/:merchantId/ticket')) return { version: 1 };
  if (p === '/notifications') return { title: 'Matrix', content: notificationContent, status: 'draft', viewRestriction: 'allUsers', publishAtUtc: null };
  if (p === '/notifications/:reference')
    return { title: 'Matrix', content: notificationContent, status: 'draft', viewRestriction: 'allUsers', publishAtUtc: null, version: 1 };
  if (p.endsWith('/virtual-terminal/orders/:paymentJobReference/attempts')) return { sameCard: true };
  if (p.endsWith('/virtual-terminal/orders')) {
    return {
      merchantReference: `MX-${++serial}`,
      currency: 'GBP',
      billingIdentity: { emailAddress: 'matrix@example.test' },
      billingAddress: { lastName: 'Matrix', countryIso3166Alpha2: 'GB' },
      orderLines: [{ type: 'physicalItem', description: 'Matrix', quantity: 1, unitPrice: 1, priceIncludesVat: true, vatPercentage: 20 }],
      card: { cardNumber: '4111111111111111', expiry: '12/39', cvc: '123', cardholderName: 'Matrix' },
    };
  }
  if (p.endsWith('/virtual-terminal/settings'))
    return {
      defaultCurrency: null,
      orderConfirmationEmails: false,
      savedCardsAllowed: true,
      savedCardLimit: 5,
      defaultOrderLineType: 'physicalItem',
      askShippingAddress: true,
      version: 1,
    };
  if (p.startsWith('/partners/:partnerId/commission-plans')) {
    return {
      ...(route.method === 'PUT' ? { version: 1 } : {}),
      name: `Matrix ${++serial}`,
      validFrom: '2099-01-01',
      validTo: null,
      rules: [
        {
          priority: 1,
          description: 'All',
          volumeFromMinor: 0,
          volumeToMinor: null,
          percentageBasisPoints: 100,
          fixedMinor: 0,
          channel: null,
          currency: null,
          paymentMethod: null,
          cardType: null,
        },
      ],
    };
  }
  if (p === '/billing/runs/preview' || p === '/billing/runs') return { month: '2026-01' };
  if (p.endsWith('/invoices/:invoiceId/status')) return { status: 'paid', version: 1 };
  if (p.endsWith('/credit-notes')) return { reason: 'Matrix' };
  return undefined;
}

const notificationContent = JSON.stringify({ blocks: [{ type: 'text', inlines: [{ text: 'Matrix' }] }] });
const tinyPng = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';

describe.each(databaseKinds)('permission matrix over every write route (seeded demo world, %s)', (kind) => {
  let database: Database;
  let harness: ReturnType<typeof createTestApp>;
  let filesFolder: string;
  let accounts: Account[];
  let routes: Route[];
  const homes = new Map<string, Home>();
  const columnTypes = new Map<string, Map<string, string>>();
  let watchedMerchant = '';

  /** A copy of one row under a new key (with overrides): a fresh record for one call, whatever the table's columns. */
  async function cloneRow(table: string, key: string, from: string, overrides: Record<string, unknown>): Promise<void> {
    let types = columnTypes.get(table);
    if (!types) {
      const rows = await database.query<{ column_name: string; data_type: string }>(
        `SELECT column_name, data_type FROM information_schema.columns WHERE table_name = $1 AND table_schema = current_schema()`,
        [table],
      );
      types = new Map(rows.map((row) => [row.column_name, row.data_type]));
      columnTypes.set(table, types);
    }
    const [row] = await database.query<Record<string, unknown>>(`SELECT * FROM ${table} WHERE ${key} = $1`, [from]);
    if (!row) throw new Error(`${table} ${from} not found`);
    const merged = { ...row, ...overrides };
    if (types.has('version') && !('version' in overrides)) merged.version = 1;
    const columns = Object.keys(merged);
    const values = columns.map((column) => {
      const value = merged[column];
      return /json/.test(types.get(column) ?? '') && value !== null ? JSON.stringify(value) : value;
    });
    await database.query(
      `INSERT INTO ${table} (${columns.map((column) => `"${column}"`).join(', ')}) VALUES (${columns.map((column, index) => `$${index + 1}${/json/.test(types.get(column) ?? '') ? '::jsonb' : ''}`).join(', ')})`,
      values,
    );
  }

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    await seedDatabase(database, { transactions: 2000, cardKeys: testCardKeys, now: new Date('2026-11-30T12:00:00Z') });
    filesFolder = await mkdtemp(join(tmpdir(), 'permission-matrix-'));
    harness = createTestApp(database, { files: createFolderStore(filesFolder) });
    const users = await database.query<{ id: string; email: string }>('SELECT id, email FROM users WHERE email = ANY($1)', [
      demoAccounts.map((account) => account.email),
    ]);
    accounts = [];
    for (const { email } of demoAccounts) {
      const userId = users.find((row) => row.email === email)?.id ?? '';
      const principal = await loadPrincipal(database, userId);
      if (!principal) throw new Error(`no principal for ${email}`);
      accounts.push({ email, userId, principal });
      // Step-up as of now for every account (api keys): the matrix is about roles, not about recent passwords.
      await grantStepUp(database, userId, 120);
    }
    // Each account's home: the business (or merchant) it holds a role in; internal accounts: the owner's business.
    const merchantOf = async (businessId: string) =>
      (
        await database.query<{ id: string }>(
          `SELECT m.id FROM merchants m WHERE m.business_id = $1 ORDER BY (SELECT count(*) FROM payment_jobs j WHERE j.merchant_id = m.id) DESC, m.id LIMIT 1`,
          [businessId],
        )
      )[0]?.id ?? '';
    const partnerOf = async (businessId: string) =>
      (await database.query<{ partner_id: string | null }>('SELECT partner_id FROM businesses WHERE id = $1', [businessId]))[0]?.partner_id ?? null;
    const ownerBusiness = accounts.find((account) => account.email === 'owner@demo.test')?.principal.businessIds[0] ?? '';
    const partnerAccount = accounts.find((account) => account.email === 'partner@demo.test');
    for (const account of accounts) {
      const grant = account.principal.grants[0];
      if (!grant || grant.level === 'root') {
        const partnerId = partnerAccount?.principal.partnerIds[0] ?? null;
        homes.set(account.email, { partnerId, businessId: ownerBusiness, merchantId: await merchantOf(ownerBusiness), viaPartner: false });
      } else if (grant.level === 'partner') {
        const businessId = account.principal.partnerBusinessIds[0] ?? '';
        homes.set(account.email, { partnerId: grant.partnerId, businessId, merchantId: await merchantOf(businessId), viaPartner: true });
      } else if (grant.level === 'business') {
        const businessId = grant.businessId ?? '';
        homes.set(account.email, { partnerId: await partnerOf(businessId), businessId, merchantId: await merchantOf(businessId), viaPartner: false });
      } else {
        homes.set(account.email, {
          partnerId: await partnerOf(grant.businessId ?? ''),
          businessId: grant.businessId ?? '',
          merchantId: grant.merchantId ?? '',
          viaPartner: false,
        });
      }
    }
    // The watch list's actions address an entry: the internal accounts' home merchant is put on the list.
    watchedMerchant = homes.get('admin@demo.test')?.merchantId ?? '';
    await database.query(
      `INSERT INTO watch_list_entries (merchant_id, business_id, score, signals, trend, status, first_flagged_utc, last_computed_utc)
      VALUES ($1, $2, 70, '[]'::jsonb, '[]'::jsonb, 'open', '2026-11-29T10:00:00Z', '2026-11-30T10:00:00Z') ON CONFLICT (merchant_id) DO NOTHING`,
      [watchedMerchant, ownerBusiness],
    );
    const seen = new Set<string>();
    routes = harness.app.routes
      .filter((route) => route.path.startsWith('/api/portal/') && ['POST', 'PUT', 'PATCH', 'DELETE'].includes(route.method))
      .map((route) => ({ method: route.method, path: route.path.slice('/api/portal'.length).replace(/\{[^}]*\}/g, '') }))
      .filter((route) => !seen.has(`${route.method} ${route.path}`) && Boolean(seen.add(`${route.method} ${route.path}`)));
  }, 600_000);
  afterAll(async () => {
    await database?.close();
    if (filesFolder) await rm(filesFolder, { recursive: true, force: true });
  });

  /** The records one call addresses in the account's home, made fresh where the call changes or removes them. */
  async function recordsFor(route: Route, account: Account, home: Home): Promise<Records> {
    const one = async (sql: string, params: unknown[]) => (await database.query<{ id: string | null }>(sql, params))[0]?.id ?? null;
    const m = home.merchantId;
    const p = route.path;
    const records: Records = { businessId: home.businessId, merchantId: m, partnerId: home.partnerId, paymentMethod: 'card', kind: 'trading' };
    records.configurationId = await one(
      `SELECT c.id FROM configurations c WHERE c.merchant_id = $1 ORDER BY (c.switches->>'virtualTerminalMenuEnabled') = 'true' DESC, c.id LIMIT 1`,
      [m],
    );
    records.paymentJobReference = await one('SELECT reference AS id FROM payment_jobs WHERE merchant_id = $1 ORDER BY reference LIMIT 1', [m]);
    records.paymentId = await one(`SELECT reference AS id FROM transactions WHERE payment_job_reference = $1 AND kind = 'payment' ORDER BY reference LIMIT 1`, [
      records.paymentJobReference,
    ]);
    records.refundId = await one(`SELECT reference AS id FROM transactions WHERE payment_job_reference = $1 AND kind = 'refund' ORDER BY reference LIMIT 1`, [
      records.paymentJobReference,
    ]);
    records.currency = await one('SELECT currencies[1] AS id FROM merchants WHERE id = $1', [m]);
    // A configuration's version guards every change to it, its hosted pages and settings: 1 for each call.
    await database.query('UPDATE configurations SET version = 1 WHERE merchant_id = $1', [m]);
    records.accountNumber = await one('SELECT account_number AS id FROM merchant_account_groups WHERE merchant_id = $1 ORDER BY account_number LIMIT 1', [m]);
    records.batchId = await one(
      'SELECT sb.id FROM settlement_batches sb JOIN merchant_account_groups g ON g.account_number = sb.account_number WHERE g.merchant_id = $1 ORDER BY sb.id LIMIT 1',
      [m],
    );
    if (p.includes('/business-accountgroups/')) {
      records.accountNumber = await one('SELECT account_number AS id FROM business_account_groups WHERE business_id = $1 ORDER BY account_number LIMIT 1', [
        home.businessId,
      ]);
      records.remittanceVersion = await one('SELECT version::text AS id FROM remittance_settings WHERE account_number = $1', [records.accountNumber]);
    }
    records.invoiceId = await one('SELECT id FROM invoices ORDER BY id LIMIT 1', []);
    if (p === '/screening/settings') {
      const admin = accounts.find((candidate) => candidate.email === 'admin@demo.test') as Account;
      records.screeningVersion = String(((await (await harness.call(admin.userId, 'GET', '/screening/settings')).json()) as { version: number }).version);
    }
    if (p.startsWith('/account-watch-list/')) {
      records.merchantId = watchedMerchant;
      await database.query('UPDATE watch_list_entries SET version = 1, ticket_id = NULL WHERE merchant_id = $1', [records.merchantId]);
    }
    // Versioned records the call saves: back to version 1 for each call.
    if (p === '/businesses/:businessId') await database.query('UPDATE businesses SET version = 1 WHERE id = $1', [home.businessId]);
    if (p === '/businesses/:businessId/merchants/:merchantId') await database.query('UPDATE merchants SET version = 1 WHERE id = $1', [m]);
    // Fresh records, so no call finds the one before it removed or changed what it addresses.
    if (
      p.includes(':configurationId') &&
      /^\/businesses\/:businessId\/merchants\/:merchantId\/configurations\/:configurationId$/.test(p) &&
      records.configurationId
    ) {
      const id = fresh('CFG');
      await cloneRow('configurations', 'id', records.configurationId, { id });
      records.configurationId = id;
    }
    if (p.includes(':ticketId')) {
      const ticketId = fresh('TCK');
      await database.query(
        `INSERT INTO tickets (id, business_id, merchant_id, created_by, type, status, priority, subject, description, created_utc, last_updated_utc, version)
        VALUES ($1, $2, $3, $4, 'general', 'Open', 'Low', 'Matrix', 'x', '2026-11-30T10:00:00Z', '2026-11-30T10:00:00Z', 1)`,
        [ticketId, home.businessId, p.includes(':merchantId') || home.viaPartner === false ? m : null, account.userId],
      );
      const commentId = fresh('TCC');
      await database.query(
        `INSERT INTO ticket_comments (id, ticket_id, author_id, text, internal, created_utc, last_updated_utc) VALUES ($1, $2, $3, 'mine', false, '2026-11-30T10:00:00Z', '2026-11-30T10:00:00Z')`,
        [commentId, ticketId, account.userId],
      );
      records.ticketId = ticketId;
      records.commentId = commentId;
      records.attachmentId = fresh('TCA');
      await database.query(
        `INSERT INTO ticket_attachments (id, ticket_id, comment_id, file_name, mime_type, size, storage_key, uploaded_by, created_utc)
        VALUES ($1, $2, $3, 'a.pdf', 'application/pdf', 1, $4, $5, '2026-11-30T10:00:00Z')`,
        [records.attachmentId, ticketId, p.includes('/comments/') ? commentId : null, `tickets/${ticketId}/${records.attachmentId}`, account.userId],
      );
    }
    if (p.includes(':reference') && p.includes('hosted-pages')) {
      const from = await one('SELECT reference AS id FROM hosted_pages WHERE merchant_id = $1 ORDER BY reference LIMIT 1', [m]);
      if (from) {
        records.reference = fresh('HP');
        await cloneRow('hosted_pages', 'reference', from, { reference: records.reference });
      }
    }
    if (p.includes(':imageReference')) {
      records.imageReference = `IMG${randomBytes(16).toString('hex').toUpperCase()}`;
      await database.query(
        `INSERT INTO images (reference, business_id, merchant_id, configuration_id, mime_type, width, height, byte_size, file_path, created_by)
        VALUES ($1, $2, $3, $4, 'image/png', 1, 1, 1, $5, 'seed')`,
        [
          records.imageReference,
          home.businessId,
          p.includes(':merchantId') ? m : null,
          p.includes(':configurationId') ? records.configurationId : null,
          `images/${records.imageReference}`,
        ],
      );
    }
    if (p.includes(':keyId')) {
      records.keyId = `KEY${randomBytes(8).toString('hex').toUpperCase()}`;
      await database.query(
        `INSERT INTO api_keys (id, configuration_id, business_id, merchant_id, name, description, prefix, key_hash, created_by, created_at)
        VALUES ($1, $2, $3, $4, 'Matrix', '', 'pk_live_matrix', $5, 'seed', '2026-11-30T10:00:00Z')`,
        [records.keyId, records.configurationId, home.businessId, m, randomBytes(32).toString('hex')],
      );
      if (p.endsWith('/replacement/complete')) {
        await database.query(
          `INSERT INTO api_keys (id, configuration_id, business_id, merchant_id, name, description, prefix, key_hash, created_by, created_at, replaces_id)
          VALUES ($1, $2, $3, $4, 'Matrix', '', 'pk_live_matrix', $5, 'seed', '2026-11-30T10:00:00Z', $6)`,
          [`KEY${randomBytes(8).toString('hex').toUpperCase()}`, records.configurationId, home.businessId, m, randomBytes(32).toString('hex'), records.keyId],
        );
      }
    }
    if (p.includes(':customerId')) {
      const from = await one(
        `SELECT c.id FROM customers c WHERE c.merchant_id = $1 ORDER BY (SELECT count(*) FROM customer_data d WHERE d.customer_id = c.id) DESC, c.id LIMIT 1`,
        [m],
      );
      if (from) {
        records.customerId = fresh('CUS');
        await cloneRow('customers', 'id', from, { id: records.customerId, reference: `MX-${++serial}` });
        const data = await one(`SELECT id FROM customer_data WHERE customer_id = $1 ORDER BY kind = 'savedCard' DESC, id LIMIT 1`, [from]);
        if (data) {
          records.dataId = records.savedCardId = fresh('CD');
          await cloneRow('customer_data', 'id', data, { id: records.dataId, customer_id: records.customerId });
        }
      }
    }
    if (p.includes(':beneficiaryId')) {
      const from = await one(`SELECT id FROM beneficiaries ORDER BY business_id = $1 DESC, id LIMIT 1`, [home.businessId]);
      if (from) {
        records.beneficiaryId = fresh('BEN');
        await cloneRow('beneficiaries', 'id', from, {
          id: records.beneficiaryId,
          business_id: home.businessId,
          status: 'Pending',
          created_by: 'seed',
          last_changed_by: 'seed',
        });
        const alert = await one(`SELECT id FROM screening_alerts ORDER BY id LIMIT 1`, []);
        if (alert) {
          records.alertId = fresh('SA');
          await cloneRow('screening_alerts', 'id', alert, {
            id: records.alertId,
            beneficiary_id: records.beneficiaryId,
            business_id: home.businessId,
            status: 'open',
          });
        }
      }
    }
    if (p.includes(':planId') && home.partnerId) {
      const from = await one('SELECT id FROM commission_plans WHERE partner_id = $1 ORDER BY id LIMIT 1', [home.partnerId]);
      if (from) {
        records.planId = fresh('CP');
        await cloneRow('commission_plans', 'id', from, { id: records.planId, name: `Matrix ${++serial}`, valid_from: '2099-01-01', valid_to: null });
      }
    }
    if (p === '/notifications/:reference') {
      records.reference = fresh('N');
      await database.query(
        `INSERT INTO notifications (reference, title, content, status, view_restriction) VALUES ($1, 'Matrix', '{"type":"doc","content":[]}', 'draft', 'allUsers')`,
        [records.reference],
      );
    }
    if (p.includes(':userId')) {
      // A user holding one role in the home business (or, on a partner's users, in the partner) and nothing else.
      records.userId = fresh('USR');
      await database.query(`INSERT INTO users (id, email, given_name, family_name, password_hash) VALUES ($1, $2, 'Matrix', 'User', 'scrypt$1$1$1$x$y')`, [
        records.userId,
        `${records.userId.toLowerCase()}@matrix.test`,
      ]);
      if (p.startsWith('/partners/'))
        await database.query(`INSERT INTO user_roles (user_id, role, level, partner_id) VALUES ($1, 'Finance', 'partner', $2)`, [
          records.userId,
          home.partnerId,
        ]);
      else
        await database.query(`INSERT INTO user_roles (user_id, role, level, business_id) VALUES ($1, 'Finance', 'business', $2)`, [
          records.userId,
          home.businessId,
        ]);
    }
    return records;
  }

  function fill(route: Route, records: Records): string | null {
    let missing = false;
    const path = route.path.replace(/:([A-Za-z]+)/g, (_match, name: string) => {
      const value = records[name === 'transactionReference' ? 'paymentId' : name];
      if (!value) missing = true;
      return encodeURIComponent(value ?? '');
    });
    if (missing) return null;
    // A versioned DELETE names its version in the query (server/api/configurations.ts versionParam).
    const versioned = [
      '/partners/:partnerId/commission-plans/:planId',
      '/businesses/:businessId/merchants/:merchantId/configurations/:configurationId',
      '/businesses/:businessId/merchants/:merchantId/hosted-pages/:reference',
    ];
    return route.method === 'DELETE' && versioned.includes(route.path) ? `${path}?version=1` : path;
  }

  function allowed(rule: Extract<Rule, { kind: 'permission' | 'rootRole' }>, account: Account, route: Route, home: Home): boolean {
    if (rule.kind === 'rootRole') return account.principal.rootRoles.includes(rule.role);
    const granted =
      rule.scope === 'root'
        ? permissionsOfRoles(account.principal.rootRoles)
        : route.path.startsWith('/partners/:partnerId')
          ? permissionsIn(account.principal, { partnerId: home.partnerId })
          : permissionsIn(account.principal, {
              partnerId: home.partnerId,
              businessId: home.businessId,
              merchantId:
                route.path.includes(':merchantId') || route.path.includes('/configurations') || route.path.includes('/customers') ? home.merchantId : null,
            });
    return rule.permissions.every((permission) => granted.has(permission));
  }

  /** Does the account read the addressed context at all? (A partner route needs the partner; a business route the business.) */
  function reads(account: Account, route: Route, home: Home): boolean {
    if (route.path.startsWith('/partners/:partnerId'))
      return account.principal.rootRoles.length > 0 || (home.partnerId !== null && account.principal.partnerIds.includes(home.partnerId));
    return true;
  }

  it('answers every write route as the policy says, for every demo account', async () => {
    const mismatches: string[] = [];
    const notCovered: string[] = [];
    const own: string[] = [];
    let probed = 0;
    let succeeded = 0;
    let refused = 0;
    let stateRefusals = 0;
    const covered = new Set<string>();
    const unprobed: string[] = [];
    const successes: { account: Account; route: Route; rule: Rule }[] = [];
    const stateBoundRoutes = new Set<string>();
    for (const route of routes) {
      const rule = ruleOf(route);
      if (rule.kind === 'notCovered') {
        notCovered.push(`${route.method} ${route.path}: ${rule.reason}`);
        continue;
      }
      if (rule.kind === 'own') {
        own.push(`${route.method} ${route.path}`);
        continue;
      }
      for (const account of accounts) {
        const home = homes.get(account.email) as Home;
        if (!reads(account, route, home)) continue;
        const records = await recordsFor(route, account, home);
        const path = fill(route, records);
        // The home holds no such record (a business without a business account group): this account is not probed here.
        if (!path) {
          unprobed.push(`${account.email} ${route.method} ${route.path}`);
          continue;
        }
        const body = bodyOf(route, records);
        const response =
          body === 'multipart'
            ? await harness.app.request(`/api/portal${path}`, {
                method: 'POST',
                headers: { authorization: `Bearer ${tokenFor(account.userId)}` },
                body: probeUpload(),
              })
            : await harness.call(account.userId, route.method, path, body, { 'time-zone': 'Europe/London' });
        const text = await response.text();
        probed += 1;
        covered.add(`${route.method} ${route.path}`);
        const expected = allowed(rule, account, route, home);
        const status = response.status;
        if (status >= 200 && status < 300) successes.push({ account, route, rule });
        if (expected) {
          const reason = stateBoundReason(route);
          if (status >= 200 && status < 300) succeeded += 1;
          else if (reason && (status === 400 || status === 409 || status === 410 || status === 422)) {
            stateRefusals += 1;
            stateBoundRoutes.add(`${route.method} ${route.path}`);
          } else mismatches.push(`${account.email} ${route.method} ${path}: allowed by the policy but ${status} ${text.slice(0, 160)}`);
        } else if (status === 403 || status === 404) refused += 1;
        else mismatches.push(`${account.email} ${route.method} ${path}: not allowed by the policy but ${status}`);
      }
    }
    console.log(
      `permission matrix on ${kind}: ${covered.size} write routes × ${accounts.length} demo accounts (${new Set(accounts.flatMap((account) => account.principal.grants.map((grant) => grant.role))).size} roles): ` +
        `${probed} calls, ${succeeded} succeeded, ${stateRefusals} allowed but refused for the record's state, ${refused} refused (403/404); ` +
        `(on ${stateBoundRoutes.size} routes: ${[...stateBoundRoutes].join(', ')}); ${unprobed.length} account × route pairs without such a record at home; ${own.length} own-record routes; not covered (${notCovered.length}):\n  ${notCovered.join('\n  ')}`,
    );
    if (mismatches.length > 0) console.log(`permission matrix mismatches on ${kind}:\n${mismatches.join('\n')}`);
    expect(mismatches).toEqual([]);
    // Read only means no write anywhere: its only successes are exports and views asked for with a POST.
    const readsOnly = (rule: Rule) =>
      rule.kind === 'permission' && rule.permissions.every((permission) => permission.endsWith('.Read') || permission === 'Portal.Reports.Create');
    expect(
      successes.filter(({ account, rule }) => account.email === 'readonly@demo.test' && !readsOnly(rule)).map(({ route }) => `${route.method} ${route.path}`),
    ).toEqual([]);
    expect(successes.filter(({ account }) => account.email === 'readonly@demo.test').length).toBeGreaterThan(5);
    // The matrix is not vacuous: most routes ran, both ways.
    expect(covered.size).toBeGreaterThan(100);
    // Every route with a rule was probed by some account.
    expect(
      routes
        .filter((route) => ['permission', 'rootRole'].includes(ruleOf(route).kind) && !covered.has(`${route.method} ${route.path}`))
        .map((route) => `${route.method} ${route.path}`),
    ).toEqual([]);
    expect(succeeded).toBeGreaterThan(200);
    expect(refused).toBeGreaterThan(500);
    expect(notCovered.length).toBeLessThanOrEqual(6);
  }, 1_200_000);
});

function probeUpload(): FormData {
  const form = new FormData();
  form.append('file', new Blob([Buffer.from('%PDF-1.4\n%%EOF\n')], { type: 'application/pdf' }), 'probe.pdf');
  return form;
}
