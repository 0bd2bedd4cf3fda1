// The Portal API's OpenAPI 3.1 document, generated from the contract (never written by hand): each operation of
// openapi-routes.ts becomes a path item; its arktype schemas become JSON Schema 2020-12 (OpenAPI 3.1's dialect) via
// arktype's toJsonSchema; a schema a contract module exports is a named component referenced with $ref.
//
// | method | path          | who                 | answer                                              |
// |--------|---------------|---------------------|-----------------------------------------------------|
// | GET    | /openapi.json | any signed-in user  | the document (it describes shapes, never data)      |
import { Hono } from 'hono';
import type { JsonSchema } from 'arktype';
import type { ListQuerySpec } from '../../src/contract/list-query.ts';
import { orderingDirections, pageSizes } from '../../src/contract/list-query.ts';
import type { AppEnv, Deps } from '../http/env.ts';
import {
  errorReportSchema,
  operationTags,
  pathParameterSchemas,
  portalOperations,
  schemaModules,
  type Answer,
  type Operation,
  type QueryParameter,
  type Schema,
} from './openapi-routes.ts';

type Json = Record<string, unknown>;
export type OpenApiDocument = {
  openapi: string;
  info: Json;
  servers: { url: string; description?: string }[];
  security: Record<string, string[]>[];
  tags: { name: string; description?: string }[];
  paths: Record<string, Record<string, OpenApiOperation>>;
  components: { schemas: Record<string, Json>; responses: Record<string, Json>; securitySchemes: Record<string, Json> };
};
export type OpenApiParameter = { name: string; in: 'path' | 'query'; required: boolean; description?: string; schema: Json };
export type OpenApiOperation = {
  operationId: string;
  summary: string;
  tags: string[];
  parameters: OpenApiParameter[];
  requestBody?: { required: boolean; content: Record<string, { schema: Json }> };
  responses: Record<string, Json>;
  security?: Record<string, string[]>[];
  /** the Hono route it documents (method + path under /api/portal) */
  'x-route': string;
};

export const portalBase = '/api/portal';

/**
 * What JSON Schema cannot say is dropped rather than refused: a morph is documented by what it accepts (its input),
 * a narrow by the shape it narrows (its rule is in the 400 the server answers), anything else by its base.
 */
const jsonSchemaOptions = {
  fallback: {
    morph: (ctx: { base: JsonSchema }) => ctx.base,
    predicate: (ctx: { base: JsonSchema }) => ctx.base,
    default: (ctx: { base: JsonSchema }) => ctx.base,
  },
} as const;

export function toJsonSchema(schema: Schema): Json {
  const { $schema: _dialect, ...rest } = schema.toJsonSchema(jsonSchemaOptions as never) as Json;
  return rest;
}

/** Every exported arktype type of the contract modules, by identity → its export name. */
function namedSchemas(): Map<unknown, string> {
  const names = new Map<unknown, string>();
  const taken = new Set<string>();
  for (const module of Object.values(schemaModules)) {
    for (const [name, value] of Object.entries(module)) {
      if (typeof value !== 'function' || typeof (value as { toJsonSchema?: unknown }).toJsonSchema !== 'function') continue;
      if (names.has(value)) continue;
      const component = taken.has(name) ? `${name}_${taken.size}` : name;
      taken.add(component);
      names.set(value, component);
    }
  }
  return names;
}

/** '/businesses/:businessId/merchants/:merchantId{…}' → '/businesses/{businessId}/merchants/{merchantId}' */
export function openApiPath(honoPath: string): string {
  return honoPath.replace(/:([A-Za-z][A-Za-z0-9]*)(\{[^}]*\})?/g, '{$1}');
}

function pathParameters(honoPath: string): OpenApiParameter[] {
  return [...honoPath.matchAll(/:([A-Za-z][A-Za-z0-9]*)(\{([^}]*)\})?/g)].map(([, name = '', , pattern]) => {
    const declared = pathParameterSchemas[name];
    const alternatives = pattern ? /^\(\?:(.*)\)$/.exec(pattern)?.[1]?.split('|') : undefined;
    const schema: Json = declared ? toJsonSchema(declared) : alternatives ? { type: 'string', enum: alternatives } : { type: 'string', minLength: 1 };
    return { name, in: 'path', required: true, schema };
  });
}

const isListSpec = (query: unknown): query is ListQuerySpec => typeof query === 'object' && query !== null && 'filters' in query && 'sortable' in query;

function filterDescription(declaration: ListQuerySpec['filters'][string]): { description: string; schema: Json } {
  const { kind, operators } = typeof declaration === 'object' && 'kind' in declaration ? declaration : { kind: declaration, operators: null };
  const accepted = (operators ?? ['eq', 'gte', 'lte']).map((operator) => `[${operator}]`).join(', ');
  const values = typeof kind === 'string' ? `a ${kind}` : 'oneOf' in kind ? `one of ${kind.oneOf.join(', ')}` : kind.description;
  const schema: Json = { type: 'string', maxLength: 512 };
  if (typeof kind === 'object' && 'oneOf' in kind && operators?.length === 1 && operators[0] === 'eq')
    schema.examples = kind.oneOf.slice(0, 3).map((value) => `[eq]${value}`);
  return { description: `${accepted} followed by ${values}; several joined by [and]`, schema };
}

function queryParameters(query: Operation['query']): OpenApiParameter[] {
  if (!query) return [];
  if (Array.isArray(query)) {
    return (query as QueryParameter[]).map(({ name, schema, required, description }) => ({
      name,
      in: 'query',
      required: required ?? false,
      ...(description ? { description } : {}),
      schema: toJsonSchema(schema),
    }));
  }
  if (isListSpec(query)) {
    const parameters: OpenApiParameter[] = [
      { name: 'pageNumber', in: 'query', required: false, description: 'page to answer, from 1', schema: { type: 'string', pattern: '^[0-9]{1,7}$' } },
      { name: 'pageSize', in: 'query', required: false, description: 'results per page', schema: { type: 'string', enum: pageSizes.map(String) } },
    ];
    if (query.sortable.length > 0 && query.sortStyle === 'ordering') {
      parameters.push(
        { name: 'OrderingField', in: 'query', required: false, schema: { type: 'string', enum: [...query.sortable] } },
        { name: 'OrderingDirection', in: 'query', required: false, schema: { type: 'string', enum: [...orderingDirections] } },
      );
    } else if (query.sortable.length > 0) {
      parameters.push({
        name: 'sort',
        in: 'query',
        required: false,
        description: `comma-separated, '-' for descending: ${query.sortable.join(', ')}`,
        schema: { type: 'string', maxLength: 512 },
      });
    }
    for (const [name, declaration] of Object.entries(query.filters)) parameters.push({ name, in: 'query', required: false, ...filterDescription(declaration) });
    for (const name of query.extraParameters ?? []) parameters.push({ name, in: 'query', required: false, schema: { type: 'string' } });
    return parameters;
  }
  const object = toJsonSchema(query as Schema) as { properties?: Record<string, Json>; required?: string[] };
  return Object.entries(object.properties ?? {}).map(([name, schema]) => ({ name, in: 'query', required: object.required?.includes(name) ?? false, schema }));
}

/** 'GET /businesses/:businessId/transactions/:reference' → 'getBusinessesTransactionsByReference' (unique: checked below). */
export function operationIdOf(method: string, honoPath: string): string {
  const segments = honoPath.split('/').filter(Boolean);
  const pascal = (text: string) =>
    text
      .split(/[^A-Za-z0-9]+/)
      .filter(Boolean)
      .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
      .join('');
  const words = segments.map((segment, index) => {
    if (!segment.startsWith(':')) return pascal(segment);
    const name = segment.slice(1).replace(/\{.*$/, '');
    return index === segments.length - 1 ? `By${pascal(name)}` : '';
  });
  return `${method.toLowerCase()}${words.join('')}`;
}

const errorStatuses: Record<string, string> = {
  400: 'The request is malformed: the errorReport names every problem.',
  401: 'No valid bearer token.',
  403: 'Signed in, but without the permission this needs.',
  404: 'No such record, or one the caller may not reach (never told apart).',
  409: 'The record changed since it was read (a stale version).',
  413: 'The request body is too large.',
  422: 'A business rule refused it: the errorReport says which.',
  429: 'Too many requests in progress for this user: retry after Retry-After.',
};

function answerContent(answer: Answer, ref: (schema: Schema) => Json): Record<string, { schema: Json }> | undefined {
  if (answer === 'none') return undefined;
  if (answer === 'event-stream') return { 'text/event-stream': { schema: { type: 'string' } } };
  if (answer === 'untyped') return { 'application/json': { schema: { type: 'object', description: 'Not yet described by a contract schema.' } } };
  if (typeof answer === 'object' && 'file' in answer) return { [answer.file]: { schema: { type: 'string', contentMediaType: answer.file } } };
  return { 'application/json': { schema: ref(answer as Schema) } };
}

export function buildOpenApiDocument(options: { publicUrl: string; operations?: readonly Operation[] }): OpenApiDocument {
  const operations = options.operations ?? portalOperations;
  const origin = options.publicUrl.replace(/\/$/, '');
  const names = namedSchemas();
  const schemas: Record<string, Json> = {};
  const ref = (schema: Schema): Json => {
    const name = names.get(schema);
    if (!name) return toJsonSchema(schema);
    schemas[name] ??= toJsonSchema(schema);
    return { $ref: `#/components/schemas/${name}` };
  };
  ref(errorReportSchema);
  const paths: OpenApiDocument['paths'] = {};
  const ids = new Set<string>();
  for (const operation of operations) {
    let operationId = operationIdOf(operation.method, operation.path);
    for (let serial = 2; ids.has(operationId); serial += 1) operationId = `${operationIdOf(operation.method, operation.path)}${serial}`;
    ids.add(operationId);
    const success = String(operation.status ?? (operation.response === 'none' ? 204 : 200));
    const content = answerContent(operation.response, ref);
    const writes = operation.method !== 'GET';
    const failures = ['400', ...(operation.public ? [] : ['401', '403']), '404', ...(writes ? ['409', '413', '422'] : []), '429'];
    const item: OpenApiOperation = {
      operationId,
      summary: operation.summary,
      tags: [operation.tag],
      parameters: [...pathParameters(operation.path), ...queryParameters(operation.query)],
      responses: {
        [success]: { description: success === '204' ? 'Done; no body.' : 'Success.', ...(content ? { content } : {}) },
        ...Object.fromEntries(failures.map((status) => [status, { $ref: `#/components/responses/Error${status}` }])),
      },
      'x-route': `${operation.method} ${portalBase}${operation.path}`,
    };
    if (operation.body === 'multipart') {
      item.requestBody = {
        required: true,
        content: {
          'multipart/form-data': {
            schema: { type: 'object', required: ['file'], properties: { file: { type: 'string', contentMediaType: 'application/octet-stream' } } },
          },
        },
      };
    } else if (operation.body) {
      item.requestBody = { required: true, content: { 'application/json': { schema: ref(operation.body) } } };
    }
    if (operation.public) item.security = [];
    const path = openApiPath(operation.path);
    const pathItem = paths[path] ?? {};
    paths[path] = pathItem;
    pathItem[operation.method.toLowerCase()] = item;
  }
  const responses = Object.fromEntries(
    Object.entries(errorStatuses).map(([status, description]) => [
      `Error${status}`,
      { description, content: { 'application/json': { schema: { $ref: `#/components/schemas/${names.get(errorReportSchema)}` } } } },
    ]),
  );
  const usedTags = new Set(operations.map((operation) => operation.tag));
  return {
    openapi: '3.1.0',
    info: {
      title: 'Payments Portal API',
      version: '1.0.0',
      description:
        'The Portal API behind the back-office portal. Every request needs an access token from the portal’s OpenID Connect provider (Authorization: Bearer, or Authorization: DPoP with a DPoP proof header when the token is DPoP-bound, RFC 9449); every refusal (4xx) answers an errorReport. Generated from the contract schemas the server validates with.',
    },
    servers: [{ url: `${origin}${portalBase}`, description: 'This portal' }],
    security: [{ bearer: [] }, { oidc: ['openid'] }],
    tags: operationTags.filter((tag) => usedTags.has(tag)).map((name) => ({ name })),
    paths,
    components: {
      schemas,
      responses,
      securitySchemes: {
        bearer: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'JWT',
          description:
            'An access token of the portal’s OpenID Connect provider (audience: the Portal API). A token bound to a DPoP key (cnf.jkt: the browser app’s tokens) is sent as Authorization: DPoP with a DPoP header holding a fresh proof by that key (htm, htu, iat, jti, ath); sent as Bearer it is refused.',
        },
        oidc: { type: 'openIdConnect', openIdConnectUrl: `${origin}/connect/.well-known/openid-configuration` },
      },
    },
  };
}

/** The document is the same for every caller: built once per process and origin. */
const built = new Map<string, OpenApiDocument>();

export function openApiRoutes({ publicUrl }: Deps) {
  const routes = new Hono<AppEnv>();
  routes.get('/openapi.json', (c) => {
    let document = built.get(publicUrl);
    if (!document) {
      document = buildOpenApiDocument({ publicUrl });
      built.set(publicUrl, document);
    }
    return c.json(document);
  });
  return routes;
}
