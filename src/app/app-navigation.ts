// Where a path opens: the public pages (sign-in, sign-out, signed-out, invitation, the root) replace the
// whole app; everything else opens in the workspace, in the focused pane or beside it.
import { navigate as navigateBrowser } from 'wouter/use-browser-location';
import { navigatePane, openBeside, workspaceStore } from '../state/workspace-store.ts';
import { splitPath } from './paths.ts';

export const appLevelPaths: readonly string[] = ['/', '/sign-in', '/sign-out', '/signed-out', '/user-invite'];

export function isAppLevelPath(path: string): boolean {
  const { pathname } = splitPath(path);
  return appLevelPaths.includes(pathname.replace(/\/$/, '') || '/');
}

export function navigateApp(url: string, options: { replace?: boolean } = {}): void {
  navigateBrowser(url, { replace: options.replace === true });
}

export function currentBrowserUrl(): string {
  return `${window.location.pathname}${window.location.search}`;
}

/** Opens a same-origin path: app-level pages replace the app, others go to a pane (or beside it). */
export async function openPath(path: string, options: { beside?: boolean; replace?: boolean; paneId?: string } = {}): Promise<boolean> {
  if (isAppLevelPath(path) || workspaceStore.panes.length === 0) {
    navigateApp(path, options);
    return true;
  }
  if (options.beside) return openBeside(path, options.paneId ? { afterPaneId: options.paneId } : {});
  return navigatePane(path, { ...(options.paneId ? { paneId: options.paneId } : {}), ...(options.replace ? { replace: true } : {}) });
}
