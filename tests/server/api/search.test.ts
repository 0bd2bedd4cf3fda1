import { describe, expect, it } from 'vitest';
import { databaseKinds, fixture, useFixtureApp } from '../support.ts';

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
    expect(result).toMatchObject({ kind: 'transaction', id: 'TX3A0001', path: '/transactions/TX3A0001', context: { business: { id: 'B3' }, merchant: { id: 'M3a' } } });
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
  it.each([['an empty term', ''], ['a term over 100 characters', 'x'.repeat(101)]])('refuses %s with 400', async (_name, term) => {
    const response = await harness.call(users.owner, 'GET', `/search?term=${term}`);
    expect(response.status).toBe(400);
    expect(await response.json()).toHaveProperty('errorReport.errors.0.message');
  });
  it('refuses unknown parameters', async () => {
    expect((await harness.call(users.owner, 'GET', '/search?term=abc&drop=1')).status).toBe(400);
  });
});
