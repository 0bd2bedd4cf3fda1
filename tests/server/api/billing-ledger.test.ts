// Billing and the ledger on PGlite and PostgreSQL: an invoice charges only what the month put on the
// merchants' invoice accounts (a gross-settled merchant's fees and every minimum top-up, never a net-settled
// merchant's fees, already deducted from its payouts); a net-settled merchant's invoice account that holds top-ups
// has a statement and a camt.053 and is listed; paying an invoice and issuing a credit note post balanced, audited,
// idempotent postings that clear the invoice accounts; every posting sums to zero and the trial balance stays zero
// per currency.
//
// The fixture (billing-fixtures.ts), October 2026: M1a (B1, net) £300 + £50 with £7.65 of fees, M1b (B1, gross) £20
// with £0.63, M3a (B3, net) £20 with £0.88 under a £25 minimum (top-up £24.12), M2a (B2, net) €40 with €1.01.
import { eq, like, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { draftInvoices } from '../../../server/billing/billing-run.ts';
import type { Database } from '../../../server/db/client.ts';
import * as schema from '../../../server/db/schema.ts';
import { creditNotePostingId, invoicePaymentPostingId, postCreditNote, postInvoicePayment, shareOut } from '../../../server/ledger/invoice-postings.ts';
import { billingPreview, invoiceDetail, invoiceList } from '../../../src/contract/billing-schemas.ts';
import { merchantAccountNumber } from '../../../src/contract/ledger.ts';
import { accountStatement, merchantAccountGroupList } from '../../../src/contract/ledger-schemas.ts';
import { createTestApp, createTestDatabase, databaseKinds, fixture, insertFixtureWorld } from '../support.ts';
import { billedMonth, billingUsers, insertBillingFixture } from './billing-fixtures.ts';

const { users } = fixture;
const admin = billingUsers.financeAdmin;
const m1aGbp = merchantAccountNumber('M1a', 'GBP');
const m1bGbp = merchantAccountNumber('M1b', 'GBP');
const m3aGbp = merchantAccountNumber('M3a', 'GBP');
const m3a = '/businesses/B3/merchants/M3a/merchant-accountgroups';
const m1a = '/businesses/B1/merchants/M1a/merchant-accountgroups';

describe('sharing a credit over the merchants of an invoice', () => {
  it('in proportion to what is left of each, to the unit, never more than is left of one', () => {
    expect([
      ...shareOut(
        100,
        new Map([
          ['A', 300],
          ['B', 100],
        ]),
      ),
    ]).toEqual([
      ['A', 75],
      ['B', 25],
    ]);
    expect([
      ...shareOut(
        1,
        new Map([
          ['A', 1],
          ['B', 1],
        ]),
      ),
    ]).toEqual([['A', 1]]);
    expect([
      ...shareOut(
        2,
        new Map([
          ['A', 1],
          ['B', 1],
        ]),
      ),
    ]).toEqual([
      ['A', 1],
      ['B', 1],
    ]);
    expect([
      ...shareOut(
        10,
        new Map([
          ['A', 0],
          ['B', 3],
          ['C', -4],
        ]),
      ),
    ]).toEqual([['B', 3]]);
    for (const [amount, left] of [
      [7, [3, 3, 3]],
      [5, [1, 2, 2]],
      [999, [333, 333, 334]],
    ] as const) {
      const shares = shareOut(amount, new Map(left.map((value, index) => [`M${index}`, value])));
      expect([...shares.values()].reduce((sum, share) => sum + share, 0)).toBe(amount);
      left.forEach((value, index) => {
        expect(shares.get(`M${index}`) ?? 0).toBeLessThanOrEqual(value);
      });
    }
  });
});

describe.each(databaseKinds)('billing and the ledger on %s', (kind) => {
  let database: Database;
  let call: ReturnType<typeof createTestApp>['call'];
  beforeAll(async () => {
    database = await createTestDatabase(kind);
    await insertFixtureWorld(database);
    await insertBillingFixture(database);
    ({ call } = createTestApp(database));
  });
  afterAll(async () => database?.close());

  const balance = async (accountId: string) => {
    const [row] = await database.db
      .select({ total: sql<string>`coalesce(sum(${schema.ledgerEntries.amountMinor}), 0)` })
      .from(schema.ledgerEntries)
      .where(eq(schema.ledgerEntries.accountId, accountId));
    return Number(row?.total ?? 0);
  };
  const invoiceOf = async (businessId: string) => {
    const list = invoiceList.assert(await (await call(admin, 'GET', `/billing/invoices?business=[eq]${businessId}&kind=[eq]invoice`)).json());
    const [first] = list.results;
    if (!first) throw new Error(`no invoice of ${businessId}`);
    return invoiceDetail.assert(await (await call(admin, 'GET', `/billing/invoices/${first.invoiceId}`)).json());
  };
  async function ledgerInvariants() {
    // Every posting sums to zero; the trial balance is zero per currency.
    expect(await database.query('SELECT posting_id FROM ledger_entries GROUP BY posting_id HAVING sum(amount_minor) <> 0')).toEqual([]);
    expect(await database.query('SELECT currency FROM ledger_entries GROUP BY currency HAVING sum(amount_minor) <> 0')).toEqual([]);
  }

  it('invoices a net-settled merchant only its minimum top-up, never the fees deducted from its payouts', async () => {
    const response = await call(admin, 'POST', '/billing/runs/preview', { month: billedMonth });
    expect(response.status).toBe(200);
    const preview = billingPreview.assert(await response.json());
    // Before: B1 £8.28 (M1a's £7.65 deducted fees again), B2 €1.01 (deducted), B3 £25.00 (£0.88 deducted + £24.12).
    expect(preview.invoices.map((invoice) => [invoice.businessId, invoice.currency, invoice.feesMinor, invoice.minimumTopUpMinor, invoice.totalMinor])).toEqual(
      [
        ['B1', 'GBP', 63, 0, 63],
        ['B3', 'GBP', 0, 2_412, 2_412],
      ],
    );
    expect(preview.invoices[0]?.lines.map((line) => [line.merchantId, line.paymentMethod, line.transactionCount, line.volumeMinor, line.feesMinor])).toEqual([
      ['M1b', 'card', 1, 2_000, 63],
    ]);
    expect(preview.invoices[1]?.lines.map((line) => [line.merchantId, line.paymentMethod, line.amountMinor])).toEqual([['M3a', null, 2_412]]);
    expect(preview.totals).toEqual([{ currency: 'GBP', feesMinor: 63, minimumTopUpMinor: 2_412, totalMinor: 2_475, invoiceCount: 2 }]);
  });

  it('issues invoices equal to what the month put on the invoice accounts, per business and currency', async () => {
    expect((await call(admin, 'POST', '/billing/runs', { month: billedMonth })).status).toBe(201);
    const rows = await database.db.select().from(schema.invoices);
    const onInvoiceAccounts = await database.query<{
      business_id: string;
      currency: string;
      total: string | number;
    }>(`SELECT e.business_id, e.currency, -sum(e.amount_minor) AS total
      FROM ledger_entries e JOIN ledger_accounts a ON a.id = e.account_id
      WHERE a.kind = 'invoice' AND e.value_at >= '2026-10-01T00:00:00Z' AND e.value_at <= '2026-11-01T00:00:00Z' GROUP BY 1, 2 ORDER BY 1, 2`);
    expect(rows.map((row) => [row.businessId, row.currency, row.totalMinor]).sort()).toEqual(
      onInvoiceAccounts.map((row) => [row.business_id, row.currency, Number(row.total)]),
    );
    // Drafting again gives the same figures (the top-up is now read from its posting).
    expect((await draftInvoices(database.db, billedMonth)).map((draft) => draft.totalMinor)).toEqual([63, 2_412]);
    await ledgerInvariants();
  });

  it("lists a net-settled merchant's invoice account once it holds top-ups, with a statement and a camt.053; an unused one stays hidden", async () => {
    for (const user of [users.owner, users.admin]) {
      const groups = merchantAccountGroupList.assert(await (await call(user, 'GET', m3a)).json());
      expect(groups.results.find((group) => group.accountNumber === m3aGbp)?.balances.find((row) => row.kind === 'invoice')).toEqual({
        kind: 'invoice',
        balance: -24.12,
      });
      const statement = await call(user, 'GET', `${m3a}/${m3aGbp}/statements/invoice`);
      expect(statement.status, user).toBe(200);
      const body = accountStatement.assert(await statement.json());
      expect(body.closingBalance).toBe(-24.12);
      expect(body.results.map((row) => [row.category, row.amount])).toEqual([['minimumFee', -24.12]]);
      const camt = await call(user, 'GET', `${m3a}/${m3aGbp}/statements/invoice/camt053`);
      expect(camt.status, user).toBe(200);
      expect(await camt.text()).toContain('minimumFee');
      expect(
        (await call(user, 'GET', `${m3a}/${m3aGbp}/statements/invoice/balances?date=${encodeURIComponent('[gte]2026-10-30[and][lte]2026-11-02')}`)).status,
      ).toBe(200);
    }
    // M1a settles net and has no minimum: its invoice account holds nothing, is not listed and has no statement.
    const alpha = merchantAccountGroupList.assert(await (await call(users.partner, 'GET', m1a)).json());
    expect(alpha.results.find((group) => group.accountNumber === m1aGbp)?.balances.map((row) => row.kind)).toEqual([
      'trading',
      'reserve',
      'security',
      'remittance',
      'costs',
    ]);
    expect((await call(users.partner, 'GET', `${m1a}/${m1aGbp}/statements/invoice`)).status).toBe(404);
    // A report of it is queued like any other statement.
    expect((await call(users.owner, 'POST', `${m3a}/${m3aGbp}/statements/invoice/reports`, { fileType: 'csv' })).status).toBe(202);
  });

  it('paying an invoice clears what it charged: one balanced, audited posting, once', async () => {
    const alpha = await invoiceOf('B1');
    expect(await balance(`${m1bGbp}:invoice`)).toBe(-63);
    const bankBefore = await balance('provider:bank:GBP');
    const paid = await call(admin, 'PUT', `/billing/invoices/${alpha.invoiceId}/status`, { status: 'paid', version: alpha.version });
    expect(paid.status).toBe(200);
    expect(await balance(`${m1bGbp}:invoice`)).toBe(0);
    expect(await balance('provider:bank:GBP')).toBe(bankBefore - 63);
    const entries = await database.db
      .select()
      .from(schema.ledgerEntries)
      .where(eq(schema.ledgerEntries.postingId, invoicePaymentPostingId(alpha.invoiceId)));
    expect(entries.map((entry) => [entry.accountId, entry.amountMinor, entry.category]).sort()).toEqual([
      [`${m1bGbp}:invoice`, 63, 'invoicePayment'],
      ['provider:bank:GBP', -63, 'invoicePayment'],
    ]);
    const [audit] = await database.db.select().from(schema.auditEvents).where(eq(schema.auditEvents.event, 'InvoiceMarkedPaid'));
    expect(audit?.metaData).toMatchObject({
      invoiceId: alpha.invoiceId,
      postingId: invoicePaymentPostingId(alpha.invoiceId),
      postedMinor: 63,
      currency: 'GBP',
    });
    // Paying again is refused; posting again (a retried job) inserts nothing.
    expect((await call(admin, 'PUT', `/billing/invoices/${alpha.invoiceId}/status`, { status: 'paid', version: alpha.version + 1 })).status).toBe(422);
    const [row] = await database.db.select().from(schema.invoices).where(eq(schema.invoices.id, alpha.invoiceId));
    if (!row) throw new Error('no invoice row');
    expect(await postInvoicePayment(database.db, row, new Date('2026-11-30T00:00:00Z'))).toBe(0);
    expect(
      await database.db
        .select()
        .from(schema.ledgerEntries)
        .where(eq(schema.ledgerEntries.postingId, invoicePaymentPostingId(alpha.invoiceId))),
    ).toHaveLength(2);
    const statement = accountStatement.assert(
      await (await call(users.partner, 'GET', `/businesses/B1/merchants/M1b/merchant-accountgroups/${m1bGbp}/statements/invoice`)).json(),
    );
    expect(statement.closingBalance).toBe(0);
    expect(statement.results.map((movement) => movement.category)).toEqual(['fee', 'invoicePayment']);
    await ledgerInvariants();
  });

  it('a credit note takes its amount off the invoice account and the fee income; the payment then clears the rest', async () => {
    const gamma = await invoiceOf('B3');
    const costsBefore = await balance(`${m3aGbp}:costs`);
    const credited = await call(admin, 'POST', `/billing/invoices/${gamma.invoiceId}/credit-notes`, {
      reason: 'Minimum waived for October',
      amountMinor: 2_000,
    });
    expect(credited.status).toBe(201);
    const note = invoiceDetail.assert(await credited.json());
    expect(await balance(`${m3aGbp}:invoice`)).toBe(-412);
    expect(await balance(`${m3aGbp}:costs`)).toBe(costsBefore - 2_000);
    const entries = await database.db
      .select()
      .from(schema.ledgerEntries)
      .where(eq(schema.ledgerEntries.postingId, creditNotePostingId(note.invoiceId)));
    expect(entries.map((entry) => [entry.accountId, entry.amountMinor]).sort()).toEqual([
      [`${m3aGbp}:costs`, -2_000],
      [`${m3aGbp}:invoice`, 2_000],
    ]);
    const [audit] = await database.db.select().from(schema.auditEvents).where(eq(schema.auditEvents.event, 'CreditNoteIssued'));
    expect(audit?.metaData).toMatchObject({ creditNoteId: note.invoiceId, postingId: creditNotePostingId(note.invoiceId), amountMinor: 2_000 });
    // Posting the credit note again inserts nothing.
    const [noteRow, invoiceRow] = await Promise.all(
      [note.invoiceId, gamma.invoiceId].map(async (id) => (await database.db.select().from(schema.invoices).where(eq(schema.invoices.id, id)))[0]),
    );
    if (!noteRow || !invoiceRow) throw new Error('rows missing');
    expect(await postCreditNote(database.db, noteRow, invoiceRow)).toBe(0);

    expect((await call(admin, 'PUT', `/billing/invoices/${gamma.invoiceId}/status`, { status: 'paid', version: gamma.version })).status).toBe(200);
    expect(await balance(`${m3aGbp}:invoice`)).toBe(0);
    const payment = await database.db
      .select()
      .from(schema.ledgerEntries)
      .where(eq(schema.ledgerEntries.postingId, invoicePaymentPostingId(gamma.invoiceId)));
    expect(payment.map((entry) => [entry.accountId, entry.amountMinor]).sort()).toEqual([
      [`${m3aGbp}:invoice`, 412],
      ['provider:bank:GBP', -412],
    ]);
    // A cleared account keeps its statement: it has entries.
    const statement = accountStatement.assert(await (await call(users.owner, 'GET', `${m3a}/${m3aGbp}/statements/invoice`)).json());
    expect(statement.results.map((movement) => [movement.category, movement.amount])).toEqual([
      ['minimumFee', -24.12],
      ['creditNote', 20],
      ['invoicePayment', 4.12],
    ]);
    expect(statement.closingBalance).toBe(0);
    // Every invoice account of the month is cleared.
    const open = await database.db
      .select({ accountId: schema.ledgerEntries.accountId, total: sql<string>`sum(${schema.ledgerEntries.amountMinor})` })
      .from(schema.ledgerEntries)
      .where(like(schema.ledgerEntries.accountId, '%:invoice'))
      .groupBy(schema.ledgerEntries.accountId)
      .having(sql`sum(${schema.ledgerEntries.amountMinor}) <> 0`);
    expect(open).toEqual([]);
    await ledgerInvariants();
  });
});
