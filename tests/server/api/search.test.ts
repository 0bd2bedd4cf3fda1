import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import * as schema from '../../../server/db/schema.ts';
import { databaseKinds, fixture, useFixtureApp } from '../support.ts';
import { fieldWalk } from '../../../server/api/search.ts';

const { users } = fixture;

describe.each(databaseKinds)('palette record look-up on %s', (kind) => {
  const harness = useFixtureApp(kind);

  async function search(userId: string, term: string) {
    const response = await harness.call(userId, 'GET', `/search?term=${encodeURIComponent(term)}`);
    expect(response.status).toBe(200);
    return ((await response.json()) as { results: { kind: string; id: string; path: string }[] }).results;
  }

  it('finds a transaction by reference, case-insensitively, with its path and context', async () => {
    const [result] = await search(users.owner, 'tx3a0001');
    expect(result).toMatchObject({
      kind: 'transaction',
      id: 'TX3A0001',
      path: '/transactions/TX3A0001',
      context: { business: { id: 'B3' }, merchant: { id: 'M3a' } },
    });
  });
  it('finds a payment job by reference', async () => {
    expect((await search(users.owner, 'PJ3A0001')).map((result) => result.kind)).toEqual(['paymentJob']);
  });
  it('finds businesses and merchants by name fragment within the policy only', async () => {
    expect((await search(users.owner, 'gamma')).map((result) => result.id)).toEqual(['B3', 'M3b', 'M3a']);
    expect(await search(users.owner, 'alpha')).toEqual([]);
    expect((await search(users.partner, 'alpha')).map((result) => result.id)).toEqual(['B1', 'M1a', 'M1b']);
  });
  it('never returns another tenant’s transaction or payment job', async () => {
    expect(await search(users.owner, 'TX1A0001')).toEqual([]);
    expect(await search(users.finance, 'PJ3A0001')).toEqual([]);
    expect(await search(users.merchantOnly, 'TX1A0001')).toEqual([]);
  });
  it('lets internal users find everything', async () => {
    expect((await search(users.readonly, 'TX1A0001')).map((result) => result.id)).toEqual(['TX1A0001']);
  });
  it('treats LIKE wildcards in the term literally', async () => {
    expect(await search(users.admin, '%')).toEqual([]);
    expect(await search(users.admin, '_')).toEqual([]);
  });
  it.each([
    ['an empty term', ''],
    ['a term over 200 characters', 'x'.repeat(201)],
  ])('refuses %s with 400', async (_name, term) => {
    const response = await harness.call(users.owner, 'GET', `/search?term=${term}`);
    expect(response.status).toBe(400);
    expect(await response.json()).toHaveProperty('errorReport.errors.0.message');
  });
  it('refuses unknown parameters', async () => {
    expect((await harness.call(users.owner, 'GET', '/search?term=abc&drop=1')).status).toBe(400);
  });

  describe('record search', () => {
    beforeAll(async () => {
      const { db } = harness.database;
      await db.insert(schema.customers).values([
        {
          id: 'CU3A7781',
          businessId: 'B3',
          merchantId: 'M3a',
          reference: 'DELI-0042',
          firstName: 'Joanna',
          lastName: 'Wren',
          emailAddress: 'jo.wren@example.test',
        },
        {
          id: 'CU1A7781',
          businessId: 'B1',
          merchantId: 'M1a',
          reference: 'ALPHA-0042',
          firstName: 'Joanna',
          lastName: 'Wrenfield',
          emailAddress: 'jo.field@example.test',
        },
      ]);
      await db.insert(schema.tickets).values([
        {
          id: 'TK3A5501',
          businessId: 'B3',
          merchantId: 'M3a',
          createdBy: fixture.users.owner,
          type: 'general',
          status: 'Open',
          priority: 'Low',
          subject: 'Refund not arriving',
          description: 'x',
        },
        {
          id: 'TK1A5501',
          businessId: 'B1',
          merchantId: 'M1a',
          createdBy: fixture.users.partner,
          type: 'general',
          status: 'Open',
          priority: 'Low',
          subject: 'Refund not arriving',
          description: 'x',
        },
      ]);
    });
    const ids = async (userId: string, term: string) => (await search(userId, term)).map((result) => `${result.kind}:${result.id}`);

    it('finds a transaction by the prefix of its reference from 4 characters, not 3', async () => {
      expect(await ids(users.owner, 'tx3a')).toEqual(['transaction:TX3A0001']);
      expect(await ids(users.owner, 'TX3A000')).toEqual(['transaction:TX3A0001']);
      expect(await ids(users.owner, 'TX3')).toEqual([]);
    });
    it('finds payment jobs by the prefix of their reference and of their order number', async () => {
      expect(await ids(users.owner, 'PJ3A')).toEqual(['paymentJob:PJ3A0001']);
      expect(await ids(users.owner, 'ORD-PJ3')).toEqual(['paymentJob:PJ3A0001']);
    });
    it('finds customers by id prefix and by words of name or email, tickets by id and subject', async () => {
      expect(await ids(users.owner, 'CU3A')).toEqual(['customer:CU3A7781']);
      expect(await ids(users.owner, 'joanna wren')).toEqual(['customer:CU3A7781']);
      expect(await ids(users.owner, 'jo.wren@')).toEqual(['customer:CU3A7781']);
      expect(await ids(users.owner, 'TK3A')).toEqual(['ticket:TK3A5501']);
      expect(await ids(users.owner, 'refund arriving')).toEqual(['ticket:TK3A5501']);
    });
    it('finds users by words, only those the caller may read', async () => {
      expect(await ids(users.partner, 'finance@fixture')).toContain('user:u-finance');
      expect(await ids(users.owner, 'finance@fixture')).toEqual([]);
      expect(await ids(users.admin, 'u-own')).toContain('user:u-owner');
    });
    it('puts the group with an exact match first', async () => {
      const kinds = (await search(users.admin, 'TX1A0001')).map((result) => result.kind);
      expect(kinds[0]).toBe('transaction');
    });
    it('narrows transactions and payment jobs by field clauses', async () => {
      expect(await ids(users.owner, 'status:paid currency:gbp')).toEqual(['transaction:TX3A0001', 'paymentJob:PJ3A0001']);
      expect(await ids(users.owner, 'amount:>12.5')).toEqual([]);
      expect(await ids(users.owner, 'amount:>=12.5 date:2026-11-01')).toEqual(['transaction:TX3A0001', 'paymentJob:PJ3A0001']);
      expect(await ids(users.owner, 'merchant:"gamma deli" method:card')).toEqual(['transaction:TX3A0001']);
      expect(await ids(users.owner, 'in:payments status:paid')).toEqual(['paymentJob:PJ3A0001']);
      expect(await ids(users.owner, 'status:declined')).toEqual([]);
      expect(await ids(users.admin, 'TX1A status:paid')).toEqual(['transaction:TX1A0001']);
    });
    it('answers a field query the same when the date walk is bounded to the newest rows (the matches are sorted past it)', async () => {
      const terms = [
        [users.owner, 'status:paid currency:gbp'],
        [users.owner, 'amount:>12.5'],
        [users.owner, 'amount:>=12.5 date:2026-11-01'],
        [users.admin, 'status:paid'],
        [users.admin, 'method:card'],
        [users.admin, 'status:declined'],
      ] as const;
      const unbounded = await Promise.all(terms.map(([userId, term]) => ids(userId, term)));
      const saved = fieldWalk.rows;
      try {
        for (const rows of [1, 2, 3]) {
          fieldWalk.rows = rows;
          expect(await Promise.all(terms.map(([userId, term]) => ids(userId, term)))).toEqual(unbounded);
        }
      } finally {
        fieldWalk.rows = saved;
      }
      expect(unbounded.flat().length).toBeGreaterThan(0);
    });
    it('ignores invalid clauses instead of failing (the palette explains them)', async () => {
      expect(await ids(users.owner, 'colour:red TX3A')).toEqual(['transaction:TX3A0001']);
    });
    it.each([
      ['a reference prefix', 'TX1A'],
      ['a payment job prefix', 'PJ1A'],
      ['an order number', 'ORD-PJ1'],
      ['a customer id', 'CU1A'],
      ['a customer name', 'wrenfield'],
      ['a ticket id', 'TK1A'],
      ['a merchant name', 'alpha'],
      ['a field query', 'status:paid currency:GBP merchant:alpha'],
      ['a business id', 'B1'],
    ])('never suggests another tenant’s record: %s', async (_name, term) => {
      for (const userId of [users.owner, users.finance]) {
        const found = await search(userId, term);
        expect(found.filter((result) => ['B1', 'M1a', 'M1b', 'TX1A0001', 'PJ1A0001', 'CU1A7781', 'TK1A5501'].includes(result.id))).toEqual([]);
      }
      const merchantOnly = await search(users.merchantOnly, term);
      expect(merchantOnly.filter((result) => ['TX1A0001', 'PJ1A0001', 'CU1A7781', 'TK1A5501', 'M1a'].includes(result.id))).toEqual([]);
    });
    it('offers the merchant names the caller may see for completion', async () => {
      const response = await harness.call(users.owner, 'GET', '/search/merchants?prefix=g');
      expect(response.status).toBe(200);
      expect(((await response.json()) as { results: { id: string }[] }).results.map((row) => row.id)).toEqual(['M3b', 'M3a']);
      const none = await harness.call(users.owner, 'GET', '/search/merchants?prefix=alpha');
      expect(((await none.json()) as { results: unknown[] }).results).toEqual([]);
      expect((await harness.call(users.owner, 'GET', '/search/merchants?drop=1')).status).toBe(400);
    });
  });

  it('answers any text up to the limit without a 5xx (hostile terms, half-typed field syntax)', async () => {
    const text = fc.oneof(
      fc.string({ minLength: 1, maxLength: 200 }),
      fc.constantFrom(
        "' OR 1=1 --",
        'amount:>1e309',
        'date:2026-13-45..',
        'status:"',
        'merchant:"%_\\',
        'email:%@',
        'in:payments order:%',
        'TX%_',
        '\u0000abc',
      ),
    );
    await fc.assert(
      fc.asyncProperty(text, async (term) => {
        const response = await harness.call(users.partner, 'GET', `/search?term=${encodeURIComponent(term)}`);
        expect([200, 400]).toContain(response.status);
        await response.arrayBuffer();
      }),
      { numRuns: 60, seed: 23 },
    );
  });
});
