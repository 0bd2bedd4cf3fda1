// Matching paths against the route table with one pattern compiler, shared with wouter (as its parser), so
// the router, the guard, the menus and the breadcrumb can never disagree about what a path is.
import { matchRoute } from 'wouter';
import { splitPath } from './paths.ts';
import { routes, type RouteDefinition } from './routes.ts';

const cache = new Map<string, { pattern: RegExp; keys: string[] }>();

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** wouter's parser contract: '/a/:b/:c?' → a RegExp and its keys (case-insensitive, optional trailing slash). */
export function compilePattern(route: string, loose = false): { pattern: RegExp; keys: string[] } {
  const cacheKey = `${loose ? 'l' : 's'}${route}`;
  const cached = cache.get(cacheKey);
  if (cached) return cached;
  const keys: string[] = [];
  let source = '';
  for (const segment of route.split('/').filter(Boolean)) {
    const parameter = /^:([A-Za-z0-9_]+)(\?)?$/.exec(segment);
    if (parameter?.[1]) {
      keys.push(parameter[1]);
      source += parameter[2] ? '(?:/([^/]+?))?' : '/([^/]+?)';
    } else if (segment === '*') {
      keys.push('wild');
      source += '/(.*)';
    } else {
      source += `/${escapeRegExp(segment)}`;
    }
  }
  const compiled = { keys, pattern: new RegExp(`^${source}${loose ? '(?=$|/)' : '/?$'}`, 'i') };
  if (!source) compiled.pattern = loose ? /^(?=$|\/)/i : /^\/?$/i;
  cache.set(cacheKey, compiled);
  return compiled;
}

function decode(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

export type RouteMatch = { route: RouteDefinition; params: Record<string, string | undefined>; pathname: string; search: string };

/** The first route of the table that matches the path's pathname, with decoded parameters. */
export function matchPath(path: string, table: readonly RouteDefinition[] = routes): RouteMatch | null {
  const { pathname, search } = splitPath(path);
  for (const route of table) {
    const [matched, raw] = matchRoute(compilePattern, route.pattern, pathname);
    if (!matched) continue;
    const params: Record<string, string | undefined> = {};
    for (const [key, value] of Object.entries(raw)) if (!/^\d+$/.test(key)) params[key] = decode(value);
    return { route, params, pathname, search };
  }
  return null;
}

export type Crumb = { label: string; path: string };

/** Breadcrumb from the table: every prefix of the path that is a route of its own, ending with the path itself. */
export function breadcrumb(path: string): Crumb[] {
  const { pathname } = splitPath(path);
  const segments = pathname.split('/').filter(Boolean);
  const crumbs: Crumb[] = [];
  for (let length = 1; length <= segments.length; length += 1) {
    const prefix = `/${segments.slice(0, length).join('/')}`;
    const match = matchPath(prefix);
    if (!match || match.route.redirect || match.route.public) continue;
    const label = match.route.title(match.params).trim();
    // A name once: the record's crumb stands for an equally named one before it.
    if (crumbs.at(-1)?.label === label) crumbs.pop();
    crumbs.push({ label, path: length === segments.length ? path : prefix });
  }
  return crumbs;
}

/** The pane's title: the matched route's title, or 'Not found'. */
export function paneTitle(path: string): string {
  const match = matchPath(path);
  return match ? match.route.title(match.params).trim() : 'Not found';
}
