// What the two workspace layouts share: the resize arithmetic, and the panes' host elements. Each pane renders
// (through a portal) into a host element of its own, and a layout only places that element in one of its slots,
// so switching from one pane (a plain row) to several (react-resizable-panels, loaded only then) moves elements
// without remounting a pane: its state, focus and scroll positions stay.

import { workspaceStore } from '../state/workspace-store.ts';

export const minPanePercent = 15;

/** The new layout after moving the focused pane's edge by `delta` percent (pure; the neighbour gives or takes). */
export function resizedLayout(layout: Record<string, number>, order: readonly string[], paneId: string, delta: number): Record<string, number> {
  const index = order.indexOf(paneId);
  if (index === -1 || order.length < 2) return layout;
  const neighbourId = order[index + 1] ?? order[index - 1];
  if (!neighbourId) return layout;
  const own = layout[paneId] ?? 100 / order.length;
  const neighbour = layout[neighbourId] ?? 100 / order.length;
  const clamped = Math.max(minPanePercent - own, Math.min(delta, neighbour - minPanePercent));
  return { ...layout, [paneId]: own + clamped, [neighbourId]: neighbour - clamped };
}

const isFocusedPane = (paneId: string) => workspaceStore.panes[workspaceStore.focusedIndex]?.id === paneId;

const hosts = new Map<string, HTMLDivElement>();
/** What a host held when it left its slot: the element with focus and every scrolled element's offsets. */
const saved = new Map<string, { focused: HTMLElement | null; scrolled: [Element, number, number][] }>();

export function paneHost(paneId: string): HTMLDivElement {
  let host = hosts.get(paneId);
  if (!host) {
    host = document.createElement('div');
    host.className = 'pane-host';
    hosts.set(paneId, host);
  }
  return host;
}

export function releasePaneHost(paneId: string): void {
  hosts.get(paneId)?.remove();
  hosts.delete(paneId);
  saved.delete(paneId);
  slotRefs.delete(paneId);
}

function remember(paneId: string, host: HTMLElement): void {
  const active = document.activeElement;
  const scrolled: [Element, number, number][] = [];
  for (const element of host.querySelectorAll('*')) {
    if (element.scrollTop !== 0 || element.scrollLeft !== 0) scrolled.push([element, element.scrollTop, element.scrollLeft]);
  }
  saved.set(paneId, { focused: active instanceof HTMLElement && host.contains(active) ? active : null, scrolled });
}

function restore(paneId: string, host: HTMLElement): void {
  const state = saved.get(paneId);
  saved.delete(paneId);
  if (!state) return;
  for (const [element, top, left] of state.scrolled) {
    if (host.contains(element)) element.scrollTo({ top, left });
  }
  // The focus goes back only to the pane that still owns it: a pane opened beside takes the focus as the row
  // switches layouts, and the pane that had it must not take it back.
  if (state.focused && host.contains(state.focused) && isFocusedPane(paneId)) state.focused.focus({ preventScroll: true });
}

type SlotRef = (slot: HTMLDivElement | null) => (() => void) | undefined;
const slotRefs = new Map<string, SlotRef>();

/**
 * A ref callback for a layout's slot (the same function for a pane on every render, so React calls it only when
 * a slot comes or goes): puts the pane's host in the slot, and takes it out, remembering its state, on the way out.
 */
export function slotRef(paneId: string): SlotRef {
  let ref = slotRefs.get(paneId);
  if (!ref) {
    ref = (slot) => {
      if (!slot) return undefined;
      const host = paneHost(paneId);
      if (host.parentElement !== slot) {
        slot.append(host);
        restore(paneId, host);
      }
      return () => {
        if (host.parentElement === slot) remember(paneId, host);
      };
    };
    slotRefs.set(paneId, ref);
  }
  return ref;
}
