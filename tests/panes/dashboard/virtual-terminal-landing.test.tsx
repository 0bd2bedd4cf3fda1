// Someone who may take telephone orders but not read statistics (the Virtual terminal role) never lands on a dashboard
// that only says 'You do not have the correct permissions': they land on a terminal whose switch is on (made the
// context's configuration), or are told plainly why there is none.
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { configure, render, screen, waitFor } from '@testing-library/react';
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { configureApi } from '../../../src/api/api-client.ts';
import type { PortalApi } from '../../../src/api/http-client.ts';
import type { ContextSelections } from '../../../src/contract/context.ts';
import { applyContext, contextStore } from '../../../src/state/context-store.ts';
import { PaneScopeContext } from '../../../src/state/pane-scope.tsx';
import { permissionScope, setPermissions } from '../../../src/state/session-store.ts';
import { workspaceStore } from '../../../src/state/workspace-store.ts';
import { StatisticsDashboardPane } from '../../../panes/dashboard/statistics-pane.tsx';

configure({ asyncUtilTimeout: 10_000 });

const virtualTerminalRole = [
  'Portal.Moto.Create',
  'Portal.Terminals.Read',
  'Portal.Notifications.Read',
  'Portal.Settings.Read',
  'Mapi.Configurations.Read',
  'Mapi.Customers.Read',
  'Portal.PaymentJobs.Read',
];
const item = (configurationId: string, tradeName: string, on: boolean) => ({
  configurationId,
  tradeName,
  description: '',
  switches: { virtualTerminalMenuEnabled: on },
});
const business = { id: 'B1', title: 'Thistle & Rose Florists Ltd' };
const merchant = { id: 'M1', title: 'Thistle & Rose Online' };
/** What the context takes for the merchant: its first configuration by name, the web shop, terminal off. */
const webShop = { id: 'C1', title: 'Thistle & Rose Online', switches: { virtualTerminalMenuEnabled: false } };

function renderLanding(selections: ContextSelections, configurations: ReturnType<typeof item>[], permissions = virtualTerminalRole) {
  const get = vi.fn(async (path: string) => {
    if (path === '/context/businesses/B1/merchants/M1/configurations') return { data: configurations, totalCount: configurations.length };
    throw new Error(`unexpected ${path}`);
  });
  const post = vi.fn(async () => {
    throw new Error('no statistics for this user');
  });
  const unused = vi.fn(async () => {
    throw new Error('not used');
  });
  configureApi({ request: unused, get, post, put: unused, patch: unused, delete: unused } as unknown as PortalApi);
  applyContext(selections);
  setPermissions(permissionScope(selections).key, permissions);
  workspaceStore.panes = [{ id: 'pane-test', path: '/dashboard', capabilities: [], request: null, dirty: false }];
  workspaceStore.focusedIndex = 0;
  const location = memoryLocation({ path: '/dashboard', record: true });
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <PaneScopeContext.Provider value={{ paneId: 'pane-test' }}>
        <Router hook={location.hook} searchHook={location.searchHook}>
          <StatisticsDashboardPane params={{}} search="" capability="Statistics dashboard" />
        </Router>
      </PaneScopeContext.Provider>
    </QueryClientProvider>,
  );
  return { location, get, post };
}

describe('the landing of a virtual terminal user', { timeout: 30_000 }, () => {
  beforeAll(async () => {
    await import('../../../src/api/contract-schemas.ts');
  }, 60_000);
  beforeEach(() => {
    contextStore.applied = {};
  });

  it('lands on the terminal of the merchant’s configuration that has it on, not on the web shop the context took', async () => {
    const { location, post } = renderLanding({ business, merchant, configuration: webShop }, [
      item('C1', 'Thistle & Rose Online', false),
      item('C2', 'Thistle & Rose Telephone Orders', true),
    ]);
    await waitFor(() => expect(location.history.at(-1)).toBe('/configurations/C2/virtual-terminal'));
    expect(contextStore.applied.configuration).toEqual({ id: 'C2', title: 'Thistle & Rose Telephone Orders', switches: { virtualTerminalMenuEnabled: true } });
    expect(post).not.toHaveBeenCalled();
    expect(screen.queryByText(/You do not have the correct permissions/)).toBeNull();
  });

  it('lands on the first by name when several have it on (g v asks among them later)', async () => {
    const { location } = renderLanding({ business, merchant }, [
      item('C3', 'Thistle & Rose Postal Orders', true),
      item('C2', 'Thistle & Rose Telephone Orders', true),
    ]);
    await waitFor(() => expect(location.history.at(-1)).toBe('/configurations/C3/virtual-terminal'));
  });

  it('says plainly that no configuration has the terminal on, instead of a missing permission', async () => {
    const { location } = renderLanding({ business, merchant, configuration: webShop }, [item('C1', 'Thistle & Rose Online', false)]);
    expect(await screen.findByText(/No configuration of Thistle & Rose Online has the virtual terminal turned on\./)).toBeTruthy();
    expect(screen.queryByText(/You do not have the correct permissions/)).toBeNull();
    expect(location.history.at(-1)).toBe('/dashboard');
  });

  it('asks for a merchant when only a business is applied (configurations are a merchant’s)', async () => {
    const { get } = renderLanding({ business }, []);
    expect(await screen.findByText(/Choose a merchant as your context to take telephone orders/)).toBeTruthy();
    expect(screen.queryByText(/You do not have the correct permissions/)).toBeNull();
    expect(get).not.toHaveBeenCalled();
  });

  it('still tells someone without either permission that statistics are not theirs', async () => {
    renderLanding({ business, merchant }, [item('C2', 'Thistle & Rose Telephone Orders', true)], ['Portal.Tickets.Read']);
    expect(await screen.findByText(/You do not have the correct permissions\./)).toBeTruthy();
  });
});
