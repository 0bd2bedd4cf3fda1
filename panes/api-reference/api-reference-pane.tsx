// The Portal API reference for signed-in developers (/developers/api): rendered from the OpenAPI document the server
// generates from the contract (GET /api/portal/openapi.json), so it is never out of date. Operations are grouped by
// tag; the search box filters them (every word must match the method, path, summary, operationId or tag); j / k move
// between operations and Enter expands one. /developers/api#operationId or ?operation=operationId opens one.
import { useQuery } from '@tanstack/react-query';
import { useEffect, useId, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { useLocation } from 'wouter';
import { api } from '../../src/api/api-client.ts';
import { validate } from '../../src/api/validate.ts';
import type { OpenApiDocumentShape, OpenApiOperationShape } from '../../src/contract/openapi-schemas.ts';
import { rowRequests, tableRowsCapability } from '../../src/contract/table-rows.ts';
import { type PaneProps, type PaneRequestHandlers, usePaneCapabilities } from '../../src/state/pane-scope.tsx';
import { Skeleton } from '../../src/ui/skeleton.tsx';
import { SchemaView } from './schema-view.tsx';
import './api-reference.css';

export const apiReferencePath = '/developers/api';

export type ReferenceOperation = { method: string; path: string; operation: OpenApiOperationShape };

export const apiReferenceQuery = {
  queryKey: ['developers', 'openapi'] as const,
  queryFn: async ({ signal }: { signal: AbortSignal }) => validate('openApiDocument', await api.get<unknown>('/openapi.json', { signal })),
  staleTime: 10 * 60_000,
};

/** Every operation of the document, in the document's order. */
export function operationsOf(document: OpenApiDocumentShape): ReferenceOperation[] {
  return Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, operation]) => ({ method: method.toUpperCase(), path, operation })),
  );
}

/** Every word of the filter must occur in the method, path, summary, operationId or a tag (case-insensitive). */
export function matchesFilter(entry: ReferenceOperation, filter: string): boolean {
  const words = filter.toLowerCase().split(/\s+/).filter(Boolean);
  const haystack = `${entry.method} ${entry.path} ${entry.operation.summary} ${entry.operation.operationId} ${entry.operation.tags.join(' ')}`.toLowerCase();
  return words.every((word) => haystack.includes(word));
}

/** The operation a link names: ?operation= first, else the #fragment. */
export function linkedOperation(search: string, hash: string): string | null {
  const fromQuery = new URLSearchParams(search).get('operation');
  if (fromQuery) return fromQuery;
  const fromHash = decodeURIComponent(hash.replace(/^#/, ''));
  return fromHash || null;
}

export function ApiReferencePane({ search }: PaneProps) {
  const reference = useQuery(apiReferenceQuery);
  const [, navigate] = useLocation();
  const headingId = useId();
  const filterId = useId();
  const [filter, setFilter] = useState('');
  const [tag, setTag] = useState<string | null>(null);
  const linked = linkedOperation(search, typeof window === 'undefined' ? '' : window.location.hash);
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(() => new Set(linked ? [linked] : []));
  const listRef = useRef<HTMLDivElement>(null);
  const document = reference.data;

  const all = useMemo(() => (document ? operationsOf(document) : []), [document]);
  const visible = useMemo(
    () => all.filter((entry) => (tag === null || entry.operation.tags.includes(tag)) && matchesFilter(entry, filter)),
    [all, tag, filter],
  );
  const groups = useMemo(() => {
    const byTag = new Map<string, ReferenceOperation[]>();
    for (const entry of visible) {
      const name = entry.operation.tags[0] ?? 'Other';
      byTag.set(name, [...(byTag.get(name) ?? []), entry]);
    }
    const order = document?.tags.map((candidate) => candidate.name) ?? [];
    return [...byTag.entries()].sort(([a], [b]) => order.indexOf(a) - order.indexOf(b));
  }, [visible, document]);
  const { counts, matching } = useMemo(() => {
    const byTag = new Map<string, number>();
    const matched = all.filter((candidate) => matchesFilter(candidate, filter));
    for (const entry of matched) for (const name of entry.operation.tags) byTag.set(name, (byTag.get(name) ?? 0) + 1);
    return { counts: byTag, matching: matched.length };
  }, [all, filter]);

  // A deep link opens its operation once the document is here, and brings it into view.
  useEffect(() => {
    if (!document || !linked) return;
    setExpanded((current) => (current.has(linked) ? current : new Set([...current, linked])));
    const target = listRef.current?.querySelector<HTMLElement>(`[data-operation-id="${CSS.escape(linked)}"] > h3 > button`);
    target?.scrollIntoView?.({ block: 'start' });
    target?.focus();
  }, [document, linked]);

  const toggle = (operationId: string) => {
    const opening = !expanded.has(operationId);
    setExpanded((current) => {
      const next = new Set(current);
      if (next.has(operationId)) next.delete(operationId);
      else next.add(operationId);
      return next;
    });
    // The address names the operation last opened, so it can be shared.
    if (opening) navigate(`${apiReferencePath}?operation=${encodeURIComponent(operationId)}`, { replace: true });
  };

  const operationButtons = () => [...(listRef.current?.querySelectorAll<HTMLButtonElement>('button[data-operation-toggle]') ?? [])];
  const move = (step: number) => {
    const buttons = operationButtons();
    if (buttons.length === 0) return;
    const active = globalThis.document.activeElement;
    const current = active instanceof HTMLButtonElement ? buttons.indexOf(active) : -1;
    const next = current < 0 ? (step > 0 ? 0 : buttons.length - 1) : Math.min(Math.max(current + step, 0), buttons.length - 1);
    buttons[next]?.focus();
  };

  const handlers: PaneRequestHandlers = {};
  if (visible.length > 0) {
    handlers[tableRowsCapability] = (argument) => {
      if (argument === rowRequests.next || argument === rowRequests.previous) move(argument);
      else operationButtons()[0]?.focus();
    };
  }
  usePaneCapabilities(handlers);

  // With an operation focused the shell's j / k step aside (a control holds the keyboard): the list takes them.
  const onListKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    if (!(event.target instanceof HTMLButtonElement) || !event.target.hasAttribute('data-operation-toggle')) return;
    if (event.key === 'j' || event.key === 'ArrowDown') move(1);
    else if (event.key === 'k' || event.key === 'ArrowUp') move(-1);
    else return;
    event.preventDefault();
    event.stopPropagation();
  };
  const onFilterKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'ArrowDown' || (event.key === 'Enter' && visible.length > 0)) {
      event.preventDefault();
      operationButtons()[0]?.focus();
    } else if (event.key === 'Escape' && filter) {
      event.preventDefault();
      event.stopPropagation();
      setFilter('');
    }
  };

  return (
    <section className="api-reference" aria-labelledby={headingId}>
      <header className="api-reference-header">
        <h1 id={headingId}>API reference</h1>
        {document ? (
          <p className="api-reference-meta">
            {document.info.title} {document.info.version} · OpenAPI {document.openapi} · base URL <code>{document.servers[0]?.url}</code> ·{' '}
            <a
              href="/api/portal/openapi.json"
              download="portal-openapi.json"
              onClick={(event) => {
                event.preventDefault();
                void downloadDocument(document);
              }}
            >
              Download openapi.json
            </a>
          </p>
        ) : null}
      </header>
      {reference.isPending ? <Skeleton lines={6} label="Loading the API reference" /> : null}
      {reference.isError ? <p role="alert">The API reference could not be loaded.</p> : null}
      {document ? (
        <>
          <p className="api-reference-intro">{document.info.description}</p>
          <div className="api-reference-filter">
            <label htmlFor={filterId}>Filter operations</label>
            <input
              id={filterId}
              type="search"
              value={filter}
              placeholder="Path, summary, operationId or tag"
              autoComplete="off"
              onChange={(event) => setFilter(event.target.value)}
              onKeyDown={onFilterKeyDown}
              aria-describedby={`${filterId}-count`}
            />
            <span id={`${filterId}-count`} role="status" className="api-reference-count">
              {visible.length} of {all.length} operations
            </span>
          </div>
          <div className="api-reference-body">
            <nav aria-label="Tags" className="api-reference-tags">
              <ul>
                <li>
                  <button type="button" className="button button-ghost" aria-pressed={tag === null} onClick={() => setTag(null)}>
                    All tags <span className="api-reference-tag-count">{matching}</span>
                  </button>
                </li>
                {document.tags.map(({ name }) => (
                  <li key={name}>
                    <button type="button" className="button button-ghost" aria-pressed={tag === name} onClick={() => setTag(tag === name ? null : name)}>
                      {name} <span className="api-reference-tag-count">{counts.get(name) ?? 0}</span>
                    </button>
                  </li>
                ))}
              </ul>
            </nav>
            {/* biome-ignore lint/a11y/noStaticElementInteractions: the arrow keys move between the operations' buttons inside; the list only hears them */}
            <div className="api-reference-operations" ref={listRef} onKeyDown={onListKeyDown}>
              {groups.length === 0 ? <p className="api-reference-empty">No operation matches “{filter}”.</p> : null}
              {groups.map(([name, entries]) => (
                <section key={name} aria-label={name} className="api-reference-group">
                  <h2>{name}</h2>
                  <ul>
                    {entries.map((entry) => (
                      <OperationItem
                        key={entry.operation.operationId}
                        entry={entry}
                        document={document}
                        open={expanded.has(entry.operation.operationId)}
                        onToggle={() => toggle(entry.operation.operationId)}
                      />
                    ))}
                  </ul>
                </section>
              ))}
            </div>
          </div>
        </>
      ) : null}
    </section>
  );
}

async function downloadDocument(document: OpenApiDocumentShape) {
  const url = URL.createObjectURL(new Blob([JSON.stringify(document, null, 2)], { type: 'application/json' }));
  const link = globalThis.document.createElement('a');
  link.href = url;
  link.download = 'portal-openapi.json';
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

function OperationItem({
  entry,
  document,
  open,
  onToggle,
}: {
  entry: ReferenceOperation;
  document: OpenApiDocumentShape;
  open: boolean;
  onToggle: () => void;
}) {
  const { method, path, operation } = entry;
  const detailId = useId();
  const parameters = operation.parameters;
  const body = operation.requestBody ? Object.entries(operation.requestBody.content) : [];
  return (
    <li data-operation-id={operation.operationId} id={operation.operationId} className="api-reference-operation">
      <h3>
        <button type="button" data-operation-toggle="" aria-expanded={open} aria-controls={detailId} onClick={onToggle}>
          <span className={`api-method api-method-${method.toLowerCase()}`}>{method}</span>
          <code className="api-path">{path}</code>
          <span className="api-summary">{operation.summary}</span>
        </button>
      </h3>
      {open ? (
        <div id={detailId} className="api-reference-detail">
          <p className="api-reference-id">
            operationId <code>{operation.operationId}</code>
            {operation.security && operation.security.length === 0 ? ' · public (no sign-in)' : ' · bearer token'}
            {' · '}
            <a href={`${apiReferencePath}#${encodeURIComponent(operation.operationId)}`}>Link to this operation</a>
          </p>
          {parameters.length > 0 ? (
            <table className="api-reference-table">
              <caption>Parameters</caption>
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">In</th>
                  <th scope="col">Schema</th>
                  <th scope="col">Description</th>
                </tr>
              </thead>
              <tbody>
                {parameters.map((parameter) => (
                  <tr key={`${parameter.in} ${parameter.name}`}>
                    <th scope="row">
                      <code>{parameter.name}</code>
                      {parameter.required ? <span className="api-required"> required</span> : null}
                    </th>
                    <td>{parameter.in}</td>
                    <td>
                      <SchemaView schema={parameter.schema} document={document} />
                    </td>
                    <td>{parameter.description ?? ''}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          ) : (
            <p className="api-reference-none">No parameters.</p>
          )}
          {body.map(([mediaType, { schema }]) => (
            <div key={mediaType} className="api-reference-block">
              <h4>
                Request body <code>{mediaType}</code>
              </h4>
              <SchemaView schema={schema} document={document} />
            </div>
          ))}
          <div className="api-reference-block">
            <h4>Responses</h4>
            <dl className="api-reference-responses">
              {Object.entries(operation.responses).map(([status, raw]) => {
                const response = resolveResponse(document, raw);
                const content = Object.entries(response.content ?? {});
                return (
                  <div key={status}>
                    <dt>
                      <span className={`api-status api-status-${status.charAt(0)}xx`}>{status}</span>
                    </dt>
                    <dd>
                      {response.description}
                      {content.map(([mediaType, media]) => (
                        <div key={mediaType}>
                          <code>{mediaType}</code> <SchemaView schema={media.schema} document={document} />
                        </div>
                      ))}
                    </dd>
                  </div>
                );
              })}
            </dl>
          </div>
        </div>
      ) : null}
    </li>
  );
}

type Response = { description?: string; content?: Record<string, { schema: Record<string, unknown> }> };

function resolveResponse(document: OpenApiDocumentShape, raw: Record<string, unknown>): Response {
  const ref = raw.$ref;
  if (typeof ref === 'string' && ref.startsWith('#/components/responses/'))
    return (document.components.responses[ref.slice('#/components/responses/'.length)] ?? {}) as Response;
  return raw as Response;
}
