// The guard: what a pane does with a path, as a pure function of the path and the command context.
//   unknown path                         → not-found (in place, links to dashboard and support)
//   a route the spec redirects           → /404
//   bad parameter (numeric account id)   → not-found
//   public route                         → shown
//   permissions not loaded yet           → wait
//   missing permission                   → 'You do not have the correct permissions.' and /404
//   context-bound route, no context      → /context?route=<intended>
//   route condition fails                → /404 (with the permission message for page-access rules)
import type { CommandContext } from '../../commands/command.ts';
import { hasPermissions, routeConditions } from './access.ts';
import { matchPath, type RouteMatch } from './route-match.ts';
import type { RouteDefinition } from './routes.ts';

export type GuardContext = CommandContext & {
  /** the permissions of the applied context have arrived */
  permissionsLoaded: boolean;
  /** the raw applied context, for the context-bound check */
  hasContext: boolean;
};

export type RouteDecision =
  | { kind: 'unknown' }
  | { kind: 'redirectNotFound'; match: RouteMatch }
  | { kind: 'noPermission'; match: RouteMatch }
  | { kind: 'needsContext'; match: RouteMatch }
  | { kind: 'waiting'; match: RouteMatch }
  | { kind: 'allow'; match: RouteMatch };

function paramsValid(route: RouteDefinition, params: Readonly<Record<string, string | undefined>>): boolean {
  return Object.entries(route.paramRules ?? {}).every(([name, rule]) => {
    const value = params[name];
    return value === undefined || rule.test(value);
  });
}

export function decideRoute(path: string, ctx: GuardContext, table?: readonly RouteDefinition[]): RouteDecision {
  const match = matchPath(path, table);
  if (!match) return { kind: 'unknown' };
  const { route, params } = match;
  if (route.redirect === 'notFound') return { kind: 'redirectNotFound', match };
  if (!paramsValid(route, params)) return { kind: 'unknown' };
  if (route.public) return { kind: 'allow', match };
  if (!ctx.permissionsLoaded) return { kind: 'waiting', match };
  if (!hasPermissions(route, ctx.permissions)) return { kind: 'noPermission', match };
  if (!route.contextFree && !ctx.hasContext) return { kind: 'needsContext', match };
  const conditions = routeConditions(route, ctx, params);
  if (!conditions.ok) return conditions.failure === 'noPermission' ? { kind: 'noPermission', match } : { kind: 'redirectNotFound', match };
  return { kind: 'allow', match };
}
