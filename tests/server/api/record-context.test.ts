// GET /context/records/…: the context a record belongs to, for a record link opened without one. On PGlite and
// (with TEST_DATABASE_URL) PostgreSQL, over the shared fixture world: P1 owns B1 (M1a, M1b) and B2; B3 (M3a, M3b)
// has no partner. Only a caller who may read the record gets an answer; anyone else gets 404, as for no record.
import { beforeAll, describe, expect, it } from 'vitest';
import * as schema from '../../../server/db/schema.ts';
import { databaseKinds, fixture, useFixtureApp } from '../support.ts';

const { users } = fixture;

describe.each(databaseKinds)('record context look-up on %s', (kind) => {
  const harness = useFixtureApp(kind);

  beforeAll(async () => {
    await harness.database.db.insert(schema.tickets).values([
      {
        id: 'TKRC3A01',
        businessId: 'B3',
        merchantId: 'M3a',
        createdBy: users.owner,
        type: 'general',
        status: 'Open',
        priority: 'Low',
        subject: 'Merchant ticket',
        description: 'x',
      },
      {
        id: 'TKRC3B00',
        businessId: 'B3',
        merchantId: null,
        createdBy: users.owner,
        type: 'general',
        status: 'Open',
        priority: 'Low',
        subject: 'Business ticket',
        description: 'x',
      },
      {
        id: 'TKRC1B01',
        businessId: 'B1',
        merchantId: 'M1b',
        createdBy: users.partner,
        type: 'general',
        status: 'Open',
        priority: 'Low',
        subject: 'Partner ticket',
        description: 'x',
      },
    ]);
  });

  async function get(userId: string, path: string) {
    const response = await harness.call(userId, 'GET', path);
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  }

  it('names the business, merchant and configuration of a transaction the caller may read', async () => {
    expect(await get(users.owner, '/context/records/transactions/TX3A0001')).toEqual({
      status: 200,
      body: {
        business: { id: 'B3', title: 'Gamma Foods plc' },
        merchant: { id: 'M3a', title: 'Gamma Deli' },
        configuration: { id: 'C-M3a', title: 'M3a shop', switches: { virtualTerminalMenuEnabled: true } },
      },
    });
    // Through a partner grant, and at root.
    expect((await get(users.partner, '/context/records/transactions/TX1A0001')).body).toMatchObject({ business: { id: 'B1' }, merchant: { id: 'M1a' } });
    expect((await get(users.readonly, '/context/records/transactions/TX3A0001')).status).toBe(200);
  });

  it('answers 404 for another tenant’s transaction exactly as for one that does not exist', async () => {
    const foreign = await get(users.owner, '/context/records/transactions/TX1A0001');
    const missing = await get(users.owner, '/context/records/transactions/TX9Z9999');
    expect(foreign.status).toBe(404);
    expect(missing.status).toBe(404);
    expect(foreign.body).toEqual(missing.body);
    expect(JSON.stringify(foreign.body)).not.toContain('B1');
    expect((await get(users.finance, '/context/records/transactions/TX3A0001')).status).toBe(404);
    expect((await get(users.nobody, '/context/records/transactions/TX3A0001')).status).toBe(404);
  });

  it('answers 404 without the read permission in the record’s own context', async () => {
    // The virtual-terminal role on M1b reads payment jobs but not transactions, and nothing of M1a.
    expect((await get(users.merchantOnly, '/context/records/transactions/TX1A0001')).status).toBe(404);
  });

  it('resolves a payment job only under the configuration its link names', async () => {
    expect(await get(users.owner, '/context/records/configurations/C-M3a/payment-jobs/PJ3A0001')).toEqual({
      status: 200,
      body: {
        business: { id: 'B3', title: 'Gamma Foods plc' },
        merchant: { id: 'M3a', title: 'Gamma Deli' },
        configuration: { id: 'C-M3a', title: 'M3a shop', switches: { virtualTerminalMenuEnabled: true } },
      },
    });
    expect((await get(users.owner, '/context/records/configurations/C-M3b/payment-jobs/PJ3A0001')).status).toBe(404);
    expect((await get(users.owner, '/context/records/configurations/C-M1a/payment-jobs/PJ1A0001')).status).toBe(404);
    expect((await get(users.partner, '/context/records/configurations/C-M1a/payment-jobs/PJ1A0001')).status).toBe(200);
  });

  it('resolves a ticket to its merchant, or to its business when it has none', async () => {
    expect((await get(users.owner, '/context/records/tickets/TKRC3A01')).body).toEqual({
      business: { id: 'B3', title: 'Gamma Foods plc' },
      merchant: { id: 'M3a', title: 'Gamma Deli' },
    });
    expect((await get(users.owner, '/context/records/tickets/TKRC3B00')).body).toEqual({ business: { id: 'B3', title: 'Gamma Foods plc' } });
    expect((await get(users.partner, '/context/records/tickets/TKRC1B01')).status).toBe(200);
    expect((await get(users.owner, '/context/records/tickets/TKRC1B01')).status).toBe(404);
    expect((await get(users.partner, '/context/records/tickets/TKRC3A01')).status).toBe(404);
  });

  it('answers 404 for ids no record can have, and 401 without a token', async () => {
    expect((await get(users.owner, `/context/records/transactions/${'X'.repeat(65)}`)).status).toBe(404);
    expect((await get(users.owner, '/context/records/tickets/%27%20OR%201%3D1--')).status).toBe(404);
    const anonymous = await harness.call('', 'GET', '/context/records/transactions/TX3A0001');
    expect([401, 403]).toContain(anonymous.status);
  });
});
