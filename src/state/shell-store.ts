// Client state of the shell's overlays and confirmations. Commands open and close them by setting state;
// src/app renders what the state says.
import { proxy } from 'valtio';

// The side menu's collapsed state lasts for the tab's session (session storage): a reload keeps it, a sign-out ends it.
const sideMenuKey = 'portal.sideMenuCollapsed';

function restoreSideMenuCollapsed(): boolean {
  try {
    return globalThis.sessionStorage?.getItem(sideMenuKey) === 'true';
  } catch {
    return false;
  }
}

export type ConfirmationKind = 'conflict' | 'leaveForm';
type Confirmation = { id: number; kind: ConfirmationKind };

export const shellStore = proxy({
  paletteOpen: false,
  shortcutHelpOpen: false,
  contextSwitcherOpen: false,
  inactivityWarning: false,
  sideMenuCollapsed: restoreSideMenuCollapsed(),
  confirmation: null as Confirmation | null,
});

const resolvers = new Map<number, (confirmed: boolean) => void>();
const queue: Confirmation[] = [];
let nextId = 1;

/** Resolves true when the user confirms (Discard changes / Leave), false when they stay. */
export function requestConfirmation(kind: ConfirmationKind): Promise<boolean> {
  const confirmation = { id: nextId++, kind };
  const promise = new Promise<boolean>((resolve) => resolvers.set(confirmation.id, resolve));
  if (shellStore.confirmation) queue.push(confirmation);
  else shellStore.confirmation = confirmation;
  return promise;
}

export function resolveConfirmation(id: number, confirmed: boolean): void {
  resolvers.get(id)?.(confirmed);
  resolvers.delete(id);
  if (shellStore.confirmation?.id === id) shellStore.confirmation = queue.shift() ?? null;
}

export type ShellOverlay = 'palette' | 'shortcutHelp' | 'contextSwitcher';

export function openOverlay(overlay: ShellOverlay): void {
  shellStore.paletteOpen = overlay === 'palette';
  shellStore.shortcutHelpOpen = overlay === 'shortcutHelp';
  shellStore.contextSwitcherOpen = overlay === 'contextSwitcher';
}

export function closeOverlay(overlay: ShellOverlay): void {
  if (overlay === 'palette') shellStore.paletteOpen = false;
  if (overlay === 'shortcutHelp') shellStore.shortcutHelpOpen = false;
  if (overlay === 'contextSwitcher') shellStore.contextSwitcherOpen = false;
}

/** The topmost overlay, if any: what Escape closes. */
export function topOverlay(state: { paletteOpen: boolean; shortcutHelpOpen: boolean; contextSwitcherOpen: boolean }): ShellOverlay | null {
  if (state.paletteOpen) return 'palette';
  if (state.shortcutHelpOpen) return 'shortcutHelp';
  if (state.contextSwitcherOpen) return 'contextSwitcher';
  return null;
}

export function closeTopOverlay(): void {
  const top = topOverlay(shellStore);
  if (top) closeOverlay(top);
}

export function setSideMenuCollapsed(collapsed: boolean): void {
  shellStore.sideMenuCollapsed = collapsed;
  try {
    if (collapsed) globalThis.sessionStorage?.setItem(sideMenuKey, 'true');
    else globalThis.sessionStorage?.removeItem(sideMenuKey);
  } catch {
    // Storage refused (private mode, quota): the state still holds for this page.
  }
}

export function toggleSideMenu(): void {
  setSideMenuCollapsed(!shellStore.sideMenuCollapsed);
}

export function resetShell(): void {
  shellStore.paletteOpen = false;
  shellStore.shortcutHelpOpen = false;
  shellStore.contextSwitcherOpen = false;
  shellStore.inactivityWarning = false;
  setSideMenuCollapsed(false);
  for (const [id, resolve] of resolvers) {
    resolve(false);
    resolvers.delete(id);
  }
  queue.length = 0;
  shellStore.confirmation = null;
}
