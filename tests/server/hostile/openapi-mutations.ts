// Hostile requests derived from the OpenAPI document (server/api/openapi.ts): for an operation's JSON body schema,
// bodies that break exactly one rule of it (a wrong type, a missing required property, a string over its maxLength,
// a number under its minimum or over its maximum, a value outside its enum, an unknown or prototype-polluting key
// where the schema allows none); for its parameters, values outside their schema. Every one of them must be refused.
type Json = Record<string, unknown>;
export type Mutation = { label: string; value: unknown };

/** Deterministic: the same seed picks the same sample on every run. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function sample<T>(items: readonly T[], count: number, random: () => number): T[] {
  const pool = [...items];
  const picked: T[] = [];
  while (pool.length > 0 && picked.length < count) picked.push(...pool.splice(Math.floor(random() * pool.length), 1));
  return picked;
}

export function dereference(document: unknown, schema: unknown): Json {
  let current = schema as Json;
  for (let depth = 0; typeof current?.$ref === 'string' && depth < 10; depth += 1) {
    current = (current.$ref as string)
      .slice(2)
      .split('/')
      .reduce<unknown>((node, part) => (node as Json)[part], document) as Json;
  }
  return current ?? {};
}

/** The JSON types a schema accepts ('any' when it says nothing). */
function acceptedTypes(document: unknown, raw: unknown): Set<string> {
  const schema = dereference(document, raw);
  const types = new Set<string>();
  if (Array.isArray(schema.anyOf) || Array.isArray(schema.oneOf)) {
    for (const branch of (schema.anyOf ?? schema.oneOf) as unknown[]) for (const type of acceptedTypes(document, branch)) types.add(type);
    return types;
  }
  if (Array.isArray(schema.enum)) {
    for (const value of schema.enum) types.add(value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value);
    return types;
  }
  if ('const' in schema) return new Set([schema.const === null ? 'null' : typeof schema.const]);
  const declared = schema.type;
  if (typeof declared === 'string') types.add(declared === 'integer' ? 'number' : declared);
  else if (Array.isArray(declared)) for (const type of declared) types.add(type === 'integer' ? 'number' : String(type));
  else types.add('any');
  return types;
}

const wrongValues: [string, unknown][] = [
  ['string', 'not-the-right-type'],
  ['number', 123456],
  ['boolean', true],
  ['object', { nested: 1 }],
  ['array', [1, 2]],
  ['null', null],
];

/** A value of the schema's kind that is as plausible as can be: the base each mutation changes one thing of. */
export function plausibleValue(document: unknown, raw: unknown, depth = 0): unknown {
  const schema = dereference(document, raw);
  if (depth > 6) return null;
  if (Array.isArray(schema.anyOf))
    return plausibleValue(document, (schema.anyOf as unknown[]).find((branch) => dereference(document, branch).type !== 'null') ?? schema.anyOf[0], depth + 1);
  if (Array.isArray(schema.enum)) return schema.enum[0];
  if ('const' in schema) return schema.const;
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  if (type === 'object') {
    const properties = (schema.properties ?? {}) as Record<string, unknown>;
    const required = (schema.required ?? []) as string[];
    return Object.fromEntries(required.map((name) => [name, plausibleValue(document, properties[name], depth + 1)]));
  }
  if (type === 'array') return Array.from({ length: Number(schema.minItems ?? 1) }, () => plausibleValue(document, schema.items, depth + 1));
  if (type === 'integer' || type === 'number') return typeof schema.minimum === 'number' ? schema.minimum : 1;
  if (type === 'boolean') return true;
  if (type === 'null') return null;
  return 'x'.repeat(Math.max(1, Number(schema.minLength ?? 1)));
}

/** Values that break exactly one rule of a schema (for a parameter or a property). */
export function invalidValues(document: unknown, raw: unknown): Mutation[] {
  const schema = dereference(document, raw);
  const accepted = acceptedTypes(document, schema);
  const mutations: Mutation[] = [];
  if (!accepted.has('any')) {
    for (const [type, value] of wrongValues)
      if (!accepted.has(type) && !(type === 'number' && accepted.has('integer'))) mutations.push({ label: `wrong type ${type}`, value });
  }
  if (Array.isArray(schema.enum) && schema.enum.every((value) => typeof value === 'string'))
    mutations.push({ label: 'unknown enum value', value: 'NotOneOfThem' });
  if (typeof schema.maxLength === 'number') mutations.push({ label: `string over maxLength ${schema.maxLength}`, value: 'x'.repeat(schema.maxLength + 1) });
  if (typeof schema.minimum === 'number')
    mutations.push({ label: `number under minimum ${schema.minimum}`, value: schema.minimum >= 0 ? -1 : schema.minimum - 1e6 });
  if (typeof schema.maximum === 'number') mutations.push({ label: `number over maximum ${schema.maximum}`, value: 1e300 });
  if (schema.type === 'integer') mutations.push({ label: 'fraction for an integer', value: 1.5 });
  if (typeof schema.maxItems === 'number')
    mutations.push({
      label: `array over maxItems ${schema.maxItems}`,
      value: Array.from({ length: schema.maxItems + 1 }, () => plausibleValue(document, schema.items)),
    });
  return mutations;
}

/** Bodies that each break one rule of the body schema. */
export function malformedBodies(document: unknown, raw: unknown): Mutation[] {
  const schema = dereference(document, raw);
  const base = plausibleValue(document, schema);
  const mutations: Mutation[] = [...invalidValues(document, schema).map(({ label, value }) => ({ label: `body: ${label}`, value }))];
  if (schema.type !== 'object' || !base || typeof base !== 'object') return mutations;
  const properties = (schema.properties ?? {}) as Record<string, unknown>;
  for (const name of (schema.required ?? []) as string[]) {
    const { [name]: _dropped, ...rest } = base as Json;
    mutations.push({ label: `missing required ${name}`, value: rest });
  }
  for (const [name, property] of Object.entries(properties)) {
    for (const { label, value } of invalidValues(document, property))
      mutations.push({ label: `${name}: ${label}`, value: { ...(base as Json), [name]: value } });
  }
  if (schema.additionalProperties === false) {
    mutations.push({ label: 'unknown key', value: { ...(base as Json), notAProperty: 1 } });
    // JSON.parse makes "__proto__" an own key: it must be refused as unknown, never merged into a prototype.
    mutations.push({
      label: 'prototype pollution __proto__',
      value: `{${JSON.stringify(base).slice(1, -1)}${Object.keys(base).length ? ',' : ''}"__proto__":{"isAdmin":true}}`,
    });
    mutations.push({ label: 'prototype pollution constructor', value: { ...(base as Json), constructor: { prototype: { isAdmin: true } } } });
  }
  return mutations;
}
