// The notification editor's audience picker reads businesses and partners by name or id (GET
// /notifications/audience): authors only, words all found in the name or id, ids resolved to names, LIKE wildcards
// taken literally, unknown parameters refused.
import { describe, expect, it } from 'vitest';
import { audienceCandidateList } from '../../../src/contract/notification-schemas.ts';
import { databaseKinds, fixture, useFixtureApp } from '../support.ts';

const { users } = fixture;

describe.each(databaseKinds)('notification audience on %s', (kind) => {
  const harness = useFixtureApp(kind);
  const candidates = async (query: string) => {
    const response = await harness.call(users.admin, 'GET', `/notifications/audience?${query}`);
    expect(response.status).toBe(200);
    return audienceCandidateList.assert(await response.json()).results;
  };

  it('finds businesses and partners by words of their name, with the business’s partner', async () => {
    expect(await candidates('term=alpha')).toEqual([{ kind: 'business', id: 'B1', name: 'Alpha Trading Ltd', partnerName: 'Northwind Partners' }]);
    expect((await candidates('term=wind%20partners')).map((candidate) => `${candidate.kind}:${candidate.id}`)).toEqual(['partner:P1', 'partner:P2']);
    expect((await candidates('term=b3')).map((candidate) => candidate.id)).toEqual(['B3']);
  });
  it('names the ids a notification stores', async () => {
    expect((await candidates('ids=B2,P2,NOPE')).map((candidate) => `${candidate.kind}:${candidate.id}:${candidate.name}`)).toEqual([
      'partner:P2:Southwind Partners',
      'business:B2:Beta Retail Ltd',
    ]);
  });
  it('answers nothing for an empty term and takes wildcards literally', async () => {
    expect(await candidates('term=')).toEqual([]);
    expect(await candidates('term=%25')).toEqual([]);
    expect(await candidates('term=_')).toEqual([]);
  });
  it('lets only root authors in', async () => {
    for (const user of [users.owner, users.partner, users.readonly])
      expect((await harness.call(user, 'GET', '/notifications/audience?term=alpha')).status).toBe(403);
  });
  it('refuses unknown and oversized parameters', async () => {
    expect((await harness.call(users.admin, 'GET', '/notifications/audience?term=a&drop=1')).status).toBe(400);
    expect((await harness.call(users.admin, 'GET', `/notifications/audience?term=${'a'.repeat(101)}`)).status).toBe(400);
  });
});
