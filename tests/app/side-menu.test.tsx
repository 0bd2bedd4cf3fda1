// The side menu: documented order, links for single entries, sections that expand and collapse; the open
// section closes on Escape (focus back on its button) or a click outside.
import { act, fireEvent, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { useAppServices } from '../../src/app/app-services.tsx';
import { useShortcutBinder } from '../../src/app/shortcut-binder.ts';
import { SideMenu } from '../../src/app/side-menu.tsx';
import { shellStore } from '../../src/state/shell-store.ts';
import { fakeApi, merchantContext, renderWithServices, resetStores, signIn } from './support.tsx';

describe('side menu', () => {
  beforeEach(() => {
    resetStores();
    fakeApi();
    signIn({
      permissions: ['Mapi.Transactions.Read', 'Mapi.MerchantAccountGroups.Read', 'Portal.Reports.Create', 'Mapi.Users.Read'],
      context: merchantContext,
      paths: ['/transactions'],
    });
  });

  it('lists the permitted sections in order, marking the current one', () => {
    renderWithServices(<SideMenu />);
    const menu = screen.getByRole('navigation', { name: 'Main menu' });
    const top = within(menu)
      .getAllByRole('listitem')
      .filter((item) => item.parentElement?.classList.contains('side-menu-sections'));
    expect(top.map((item) => item.firstElementChild?.textContent)).toEqual(['Dashboard', 'Transactions', 'Reporting', 'Business', 'Users']);
    expect(within(menu).getByRole('link', { name: 'Transactions' }).getAttribute('aria-current')).toBe('page');
  });

  it('expands a section, and closes it on Escape or an outside click', async () => {
    const user = userEvent.setup();
    renderWithServices(
      <>
        <SideMenu />
        <p>Elsewhere</p>
      </>,
    );
    const reporting = screen.getByRole('button', { name: 'Reporting' });
    expect(reporting.getAttribute('aria-expanded')).toBe('false');
    await user.click(reporting);
    expect(reporting.getAttribute('aria-expanded')).toBe('true');
    expect(screen.getByRole('link', { name: 'Report queue' }).getAttribute('href')).toBe('/reporting-overview');
    expect(screen.getByRole('link', { name: 'Business account' })).toBeTruthy();
    // Offered under net settlement too: a merchant's minimum top-ups are invoiced there (README Decisions).
    expect(screen.getByRole('link', { name: 'Invoice account' })).toBeTruthy();
    await user.keyboard('{Escape}');
    expect(reporting.getAttribute('aria-expanded')).toBe('false');
    expect(document.activeElement).toBe(reporting);

    await user.click(reporting);
    await act(async () => {
      fireEvent.pointerDown(screen.getByText('Elsewhere'));
    });
    expect(reporting.getAttribute('aria-expanded')).toBe('false');
  });

  it('moves between its items with the arrows; → opens a section and enters it, ← goes back to its button', async () => {
    const user = userEvent.setup();
    renderWithServices(<SideMenu />);
    screen.getByRole('link', { name: 'Dashboard' }).focus();
    await user.keyboard('{ArrowDown}');
    expect(document.activeElement).toBe(screen.getByRole('link', { name: 'Transactions' }));
    await user.keyboard('{ArrowDown}');
    const reporting = screen.getByRole('button', { name: 'Reporting' });
    expect(document.activeElement).toBe(reporting);
    await user.keyboard('{ArrowRight}');
    expect(reporting.getAttribute('aria-expanded')).toBe('true');
    await vi.waitFor(() => expect(document.activeElement).toBe(screen.getByRole('link', { name: 'Report queue' })));
    await user.keyboard('{ArrowLeft}');
    expect(document.activeElement).toBe(reporting);
    expect(reporting.getAttribute('aria-expanded')).toBe('false');
    await user.keyboard('{End}');
    expect(document.activeElement).toBe(screen.getByRole('link', { name: 'Users' }));
    await user.keyboard('{Home}');
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Side menu' }));
    // Space toggles a section, as Enter does.
    reporting.focus();
    await user.keyboard(' ');
    expect(reporting.getAttribute('aria-expanded')).toBe('true');
    await user.keyboard('{ArrowDown}');
    expect(document.activeElement).toBe(screen.getByRole('link', { name: 'Report queue' }));
  });
});

function MenuWithKeys() {
  const { registry, commandServices } = useAppServices();
  useShortcutBinder(registry, commandServices);
  return (
    <>
      <SideMenu />
      <button type="button">Elsewhere</button>
    </>
  );
}

describe('collapsing the side menu', () => {
  beforeEach(() => {
    resetStores();
    sessionStorage.clear();
    fakeApi();
    signIn({ permissions: ['Mapi.Transactions.Read', 'Portal.Reports.Create'], context: merchantContext, paths: ['/transactions'] });
  });

  it('collapses and expands with Ctrl+B, keeping the focus on the menu when the entry that had it is hidden', async () => {
    const user = userEvent.setup();
    renderWithServices(<MenuWithKeys />);
    const toggle = screen.getByRole('button', { name: 'Side menu' });
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    screen.getByRole('link', { name: 'Transactions' }).focus();
    await user.keyboard('{Control>}b{/Control}');
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    expect(screen.queryByRole('link', { name: 'Transactions' })).toBeNull();
    expect(document.activeElement).toBe(toggle);
    expect(sessionStorage.getItem('portal.sideMenuCollapsed')).toBe('true');
    await user.keyboard('{Control>}b{/Control}');
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    expect(screen.getByRole('link', { name: 'Transactions' })).toBeTruthy();
    expect(sessionStorage.getItem('portal.sideMenuCollapsed')).toBeNull();
  });

  it('leaves the focus where it was when it is elsewhere, and toggles from its own button', async () => {
    const user = userEvent.setup();
    renderWithServices(<MenuWithKeys />);
    const elsewhere = screen.getByRole('button', { name: 'Elsewhere' });
    elsewhere.focus();
    await user.keyboard('{Control>}b{/Control}');
    expect(shellStore.sideMenuCollapsed).toBe(true);
    expect(document.activeElement).toBe(elsewhere);
    await user.click(screen.getByRole('button', { name: 'Side menu' }));
    expect(shellStore.sideMenuCollapsed).toBe(false);
  });

  it('stays collapsed for the session: a reload of the page restores it', async () => {
    sessionStorage.setItem('portal.sideMenuCollapsed', 'true');
    vi.resetModules();
    const reloaded = await import('../../src/state/shell-store.ts');
    expect(reloaded.shellStore.sideMenuCollapsed).toBe(true);
    reloaded.resetShell();
    expect(sessionStorage.getItem('portal.sideMenuCollapsed')).toBeNull();
  });
});
