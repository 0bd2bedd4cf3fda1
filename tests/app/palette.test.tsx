// The command palette: Ctrl+K opens it, typing filters, Enter runs, recent commands come first, a thousand
// commands render at most the cap, and records are found through the API and opened here or beside.
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { Command } from '../../commands/command.ts';
import { createCommandRegistry } from '../../commands/registry.ts';
import { createAppRegistry } from '../../src/app/app-registry.ts';
import { CommandPalette, paletteRenderCap } from '../../src/app/palette.tsx';
import { useShortcutBinder } from '../../src/app/shortcut-binder.ts';
import { startTypeahead } from '../../src/app/palette-typeahead.ts';
import { useAppServices } from '../../src/app/app-services.tsx';
import { contextStore } from '../../src/state/context-store.ts';
import { paletteStore } from '../../src/state/palette-store.ts';
import { permissionScope, setPermissions } from '../../src/state/session-store.ts';
import { shellStore } from '../../src/state/shell-store.ts';
import { currentLayout } from '../../src/state/workspace-store.ts';
import { createServices, fakeApi, merchantContext, renderWithServices, resetStores, signIn } from './support.tsx';

function Harness() {
  const { registry, commandServices } = useAppServices();
  useShortcutBinder(registry, commandServices);
  return <CommandPalette />;
}

const permissions = ['Mapi.Transactions.Read', 'Mapi.Users.Read', 'Portal.Tickets.Read', 'Portal.Tickets.Create'];

async function openPalette(user: ReturnType<typeof userEvent.setup>) {
  await user.keyboard('{Control>}k{/Control}');
  return screen.findByRole('combobox', { name: 'Command palette' });
}

/** Ctrl+K pressed (the palette opening) and `text` then Enter typed before the palette is mounted. */
function typeBeforeArrival(text: string) {
  shellStore.paletteOpen = true;
  startTypeahead();
  for (const key of [...text, 'Enter']) document.body.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true, cancelable: true }));
}

describe('command palette', () => {
  beforeEach(() => {
    resetStores();
    fakeApi();
    signIn({ permissions, context: merchantContext });
  });

  it('opens on Ctrl+K as a combobox with a listbox, lists only what the user may do', async () => {
    const user = userEvent.setup();
    renderWithServices(<Harness />);
    const input = await openPalette(user);
    await waitFor(() => expect(document.activeElement).toBe(input));
    const listbox = screen.getByRole('listbox');
    const titles = within(listbox)
      .getAllByRole('option')
      .map((option) => option.textContent ?? '');
    expect(titles.some((title) => title.startsWith('Go to transactions'))).toBe(true);
    expect(titles.some((title) => title.startsWith('Report bug'))).toBe(true);
    expect(titles.some((title) => title.startsWith('Go to billing'))).toBe(false);
    expect(titles.some((title) => title.startsWith('Export'))).toBe(false);
  });

  it('stays rendered while closed, out of reach, and follows a change made while it was closed', async () => {
    const user = userEvent.setup();
    renderWithServices(<Harness />);
    // Closed: the list is there (so Ctrl+K only reveals it) but hidden: no dialog, no combobox, nothing to focus.
    await waitFor(() => expect(document.querySelectorAll('[cmdk-item]').length).toBeGreaterThan(0));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(screen.queryByRole('combobox')).toBeNull();
    expect(screen.queryByRole('option')).toBeNull();
    // A permission goes and comes back while the palette is closed; each opening lists what is allowed then.
    act(() =>
      setPermissions(
        permissionScope(contextStore.applied).key,
        permissions.filter((permission) => permission !== 'Mapi.Users.Read'),
      ),
    );
    await openPalette(user);
    const titles = screen.getAllByRole('option').map((option) => option.textContent ?? '');
    expect(titles.some((title) => title.startsWith('Go to transactions'))).toBe(true);
    expect(titles.some((title) => title.startsWith('Go to users'))).toBe(false);
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('combobox')).toBeNull());
    // Closed, it keeps nothing of the user's: not the focus either.
    expect(document.querySelector('[cmdk-root]')?.contains(document.activeElement)).toBe(false);
    act(() => setPermissions(permissionScope(contextStore.applied).key, permissions));
    await openPalette(user);
    expect(screen.getAllByRole('option').some((option) => option.textContent?.startsWith('Go to users'))).toBe(true);
  });

  it('runs the first result of what was typed, Enter included, before the palette arrived', async () => {
    // Ctrl+K, then "go to users" and Enter while the palette's chunk is still loading: the keys are caught.
    typeBeforeArrival('go to users');
    renderWithServices(<Harness />);
    await waitFor(() => expect(currentLayout().paths).toEqual(['/users']));
    expect(shellStore.paletteOpen).toBe(false);
    expect(paletteStore.recent[0]).toBe('nav.users');
  });

  it('stays open on the query when nothing typed before its arrival matches a command', async () => {
    typeBeforeArrival('qzxv');
    renderWithServices(<Harness />);
    const input = await screen.findByRole('combobox', { name: 'Command palette' });
    await waitFor(() => expect((input as HTMLInputElement).value).toBe('qzxv'));
    expect(shellStore.paletteOpen).toBe(true);
    expect(currentLayout().paths).toEqual(['/dashboard']);
  });

  it('filters as you type and runs the chosen command with Enter', async () => {
    const user = userEvent.setup();
    renderWithServices(<Harness />);
    await openPalette(user);
    await user.keyboard('go to users');
    await waitFor(() => expect(screen.getAllByRole('option')[0]?.textContent).toMatch(/^Go to users/));
    await user.keyboard('{Enter}');
    expect(shellStore.paletteOpen).toBe(false);
    await waitFor(() => expect(currentLayout().paths).toEqual(['/users']));
    expect(paletteStore.recent[0]).toBe('nav.users');
  });

  it("holds an Enter typed while the areas' commands are on their way, then runs the first result for that query", async () => {
    const late = vi.fn();
    const areaCommand: Command = { id: 'test.lateArea', title: 'Reconcile the ledger', section: 'Navigation', keywords: [], run: late };
    const registry = createAppRegistry(undefined, [], { areasToCome: true });
    const user = userEvent.setup();
    renderWithServices(<Harness />, createServices({ registry }));
    await openPalette(user);
    await user.keyboard('reconcile the ledger{Enter}');
    // Nothing among the first screen's commands is run in its place, and the palette waits on the query.
    expect(late).not.toHaveBeenCalled();
    expect(shellStore.paletteOpen).toBe(true);
    expect(currentLayout().paths).toEqual(['/dashboard']);
    act(() => registry.registerAll([areaCommand]));
    await waitFor(() => expect(late).toHaveBeenCalledTimes(1));
    expect(shellStore.paletteOpen).toBe(false);
  });

  it('lists recently used commands first', async () => {
    paletteStore.recent = ['help.giveFeedback', 'nav.users'];
    const user = userEvent.setup();
    renderWithServices(<Harness />);
    await openPalette(user);
    const recent = screen.getByRole('group', { name: 'Recent' });
    expect(
      within(recent)
        .getAllByRole('option')
        .map((option) => option.textContent?.replace(/(Help|Navigation).*$/, '')),
    ).toEqual(['Give feedback', 'Go to users']);
    expect(screen.getAllByRole('option')[0]?.textContent).toMatch(/^Give feedback/);
  });

  it('opens beside with Shift+Enter', async () => {
    const user = userEvent.setup();
    renderWithServices(<Harness />);
    await openPalette(user);
    await user.keyboard('go to transactions');
    await waitFor(() => expect(screen.getAllByRole('option')[0]?.textContent).toMatch(/^Go to transactions/));
    await user.keyboard('{Shift>}{Enter}{/Shift}');
    await waitFor(() => expect(currentLayout()).toEqual({ paths: ['/dashboard', '/transactions'], focused: 1 }));
  });

  it('offers the favourite and recent contexts from the user settings', async () => {
    fakeApi({
      '/user-settings/ContextFavorites': () => ({ key: 'ContextFavorites', value: JSON.stringify([{ businessId: 'B2', businessName: 'Beta Retail' }]) }),
      '/user-settings/ContextRecent': () => ({
        key: 'ContextRecent',
        value: JSON.stringify([{ businessId: 'B1', merchantId: 'M1', businessName: 'Alpha Trading', merchantName: 'Alpha Online' }, { businessId: 'B3' }]),
      }),
    });
    const user = userEvent.setup();
    renderWithServices(<Harness />);
    await openPalette(user);
    await user.keyboard('switch to');
    // The applied context (B1/M1) is not offered again.
    await waitFor(() =>
      expect(screen.getAllByRole('option').map((option) => option.textContent?.replace(/Context.*$/, ''))).toEqual(['Switch to Beta Retail', 'Switch to B3']),
    );
  });

  it('renders at most the cap of a thousand matching commands, and stays quick', async () => {
    const many: Command[] = Array.from({ length: 1000 }, (_, index) => ({
      id: `bulk.c${index}`,
      title: `Bulk command ${index}`,
      section: 'Record',
      keywords: ['bulk'],
      run: vi.fn(),
    }));
    const registry = createCommandRegistry([...createAppRegistry().all(), ...many]);
    const user = userEvent.setup();
    renderWithServices(<Harness />, createServices({ registry }));
    await openPalette(user);
    await waitFor(() => expect(screen.getAllByRole('option')).toHaveLength(paletteRenderCap));
    const started = performance.now();
    await user.paste('bulk command 99');
    await waitFor(() => expect(screen.getAllByRole('option')[0]?.textContent).toMatch(/^Bulk command 99/));
    expect(screen.getAllByRole('option').length).toBeLessThanOrEqual(paletteRenderCap);
    expect(performance.now() - started).toBeLessThan(5000);
  }, 15_000);

  it('looks records up through the API and opens one, applying its context first', async () => {
    const api = fakeApi({
      '/search': () => ({
        results: [
          {
            kind: 'transaction',
            id: 'TX-1001',
            title: 'Transaction TX-1001',
            description: 'paid · GBP 12.00',
            path: '/transactions/TX-1001',
            context: { business: { id: 'B2', title: 'Beta' }, merchant: { id: 'M9', title: 'Beta Web' } },
          },
        ],
      }),
    });
    const user = userEvent.setup();
    renderWithServices(<Harness />);
    await openPalette(user);
    await user.keyboard('TX-1001');
    const records = await screen.findByRole('group', { name: 'Transactions' });
    expect(within(records).getByRole('option').textContent).toContain('Transaction TX-1001');
    expect(api.get).toHaveBeenCalledWith('/search', expect.objectContaining({ query: { term: 'TX-1001' }, handleErrors: false }));
    await user.click(within(records).getByRole('option'));
    await waitFor(() => expect(currentLayout().paths).toEqual(['/transactions/TX-1001']));
    expect(contextStore.applied.business?.id).toBe('B2');
    expect(contextStore.applied.merchant?.id).toBe('M9');
  }, 15_000);
});
