// Tenant isolation over the seeded demo world: every demo account against every record of every tenant it may
// not reach, on every Portal API route whose path addresses a partner, business, merchant, transaction or report
// (routes are read from the router, so new endpoints are covered). Allowed answers: 403 or 404, never data.
// Who may reach what is computed here from the role rows directly, independently of server/policy.
import { createHash } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../../server/db/client.ts';
import * as schema from '../../../server/db/schema.ts';
import { createFolderStore } from '../../../server/files/folder-store.ts';
import { demoAccounts, seedDatabase } from '../../../server/seed/seed.ts';
import { defaultHostedPageDesign } from '../../../src/contract/configurations.ts';
import { createTestApp, createTestDatabase, testCardKeys, tokenFor } from '../support.ts';

/** A valid upload (a PDF by its bytes), so a refusal is about access and not about the file. */
function probeUpload(): FormData {
  const form = new FormData();
  form.append('file', new Blob([Buffer.from('%PDF-1.4\n%%EOF\n')], { type: 'application/pdf' }), 'probe.pdf');
  return form;
}

type Tenant = {
  partnerId: string | null;
  businessId: string;
  merchantId: string;
  reference: string | null;
  paymentJobReference: string | null;
  configurationId: string | null;
  /** users: a user holding roles in the tenant's business only */
  userId: string | null;
  /** support: a ticket of the merchant (else of its business), its first comment and an attachment of each */
  ticketId: string | null;
  ticketMerchantId: string | null;
  commentId: string | null;
  attachmentId: string | null;
  commentAttachmentId: string | null;
  /** a hosted page, an image and an API key of the merchant's configuration */
  hostedPageReference: string | null;
  imageReference: string | null;
  apiKeyId: string | null;
  /** payment jobs: the job's first payment and one of its refunds */
  paymentId: string | null;
  refundId: string | null;
  /** the settlement ledger: the merchant's first account group, one of its batches, the business account group (automatic remittance off) */
  accountNumber: string | null;
  batchId: string | null;
  businessAccountNumber: string | null;
  /** risk area: a customer of the merchant and one of its data items, a beneficiary of the business and one of its alerts */
  customerId?: string | null;
  dataId?: string | null;
  beneficiaryId?: string | null;
  alertId?: string | null;
  /** virtual terminal: one of the merchant's stored customers' saved cards */
  savedCardId?: string | null;
  /** partners: a commission plan of the tenant's partner */
  commissionPlanId?: string | null;
  /** billing: one of the business's invoices */
  invoiceId?: string | null;
  /** payout reconciliation: a transfer of the business account group */
  transferId?: string | null;
};
type Account = {
  email: string;
  userId: string;
  internal: boolean;
  businesses: Set<string>;
  merchants: Set<string>;
  merchantBusinesses: Set<string>;
  partners: Set<string>;
};
type Route = { method: string; path: string };

const today = new Date().toISOString().slice(0, 10);
const lastMonth = new Date(Date.now() - 30 * 86_400_000).toISOString().slice(0, 10);

/** A body that passes validation, so the answer is about access and not about input. */
let probeSerial = 0;

function validBody(route: Route, tenant: Tenant): unknown {
  if (route.method === 'DELETE' && route.path === '/users/:userId') return { version: 1, acknowledgeAccessLoss: true, acknowledgeEmailBlocked: true };
  if (route.method === 'GET' || route.method === 'DELETE') return undefined;
  if (route.path.endsWith('/full/reports')) return { fileType: 'csv', columns: ['reference'] };
  if (route.path.endsWith('/dashboard/declines')) return { currency: 'GBP', dateRange: { startDate: lastMonth, endDate: today } };
  if (route.path.endsWith('/dashboard')) return { interval: 'month', dateRange: { startDate: lastMonth, endDate: today } };
  if (route.path.endsWith('/filter-presets')) return { page: 'transactions', name: 'Probe', filters: { kind: '[eq]refund' }, relativeDate: 'lastMonth' };
  if (route.path === '/audit-events')
    return { event: 'RecordPrinted', dateTimeUtc: new Date().toISOString(), businessId: tenant.businessId, merchantId: tenant.merchantId };
  // Users: writes aimed at the tenant's user, or granting in the tenant's business.
  if (route.path === '/users')
    return {
      emails: [`probe.${++probeSerial}@isolation.test`],
      policy: { roles: [], businessPolicies: [{ businessId: tenant.businessId, roles: ['Finance'], merchantPolicies: [] }] },
    };
  if (route.path === '/users/:userId')
    return {
      version: 1,
      givenName: 'Probe',
      familyName: 'Probe',
      policy: { roles: [], businessPolicies: [{ businessId: tenant.businessId, roles: ['Owner'], merchantPolicies: [] }] },
    };
  if (route.path === '/users/:userId/login') return { version: 1, locked: true };
  if (route.path === '/partners/:partnerId/users') return { emails: [`probe.${++probeSerial}@isolation.test`], roles: ['Finance'] };
  if (route.path === '/partners/:partnerId/users/:userId') return { version: 1, roles: ['Finance'] };
  // Support
  if (route.path.endsWith('/read-state')) return { read: true };
  if (route.path.endsWith('/attachments')) return 'multipart';
  if (route.path.endsWith('/comments')) return { text: 'A reply that must not land' };
  if (route.path.endsWith('/comments/:commentId')) return { text: 'An edit that must not land', version: 1 };
  if (route.path.endsWith('/tickets')) return { type: 'general', subject: 'Not yours', description: 'Must not be created' };
  if (route.path.endsWith('/tickets/:ticketId'))
    return { type: 'general', priority: 'High', status: 'Closed', subject: 'Not yours', description: 'x', assigneeId: null, version: 1 };
  // Configuration, hosted page, image and API key writes.
  if (route.path.endsWith('/images')) return { data: tinyPng, mimeType: 'image/png' };
  if (route.path.endsWith('/replacement/complete')) return { oldKeyStops: '7d' };
  if (route.path.endsWith('/replacement')) return undefined;
  if (route.path.endsWith('/api-keys')) return { name: 'Probe', description: '', expiresAt: null };
  if (route.path.endsWith('/hosted-pages')) return { configurationId: tenant.configurationId, name: 'Probe', design: defaultHostedPageDesign, version: 1 };
  if (route.path.endsWith('/hosted-pages/:reference')) return { name: 'Probe', design: defaultHostedPageDesign, version: 1 };
  if (route.path.includes('/:paymentMethod'))
    return { enabled: false, displayName: 'Card', threeDSecurePolicy: 'always', minimumAmount: null, maximumAmount: null, currencies: [], version: 1 };
  if (route.path.endsWith('/configurations') && route.method === 'POST') return { tradeName: 'Probe', description: '' };
  if (route.path.endsWith('/configurations/:configurationId'))
    return { tradeName: 'Probe', description: '', switches: { virtualTerminalMenuEnabled: true }, version: 1 };
  if (route.path.endsWith('/merchants/:merchantId')) return { merchantName: 'Probe', merchantUrl: null, supportUrl: null, version: 1 };
  if (route.path === '/businesses/:businessId') return { businessName: 'Probe', businessUrl: null, version: 1 };
  // Payment actions: bodies that pass validation, so only access decides.
  if (route.path.endsWith('/actions/capture')) return { amount: 1, version: 1 };
  if (route.path.endsWith('/actions/refund')) return { amount: 1, reason: 'duplicate', version: 1 };
  if (route.path.endsWith('/actions/void')) return { version: 1 };
  if (route.path.endsWith('/refunds/:refundId/actions/cancel')) return { version: 1 };
  if (route.path.endsWith('/payment-jobs/:paymentJobReference/actions/cancel')) return { confirmed: true, version: 1 };
  if (route.path.endsWith('/actions/mail-payment-link')) return { emailAddress: 'probe@example.test' };
  if (route.path.endsWith('/payment-jobs/:paymentJobReference/actions/expire')) return { version: 1 };
  // The settlement ledger's report requests and the remittance change.
  if (route.path.endsWith('/reports')) return { fileType: 'csv' };
  if (route.path.endsWith('/remittance'))
    return { frequency: 'weekly', dayOfPeriod: 5, startDate: today, beneficiary: { companyName: 'Probe Ltd' }, version: 1 };
  if (route.path.endsWith('/customers')) return { reference: 'ISO-1', firstName: 'Iso', lastName: 'Lation' };
  if (route.path.endsWith('/customers/:customerId')) return { reference: 'ISO-1', firstName: 'Iso', lastName: 'Lation', version: 1 };
  const beneficiary = { kind: 'company', companyName: 'Isolation Ltd', nameOnBankAccount: 'Isolation Ltd', iban: 'GB82WEST12345698765432', bic: 'NWBKGB2L' };
  if (route.path.endsWith('/beneficiaries')) return beneficiary;
  if (route.path.endsWith('/beneficiaries/:beneficiaryId')) return { ...beneficiary, version: 1 };
  if (route.path.endsWith('/status') && route.path.includes('/beneficiaries/')) return { status: 'Approved' };
  if (route.path.endsWith('/alerts/:alertId')) return { decision: 'dismissed', reason: 'Isolation probe', version: 1 };
  if (route.path.endsWith('/account-watch-list/:merchantId/status')) return { status: 'acknowledged', version: 1 };
  if (route.path.endsWith('/account-watch-list/:merchantId/notes')) return { text: 'Isolation probe' };
  if (route.path.endsWith('/account-watch-list/:merchantId/ticket')) return { version: 1 };
  // Virtual terminal: an order and settings that pass validation.
  if (route.path.endsWith('/virtual-terminal/orders/:paymentJobReference/attempts')) return { sameCard: true };
  if (route.path.endsWith('/virtual-terminal/orders')) {
    return {
      merchantReference: `ISO-${++probeSerial}`,
      currency: 'GBP',
      billingIdentity: { emailAddress: 'probe@example.test' },
      billingAddress: { lastName: 'Probe', countryIso3166Alpha2: 'GB' },
      orderLines: [{ type: 'physicalItem', description: 'Probe', quantity: 1, unitPrice: 1, priceIncludesVat: true, vatPercentage: 20 }],
      card: { cardNumber: '4111111111111111', expiry: '12/39', cvc: '123', cardholderName: 'Probe' },
    };
  }
  if (route.path.endsWith('/virtual-terminal/settings')) {
    return {
      defaultCurrency: null,
      orderConfirmationEmails: false,
      savedCardsAllowed: true,
      savedCardLimit: 5,
      defaultOrderLineType: 'physicalItem',
      askShippingAddress: true,
      version: 1,
    };
  }
  // Partners: the declines by business take the dashboard's declines body.
  if (route.path === '/partners/:partnerId/declines') return { currency: 'GBP', dateRange: { startDate: lastMonth, endDate: today } };
  // A plan (PUT: with its version; POST: a new one) that passes the checks, so a refusal is about access.
  if (route.path === '/partners/:partnerId/commission-plans/:planId' || route.path === '/partners/:partnerId/commission-plans') {
    return {
      ...(route.method === 'PUT' ? { version: 1 } : {}),
      name: 'Probe',
      validFrom: lastMonth,
      validTo: null,
      rules: [
        {
          priority: 1,
          description: 'Everything to the prober',
          volumeFromMinor: 0,
          volumeToMinor: null,
          percentageBasisPoints: 10_000,
          fixedMinor: 0,
          channel: null,
          currency: null,
          paymentMethod: null,
          cardType: null,
        },
      ],
    };
  }
  // Dashboard breakdown
  if (route.path.endsWith('/dashboard/breakdown')) return { by: 'merchant', dateRange: { startDate: lastMonth, endDate: today } };
  return undefined;
}

/** A 1 × 1 PNG: a valid image, so an image upload is refused for access alone. */
const tinyPng = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';

function fill(route: Route, tenant: Tenant): string | null {
  let missing = false;
  const path = route.path.replace(/:([A-Za-z]+)(\{[^}]*\})?/g, (_match, name: string) => {
    const value = (
      {
        businessId: tenant.businessId,
        merchantId: tenant.merchantId,
        partnerId: tenant.partnerId,
        reference: route.path.includes('/hosted-pages/') ? tenant.hostedPageReference : tenant.reference,
        transactionReference: tenant.reference,
        paymentJobReference: tenant.paymentJobReference,
        configurationId: tenant.configurationId,
        userId: tenant.userId,
        ticketId: tenant.ticketId,
        commentId: tenant.commentId,
        attachmentId: route.path.includes('/comments/') ? tenant.commentAttachmentId : tenant.attachmentId,
        paymentMethod: 'card',
        imageReference: tenant.imageReference,
        keyId: tenant.apiKeyId,
        paymentId: tenant.paymentId,
        traceReference: tenant.paymentId ? `TR${tenant.paymentId.slice(2)}` : null,
        refundId: tenant.refundId,
        accountNumber: route.path.includes('/business-accountgroups/') ? tenant.businessAccountNumber : tenant.accountNumber,
        batchId: tenant.batchId,
        kind: 'trading',
        customerId: tenant.customerId ?? null,
        dataId: tenant.dataId ?? null,
        beneficiaryId: tenant.beneficiaryId ?? null,
        alertId: tenant.alertId ?? null,
        savedCardId: tenant.savedCardId ?? null,
        planId: tenant.commissionPlanId ?? null,
        invoiceId: tenant.invoiceId ?? null,
        transferId: tenant.transferId ?? null,
      } as Record<string, string | null>
    )[name];
    if (!value) missing = true;
    return encodeURIComponent(value ?? '');
  });
  if (missing) return null;
  // A versioned DELETE names its version in the query (server/api/configurations.ts versionParam): a valid one.
  return route.method === 'DELETE' && route.path === '/partners/:partnerId/commission-plans/:planId' ? `${path}?version=1` : path;
}

function reaches(account: Account, tenant: Tenant, route: Route): boolean {
  if (account.internal) return true;
  if (route.path.includes(':partnerId')) return tenant.partnerId !== null && account.partners.has(tenant.partnerId);
  const viaBusiness = account.businesses.has(tenant.businessId);
  // A ticket is its business's, or its merchant's when it has one.
  if (route.path.includes(':ticketId')) return viaBusiness || (tenant.ticketMerchantId !== null && account.merchants.has(tenant.ticketMerchantId));
  // A merchant role names its business in the caller's own policy: the context panel may list that business and
  // the caller's merchants in it, and the caller may ask for its (empty) permissions there. Nothing else.
  const businessOnly = !route.path.includes(':merchantId') && !route.path.includes(':reference');
  if (businessOnly && /^\/(context|user)\//.test(route.path) && account.merchantBusinesses.has(tenant.businessId)) return true;
  if (route.path.includes(':merchantId') || route.path.includes(':reference') || route.path === '/audit-events')
    return viaBusiness || account.merchants.has(tenant.merchantId);
  // The tenant's user holds roles in the tenant's business only: reached through that business (or by being them).
  if (route.path.includes(':userId') && tenant.userId === account.userId) return true;
  return viaBusiness;
}

/**
 * Which record sets an account is probed with on a route. Every account × route × record set out of reach took
 * over four minutes on PGlite, and most record sets stand in the same relation to an account (another partner's
 * business, say): a refusal follows from that relation, not from which of them it is. So each account and route is
 * probed with `perClass` record sets of each relation class, and the choice rotates with the route, so that over the
 * routes every record set out of an account's reach is still probed for that account (checked below).
 * ISOLATION_MATRIX=full probes every pair.
 */
const fullMatrix = process.env.ISOLATION_MATRIX === 'full';
const perClass = 2;

function relationOf(account: Account, tenant: Tenant): string {
  return [
    tenant.partnerId === null ? 'no partner' : account.partners.has(tenant.partnerId) ? 'own partner' : 'other partner',
    account.businesses.has(tenant.businessId)
      ? 'own business'
      : account.merchantBusinesses.has(tenant.businessId)
        ? 'business of own merchant'
        : 'other business',
    account.merchants.has(tenant.merchantId) ? 'own merchant' : 'other merchant',
    tenant.userId === account.userId ? 'own user' : 'other user',
    tenant.ticketMerchantId !== null && account.merchants.has(tenant.ticketMerchantId) ? 'ticket of own merchant' : 'other ticket',
  ].join(', ');
}

type Probe = { tenant: Tenant; path: string };

/** The record sets out of the account's reach that the route can address, and the ones probed. */
function probesFor(account: Account, route: Route, routeIndex: number, tenants: Tenant[]): { candidates: Probe[]; chosen: Probe[] } {
  const candidates = tenants
    .filter((tenant) => !reaches(account, tenant, route))
    .map((tenant) => ({ tenant, path: fill(route, tenant) }))
    .filter((probe): probe is Probe => probe.path !== null);
  if (fullMatrix) return { candidates, chosen: candidates };
  const classes = new Map<string, Probe[]>();
  for (const probe of candidates) {
    const relation = relationOf(account, probe.tenant);
    classes.set(relation, [...(classes.get(relation) ?? []), probe]);
  }
  const chosen = [...classes.values()].flatMap((members) =>
    members.length <= perClass ? members : Array.from({ length: perClass }, (_, k) => members[(routeIndex * perClass + k) % members.length] as Probe),
  );
  return { candidates, chosen };
}

describe('tenant isolation matrix (seeded demo world, PGlite)', () => {
  let database: Database;
  let harness: ReturnType<typeof createTestApp>;
  let accounts: Account[];
  let tenants: Tenant[];
  let routes: Route[];
  let filesFolder: string;

  beforeAll(async () => {
    database = await createTestDatabase('pglite');
    await seedDatabase(database, { transactions: 3000, cardKeys: testCardKeys });
    filesFolder = await mkdtemp(join(tmpdir(), 'isolation-files-'));
    const files = createFolderStore(filesFolder);
    harness = createTestApp(database, { files });
    const roleRows = await database.query<{
      email: string;
      user_id: string;
      internal: boolean;
      level: string;
      partner_id: string | null;
      business_id: string | null;
      merchant_id: string | null;
    }>(
      `SELECT u.email, u.id AS user_id, u.internal, r.level, r.partner_id, r.business_id, r.merchant_id
         FROM users u LEFT JOIN user_roles r ON r.user_id = u.id WHERE u.email = ANY($1)`,
      [demoAccounts.map((account) => account.email)],
    );
    const partnerBusinesses = await database.query<{ id: string; partner_id: string | null }>('SELECT id, partner_id FROM businesses');
    accounts = demoAccounts.map(({ email }) => {
      const rows = roleRows.filter((row) => row.email === email);
      const partners = new Set(rows.filter((row) => row.level === 'partner').map((row) => row.partner_id ?? ''));
      return {
        email,
        userId: rows[0]?.user_id ?? '',
        internal: rows.some((row) => row.level === 'root'),
        partners,
        businesses: new Set([
          ...rows.filter((row) => row.level === 'business').map((row) => row.business_id ?? ''),
          ...partnerBusinesses.filter((business) => business.partner_id && partners.has(business.partner_id)).map((business) => business.id),
        ]),
        merchants: new Set(rows.filter((row) => row.level === 'merchant').map((row) => row.merchant_id ?? '')),
        merchantBusinesses: new Set(rows.filter((row) => row.level === 'merchant').map((row) => row.business_id ?? '')),
      };
    });
    // Record sets: the first merchant of every business, and every merchant of a business where some account holds a
    // merchant-level role (isolation inside a business). Each set: the merchant, its business and partner, one of its
    // transactions, payment jobs and configurations.
    const merchantRoleBusinesses = new Set(accounts.flatMap((account) => [...account.merchantBusinesses]));
    const firstMerchants = new Set((await database.query<{ id: string }>('SELECT min(id) AS id FROM merchants GROUP BY business_id')).map((row) => row.id));
    tenants = (
      await database.query<{
        partner_id: string | null;
        business_id: string;
        merchant_id: string;
        reference: string | null;
        payment_job_reference: string | null;
        configuration_id: string | null;
        user_id: string | null;
        ticket_id: string | null;
        hosted_page_reference: string | null;
        api_key_id: string | null;
        payment_id: string | null;
        refund_id: string | null;
        account_number: string | null;
        batch_id: string | null;
        business_account_number: string | null;
        customer_id: string | null;
        data_id: string | null;
        beneficiary_id: string | null;
        alert_id: string | null;
        saved_card_id: string | null;
        invoice_id: string | null;
      }>(`
      SELECT s.*,
             (SELECT t.reference FROM transactions t WHERE t.payment_job_reference = s.payment_job_reference AND t.kind = 'payment' ORDER BY t.reference LIMIT 1) AS payment_id,
             coalesce((SELECT r.reference FROM transactions r WHERE r.payment_job_reference = s.payment_job_reference AND r.kind = 'refund' ORDER BY r.reference LIMIT 1), 'TX0000000000') AS refund_id
      FROM (SELECT b.partner_id, m.business_id, m.id AS merchant_id,
             (SELECT t.reference FROM transactions t WHERE t.merchant_id = m.id ORDER BY t.reference LIMIT 1) AS reference,
             (SELECT j.reference FROM payment_jobs j WHERE j.merchant_id = m.id ORDER BY j.reference LIMIT 1) AS payment_job_reference,
             (SELECT c.id FROM configurations c WHERE c.merchant_id = m.id ORDER BY c.id LIMIT 1) AS configuration_id,
             (SELECT min(r.user_id) FROM user_roles r WHERE r.business_id = m.business_id AND NOT EXISTS (
                SELECT 1 FROM user_roles o WHERE o.user_id = r.user_id AND (o.business_id IS DISTINCT FROM m.business_id))) AS user_id,
             (SELECT k.id FROM tickets k WHERE k.business_id = m.business_id AND (k.merchant_id = m.id OR k.merchant_id IS NULL)
               ORDER BY k.merchant_id IS NULL, k.id LIMIT 1) AS ticket_id,
             (SELECT h.reference FROM hosted_pages h WHERE h.merchant_id = m.id ORDER BY h.reference LIMIT 1) AS hosted_page_reference,
             (SELECT k.id FROM api_keys k WHERE k.configuration_id = (SELECT c.id FROM configurations c WHERE c.merchant_id = m.id ORDER BY c.id LIMIT 1) ORDER BY k.id LIMIT 1) AS api_key_id,
             (SELECT g.account_number FROM merchant_account_groups g WHERE g.merchant_id = m.id ORDER BY g.account_number LIMIT 1) AS account_number,
             (SELECT sb.id FROM settlement_batches sb JOIN merchant_account_groups g ON g.account_number = sb.account_number WHERE g.merchant_id = m.id ORDER BY g.account_number, sb.id LIMIT 1) AS batch_id,
             (SELECT bg.account_number FROM business_account_groups bg WHERE bg.business_id = m.business_id ORDER BY bg.account_number LIMIT 1) AS business_account_number,
             (SELECT cu.id FROM customers cu WHERE cu.merchant_id = m.id ORDER BY (SELECT count(*) FROM customer_data d WHERE d.customer_id = cu.id AND d.kind = 'savedCard') DESC, cu.id LIMIT 1) AS customer_id,
             (SELECT d.id FROM customer_data d WHERE d.merchant_id = m.id ORDER BY d.id LIMIT 1) AS data_id,
             (SELECT bf.id FROM beneficiaries bf WHERE bf.business_id = m.business_id ORDER BY bf.id LIMIT 1) AS beneficiary_id,
             (SELECT sa.id FROM screening_alerts sa WHERE sa.business_id = m.business_id ORDER BY sa.id LIMIT 1) AS alert_id,
             (SELECT d.id FROM customer_data d JOIN customers cu ON cu.id = d.customer_id WHERE cu.merchant_id = m.id AND d.kind = 'savedCard' ORDER BY d.customer_id, d.id LIMIT 1) AS saved_card_id,
             (SELECT iv.id FROM invoices iv WHERE iv.business_id = m.business_id ORDER BY iv.id LIMIT 1) AS invoice_id
        FROM merchants m JOIN businesses b ON b.id = m.business_id) s ORDER BY s.merchant_id`)
    )
      .map((row) => ({
        partnerId: row.partner_id,
        businessId: row.business_id,
        merchantId: row.merchant_id,
        reference: row.reference,
        paymentJobReference: row.payment_job_reference,
        configurationId: row.configuration_id,
        userId: row.user_id,
        ticketId: row.ticket_id,
        ticketMerchantId: null as string | null,
        commentId: null as string | null,
        attachmentId: null as string | null,
        commentAttachmentId: null as string | null,
        hostedPageReference: row.hosted_page_reference,
        apiKeyId: row.api_key_id,
        // Images are not seeded (they live in the file store): one row per merchant's configuration is added below.
        imageReference: row.configuration_id ? `IMG${createHash('md5').update(row.merchant_id).digest('hex').toUpperCase()}` : null,
        paymentId: row.payment_id,
        refundId: row.refund_id,
        accountNumber: row.account_number,
        batchId: row.batch_id,
        businessAccountNumber: row.business_account_number,
        customerId: row.customer_id,
        dataId: row.data_id,
        beneficiaryId: row.beneficiary_id,
        alertId: row.alert_id,
        savedCardId: row.saved_card_id,
        invoiceId: row.invoice_id,
      }))
      .filter((tenant) => firstMerchants.has(tenant.merchantId) || merchantRoleBusinesses.has(tenant.businessId));
    for (const tenant of tenants) {
      const [plan] = tenant.partnerId
        ? await database.query<{ id: string }>('SELECT id FROM commission_plans WHERE partner_id = $1 ORDER BY id LIMIT 1', [tenant.partnerId])
        : [];
      tenant.commissionPlanId = plan?.id ?? null;
      const [transfer] = tenant.businessAccountNumber
        ? await database.query<{ id: string }>("SELECT id FROM ledger_transfers WHERE account_number = $1 AND group_kind = 'business' ORDER BY id LIMIT 1", [
            tenant.businessAccountNumber,
          ])
        : [];
      tenant.transferId = transfer?.id ?? null;
    }
    for (const tenant of tenants) {
      if (!tenant.imageReference || !tenant.configurationId) continue;
      await database.db.insert(schema.images).values({
        reference: tenant.imageReference,
        businessId: tenant.businessId,
        merchantId: tenant.merchantId,
        configurationId: tenant.configurationId,
        mimeType: 'image/png',
        width: 1,
        height: 1,
        byteSize: 1,
        filePath: `images/${tenant.imageReference}`,
        createdBy: 'seed',
      });
    }
    // Every probed ticket gets a comment and a file on the ticket and on the comment (stored, so a leak would serve bytes).
    for (const tenant of tenants) {
      if (!tenant.ticketId) continue;
      const [ticket] = await database.query<{ merchant_id: string | null; created_by: string }>('SELECT merchant_id, created_by FROM tickets WHERE id = $1', [
        tenant.ticketId,
      ]);
      tenant.ticketMerchantId = ticket?.merchant_id ?? null;
      tenant.commentId = `TCCISO${tenant.merchantId}`;
      await database.query(`INSERT INTO ticket_comments (id, ticket_id, author_id, text) VALUES ($1, $2, $3, 'isolation probe') ON CONFLICT DO NOTHING`, [
        tenant.commentId,
        tenant.ticketId,
        ticket?.created_by,
      ]);
      for (const [key, commentId] of [
        ['attachmentId', null],
        ['commentAttachmentId', tenant.commentId],
      ] as const) {
        const id = `TCAISO${key.length}${tenant.merchantId}`;
        const storageKey = `tickets/${tenant.ticketId}/${id}`;
        await files.put(storageKey, Readable.from([Buffer.from('%PDF-1.4 isolation probe')]), { contentType: 'application/pdf' });
        await database.query(
          `INSERT INTO ticket_attachments (id, ticket_id, comment_id, file_name, mime_type, size, storage_key, uploaded_by)
          VALUES ($1, $2, $3, 'probe.pdf', 'application/pdf', 24, $4, $5) ON CONFLICT DO NOTHING`,
          [id, tenant.ticketId, commentId, storageKey, ticket?.created_by],
        );
        tenant[key] = id;
      }
    }
    const seen = new Set<string>();
    routes = harness.app.routes
      .filter((route) => route.path.startsWith('/api/portal/') && route.method !== 'ALL')
      .map((route) => ({ method: route.method, path: route.path.slice('/api/portal'.length) }))
      .filter(
        (route) =>
          /:(businessId|merchantId|partnerId|reference|userId|ticketId|configurationId)/.test(route.path) ||
          route.path === '/audit-events' ||
          (route.method === 'POST' && route.path === '/users'),
      )
      // The watch list is internal-only: every business account is refused it whatever the merchant (probed below).
      .filter((route) => !route.path.startsWith('/account-watch-list'))
      .filter((route) => !seen.has(`${route.method} ${route.path}`) && Boolean(seen.add(`${route.method} ${route.path}`)));
  }, 300_000);
  afterAll(async () => {
    await database?.close();
    if (filesFolder) await rm(filesFolder, { recursive: true, force: true });
  });

  it('answers 403 or 404, never data, for every record outside each account’s reach', async () => {
    expect(routes.length).toBeGreaterThanOrEqual(15);
    // The user routes are really probed: most record sets carry a user of their own business.
    expect(tenants.filter((tenant) => tenant.userId !== null).length).toBeGreaterThanOrEqual(10);
    expect(routes.filter((route) => route.path.includes(':userId')).length).toBeGreaterThanOrEqual(8);
    const leaks: string[] = [];
    const matrix: string[] = [];
    let skipped = 0;
    const unprobed: string[] = [];
    for (const account of accounts) {
      let refused = 0;
      const started = performance.now();
      let probed = 0;
      const outOfReach = new Set<Tenant>();
      const probedSets = new Set<Tenant>();
      for (const [routeIndex, route] of routes.entries()) {
        const { candidates, chosen } = probesFor(account, route, routeIndex, tenants);
        skipped += candidates.length - chosen.length;
        for (const candidate of candidates) outOfReach.add(candidate.tenant);
        for (const { tenant, path } of chosen) {
          probedSets.add(tenant);
          probed += 1;
          const body = validBody(route, tenant);
          const response =
            body === 'multipart'
              ? await harness.app.request(`/api/portal${path}`, {
                  method: 'POST',
                  headers: { authorization: `Bearer ${tokenFor(account.userId)}`, 'time-zone': 'Europe/London' },
                  body: probeUpload(),
                })
              : await harness.call(account.userId, route.method, path, body, { 'time-zone': 'Europe/London' });
          if (response.status === 403 || response.status === 404) refused += 1;
          else leaks.push(`${account.email} ${route.method} ${path} → ${response.status}`);
          await response.arrayBuffer();
        }
      }
      for (const tenant of outOfReach) if (!probedSets.has(tenant)) unprobed.push(`${account.email}: ${tenant.merchantId}`);
      matrix.push(
        `${account.email.padEnd(22)} ${String(probed).padStart(6)} probes  ${String(refused).padStart(6)} refused (403/404)  ${probed - refused} leaked  ${((performance.now() - started) / 1000).toFixed(1)} s`,
      );
    }
    console.log(
      `tenant isolation over ${routes.length} routes × ${tenants.length} record sets (${fullMatrix ? 'every record set' : `${perClass} per relation class, rotating`}; ${skipped} pairs left to other routes):\n${matrix.join('\n')}`,
    );
    expect(leaks.slice(0, 20)).toEqual([]);
    // The rotation reached every record set out of each account's reach on some route.
    expect(unprobed.slice(0, 20)).toEqual([]);
  }, 600_000);

  it('keeps each user’s queued reports to that user on every report route', async () => {
    const owner = accounts.find((account) => account.email === 'owner@demo.test');
    const business = [...(owner?.businesses ?? [])][0];
    const queued = await harness.call(owner?.userId ?? '', 'POST', `/businesses/${business}/transactions/full/reports`, {
      fileType: 'csv',
      columns: ['reference'],
    });
    expect(queued.status).toBe(202);
    const { reportId } = (await queued.json()) as { reportId: string };
    const reportRoutes = harness.app.routes.filter((route) => route.path.startsWith('/api/portal/reports/:id'));
    expect(reportRoutes.length).toBeGreaterThanOrEqual(4);
    for (const account of accounts.filter((candidate) => candidate.email !== 'owner@demo.test')) {
      for (const route of reportRoutes) {
        const response = await harness.call(account.userId, route.method, route.path.slice('/api/portal'.length).replace(':id', reportId));
        expect(response.status, `${account.email} ${route.method} ${route.path}`).toBe(404);
      }
    }
    expect((await harness.call(owner?.userId ?? '', 'GET', `/reports/${reportId}`)).status).toBe(200);
  });

  it('refuses a scheduled statement of any account group outside each account’s reach, and keeps schedules to their owner', async () => {
    // The account group is in the body, not the path: probed here for every account and every record set it may not reach.
    const schedule = (tenant: Tenant, business: boolean) =>
      business
        ? { reportType: 'businessAccount', fileType: 'csv', businessId: tenant.businessId, accountNumber: tenant.businessAccountNumber }
        : { reportType: 'tradingAccount', fileType: 'csv', businessId: tenant.businessId, merchantId: tenant.merchantId, accountNumber: tenant.accountNumber };
    const leaks: string[] = [];
    let probes = 0;
    for (const account of accounts) {
      for (const tenant of tenants) {
        for (const business of [false, true]) {
          if (!(business ? tenant.businessAccountNumber : tenant.accountNumber)) continue;
          const route = {
            method: 'POST',
            path: business
              ? '/businesses/:businessId/business-accountgroups/:accountNumber/statement/reports'
              : '/businesses/:businessId/merchants/:merchantId/merchant-accountgroups/:accountNumber/statements/:kind/reports',
          };
          if (reaches(account, tenant, route)) continue;
          probes += 1;
          const response = await harness.call(account.userId, 'POST', '/report-schedules', {
            ...schedule(tenant, business),
            frequency: 'daily',
            hour: 6,
            timeZone: 'Europe/London',
            emailWhenReady: false,
          });
          if (response.status !== 403 && response.status !== 404)
            leaks.push(`${account.email} ${JSON.stringify(schedule(tenant, business))} → ${response.status}`);
          await response.arrayBuffer();
        }
      }
    }
    expect(probes).toBeGreaterThan(50);
    expect(leaks.slice(0, 20)).toEqual([]);
    // The finance user's own schedule: nobody else sees, pauses, deletes or runs it.
    const finance = accounts.find((account) => account.email === 'finance@demo.test');
    const mine = tenants.find((tenant) => tenant.accountNumber && finance?.businesses.has(tenant.businessId));
    const created = await harness.call(finance?.userId ?? '', 'POST', '/report-schedules', {
      ...schedule(mine as Tenant, false),
      frequency: 'daily',
      hour: 6,
      timeZone: 'Europe/London',
      emailWhenReady: false,
    });
    expect(created.status, await created.clone().text()).toBe(201);
    const { id } = (await created.json()) as { id: string };
    for (const account of accounts.filter((candidate) => candidate.userId !== finance?.userId)) {
      expect((await harness.call(account.userId, 'PATCH', `/report-schedules/${id}`, { paused: true, version: 1 })).status, account.email).toBe(404);
      expect((await harness.call(account.userId, 'DELETE', `/report-schedules/${id}`)).status, account.email).toBe(404);
      expect(
        (await harness.call(account.userId, 'POST', `/report-schedules/${id}/runs`, undefined, { 'Idempotency-Key': `probe-${account.userId}` })).status,
        account.email,
      ).toBe(404);
      expect(await (await harness.call(account.userId, 'GET', '/report-schedules')).text(), account.email).not.toContain(id);
    }
  });

  it('refuses a scheduled transactions export of any business, merchant or partner outside each account’s reach', async () => {
    // The business, merchant or partner is in the body, not the path: probed for every account and record set it may not reach.
    const leaks: string[] = [];
    let probes = 0;
    for (const account of accounts) {
      for (const tenant of tenants) {
        for (const level of ['business', 'merchant', 'partner'] as const) {
          if (level === 'partner' && tenant.partnerId === null) continue;
          const route = {
            method: 'POST',
            path: {
              business: '/businesses/:businessId/transactions/full/reports',
              merchant: '/businesses/:businessId/merchants/:merchantId/transactions/full/reports',
              partner: '/partners/:partnerId/transactions/full/reports',
            }[level],
          };
          if (reaches(account, tenant, route)) continue;
          probes += 1;
          const body = {
            reportType: 'transactions',
            fileType: 'csv',
            ...(level === 'partner'
              ? { partnerId: tenant.partnerId }
              : { businessId: tenant.businessId, ...(level === 'merchant' ? { merchantId: tenant.merchantId } : {}) }),
            columns: ['reference', 'amount'],
            filters: { status: '[eq]paid' },
            frequency: 'daily',
            hour: 6,
            timeZone: 'Europe/London',
            emailWhenReady: false,
          };
          const response = await harness.call(account.userId, 'POST', '/report-schedules', body);
          if (response.status !== 403 && response.status !== 404) leaks.push(`${account.email} ${JSON.stringify(body)} → ${response.status}`);
          await response.arrayBuffer();
        }
      }
    }
    expect(probes).toBeGreaterThan(50);
    expect(leaks.slice(0, 20)).toEqual([]);
  });

  it('never sends an internal ticket note to an account without Portal.Tickets.Read.Internal', async () => {
    const notes = await database.query<{ id: string; ticket_id: string; business_id: string; text: string }>(
      'SELECT c.id, c.ticket_id, k.business_id, c.text FROM ticket_comments c JOIN tickets k ON k.id = c.ticket_id WHERE c.internal',
    );
    expect(notes.length).toBeGreaterThan(0);
    let probes = 0;
    for (const account of accounts.filter((candidate) => !candidate.internal)) {
      for (const note of notes.filter((candidate) => account.businesses.has(candidate.business_id))) {
        for (const base of [`/businesses/${note.business_id}/tickets/${note.ticket_id}`, `/tickets/${note.ticket_id}`]) {
          for (const path of [base, `${base}/comments`]) {
            const response = await harness.call(account.userId, 'GET', path);
            expect(response.status, `${account.email} ${path}`).toBe(200);
            const text = await response.text();
            expect(text, `${account.email} ${path}`).not.toContain(note.id);
            expect(text, `${account.email} ${path}`).not.toContain(note.text);
            probes += 1;
          }
          expect((await harness.call(account.userId, 'GET', `${base}/comments/${note.id}`)).status).toBe(404);
        }
      }
    }
    // The owner's first ticket holds a seeded internal note: the probe above really ran.
    expect(probes).toBeGreaterThan(0);
  });

  it('refuses the internal risk calls (watch list, screening alerts and settings) to every business account', async () => {
    const riskRoutes = harness.app.routes.filter((route) => /^\/api\/portal\/(account-watch-list|screening)/.test(route.path) && route.method !== 'ALL');
    expect(riskRoutes.length).toBeGreaterThanOrEqual(7);
    const tenant = tenants[0] as Tenant;
    for (const account of accounts.filter((candidate) => !candidate.internal)) {
      for (const route of riskRoutes) {
        const path = fill({ method: route.method, path: route.path.slice('/api/portal'.length) }, tenant) ?? '';
        const body =
          route.method === 'GET'
            ? undefined
            : route.path.endsWith('/settings')
              ? { sensitivity: 'high', version: 1 }
              : validBody({ method: route.method, path: route.path }, tenant);
        const response = await harness.call(account.userId, route.method, path, body);
        expect(response.status, `${account.email} ${route.method} ${path}`).toBe(403);
      }
    }
  });

  it("never shows another tenant's beneficiary in the context-free approval queue, filtered by its business or not", async () => {
    // The queue names no business in its path, so the matrix above does not reach it: each account asks for it whole
    // and filtered by every business it may not reach. Refused (403), or only its own businesses' rows.
    const pending = await database.query<{ business_id: string }>(`SELECT DISTINCT business_id FROM beneficiaries WHERE status = 'Referred'`);
    expect(pending.length).toBeGreaterThanOrEqual(2);
    const businessIds = [...new Set([...pending.map((row) => row.business_id), ...tenants.map((tenant) => tenant.businessId)])];
    const leaks: string[] = [];
    let answered = 0;
    for (const account of accounts) {
      const queries = [
        '',
        ...(account.internal ? [] : businessIds.filter((id) => !account.businesses.has(id)).map((id) => `?businessid=${encodeURIComponent(`[eq]${id}`)}`)),
      ];
      for (const query of queries) {
        const response = await harness.call(account.userId, 'GET', `/beneficiary-approvals${query}`);
        if (response.status === 403) {
          await response.arrayBuffer();
          continue;
        }
        if (response.status !== 200) {
          leaks.push(`${account.email} ${query} → ${response.status}`);
          continue;
        }
        answered += 1;
        const body = (await response.json()) as { results: { businessId: string }[]; businesses: { businessId: string }[] };
        const outside = [...body.results, ...body.businesses].filter((row) => !account.internal && !account.businesses.has(row.businessId));
        if (outside.length > 0) leaks.push(`${account.email} ${query} → ${outside.map((row) => row.businessId).join(', ')}`);
      }
    }
    // The owner and the internal accounts really read the queue (the check is not all refusals).
    expect(answered).toBeGreaterThan(accounts.filter((account) => account.internal).length);
    expect(leaks.slice(0, 20)).toEqual([]);
  });

  it('refuses the internal billing calls to every business account, and probes real invoices', async () => {
    expect(tenants.filter((tenant) => tenant.invoiceId).length).toBeGreaterThan(0);
    const billingRoutes = harness.app.routes.filter((route) => route.path.startsWith('/api/portal/billing/') && route.method !== 'ALL');
    expect(billingRoutes.length).toBeGreaterThanOrEqual(7);
    const tenant = tenants.find((candidate) => candidate.invoiceId) as Tenant;
    for (const account of accounts.filter((candidate) => !candidate.internal)) {
      for (const route of billingRoutes) {
        const path = route.path.slice('/api/portal'.length).replace(':invoiceId', tenant.invoiceId ?? '');
        const body =
          route.method === 'GET'
            ? undefined
            : route.path.endsWith('/status')
              ? { status: 'paid', version: 1 }
              : route.path.endsWith('/credit-notes')
                ? { reason: 'Probe' }
                : { month: '2026-01' };
        const response = await harness.call(account.userId, route.method, path, body);
        expect(response.status, `${account.email} ${route.method} ${path}`).toBe(403);
      }
    }
  });

  it('lets every account reach its own records (the matrix is not refusing everything)', async () => {
    for (const account of accounts.filter((candidate) => !candidate.internal && candidate.businesses.size > 0)) {
      const business = [...account.businesses][0] ?? '';
      const response = await harness.call(account.userId, 'GET', `/user/businesses/${business}/permissions`);
      expect(response.status, account.email).toBe(200);
    }
  });

  it('never suggests a record of another tenant in the palette’s record search', async () => {
    type Found = { kind: string; id: string; context: { business?: { id: string }; merchant?: { id: string } } };
    const leaks: string[] = [];
    let probes = 0;
    for (const account of accounts.filter((candidate) => !candidate.internal)) {
      // Up to 8 record sets out of reach per account (each probe is a full search): enough for every kind, not a minute.
      for (const tenant of tenants.filter((candidate) => !reaches(account, candidate, { method: 'GET', path: '/transactions/:reference' })).slice(0, 8)) {
        const terms = [tenant.reference, tenant.paymentJobReference, tenant.customerId, tenant.ticketId]
          .filter((value): value is string => typeof value === 'string' && value.length >= 6)
          .map((value) => value.slice(0, 6));
        for (const term of terms) {
          const response = await harness.call(account.userId, 'GET', `/search?term=${encodeURIComponent(term)}`);
          expect(response.status).toBe(200);
          probes += 1;
          for (const result of ((await response.json()) as { results: Found[] }).results) {
            const business = result.context.business?.id;
            const merchant = result.context.merchant?.id;
            const visible =
              result.kind === 'user' ||
              (business !== undefined && account.businesses.has(business)) ||
              (merchant !== undefined && account.merchants.has(merchant)) ||
              (result.kind === 'business' && business !== undefined && account.merchantBusinesses.has(business));
            if (!visible) leaks.push(`${account.email} '${term}' → ${result.kind} ${result.id}`);
          }
        }
      }
    }
    expect(probes).toBeGreaterThan(20);
    expect(leaks.slice(0, 20)).toEqual([]);
  }, 300_000);

  it('never lets a bulk job’s context reach another tenant, and keeps each job to its creator', async () => {
    let probes = 0;
    // The exports of tickets and transactions too: never another tenant's context. Record sets are chosen per relation
    // class and rotated over the area, action and level, as in the matrix above.
    const actions = [
      ['payment-jobs', 'cancel'],
      ['payment-jobs', 'resend-links'],
      ['payment-jobs', 'export'],
      ['tickets', 'export'],
      ['transactions', 'export'],
    ] as const;
    const levels = [
      { level: 'business', path: '/businesses/:businessId' },
      { level: 'merchant', path: '/businesses/:businessId/merchants/:merchantId' },
    ] as const;
    for (const account of accounts.filter((candidate) => !candidate.internal)) {
      for (const [levelIndex, { level, path }] of levels.entries()) {
        for (const [actionIndex, [area, action]] of actions.entries()) {
          for (const { tenant } of probesFor(account, { method: 'POST', path }, levelIndex * actions.length + actionIndex, tenants).chosen) {
            const context =
              level === 'merchant' ? { level, businessId: tenant.businessId, merchantId: tenant.merchantId } : { level, businessId: tenant.businessId };
            const response = await harness.call(account.userId, 'POST', '/bulk-jobs', {
              area,
              action,
              context,
              selection: { allMatching: true, filters: {}, includedIds: [], excludedIds: [] },
            });
            expect([403, 404], `${account.email} ${area} ${action} ${JSON.stringify(context)}`).toContain(response.status);
            probes += 1;
          }
        }
      }
    }
    expect(probes).toBeGreaterThan(100);
    const owner = accounts.find((account) => account.email === 'owner@demo.test') as Account;
    const created = await harness.call(owner.userId, 'POST', '/bulk-jobs', {
      area: 'payment-jobs',
      action: 'cancel',
      context: { level: 'business', businessId: [...owner.businesses][0] },
      selection: { allMatching: false, filters: {}, includedIds: ['NOSUCHJOB'], excludedIds: [] },
    });
    expect(created.status).toBe(202);
    const { job } = (await created.json()) as { job: { id: string } };
    for (const account of accounts.filter((candidate) => candidate.userId !== owner.userId)) {
      for (const [method, path] of [
        ['GET', `/bulk-jobs/${job.id}`],
        ['POST', `/bulk-jobs/${job.id}/cancel`],
        ['GET', `/bulk-jobs/${job.id}/result`],
      ] as const) {
        expect((await harness.call(account.userId, method, path)).status, `${account.email} ${method} ${path}`).toBe(404);
      }
    }
  });
});
