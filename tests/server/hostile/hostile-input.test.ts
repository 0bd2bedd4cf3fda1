// Hostile input against every Portal API route the app registers (read from the router, so new endpoints are
// covered without editing this file): broken tokens, malformed path parameters, queries and bodies, wrong
// content types and oversized payloads. Never a 5xx; every 4xx carries an errorReport; a refused write changes nothing.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attachmentTypeOf } from '../../../server/api/tickets.ts';
import type { Database } from '../../../server/db/client.ts';
import { createTestApp, createTestDatabase, fixture, insertFixtureWorld, snapshot, tokenFor } from '../support.ts';
import { insertLedgerFixture, m3aGbp } from '../ledger/ledger-fixtures.ts';
import { insertFixtureCustomers, insertRiskRecords, insertScreeningFixture } from '../api/risk-fixtures.ts';
import { insertCommissionPlans } from '../api/partner-fixtures.ts';

type Route = { method: string; path: string };

/** The risk area's tables, digested like snapshot() does for the others. */
async function riskSnapshot(database: Database): Promise<string> {
  const parts: string[] = [];
  for (const table of [
    'customers',
    'customer_data',
    'beneficiaries',
    'screening_alerts',
    'risk_settings',
    'watch_list_entries',
    'watch_list_notes',
    'billing_runs',
    'invoices',
    'invoice_counters',
  ]) {
    const rows = await database.query(`SELECT md5(coalesce(string_agg(t::text, '|' ORDER BY t::text), '')) AS digest FROM ${table} t`);
    parts.push(`${table}:${String(rows[0]?.digest)}`);
  }
  return parts.join('\n');
}

const hostileStrings = [
  "' OR 1=1 --",
  '"; DROP TABLE users; --',
  '../../etc/passwd',
  '%00',
  '\u0000',
  '<script>alert(1)</script>',
  'x'.repeat(5000),
  '[eq]',
  '[gte][and][lte]',
  '{{7*7}}',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a template-injection probe, sent as the plain text it is
  '${jndi:ldap://x}',
  '🙂',
  'NaN',
  '-1',
  '0',
  '1e309',
  'null',
  '[]',
  '{}',
];

const hostileText = fc.oneof(fc.constantFrom(...hostileStrings), fc.string({ maxLength: 200 }), fc.string({ unit: 'grapheme', maxLength: 50 }));

const knownIds: Record<string, string> = {
  businessId: 'B3',
  merchantId: 'M3a',
  partnerId: 'P1',
  key: 'SomeSetting',
  name: 'countries',
  configurationId: 'C-M3a',
  // The caller's own user: every user write refuses it (no self-administration) after reading the body or before.
  userId: 'u-admin',
  // support: a ticket of M3a with a comment and a file on each (inserted below)
  ticketId: 'TCKHOSTILE',
  commentId: 'TCCHOSTILE',
  attachmentId: 'TCAHOSTILE',
  paymentMethod: 'card',
  reference: 'HPPFIXTURE',
  keyId: 'KEY0000000000000000',
  imageReference: 'IMG00000000000000000000000000000000',
  // payment jobs: a real job, payment and trace of B3, so the routes get past the look-up
  paymentJobReference: 'PJ3A0001',
  paymentId: 'TX3A0001',
  traceReference: 'TR3A0001',
  refundId: 'TX3A0001',
  // the settlement ledger (tests/server/ledger/ledger-fixtures.ts): M3a's account group and a batch of it
  accountNumber: m3aGbp,
  batchId: `B${m3aGbp}-20261001`,
  kind: 'trading',
  // risk area: records that exist in B3 / M3a (tests/server/api/risk-fixtures.ts)
  customerId: 'CUS3A1',
  dataId: 'CD3A1CONSENT',
  beneficiaryId: 'BENFIX1',
  alertId: 'SAFIX1',
  // virtual terminal: a saved card of a stored customer of M3a (inserted below)
  savedCardId: 'SCHOSTILE',
  // partners: P1's commission plan (tests/server/api/partner-fixtures.ts)
  planId: 'CP-P1',
  // billing: an issued invoice of B3 (inserted below)
  invoiceId: 'INVHOSTILE',
  // bulk jobs: a well-formed id of no job
  jobId: 'BLK0000000000000000',
  // filter presets: an id of the right shape (none exists: 404 after the body is read)
  presetId: 'FP0000000000000000',
};

/** Routes served without a portal session (images are shown by <img> tags and shopper pages). */
const publicRoutes = new Set(['GET /images/:imageReference']);

function fill(path: string, value: (param: string) => string): string {
  return path.replace(/:([A-Za-z]+)(\{[^}]*\})?/g, (_match, param: string) => encodeURIComponent(value(param)));
}

async function expectWellFormedRefusalOrSuccess(response: Response, context: string) {
  expect(response.status, context).toBeLessThan(500);
  if (response.status >= 400) {
    const body = (await response.json()) as { errorReport?: { errors?: { message: string }[] } };
    expect(body.errorReport?.errors?.length, `${context}: errorReport`).toBeGreaterThan(0);
  }
}

describe('hostile input on every Portal API route (PGlite)', () => {
  let database: Database;
  let harness: ReturnType<typeof createTestApp>;
  let routes: Route[];
  let before: string;
  // Refused user administration is audited by design: the only rows allowed to appear.
  const expectedAuditEvents = ['UserAdministrationRefused', 'UserDeletionFailed'];

  beforeAll(async () => {
    database = await createTestDatabase('pglite');
    await insertFixtureWorld(database);
    await database.query(`INSERT INTO tickets (id, business_id, merchant_id, created_by, type, status, priority, subject, description)
      VALUES ('TCKHOSTILE', 'B3', 'M3a', '${fixture.users.owner}', 'dispute', 'Open', 'High', 'Hostile input target', 'Every route of it is attacked')`);
    await database.query(
      `INSERT INTO ticket_comments (id, ticket_id, author_id, text) VALUES ('TCCHOSTILE', 'TCKHOSTILE', '${fixture.users.owner}', 'A comment')`,
    );
    await database.query(`INSERT INTO ticket_attachments (id, ticket_id, comment_id, file_name, mime_type, size, storage_key, uploaded_by)
      VALUES ('TCAHOSTILE', 'TCKHOSTILE', NULL, 'evidence.pdf', 'application/pdf', 10, 'tickets/TCKHOSTILE/TCAHOSTILE', '${fixture.users.owner}')`);
    await insertLedgerFixture(database);
    await insertFixtureCustomers(database);
    await insertScreeningFixture(database);
    await insertRiskRecords(database);
    await database.query(
      `INSERT INTO customers (id, business_id, merchant_id, reference, first_name, last_name) VALUES ('CUSHOSTILE', 'B3', 'M3a', 'HOSTILE-1', 'Hostile', 'Target')`,
    );
    await database.query(
      `INSERT INTO customer_data (id, customer_id, merchant_id, kind, value) VALUES ('SCHOSTILE', 'CUSHOSTILE', 'M3a', 'savedCard', '{"cardToken":"CVNOTAREALTOKEN","maskedCardNumber":"411111******1111","expiryMonth":12,"expiryYear":2039}')`,
    );
    await insertCommissionPlans(database);
    await database.query(`INSERT INTO invoices (id, number, kind, month, business_id, currency, status, issued_utc, due_utc, fees_minor, minimum_top_up_minor, total_minor, lines, created_by)
      VALUES ('INVHOSTILE', 'INV-2026-999999', 'invoice', '2026-09', 'B3', 'GBP', 'issued', now(), now(), 100, 0, 100, '[]', '${fixture.users.admin}')`);
    harness = createTestApp(database);
    const seen = new Set<string>();
    routes = harness.app.routes
      .filter((route) => route.path.startsWith('/api/portal/') && route.method !== 'ALL' && !route.path.endsWith('*'))
      .filter((route) => {
        const key = `${route.method} ${route.path}`;
        if (seen.has(key)) return false;
        seen.add(key);
        return true;
      })
      .map((route) => ({ method: route.method, path: route.path.slice('/api/portal'.length) }));
    before = `${await snapshot(database, { ignoreAuditEvents: expectedAuditEvents })}\n${await riskSnapshot(database)}`;
  });
  afterAll(async () => database?.close());

  it('finds the routes to attack', () => {
    expect(routes.length).toBeGreaterThanOrEqual(12);
    console.log(`hostile suite covers ${routes.length} routes:\n${routes.map((route) => `  ${route.method} ${route.path}`).join('\n')}`);
  });

  it('answers broken or missing tokens with 401 and an errorReport on every route', async () => {
    const brokenHeaders = ['', 'Bearer', 'Bearer ', 'Basic dXNlcjpwYXNz', 'Bearer not.a.jwt', `Bearer ${tokenFor('u-ghost')}`, `bearer  ${'A'.repeat(9000)}`];
    for (const route of routes.filter((candidate) => !publicRoutes.has(`${candidate.method} ${candidate.path}`))) {
      for (const authorization of brokenHeaders) {
        const response = await harness.app.request(`/api/portal${fill(route.path, (param) => knownIds[param] ?? 'x')}`, {
          method: route.method,
          headers: authorization ? { authorization } : {},
        });
        expect(response.status, `${route.method} ${route.path} with '${authorization.slice(0, 30)}'`).toBe(401);
        expect(await response.json()).toHaveProperty('errorReport.errors.0.message');
      }
    }
  });

  it('never fails with a 5xx on hostile path parameters and queries', async () => {
    for (const route of routes) {
      await fc.assert(
        fc.asyncProperty(
          fc.dictionary(
            fc.constantFrom('pagenumber', 'pagesize', 'sort', 'liveonly', 'searchterm', 'term', 'status', 'amount', 'date', 'OrderingField', 'x'),
            hostileText,
            { maxKeys: 3 },
          ),
          hostileText,
          async (query, param) => {
            const search = new URLSearchParams(query).toString();
            const path = `${fill(route.path, () => param)}${search ? `?${search}` : ''}`;
            const response = await harness.call(fixture.users.admin, route.method, path, route.method === 'GET' || route.method === 'DELETE' ? undefined : {});
            await expectWellFormedRefusalOrSuccess(response, `${route.method} ${path.slice(0, 120)}`);
          },
        ),
        { numRuns: 15 },
      );
    }
    // Every route of the router, 15 cases each: a minute on a quiet 2-core machine, more beside other work.
  }, 240_000);

  it('refuses malformed bodies on every write route with a 4xx and an errorReport', async () => {
    const writes = routes.filter((route) => ['POST', 'PUT', 'PATCH'].includes(route.method));
    const malformed = fc.oneof(
      fc.record({
        body: fc.string({ maxLength: 100 }).filter((text) => {
          try {
            JSON.parse(text);
            return false;
          } catch {
            return true;
          }
        }),
        type: fc.constant('application/json'),
      }),
      fc.record({ body: fc.json(), type: fc.constantFrom('text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', '') }),
      fc.record({
        body: fc.constantFrom(
          '[]',
          '0',
          '"text"',
          'null',
          'true',
          '{"__proto__":{"admin":true}}',
          JSON.stringify({ value: 'a\u0000b', event: 'VoidFailed\u0000', dateTimeUtc: '2026-01-01T00:00:00Z' }),
        ),
        type: fc.constant('application/json'),
      }),
    );
    for (const route of writes) {
      await fc.assert(
        fc.asyncProperty(malformed, async ({ body, type }) => {
          const response = await harness.call(
            fixture.users.admin,
            route.method,
            fill(route.path, (param) => knownIds[param] ?? 'x'),
            body,
            type ? { 'content-type': type } : { 'content-type': '' },
          );
          expect(response.status, `${route.method} ${route.path} ${type} ${body.slice(0, 60)}`).toBeGreaterThanOrEqual(400);
          await expectWellFormedRefusalOrSuccess(response, `${route.method} ${route.path}`);
        }),
        { numRuns: 25 },
      );
    }
  }, 240_000);

  it('answers the public image route without a session: 404 for anything that is not a stored image', async () => {
    expect(routes.filter((route) => publicRoutes.has(`${route.method} ${route.path}`))).toHaveLength(publicRoutes.size);
    for (const reference of [...hostileStrings, knownIds.imageReference ?? '']) {
      const response = await harness.app.request(`/api/portal/images/${encodeURIComponent(reference)}`);
      expect(response.status, reference.slice(0, 40)).toBe(404);
      expect(await response.json()).toHaveProperty('errorReport.errors.0.message');
    }
  });

  it('refuses oversized payloads with 413 on every write route', async () => {
    const huge = JSON.stringify({ value: 'x'.repeat(1_200_000) });
    // Image uploads take up to 5 MB as base64: their limit is higher, and so is the payload that breaks it.
    const hugeImage = JSON.stringify({ data: 'A'.repeat(7_200_000), mimeType: 'image/png' });
    for (const route of routes.filter((candidate) => ['POST', 'PUT', 'PATCH'].includes(candidate.method))) {
      const body = route.path.endsWith('/images') ? hugeImage : huge;
      const response = await harness.call(
        fixture.users.admin,
        route.method,
        fill(route.path, (param) => knownIds[param] ?? 'x'),
        body,
        { 'content-type': 'application/json' },
      );
      expect(response.status, `${route.method} ${route.path}`).toBe(413);
      expect(await response.json()).toHaveProperty('errorReport.errors.0.message');
    }
  });

  it('refuses hostile multipart uploads on every attachment route with a 4xx and an errorReport', async () => {
    const uploads = routes.filter((route) => route.method === 'POST' && route.path.endsWith('/attachments'));
    expect(uploads.length).toBeGreaterThanOrEqual(2);
    const bytes = fc.oneof(
      fc.constantFrom(
        Buffer.alloc(0),
        Buffer.from('<svg onload=alert(1)>'),
        Buffer.from('MZ\u0090\u0000'),
        Buffer.from('%PDF'),
        Buffer.from('\u0000'.repeat(64)),
      ),
      fc.uint8Array({ maxLength: 256 }).map((array) => Buffer.from(array)),
    );
    const name = fc.oneof(fc.constantFrom(...hostileStrings, 'a.png', 'x.csv', '.htaccess', 'con.pdf', 'a\r\nX-Evil: 1.png'), fc.string({ maxLength: 300 }));
    for (const route of uploads) {
      const path = `/api/portal${fill(route.path, (param) => knownIds[param] ?? 'x')}`;
      await fc.assert(
        fc.asyncProperty(bytes, name, fc.constantFrom('file', 'files', 'File', ''), async (content, fileName, field) => {
          // A real image or PDF would rightly be stored: only what the rules refuse by its bytes is sent here.
          fc.pre('refused' in (await attachmentTypeOf(content, fileName, 'dispute')));
          const form = new FormData();
          form.append(field, new Blob([new Uint8Array(content)]), fileName);
          const response = await harness.app.request(path, {
            method: 'POST',
            headers: { authorization: `Bearer ${tokenFor(fixture.users.admin)}` },
            body: form,
          });
          expect(response.status, `${route.path} ${field} ${JSON.stringify(fileName).slice(0, 60)}`).toBeGreaterThanOrEqual(400);
          await expectWellFormedRefusalOrSuccess(response, `${route.method} ${route.path}`);
        }),
        { numRuns: 30 },
      );
      for (const raw of ['--x\r\nContent-Disposition: form-data; name="file"; filename="a.pdf"\r\n\r\n%PDF', 'not multipart at all', '--x--']) {
        const response = await harness.app.request(path, {
          method: 'POST',
          headers: { authorization: `Bearer ${tokenFor(fixture.users.admin)}`, 'content-type': 'multipart/form-data; boundary=x' },
          body: raw,
        });
        expect(response.status, `${route.path} ${raw.slice(0, 20)}`).toBeGreaterThanOrEqual(400);
        await expectWellFormedRefusalOrSuccess(response, `${route.method} ${route.path}`);
      }
    }
  });

  it('leaves the database unchanged after all of it', async () => {
    expect(`${await snapshot(database, { ignoreAuditEvents: expectedAuditEvents })}\n${await riskSnapshot(database)}`).toBe(before);
  });
});
