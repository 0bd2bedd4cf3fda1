// The workspace: a row of up to four panes. Each pane shows one route; the focused pane owns the address
// bar. The store is the source of truth; a history writer (set by the shell) mirrors it into the URL.
import { proxy } from 'valtio';
import { requestConfirmation } from './shell-store.ts';
import { showToast } from './toast-store.ts';
import { decodeWorkspace, encodeWorkspace, isPanePath, maxPanes, stripPanesParam, type WorkspaceLayout } from './workspace-url.ts';

// 'rows': a table's row cursor (j / k / Enter), the contract's tableRowsCapability.
export const paneCapabilities = [
  'search',
  'tabs',
  'date',
  'filters',
  'export',
  'columns',
  'edit',
  'newItem',
  'rows',
  // 'save' and 'delete': a screen's record form saves, its record is deleted (after its confirmation)
  'save',
  'delete',
  // payment job detail: declared only while the focused job allows the action
  'capture',
  'refund',
  'void',
  'cancelJob',
  'mailPaymentLink',
  'expireLink',
  'viewTrace',
  // payment jobs overview: its status tabs (argument: 0 all, then the index in paymentJobTabs + 1)
  'statusTab',
  // risk area: a record's own actions, offered by its screen and asked for by its commands
  'acknowledge',
  'monitor',
  'addNote',
  'approve',
  'resolveAlert',
  'exportRecord',
  'eraseRecord',
  // virtual terminal: the order form and its settings
  'submitOrder',
  'removeOrderLine',
  'newOrder',
  'openOrderResult',
  'saveSettings',
  // … and a declined order's second attempt (argument 1: with another card)
  'retryDeclined',
  // billing: an invoice's actions, and the billing screen's run tab
  'downloadInvoice',
  'markPaid',
  'creditNote',
  'runBilling',
  // selection and bulk actions: x / Shift+x (argument 1: range), all matching, clear, a bulk action by index
  'selectRow',
  'selectAllMatching',
  'clearSelection',
  'bulkAction',
  // watch list: escalate the focused entry to a support ticket
  'escalate',
  // notifications inbox and an open notification: mark the focused (or open) one as read or unread
  'toggleRead',
  // hosted page editor: the preview's width (argument: index in previewWidths) and removing the logo
  'previewWidth',
  'removeLogo',
  // scheduled statements: a statement's 'Schedule statement…'; 'Run now' on the current schedule of My report queue
  'schedule',
  'runSchedule',
  // settlement details: a batch's, or a month's on the batch report ('Download settlement details (CSV/XLSX)…')
  'settlementDetails',
] as const;
export type PaneCapability = (typeof paneCapabilities)[number];

export type PaneRequest = { capability: PaneCapability; argument?: number; seq: number };

export type Pane = {
  id: string;
  /** pathname + the pane's own query */
  path: string;
  /** what the pane's screen supports, declared by the screen while mounted */
  capabilities: PaneCapability[];
  /** the last request a command made of this pane's screen */
  request: PaneRequest | null;
  /** the screen holds unsaved changes */
  dirty: boolean;
};

export type ResizeRequest = { paneId: string; deltaPercent: number; seq: number };

export const workspaceStore = proxy({
  panes: [] as Pane[],
  focusedIndex: 0,
  resizeRequest: null as ResizeRequest | null,
});

export type HistoryMode = 'push' | 'replace';
type HistoryWriter = (url: string, mode: HistoryMode) => void;
let historyWriter: HistoryWriter | null = null;
let nextPaneId = 1;
let nextSeq = 1;

/** The shell mirrors the layout into the address bar; tests leave it unset. */
export function setHistoryWriter(writer: HistoryWriter | null): void {
  historyWriter = writer;
}

function newPane(path: string): Pane {
  return { id: `pane-${nextPaneId++}`, path, capabilities: [], request: null, dirty: false };
}

export function currentLayout(): WorkspaceLayout {
  return { paths: workspaceStore.panes.map((pane) => pane.path), focused: workspaceStore.focusedIndex };
}

export function workspaceUrl(): string {
  return encodeWorkspace(currentLayout());
}

function commit(mode: HistoryMode): void {
  historyWriter?.(workspaceUrl(), mode);
}

/** Replaces the layout (from the URL on load, back/forward or a link), keeping panes whose path is unchanged. */
export function loadLayout(layout: WorkspaceLayout, mode: HistoryMode | null = null): void {
  const previous = workspaceStore.panes;
  const used = new Set<string>();
  workspaceStore.panes = layout.paths.map((path, index) => {
    const same = previous[index]?.path === path ? previous[index] : previous.find((pane) => pane.path === path && !used.has(pane.id));
    if (same && !used.has(same.id)) {
      used.add(same.id);
      return same;
    }
    // The same pane shows another path (Back from a detail to its list): it stays the same pane, as a navigation
    // inside it does, so what the pane remembers (the list's cursor row) is there again.
    const moved = previous[index];
    if (moved && !used.has(moved.id) && !layout.paths.includes(moved.path)) {
      used.add(moved.id);
      moved.path = path;
      moved.request = null;
      return moved;
    }
    return newPane(path);
  });
  workspaceStore.focusedIndex = Math.min(Math.max(0, layout.focused), workspaceStore.panes.length - 1);
  if (mode) commit(mode);
}

export function loadUrl(url: string): void {
  loadLayout(decodeWorkspace(url));
}

export function focusedPane(): Pane | undefined {
  return workspaceStore.panes[workspaceStore.focusedIndex];
}

function indexOf(paneId: string): number {
  return workspaceStore.panes.findIndex((pane) => pane.id === paneId);
}

async function mayLeave(pane: Pane): Promise<boolean> {
  if (!pane.dirty) return true;
  const leave = await requestConfirmation('leaveForm');
  if (leave) pane.dirty = false;
  return leave;
}

/** Shows a path in a pane (the focused one by default). Resolves false when the user chose to stay. */
export async function navigatePane(path: string, options: { paneId?: string; replace?: boolean } = {}): Promise<boolean> {
  if (!isPanePath(path)) return false;
  const index = options.paneId ? indexOf(options.paneId) : workspaceStore.focusedIndex;
  const pane = workspaceStore.panes[index];
  if (!pane) return false;
  const target = stripPanesParam(path);
  if (pane.path === target) {
    if (workspaceStore.focusedIndex !== index) focusPane(index);
    return true;
  }
  if (!(await mayLeave(pane))) return false;
  pane.path = target;
  pane.request = null;
  workspaceStore.focusedIndex = index;
  commit(options.replace ? 'replace' : 'push');
  return true;
}

/** Opens a path in a new pane at the right end of the row (panes stand in the order they were opened) and focuses it. */
export function openBeside(path: string, options: { afterPaneId?: string } = {}): boolean {
  if (!isPanePath(path)) return false;
  if (workspaceStore.panes.length >= maxPanes) {
    showToast({ kind: 'info', message: `Up to ${maxPanes} panes fit side by side. Close one to open another.` });
    return false;
  }
  void options;
  const insertAt = workspaceStore.panes.length;
  const panes = [...workspaceStore.panes];
  panes.splice(insertAt, 0, newPane(stripPanesParam(path)));
  workspaceStore.panes = panes;
  workspaceStore.focusedIndex = insertAt;
  commit('push');
  return true;
}

export async function closePane(paneId?: string): Promise<boolean> {
  if (workspaceStore.panes.length <= 1) return false;
  const index = paneId ? indexOf(paneId) : workspaceStore.focusedIndex;
  const pane = workspaceStore.panes[index];
  if (!pane) return false;
  if (!(await mayLeave(pane))) return false;
  const focused = workspaceStore.focusedIndex;
  workspaceStore.panes = workspaceStore.panes.filter((candidate) => candidate.id !== pane.id);
  workspaceStore.focusedIndex = focused > index || focused === workspaceStore.panes.length ? Math.max(0, focused - 1) : focused;
  commit('push');
  return true;
}

export function focusPane(index: number): void {
  if (index < 0 || index >= workspaceStore.panes.length || index === workspaceStore.focusedIndex) return;
  workspaceStore.focusedIndex = index;
  commit('replace');
}

export function focusPaneById(paneId: string): void {
  focusPane(indexOf(paneId));
}

export function focusNextPane(step: 1 | -1): void {
  const count = workspaceStore.panes.length;
  if (count < 2) return;
  focusPane((workspaceStore.focusedIndex + step + count) % count);
}

export function moveFocusedPane(step: 1 | -1): void {
  const from = workspaceStore.focusedIndex;
  const to = from + step;
  if (to < 0 || to >= workspaceStore.panes.length) return;
  const panes = [...workspaceStore.panes];
  const [moved] = panes.splice(from, 1);
  if (!moved) return;
  panes.splice(to, 0, moved);
  workspaceStore.panes = panes;
  workspaceStore.focusedIndex = to;
  commit('replace');
}

export function requestResize(deltaPercent: number): void {
  const pane = focusedPane();
  if (!pane || workspaceStore.panes.length < 2) return;
  workspaceStore.resizeRequest = { paneId: pane.id, deltaPercent, seq: nextSeq++ };
}

export function setPaneCapabilities(paneId: string, capabilities: PaneCapability[]): void {
  const pane = workspaceStore.panes[indexOf(paneId)];
  if (pane) pane.capabilities = capabilities;
}

export function setPaneDirty(paneId: string, dirty: boolean): void {
  const pane = workspaceStore.panes[indexOf(paneId)];
  if (pane && pane.dirty !== dirty) pane.dirty = dirty;
}

/** Asks the focused pane's screen to do something it declared (open its filters, export…). */
export function sendPaneRequest(capability: PaneCapability, argument?: number): void {
  const pane = focusedPane();
  if (!pane?.capabilities.includes(capability)) return;
  pane.request = argument === undefined ? { capability, seq: nextSeq++ } : { capability, argument, seq: nextSeq++ };
}
