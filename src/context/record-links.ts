// A link that names a record carries its own context: /transactions/{reference} belongs to one business and merchant,
// /business/{businessId}/merchants/{merchantId}/… names them outright. Opened without a context, such a link applies
// the record's context and opens, instead of asking the person to pick a context first (the context page would).
//
// Records whose context only the server knows are looked up (GET /context/records/…, server/api/record-context.ts:
// 404 for a record the caller may not read, so nothing is applied and the picker shows as before). Ids read from a
// path are checked the same way: /context/apply looks the business and merchant up before applying them.
// Any screen's record link works through this table, whichever area adds it (a ticket link from an email, say).
import type { ContextSelections } from '../contract/context.ts';
import type { RecordContext } from '../contract/context-responses.ts';
import { contextApplyPath } from '../state/context-links.ts';
import { decodeWorkspace } from '../state/workspace-url.ts';

export type RecordContextSource = (apiPath: string) => Promise<RecordContext | null>;

/** Where a pane path's context comes from: the path itself, or a look-up on the server. */
export type RecordContextOrigin = { kind: 'path'; businessId: string; merchantId?: string } | { kind: 'lookup'; apiPath: string };

const segment = (value: string) => encodeURIComponent(value);

function decoded(value: string | undefined): string | null {
  if (!value) return null;
  try {
    return decodeURIComponent(value);
  } catch {
    return null;
  }
}

/** One row per record route: its pattern and where its context comes from. */
const recordRoutes: { pattern: RegExp; origin: (ids: string[]) => RecordContextOrigin }[] = [
  { pattern: /^\/transactions\/([^/]+)$/, origin: ([reference = '']) => ({ kind: 'lookup', apiPath: `/context/records/transactions/${segment(reference)}` }) },
  {
    pattern: /^\/configurations\/([^/]+)\/payments\/([^/]+)(?:\/trace\/[^/]+)?$/,
    origin: ([configurationId = '', reference = '']) => ({
      kind: 'lookup',
      apiPath: `/context/records/configurations/${segment(configurationId)}/payment-jobs/${segment(reference)}`,
    }),
  },
  { pattern: /^\/tickets\/(?!add$)([^/]+)$/, origin: ([ticketId = '']) => ({ kind: 'lookup', apiPath: `/context/records/tickets/${segment(ticketId)}` }) },
  { pattern: /^\/business\/([^/]+)\/merchants\/([^/]+)(?:\/.*)?$/, origin: ([businessId = '', merchantId = '']) => ({ kind: 'path', businessId, merchantId }) },
  { pattern: /^\/business\/([^/]+)(?:\/(?!merchants(?:\/|$)).*)?$/, origin: ([businessId = '']) => ({ kind: 'path', businessId }) },
];

/** Where the context of a pane path comes from, or null when the path names no record. */
export function recordContextOrigin(panePath: string): RecordContextOrigin | null {
  const pathname = panePath.split(/[?#]/)[0] ?? '';
  for (const route of recordRoutes) {
    const match = route.pattern.exec(pathname);
    if (!match) continue;
    const ids = match
      .slice(1)
      .filter((value): value is string => value !== undefined)
      .map(decoded);
    if (ids.some((id) => id === null || id === '')) return null;
    return route.origin(ids as string[]);
  }
  return null;
}

function selectionsOf(origin: RecordContextOrigin, found: RecordContext | null): ContextSelections | null {
  if (origin.kind === 'path') {
    // Titles are placeholders: /context/apply looks both up (and refuses what the caller cannot reach).
    return {
      business: { id: origin.businessId, title: origin.businessId },
      ...(origin.merchantId ? { merchant: { id: origin.merchantId, title: origin.merchantId } } : {}),
    };
  }
  if (!found) return null;
  return {
    business: { id: found.business.id, title: found.business.title },
    ...(found.merchant ? { merchant: { id: found.merchant.id, title: found.merchant.title } } : {}),
    ...(found.merchant && found.configuration
      ? { configuration: { id: found.configuration.id, title: found.configuration.title, switches: { ...found.configuration.switches } } }
      : {}),
  };
}

/**
 * The /context/apply link that opens `route` (the whole workspace URL, every pane) in the context of the record it
 * names: the focused pane's record first, then the others in order. Null when no pane names a record the caller
 * can see (the person picks a context as before).
 */
export async function recordContextLink(route: string, lookUp: RecordContextSource): Promise<string | null> {
  const layout = decodeWorkspace(route);
  const order = [layout.focused, ...layout.paths.map((_, index) => index).filter((index) => index !== layout.focused)];
  for (const index of order) {
    const origin = recordContextOrigin(layout.paths[index] ?? '');
    if (!origin) continue;
    const found = origin.kind === 'lookup' ? await lookUp(origin.apiPath).catch(() => null) : null;
    const selections = selectionsOf(origin, found);
    if (selections) return contextApplyPath(route, selections);
  }
  return null;
}
