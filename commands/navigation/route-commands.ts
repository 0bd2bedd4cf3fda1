// Navigation commands come from the route table (src/app/routes.ts hands its rows in, since commands never
// import the app): one command per route the user can reach without typing an id, either parameterless or
// with every parameter taken from the applied context (business, merchant, configuration, partner).
import type { Command, CommandContext } from '../command.ts';
import type { PermissionName } from '../../src/contract/permissions.ts';

export type ContextKey = 'partner' | 'business' | 'merchant' | 'configuration';

/**
 * A route command that decides for itself when it is offered and what it opens (the virtual terminal picks a
 * configuration whose terminal is on rather than the context's). Its permissions, title and shortcut stay the row's.
 */
export type RouteCommandBehaviour = Pick<Command, 'run'> & { when: (ctx: CommandContext) => boolean };

export type NavigableRoute = {
  id: string;
  pattern: string;
  permissions: readonly PermissionName[];
  /** route parameters filled from the applied context */
  contextParams: Readonly<Record<string, ContextKey>>;
  /** the route's conditions beyond permissions (context flags, page access), as the guard checks them */
  conditionsMet: (ctx: CommandContext, params: Record<string, string>) => boolean;
  contextFree: boolean;
  command: { title: string; keywords: readonly string[]; shortcut?: string; behaviour?: RouteCommandBehaviour };
};

const contextIds: Record<ContextKey, (ctx: CommandContext) => string | null> = {
  partner: (ctx) => ctx.context.partnerId,
  business: (ctx) => ctx.context.businessId,
  merchant: (ctx) => ctx.context.merchantId,
  configuration: (ctx) => ctx.context.configurationId,
};

/** '/business/:businessId/pricing-plan' + { businessId: 'B1' } → '/business/B1/pricing-plan'; null when a required one is missing. */
export function fillPattern(pattern: string, params: Readonly<Record<string, string | undefined>>): string | null {
  let missing = false;
  const path = pattern.replace(/\/:([A-Za-z0-9_]+)(\?)?/g, (_match, name: string, optional: string | undefined) => {
    const value = params[name];
    if (value === undefined || value === '') {
      if (!optional) missing = true;
      return '';
    }
    return `/${encodeURIComponent(value)}`;
  });
  return missing ? null : path || '/';
}

/** The parameters a route takes from the applied context, or null when the context lacks one. */
export function paramsFromContext(route: Pick<NavigableRoute, 'contextParams'>, ctx: CommandContext): Record<string, string> | null {
  const params: Record<string, string> = {};
  for (const [name, key] of Object.entries(route.contextParams)) {
    const id = contextIds[key](ctx);
    if (!id) return null;
    params[name] = id;
  }
  return params;
}

export function routePath(route: NavigableRoute, ctx: CommandContext): string | null {
  const params = paramsFromContext(route, ctx);
  return params ? fillPattern(route.pattern, params) : null;
}

function hasRequiredParamsBeyondContext(route: NavigableRoute): boolean {
  const required = [...route.pattern.matchAll(/\/:([A-Za-z0-9_]+)(\?)?/g)].filter((match) => !match[2]).map((match) => match[1]);
  return required.some((name) => name !== undefined && !(name in route.contextParams));
}

export function routeCommands(routes: readonly NavigableRoute[]): Command[] {
  return routes
    .filter((route) => !hasRequiredParamsBeyondContext(route))
    .map(
      (route): Command => ({
        id: `nav.${route.id}`,
        title: route.command.title,
        section: 'Navigation',
        keywords: route.command.keywords,
        ...(route.command.shortcut ? { shortcut: route.command.shortcut } : {}),
        permissions: route.permissions,
        when: (ctx) => {
          if (!ctx.signedIn) return false;
          if (route.command.behaviour) return route.command.behaviour.when(ctx);
          const params = paramsFromContext(route, ctx);
          return params !== null && route.conditionsMet(ctx, params);
        },
        run:
          route.command.behaviour?.run ??
          ((run, args) => {
            const path = routePath(route, run.context());
            if (path) return run.navigate(path, { beside: args.beside === true });
            return undefined;
          }),
      }),
    );
}
