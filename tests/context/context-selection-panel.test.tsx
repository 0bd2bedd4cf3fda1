// The panel as a person uses it: by role and name, with the keyboard, against a fake data source.
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { readApplyQuery } from '../../src/context/context-apply-url.ts';
import { ContextPage } from '../../src/context/context-page.tsx';
import { ContextSelectionPanel } from '../../src/context/context-selection-panel.tsx';
import { applyContext } from '../../src/state/context-store.ts';
import { fakeData, policies, renderWithServices } from './support.tsx';

function setup(options: { policy?: keyof typeof policies; mode?: 'page' | 'dialog'; closable?: boolean; settings?: Parameters<typeof fakeData>[0] } = {}) {
  const { data, stored, searches } = fakeData(options.settings);
  const navigate = vi.fn();
  const onClose = vi.fn();
  const mode = options.mode ?? 'dialog';
  const closable = options.closable ?? mode === 'dialog';
  const view = renderWithServices(<ContextSelectionPanel mode={mode} preferredRoute="/transactions" {...(closable ? { onClose } : {})} />, {
    policy: policies[options.policy ?? 'internal'],
    services: { data, navigate },
  });
  return { ...view, data, stored, searches, navigate, onClose, user: userEvent.setup() };
}

const appliedUrl = (navigate: ReturnType<typeof vi.fn>) => {
  const [[url, options]] = navigate.mock.calls as [[string, { replace: boolean }]];
  const [path, search = ''] = url.split('?');
  return { path, options, request: readApplyQuery(search) };
};

describe('ContextSelectionPanel', () => {
  it('is a dialog with a title, the three tabs and the businesses column with its header', async () => {
    setup();
    const dialog = await screen.findByRole('dialog', { name: 'Select context' });
    expect(
      within(dialog)
        .getAllByRole('tab')
        .map((tab) => tab.textContent),
    ).toEqual(['All', 'Recent', 'Favorites']);
    const businesses = await screen.findByRole('listbox', { name: 'Businesses' });
    expect(
      within(businesses)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual([expect.stringContaining('Alpha Trading'), expect.stringContaining('Beta Retail')]);
    expect(within(businesses).getByRole('option', { name: /Beta Retail/ }).textContent).toContain('not live');
    expect((screen.getByRole('checkbox', { name: 'Live only' }) as HTMLInputElement).checked).toBe(false);
    expect((screen.getByRole('button', { name: 'Apply' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('picks a business and a merchant with the keyboard only and applies with Ctrl+Enter', async () => {
    const { user, navigate, onClose, data, stored } = setup();
    const businesses = await screen.findByRole('listbox', { name: 'Businesses' });
    // The dialog opens on the search box; ArrowDown goes to the list.
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('searchbox')));
    await user.keyboard('{ArrowDown}');
    expect(document.activeElement).toBe(businesses);
    await user.keyboard('{Enter}');
    const merchants = await screen.findByRole('listbox', { name: /Merchants/ });
    await waitFor(() => expect(document.activeElement).toBe(merchants));
    expect(screen.getByRole('button', { name: 'Back to businesses' })).toBeTruthy();
    await user.keyboard('{ArrowDown}{Enter}');
    expect(
      within(merchants)
        .getByRole('option', { name: /Alpha Stores/ })
        .getAttribute('aria-selected'),
    ).toBe('true');
    expect((screen.getByRole('button', { name: 'Apply' }) as HTMLButtonElement).disabled).toBe(false);
    await user.keyboard('{Control>}{Enter}{/Control}');
    await waitFor(() => expect(navigate).toHaveBeenCalledTimes(1));
    const { path, options, request } = appliedUrl(navigate);
    expect(path).toBe('/context/apply');
    expect(options).toEqual({ replace: true });
    expect(request).toMatchObject({
      route: '/transactions',
      raw: {
        business: { id: 'B1', title: 'Alpha Trading', camAutoRemittance: true },
        merchant: { id: 'M2', title: 'Alpha Stores', grossSettlement: true, currencies: ['GBP', 'EUR'] },
        configuration: { id: 'C2', title: 'Stores checkout', switches: { virtualTerminalMenuEnabled: true } },
      },
    });
    expect(onClose).toHaveBeenCalled();
    expect(data.configurations).toHaveBeenCalledWith('B1', 'M2');
    await waitFor(() =>
      expect(stored.ContextRecent).toEqual([{ businessId: 'B1', businessName: 'Alpha Trading', merchantId: 'M2', merchantName: 'Alpha Stores' }]),
    );
  });

  it('goes back with Left, clearing the merchant', async () => {
    const { user } = setup();
    await screen.findByRole('listbox', { name: 'Businesses' });
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('searchbox')));
    await user.keyboard('{ArrowDown}{ArrowRight}');
    const merchants = await screen.findByRole('listbox', { name: /Merchants/ });
    await waitFor(() => expect(document.activeElement).toBe(merchants));
    await user.keyboard('{Enter}{ArrowLeft}');
    expect(screen.queryByRole('listbox', { name: /Merchants/ })).toBeNull();
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('listbox', { name: 'Businesses' })));
  });

  it('applies by clicking a chosen option a second time (or Apply), with an empty configuration when there is none', async () => {
    const { user, navigate } = setup();
    await user.click(await screen.findByRole('option', { name: /Alpha Trading/ }));
    await user.click(await screen.findByRole('option', { name: /Alpha Online/ }));
    await user.click(screen.getByRole('button', { name: 'Apply' }));
    await waitFor(() => expect(navigate).toHaveBeenCalled());
    expect(appliedUrl(navigate).request).toMatchObject({ raw: { configuration: { id: null, title: '' } } });
  });

  it('filters live only, for users holding a role', async () => {
    const { user, data } = setup();
    await screen.findByRole('option', { name: /Beta Retail/ });
    await user.click(screen.getByRole('checkbox', { name: 'Live only' }));
    await waitFor(() => expect(screen.queryByRole('option', { name: /Beta Retail/ })).toBeNull());
    expect(data.businesses).toHaveBeenLastCalledWith({ pageNumber: 1, pageSize: 10, liveOnly: true }, expect.any(AbortSignal));
  });

  it('has no live-only checkbox for users without roles, and lists their businesses from the policy', async () => {
    const { data } = setup({ policy: 'owner' });
    expect(await screen.findByRole('listbox', { name: 'Businesses' })).toBeTruthy();
    expect(screen.queryByRole('checkbox', { name: 'Live only' })).toBeNull();
    expect(data.businesses).not.toHaveBeenCalled();
  });

  it('searches 400 ms after typing, cancels the earlier search, shows a flat list and the tree again when cleared', async () => {
    const { user, data, searches } = setup();
    const input = await screen.findByRole('searchbox', { name: 'Search businesses and merchants' });
    await user.type(input, 'alp');
    await user.keyboard('{Enter}');
    await user.type(input, 'ha');
    expect(data.search).toHaveBeenCalledTimes(1);
    await waitFor(() => expect(data.search).toHaveBeenCalledTimes(2), { timeout: 2000 });
    expect(searches.map((search) => search.term)).toEqual(['alp', 'alpha']);
    const results = await screen.findByRole('listbox', { name: 'Search results' });
    expect(within(results).getAllByRole('option')).toHaveLength(3);
    expect(screen.queryByRole('listbox', { name: 'Businesses' })).toBeNull();
    await user.clear(input);
    expect(await screen.findByRole('listbox', { name: 'Businesses' })).toBeTruthy();
  });

  it('aborts a search still on its way when a newer one starts', async () => {
    const { user, data, searches } = setup();
    data.search.mockImplementationOnce((term, _query, signal) => {
      searches.push({ term, signal });
      return new Promise(() => undefined);
    });
    const input = await screen.findByRole('searchbox', { name: 'Search businesses and merchants' });
    await user.type(input, 'gamma{Enter}');
    await user.type(input, 'x{Enter}');
    await waitFor(() => expect(searches).toHaveLength(2));
    expect(searches[0]?.signal.aborted).toBe(true);
    expect(searches[1]?.signal.aborted).toBe(false);
  });

  it("says 'no context for {search term}' when nothing matches, and asks for 3 characters", async () => {
    const { user } = setup();
    const input = await screen.findByRole('searchbox', { name: 'Search businesses and merchants' });
    await user.type(input, 'zz{Enter}');
    expect(await screen.findByText('Type at least 3 characters to search.')).toBeTruthy();
    await user.type(input, 'z{Enter}');
    expect(await screen.findByText('no context for zzz')).toBeTruthy();
  });

  it("shows 'no recent selections found' and 'no favorites found' when the lists are empty", async () => {
    const { user } = setup();
    await user.click(await screen.findByRole('tab', { name: 'Recent' }));
    expect(await screen.findByText('no recent selections found')).toBeTruthy();
    await user.click(screen.getByRole('tab', { name: 'Favorites' }));
    expect(await screen.findByText('no favorites found')).toBeTruthy();
  });

  it('toggles a favourite with F and lists it under Favorites', async () => {
    const { user, stored } = setup();
    await screen.findByRole('listbox', { name: 'Businesses' });
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('searchbox')));
    await user.keyboard('{ArrowDown}{ArrowDown}f');
    await waitFor(() => expect(stored.ContextFavorites).toEqual([{ businessId: 'B2', businessName: 'Beta Retail' }]));
    expect(screen.getByRole('option', { name: /Beta Retail.*favourite/ })).toBeTruthy();
    await user.click(screen.getByRole('tab', { name: 'Favorites' }));
    expect(await screen.findByRole('option', { name: /Beta Retail/ })).toBeTruthy();
  });

  it('applies a recent context picked from the Recent tab, looking up what the list did not say', async () => {
    const { user, navigate, data } = setup({
      settings: { ContextRecent: [{ businessId: 'B1', businessName: 'Old name', merchantId: 'M2', merchantName: 'Old stores' }] },
    });
    // The panel's tabs come after its first answers (at once only when an earlier test already loaded them).
    await user.click(await screen.findByRole('tab', { name: 'Recent' }));
    const option = await screen.findByRole('option', { name: /Old name › Old stores/ });
    await user.dblClick(option);
    await waitFor(() => expect(navigate).toHaveBeenCalled());
    expect(data.business).toHaveBeenCalledWith('B1');
    expect(appliedUrl(navigate).request).toMatchObject({
      raw: { business: { id: 'B1', title: 'Alpha Trading' }, merchant: { id: 'M2', title: 'Alpha Stores' }, configuration: { id: 'C2' } },
    });
  });

  it('offers Cancel only when the panel may be closed', async () => {
    const dialog = setup();
    await userEvent.setup().click(await screen.findByRole('button', { name: 'Cancel' }));
    expect(dialog.onClose).toHaveBeenCalled();
    dialog.unmount();
    setup({ mode: 'page' });
    await screen.findByRole('listbox', { name: 'Businesses' });
    expect(screen.queryByRole('button', { name: 'Cancel' })).toBeNull();
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(screen.getByRole('heading', { level: 1, name: 'Select context' })).toBeTruthy();
  });

  it('offers Cancel on the page once a context is applied, going back to the route', async () => {
    const { data } = fakeData();
    const navigate = vi.fn();
    renderWithServices(<ContextSelectionPanel mode="page" preferredRoute="/users" />, { policy: policies.internal, services: { data, navigate } });
    act(() => applyContext({ business: { id: 'B1', title: 'Alpha Trading' } }));
    await userEvent.setup().click(await screen.findByRole('button', { name: 'Cancel' }));
    expect(navigate).toHaveBeenCalledWith('/users', { replace: true });
  });

  it('auto-applies the only context of a user with one business and one merchant, without showing a choice', async () => {
    const { navigate } = setup({ policy: 'solo', mode: 'page' });
    await waitFor(() => expect(navigate).toHaveBeenCalled());
    expect(appliedUrl(navigate).request).toMatchObject({
      route: '/transactions',
      raw: { business: { id: 'B2', title: 'Beta Retail', camAutoRemittance: false }, merchant: { id: 'M3' } },
    });
  });

  it('as the /context page, applies the one business and merchant of a user with nothing to choose, without the panel', async () => {
    const { data } = fakeData();
    const navigate = vi.fn();
    renderWithServices(<ContextPage search="?route=%2Ftransactions" />, { policy: policies.solo, services: { data, navigate } });
    expect(screen.getByRole('status').textContent).toBe('Applying the context…');
    await waitFor(() => expect(navigate).toHaveBeenCalledTimes(1));
    const [[url, options]] = navigate.mock.calls as [[string, { replace: boolean }]];
    expect(options).toEqual({ replace: true });
    const [path, search = ''] = url.split('?');
    expect(path).toBe('/context/apply');
    expect(readApplyQuery(search)).toMatchObject({
      route: '/transactions',
      raw: { business: { id: 'B2', title: 'Beta Retail' }, merchant: { id: 'M3', title: 'Beta Web' } },
    });
    expect(new URLSearchParams(search).get('recent')).toBe('1');
    // The panel never opened: no business list was asked for.
    expect(data.businesses).not.toHaveBeenCalled();
    expect(screen.queryByRole('listbox')).toBeNull();
  });

  it('as the /context page, shows the panel when the one business has several merchants', async () => {
    const { data } = fakeData();
    const navigate = vi.fn();
    const policy = { ...policies.solo, businessPolicies: [{ businessId: 'B1', businessName: 'Alpha Trading', roles: ['Owner'], merchantPolicies: [] }] };
    renderWithServices(<ContextPage search="?route=%2Fdashboard" />, { policy, services: { data, navigate } });
    expect(await screen.findByRole('option', { name: /Alpha Online/ })).toBeTruthy();
    expect(navigate).not.toHaveBeenCalled();
  });

  it('as the /context page, leads to the route of its query once applied', async () => {
    const { data } = fakeData();
    const navigate = vi.fn();
    const view = renderWithServices(<ContextPage search="?route=%2Fdashboard" />, { policy: policies.internal, services: { data, navigate } });
    view.rerenderWithServices(<ContextPage search="??route=%2Ftickets%3Fstatus%3DOpen" />);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('option', { name: /Alpha Trading/ }));
    await user.dblClick(await screen.findByRole('option', { name: /Alpha Online/ }));
    await waitFor(() => expect(navigate).toHaveBeenCalled());
    expect(appliedUrl(navigate).request).toMatchObject({ route: '/tickets?status=Open' });
  });
});
