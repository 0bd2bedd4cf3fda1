// The side menu, derived from the route table: sections in the documented order, each entry shown when its
// navigation command is available (permissions and route conditions, via isAvailable) and its menu
// condition holds (billing hidden with a business selected, and so on).
import type { CommandContext } from '../../commands/command.ts';
import { routePath } from '../../commands/navigation/route-commands.ts';
import { isAvailable, type CommandRegistry } from '../../commands/registry.ts';
import { navigableRoutes } from './app-registry.ts';
import { menuSections, routes, type MenuSectionId, type RouteDefinition } from './routes.ts';

export type MenuEntryView = { routeId: string; label: string; path: string; pattern: string };
export type MenuSectionView = { id: MenuSectionId; label: string; index: number; entries: MenuEntryView[] };

export function buildMenu(ctx: CommandContext, registry: CommandRegistry, table: readonly RouteDefinition[] = routes): MenuSectionView[] {
  const navigable = new Map(navigableRoutes(table).map((route) => [route.id, route]));
  return menuSections
    .map((section) => {
      const entries = table
        .filter((route) => route.menu?.section === section.id)
        .sort((a, b) => (a.menu?.index ?? 0) - (b.menu?.index ?? 0))
        .flatMap((route): MenuEntryView[] => {
          const command = registry.get(`nav.${route.id}`);
          const target = navigable.get(route.id);
          if (!command || !target || !route.menu) return [];
          if (!isAvailable(command, ctx) || route.menu.visible?.(ctx) === false) return [];
          const path = routePath(target, ctx);
          return path ? [{ routeId: route.id, label: route.menu.label, path, pattern: route.pattern }] : [];
        });
      return { id: section.id, label: section.label, index: section.index, entries };
    })
    .filter((section) => section.entries.length > 0);
}
