import { describe, expect, it } from 'vitest';
import { databaseKinds, fixture, useFixtureApp, snapshot } from '../support.ts';

const { users } = fixture;

describe.each(databaseKinds)('platform endpoints on %s', (kind) => {
  const harness = useFixtureApp(kind);

  async function json(response: Response) {
    return response.json() as Promise<Record<string, unknown>>;
  }

  describe('authentication', () => {
    it('refuses a call without a token with 401 and an errorReport', async () => {
      const response = await harness.call(null, 'GET', '/user/permissions');
      expect(response.status).toBe(401);
      expect(await json(response)).toMatchObject({ errorReport: { errors: [{ message: 'Authentication is required.' }] } });
    });
    it('refuses a token the verifier rejects', async () => {
      const response = await harness.call(null, 'GET', '/user/permissions', undefined, { authorization: 'Bearer nonsense' });
      expect(response.status).toBe(401);
    });
    it('refuses a valid token of a user that no longer exists', async () => {
      expect((await harness.call('u-gone', 'GET', '/user/permissions')).status).toBe(401);
    });
    it('answers unknown routes with 404 and an errorReport', async () => {
      const response = await harness.call(users.admin, 'GET', '/no-such-thing');
      expect(response.status).toBe(404);
      expect(await json(response)).toHaveProperty('errorReport.errors.0.message', 'The requested record was not found.');
    });
    it('refuses a time zone that is not IANA', async () => {
      const response = await harness.call(users.admin, 'GET', '/user/permissions', undefined, { 'time-zone': 'Mars/Olympus' });
      expect(response.status).toBe(400);
    });
  });

  describe('policy structure', () => {
    it('gives an internal user root roles and no business policies', async () => {
      const body = await json(await harness.call(users.admin, 'GET', '/user/policy-structure'));
      expect(body).toEqual({ portalPolicy: { roles: ['TechnicalAdmin'], partnerPolicy: null, businessPolicies: [] } });
    });
    it('gives a partner user the partner policy', async () => {
      const body = await json(await harness.call(users.partner, 'GET', '/user/policy-structure'));
      expect(body).toEqual({
        portalPolicy: { roles: [], partnerPolicy: { partnerId: 'P1', partnerName: 'Northwind Partners', roles: ['Owner'] }, businessPolicies: [] },
      });
    });
    it('gives an owner a business policy with roles', async () => {
      const body = await json(await harness.call(users.owner, 'GET', '/user/policy-structure'));
      expect(body).toEqual({
        portalPolicy: {
          roles: [],
          partnerPolicy: null,
          businessPolicies: [{ businessId: 'B3', businessName: 'Gamma Foods plc', roles: ['Owner'], merchantPolicies: [] }],
        },
      });
    });
    it('gives a merchant-only user a business policy without roles holding the merchant policy', async () => {
      const body = await json(await harness.call(users.merchantOnly, 'GET', '/user/policy-structure'));
      expect(body).toEqual({
        portalPolicy: {
          roles: [],
          partnerPolicy: null,
          businessPolicies: [
            {
              businessId: 'B1',
              businessName: 'Alpha Trading Ltd',
              roles: [],
              merchantPolicies: [{ businessId: 'B1', merchantId: 'M1b', merchantName: 'Alpha Stores', roles: ['VirtualTerminal'] }],
            },
          ],
        },
      });
    });
  });

  describe('permissions per context', () => {
    it('lists all of a user’s permissions', async () => {
      const { permissions } = (await json(await harness.call(users.finance, 'GET', '/user/permissions'))) as { permissions: string[] };
      expect(permissions).toContain('Mapi.Transactions.Read');
      expect(permissions).not.toContain('Billing.Invoices.Create');
    });
    it('gives a business role its permissions in its business', async () => {
      const response = await harness.call(users.finance, 'GET', '/user/businesses/B2/permissions');
      expect(response.status).toBe(200);
      expect((await json(response)).permissions).toContain('Mapi.MerchantAccountGroups.Read');
    });
    it('answers 404, not 403, for a business outside the policy (existence is not revealed)', async () => {
      const existing = await harness.call(users.finance, 'GET', '/user/businesses/B1/permissions');
      const missing = await harness.call(users.finance, 'GET', '/user/businesses/B999/permissions');
      expect(existing.status).toBe(404);
      expect(missing.status).toBe(404);
      expect(await existing.text()).toBe(await missing.text());
    });
    it('lets a partner role reach the partner’s businesses and merchants but not others', async () => {
      expect((await harness.call(users.partner, 'GET', '/user/businesses/B2/merchants/M2a/permissions')).status).toBe(200);
      expect((await harness.call(users.partner, 'GET', '/user/businesses/B3/permissions')).status).toBe(404);
      expect((await harness.call(users.partner, 'GET', '/user/partner/P1/permissions')).status).toBe(200);
      expect((await harness.call(users.partner, 'GET', '/user/partner/P2/permissions')).status).toBe(404);
    });
    it('limits a merchant role to its merchant', async () => {
      const own = await json(await harness.call(users.merchantOnly, 'GET', '/user/businesses/B1/merchants/M1b/permissions'));
      expect(own.permissions).toEqual(expect.arrayContaining(['Portal.Moto.Create']));
      expect(own.permissions).not.toContain('Mapi.Transactions.Read');
      expect((await harness.call(users.merchantOnly, 'GET', '/user/businesses/B1/merchants/M1a/permissions')).status).toBe(404);
    });
    it('refuses a merchant addressed under the wrong business', async () => {
      expect((await harness.call(users.admin, 'GET', '/user/businesses/B3/merchants/M1a/permissions')).status).toBe(404);
    });
    it('gives internal roles their permissions everywhere', async () => {
      const body = await json(await harness.call(users.readonly, 'GET', '/user/businesses/B4/merchants/M4a/permissions'));
      expect(body.permissions).toContain('Mapi.Transactions.Read');
      expect(body.permissions).not.toContain('Billing.Invoices.Create');
    });
  });

  describe('user businesses and contexts', () => {
    it('lists the businesses of the policy', async () => {
      const body = await json(await harness.call(users.owner, 'GET', '/user/businesses'));
      expect(body).toEqual({ results: [{ businessId: 'B3', businessName: 'Gamma Foods plc', roles: ['Owner'] }], numberOfResults: 1 });
    });
    it('lists a partner’s businesses as its contexts', async () => {
      const body = (await json(await harness.call(users.partner, 'GET', '/user/contexts'))) as { businesses: { businessId: string }[] };
      expect(body.businesses.map((business) => business.businessId)).toEqual(['B1', 'B2']);
    });
  });

  describe('notification status', () => {
    it('counts published notifications the user may see and reports password expiry', async () => {
      const external = await json(await harness.call(users.owner, 'GET', '/user/notifications/status'));
      expect(external).toEqual({ totalUnreadCount: 1, passwordExpiresInXDays: 4, latestUnread: { reference: 'N1', title: 'Maintenance window' } });
      const internal = await json(await harness.call(users.admin, 'GET', '/user/notifications/status'));
      expect(internal.totalUnreadCount).toBe(2);
    });
  });

  describe('user settings', () => {
    it('answers a setting never stored as not set: 200 with a null value, not a 404 the browser logs', async () => {
      const response = await harness.call(users.owner, 'GET', '/user-settings/ContextFavorites');
      expect(response.status).toBe(200);
      expect(await json(response)).toEqual({ key: 'ContextFavorites', value: null });
    });
    it('stores, replaces and reads a JSON text value per user', async () => {
      const value = JSON.stringify([{ businessId: 'B3' }]);
      expect((await harness.call(users.owner, 'PUT', '/user-settings/ContextFavorites', { value })).status).toBe(200);
      expect((await harness.call(users.owner, 'PUT', '/user-settings/ContextFavorites', { value: '[]' })).status).toBe(200);
      expect(await json(await harness.call(users.owner, 'GET', '/user-settings/ContextFavorites'))).toEqual({ key: 'ContextFavorites', value: '[]' });
      // Another user's value is never read: for them the key is not set.
      expect(await json(await harness.call(users.finance, 'GET', '/user-settings/ContextFavorites'))).toEqual({ key: 'ContextFavorites', value: null });
    });
    it.each([
      ['a value that is not JSON text', { value: '{oops' }, 'application/json'],
      ['a value of the wrong type', { value: 42 }, 'application/json'],
      ['a missing value', {}, 'application/json'],
      ['a body that is not JSON', 'not json', 'application/json'],
      ['a wrong content type', 'value=1', 'text/plain'],
    ])('refuses %s with 400 and changes nothing', async (_name, body, contentType) => {
      const before = await snapshot(harness.database);
      const response = await harness.call(users.owner, 'PUT', '/user-settings/TransactionsFilterPresets', body, { 'content-type': contentType });
      expect(response.status).toBe(400);
      expect(await json(response)).toHaveProperty('errorReport.errors');
      expect(await snapshot(harness.database)).toBe(before);
    });
    it('refuses a malformed key', async () => {
      expect((await harness.call(users.owner, 'GET', `/user-settings/${encodeURIComponent('bad key!')}`)).status).toBe(400);
    });
    it('refuses an oversized body with 413 and an errorReport', async () => {
      const response = await harness.call(users.owner, 'PUT', '/user-settings/Big', { value: JSON.stringify('x'.repeat(1_100_000)) });
      expect(response.status).toBe(413);
      expect(await json(response)).toHaveProperty('errorReport.errors');
    });
    it('counts a value in bytes: 64 KiB of UTF-8 at most', async () => {
      // 30,000 euro signs are 30,002 characters but 90,002 bytes.
      const euros = JSON.stringify('€'.repeat(30_000));
      const refused = await harness.call(users.owner, 'PUT', '/user-settings/Euros', { value: euros });
      expect(refused.status).toBe(400);
      expect(JSON.stringify(await json(refused))).toContain('65536 bytes maximum');
      const fits = JSON.stringify('€'.repeat(21_000));
      expect((await harness.call(users.owner, 'PUT', '/user-settings/Euros', { value: fits })).status).toBe(200);
    });
    it('keeps at most 100 settings per user, lets one be replaced at the limit, and deletes', async () => {
      const user = users.finance;
      const before = await harness.database.query<{ n: string }>(`SELECT count(*) AS n FROM user_settings WHERE user_id = '${user}'`);
      const room = 100 - Number(before[0]?.n ?? 0);
      const keys = Array.from({ length: room + 5 }, (_, index) => `Limit${index}`);
      // Eight at a time (under the per-user cap of requests in progress): the limit holds under concurrent writers.
      const statuses: number[] = [];
      for (let start = 0; start < keys.length; start += 8) {
        statuses.push(
          ...(await Promise.all(
            keys.slice(start, start + 8).map(async (key) => (await harness.call(user, 'PUT', `/user-settings/${key}`, { value: '1' })).status),
          )),
        );
      }
      expect(statuses.filter((status) => status === 200)).toHaveLength(room);
      expect(statuses.filter((status) => status === 400)).toHaveLength(5);
      const stored = await harness.database.query<{ key: string }>(`SELECT key FROM user_settings WHERE user_id = '${user}' AND key LIKE 'Limit%'`);
      const kept = stored[0]?.key ?? '';
      expect((await harness.call(user, 'PUT', `/user-settings/${kept}`, { value: '2' })).status).toBe(200);
      const refused = await harness.call(user, 'PUT', '/user-settings/OneMore', { value: '1' });
      expect(refused.status).toBe(400);
      expect(JSON.stringify(await json(refused))).toContain('remove one before saving another');
      expect((await harness.call(user, 'DELETE', `/user-settings/${kept}`)).status).toBe(204);
      expect(await json(await harness.call(user, 'GET', `/user-settings/${kept}`))).toEqual({ key: kept, value: null });
      expect((await harness.call(user, 'DELETE', `/user-settings/${kept}`)).status).toBe(204);
      expect((await harness.call(user, 'PUT', '/user-settings/OneMore', { value: '1' })).status).toBe(200);
      await harness.database.query(`DELETE FROM user_settings WHERE user_id = '${user}' AND (key LIKE 'Limit%' OR key = 'OneMore')`);
    });
  });

  describe('enumerations', () => {
    it.each(['countries', 'currencies', 'order-line-types', 'payment-methods', 'payment-statuses', 'ticket-types'])('serves %s', async (name) => {
      const body = (await json(await harness.call(users.merchantOnly, 'GET', `/enumerations/${name}`))) as { results: unknown[]; numberOfResults: number };
      expect(body.numberOfResults).toBeGreaterThan(4);
      expect(body.results).toHaveLength(body.numberOfResults);
    });
    it('names currencies in en-GB with their decimals', async () => {
      const body = (await json(await harness.call(users.owner, 'GET', '/enumerations/currencies'))) as {
        results: { alpha3Code: string; name: string; decimals: number }[];
      };
      expect(body.results.find((currency) => currency.alpha3Code === 'GBP')).toEqual({ alpha3Code: 'GBP', name: 'British Pound', decimals: 2 });
      expect(body.results.find((currency) => currency.alpha3Code === 'JPY')?.decimals).toBe(0);
    });
    it('answers 404 for an unknown enumeration', async () => {
      expect((await harness.call(users.owner, 'GET', '/enumerations/planets')).status).toBe(404);
    });
  });

  describe('audit events', () => {
    const event = {
      event: 'RecordPrinted',
      dateTimeUtc: '2026-11-20T10:00:00Z',
      businessId: 'B3',
      merchantId: 'M3a',
      metaData: { transactionReference: 'TX3A0001' },
    };
    it('records a client-reported event in a reachable context, at the server’s time, marked as client-reported', async () => {
      const before = Date.now();
      const response = await harness.call(users.owner, 'POST', '/audit-events', { ...event, dateTimeUtc: '2030-01-01T00:00:00Z' });
      expect(response.status).toBe(201);
      const rows = await harness.database.query<{ event: string; user_id: string; source: string; date_time_utc: Date; meta_data: Record<string, unknown> }>(
        "SELECT event, user_id, source, date_time_utc, meta_data FROM audit_events WHERE business_id = 'B3' AND event = 'RecordPrinted'",
      );
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ event: 'RecordPrinted', user_id: users.owner, source: 'client' });
      expect(rows[0]?.meta_data).toEqual({ transactionReference: 'TX3A0001', clientDateTimeUtc: '2030-01-01T00:00:00Z' });
      // Backdating or postdating is impossible: the row carries the time it was received.
      expect(new Date(rows[0]?.date_time_utc ?? 0).getTime()).toBeGreaterThanOrEqual(before - 1000);
      expect(new Date(rows[0]?.date_time_utc ?? 0).getTime()).toBeLessThanOrEqual(Date.now() + 1000);
    });
    it('answers 404 for a context outside the policy and records nothing', async () => {
      const before = await snapshot(harness.database);
      expect((await harness.call(users.finance, 'POST', '/audit-events', event)).status).toBe(404);
      expect(await snapshot(harness.database)).toBe(before);
    });
    it('answers 403 without the event’s permission there (a card number copied by someone who may not reveal one)', async () => {
      const before = await snapshot(harness.database);
      expect((await harness.call(users.owner, 'POST', '/audit-events', { ...event, event: 'CardNumberCopied' })).status).toBe(403);
      expect((await harness.call(users.readonly, 'POST', '/audit-events', { ...event, event: 'CardNumberCopied' })).status).toBe(403);
      expect(await snapshot(harness.database)).toBe(before);
    });
    it.each([
      ['a money movement (written only by the server)', { ...event, event: 'RefundSuccessful' }],
      ['a card reveal (written only by the server)', { ...event, event: 'CardNumberRevealed' }],
      ['a user deletion (written only by the server)', { ...event, event: 'UserDeletionSuccessful' }],
      ['an unknown event', { ...event, event: 'Teleport' }],
      ['a date that is not ISO', { ...event, dateTimeUtc: 'yesterday' }],
      ['a merchant without a business', { event: 'RecordPrinted', dateTimeUtc: '2026-11-20T10:00:00Z', merchantId: 'M3a' }],
    ])('refuses %s with 400 and records nothing', async (_name, body) => {
      const before = await snapshot(harness.database);
      const response = await harness.call(users.owner, 'POST', '/audit-events', body);
      expect(response.status).toBe(400);
      expect(await json(response)).toHaveProperty('errorReport.errors.0.message');
      expect(await snapshot(harness.database)).toBe(before);
    });
    it('keeps audit rows append-only: the database refuses to update or delete one', async () => {
      await expect(harness.database.query("UPDATE audit_events SET event = 'Nothing' WHERE business_id = 'B3'")).rejects.toThrow(/append-only/);
      await expect(harness.database.query("DELETE FROM audit_events WHERE business_id = 'B3'")).rejects.toThrow(/append-only/);
      const [row] = await harness.database.query<{ count: number }>(
        "SELECT count(*)::int AS count FROM audit_events WHERE business_id = 'B3' AND event = 'RecordPrinted'",
      );
      expect(row?.count).toBe(1);
    });
  });
});
