// The `?` dialog lists every shortcut available right now, grouped by section, filterable by typing; the
// binder never fires shortcuts while typing in a field, Escape aside.
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { useAppServices } from '../../src/app/app-services.tsx';
import { ShortcutHelpDialog } from '../../src/app/shortcut-help-dialog.tsx';
import type { Command } from '../../commands/command.ts';
import { createAppRegistry } from '../../src/app/app-registry.ts';
import { sequenceTimeoutMs, useShortcutBinder } from '../../src/app/shortcut-binder.ts';
import { contextStore } from '../../src/state/context-store.ts';
import { permissionScope, sessionStore, setPermissions } from '../../src/state/session-store.ts';
import { shellStore } from '../../src/state/shell-store.ts';
import { currentLayout, setPaneCapabilities, workspaceStore } from '../../src/state/workspace-store.ts';
import { createServices, fakeApi, merchantContext, renderWithServices, resetStores, signIn } from './support.tsx';

function Harness() {
  const { registry, commandServices } = useAppServices();
  useShortcutBinder(registry, commandServices);
  return (
    <>
      <label>
        Notes <input aria-label="Notes" />
      </label>
      <ShortcutHelpDialog />
    </>
  );
}

/** Binds the shortcuts of the services it renders under; `onUnbound` hears of a key that ran nothing. */
function Binder({ onUnbound }: { onUnbound: () => void }) {
  const { registry, commandServices } = useAppServices();
  useShortcutBinder(registry, commandServices, onUnbound);
  return null;
}

describe('keyboard shortcut help', () => {
  beforeEach(() => {
    resetStores();
    fakeApi();
    signIn({ permissions: ['Mapi.Transactions.Read'], context: merchantContext, paths: ['/dashboard', '/transactions'] });
  });

  it('opens with ? and lists the available shortcuts by section', async () => {
    const user = userEvent.setup();
    renderWithServices(<Harness />);
    await user.keyboard('?');
    const dialog = await screen.findByRole('dialog', { name: 'Keyboard shortcuts' });
    const headings = within(dialog)
      .getAllByRole('heading', { level: 3 })
      .map((heading) => heading.textContent);
    expect(headings).toEqual(['Navigation', 'Workspace', 'Help', 'Search fields (in the palette, Ctrl+K)']);
    // The palette's fields are listed, a card's last four and first six among them.
    const fields = within(dialog).getByRole('region', { name: 'Search fields (in the palette, Ctrl+K)' });
    expect(within(fields).getByText('last4:')).toBeTruthy();
    expect(within(fields).getByText('bin:')).toBeTruthy();
    expect(within(fields).getByText('4242 · 424242')).toBeTruthy();
    const navigation = within(dialog).getByRole('region', { name: 'Navigation' });
    expect(within(navigation).getByText('Go to transactions')).toBeTruthy();
    expect(within(navigation).queryByText('Go to users')).toBeNull();
    const workspace = within(dialog).getByRole('region', { name: 'Workspace' });
    expect(within(workspace).getByText('Focus next pane')).toBeTruthy();
    // The side menu's key, not `[`, which turns the page.
    const collapse = within(workspace).getByText('Collapse or expand the side menu').closest('li');
    expect(collapse?.textContent?.replace('Collapse or expand the side menu', '')).toMatch(/^(Ctrl|⌃)\+?B$/);
    expect(within(dialog).queryByText('Export…')).toBeNull();
  });

  it('shows pane shortcuts once the focused pane declares them', async () => {
    workspaceStore.focusedIndex = 1;
    setPaneCapabilities(workspaceStore.panes[1]?.id ?? '', ['export', 'filters', 'date', 'tabs']);
    shellStore.shortcutHelpOpen = true;
    renderWithServices(<Harness />);
    const dialog = await screen.findByRole('dialog', { name: 'Keyboard shortcuts' });
    const table = within(dialog).getByRole('region', { name: 'Table' });
    expect(
      within(table)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['Export…ShiftX', 'Show filtersShiftF', 'Choose datesShiftD']);
    expect(within(within(dialog).getByRole('region', { name: 'Record' })).getByText('Show first tab')).toBeTruthy();
  });

  it('filters by typing', async () => {
    const user = userEvent.setup();
    shellStore.shortcutHelpOpen = true;
    renderWithServices(<Harness />);
    const filter = await screen.findByRole('searchbox', { name: 'Filter shortcuts' });
    await waitFor(() => expect(document.activeElement).toBe(filter));
    await user.type(filter, 'pane');
    const dialog = screen.getByRole('dialog', { name: 'Keyboard shortcuts' });
    await waitFor(() =>
      expect(
        within(dialog)
          .getAllByRole('heading', { level: 3 })
          .map((heading) => heading.textContent),
      ).toEqual(['Workspace']),
    );
    await user.clear(filter);
    await user.type(filter, 'zzzz');
    expect(within(dialog).getByText('No shortcut matches “zzzz”.')).toBeTruthy();
  });

  it('lists the list keys of the pane under it, j / k / Enter / Shift+Enter and the table keys included', async () => {
    workspaceStore.focusedIndex = 1;
    setPaneCapabilities(workspaceStore.panes[1]?.id ?? '', ['rows']);
    shellStore.shortcutHelpOpen = true;
    renderWithServices(<Harness />);
    const dialog = await screen.findByRole('dialog', { name: 'Keyboard shortcuts' });
    const table = within(dialog).getByRole('region', { name: 'Table' });
    expect(
      within(table)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['Next rowJ', 'Previous rowK', 'Open the highlighted rowEnter', 'Open the highlighted row in a new pane besideShiftEnter']);
    const list = within(dialog).getByRole('region', { name: 'In a list' });
    expect(within(list).getByText('Last row; on the last row, the next page')).toBeTruthy();
    expect(within(list).getByText('Ten rows down; at the end of the page, the next page')).toBeTruthy();
  });

  it('closes on Escape', async () => {
    const user = userEvent.setup();
    shellStore.shortcutHelpOpen = true;
    renderWithServices(<Harness />);
    await screen.findByRole('dialog', { name: 'Keyboard shortcuts' });
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(shellStore.shortcutHelpOpen).toBe(false);
  });
});

describe('shortcut binder', () => {
  beforeEach(() => {
    resetStores();
    fakeApi();
    signIn({ permissions: ['Mapi.Transactions.Read'], context: merchantContext, paths: ['/dashboard'] });
  });

  it('runs go-to sequences, but not while typing in a field', async () => {
    const user = userEvent.setup();
    renderWithServices(<Harness />);
    await user.click(screen.getByRole('textbox', { name: 'Notes' }));
    await user.keyboard('gt');
    expect(currentLayout().paths).toEqual(['/dashboard']);
    await user.click(document.body);
    (document.activeElement as HTMLElement | null)?.blur();
    await user.keyboard('gt');
    await waitFor(() => expect(currentLayout().paths).toEqual(['/transactions']));
  });

  it('opens the palette with Ctrl+K from a field, where single keys type', async () => {
    const user = userEvent.setup();
    renderWithServices(<Harness />);
    await user.click(screen.getByRole('textbox', { name: 'Notes' }));
    await user.keyboard('k');
    expect(shellStore.paletteOpen).toBe(false);
    await user.keyboard('{Control>}k{/Control}');
    await waitFor(() => expect(shellStore.paletteOpen).toBe(true));
  });

  it('lets Escape through from a field', async () => {
    const user = userEvent.setup();
    shellStore.paletteOpen = true;
    renderWithServices(<Harness />);
    await user.click(screen.getByRole('textbox', { name: 'Notes' }));
    await user.keyboard('{Escape}');
    expect(shellStore.paletteOpen).toBe(false);
  });

  it('waits two seconds for the second key of a sequence', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    try {
      renderWithServices(<Harness />);
      fireEvent.keyDown(document.body, { key: 'g', code: 'KeyG' });
      act(() => {
        vi.advanceTimersByTime(1800);
      });
      fireEvent.keyDown(document.body, { key: 't', code: 'KeyT' });
    } finally {
      vi.useRealTimers();
    }
    await waitFor(() => expect(currentLayout().paths).toEqual(['/transactions']));
  });

  it('splits and moves between panes from the keyboard', async () => {
    const user = userEvent.setup();
    renderWithServices(<Harness />);
    await user.keyboard('{Control>}{Backslash}{/Control}');
    expect(currentLayout()).toEqual({ paths: ['/dashboard', '/dashboard'], focused: 1 });
    await user.keyboard('{Control>}{BracketLeft}{/Control}');
    expect(currentLayout().focused).toBe(0);
    await user.keyboard('{Alt>}w{/Alt}');
    expect(currentLayout()).toEqual({ paths: ['/dashboard'], focused: 0 });
  });
});

describe("the shortcut binder while the areas' commands arrive", () => {
  beforeEach(() => {
    resetStores();
    fakeApi();
    signIn({ permissions: ['Mapi.Transactions.Read'], context: merchantContext, paths: ['/dashboard'] });
  });

  function sequenceCommand(id: string, shortcut: string, run: () => void): Command {
    return { id, title: id, section: 'Help', keywords: [], shortcut, when: (ctx) => ctx.signedIn, run };
  }

  it('ends a sequence begun before they came (G, the commands arrive, then J), and the replay runs nothing', async () => {
    const early = vi.fn();
    const single = vi.fn();
    const services = createServices({ registry: createAppRegistry(undefined, [sequenceCommand('test.early', 'g q', early)]) });
    renderWithServices(<Harness />, services);
    fireEvent.keyDown(window, { key: 'z', code: 'KeyZ' });
    fireEvent.keyDown(window, { key: 'g', code: 'KeyG' });
    // A later command bound to a key already pressed must not run from the replay.
    act(() => services.registry.registerAll([sequenceCommand('test.single', 'z', single)]));
    fireEvent.keyDown(window, { key: 'q', code: 'KeyQ' });
    expect(early).toHaveBeenCalledTimes(1);
    expect(single).not.toHaveBeenCalled();
  });

  it('runs a key that ran nothing when its command arrives within a second, once, and asks for the commands at once', async () => {
    const late = vi.fn();
    const unbound = vi.fn();
    const services = createServices({ registry: createAppRegistry(undefined, []) });
    renderWithServices(<Binder onUnbound={unbound} />, services);
    fireEvent.keyDown(window, { key: 'y', code: 'KeyY' });
    expect(unbound).toHaveBeenCalledTimes(1);
    act(() => services.registry.registerAll([sequenceCommand('test.late', 'y', late)]));
    expect(late).toHaveBeenCalledTimes(1);
    // Bound now: the next y runs it directly and asks for nothing.
    fireEvent.keyDown(window, { key: 'y', code: 'KeyY' });
    expect(late).toHaveBeenCalledTimes(2);
    expect(unbound).toHaveBeenCalledTimes(1);
  });

  // Enter on a dialog's button applies the dialog; the dialog closes, and Enter must not then open a table's row too.
  it('does not run Enter that a focused button took, when its command arrives within the second; a letter it still runs', async () => {
    const late = vi.fn();
    const letter = vi.fn();
    const services = createServices({ registry: createAppRegistry(undefined, []) });
    renderWithServices(<Binder onUnbound={() => undefined} />, services);
    const button = document.createElement('button');
    document.body.append(button);
    button.focus();
    fireEvent.keyDown(button, { key: 'Enter', code: 'Enter' });
    button.remove();
    act(() => services.registry.registerAll([sequenceCommand('test.late', 'Enter', late)]));
    expect(late).not.toHaveBeenCalled();
    const link = document.createElement('a');
    link.href = '/transactions/TX1';
    document.body.append(link);
    link.focus();
    fireEvent.keyDown(link, { key: 'y', code: 'KeyY' });
    link.remove();
    act(() => services.registry.registerAll([sequenceCommand('test.letter', 'y', letter)]));
    expect(letter).toHaveBeenCalledTimes(1);
  });

  it('does not run an unbound key once another key followed it', async () => {
    const late = vi.fn();
    const services = createServices({ registry: createAppRegistry(undefined, []) });
    renderWithServices(<Harness />, services);
    fireEvent.keyDown(window, { key: 'y', code: 'KeyY' });
    fireEvent.keyDown(window, { key: 'z', code: 'KeyZ' });
    act(() => services.registry.registerAll([sequenceCommand('test.late', 'y', late)]));
    expect(late).not.toHaveBeenCalled();
  });

  it("runs a sequence completed while the applied context's permissions were on their way once they arrive, unless another key came", async () => {
    const run = vi.fn();
    const guarded: Command = { ...sequenceCommand('test.guarded', 'g q', run), permissions: ['Mapi.Transactions.Read'] };
    const services = createServices({ registry: createAppRegistry(undefined, [guarded]) });
    const scopeKey = permissionScope(contextStore.applied).key;
    sessionStore.permissions = {};
    renderWithServices(<Harness />, services);
    fireEvent.keyDown(window, { key: 'g', code: 'KeyG' });
    fireEvent.keyDown(window, { key: 'q', code: 'KeyQ' });
    expect(run).not.toHaveBeenCalled();
    act(() => setPermissions(scopeKey, ['Mapi.Transactions.Read']));
    await waitFor(() => expect(run).toHaveBeenCalledTimes(1));

    // Another key after the sequence: the person moved on; nothing runs when the permissions come.
    sessionStore.permissions = {};
    fireEvent.keyDown(window, { key: 'g', code: 'KeyG' });
    fireEvent.keyDown(window, { key: 'q', code: 'KeyQ' });
    fireEvent.keyDown(window, { key: 'z', code: 'KeyZ' });
    act(() => setPermissions(scopeKey, ['Mapi.Transactions.Read']));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(run).toHaveBeenCalledTimes(1);
  });

  it('forgets keys older than the sequence timeout', async () => {
    vi.useFakeTimers({ toFake: ['performance', 'setTimeout', 'clearTimeout'] });
    try {
      const early = vi.fn();
      const services = createServices({ registry: createAppRegistry(undefined, [sequenceCommand('test.early', 'g q', early)]) });
      renderWithServices(<Harness />, services);
      fireEvent.keyDown(window, { key: 'g', code: 'KeyG' });
      vi.advanceTimersByTime(sequenceTimeoutMs + 10);
      act(() => services.registry.registerAll([sequenceCommand('test.other', 'g w', vi.fn())]));
      fireEvent.keyDown(window, { key: 'q', code: 'KeyQ' });
      expect(early).not.toHaveBeenCalled();
    } finally {
      vi.useRealTimers();
    }
  });
});
