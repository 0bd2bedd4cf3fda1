// What a screen inside a pane may know about its pane: its id, how to declare capabilities (so commands such
// as Shift+F are offered only where a screen reacts to them), how to react to requests and how to guard a
// form with unsaved changes. Screens (panes/) use these hooks; the workspace (src/app) provides the scope.
import { createContext, useContext, useEffect, useRef } from 'react';
import { subscribe } from 'valtio';
import { type PaneCapability, setPaneCapabilities, setPaneDirty, workspaceStore } from './workspace-store.ts';

// The pane's identity only: whether the pane is focused is the workspace's business, and a screen that read it
// would render again on every pane switch (20 switches rendered both screens 20 times each).
export type PaneScope = { paneId: string };

export const PaneScopeContext = createContext<PaneScope | null>(null);

export function usePaneScope(): PaneScope | null {
  return useContext(PaneScopeContext);
}

/** Route parameters and the pane's own query, given to every screen the route table shows. */
export type PaneProps = {
  params: Readonly<Record<string, string | undefined>>;
  search: string;
  /** the capability name from the route table (used by placeholder screens) */
  capability: string;
};

export type PaneRequestHandlers = Partial<Record<PaneCapability, (argument?: number) => void>>;

/**
 * Declares what this screen supports and reacts to the requests commands make of it. The keys of `handlers`
 * are the capabilities; the handlers may change between renders.
 */
export function usePaneCapabilities(handlers: PaneRequestHandlers): void {
  const scope = usePaneScope();
  const latest = useRef(handlers);
  latest.current = handlers;
  const key = Object.keys(handlers).sort().join(',');
  const paneId = scope?.paneId;

  useEffect(() => {
    if (!paneId) return undefined;
    setPaneCapabilities(paneId, key ? (key.split(',') as PaneCapability[]) : []);
    let lastSeq = workspaceStore.panes.find((pane) => pane.id === paneId)?.request?.seq ?? 0;
    const unsubscribe = subscribe(workspaceStore, () => {
      const request = workspaceStore.panes.find((pane) => pane.id === paneId)?.request;
      if (!request || request.seq === lastSeq) return;
      lastSeq = request.seq;
      latest.current[request.capability]?.(request.argument);
    });
    return () => {
      unsubscribe();
      setPaneCapabilities(paneId, []);
    };
  }, [paneId, key]);
}

/** While `dirty`, leaving the screen (navigating the pane, closing it, unloading the page) asks first. */
export function useLeaveFormGuard(dirty: boolean): void {
  const paneId = usePaneScope()?.paneId;
  useEffect(() => {
    if (!paneId) return undefined;
    setPaneDirty(paneId, dirty);
    return () => setPaneDirty(paneId, false);
  }, [paneId, dirty]);
  useEffect(() => {
    if (!dirty) return undefined;
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      event.preventDefault();
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => window.removeEventListener('beforeunload', onBeforeUnload);
  }, [dirty]);
}
