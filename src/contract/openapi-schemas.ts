// The OpenAPI document the server generates (server/api/openapi.ts) as the API reference pane reads it: only what
// the pane relies on is checked (operations, parameters, bodies and answers; component schemas stay JSON Schema).
import { type } from 'arktype';

const jsonSchema = type({ '[string]': 'unknown' });

export const openApiParameter = type({
  name: 'string',
  in: "'path' | 'query' | 'header' | 'cookie'",
  required: 'boolean',
  'description?': 'string',
  schema: jsonSchema,
});

const mediaTypes = type({ '[string]': { schema: jsonSchema } });

export const openApiOperation = type({
  operationId: 'string',
  summary: 'string',
  tags: 'string[]',
  parameters: openApiParameter.array(),
  'requestBody?': { required: 'boolean', content: mediaTypes },
  responses: { '[string]': jsonSchema },
  'security?': type({ '[string]': 'string[]' }).array(),
});

export const openApiDocument = type({
  openapi: /^3\.1\.\d+$/,
  info: { title: 'string', version: 'string', 'description?': 'string' },
  servers: type({ url: 'string', 'description?': 'string' }).array(),
  tags: type({ name: 'string', 'description?': 'string' }).array(),
  paths: { '[string]': { '[string]': openApiOperation } },
  components: { schemas: { '[string]': jsonSchema }, responses: { '[string]': jsonSchema }, securitySchemes: { '[string]': jsonSchema } },
});
export type OpenApiDocumentShape = typeof openApiDocument.infer;
export type OpenApiOperationShape = typeof openApiOperation.infer;
export type OpenApiParameterShape = typeof openApiParameter.infer;
