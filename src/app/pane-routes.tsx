// Inside a pane: wouter routes the pane's own location through the route table, and the guard decides what
// the matched route may show. Each pane guards its own route.
import { createContext, lazy, useCallback, useContext, useEffect, useMemo } from 'react';
import { useSnapshot } from 'valtio';
import { Route, Router, Switch } from 'wouter';
import { messages } from '../contract/messages.ts';
import { showToast } from '../state/toast-store.ts';
import { contextPagePath } from '../state/context-links.ts';
import { loadLayout, workspaceStore, workspaceUrl } from '../state/workspace-store.ts';
import { Skeleton } from '../ui/skeleton.tsx';
import { openPath } from './app-navigation.ts';
import { ChunkBoundary } from './chunk-boundary.tsx';
import { useCommandContext } from './command-context.ts';
import { decideRoute } from './guard.ts';
import { splitPath } from './paths.ts';
import { compilePattern } from './route-match.ts';
import { routes, type RouteDefinition } from './routes.ts';

const NotFoundPane = lazy(() => import('../../panes/not-found/not-found-pane.tsx').then((module) => ({ default: module.NotFoundPane })));

/** The workspace pane whose location the router below it follows. */
const RoutedPaneContext = createContext('');

function usePanePath(): string {
  const paneId = useContext(RoutedPaneContext);
  const workspace = useSnapshot(workspaceStore);
  return workspace.panes.find((pane) => pane.id === paneId)?.path ?? '/';
}

/** wouter's location hook for the routed pane: its path, and navigation that opens in that pane. */
function usePaneLocation(): [string, (to: string, options?: { replace?: boolean }) => void] {
  const paneId = useContext(RoutedPaneContext);
  const path = usePanePath();
  const navigate = useCallback(
    (to: string, options?: { replace?: boolean }) => {
      void openPath(to, { paneId, ...(options?.replace ? { replace: true } : {}) });
    },
    [paneId],
  );
  return [splitPath(path).pathname, navigate];
}

/** wouter's search hook for the routed pane: its query without the '?'. */
function usePaneSearch(): string {
  return splitPath(usePanePath()).search.replace(/^\?/, '');
}

/**
 * Replaces the whole layout with context selection, keeping the intended URL (every pane) to come back to. Every
 * pane without a context asks in the same commit (four panes: four calls); the first replaces the layout and the
 * others find it done, rather than wrapping the context page in itself ('/context?route=/context?route=…').
 */
export function requireContext(): void {
  const target = contextPagePath(workspaceUrl());
  const [only, ...others] = workspaceStore.panes;
  if (only?.path === target && others.length === 0) return;
  loadLayout({ paths: [target], focused: 0 }, 'replace');
}

function GuardedRoute({ route, paneId, path }: { route: RouteDefinition | null; paneId: string; path: string }) {
  const ctx = useCommandContext(path, { overlays: false });
  const decision = decideRoute(path, ctx);

  // biome-ignore lint/correctness/useExhaustiveDependencies: a new path with the same refusal (another forbidden record) is refused again
  useEffect(() => {
    if (decision.kind === 'noPermission') {
      showToast({ kind: 'danger', message: messages.noPermissions });
      void openPath('/404', { paneId, replace: true });
    } else if (decision.kind === 'redirectNotFound') {
      void openPath('/404', { paneId, replace: true });
    } else if (decision.kind === 'needsContext') {
      requireContext();
    }
  }, [decision.kind, paneId, path]);

  // The screen depends on its path alone (its params and search come from it): it re-renders when the path
  // changes, not whenever the guard's picture of the app does (a pane opening beside, a capability changing).
  const allowed = decision.kind === 'allow' ? decision.match : null;
  // biome-ignore lint/correctness/useExhaustiveDependencies: the match is a new object on each render; the path and the route it names are what it depends on
  const screen = useMemo(() => {
    if (!allowed) return null;
    const Pane = allowed.route.pane;
    return (
      <ChunkBoundary resetKey={allowed.route.id} label={`Loading ${allowed.route.capability}`}>
        <Pane params={allowed.params} search={allowed.search} capability={allowed.route.capability} />
      </ChunkBoundary>
    );
  }, [allowed?.route.id, path]);

  if (decision.kind === 'unknown' || !route) {
    return (
      <ChunkBoundary resetKey={path}>
        <NotFoundPane />
      </ChunkBoundary>
    );
  }
  if (decision.kind !== 'allow')
    return (
      <div className="pane-loading">
        <Skeleton lines={4} />
      </div>
    );
  return screen;
}

export function PaneRoutes({ paneId, path }: { paneId: string; path: string }) {
  return (
    <RoutedPaneContext value={paneId}>
      <Router hook={usePaneLocation} searchHook={usePaneSearch} parser={compilePattern}>
        <Switch>
          {routes
            .filter((route) => !route.public || route.id === 'notFound')
            .map((route) => (
              <Route key={route.id} path={route.pattern}>
                <GuardedRoute route={route} paneId={paneId} path={path} />
              </Route>
            ))}
          <Route>
            <GuardedRoute route={null} paneId={paneId} path={path} />
          </Route>
        </Switch>
      </Router>
    </RoutedPaneContext>
  );
}
