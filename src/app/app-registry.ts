// The registry of the app: every static command plus one navigation command per reachable route row.
import { staticCommands } from '../../commands/all-commands.ts';
import type { Command } from '../../commands/command.ts';
import type { NavigableRoute } from '../../commands/navigation/route-commands.ts';
import { routeCommands } from '../../commands/navigation/route-commands.ts';
import { createCommandRegistry, type CommandRegistry } from '../../commands/registry.ts';
import { routeConditions } from './access.ts';
import { routes, type RouteDefinition } from './routes.ts';

export function navigableRoutes(table: readonly RouteDefinition[] = routes): NavigableRoute[] {
  return table.flatMap((route) =>
    route.command && !route.public && !route.redirect
      ? [
          {
            id: route.id,
            pattern: route.pattern,
            permissions: route.permissions,
            contextParams: route.contextParams ?? {},
            contextFree: route.contextFree === true,
            conditionsMet: (ctx, params) => routeConditions(route, ctx, params).ok,
            command: route.command,
          } satisfies NavigableRoute,
        ]
      : [],
  );
}

/**
 * The registry at start: route commands and the commands every screen needs; `more` (tests: the areas' commands) too.
 * `areasToCome`: the areas' commands will be registered after the first screen (after-first-screen.ts).
 */
export function createAppRegistry(
  table: readonly RouteDefinition[] = routes,
  more: readonly Command[] = [],
  options: { areasToCome?: boolean } = {},
): CommandRegistry {
  return createCommandRegistry([...routeCommands(navigableRoutes(table)), ...staticCommands, ...more], { moreToCome: options.areasToCome === true });
}
