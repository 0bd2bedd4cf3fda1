// A JSON Schema (2020-12, as the OpenAPI document carries it) shown as a reader wants it: an object as its
// properties with their types and rules, a named schema ($ref) by name, opened on request (so a recursive or large
// schema costs nothing until asked for).
import { useState } from 'react';
import type { OpenApiDocumentShape } from '../../src/contract/openapi-schemas.ts';

type Schema = Record<string, unknown>;
const componentPrefix = '#/components/schemas/';

export function componentName(schema: Schema): string | null {
  return typeof schema.$ref === 'string' && schema.$ref.startsWith(componentPrefix) ? schema.$ref.slice(componentPrefix.length) : null;
}

const characters = (count: number) => `${count} character${count === 1 ? '' : 's'}`;
const asSchema = (value: unknown): Schema => (value && typeof value === 'object' ? (value as Schema) : {});

/** One line: the type and its rules ('string, 1–200 characters', 'integer ≥ 1', 'one of: a, b', 'beneficiary'). */
export function describeSchema(schema: Schema): string {
  const name = componentName(schema);
  if (name) return name;
  if (Array.isArray(schema.enum)) return `one of: ${schema.enum.map((value) => JSON.stringify(value)).join(', ')}`;
  if ('const' in schema) return `exactly ${JSON.stringify(schema.const)}`;
  const union = (schema.anyOf ?? schema.oneOf) as unknown[] | undefined;
  if (Array.isArray(union)) return union.map((branch) => describeSchema(asSchema(branch))).join(' or ');
  const type = Array.isArray(schema.type) ? schema.type.join(' or ') : typeof schema.type === 'string' ? schema.type : 'any';
  const rules: string[] = [];
  if (typeof schema.minLength === 'number' && typeof schema.maxLength === 'number') rules.push(`${schema.minLength}–${schema.maxLength} characters`);
  else if (typeof schema.maxLength === 'number') rules.push(`at most ${characters(schema.maxLength)}`);
  else if (typeof schema.minLength === 'number') rules.push(`at least ${characters(schema.minLength)}`);
  if (typeof schema.pattern === 'string') rules.push(`matching ${schema.pattern}`);
  if (typeof schema.format === 'string') rules.push(schema.format);
  if (typeof schema.minimum === 'number') rules.push(`≥ ${schema.minimum}`);
  if (typeof schema.exclusiveMinimum === 'number') rules.push(`> ${schema.exclusiveMinimum}`);
  if (typeof schema.maximum === 'number') rules.push(`≤ ${schema.maximum}`);
  if (typeof schema.exclusiveMaximum === 'number') rules.push(`< ${schema.exclusiveMaximum}`);
  if (typeof schema.contentMediaType === 'string') rules.push(schema.contentMediaType);
  if (type === 'array') {
    const items = asSchema(schema.items);
    const bounds = [
      typeof schema.minItems === 'number' ? `at least ${schema.minItems}` : '',
      typeof schema.maxItems === 'number' ? `at most ${schema.maxItems}` : '',
    ]
      .filter(Boolean)
      .join(', ');
    return `array of ${describeSchema(items)}${bounds ? ` (${bounds})` : ''}`;
  }
  return rules.length > 0 ? `${type}, ${rules.join(', ')}` : type;
}

export function SchemaView({ schema, document, depth = 0 }: { schema: Schema; document: OpenApiDocumentShape; depth?: number }) {
  const name = componentName(schema);
  if (name) return <NamedSchema name={name} document={document} depth={depth} />;
  const properties = schema.type === 'object' ? Object.entries(asSchema(schema.properties)) : [];
  if (properties.length === 0) {
    const items = schema.type === 'array' ? asSchema(schema.items) : null;
    const itemName = items ? componentName(items) : null;
    if (items && itemName)
      return (
        <span>
          array of <NamedSchema name={itemName} document={document} depth={depth} />
        </span>
      );
    if (items?.type === 'object')
      return (
        <div>
          array of objects: <SchemaView schema={items} document={document} depth={depth + 1} />
        </div>
      );
    const description = typeof schema.description === 'string' ? ` — ${schema.description}` : '';
    return (
      <span className="api-schema-type">
        {describeSchema(schema)}
        {description}
      </span>
    );
  }
  const required = new Set(Array.isArray(schema.required) ? schema.required.map(String) : []);
  return (
    <div className="api-schema-object">
      <span className="api-schema-type">object{schema.additionalProperties === false ? ', no other keys' : ''}</span>
      <ul className="api-schema-properties">
        {properties.map(([property, raw]) => {
          const inner = asSchema(raw);
          const nested =
            (inner.type === 'object' && inner.properties) ||
            componentName(inner) ||
            (inner.type === 'array' && (componentName(asSchema(inner.items)) || asSchema(inner.items).type === 'object'));
          return (
            <li key={property}>
              <code>{property}</code>
              {required.has(property) ? <span className="api-required"> required</span> : <span className="api-optional"> optional</span>}{' '}
              {nested && depth < 6 ? (
                <SchemaView schema={inner} document={document} depth={depth + 1} />
              ) : (
                <span className="api-schema-type">{describeSchema(inner)}</span>
              )}
            </li>
          );
        })}
      </ul>
    </div>
  );
}

function NamedSchema({ name, document, depth }: { name: string; document: OpenApiDocumentShape; depth: number }) {
  const [open, setOpen] = useState(false);
  const schema = document.components.schemas[name];
  if (!schema) return <code>{name}</code>;
  return (
    <details className="api-schema-named" onToggle={(event) => setOpen(event.currentTarget.open)}>
      <summary>
        <code>{name}</code>
      </summary>
      {open ? <SchemaView schema={schema} document={document} depth={depth + 1} /> : null}
    </details>
  );
}
