import { eq } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../../server/db/client.ts';
import * as schema from '../../../server/db/schema.ts';
import { orderKeysOf } from '../../../server/http/list-sql.ts';
import { revealsPerMinute } from '../../../server/api/transactions.ts';
import { exactCountLimit } from '../../../server/http/list-count.ts';
import { pageOfTransactions, transactionResource } from '../../../server/transactions/list.ts';
import { scopeWhere, type TransactionScope } from '../../../server/transactions/scope.ts';
import { transactionDetail, transactionList } from '../../../src/contract/transaction-schemas.ts';
import { createTestApp, createTestDatabase, databaseKinds, fixture, grantStepUp, insertFixtureWorld, snapshot } from '../support.ts';
import { b1ByDateDescending, insertExtraTransactions } from './transaction-fixtures.ts';

const { users } = fixture;
const q = (params: Record<string, string>) => `?${new URLSearchParams(params).toString()}`;

describe.each(databaseKinds)('transactions on %s', (kind) => {
  let database: Database;
  let call: ReturnType<typeof createTestApp>['call'];
  beforeAll(async () => {
    database = await createTestDatabase(kind);
    await insertFixtureWorld(database);
    await insertExtraTransactions(database);
    ({ call } = createTestApp(database));
  });
  afterAll(async () => database?.close());

  async function list(userId: string, path: string, headers: Record<string, string> = {}) {
    const response = await call(userId, 'GET', path, undefined, headers);
    expect(response.status, await response.clone().text()).toBe(200);
    const body = transactionList.assert(await response.json());
    return { ...body, references: body.results.map((row) => row.reference) };
  }
  async function refused(userId: string, path: string, status: number) {
    const response = await call(userId, 'GET', path);
    expect(response.status).toBe(status);
    return ((await response.json()) as { errorReport: { errors: { message: string }[] } }).errorReport.errors.map((error) => error.message);
  }

  describe('the overview', () => {
    it('lists a business newest first with an exact total', async () => {
      const body = await list(users.partner, '/businesses/B1/transactions');
      expect(body.references).toEqual(b1ByDateDescending);
      expect(body).toMatchObject({ numberOfResults: 6, numberOfResultsIsEstimate: false });
      expect(body.results[0]).toEqual({
        reference: 'TX1R0001',
        kind: 'refund',
        date: '2026-11-05T10:00:00.000Z',
        businessId: 'B1',
        merchantId: 'M1a',
        merchantName: 'Alpha Online',
        amount: 5,
        currency: 'GBP',
        status: 'paid',
        paymentMethod: 'card',
        channel: 'Gateway',
        ewalletType: null,
        paymentJobReference: 'PJ1A0001',
        maskedCardNumber: '555555******4444',
      });
    });

    it('lists a merchant, and a partner across its businesses', async () => {
      expect((await list(users.partner, '/businesses/B1/merchants/M1b/transactions')).references).toEqual(['TX1B0001']);
      expect((await list(users.partner, '/partners/P1/transactions')).references).toEqual([...b1ByDateDescending.slice(0, 5), 'TX1A0001', 'TX2A0001']);
    });

    it.each([
      ['date', 'Ascending', [...b1ByDateDescending].reverse()],
      // Amounts sort within a currency: EUR's rows, then GBP's, each in amount order.
      ['amount', 'Ascending', ['TX1A0003', 'TX1R0001', 'TX1B0001', 'TX1A0001', 'TX1C0001', 'TX1A0002']],
      ['amount', 'Descending', ['TX1A0003', 'TX1A0002', 'TX1C0001', 'TX1A0001', 'TX1B0001', 'TX1R0001']],
      ['status', 'Ascending', ['TX1A0002', 'TX1R0001', 'TX1B0001', 'TX1A0003', 'TX1C0001', 'TX1A0001']],
      ['reference', 'Ascending', ['TX1A0001', 'TX1A0002', 'TX1A0003', 'TX1B0001', 'TX1C0001', 'TX1R0001']],
      ['merchant', 'Ascending', ['TX1R0001', 'TX1A0003', 'TX1A0002', 'TX1C0001', 'TX1A0001', 'TX1B0001']],
      ['merchant', 'Descending', ['TX1B0001', 'TX1R0001', 'TX1A0003', 'TX1A0002', 'TX1C0001', 'TX1A0001']],
      ['MERCHANT', 'Descending', ['TX1B0001', 'TX1R0001', 'TX1A0003', 'TX1A0002', 'TX1C0001', 'TX1A0001']],
    ])('sorts by %s %s', async (field, direction, expected) => {
      expect((await list(users.partner, `/businesses/B1/transactions${q({ OrderingField: field, OrderingDirection: direction })}`)).references).toEqual(
        expected,
      );
    });

    it('pages without gaps or overlaps, in every ordering', async () => {
      for (const field of ['date', 'amount', 'status', 'reference', 'merchant']) {
        const all = (await list(users.admin, `/transactions${q({ OrderingField: field, pagesize: '100' })}`)).references;
        const pages: string[] = [];
        for (let page = 1; page <= Math.ceil(all.length / 10); page += 1) {
          pages.push(...(await list(users.admin, `/transactions${q({ OrderingField: field, pagesize: '10', pagenumber: String(page) })}`)).references);
        }
        expect(pages).toEqual(all);
      }
    });

    it('answers an empty page past the end', async () => {
      expect(await list(users.partner, `/businesses/B1/transactions${q({ pagenumber: '9' })}`)).toMatchObject({ results: [], numberOfResults: 6 });
    });
  });

  describe('filters', () => {
    const b1 = async (params: Record<string, string>, headers: Record<string, string> = {}) =>
      (await list(users.partner, `/businesses/B1/transactions${q(params)}`, headers)).references.sort();

    it('reads dates as wall-clock times in the Time-Zone of the request', async () => {
      expect(await b1({ date: '[gte]2026-11-04T00:00:00' })).toEqual(['TX1B0001', 'TX1R0001']);
      expect(await b1({ date: '[gte]2026-11-04T00:00:00' }, { 'time-zone': 'Asia/Tokyo' })).toEqual(['TX1A0003', 'TX1B0001', 'TX1R0001']);
      expect(await b1({ date: '[gte]2026-11-01T00:00:00[and][lte]2026-11-01T23:59:59' })).toEqual(['TX1A0001', 'TX1C0001']);
      expect(await b1({ date: '[lte]2026-11-01T10:00:00' })).toEqual(['TX1A0001']);
    });

    it('reads amounts in major units of the one chosen currency', async () => {
      const all = async (amount: string, currency: string) =>
        (await list(users.admin, `/transactions${q({ amount, currency: currency.startsWith('[') ? currency : `[eq]${currency}` })}`)).references.sort();
      expect(await all('[eq]12.5', 'GBP')).toEqual(['TX1A0001', 'TX1C0001', 'TX3A0001']);
      expect(await all('[eq]12.50', '[eq]gbp')).toEqual(['TX1A0001', 'TX1C0001', 'TX3A0001']);
      expect(await all('[eq]1250', 'JPY')).toEqual(['TX3B0001']);
      expect(await all('[eq]1250', 'GBP')).toEqual([]);
      expect(await all('[gte]100[and][lte]500', 'EUR')).toEqual(['TX1A0003']);
      expect(await all('[gte]100[and][lte]500', 'JPY')).toEqual(['TX3B0002']);
      expect(await all('[eq]12.5001', 'GBP')).toEqual([]);
      expect(await all('[lte]5', 'GBP')).toEqual(['TX1R0001']);
      expect(await all('[gte]99999999999999999999999', 'GBP')).toEqual([]);
    });

    it('matches any of several values, in any case', async () => {
      expect(await b1({ status: '[eq]DECLINED[and][eq]failed' })).toEqual(['TX1A0002']);
      expect(await b1({ channel: '[eq]chp[and][eq]acquiring' })).toEqual(['TX1A0003', 'TX1B0001']);
      expect(await b1({ paymentmethod: '[eq]applepay' })).toEqual(['TX1A0002']);
      expect(await b1({ kind: '[eq]refund[and][eq]capture' })).toEqual(['TX1C0001', 'TX1R0001']);
      expect(await b1({ currency: '[eq]eur' })).toEqual(['TX1A0003']);
      expect(await b1({ merchantid: '[eq]M1b' })).toEqual(['TX1B0001']);
      expect(await b1({ status: '[eq]paid', channel: '[eq]gateway', kind: '[eq]payment' })).toEqual(['TX1A0001']);
    });

    it('searches reference, payment job reference and customer email by prefix, case-insensitively', async () => {
      expect(await b1({ searchterm: '[eq]tx1a' })).toEqual(['TX1A0001', 'TX1A0002', 'TX1A0003']);
      expect(await b1({ searchterm: '[eq]pj1a0001' })).toEqual(['TX1A0001', 'TX1C0001', 'TX1R0001']);
      expect(await b1({ searchterm: '[eq]BOB@shop' })).toEqual(['TX1A0003']);
      expect(await b1({ searchterm: '[eq]shop.test' })).toEqual([]);
    });

    it('treats LIKE wildcards in a search literally', async () => {
      const all = async (term: string) => (await list(users.admin, `/transactions${q({ searchterm: `[eq]${term}` })}`)).references;
      expect(await all('%')).toEqual([]);
      expect(await all('_')).toEqual([]);
      expect(await all('c_d%')).toEqual(['TX2A0001']);
      expect(await all('c_x')).toEqual([]);
    });

    it.each([
      [{ colour: '[eq]red' }, "'colour' is not a filter of this list"],
      [{ status: '[eq]lost' }, "filter status 'lost' is not one of"],
      [{ amount: '[gte]ten' }, "filter amount 'ten' is not a number"],
      [{ date: '[gte]2026-13-45' }, "filter date '2026-13-45' is not an ISO date"],
      [{ status: '[lte]paid' }, 'filter status does not accept [lte]'],
      [{ sort: '-date' }, "'sort' is not a parameter of this list"],
      [{ OrderingField: 'customerEmail' }, "OrderingField 'customerEmail' is not sortable"],
      [{ pagesize: '500' }, "pagesize '500' must be one of 10, 25, 50, 100"],
    ])('refuses %j with a 400 naming it', async (params, message) => {
      const messages = await refused(users.partner, `/businesses/B1/transactions${q(params)}`, 400);
      expect(messages.join(' | ')).toContain(message);
    });

    it('refuses a repeated parameter and a page beyond the listing depth', async () => {
      expect(await refused(users.partner, '/businesses/B1/transactions?status=[eq]paid&status=[eq]failed', 400)).toEqual(["'status' may be given once"]);
      expect((await refused(users.partner, `/businesses/B1/transactions${q({ pagenumber: '4001', pagesize: '25' })}`, 400))[0]).toContain(
        'narrow the filters or export',
      );
    });

    it('stops the merchant sort, which walks every merchant, at row 5,000', async () => {
      const bySortField = (OrderingField: string, pagenumber: string) => `/transactions${q({ OrderingField, pagenumber, pagesize: '25' })}`;
      expect((await refused(users.admin, bySortField('merchant', '201'), 400))[0]).toBe(
        'A list sorted by merchant shows its first 5,000 rows; filter by merchant, sort by another column or export the list.',
      );
      expect((await list(users.admin, bySortField('merchant', '200'))).references).toEqual([]);
      expect((await list(users.admin, bySortField('date', '201'))).references).toEqual([]);
    });

    it('answers hostile query strings with 200 or a 400 naming the problem, never an error, changing nothing', async () => {
      const before = await snapshot(database);
      const name = fc.oneof(
        fc.constantFrom(
          'date',
          'amount',
          'status',
          'channel',
          'paymentmethod',
          'currency',
          'merchantid',
          'searchterm',
          'kind',
          'pagenumber',
          'pagesize',
          'OrderingField',
          'OrderingDirection',
          '__proto__',
          'constructor',
        ),
        fc.string({ maxLength: 12 }),
      );
      const value = fc.oneof(
        fc.string({ maxLength: 60 }),
        fc.constantFrom(
          "[eq]'; DROP TABLE transactions; --",
          '[gte]9999999999999999999999999',
          '[lte]-1e309',
          '[eq]%_\\',
          '[eq]\u0000',
          '[gte]2026-02-30',
          '[eq]paid[and][eq]',
          'x'.repeat(600),
          '[eq]ＴＸ',
          '[eq]😀',
        ),
      );
      await fc.assert(
        fc.asyncProperty(fc.dictionary(name, value, { maxKeys: 4 }), async (params) => {
          const query = new URLSearchParams(params).toString();
          const response = await call(users.partner, 'GET', `/businesses/B1/transactions?${query}`);
          expect([200, 400]).toContain(response.status);
          const body = (await response.json()) as { results?: { businessId: string }[]; errorReport?: { errors: { message: string }[] } };
          if (response.status === 400) expect(body.errorReport?.errors.length).toBeGreaterThan(0);
          else expect(body.results?.every((row) => row.businessId === 'B1')).toBe(true);
        }),
        { numRuns: kind === 'pglite' ? 60 : 120 },
      );
      expect(await snapshot(database)).toBe(before);
    });

    it('refuses an invalid Time-Zone', async () => {
      const response = await call(users.partner, 'GET', '/businesses/B1/transactions', undefined, { 'time-zone': 'Mars/Olympus' });
      expect(response.status).toBe(400);
    });

    it('counts exactly on request', async () => {
      const response = await call(users.partner, 'GET', `/businesses/B1/transactions/count${q({ status: '[eq]paid' })}`);
      expect(await response.json()).toEqual({ numberOfResults: 5 });
    });
  });

  describe('scope', () => {
    it('answers 404 for a business, merchant or partner the caller cannot reach', async () => {
      await refused(users.owner, '/businesses/B1/transactions', 404);
      await refused(users.owner, '/businesses/B3/merchants/M1a/transactions', 404);
      await refused(users.partner, '/partners/P2/transactions', 404);
      await refused(users.owner, '/businesses/NOPE/transactions', 404);
    });

    it('answers 403 where the caller is known but lacks the permission', async () => {
      await refused(users.merchantOnly, '/businesses/B1/merchants/M1b/transactions', 403);
      await refused(users.merchantOnly, '/transactions', 403);
      await refused(users.nobody, '/transactions', 403);
    });

    it('lists the caller’s whole reach without a context', async () => {
      expect((await list(users.owner, '/transactions')).references).toEqual(['TX3B0002', 'TX3B0001', 'TX3A0001']);
      expect((await list(users.finance, '/transactions')).references).toEqual(['TX2A0001']);
      expect((await list(users.admin, '/transactions')).numberOfResults).toBe(10);
      expect((await list(users.readonly, '/transactions')).numberOfResults).toBe(10);
    });
  });

  describe('detail', () => {
    it('shows a transaction with its linked transactions, payment job and payment method', async () => {
      const response = await call(users.partner, 'GET', '/businesses/B1/transactions/TX1A0001');
      expect(response.status).toBe(200);
      const detail = transactionDetail.assert(await response.json());
      expect(detail).toMatchObject({
        reference: 'TX1A0001',
        businessName: 'Alpha Trading Ltd',
        merchantName: 'Alpha Online',
        maskedCardNumber: '411111******1111',
        paymentMethods: [{ paymentMethod: 'card', ewalletType: null, maskedCardNumber: '411111******1111' }],
        paymentJob: { reference: 'PJ1A0001', orderNumber: 'ORD-PJ1A0001', amount: 12.5, currency: 'GBP' },
        cardNumberRevealable: false,
      });
      expect(detail.linkedTransactions.map((linked) => [linked.reference, linked.relation, linked.kind])).toEqual([
        ['TX1C0001', 'child', 'capture'],
        ['TX1R0001', 'child', 'refund'],
      ]);
      expect(JSON.stringify(detail)).not.toContain('4111111111111111');
    });

    it('shows a refund with its parent and siblings', async () => {
      const detail = transactionDetail.assert(await (await call(users.admin, 'GET', '/transactions/TX1R0001')).json());
      expect(detail.linkedTransactions.map((linked) => [linked.reference, linked.relation])).toEqual([
        ['TX1A0001', 'parent'],
        ['TX1C0001', 'sibling'],
      ]);
      expect(detail.cardNumberRevealable).toBe(true);
    });

    it('answers 404 for another tenant’s transaction, by any path', async () => {
      await refused(users.owner, '/transactions/TX1A0001', 404);
      await refused(users.owner, '/businesses/B3/transactions/TX1A0001', 404);
      await refused(users.admin, '/businesses/B3/transactions/TX1A0001', 404);
      await refused(users.partner, '/businesses/B1/merchants/M1b/transactions/TX1A0001', 404);
      await refused(users.partner, '/transactions/..%2F..%2Fetc', 404);
    });

    it('gives the masked card number to anyone who may read the transaction', async () => {
      expect(await (await call(users.owner, 'GET', '/transactions/TX3A0001/maskedCardNumber')).json()).toEqual({ maskedCardNumber: '411111******1111' });
    });
  });

  describe('the full card number', () => {
    const reveals = async () => await database.db.select().from(schema.auditEvents).where(eq(schema.auditEvents.event, 'CardNumberRevealed'));

    it('is refused without Mapi.Transaction.CardNumber.Read, and nothing is recorded', async () => {
      const before = await snapshot(database);
      await refused(users.owner, '/businesses/B3/transactions/TX3A0001/cardNumber', 403);
      await refused(users.readonly, '/transactions/TX3A0001/cardNumber', 403);
      await refused(users.owner, '/transactions/TX1A0001/cardNumber', 404);
      expect(await snapshot(database)).toBe(before);
    });

    it('is revealed with the permission and recorded as an audit event', async () => {
      await grantStepUp(database, users.admin);
      const response = await call(users.admin, 'GET', '/businesses/B3/merchants/M3a/transactions/TX3A0001/cardNumber');
      expect(response.status).toBe(200);
      expect(response.headers.get('cache-control')).toBe('no-store');
      expect(await response.json()).toEqual({ cardNumber: '4111111111111111' });
      const events = await reveals();
      expect(events).toHaveLength(1);
      expect(events[0]).toMatchObject({ userId: users.admin, businessId: 'B3', merchantId: 'M3a', metaData: { transactionReference: 'TX3A0001' } });
    });

    it('answers 404 without a record when no card number is on file', async () => {
      const before = (await reveals()).length;
      await refused(users.admin, '/transactions/TX1A0002/cardNumber', 404);
      expect(await reveals()).toHaveLength(before);
    });

    it('records nothing when the read fails inside the transaction', async () => {
      // The audit row and the read share one database transaction: a failure of either leaves neither.
      const before = (await reveals()).length;
      await database.query(
        `CREATE OR REPLACE FUNCTION refuse_reveal() RETURNS trigger AS $$ BEGIN RAISE EXCEPTION 'audit store unavailable'; END $$ LANGUAGE plpgsql`,
      );
      await database.query('CREATE TRIGGER refuse_reveal BEFORE INSERT ON audit_events FOR EACH ROW EXECUTE FUNCTION refuse_reveal()');
      try {
        const response = await call(users.admin, 'GET', '/transactions/TX3A0001/cardNumber');
        expect(response.status).toBe(500);
        expect(await response.text()).not.toContain('4111111111111111');
      } finally {
        await database.query('DROP TRIGGER refuse_reveal ON audit_events');
      }
      expect(await reveals()).toHaveLength(before);
    });
    it(`allows at most ${revealsPerMinute} reveals a minute per user, answering 429 with Retry-After beyond, unrecorded`, async () => {
      const analyst = 'u-reveal-limit';
      await database.db
        .insert(schema.users)
        .values({ id: analyst, email: 'limit@example.com', givenName: 'Rae', familyName: 'Limit', passwordHash: 'scrypt$1$1$1$x$y', internal: true });
      await database.db.insert(schema.userRoles).values({ userId: analyst, role: 'RiskAnalyst', level: 'root' });
      await grantStepUp(database, analyst);
      const mine = async () => (await reveals()).filter((event) => event.userId === analyst).length;
      // Concurrent requests too: the user's row lock counts them one after another.
      const answers = await Promise.all(Array.from({ length: revealsPerMinute + 2 }, () => call(analyst, 'GET', '/transactions/TX3A0001/cardNumber')));
      const statuses = answers.map((answer) => answer.status).sort();
      expect(statuses).toEqual([...Array.from({ length: revealsPerMinute }, () => 200), 429, 429]);
      const limited = answers.find((answer) => answer.status === 429);
      expect(limited?.headers.get('retry-after')).toBe('60');
      expect(JSON.stringify(await limited?.json())).toContain(`At most ${revealsPerMinute} card numbers can be revealed a minute`);
      expect(await mine()).toBe(revealsPerMinute);
    });
  });

  describe('queueing an export', () => {
    const body = {
      fileType: 'csv',
      columns: ['date', 'reference', 'amount'],
      filters: { status: '[eq]paid' },
      ordering: { OrderingField: 'amount', OrderingDirection: 'Descending' },
    };

    it('queues the filtered view with its count, context and columns', async () => {
      const response = await call(users.partner, 'POST', '/businesses/B1/transactions/full/reports', body, { 'time-zone': 'Europe/London' });
      expect(response.status).toBe(202);
      const { reportId, totalRows } = (await response.json()) as { reportId: string; totalRows: number };
      expect(totalRows).toBe(5);
      const [row] = await database.db.select().from(schema.queuedReports).where(eq(schema.queuedReports.id, reportId));
      expect(row).toMatchObject({
        userId: users.partner,
        reportType: 'transactions',
        fileType: 'csv',
        status: 'queued',
        totalRows: 5,
        processedRows: 0,
        attempts: 0,
        filters: { status: '[eq]paid' },
        ordering: { OrderingField: 'amount', OrderingDirection: 'Descending' },
        columns: ['date', 'reference', 'amount'],
        context: { level: 'business', businessId: 'B1', title: 'Alpha Trading Ltd', timeZone: 'Europe/London' },
      });
    });

    it('records the date range it was made for', async () => {
      const response = await call(users.partner, 'POST', '/partners/P1/transactions/full/reports', {
        fileType: 'xlsx',
        columns: ['reference'],
        filters: { date: '[gte]2026-11-01T00:00:00[and][lte]2026-11-30T23:59:59' },
      });
      const { reportId, totalRows } = (await response.json()) as { reportId: string; totalRows: number };
      expect(totalRows).toBe(6);
      const [row] = await database.db.select().from(schema.queuedReports).where(eq(schema.queuedReports.id, reportId));
      expect(row?.startDate?.toISOString()).toBe('2026-11-01T00:00:00.000Z');
      expect(row?.endDate?.toISOString()).toBe('2026-11-30T23:59:59.999Z');
      expect(row?.context).toMatchObject({ level: 'partner', partnerId: 'P1', title: 'Northwind Partners' });
    });

    it.each([
      [{ ...body, fileType: 'pdf' }, 'fileType'],
      [{ ...body, columns: [] }, 'columns'],
      [{ ...body, columns: ['cardNumber'] }, 'columns'],
      [{ ...body, filters: { colour: '[eq]red' } }, "'colour' is not a filter of this list"],
      [{ ...body, filters: { pagesize: '10' } }, "'pagesize' is not a filter"],
      [{ ...body, ordering: { OrderingField: 'email', OrderingDirection: 'Ascending' } }, "OrderingField 'email' is not sortable"],
      [{ ...body, extra: true }, 'extra'],
    ])('refuses %j', async (invalid, message) => {
      const count = async () => Number((await database.query<{ n: string }>('SELECT count(*) AS n FROM queued_reports'))[0]?.n);
      const before = await count();
      const response = await call(users.partner, 'POST', '/businesses/B1/transactions/full/reports', invalid);
      expect(response.status).toBe(400);
      expect(JSON.stringify(await response.json())).toContain(message);
      expect(await count()).toBe(before);
    });

    it('refuses another tenant’s context with 404 and a caller without the permission with 403, queueing nothing', async () => {
      const before = await snapshot(database);
      expect((await call(users.owner, 'POST', '/businesses/B1/transactions/full/reports', body)).status).toBe(404);
      expect((await call(users.merchantOnly, 'POST', '/businesses/B1/merchants/M1b/transactions/full/reports', body)).status).toBe(403);
      expect(await snapshot(database)).toBe(before);
    });
  });
});

describe.each(databaseKinds)('totals of long lists on %s', (kind) => {
  let database: Database;
  let call: ReturnType<typeof createTestApp>['call'];
  beforeAll(async () => {
    database = await createTestDatabase(kind);
    await insertFixtureWorld(database);
    await database.query(`
      INSERT INTO transactions (reference, kind, business_id, merchant_id, partner_id, configuration_id, payment_job_reference, created_at,
        amount_minor, currency, status, payment_method, channel)
      SELECT 'TXBULK' || lpad(i::text, 6, '0'), 'payment', 'B4', 'M4a', NULL, 'C-M4a', 'PJBULK', timestamptz '2026-01-01' + i * interval '1 minute',
        100 + i, 'USD', CASE WHEN i % 2 = 0 THEN 'paid' ELSE 'declined' END, 'card', 'Gateway'
      FROM generate_series(1, ${exactCountLimit + 500}) AS i`);
    await database.query('ANALYZE transactions');
    ({ call } = createTestApp(database));
  });
  afterAll(async () => database?.close());

  it('gives an estimate, flagged, above the exact-count limit and exact figures below it', async () => {
    const big = (await (await call(users.admin, 'GET', '/businesses/B4/transactions')).json()) as {
      numberOfResults: number;
      numberOfResultsIsEstimate: boolean;
      results: unknown[];
    };
    expect(big.numberOfResultsIsEstimate).toBe(true);
    expect(big.numberOfResults).toBeGreaterThan(exactCountLimit);
    expect(big.results).toHaveLength(25);
    const small = (await (
      await call(users.admin, 'GET', `/businesses/B4/transactions?${new URLSearchParams({ amount: '[lte]1.5', currency: '[eq]USD' })}`)
    ).json()) as { numberOfResults: number; numberOfResultsIsEstimate: boolean };
    expect(small).toMatchObject({ numberOfResults: 50, numberOfResultsIsEstimate: false });
    const exact = (await (await call(users.admin, 'GET', '/businesses/B4/transactions/count')).json()) as { numberOfResults: number };
    expect(exact.numberOfResults).toBe(exactCountLimit + 500);
  });

  it('reads the same page whether it walks an index or sorts the matches', async () => {
    for (const scope of [{ level: 'all' }, { level: 'business', businessId: 'B4' }, { level: 'partner', partnerId: 'P1' }] as TransactionScope[]) {
      for (const descending of [false, true]) {
        for (const offset of [0, 20]) {
          const request = {
            scope,
            where: scopeWhere(scope),
            orderKeys: orderKeysOf(transactionResource, { field: 'merchant', descending }),
            sortField: 'merchant',
            limit: 10,
            offset,
          };
          const walked = await pageOfTransactions(database.db, { ...request, plan: 'walk' });
          const sorted = await pageOfTransactions(database.db, { ...request, plan: 'sortMatches' });
          expect(walked).toEqual(sorted);
        }
      }
    }
    for (const field of ['date', 'amount', 'status', 'reference']) {
      for (const descending of [false, true]) {
        const scope: TransactionScope = { level: 'all' };
        const request = {
          scope,
          where: scopeWhere(scope),
          orderKeys: orderKeysOf(transactionResource, { field, descending }),
          sortField: field,
          limit: 25,
          offset: 10,
        };
        expect(await pageOfTransactions(database.db, { ...request, plan: 'sortMatches' })).toEqual(
          await pageOfTransactions(database.db, { ...request, plan: 'walk' }),
        );
      }
    }
    const body = (await (await call(users.admin, 'GET', '/transactions?OrderingField=merchant&pagesize=10')).json()) as { results: { merchantName: string }[] };
    expect(body.results.map((row) => row.merchantName)).toEqual(['Alpha Online', ...Array(9).fill('Delta Shop')]);
  });
});
