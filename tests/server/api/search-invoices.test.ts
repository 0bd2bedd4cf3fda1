// The palette's record search finds invoices and credit notes by number: the full number or a prefix of it, or the
// short number ('104'), for a finance admin (the invoice itself) and for a business's invoice readers (the business's
// invoice list), never another tenant's and never for a user without an invoice permission.
import { beforeAll, describe, expect, it } from 'vitest';
import * as schema from '../../../server/db/schema.ts';
import { invoiceNumberQuery } from '../../../src/contract/billing.ts';
import { databaseKinds, fixture, useFixtureApp } from '../support.ts';

const { users } = fixture;
const financeAdmin = 'u-invoice-search-admin';

describe('invoice numbers in a search term', () => {
  it.each([
    ['INV-2026-000104', { kind: 'prefix', prefix: 'INV-2026-000104' }],
    ['inv-2026-0001', { kind: 'prefix', prefix: 'INV-2026-0001' }],
    ['CN', { kind: 'prefix', prefix: 'CN' }],
    ['104', { kind: 'suffix', suffix: '-000104' }],
    [' 2026-104 ', { kind: 'suffix', suffix: '-2026-000104' }],
    ['000104', { kind: 'suffix', suffix: '-000104' }],
    ['1234567', null],
    ['INV-2026-0001040', null],
    ['invoice', null],
    ['TX3A0001', null],
  ])('%s', (term, expected) => {
    expect(invoiceNumberQuery(term)).toEqual(expected);
  });
});

describe.each(databaseKinds)('invoice look-up on %s', (kind) => {
  const harness = useFixtureApp(kind);

  beforeAll(async () => {
    const { db } = harness.database;
    await db.insert(schema.users).values({
      id: financeAdmin,
      email: 'invoice-search@fixture.test',
      givenName: 'Fin',
      familyName: 'Admin',
      passwordHash: 'scrypt$1$1$1$x$y',
      internal: true,
    });
    await db.insert(schema.userRoles).values({ userId: financeAdmin, role: 'FinanceAdmin', level: 'root' });
    const issued = new Date(Date.UTC(2026, 10, 2, 9));
    const invoice = (id: string, number: string, businessId: string, totalMinor: number, extra: Partial<typeof schema.invoices.$inferInsert> = {}) => ({
      id,
      number,
      kind: 'invoice' as const,
      month: '2026-10',
      businessId,
      currency: 'GBP',
      status: 'issued' as const,
      issuedUtc: issued,
      dueUtc: new Date(Date.UTC(2026, 10, 16, 9)),
      feesMinor: totalMinor,
      minimumTopUpMinor: 0,
      totalMinor,
      lines: [],
      createdBy: financeAdmin,
      ...extra,
    });
    await db.insert(schema.invoices).values([
      invoice('INV-search-b3', 'INV-2026-000104', 'B3', 4_300),
      invoice('INV-search-b1', 'INV-2026-000105', 'B1', 9_900),
      invoice('CN-search-b3', 'CN-2026-000104', 'B3', -1_000, {
        kind: 'creditNote',
        creditedInvoiceId: 'INV-search-b3',
        issuedUtc: new Date(Date.UTC(2026, 10, 5, 9)),
      }),
    ]);
  });

  async function search(userId: string, term: string) {
    const response = await harness.call(userId, 'GET', `/search?term=${encodeURIComponent(term)}`);
    expect(response.status).toBe(200);
    const { results } = (await response.json()) as { results: { kind: string; id: string; title: string; path: string; context: object }[] };
    return results.filter((result) => result.kind === 'invoice');
  }

  it('finds an invoice by its full number for a finance admin, opening the invoice, context-free', async () => {
    const [result, ...rest] = await search(financeAdmin, 'INV-2026-000104');
    expect(rest).toEqual([]);
    expect(result).toMatchObject({
      kind: 'invoice',
      id: 'INV-search-b3',
      title: 'Invoice INV-2026-000104',
      path: '/billing/invoices/INV-search-b3',
      context: {},
    });
  });
  it('finds by a prefix of the number, case-insensitively', async () => {
    expect((await search(financeAdmin, 'inv-2026-00010')).map((result) => result.id).sort()).toEqual(['INV-search-b1', 'INV-search-b3']);
  });
  it('finds invoices and credit notes by their short number, newest first', async () => {
    expect((await search(financeAdmin, '104')).map((result) => result.title)).toEqual(['Credit note CN-2026-000104', 'Invoice INV-2026-000104']);
    expect((await search(financeAdmin, '2026-105')).map((result) => result.id)).toEqual(['INV-search-b1']);
  });
  it('shows a business reader only the business’s own invoices, opening its invoice list', async () => {
    const found = await search(users.owner, '104');
    expect(found.map((result) => result.id).sort()).toEqual(['CN-search-b3', 'INV-search-b3']);
    expect(found[0]).toMatchObject({ path: '/business/B3/invoices', context: { business: { id: 'B3' } } });
    expect(await search(users.owner, 'INV-2026-000105')).toEqual([]);
  });
  it('reaches a partner’s businesses through the partner grant', async () => {
    expect((await search(users.partner, '105')).map((result) => result.path)).toEqual(['/business/B1/invoices']);
  });
  it('finds nothing for users without an invoice permission', async () => {
    expect(await search(users.merchantOnly, '105')).toEqual([]);
    expect(await search(users.readonly, 'INV-2026-000104')).toEqual([]);
  });
  it('treats LIKE wildcards as no number', async () => {
    expect(await search(financeAdmin, 'INV%')).toEqual([]);
    expect(await search(financeAdmin, 'INV_2026')).toEqual([]);
  });
});
