// The Portal API's OpenAPI document (server/api/openapi.ts): generated from the contract, complete against the router
// (both ways), structurally valid (every $ref resolves, every path parameter declared, operationIds unique, every
// refusal an errorReport), and served to any signed-in user.
import { type } from 'arktype';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../../server/db/client.ts';
import { buildOpenApiDocument, openApiPath, operationIdOf, toJsonSchema, type OpenApiDocument } from '../../../server/api/openapi.ts';
import { portalOperations } from '../../../server/api/openapi-routes.ts';
import { openApiDocument } from '../../../src/contract/openapi-schemas.ts';
import { inviteUsersBody } from '../../../src/contract/user-schemas.ts';
import { createTestApp, createTestDatabase, fixture, insertFixtureWorld } from '../support.ts';

const publicUrl = 'https://portal.example.test';

/** Every $ref in a JSON value. */
function refsOf(value: unknown, found: string[] = []): string[] {
  if (Array.isArray(value))
    value.forEach((item) => {
      refsOf(item, found);
    });
  else if (value && typeof value === 'object') {
    for (const [key, inner] of Object.entries(value)) {
      if (key === '$ref' && typeof inner === 'string') found.push(inner);
      else refsOf(inner, found);
    }
  }
  return found;
}

function resolve(document: unknown, ref: string): unknown {
  if (!ref.startsWith('#/')) return undefined;
  return ref
    .slice(2)
    .split('/')
    .reduce<unknown>(
      (node, part) => (node && typeof node === 'object' ? (node as Record<string, unknown>)[part.replace(/~1/g, '/').replace(/~0/g, '~')] : undefined),
      document,
    );
}

describe('the generator', () => {
  it('turns Hono paths into OpenAPI templates, regular-expression parameters included', () => {
    expect(openApiPath('/businesses/:businessId/merchants/:merchantId/transactions')).toBe('/businesses/{businessId}/merchants/{merchantId}/transactions');
    expect(openApiPath('/c/:configurationId/:paymentMethod{(?:card|ideal)}')).toBe('/c/{configurationId}/{paymentMethod}');
  });

  it('names operations from the method and the path', () => {
    expect(operationIdOf('GET', '/businesses/:businessId/transactions/:reference')).toBe('getBusinessesTransactionsByReference');
    expect(operationIdOf('POST', '/businesses/:businessId/payment-jobs/:paymentJobReference/actions/cancel')).toBe('postBusinessesPaymentJobsActionsCancel');
    expect(operationIdOf('GET', '/openapi.json')).toBe('getOpenapiJson');
  });

  it('documents a morph by what it accepts instead of refusing to convert it', () => {
    // inviteUsersBody trims and lower-cases its emails (a morph): the document shows the strings a client sends.
    const schema = toJsonSchema(inviteUsersBody) as { properties: { emails: { items: { type: string } } } };
    expect(schema.properties.emails.items.type).toBe('string');
    expect(toJsonSchema(type({ amount: 'number.integer >= 1', '+': 'reject' }))).toEqual({
      type: 'object',
      properties: { amount: { type: 'integer', minimum: 1 } },
      required: ['amount'],
      additionalProperties: false,
    });
  });

  it('references exported contract schemas as named components and inlines the rest', () => {
    const document = buildOpenApiDocument({ publicUrl });
    const post = document.paths['/businesses/{businessId}/beneficiaries']?.post;
    expect(post?.requestBody?.content['application/json']?.schema).toEqual({ $ref: '#/components/schemas/beneficiaryBody' });
    expect(document.components.schemas.beneficiaryBody).toMatchObject({
      type: 'object',
      additionalProperties: false,
      required: expect.arrayContaining(['iban', 'bic', 'kind']),
    });
    expect(post?.responses['201']).toMatchObject({ content: { 'application/json': { schema: { $ref: '#/components/schemas/beneficiary' } } } });
  });
});

describe('the Portal API document', () => {
  let database: Database;
  let harness: ReturnType<typeof createTestApp>;
  let document: OpenApiDocument;
  let routes: string[];

  beforeAll(async () => {
    database = await createTestDatabase('pglite');
    await insertFixtureWorld(database);
    harness = createTestApp(database);
    document = buildOpenApiDocument({ publicUrl });
    routes = [
      ...new Set(
        harness.app.routes
          .filter((route) => route.path.startsWith('/api/portal/') && route.method !== 'ALL' && !route.path.endsWith('*'))
          .map((route) => `${route.method} ${route.path}`),
      ),
    ];
  }, 120_000);
  afterAll(async () => database?.close());

  it('describes every Portal API route the router has', () => {
    const described = new Set(portalOperations.map((operation) => `${operation.method} /api/portal${operation.path}`));
    const undescribed = routes.filter((route) => !described.has(route));
    expect(undescribed, 'routes of the router the document does not describe: add them to server/api/openapi-routes.ts').toEqual([]);
    expect(routes.length).toBeGreaterThan(200);
  });

  it('describes no route the router lacks', () => {
    const existing = new Set(routes);
    const stale = portalOperations.map((operation) => `${operation.method} /api/portal${operation.path}`).filter((route) => !existing.has(route));
    expect(stale, 'operations of server/api/openapi-routes.ts without a route').toEqual([]);
    expect(new Set(portalOperations.map((operation) => `${operation.method} ${operation.path}`)).size).toBe(portalOperations.length);
  });

  it('is an OpenAPI 3.1 document with servers, security schemes and tags', () => {
    expect(document.openapi).toBe('3.1.0');
    expect(document.servers).toEqual([{ url: `${publicUrl}/api/portal`, description: 'This portal' }]);
    expect(document.components.securitySchemes.bearer).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(document.components.securitySchemes.oidc).toMatchObject({
      type: 'openIdConnect',
      openIdConnectUrl: `${publicUrl}/connect/.well-known/openid-configuration`,
    });
    const tagNames = new Set(document.tags.map((tag) => tag.name));
    for (const [path, item] of Object.entries(document.paths)) {
      for (const operation of Object.values(item)) for (const tag of operation.tags) expect(tagNames.has(tag), `${path} tag ${tag}`).toBe(true);
    }
  });

  it('resolves every $ref', () => {
    const refs = refsOf(document);
    expect(refs.length).toBeGreaterThan(500);
    const broken = [...new Set(refs)].filter((ref) => resolve(document, ref) === undefined);
    expect(broken).toEqual([]);
  });

  it('declares every path parameter once and no other, with unique operationIds', () => {
    const ids = new Set<string>();
    for (const [path, item] of Object.entries(document.paths)) {
      const templated = [...path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1]).sort();
      for (const [method, operation] of Object.entries(item)) {
        expect(['get', 'post', 'put', 'patch', 'delete']).toContain(method);
        const declared = operation.parameters.filter((parameter) => parameter.in === 'path');
        expect(declared.map((parameter) => parameter.name).sort(), `${method} ${path}`).toEqual(templated);
        expect(declared.every((parameter) => parameter.required)).toBe(true);
        const query = operation.parameters.filter((parameter) => parameter.in === 'query').map((parameter) => parameter.name.toLowerCase());
        expect(new Set(query).size, `${method} ${path} query parameters`).toBe(query.length);
        expect(ids.has(operation.operationId), operation.operationId).toBe(false);
        ids.add(operation.operationId);
        expect(operation.operationId).toMatch(/^[a-z][A-Za-z0-9]*$/);
      }
    }
    expect(ids.size).toBe(portalOperations.length);
  });

  it('answers every refusal with an errorReport', () => {
    for (const [path, item] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(item)) {
        const refusals = Object.keys(operation.responses).filter((status) => status.startsWith('4'));
        expect(refusals, `${method} ${path}`).toContain('400');
        for (const status of refusals) {
          const response = resolve(document, String((operation.responses[status] as { $ref: string }).$ref)) as {
            content: Record<string, { schema: unknown }>;
          };
          expect(response.content['application/json']?.schema).toEqual({ $ref: '#/components/schemas/errorReportSchema' });
        }
        const successes = Object.keys(operation.responses).filter((status) => status.startsWith('2'));
        expect(successes, `${method} ${path}`).toHaveLength(1);
      }
    }
    expect(document.components.schemas.errorReportSchema).toMatchObject({ type: 'object', required: ['errorReport'] });
  });

  it('passes the contract schema the reference pane checks it with', () => {
    expect(openApiDocument(document)).not.toBeInstanceOf(type.errors);
    // …and that schema is not a rubber stamp.
    expect(openApiDocument({ ...document, openapi: '3.0.3' })).toBeInstanceOf(type.errors);
  });

  it('has every component schema a JSON Schema object (no leftover dialect, no empty schema)', () => {
    for (const [name, schema] of Object.entries(document.components.schemas)) {
      expect(schema, name).not.toHaveProperty('$schema');
      expect(Object.keys(schema).length, name).toBeGreaterThan(0);
    }
  });

  it('is served to any signed-in user and refused without a token', async () => {
    const refused = await harness.call(null, 'GET', '/openapi.json');
    expect(refused.status).toBe(401);
    expect(await refused.json()).toHaveProperty('errorReport.errors.0.message');
    // Any signed-in user: the document describes shapes, never data (a user without a single grant included).
    for (const user of [fixture.users.admin, fixture.users.nobody, fixture.users.merchantOnly]) {
      const response = await harness.call(user, 'GET', '/openapi.json');
      expect(response.status, user).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^application\/json/);
      const served = (await response.json()) as OpenApiDocument;
      expect(served.openapi).toBe('3.1.0');
      expect(served.servers[0]?.url).toMatch(/\/api\/portal$/);
      expect(Object.keys(served.paths).length).toBe(Object.keys(document.paths).length);
    }
  });
});
