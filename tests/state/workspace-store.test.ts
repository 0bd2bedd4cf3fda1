// The workspace's actions: open beside, close, focus, move, the cap, and the leave-form guard.
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { resolveConfirmation, shellStore } from '../../src/state/shell-store.ts';
import { toastStore } from '../../src/state/toast-store.ts';
import {
  closePane,
  currentLayout,
  focusNextPane,
  loadLayout,
  moveFocusedPane,
  navigatePane,
  openBeside,
  requestResize,
  sendPaneRequest,
  setHistoryWriter,
  setPaneCapabilities,
  setPaneDirty,
  workspaceStore,
  workspaceUrl,
} from '../../src/state/workspace-store.ts';
import { resetStores } from '../app/support.tsx';

describe('workspace store', () => {
  const writes: [string, string][] = [];
  beforeEach(() => {
    resetStores();
    writes.length = 0;
    setHistoryWriter((url, mode) => writes.push([url, mode]));
    loadLayout({ paths: ['/dashboard'], focused: 0 });
  });

  it('opens a new pane at the right end, in the order opened, whichever pane has the focus', () => {
    openBeside('/transactions');
    openBeside('/users');
    focusNextPane(1);
    expect(workspaceStore.focusedIndex).toBe(0);
    openBeside('/tickets');
    expect(currentLayout()).toEqual({ paths: ['/dashboard', '/transactions', '/users', '/tickets'], focused: 3 });
  });

  it('opens a pane beside the focused one, focuses it and pushes the URL', () => {
    openBeside('/transactions');
    expect(currentLayout()).toEqual({ paths: ['/dashboard', '/transactions'], focused: 1 });
    expect(writes.at(-1)).toEqual(['/transactions?panes=%2Fdashboard,_', 'push']);
  });

  it('refuses a fifth pane with a message', () => {
    for (const path of ['/a', '/b', '/c']) openBeside(path);
    expect(openBeside('/e')).toBe(false);
    expect(workspaceStore.panes).toHaveLength(4);
    expect(toastStore.toasts.at(-1)?.message).toMatch(/Up to 4 panes/);
  });

  it('moves focus around (wrapping) with replace, and moves panes', () => {
    openBeside('/transactions');
    openBeside('/users');
    focusNextPane(1);
    expect(workspaceStore.focusedIndex).toBe(0);
    expect(writes.at(-1)?.[1]).toBe('replace');
    focusNextPane(-1);
    expect(workspaceStore.focusedIndex).toBe(2);
    moveFocusedPane(-1);
    expect(currentLayout()).toEqual({ paths: ['/dashboard', '/users', '/transactions'], focused: 1 });
  });

  it('closes the focused pane and focuses its neighbour; the last pane stays', async () => {
    openBeside('/transactions');
    await closePane();
    expect(currentLayout()).toEqual({ paths: ['/dashboard'], focused: 0 });
    expect(await closePane()).toBe(false);
  });

  it('navigates the focused pane and keeps the pane identity', async () => {
    const id = workspaceStore.panes[0]?.id;
    await navigatePane('/users?panes=%2Fx,_');
    expect(workspaceStore.panes[0]).toMatchObject({ id, path: '/users' });
    expect(workspaceUrl()).toBe('/users');
  });

  it('asks before leaving a pane with unsaved changes: stay keeps it, leave goes', async () => {
    const paneId = workspaceStore.panes[0]?.id ?? '';
    setPaneDirty(paneId, true);
    const staying = navigatePane('/users');
    await vi.waitFor(() => expect(shellStore.confirmation?.kind).toBe('leaveForm'));
    resolveConfirmation(shellStore.confirmation?.id ?? 0, false);
    expect(await staying).toBe(false);
    expect(workspaceStore.panes[0]?.path).toBe('/dashboard');

    const leaving = navigatePane('/users');
    await vi.waitFor(() => expect(shellStore.confirmation).not.toBeNull());
    resolveConfirmation(shellStore.confirmation?.id ?? 0, true);
    expect(await leaving).toBe(true);
    expect(workspaceStore.panes[0]?.path).toBe('/users');
  });

  it('sends requests only to a pane that declared the capability', () => {
    const paneId = workspaceStore.panes[0]?.id ?? '';
    sendPaneRequest('export');
    expect(workspaceStore.panes[0]?.request).toBeNull();
    setPaneCapabilities(paneId, ['export']);
    sendPaneRequest('export');
    expect(workspaceStore.panes[0]?.request).toMatchObject({ capability: 'export' });
  });

  it('records resize requests for the focused pane only when there is a neighbour', () => {
    requestResize(10);
    expect(workspaceStore.resizeRequest).toBeNull();
    openBeside('/users');
    requestResize(10);
    expect(workspaceStore.resizeRequest).toMatchObject({ paneId: workspaceStore.panes[1]?.id, deltaPercent: 10 });
  });
});
