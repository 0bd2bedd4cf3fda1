// The signed-in shell: header, side menu (default layout; the editor layout hides it), the workspace, and
// the overlays. Mounts the URL sync, the shortcut binder, the link handling and the inactivity watch.
import { lazy, memo, startTransition, Suspense, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { useSnapshot } from 'valtio';
import { finishFirstLoad } from '../api/validate.ts';
import { shellStore } from '../state/shell-store.ts';
import { workspaceStore } from '../state/workspace-store.ts';
import { Skeleton } from '../ui/skeleton.tsx';
import { AppHeader } from './app-header.tsx';
import { useAppServices } from './app-services.tsx';
import { ShellServices } from './shell-services.tsx';
import { ConfirmationHost } from './confirmation-host.tsx';
import { TerminalChooserHost } from './terminal-chooser-host.tsx';
import { ContextSwitcherDialog } from './context-route.tsx';
import { whenIdle } from '../ui/when-idle.ts';
import { afterFirstScreen, browserProbe } from './first-screen.ts';
import { isPaletteMounted, startTypeahead, takeTypeahead } from './palette-typeahead.ts';
import { InactivityWatch } from './inactivity-watch.tsx';
import { useLinkInterception } from './link-interception.ts';
import { useOnLoadNotices } from './notices.ts';
import { usePermissionsOfAppliedContext } from './permissions-gate.ts';
import { matchPath } from './route-match.ts';
import { useShortcutBinder } from './shortcut-binder.ts';
import { SideMenu } from './side-menu.tsx';
import { useWorkspaceUrlSync } from './url-sync.ts';
import { loadResizableRow, Workspace } from './workspace.tsx';

const loadPalette = () => import('./palette.tsx');
const loadShortcutHelp = () => import('./shortcut-help-dialog.tsx');
const CommandPalette = lazy(() => loadPalette().then((module) => ({ default: module.CommandPalette })));
const ShortcutHelpDialog = lazy(() => loadShortcutHelp().then((module) => ({ default: module.ShortcutHelpDialog })));

/** Overlays load on first use (or when prefetched); then they stay mounted, closed, so opening is instant. */
function useLoadedOnce(open: boolean, prefetched = false): boolean {
  const [loaded, setLoaded] = useState(open);
  useEffect(() => {
    if (open || prefetched) setLoaded(true);
  }, [open, prefetched]);
  return loaded || open || prefetched;
}

export function Shell() {
  return (
    <ShellServices>
      <ShellLayout />
    </ShellServices>
  );
}

// The header and the menu re-render for their own stores, not whenever the layout does (a path change, a new
// pane). The workspace is not memoised: it must re-render in the same pass as the layout when the address changes
// (memoised, a context page that had just applied showed its panel for a frame on the way out).
const Header = memo(AppHeader);
const Menu = memo(SideMenu);

/** The palette and the shortcut help: only this part re-renders when one of them opens or closes. */
function Overlays({ palettePrefetched }: { palettePrefetched: boolean }) {
  const shell = useSnapshot(shellStore);
  const paletteLoaded = useLoadedOnce(shell.paletteOpen, palettePrefetched);
  // Opened before the palette has arrived: keep what is typed meanwhile for its query (palette-typeahead.ts).
  useLayoutEffect(() => {
    if (shell.paletteOpen && !isPaletteMounted()) startTypeahead();
    else if (!shell.paletteOpen) takeTypeahead();
  }, [shell.paletteOpen]);
  const helpLoaded = useLoadedOnce(shell.shortcutHelpOpen);
  return (
    <Suspense fallback={null}>
      {paletteLoaded ? <CommandPalette /> : null}
      {helpLoaded ? <ShortcutHelpDialog /> : null}
    </Suspense>
  );
}

function ShellLayout() {
  const { registry, commandServices, queryClient, session } = useAppServices();
  useWorkspaceUrlSync();
  // The after-first-screen work, started at once by a key that ran nothing (its command may be an area's, not here yet).
  const startLate = useRef<() => void>(() => undefined);
  useShortcutBinder(registry, commandServices, () => startLate.current());
  useLinkInterception();
  useOnLoadNotices(true);
  const permissions = usePermissionsOfAppliedContext();
  const workspace = useSnapshot(workspaceStore);
  // Only this property: the layout does not re-render when an overlay opens or closes.
  const menuCollapsed = useSnapshot(shellStore).sideMenuCollapsed;
  const [palettePrefetched, setPalettePrefetched] = useState(false);

  // Once the first screen has settled (not before: it must not compete with what the user waits for), load and
  // mount the palette, closed, so the first Ctrl+K only opens it, and load the resizable row, so a second pane opens
  // at once. Then, when the page is idle, start the response validator's worker (after which every answer is
  // checked before use): on a machine of two cores its start (arktype's set-up, ~100 ms of CPU) beside the palette's
  // first render lengthened that render (Lighthouse's dashboard 94–99 without the worker, 89–92 with it started at
  // once, in an A/B).
  const [validatorDue, setValidatorDue] = useState(false);
  // The same moment starts the work of after-first-screen.ts (a chunk of its own): the areas' commands, the imports of
  // the other screens and the live events stream.
  useEffect(() => {
    let cancelled = false;
    let stopLater: (() => void) | null = null;
    let started = false;
    const start = () => {
      if (started) return;
      started = true;
      cancel();
      void loadResizableRow().catch(() => undefined);
      void import('./after-first-screen.ts').then(
        ({ startAfterFirstScreen }) => {
          if (!cancelled) stopLater = startAfterFirstScreen(registry, session, queryClient);
        },
        () => undefined,
      );
      void loadPalette().then(
        () => {
          // Mounted (closed, its list rendered hidden) at low priority: an interruptible render, not a long task.
          if (!cancelled) startTransition(() => setPalettePrefetched(true));
        },
        () => {
          if (!cancelled) setValidatorDue(true);
        },
      );
    };
    const cancel = afterFirstScreen(
      browserProbe(() => queryClient.isFetching()),
      start,
    );
    startLate.current = start;
    return () => {
      cancelled = true;
      startLate.current = () => undefined;
      cancel();
      stopLater?.();
    };
  }, [queryClient, registry, session]);
  useEffect(() => {
    if (!palettePrefetched && !validatorDue) return undefined;
    return whenIdle(() => void finishFirstLoad());
  }, [palettePrefetched, validatorDue]);

  const focusedPath = workspace.panes[workspace.focusedIndex]?.path;
  const layout = focusedPath ? (matchPath(focusedPath)?.route.layout ?? 'default') : 'default';

  return (
    <div className={`shell shell-${layout}${menuCollapsed ? ' shell-menu-collapsed' : ''}`}>
      <a className="skip-link" href="#workspace">
        Skip to content
      </a>
      <Header />
      {layout === 'default' ? <Menu /> : null}
      <main id="workspace" className="shell-main" tabIndex={-1}>
        {permissions.status === 'error' ? (
          <div className="pane-error" role="alert">
            <p>Your permissions could not be loaded.</p>
            <button type="button" className="button" onClick={permissions.retry}>
              Try again
            </button>
          </div>
        ) : workspace.panes.length === 0 ? (
          <Skeleton lines={4} />
        ) : (
          <Workspace />
        )}
      </main>
      <Overlays palettePrefetched={palettePrefetched} />
      <ContextSwitcherDialog />
      <ConfirmationHost />
      <TerminalChooserHost />
      <InactivityWatch />
    </div>
  );
}
