// The links that apply a context (/context/apply), where screens (panes) may build them: see
// src/context/context-apply-url.ts for the format.
import type { ContextSelections } from '../contract/context.ts';
import { isPanePath } from './workspace-url.ts';

export const defaultRoute = '/dashboard';
export const selectionKeys = ['partner', 'business', 'merchant', 'configuration'] as const;
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

