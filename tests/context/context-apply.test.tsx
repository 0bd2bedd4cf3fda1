// /context/apply: the link format, what it trusts, the look-up cache and the page that applies and lands.
import { screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { PortalApi } from '../../src/api/http-client.ts';
import { ContextApplyPage } from '../../src/context/context-apply-page.tsx';
import { contextApplyPath, contextPagePath, readApplyQuery, safeRoute } from '../../src/context/context-apply-url.ts';
import { resolveApplyRequest } from '../../src/context/context-apply.ts';
import { businessCacheKey, cachedBusiness, createContextDataSource, merchantCacheKey, parseContextItems } from '../../src/context/context-data.ts';
import { setProfile } from '../../src/state/session-store.ts';
import { contextStore } from '../../src/state/context-store.ts';
import { toastStore } from '../../src/state/toast-store.ts';
import type { CommandContext } from '../../commands/command.ts';
import { routeOf, savedContextCommands, savedContextLink } from '../../commands/context/saved-contexts.ts';
import { fakeData, policies, renderWithServices } from './support.tsx';

const search = (path: string) => path.slice(path.indexOf('?'));

describe('context links', () => {
  it.each([
    ['/transactions?panes=%2Fdashboard,_', '/transactions?panes=%2Fdashboard,_'],
    ['/configurations/C1/payments', '/configurations/C1/payments'],
    [null, '/dashboard'],
    ['', '/dashboard'],
    ['/', '/dashboard'],
    ['/?x=1', '/dashboard'],
    ['/context', '/dashboard'],
    // A context page names the route it leads to: that route, never the page itself (nor the dashboard instead).
    ['/context/apply?route=/x', '/x'],
    ['/context?route=%2Fcontext%3Froute%3D%252Fx', '/x'],
    ['/context?route=%2Fcontext', '/dashboard'],
    ['/sign-out', '/dashboard'],
    ['//evil.example/x', '/dashboard'],
    ['https://evil.example/', '/dashboard'],
    ['/\\evil', '/dashboard'],
    ['/contexts-of-mine', '/contexts-of-mine'],
  ])('safeRoute(%s) → %s', (route, expected) => {
    expect(safeRoute(route)).toBe(expected);
  });

  it('carries the route and each selection as JSON, and reads them back', () => {
    const selections = {
      partner: { id: 'P1', title: 'Northwind' },
      business: { id: 'B 1&2', title: 'Alpha & Sons', camAutoRemittance: false },
      merchant: { id: 'M1', title: 'Online', grossSettlement: true, currencies: ['GBP'] },
      configuration: { id: null, title: '', switches: { virtualTerminalMenuEnabled: false } },
    };
    const path = contextApplyPath('/transactions?page=2', selections);
    expect(path.startsWith('/context/apply?route=%2Ftransactions%3Fpage%3D2&')).toBe(true);
    expect(readApplyQuery(search(path))).toEqual({ route: '/transactions?page=2', raw: selections });
    expect(contextPagePath('/users')).toBe('/context?route=%2Fusers');
  });

  it('reads a query with one, two or no leading question marks alike', () => {
    expect(readApplyQuery('??route=%2Fusers')).toMatchObject({ route: '/users' });
    expect(readApplyQuery('route=%2Fusers')).toMatchObject({ route: '/users' });
  });

  it('refuses a selection that is not JSON', () => {
    expect(readApplyQuery('?route=%2Fusers&business=%7Bnope')).toEqual({ error: 'business is not valid' });
  });
});

describe('resolveApplyRequest', () => {
  beforeEach(() => sessionStorage.clear());

  it('replaces titles and flags with what the server says, and picks the first configuration when the link has none', async () => {
    const { data } = fakeData();
    const link = savedContextLink('/dashboard', { businessId: 'B1', businessName: 'Forged name', merchantId: 'M2' });
    const resolved = await resolveApplyRequest(search(link), { data, policy: policies.internal });
    expect(resolved).toEqual({
      ok: true,
      route: '/dashboard',
      remember: true,
      selections: {
        business: { id: 'B1', title: 'Alpha Trading', camAutoRemittance: true },
        merchant: { id: 'M2', title: 'Alpha Stores', grossSettlement: true, currencies: ['GBP', 'EUR'] },
        configuration: { id: 'C2', title: 'Stores checkout', switches: { virtualTerminalMenuEnabled: true } },
      },
    });
  });

  it('keeps the configuration the panel chose', async () => {
    const { data } = fakeData();
    const configuration = { id: 'C3', title: 'Phone', switches: { virtualTerminalMenuEnabled: false } };
    const path = contextApplyPath('/users', { business: { id: 'B1', title: 'Alpha Trading' }, merchant: { id: 'M2', title: 'Alpha Stores' }, configuration });
    const resolved = await resolveApplyRequest(search(path), { data, policy: policies.internal });
    expect(resolved).toMatchObject({ ok: true, remember: false, selections: { configuration } });
    expect(data.configurations).not.toHaveBeenCalled();
  });

  it('fails with the not-found message for a context the user cannot reach, keeping the route for the panel', async () => {
    const { data } = fakeData();
    const path = contextApplyPath('/users', { business: { id: 'B-OTHER', title: 'Other' } });
    expect(await resolveApplyRequest(search(path), { data, policy: policies.internal })).toEqual({
      ok: false,
      route: '/users',
      message: 'The requested record was not found.',
    });
  });

  it('refuses a partner that is not the user’s, a merchant without a business and an empty context', async () => {
    const { data } = fakeData();
    const policy = policies.internal;
    expect(await resolveApplyRequest(search(contextApplyPath('/x', { partner: { id: 'P9', title: 'Not mine' } })), { data, policy })).toMatchObject({
      ok: false,
    });
    expect(await resolveApplyRequest(search(contextApplyPath('/x', { merchant: { id: 'M1', title: 'M' } })), { data, policy })).toMatchObject({ ok: false });
    expect(await resolveApplyRequest('?route=%2Fx', { data, policy })).toMatchObject({ ok: false });
    expect(await resolveApplyRequest(`?route=%2Fx&business=${encodeURIComponent('{"id":5}')}`, { data, policy })).toMatchObject({ ok: false });
  });

  it('accepts the user’s own partner context without a business', async () => {
    const { data } = fakeData();
    const policy = { roles: [], partnerPolicy: { partnerId: 'P1', partnerName: 'Northwind', roles: ['Owner'] }, businessPolicies: [] };
    const path = contextApplyPath('/partners/P1', { partner: { id: 'P1', title: 'Forged' }, business: { id: null, title: '' } });
    expect(await resolveApplyRequest(search(path), { data, policy })).toEqual({
      ok: true,
      route: '/partners/P1',
      remember: false,
      selections: { partner: { id: 'P1', title: 'Northwind' }, business: { id: null, title: '' } },
    });
  });
});

describe('single look-ups cached in session storage', () => {
  beforeEach(() => sessionStorage.clear());

  it("asks the server once per business and merchant, keeping them under 'businesses' and 'merchants'", async () => {
    const get = vi.fn(async (path: string) =>
      path.includes('/merchants/')
        ? { id: 'M1', name: 'Online', businessId: 'B1', live: true, grossSettlement: false, currencies: ['GBP'] }
        : { id: 'B1', name: 'Alpha', live: true, camAutoRemittance: true, partnerId: null },
    );
    const data = createContextDataSource({ get } as unknown as PortalApi);
    expect(await data.business('B1')).toMatchObject({ id: 'B1', name: 'Alpha' });
    expect(await data.business('B1')).toMatchObject({ id: 'B1', name: 'Alpha' });
    expect(await data.merchant('B1', 'M1')).toMatchObject({ id: 'M1', name: 'Online' });
    expect(await data.merchant('B1', 'M1')).toMatchObject({ id: 'M1' });
    expect(get).toHaveBeenCalledTimes(2);
    expect(get).toHaveBeenCalledWith('/context/businesses/B1', expect.objectContaining({ handleErrors: expect.any(Function) }));
    expect(JSON.parse(sessionStorage.getItem(businessCacheKey) ?? '{}')).toHaveProperty('entries.B1.name', 'Alpha');
    expect(JSON.parse(sessionStorage.getItem(merchantCacheKey) ?? '{}')).toHaveProperty(['entries', 'B1/M1', 'name'], 'Online');
  });

  it('does not let another user in the same tab reuse the cached look-ups', async () => {
    const get = vi.fn(async () => ({ id: 'B1', name: 'Alpha', live: true, camAutoRemittance: true, partnerId: null }));
    const data = createContextDataSource({ get } as unknown as PortalApi);
    setProfile({ sub: 'first-user' }, policies.internal);
    await data.business('B1');
    expect(cachedBusiness('B1')).toMatchObject({ id: 'B1' });
    setProfile({ sub: 'second-user' }, policies.owner);
    expect(cachedBusiness('B1')).toBeUndefined();
    await data.business('B1');
    expect(get).toHaveBeenCalledTimes(2);
  });

  it('validates responses against the contract and sends the list parameters the server expects', async () => {
    const get = vi.fn(async () => ({ data: [{ businessId: 'B1', businessName: 'Alpha', camAutoRemittance: true }], totalCount: 1 }));
    const data = createContextDataSource({ get } as unknown as PortalApi);
    await data.businesses({ pageNumber: 2, pageSize: 10, liveOnly: true });
    expect(get).toHaveBeenCalledWith('/context/businesses', { query: { pagenumber: 2, pagesize: 10, liveonly: true } });
    get.mockResolvedValueOnce({ data: [{ businessId: 7 }], totalCount: 1 } as never);
    await expect(data.businesses({ pageNumber: 1, pageSize: 10, liveOnly: false })).rejects.toThrow();
  });

  it('keeps the valid entries of a damaged stored list', () => {
    expect(parseContextItems([{ businessId: 'B1' }, { merchantId: 'M1' }, 'x', { businessId: 'B2', merchantId: 'M2' }])).toEqual([
      { businessId: 'B1' },
      { businessId: 'B2', merchantId: 'M2' },
    ]);
    expect(parseContextItems(null)).toEqual([]);
  });
});

describe('ContextApplyPage', () => {
  it('applies the selections of the link and replace-navigates to the route', async () => {
    const { data } = fakeData();
    const navigate = vi.fn();
    window.history.replaceState(null, '', savedContextLink('/transactions', { businessId: 'B1', merchantId: 'M1' }));
    renderWithServices(<ContextApplyPage />, { policy: policies.internal, services: { data, navigate } });
    expect(screen.getByRole('status').textContent).toBe('Applying the context…');
    await waitFor(() => expect(navigate).toHaveBeenCalledWith('/transactions', { replace: true }));
    expect(contextStore.applied).toEqual({
      business: { id: 'B1', title: 'Alpha Trading', camAutoRemittance: true },
      merchant: { id: 'M1', title: 'Alpha Online', grossSettlement: false, currencies: ['GBP'] },
      configuration: { id: null, title: '', switches: { virtualTerminalMenuEnabled: false } },
    });
    await waitFor(() =>
      expect(data.writeItems).toHaveBeenCalledWith('ContextRecent', [
        { businessId: 'B1', businessName: 'Alpha Trading', merchantId: 'M1', merchantName: 'Alpha Online' },
      ]),
    );
  });

  it('sends an unreachable context back to the panel with the not-found message', async () => {
    const { data } = fakeData();
    const navigate = vi.fn();
    window.history.replaceState(null, '', contextApplyPath('/users', { business: { id: 'B-GONE', title: 'Gone' } }));
    renderWithServices(<ContextApplyPage />, { policy: policies.internal, services: { data, navigate } });
    // To the panel itself (choose=1): not back into the record look-up that may have led here.
    await waitFor(() => expect(navigate).toHaveBeenCalledWith('/context?route=%2Fusers&choose=1', { replace: true }));
    expect(toastStore.toasts.at(-1)).toMatchObject({ kind: 'danger', message: 'The requested record was not found.' });
    expect(contextStore.applied).toEqual({});
  });
});

describe('saved-context palette commands', () => {
  // Only what these commands read; the rest of the shell's context does not concern them.
  const ctx = (businessId: string | null, merchantId: string | null) =>
    ({
      signedIn: true,
      permissions: [],
      route: null,
      focusedPane: null,
      paneCount: 1,
      focusedIndex: 0,
      maxPanes: 4,
      selectionCount: 0,
      fieldFocused: false,
      controlFocused: false,
      overlayOpen: false,
      context: {
        partnerId: null,
        businessId,
        merchantId,
        configurationId: null,
        virtualTerminalMenuEnabled: null,
        camAutoRemittance: null,
        grossSettlement: null,
      },
    }) as unknown as CommandContext;

  it('makes one command per favourite and recent context, favourites first, without repeats', () => {
    const commands = savedContextCommands(
      [{ businessId: 'B1', businessName: 'Alpha', merchantId: 'M1', merchantName: 'Online' }],
      [{ businessId: 'B1', merchantId: 'M1' }, { businessId: 'B2', businessName: 'Beta' }, { bogus: true }],
    );
    expect(commands.map((command) => [command.id, command.title, command.section])).toEqual([
      ['context.applyFavorite:B1/M1', 'Switch to Alpha › Online', 'Context'],
      ['context.applyRecent:B2/', 'Switch to Beta', 'Context'],
    ]);
    expect(commands[1]?.keywords).toEqual(expect.arrayContaining(['recent', 'B2', 'Beta']));
  });

  it('keeps the current screen as a path, whether the shell gives a path or an absolute URL', () => {
    expect(routeOf('http://localhost:3000/tickets?status=Open#x')).toBe('/tickets?status=Open');
    expect(routeOf('/transactions?panes=%2Fdashboard,_')).toBe('/transactions?panes=%2Fdashboard,_');
  });

  it('does not offer the context already applied', () => {
    const [command] = savedContextCommands([], [{ businessId: 'B1', merchantId: 'M1' }]);
    expect(command?.when?.(ctx('B1', 'M1'))).toBe(false);
    expect(command?.when?.(ctx('B1', null))).toBe(true);
    expect(command?.when?.({ ...ctx(null, null), signedIn: false } as CommandContext)).toBe(false);
  });

  it('applies through /context/apply, keeping the current screen as the route and adding it to Recent', async () => {
    const [command] = savedContextCommands([], [{ businessId: 'B1', merchantId: 'M2' }]);
    const navigate = vi.fn();
    await command?.run({ navigate, state: { currentUrl: () => '/transactions?panes=%2Fdashboard,_' } } as never, {});
    const [[url]] = navigate.mock.calls as [[string]];
    const { data } = fakeData();
    expect(await resolveApplyRequest(search(url), { data, policy: policies.internal })).toMatchObject({
      ok: true,
      route: '/transactions?panes=%2Fdashboard,_',
      remember: true,
      selections: { business: { id: 'B1', title: 'Alpha Trading' }, merchant: { id: 'M2', title: 'Alpha Stores' }, configuration: { id: 'C2' } },
    });
  });
});
