// Finding a payment by its card as a caller reads it out: the overview's last4 and bin filters and the record search's
// card fields read the stored last four and first six digits (never the full number), within the caller's scope; the
// palette's preview and the list it opens agree; and a payment's detail offers its refund only when the payment job's
// refund endpoint would take it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../../server/db/client.ts';
import { transactionDetail, transactionList } from '../../../src/contract/transaction-schemas.ts';
import { createTestApp, createTestDatabase, databaseKinds, fixture, insertFixtureWorld } from '../support.ts';
import { insertExtraTransactions } from './transaction-fixtures.ts';

const { users } = fixture;
const q = (params: Record<string, string>) => `?${new URLSearchParams(params).toString()}`;
const sorted = (values: readonly string[]) => [...values].sort();

describe.each(databaseKinds)('finding a payment by its card on %s', (kind) => {
  let database: Database;
  let call: ReturnType<typeof createTestApp>['call'];
  beforeAll(async () => {
    database = await createTestDatabase(kind);
    // Card 4111 1111 1111 1111 on TX1A0001 (B1) and TX3A0001 (B3); 5555 5555 5555 4444 on B1's and B3's extra card rows.
    await insertFixtureWorld(database);
    await insertExtraTransactions(database);
    ({ call } = createTestApp(database));
  });
  afterAll(async () => database?.close());

  async function list(userId: string, path: string) {
    const response = await call(userId, 'GET', path);
    expect(response.status, await response.clone().text()).toBe(200);
    const body = transactionList.assert(await response.json());
    return { ...body, references: body.results.map((row) => row.reference) };
  }
  async function search(userId: string, term: string) {
    const response = await call(userId, 'GET', `/search?term=${encodeURIComponent(term)}`);
    expect(response.status).toBe(200);
    return ((await response.json()) as { results: { kind: string; id: string }[] }).results
      .filter((result) => result.kind === 'transaction')
      .map((result) => result.id);
  }

  describe('the overview’s card filters', () => {
    it('filters by the last four, alone, everywhere the caller may see', async () => {
      const body = await list(users.admin, `/transactions${q({ last4: '[eq]1111' })}`);
      expect(sorted(body.references)).toEqual(['TX1A0001', 'TX3A0001']);
      expect(body.results.every((row) => row.maskedCardNumber === '411111******1111')).toBe(true);
    });

    it('filters by the first six, and by both with other filters', async () => {
      expect(sorted((await list(users.partner, `/businesses/B1/transactions${q({ bin: '[eq]555555' })}`)).references)).toEqual([
        'TX1A0003',
        'TX1B0001',
        'TX1C0001',
        'TX1R0001',
      ]);
      expect(
        (await list(users.partner, `/businesses/B1/transactions${q({ bin: '[eq]555555', last4: '[eq]4444', kind: '[eq]payment', currency: '[eq]EUR' })}`))
          .references,
      ).toEqual(['TX1A0003']);
      // Several last fours are any of them.
      expect(sorted((await list(users.admin, `/transactions${q({ last4: '[eq]1111[and][eq]4444', merchantid: '[eq]M3b' })}`)).references)).toEqual([
        'TX3B0002',
      ]);
      expect((await list(users.admin, `/transactions${q({ last4: '[eq]9999' })}`)).references).toEqual([]);
    });

    it('keeps to the caller’s scope: another tenant’s card payments are not found', async () => {
      expect((await list(users.owner, `/transactions${q({ last4: '[eq]1111' })}`)).references).toEqual(['TX3A0001']);
      expect((await list(users.partner, `/transactions${q({ last4: '[eq]1111' })}`)).references).toEqual(['TX1A0001']);
      expect((await call(users.owner, 'GET', `/businesses/B1/transactions${q({ last4: '[eq]1111' })}`)).status).toBe(404);
    });

    it.each([
      ['two digits', { last4: '[eq]11' }],
      ['a full card number', { last4: '[eq]4111111111111111' }],
      ['letters', { bin: '[eq]41111a' }],
      ['five digits as the first six', { bin: '[eq]41111' }],
      ['a comparison', { last4: '[gte]1111' }],
    ])('refuses %s with a 400 naming the filter', async (_name, params) => {
      const response = await call(users.admin, 'GET', `/transactions${q(params as Record<string, string>)}`);
      expect(response.status).toBe(400);
      const messages = ((await response.json()) as { errorReport: { errors: { message: string }[] } }).errorReport.errors
        .map((error) => error.message)
        .join(' ');
      expect(messages).toMatch(/last4|bin/);
    });

    it('counts what it lists', async () => {
      const response = await call(users.admin, 'GET', `/transactions/count${q({ bin: '[eq]555555' })}`);
      expect(await response.json()).toEqual({ numberOfResults: 5 });
    });
  });

  describe('the record search', () => {
    it('reads 4 digits alone as the last four and 6 as the first six, within the caller’s scope', async () => {
      expect(sorted(await search(users.admin, '1111'))).toEqual(['TX1A0001', 'TX3A0001']);
      expect(await search(users.owner, '1111')).toEqual(['TX3A0001']);
      expect(sorted(await search(users.admin, '411111'))).toEqual(['TX1A0001', 'TX3A0001']);
      expect(await search(users.admin, '"1111"')).toEqual([]); // quoted, a word: no reference starts so
    });

    it('takes last4:, bin: and card: with other fields', async () => {
      expect(sorted(await search(users.admin, 'last4:4444 merchant:gamma'))).toEqual(['TX3B0002']);
      expect(sorted(await search(users.admin, 'card:411111…1111 currency:GBP'))).toEqual(['TX1A0001', 'TX3A0001']);
      expect(await search(users.admin, 'bin:555555 status:failed')).toEqual(['TX3B0002']);
      expect(await search(users.admin, 'card:…9999')).toEqual([]);
    });

    it('previews what the list it opens shows: same filters, same scope, amounts in each row’s own currency', async () => {
      // last4:4444 amount:>=10 → the overview link's last4=[eq]4444&amount=[gte]10, context-free (scope=all).
      const preview = await search(users.partner, 'last4:4444 amount:>=10');
      const opened = await list(users.partner, `/transactions${q({ last4: '[eq]4444', amount: '[gte]10' })}`);
      expect(preview.length).toBeGreaterThan(0);
      expect(preview).toEqual(opened.references.slice(0, 5));
      // At least 100 of its own currency: ¥125 and €500, never converted (£10.50, £12.50 and £5 are not).
      const everything = await list(users.admin, `/transactions${q({ last4: '[eq]4444', amount: '[gte]100' })}`);
      expect(sorted(everything.references)).toEqual(['TX1A0003', 'TX3B0002']);
      expect(sorted(await search(users.admin, 'last4:4444 amount:>=100'))).toEqual(['TX1A0003', 'TX3B0002']);
    });
  });

  describe('the refund offered on a payment’s detail', () => {
    async function detail(userId: string, reference: string) {
      const response = await call(userId, 'GET', `/transactions/${reference}`);
      expect(response.status).toBe(200);
      return transactionDetail.assert(await response.json());
    }

    it('says what may still be refunded, as the payment job’s refund endpoint would take it', async () => {
      const offered = await detail(users.admin, 'TX1A0001');
      const job = await call(users.admin, 'GET', '/businesses/B1/merchants/M1a/payment-jobs/PJ1A0001');
      const payment = ((await job.json()) as { payments: { paymentId: string; refundable: number; actions: { refund: boolean } }[] }).payments.find(
        (candidate) => candidate.paymentId === 'TX1A0001',
      );
      expect(payment?.actions.refund).toBe(true);
      expect(offered.refundable).toBe(payment?.refundable);
      expect(offered.refundable).toBeGreaterThan(0);
    });

    it('offers nothing without the refund permission, nor on a refund or a capture', async () => {
      expect((await detail(users.readonly, 'TX1A0001')).refundable).toBeUndefined();
      expect((await detail(users.admin, 'TX1R0001')).refundable).toBeUndefined();
      expect((await detail(users.admin, 'TX1C0001')).refundable).toBeUndefined();
    });
  });
});
