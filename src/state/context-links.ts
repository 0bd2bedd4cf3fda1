// The links that apply a context (/context/apply), where screens (panes) may build them: see
// src/context/context-apply-url.ts for the format.
import type { ContextSelections } from '../contract/context.ts';
import { isPanePath } from './workspace-url.ts';

export const defaultRoute = '/dashboard';
export const selectionKeys = ['partner', 'business', 'merchant', 'configuration'] as const;
/** Where a context cannot lead: the panel itself, and the public routes that end or start a session. */
const excludedRoutes = /^\/(context(\/|\?|$)|sign-in|sign-out|user-invite|404)|^\/($|\?)/;

/** The context pages themselves: a route naming one of them carries the real route in its own `route`. */
const contextPageRoute = /^\/context(\/apply)?(\?|$)/;
/** How deep a route wrapped in context pages is unwrapped (a link wrapped by older versions, or by hand). */
const maxWrapping = 8;

/**
 * The route a context page leads to, unwrapped: '/context?route=/context?route=/x' is '/x'. Wrapping a route that is
 * itself a context page would otherwise land on the dashboard (a context page is no place to land), losing the link.
 */
export function unwrapContextRoute(route: string | null | undefined): string | null {
  let current = route ?? null;
  for (let depth = 0; current !== null && depth < maxWrapping && contextPageRoute.test(current); depth += 1) {
    const index = current.indexOf('?');
    current = index === -1 ? null : queryParams(current.slice(index)).get('route');
  }
  return current;
}

/** The preferred route, if it is a same-origin path worth landing on; else the dashboard. */
export function safeRoute(route: string | null | undefined): string {
  const unwrapped = unwrapContextRoute(route);
  if (!unwrapped || !isPanePath(unwrapped) || excludedRoutes.test(unwrapped)) return defaultRoute;
  return unwrapped;
}

/** A query string's parameters, with or without its leading '?' (some callers pass it twice). */
export function queryParams(search: string): URLSearchParams {
  return new URLSearchParams(search.replace(/^\?+/, ''));
}

/**
 * The context page leading to `route` (idempotent: a route that already is a context page is not wrapped again).
 * `choose`: show the panel even when the route names a record whose context could be applied at once (after that
 * failed).
 */
export function contextPagePath(route: string, options: { choose?: boolean } = {}): string {
  const params = new URLSearchParams({ route: safeRoute(route) });
  if (options.choose) params.set('choose', '1');
  return `/context?${params.toString()}`;
}

export function contextApplyPath(route: string, selections: ContextSelections): string {
  const params = new URLSearchParams({ route: safeRoute(route) });
  for (const key of selectionKeys) {
    const selection = selections[key];
    if (selection) params.set(key, JSON.stringify(selection));
  }
  return `/context/apply?${params.toString()}`;
}
