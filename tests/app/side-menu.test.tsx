// The side menu: documented order, links for single entries, sections that expand and collapse; the open
// section closes on Escape (focus back on its button) or a click outside.
import { act, fireEvent, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { SideMenu } from '../../src/app/side-menu.tsx';
import { fakeApi, merchantContext, renderWithServices, resetStores, signIn } from './support.tsx';

describe('side menu', () => {
  beforeEach(() => {
    resetStores();
    fakeApi();
    signIn({ permissions: ['Mapi.Transactions.Read', 'Mapi.MerchantAccountGroups.Read', 'Portal.Reports.Create', 'Mapi.Users.Read'], context: merchantContext, paths: ['/transactions'] });
  });

  it('lists the permitted sections in order, marking the current one', () => {
    renderWithServices(<SideMenu />);
    const menu = screen.getByRole('navigation', { name: 'Main menu' });
    const top = within(menu).getAllByRole('listitem').filter((item) => item.parentElement?.classList.contains('side-menu-sections'));
    expect(top.map((item) => item.firstElementChild?.textContent)).toEqual(['Dashboard', 'Transactions', 'Reporting', 'Business', 'Users']);
    expect(within(menu).getByRole('link', { name: 'Transactions' }).getAttribute('aria-current')).toBe('page');
  });

  it('expands a section, and closes it on Escape or an outside click', async () => {
    const user = userEvent.setup();
    renderWithServices(<><SideMenu /><p>Elsewhere</p></>);
    const reporting = screen.getByRole('button', { name: 'Reporting' });
    expect(reporting.getAttribute('aria-expanded')).toBe('false');
    await user.click(reporting);
    expect(reporting.getAttribute('aria-expanded')).toBe('true');
    expect(screen.getByRole('link', { name: 'Report queue' }).getAttribute('href')).toBe('/reporting-overview');
    expect(screen.getByRole('link', { name: 'Business account' })).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'Invoice account' })).toBeNull();
    await user.keyboard('{Escape}');
    expect(reporting.getAttribute('aria-expanded')).toBe('false');
    expect(document.activeElement).toBe(reporting);

    await user.click(reporting);
    await act(async () => {
      fireEvent.pointerDown(screen.getByText('Elsewhere'));
    });
    expect(reporting.getAttribute('aria-expanded')).toBe('false');
  });
});
