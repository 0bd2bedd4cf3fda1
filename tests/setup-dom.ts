// jsdom lacks layout APIs that cmdk and the virtualiser touch.
import { afterAll, afterEach, vi } from 'vitest';
import { cleanup, configure } from '@testing-library/react';

// findBy… and waitFor wait up to 10 s (the library's default is 1 s): a pane's first render in a file pays for its
// modules' first evaluation and the validation worker's start, which on a 2-core machine loaded by other work took 1.1–12 s. A passing
// wait returns as soon as its condition holds, so this costs nothing when things are quick.
configure({ asyncUtilTimeout: 10_000 });

class ResizeObserverStub {
  observe() {}
  unobserve() {}
  disconnect() {}
}
globalThis.ResizeObserver ??= ResizeObserverStub as unknown as typeof ResizeObserver;
Element.prototype.scrollIntoView ??= function scrollIntoView() {};

afterEach(() => cleanup());

// The web project runs without isolation (vitest.config.ts): the files of a worker share one jsdom window and one
// module graph. After each file, what a file can leave behind goes back to how a fresh page starts.
const startAddress = 'http://localhost:3000/';

afterAll(async () => {
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.unstubAllEnvs();
  // The stores, as the module graph has them now (a file that reset the modules left new instances behind).
  const [credentials, context, palette, session, shell, terminalChooser, ticketRequests, toasts, userActions, workspace] = await Promise.all([
    import('../src/auth/credentials-store.ts'),
    import('../src/state/context-store.ts'),
    import('../src/state/palette-store.ts'),
    import('../src/state/session-store.ts'),
    import('../src/state/shell-store.ts'),
    import('../src/state/terminal-chooser-store.ts'),
    import('../src/state/ticket-requests.ts'),
    import('../src/state/toast-store.ts'),
    import('../src/state/user-action-store.ts'),
    import('../src/state/workspace-store.ts'),
  ]);
  workspace.setHistoryWriter(null);
  credentials.credentialsStore.credentials = null;
  session.clearSessionProfile();
  // Also tells the other context stores of this worker (left by files that reset the modules) that no context is applied,
  // so none of them answers a later file's new store with an old context.
  context.clearContext();
  shell.resetShell();
  toasts.clearToasts();
  palette.paletteStore.recent = [];
  workspace.workspaceStore.panes = [];
  workspace.workspaceStore.focusedIndex = 0;
  workspace.workspaceStore.resizeRequest = null;
  terminalChooser.terminalChooserStore.question = null;
  ticketRequests.ticketRequestStore.request = null;
  userActions.userActionStore.request = null;
  // valtio tells its subscribers (the stores that persist themselves) after the current task: let them write, then
  // empty the storage they wrote to.
  await new Promise((settle) => setTimeout(settle, 0));
  localStorage.clear();
  sessionStorage.clear();
  document.head.innerHTML = '';
  document.body.innerHTML = '';
  document.title = '';
  window.history.replaceState(null, '', startAddress);
});
