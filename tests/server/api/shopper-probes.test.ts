// Guessing payment-link references on the shopper's page (/pay/{ref}) is limited per client address, on PGlite and
// PostgreSQL: past unknownReferencesPerAddress unknown references within the window, every /pay request from that
// address answers 429 with Retry-After and a clear page (known references too, so the answer tells nothing), other
// addresses are not held up, and the sign-in throttles of the address do not count these. The window is checked with
// fixed dates.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { probeLimitUntil, probeWindowMinutes, recordProbe, unknownReferencesPerAddress } from '../../../server/api/shopper-page.ts';
import type { Database } from '../../../server/db/client.ts';
import * as schema from '../../../server/db/schema.ts';
import { reserveAttempt } from '../../../server/identity/sign-in-guard.ts';
import { createTestApp, createTestDatabase, databaseKinds, insertFixtureWorld } from '../support.ts';

/** What the node server passes to the app: the client's address is read from the request's socket. */
const from = (address: string) => ({ incoming: { socket: { remoteAddress: address } } });
const form = (fields: Record<string, string>) => ({
  method: 'POST',
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
  body: new URLSearchParams(fields).toString(),
});

describe.each(databaseKinds)('probing the shopper page on %s', (kind) => {
  let database: Database;
  let app: ReturnType<typeof createTestApp>['app'];
  beforeAll(async () => {
    database = await createTestDatabase(kind);
    await insertFixtureWorld(database);
    ({ app } = createTestApp(database));
    await database.db.insert(schema.paymentJobs).values({
      reference: 'PJPROBE0001',
      businessId: 'B1',
      merchantId: 'M1a',
      partnerId: 'P1',
      configurationId: 'C-M1a',
      createDateTimeUtc: new Date('2026-11-10T09:00:00Z'),
      expirationDateTimeUtc: new Date('2099-01-01T00:00:00Z'),
      orderNumber: 'ORD-PROBE',
      amountMinor: 4250,
      currency: 'GBP',
      status: 'pending',
      order: {},
    });
  });
  afterAll(async () => database?.close());

  it('answers 429 with Retry-After to an address past the limit of unknown references, for every /pay request', async () => {
    const prober = from('203.0.113.10');
    for (let index = 0; index < unknownReferencesPerAddress; index += 1) {
      // Unknown references of the right form and of any other form count alike.
      const reference = index % 3 === 0 ? `PJ${String(index).padStart(10, '0')}` : index % 3 === 1 ? `nope-${index}` : `PJ%00${index}`;
      expect((await app.request(`/pay/${reference}`, {}, prober)).status, reference).toBe(404);
    }
    const refused = await app.request('/pay/PJ9999999999', {}, prober);
    expect(refused.status).toBe(429);
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(probeWindowMinutes * 60);
    const page = await refused.text();
    expect(page).toContain('Too many payment pages asked for');
    expect(page).toMatch(/Please wait \d+ minutes? and try again/);
    expect(refused.headers.get('content-security-policy')).toContain("default-src 'none'");
    // A known reference is refused alike from that address (else the answer would tell which references exist) ...
    expect((await app.request('/pay/PJPROBE0001', {}, prober)).status).toBe(429);
    expect(
      (await app.request('/pay/PJPROBE0001', form({ cardholderName: 'A B', cardNumber: '4111 1111 1111 1111', expiry: '12/39', cvc: '123' }), prober)).status,
    ).toBe(429);
    // ... and opens as ever from another.
    expect((await app.request('/pay/PJPROBE0001', {}, from('198.51.100.20'))).status).toBe(200);
    expect((await app.request('/pay/PJNOTHERE01', {}, from('198.51.100.20'))).status).toBe(404);
    // Refused requests are not written down: the window drains.
    const rows = await database.query<{ n: number }>(`SELECT count(*)::int AS n FROM sign_in_attempts WHERE address = '203.0.113.10' AND outcome = 'probe'`);
    expect(rows[0]?.n).toBe(unknownReferencesPerAddress);
  });

  it('counts unknown references posted to as well', async () => {
    const prober = from('203.0.113.11');
    for (let index = 0; index < unknownReferencesPerAddress; index += 1) {
      expect((await app.request(`/pay/PJPOST${String(index).padStart(6, '0')}`, form({ cardNumber: '4111 1111 1111 1111' }), prober)).status).toBe(404);
    }
    expect((await app.request('/pay/PJPOST999999', form({ cardNumber: '4111 1111 1111 1111' }), prober)).status).toBe(429);
  });

  it('frees the address when the window has passed, by the time it is given; sign-in from the address is not throttled by it', async () => {
    const address = '192.0.2.77';
    const start = new Date('2026-11-20T10:00:00Z');
    const at = (seconds: number) => new Date(start.getTime() + seconds * 1000);
    for (let index = 0; index < unknownReferencesPerAddress; index += 1) await recordProbe(database.db, address, `PJFIXED${index}`, at(index * 10));
    // The last one at 10:04:50; at 10:06 the address is over the limit until the oldest (10:00:00) leaves the window.
    expect(await probeLimitUntil(database.db, address, at(360))).toEqual(new Date('2026-11-20T10:10:00Z'));
    expect(await probeLimitUntil(database.db, address, new Date('2026-11-20T10:10:00.001Z'))).toBeNull();
    expect(await probeLimitUntil(database.db, '192.0.2.78', at(360))).toBeNull();
    // One more written at 10:06 is one too many (a burst is counted with the row each request wrote).
    const id = await recordProbe(database.db, address, 'PJFIXEDX', at(360));
    expect(await probeLimitUntil(database.db, address, at(360), id)).not.toBeNull();
    // The sign-in throttles count failed sign-ins only: probes from the same address do not throttle them.
    const reservation = await reserveAttempt(database.db, 'someone@example.test', { address, userAgent: '' }, at(361));
    expect('throttledUntil' in reservation).toBe(false);
  });
});
