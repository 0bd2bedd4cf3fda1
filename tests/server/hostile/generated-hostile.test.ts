// Hostile input generated from the served OpenAPI document (GET /api/portal/openapi.json), so an endpoint added to
// the router (and, by tests/server/api/openapi.test.ts, to the document) is fuzzed without editing this file:
// for every operation, bodies that break one rule of its body schema, parameters outside their schemas, and
// hostile path values. Bodies and parameters that break the schema answer 4xx with an errorReport; nothing answers
// a 5xx; the database is unchanged afterwards. A deterministic sample (fixed seed) keeps it well under a minute.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../../server/db/client.ts';
import type { OpenApiDocument, OpenApiOperation } from '../../../server/api/openapi.ts';
import { insertLedgerFixture, m3aGbp } from '../ledger/ledger-fixtures.ts';
import { insertFixtureCustomers, insertRiskRecords, insertScreeningFixture } from '../api/risk-fixtures.ts';
import { createTestApp, createTestDatabase, fixture, insertFixtureWorld, snapshot } from '../support.ts';
import { dereference, invalidValues, malformedBodies, sample, seededRandom, type Mutation } from './openapi-mutations.ts';

/** Records of the fixture world each path parameter names, so a request gets past the look-up to the validation. */
const knownIds: Record<string, string> = {
  businessId: 'B3',
  merchantId: 'M3a',
  partnerId: 'P1',
  key: 'SomeSetting',
  name: 'countries',
  configurationId: 'C-M3a',
  userId: 'u-admin',
  ticketId: 'TCKGENERATED',
  commentId: 'TCCGENERATED',
  attachmentId: 'TCAGENERATED',
  paymentMethod: 'card',
  reference: 'HPPFIXTURE',
  keyId: 'KEY0000000000000000',
  imageReference: 'IMG00000000000000000000000000000000',
  paymentJobReference: 'PJ3A0001',
  paymentId: 'TX3A0001',
  traceReference: 'TR3A0001',
  refundId: 'TX3A0001',
  accountNumber: m3aGbp,
  batchId: `B${m3aGbp}-20261001`,
  kind: 'trading',
  customerId: 'CUS3A1',
  dataId: 'CD3A1CONSENT',
  beneficiaryId: 'BENFIX1',
  alertId: 'SAFIX1',
  savedCardId: 'SCGENERATED',
  id: 'RPTNONE',
};
const hostilePathValues = ['-1', 'x'.repeat(300), '__proto__', 'constructor', '..', '🙂'];
/**
 * The only audit rows allowed to appear: refused user administration, and reads that are audited by
 * design (an export or a card reveal asked with an extra, ignored query key is still a read, and still recorded).
 */
const expectedAuditEvents = ['UserAdministrationRefused', 'UserDeletionFailed', 'CustomerDataExported', 'CardNumberRevealed'];
const perOperation = { bodies: 6, parameters: 3, paths: 2 };

type Case = { operation: string; method: string; path: string; query?: string; body?: unknown; mustRefuse: boolean; label: string };

function fill(template: string, value: (name: string) => string): string {
  return template.replace(/\{([^}]+)\}/g, (_match, name: string) => encodeURIComponent(value(name)));
}

function casesOf(document: OpenApiDocument, random: () => number): Case[] {
  const cases: Case[] = [];
  for (const [template, item] of Object.entries(document.paths)) {
    for (const [lower, operation] of Object.entries(item) as [string, OpenApiOperation][]) {
      const method = lower.toUpperCase();
      const success = Object.keys(operation.responses).find((status) => status.startsWith('2')) ?? '200';
      const streams = Boolean((operation.responses[success] as { content?: Record<string, unknown> }).content?.['text/event-stream']);
      if (streams) continue; // an accepted request would hold an event stream open; its parameter is checked by the hand-written suite
      const path = fill(template, (name) => knownIds[name] ?? 'x');
      const base = { operation: operation.operationId, method };
      const jsonBody = operation.requestBody?.content['application/json']?.schema;
      if (jsonBody) {
        for (const mutation of sample(malformedBodies(document, jsonBody), perOperation.bodies, random))
          cases.push({ ...base, path, body: mutation.value, mustRefuse: true, label: mutation.label });
      }
      // Parameters outside their schema. Writes get them only with their (valid-looking) body refused anyway.
      const parameterMutations: (Mutation & { name: string })[] = [];
      for (const parameter of operation.parameters.filter((candidate) => candidate.in === 'query')) {
        const schema = dereference(document, parameter.schema);
        for (const mutation of invalidValues(document, schema).filter((candidate) => typeof candidate.value === 'string'))
          parameterMutations.push({ ...mutation, name: parameter.name });
        if (typeof schema.pattern === 'string') parameterMutations.push({ name: parameter.name, label: 'not matching its pattern', value: 'not/matching!' });
      }
      parameterMutations.push(
        { name: '__proto__', label: 'prototype key', value: '1' },
        { name: 'constructor[prototype][isAdmin]', label: 'prototype key', value: 'true' },
      );
      for (const mutation of sample(parameterMutations, perOperation.parameters, random)) {
        const query = new URLSearchParams({ [mutation.name]: String(mutation.value) }).toString();
        // A declared parameter's invalid value is refused; an undeclared key is only never a 5xx (some lists ignore extras).
        const declared = operation.parameters.some((parameter) => parameter.name === mutation.name);
        if (method === 'GET') cases.push({ ...base, path, query, mustRefuse: declared, label: `${mutation.name}: ${mutation.label}` });
        else if (jsonBody)
          cases.push({ ...base, path, query, body: '{not json', mustRefuse: true, label: `${mutation.name}: ${mutation.label} (with a broken body)` });
      }
      // Hostile path values: a record nobody has, or a value outside the parameter's enum.
      const pathParameters = operation.parameters.filter((parameter) => parameter.in === 'path');
      for (const parameter of sample(pathParameters, perOperation.paths, random)) {
        const enumerated = Array.isArray(dereference(document, parameter.schema).enum);
        const value = enumerated ? 'NotOneOfThem' : (hostilePathValues[Math.floor(random() * hostilePathValues.length)] ?? '-1');
        // '..' is resolved by the URL before the server sees it: a bodiless write would address a real sibling record
        // (DELETE …/comments/../attachments/A deletes the ticket's attachment A), which is not hostile input, only a change.
        if (value === '..' && !jsonBody && method !== 'GET') continue;
        const hostilePath = fill(template, (name) => (name === parameter.name ? value : (knownIds[name] ?? 'x')));
        // Writes without a body (DELETE of a setting that is not set answers 204) are only never a 5xx.
        cases.push({
          ...base,
          path: hostilePath,
          body: jsonBody ? {} : undefined,
          mustRefuse: enumerated || Boolean(jsonBody),
          label: `path ${parameter.name}=${value.slice(0, 20)}`,
        });
      }
    }
  }
  return cases;
}

describe('hostile input generated from the OpenAPI document (PGlite)', () => {
  let database: Database;
  let harness: ReturnType<typeof createTestApp>;
  let document: OpenApiDocument;
  let before: string;

  beforeAll(async () => {
    database = await createTestDatabase('pglite');
    await insertFixtureWorld(database);
    await database.query(`INSERT INTO tickets (id, business_id, merchant_id, created_by, type, status, priority, subject, description)
      VALUES ('TCKGENERATED', 'B3', 'M3a', '${fixture.users.owner}', 'dispute', 'Open', 'High', 'Generated hostile input target', 'Every operation of it is attacked')`);
    await database.query(
      `INSERT INTO ticket_comments (id, ticket_id, author_id, text) VALUES ('TCCGENERATED', 'TCKGENERATED', '${fixture.users.owner}', 'A comment')`,
    );
    await database.query(`INSERT INTO ticket_attachments (id, ticket_id, comment_id, file_name, mime_type, size, storage_key, uploaded_by)
      VALUES ('TCAGENERATED', 'TCKGENERATED', NULL, 'evidence.pdf', 'application/pdf', 10, 'tickets/TCKGENERATED/TCAGENERATED', '${fixture.users.owner}')`);
    await insertLedgerFixture(database);
    await insertFixtureCustomers(database);
    await insertScreeningFixture(database);
    await insertRiskRecords(database);
    harness = createTestApp(database);
    const response = await harness.call(fixture.users.admin, 'GET', '/openapi.json');
    expect(response.status).toBe(200);
    document = (await response.json()) as OpenApiDocument;
    before = await snapshot(database, { ignoreAuditEvents: expectedAuditEvents });
  }, 120_000);
  afterAll(async () => database?.close());

  it('derives malformed bodies from the schema (one broken rule each)', () => {
    const body = document.paths['/businesses/{businessId}/beneficiaries']?.post?.requestBody?.content['application/json']?.schema;
    const labels = malformedBodies(document, body).map((mutation) => mutation.label);
    expect(labels).toEqual(
      expect.arrayContaining([
        'missing required iban',
        'kind: unknown enum value',
        'kind: wrong type number',
        'iban: string over maxLength 50',
        'companyName: wrong type number',
        'unknown key',
        'prototype pollution __proto__',
        'prototype pollution constructor',
      ]),
    );
    expect(labels).not.toContain('companyName: wrong type null');
  });

  it('answers every generated hostile request with a 4xx errorReport where the schema is broken, and never a 5xx', async () => {
    const cases = casesOf(document, seededRandom(20261125));
    const operations = new Set(cases.map((candidate) => candidate.operation));
    expect(operations.size).toBeGreaterThan(250);
    expect(cases.filter((candidate) => candidate.body !== undefined && candidate.mustRefuse).length).toBeGreaterThan(400);
    const failures: string[] = [];
    const started = Date.now();
    for (const hostile of cases) {
      const path = `${hostile.path}${hostile.query ? `?${hostile.query}` : ''}`;
      const body = hostile.body === undefined ? undefined : typeof hostile.body === 'string' ? hostile.body : JSON.stringify(hostile.body);
      const response = await harness.call(fixture.users.admin, hostile.method, path, body, body === undefined ? {} : { 'content-type': 'application/json' });
      const context = `${hostile.method} ${path.slice(0, 100)} [${hostile.label}] → ${response.status}`;
      if (response.status >= 500) failures.push(context);
      else if (hostile.mustRefuse && response.status < 400) failures.push(`${context} (accepted)`);
      if (response.status >= 400) {
        const answer = (await response.json().catch(() => null)) as { errorReport?: { errors?: unknown[] } } | null;
        if (!answer?.errorReport?.errors?.length) failures.push(`${context} without an errorReport`);
      } else await response.arrayBuffer();
    }
    console.log(`generated hostile input: ${cases.length} requests over ${operations.size} operations in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    expect(failures).toEqual([]);
  }, 120_000);

  it('leaves the database unchanged after all of it', async () => {
    expect(await snapshot(database, { ignoreAuditEvents: expectedAuditEvents })).toBe(before);
  });
});
