// The `?` dialog lists every shortcut available right now, grouped by section, filterable by typing; the
// binder never fires shortcuts while typing in a field, Escape aside.
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { useAppServices } from '../../src/app/app-services.tsx';
import { ShortcutHelpDialog } from '../../src/app/shortcut-help-dialog.tsx';
import { useShortcutBinder } from '../../src/app/shortcut-binder.ts';
import { shellStore } from '../../src/state/shell-store.ts';
import { currentLayout, setPaneCapabilities, workspaceStore } from '../../src/state/workspace-store.ts';
import { fakeApi, merchantContext, renderWithServices, resetStores, signIn } from './support.tsx';

function Harness() {
  const { registry, commandServices } = useAppServices();
  useShortcutBinder(registry, commandServices);
  return (
    <>
      <label>Notes <input aria-label="Notes" /></label>
      <ShortcutHelpDialog />
    </>
  );
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
    const headings = within(dialog).getAllByRole('heading', { level: 3 }).map((heading) => heading.textContent);
    expect(headings).toEqual(['Navigation', 'Workspace', 'Help']);
    const navigation = within(dialog).getByRole('region', { name: 'Navigation' });
    expect(within(navigation).getByText('Go to transactions')).toBeTruthy();
    expect(within(navigation).queryByText('Go to users')).toBeNull();
    const workspace = within(dialog).getByRole('region', { name: 'Workspace' });
    expect(within(workspace).getByText('Focus next pane')).toBeTruthy();
    expect(within(dialog).queryByText('Export…')).toBeNull();
  });

  it('shows pane shortcuts once the focused pane declares them', async () => {
    workspaceStore.focusedIndex = 1;
    setPaneCapabilities(workspaceStore.panes[1]?.id ?? '', ['export', 'filters', 'date', 'tabs']);
    shellStore.shortcutHelpOpen = true;
    renderWithServices(<Harness />);
    const dialog = await screen.findByRole('dialog', { name: 'Keyboard shortcuts' });
    const table = within(dialog).getByRole('region', { name: 'Table' });
    expect(within(table).getAllByRole('listitem').map((item) => item.textContent)).toEqual(['Export…ShiftX', 'Show filtersShiftF', 'Choose datesShiftD']);
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
    await waitFor(() => expect(within(dialog).getAllByRole('heading', { level: 3 }).map((heading) => heading.textContent)).toEqual(['Workspace']));
    await user.clear(filter);
    await user.type(filter, 'zzzz');
    expect(within(dialog).getByText('No shortcut matches “zzzz”.')).toBeTruthy();
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

  it('lets Escape through from a field', async () => {
    const user = userEvent.setup();
    shellStore.paletteOpen = true;
    renderWithServices(<Harness />);
    await user.click(screen.getByRole('textbox', { name: 'Notes' }));
    await user.keyboard('{Escape}');
    expect(shellStore.paletteOpen).toBe(false);
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
