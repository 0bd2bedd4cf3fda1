// Billing on PGlite and PostgreSQL: preview and run of a month from the ledger (fees per payment method,
// the minimum top-up), gapless numbers, a month billed once, mark paid with a version, credit notes, PDFs in the
// file store, and who may do and read what (the business's owner and finance users read their own invoices only).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../../server/db/client.ts';
import * as schema from '../../../server/db/schema.ts';
import { createFolderStore } from '../../../server/files/folder-store.ts';
import { billingPreview, billingRunList, invoiceDetail, invoiceList } from '../../../src/contract/billing-schemas.ts';
import { createTestApp, createTestDatabase, databaseKinds, fixture, insertFixtureWorld } from '../support.ts';
import { billedMonth, billingUsers, insertBillingFixture, insertLedgerSales } from './billing-fixtures.ts';

const { users } = fixture;
const admin = billingUsers.financeAdmin;

describe.each(databaseKinds)('billing on %s', (kind) => {
  let database: Database;
  let call: ReturnType<typeof createTestApp>['call'];
  let filesRoot: string;
  const year = new Date().getUTCFullYear();
  const number = (sequence: number, series = 'INV') => `${series}-${year}-${String(sequence).padStart(6, '0')}`;
  beforeAll(async () => {
    database = await createTestDatabase(kind);
    await insertFixtureWorld(database);
    await insertBillingFixture(database);
    // Beta's web shop settles net: its €1.01 of fees were deducted from its payouts, so only a €5.00 minimum's top-up
    // (€3.99) is invoiced.
    await database.db
      .insert(schema.pricingPlans)
      .values({ merchantId: 'M2a', businessId: 'B2', currency: 'EUR', name: 'Web', monthlyMinimumMinor: 500, validFrom: new Date('2026-01-01T00:00:00Z') });
    filesRoot = await mkdtemp(join(tmpdir(), 'billing-files-'));
    ({ call } = createTestApp(database, { files: createFolderStore(filesRoot) }));
  });
  afterAll(async () => {
    await database?.close();
    await rm(filesRoot, { recursive: true, force: true });
  });

  const invoicesOf = async (query = '') => invoiceList.assert(await (await call(admin, 'GET', `/billing/invoices${query}`)).json());

  it('previews the month from the ledger: the invoiced fees per merchant and payment method, the minimum top-ups, nothing written', async () => {
    const response = await call(admin, 'POST', '/billing/runs/preview', { month: billedMonth });
    expect(response.status).toBe(200);
    const preview = billingPreview.assert(await response.json());
    expect(preview.alreadyRun).toBe(false);
    expect(preview.invoices.map((invoice) => [invoice.businessId, invoice.currency, invoice.feesMinor, invoice.minimumTopUpMinor, invoice.totalMinor])).toEqual(
      [
        ['B1', 'GBP', 63, 0, 63],
        ['B2', 'EUR', 0, 399, 399],
        ['B3', 'GBP', 0, 2_412, 2_412],
      ],
    );
    // Alpha Online (M1a) settles net: its fees were deducted from its payouts and are not invoiced again.
    const alpha = preview.invoices[0];
    expect(alpha?.lines.map((line) => [line.merchantId, line.paymentMethod, line.transactionCount, line.volumeMinor, line.feesMinor])).toEqual([
      ['M1b', 'card', 1, 2_000, 63],
    ]);
    expect(preview.invoices[2]?.lines.at(-1)).toMatchObject({ merchantId: 'M3a', paymentMethod: null, minimumTopUpMinor: 2_412, amountMinor: 2_412 });
    expect(preview.totals).toEqual([
      { currency: 'EUR', feesMinor: 0, minimumTopUpMinor: 399, totalMinor: 399, invoiceCount: 1 },
      { currency: 'GBP', feesMinor: 63, minimumTopUpMinor: 2_412, totalMinor: 2_475, invoiceCount: 2 },
    ]);
    expect((await database.db.select().from(schema.invoices)).length).toBe(0);
  });

  it('refuses malformed months (400) and a month that has not ended (422)', async () => {
    for (const body of [{}, { month: '2026-13' }, { month: '2026-1' }, { month: 202610 }, { month: billedMonth, extra: 1 }]) {
      const response = await call(admin, 'POST', '/billing/runs', body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(await response.json()).toHaveProperty('errorReport');
    }
    const thisMonth = new Date().toISOString().slice(0, 7);
    const response = await call(admin, 'POST', '/billing/runs', { month: thisMonth });
    expect(response.status).toBe(422);
  });

  it('is for finance admins only: others get 403 on every billing call', async () => {
    for (const user of [users.readonly, users.owner, users.finance, users.partner, users.nobody]) {
      expect((await call(user, 'GET', '/billing/invoices')).status, user).toBe(403);
      expect((await call(user, 'GET', '/billing/runs')).status, user).toBe(403);
      expect((await call(user, 'POST', '/billing/runs/preview', { month: billedMonth })).status, user).toBe(403);
      expect((await call(user, 'POST', '/billing/runs', { month: billedMonth })).status, user).toBe(403);
    }
    expect((await call(null, 'GET', '/billing/invoices')).status).toBe(401);
  });

  it('creates the invoices with gapless numbers, once: a second run of the month is refused with 409', async () => {
    const response = await call(admin, 'POST', '/billing/runs', { month: billedMonth });
    expect(response.status).toBe(201);
    const run = (await response.json()) as { runId: string; invoiceNumbers: string[]; invoiceCount: number };
    expect(run.invoiceNumbers).toEqual([number(1), number(2), number(3)]);
    const again = await call(admin, 'POST', '/billing/runs', { month: billedMonth });
    expect(again.status).toBe(409);
    const report = (await again.json()) as { errorReport: { errors: { message: string }[] } };
    expect(report.errorReport.errors[0]?.message).toBe(
      'Invoices for October 2026 have already been created. A month is billed once; correct an invoice with a credit note.',
    );
    const runs = billingRunList.assert(await (await call(admin, 'GET', '/billing/runs')).json());
    expect(runs.results).toEqual([expect.objectContaining({ month: billedMonth, invoiceCount: 3, createdBy: 'Bill Test' })]);
    const preview = billingPreview.assert(await (await call(admin, 'POST', '/billing/runs/preview', { month: billedMonth })).json());
    expect(preview.alreadyRun).toBe(true);
    const [audit] = await database.db.select().from(schema.auditEvents).where(eq(schema.auditEvents.event, 'BillingRunCreated'));
    expect(audit?.metaData).toMatchObject({ month: billedMonth, invoiceCount: 3, firstNumber: number(1), lastNumber: number(3) });
    // The top-up is in the ledger now, as the settlement job would have posted it.
    const topUps = await database.db.select().from(schema.ledgerPostings).where(sql`${schema.ledgerPostings.id} LIKE 'minimumFee:%:202610'`);
    expect(topUps.map((topUp) => topUp.merchantId).sort()).toEqual(['M2a', 'M3a']);
  });

  it('lists invoices by the list convention with filters status, business, month and kind', async () => {
    const all = await invoicesOf();
    expect(all.numberOfResults).toBe(3);
    expect(all.results.map((invoice) => invoice.number)).toEqual([number(3), number(2), number(1)]);
    expect(all.results.every((invoice) => invoice.status === 'issued')).toBe(true);
    expect((await invoicesOf('?business=[eq]B3')).results.map((invoice) => invoice.totalMinor)).toEqual([2_412]);
    expect((await invoicesOf(`?month=[eq]${billedMonth}&sort=total`)).results.map((invoice) => invoice.totalMinor)).toEqual([63, 399, 2_412]);
    expect((await invoicesOf('?status=[eq]paid')).numberOfResults).toBe(0);
    expect((await invoicesOf(`?number=[eq]inv-${year}-000002`)).results.map((invoice) => invoice.number)).toEqual([number(2)]);
    expect((await call(admin, 'GET', '/billing/invoices?number=[eq]%25')).status).toBe(400);
    expect((await call(admin, 'GET', '/billing/invoices?status=[eq]void')).status).toBe(400);
    expect((await call(admin, 'GET', '/billing/invoices?month=[eq]October')).status).toBe(400);
    expect((await call(admin, 'GET', '/billing/invoices?colour=[eq]red')).status).toBe(400);
  });

  it('derives overdue from the due date, and marks paid with a version (409 when stale, 422 when already paid)', async () => {
    const [alpha] = (await invoicesOf('?business=[eq]B1')).results;
    if (!alpha) throw new Error('no invoice');
    await database.db
      .update(schema.invoices)
      .set({ dueUtc: new Date(Date.now() - 86_400_000) })
      .where(eq(schema.invoices.id, alpha.invoiceId));
    expect((await invoicesOf('?status=[eq]overdue')).results.map((invoice) => invoice.invoiceId)).toEqual([alpha.invoiceId]);
    expect((await call(admin, 'PUT', `/billing/invoices/${alpha.invoiceId}/status`, { status: 'paid', version: 7 })).status).toBe(409);
    expect((await call(admin, 'PUT', `/billing/invoices/${alpha.invoiceId}/status`, { status: 'issued', version: 1 })).status).toBe(400);
    const paid = await call(admin, 'PUT', `/billing/invoices/${alpha.invoiceId}/status`, { status: 'paid', version: 1 });
    expect(paid.status).toBe(200);
    expect(invoiceDetail.assert(await paid.json())).toMatchObject({ status: 'paid', version: 2 });
    expect((await call(admin, 'PUT', `/billing/invoices/${alpha.invoiceId}/status`, { status: 'paid', version: 2 })).status).toBe(422);
    expect((await invoicesOf('?status=[eq]overdue')).numberOfResults).toBe(0);
    const [audit] = await database.db.select().from(schema.auditEvents).where(eq(schema.auditEvents.event, 'InvoiceMarkedPaid'));
    expect(audit).toMatchObject({ businessId: 'B1', metaData: { invoiceId: alpha.invoiceId, wasOverdue: true } });
    expect((await call(admin, 'PUT', '/billing/invoices/INVNOPE/status', { status: 'paid', version: 1 })).status).toBe(404);
  });

  it('corrects by credit note: a negative invoice referencing the original, numbered in its own series, never more than is left', async () => {
    const [gamma] = (await invoicesOf('?business=[eq]B3')).results;
    if (!gamma) throw new Error('no invoice');
    const first = await call(admin, 'POST', `/billing/invoices/${gamma.invoiceId}/credit-notes`, {
      reason: 'Minimum waived for the first year',
      amountMinor: 2_000,
    });
    expect(first.status).toBe(201);
    const note = invoiceDetail.assert(await first.json());
    expect(note).toMatchObject({
      kind: 'creditNote',
      number: number(1, 'CN'),
      totalMinor: -2_000,
      creditedInvoiceId: gamma.invoiceId,
      creditedInvoiceNumber: gamma.number,
      status: 'issued',
    });
    expect((await call(admin, 'POST', `/billing/invoices/${gamma.invoiceId}/credit-notes`, { reason: 'Too much', amountMinor: 413 })).status).toBe(422);
    expect((await call(admin, 'POST', `/billing/invoices/${note.invoiceId}/credit-notes`, { reason: 'Credit of a credit' })).status).toBe(422);
    expect((await call(admin, 'PUT', `/billing/invoices/${note.invoiceId}/status`, { status: 'paid', version: 1 })).status).toBe(422);
    expect((await call(admin, 'POST', `/billing/invoices/${gamma.invoiceId}/credit-notes`, { reason: '' })).status).toBe(400);
    expect((await call(admin, 'POST', `/billing/invoices/${gamma.invoiceId}/credit-notes`, { reason: 'x', amountMinor: -5 })).status).toBe(400);
    const rest = await call(admin, 'POST', `/billing/invoices/${gamma.invoiceId}/credit-notes`, { reason: 'The rest' });
    expect(invoiceDetail.assert(await rest.json())).toMatchObject({ number: number(2, 'CN'), totalMinor: -412 });
    const original = invoiceDetail.assert(await (await call(admin, 'GET', `/billing/invoices/${gamma.invoiceId}`)).json());
    expect(original).toMatchObject({ totalMinor: 2_412, creditableMinor: 0, version: 1 });
    expect(original.creditNotes.map((credit) => credit.number)).toEqual([number(1, 'CN'), number(2, 'CN')]);
    expect((await database.db.select().from(schema.auditEvents).where(eq(schema.auditEvents.event, 'CreditNoteIssued'))).length).toBe(2);
  });

  it("serves each invoice as a PDF from the file store, to finance admins and to the business's owner and finance users", async () => {
    const [gamma] = (await invoicesOf('?business=[eq]B3&kind=[eq]invoice')).results;
    const [beta] = (await invoicesOf('?business=[eq]B2')).results;
    if (!gamma || !beta) throw new Error('no invoice');
    const internal = await call(admin, 'GET', `/billing/invoices/${gamma.invoiceId}/pdf`);
    expect(internal.status).toBe(200);
    expect(internal.headers.get('content-type')).toBe('application/pdf');
    expect(internal.headers.get('content-disposition')).toContain(`${gamma.number}.pdf`);
    expect(
      Buffer.from(await internal.arrayBuffer())
        .subarray(0, 5)
        .toString('latin1'),
    ).toBe('%PDF-');
    const owner = await call(users.owner, 'GET', `/businesses/B3/invoices/${gamma.invoiceId}/pdf`);
    expect(owner.status).toBe(200);
    expect(
      Buffer.from(await owner.arrayBuffer())
        .subarray(0, 4)
        .toString('latin1'),
    ).toBe('%PDF');
    const finance = await call(users.finance, 'GET', `/businesses/B2/invoices/${beta.invoiceId}/pdf`);
    expect(finance.status).toBe(200);
    await finance.arrayBuffer();
    const ownList = invoiceList.assert(await (await call(users.owner, 'GET', '/businesses/B3/invoices')).json());
    expect(ownList.results.map((invoice) => invoice.kind)).toEqual(['invoice', 'creditNote', 'creditNote']);
    expect(ownList.results.every((invoice) => invoice.businessId === 'B3')).toBe(true);
    expect(ownList.numberOfResults).toBe(3);
  });

  it('answers 404 across tenants and 403 without the permission in the business', async () => {
    const [alpha] = (await invoicesOf('?business=[eq]B1')).results;
    if (!alpha) throw new Error('no invoice');
    expect((await call(users.owner, 'GET', '/businesses/B1/invoices')).status).toBe(404);
    expect((await call(users.owner, 'GET', `/businesses/B1/invoices/${alpha.invoiceId}/pdf`)).status).toBe(404);
    expect((await call(users.owner, 'GET', `/businesses/B3/invoices/${alpha.invoiceId}/pdf`)).status).toBe(404);
    expect((await call(users.finance, 'GET', '/businesses/B3/invoices')).status).toBe(404);
    expect((await call(users.merchantOnly, 'GET', '/businesses/B1/invoices')).status).toBe(403);
    expect((await call(users.partner, 'GET', '/businesses/B1/invoices')).status).toBe(200);
    expect((await call(users.owner, 'GET', '/businesses/B3/invoices?status=[eq]nope')).status).toBe(400);
    expect((await call(admin, 'GET', '/billing/invoices/..%2Fetc/pdf')).status).toBe(404);
  });

  it('never changes an issued invoice: lines and totals stay as issued after paying and crediting', async () => {
    const rows = await database.db
      .select()
      .from(schema.invoices)
      .where(and(eq(schema.invoices.kind, 'invoice')));
    expect(rows.map((row) => [row.businessId, row.totalMinor, row.feesMinor + row.minimumTopUpMinor]).sort()).toEqual([
      ['B1', 63, 63],
      ['B2', 399, 399],
      ['B3', 2_412, 2_412],
    ]);
  });
});

describe.each(databaseKinds)('billing runs started together on %s', (kind) => {
  let database: Database;
  let call: ReturnType<typeof createTestApp>['call'];
  let filesRoot: string;
  beforeAll(async () => {
    database = await createTestDatabase(kind);
    await insertFixtureWorld(database);
    await insertBillingFixture(database);
    await insertLedgerSales(database.db, [
      {
        reference: 'BS1A01',
        businessId: 'B1',
        merchantId: 'M1a',
        currency: 'GBP',
        paymentMethod: 'card',
        amountMinor: 10_000,
        feeMinor: 215,
        at: new Date('2026-09-10T10:00:00Z'),
      },
      {
        reference: 'BS2A01',
        businessId: 'B2',
        merchantId: 'M2a',
        currency: 'EUR',
        paymentMethod: 'ideal',
        amountMinor: 3_000,
        feeMinor: 82,
        at: new Date('2026-09-11T10:00:00Z'),
      },
    ]);
    filesRoot = await mkdtemp(join(tmpdir(), 'billing-files-'));
    ({ call } = createTestApp(database, { files: createFolderStore(filesRoot) }));
  });
  afterAll(async () => {
    await database?.close();
    await rm(filesRoot, { recursive: true, force: true });
  });

  it('numbers without gaps or repeats, and bills a month once, however the requests interleave', async () => {
    const responses = await Promise.all([
      call(billingUsers.financeAdmin, 'POST', '/billing/runs', { month: '2026-10' }),
      call(billingUsers.financeAdmin, 'POST', '/billing/runs', { month: '2026-09' }),
      call(billingUsers.financeAdmin, 'POST', '/billing/runs', { month: '2026-10' }),
    ]);
    const statuses = responses.map((response) => response.status);
    expect(statuses[1]).toBe(201);
    expect([statuses[0], statuses[2]].sort()).toEqual([201, 409]);
    const rows = await database.db.select({ number: schema.invoices.number, month: schema.invoices.month }).from(schema.invoices);
    // October: Alpha's invoiced (gross) fees and Gamma's top-up.
    expect(rows.filter((row) => row.month === '2026-10')).toHaveLength(2);
    // September: Gamma's whole minimum (no sales, its plan in force); Alpha's and Beta's fees were deducted (net).
    expect(rows.filter((row) => row.month === '2026-09')).toHaveLength(1);
    const sequences = rows.map((row) => Number(row.number.slice(-6))).sort((a, b) => a - b);
    expect(sequences).toEqual([1, 2, 3]);
    const [counter] = await database.db.select().from(schema.invoiceCounters).where(eq(schema.invoiceCounters.series, 'INV'));
    expect(counter?.last).toBe(3);
  });
});
