// The links of context selection. /context?route=… opens the panel as a page; /context/apply carries the route
// the user wants to reach and the selections, each as the JSON of its contract shape (id, title and the flags
// the shell needs), so the header shows names without another call:
//   /context/apply?route=%2Ftransactions&business={"id":"100001","title":"Harbour…","camAutoRemittance":false}
//     &merchant={"id":"…","title":"…","grossSettlement":false,"currencies":["GBP"]}
//     &configuration={"id":"…","title":"…","switches":{"virtualTerminalMenuEnabled":true}}
// A selection may be the empty one (id null). An absent configuration next to a merchant means "pick the first".
import type { ContextSelections } from '../contract/context.ts';
import { isPanePath } from '../state/workspace-url.ts';

export const defaultRoute = '/dashboard';
const selectionKeys = ['partner', 'business', 'merchant', 'configuration'] as const;
/** Where a context cannot lead: the panel itself, and the public routes that end or start a session. */
const excludedRoutes = /^\/(context(\/|\?|$)|sign-in|sign-out|user-invite|404)|^\/($|\?)/;

/** The preferred route, if it is a same-origin path worth landing on; else the dashboard. */
export function safeRoute(route: string | null | undefined): string {
  if (!route || !isPanePath(route) || excludedRoutes.test(route)) return defaultRoute;
  return route;
}

/** A query string's parameters, with or without its leading '?' (some callers pass it twice). */
export function queryParams(search: string): URLSearchParams {
  return new URLSearchParams(search.replace(/^\?+/, ''));
}

export function contextPagePath(route: string): string {
  return `/context?${new URLSearchParams({ route: safeRoute(route) }).toString()}`;
}

export function contextApplyPath(route: string, selections: ContextSelections): string {
  const params = new URLSearchParams({ route: safeRoute(route) });
  for (const key of selectionKeys) {
    const selection = selections[key];
    if (selection) params.set(key, JSON.stringify(selection));
  }
  return `/context/apply?${params.toString()}`;
}

export type ApplyRequest = { route: string; raw: Partial<Record<(typeof selectionKeys)[number], unknown>> };

/** Splits the query of /context/apply into the route and the raw (still unvalidated) selections. */
export function readApplyQuery(search: string): ApplyRequest | { error: string } {
  const params = queryParams(search);
  const raw: ApplyRequest['raw'] = {};
  for (const key of selectionKeys) {
    const text = params.get(key);
    if (text === null) continue;
    try {
      raw[key] = JSON.parse(text) as unknown;
    } catch {
      return { error: `${key} is not valid` };
    }
  }
  return { route: safeRoute(params.get('route')), raw };
}
