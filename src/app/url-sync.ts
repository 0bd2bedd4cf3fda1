// Keeps the workspace and the address bar in step: the workspace writes the URL (push for navigation,
// replace for focus changes); a URL the workspace did not write (back/forward, a link, the context flow
// returning to an intended layout) is read into the workspace.
import { useEffect, useLayoutEffect } from 'react';
import { useBrowserLocation, useSearch } from 'wouter/use-browser-location';
import { loadLayout, setHistoryWriter, workspaceStore, workspaceUrl } from '../state/workspace-store.ts';
import { decodeWorkspace, encodeWorkspace } from '../state/workspace-url.ts';
import { navigateApp } from './app-navigation.ts';

export function useWorkspaceUrlSync(): void {
  const [pathname] = useBrowserLocation();
  // wouter's browser search is location.search itself: '' or '?…'.
  const search = useSearch();
  const url = `${pathname}${search}`;

  useLayoutEffect(() => {
    setHistoryWriter((next, mode) => {
      const current = `${window.location.pathname}${window.location.search}`;
      if (next !== current) navigateApp(next, { replace: mode === 'replace' });
    });
    return () => setHistoryWriter(null);
  }, []);

  useLayoutEffect(() => {
    const layout = decodeWorkspace(url);
    const canonical = encodeWorkspace(layout);
    if (workspaceStore.panes.length === 0 || canonical !== workspaceUrl()) loadLayout(layout);
  }, [url]);

  // A URL written by hand in another spelling is rewritten once in the canonical one.
  useEffect(() => {
    const canonical = workspaceUrl();
    if (canonical !== url) navigateApp(canonical, { replace: true });
  }, [url]);
}
