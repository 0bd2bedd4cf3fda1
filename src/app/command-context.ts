// Builds the command context (the serialisable picture of "now") from the stores: for the palette, the
// shortcut help and the menus (reactively) and for the key binder and commands (at the moment they run).
import { useMemo } from 'react';
import { proxy, snapshot, useSnapshot } from 'valtio';
import type { ContextSelections } from '../contract/context.ts';
import type { AuthorizationPolicy } from '../contract/policy.ts';
import { credentialsStore } from '../auth/credentials-store.ts';
import { contextStore, contextTitle, hasSelectedContext } from '../state/context-store.ts';
import { permissionScope, sessionStore } from '../state/session-store.ts';
import { shellStore } from '../state/shell-store.ts';
import type { PaneCapability } from '../state/workspace-store.ts';
import { workspaceStore } from '../state/workspace-store.ts';
import { maxPanes } from '../state/workspace-url.ts';
import { accessFromPolicy } from './access.ts';
import type { GuardContext } from './guard.ts';
import { matchPath } from './route-match.ts';

export type ContextSources = {
  signedIn: boolean;
  applied: ContextSelections;
  permissions: Readonly<Record<string, readonly string[]>>;
  policy: AuthorizationPolicy | null;
  panes: readonly { id: string; path: string; capabilities: readonly PaneCapability[] }[];
  focusedIndex: number;
  overlayOpen: boolean;
  fieldFocused: boolean;
  controlFocused: boolean;
  /** a filter bar's button has focus (isFilterBarTarget) */
  filterBarFocused?: boolean;
  /** the path the context is computed for (a pane's own); the focused pane's by default */
  path?: string;
  /** the context a visible switch left, for 'Back to <previous context>' */
  previous?: ContextSelections | null;
};

export function buildCommandContext(sources: ContextSources): GuardContext {
  const { applied } = sources;
  const scoped = sources.permissions[permissionScope(applied).key];
  const focused = sources.panes[sources.focusedIndex] ?? null;
  const path = sources.path ?? focused?.path ?? null;
  const match = path ? matchPath(path) : null;
  return {
    signedIn: sources.signedIn,
    permissions: scoped ?? [],
    permissionsLoaded: scoped !== undefined,
    hasContext: hasSelectedContext(applied),
    route: path === null ? null : { id: match?.route.id ?? null, pattern: match?.route.pattern ?? null, path },
    context: {
      partnerId: applied.partner?.id ?? null,
      businessId: applied.business?.id ?? null,
      merchantId: applied.merchant?.id ?? null,
      configurationId: applied.configuration?.id ?? null,
      virtualTerminalMenuEnabled: applied.configuration?.id ? applied.configuration.switches.virtualTerminalMenuEnabled : null,
      camAutoRemittance: applied.business?.camAutoRemittance ?? null,
      grossSettlement: applied.merchant?.grossSettlement ?? null,
    },
    access: accessFromPolicy(sources.policy),
    focusedPane: focused ? { id: focused.id, capabilities: focused.capabilities } : null,
    paneCount: sources.panes.length,
    focusedIndex: sources.focusedIndex,
    maxPanes,
    selectionCount: 0,
    fieldFocused: sources.fieldFocused,
    controlFocused: sources.controlFocused,
    overlayOpen: sources.overlayOpen,
    ...(sources.filterBarFocused ? { filterBarFocused: true } : {}),
    previousContext: sources.previous ? contextTitle(sources.previous) || null : null,
  };
}

const textInputTypes = new Set(['', 'text', 'search', 'email', 'number', 'password', 'tel', 'url', 'date', 'datetime-local', 'month', 'time', 'week']);

/** Typing goes to this element: shortcuts other than Escape stay quiet. */
export function isTypingTarget(element: Element | null): boolean {
  if (!element) return false;
  if (element instanceof HTMLInputElement) return textInputTypes.has(element.type);
  if (element instanceof HTMLTextAreaElement || element instanceof HTMLSelectElement) return true;
  return element instanceof HTMLElement && (element.isContentEditable || element.closest('[contenteditable="true"],[contenteditable=""]') !== null);
}

const controlSelector = 'button, a[href], input, select, textarea, [role="tab"], [role="menuitem"], [role="option"]';

/** A control other than a typing field holds the keyboard, or focus is inside a dialog (a screen's own included). */
export function isControlTarget(element: Element | null): boolean {
  if (!element || element === document.body) return false;
  return element.matches(controlSelector) || element.closest('[role="dialog"], [role="alertdialog"]') !== null;
}

/** A button of a list's filter bar (a role="search" form), not one inside a popup or dialog of it. */
export function isFilterBarTarget(element: Element | null): boolean {
  if (!(element instanceof HTMLButtonElement)) return false;
  return element.closest('form[role="search"]') !== null && element.closest('[role="dialog"], [role="listbox"], [role="menu"], fieldset') === null;
}

function overlayOpen(state: { paletteOpen: boolean; shortcutHelpOpen: boolean; contextSwitcherOpen: boolean }): boolean {
  return state.paletteOpen || state.shortcutHelpOpen || state.contextSwitcherOpen;
}

/** Now, read straight from the stores. */
export function currentCommandContext(overrides: Partial<ContextSources> = {}): GuardContext {
  return buildCommandContext({
    signedIn: credentialsStore.credentials !== null && sessionStore.userInfo !== null,
    applied: contextStore.applied,
    previous: contextStore.previous,
    permissions: sessionStore.permissions,
    policy: sessionStore.policy,
    panes: workspaceStore.panes,
    focusedIndex: workspaceStore.focusedIndex,
    overlayOpen: overlayOpen(shellStore),
    fieldFocused: isTypingTarget(typeof document === 'undefined' ? null : document.activeElement),
    controlFocused: isControlTarget(typeof document === 'undefined' ? null : document.activeElement),
    filterBarFocused: isFilterBarTarget(typeof document === 'undefined' ? null : document.activeElement),
    ...overrides,
  });
}

/** Stands in for the shell store where the overlays are left out: it never changes, so it never re-renders. */
const noOverlays = proxy({ paletteOpen: false, shortcutHelpOpen: false, contextSwitcherOpen: false });

/**
 * Now, reactively: re-renders when any part of the picture it reads changes. `overlays: false` leaves the
 * overlays out (overlayOpen is then false): a pane's guard does not depend on them, so opening the palette does
 * not re-render the panes.
 */
export function useCommandContext(path?: string, options: { overlays?: boolean } = {}): GuardContext {
  const credentials = useSnapshot(credentialsStore);
  const session = useSnapshot(sessionStore);
  const context = useSnapshot(contextStore);
  const workspace = useSnapshot(workspaceStore);
  // Not the shell store itself when the overlays are left out: a snapshot of which nothing is read re-renders on
  // every change of its store (valtio cannot tell what was not used), so opening the palette re-rendered the menu,
  // the header and every pane's guard.
  const shell = useSnapshot(options.overlays === false ? noOverlays : shellStore);
  // Subscribe to the parts of the picture by reference (valtio re-renders when a part read here is replaced),
  // then build the picture from the plain snapshots: reading deep through the tracking proxies (every
  // permission, the whole policy) cost more than everything else the palette does when it opens.
  const signedIn = credentials.credentials !== null && session.userInfo !== null;
  void [session.permissions, session.policy, context.applied, context.previous, workspace.panes, workspace.focusedIndex];
  const overlays = options.overlays === false ? false : overlayOpen(shell);
  const plain = { session: snapshot(sessionStore), context: snapshot(contextStore), workspace: snapshot(workspaceStore) };
  // The same picture (the same object) for as long as its parts are the same snapshots: valtio's snapshots share
  // what did not change, so a consumer's memos keyed on the context hold across unrelated re-renders.
  const { permissions, policy } = plain.session;
  const { applied, previous } = plain.context;
  const { panes, focusedIndex } = plain.workspace;
  return useMemo(
    () =>
      buildCommandContext({
        signedIn,
        applied: applied as ContextSelections,
        permissions,
        policy: policy as AuthorizationPolicy | null,
        panes,
        focusedIndex,
        overlayOpen: overlays,
        fieldFocused: false,
        controlFocused: false,
        previous: previous as ContextSelections | null,
        ...(path !== undefined ? { path } : {}),
      }),
    [signedIn, applied, previous, permissions, policy, panes, focusedIndex, overlays, path],
  );
}
