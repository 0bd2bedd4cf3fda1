// The configuration detail's tabs and its versioned save: a 409 where the user chose Stay keeps the edits, shows
// the other side's values, and the next save sends the version it now knows.
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ConfigurationDetailPane } from '../../../panes/configurations/configuration-detail-pane.tsx';
import { ConfigurationsPane } from '../../../panes/configurations/configurations-pane.tsx';
import { ApiError } from '../../../src/api/api-error.ts';
import type { ConfigurationDetail } from '../../../src/contract/configuration-schemas.ts';
import { defaultHostedPageDesign, paymentMethodLabels } from '../../../src/contract/configurations.ts';
import { paymentMethods } from '../../../src/contract/enumerations.ts';
import { useAppServices } from '../../../src/app/app-services.tsx';
import { useShortcutBinder } from '../../../src/app/shortcut-binder.ts';
import { PaneScopeContext } from '../../../src/state/pane-scope.tsx';
import { workspaceStore } from '../../../src/state/workspace-store.ts';
import { fakeApi, renderWithServices, resetStores, signIn } from '../../app/support.tsx';

/** The pane inside its workspace pane with the app's shortcut binder: keys reach it through the registry. */
function InPane() {
  const { registry, commandServices } = useAppServices();
  useShortcutBinder(registry, commandServices);
  return (
    <PaneScopeContext value={{ paneId: workspaceStore.panes[0]?.id ?? '' }}>
      <ConfigurationDetailPane params={{ configurationId: 'C1' }} search="" capability="Configuration detail" />
    </PaneScopeContext>
  );
}

// Rendering the whole pane with its schemas checked on the main thread is slow on a shared machine.
vi.setConfig({ testTimeout: 20_000 });

const context = { business: { id: 'B1', title: 'Alpha Trading' }, merchant: { id: 'M1', title: 'Alpha Online' } };
const detail = (overrides: Partial<ConfigurationDetail> = {}): ConfigurationDetail => ({
  configurationId: 'C1',
  businessId: 'B1',
  merchantId: 'M1',
  tradeName: 'Alpha web shop',
  description: 'Checkout',
  switches: { virtualTerminalMenuEnabled: true },
  version: 3,
  hostedPages: [],
  paymentMethods: paymentMethods.map((method) => ({
    paymentMethod: method,
    configuration: {
      paymentMethod: method,
      enabled: method === 'card',
      displayName: paymentMethodLabels[method],
      threeDSecurePolicy: method === 'card' ? 'always' : null,
      minimumAmount: null,
      maximumAmount: null,
      currencies: ['GBP'],
    },
  })),
  ...overrides,
});

describe('the configuration detail', () => {
  beforeEach(() => {
    resetStores();
  });

  it('shows six tabs (the last one the payment jobs of the configuration), the API keys one disabled without the permission', async () => {
    signIn({ permissions: ['Mapi.Configurations.Read'], context, paths: ['/configurations/C1'] });
    fakeApi({ '/businesses/B1/merchants/M1/configurations/C1': () => detail() });
    renderWithServices(<ConfigurationDetailPane params={{ configurationId: 'C1' }} search="" capability="Configuration detail" />);
    const tabs = within(await screen.findByRole('tablist', { name: 'Configuration' })).getAllByRole('tab');
    expect(tabs.map((tab) => tab.textContent)).toEqual(['General', 'Payment methods', 'Hosted pages', 'API keys', 'Switches', 'Payments']);
    expect((tabs[3] as HTMLButtonElement).disabled).toBe(true);
    expect((screen.getByRole('textbox', { name: /^Trade name/ }) as HTMLInputElement).disabled).toBe(true);
    expect(screen.queryByRole('button', { name: 'Delete configuration' })).toBeNull();
    await userEvent.setup().click(tabs[1] as HTMLElement);
    expect(screen.getByRole('rowheader', { name: 'Card' })).toBeTruthy();
  });

  it('keeps the edits after a conflict the user stays on, shows their values, and saves with the new version', async () => {
    signIn({ permissions: ['Mapi.Configurations.Read', 'Mapi.Configurations.Update'], context, paths: ['/configurations/C1'] });
    let current = detail();
    const api = fakeApi({ '/businesses/B1/merchants/M1/configurations/C1': () => current });
    const put = api.put as unknown as ReturnType<typeof vi.fn>;
    put.mockImplementationOnce(async () => {
      current = detail({ tradeName: 'Renamed by someone else', version: 4 });
      throw new ApiError({ status: 409, messages: ['Someone updated this view'], kind: 'conflictKept', handled: true });
    });
    put.mockImplementationOnce(async (_path: string, body: { tradeName: string; version: number }) => detail({ tradeName: body.tradeName, version: 5 }));
    renderWithServices(<ConfigurationDetailPane params={{ configurationId: 'C1' }} search="" capability="Configuration detail" />);
    const user = userEvent.setup();
    const tradeName = await screen.findByRole('textbox', { name: /^Trade name/ });
    await user.clear(tradeName);
    await user.type(tradeName, 'Alpha EU shop');
    await user.click(screen.getAllByRole('button', { name: 'Save' })[0] as HTMLElement);
    expect(await screen.findByText('Their version: Renamed by someone else')).toBeTruthy();
    expect((screen.getByRole('textbox', { name: /^Trade name/ }) as HTMLInputElement).value).toBe('Alpha EU shop');
    expect(put.mock.calls[0]?.[1]).toMatchObject({ tradeName: 'Alpha EU shop', version: 3 });
    await user.click(screen.getAllByRole('button', { name: 'Save' })[0] as HTMLElement);
    await waitFor(() => expect(put).toHaveBeenCalledTimes(2));
    expect(put.mock.calls[1]?.[1]).toMatchObject({ tradeName: 'Alpha EU shop', version: 4 });
  });

  it('takes its keys through the registry: Shift+2 shows payment methods, Shift+N on hosted pages makes a page, Delete asks first', async () => {
    signIn({ permissions: ['Mapi.Configurations.Read', 'Mapi.Configurations.Update'], context, paths: ['/configurations/C1'] });
    const api = fakeApi({ '/businesses/B1/merchants/M1/configurations/C1': () => detail() });
    const post = api.post as unknown as ReturnType<typeof vi.fn>;
    post.mockResolvedValue({
      reference: 'HPPNEW',
      configurationId: 'C1',
      name: 'Payment page 1',
      design: defaultHostedPageDesign,
      version: 4,
      updatedAt: '2026-11-01T10:00:00.000Z',
    });
    renderWithServices(<InPane />);
    await screen.findByRole('tablist', { name: 'Configuration' });
    await waitFor(() => expect(workspaceStore.panes[0]?.capabilities).toEqual(expect.arrayContaining(['tabs', 'delete'])));
    expect(workspaceStore.panes[0]?.capabilities).not.toContain('newItem');
    const user = userEvent.setup();
    await user.keyboard('{Shift>}2{/Shift}');
    await waitFor(() => expect(screen.getByRole('tab', { name: 'Payment methods' }).getAttribute('aria-selected')).toBe('true'));
    await user.click(screen.getByRole('tab', { name: 'Hosted pages' }));
    await waitFor(() => expect(workspaceStore.panes[0]?.capabilities).toContain('newItem'));
    await user.keyboard('{Shift>}N{/Shift}');
    await waitFor(() => expect(post).toHaveBeenCalledTimes(1));
    expect(post.mock.calls[0]?.[0]).toBe('/businesses/B1/merchants/M1/hosted-pages');
    expect(post.mock.calls[0]?.[1]).toMatchObject({ configurationId: 'C1', version: 3 });
  });

  it('shows the generic message for an empty trade name and does not save', async () => {
    signIn({ permissions: ['Mapi.Configurations.Read', 'Mapi.Configurations.Update'], context, paths: ['/configurations/C1'] });
    const api = fakeApi({ '/businesses/B1/merchants/M1/configurations/C1': () => detail() });
    renderWithServices(<ConfigurationDetailPane params={{ configurationId: 'C1' }} search="" capability="Configuration detail" />);
    const user = userEvent.setup();
    await user.clear(await screen.findByRole('textbox', { name: /^Trade name/ }));
    await user.click(screen.getAllByRole('button', { name: 'Save' })[0] as HTMLElement);
    expect(await screen.findByText('Trade name is required')).toBeTruthy();
    expect(api.put).not.toHaveBeenCalled();
  });
});

describe('the configurations overview', () => {
  beforeEach(() => resetStores());

  it('asks for a merchant without one', async () => {
    signIn({ permissions: ['Mapi.Configurations.Read'], paths: ['/configurations'] });
    fakeApi({});
    renderWithServices(<ConfigurationsPane params={{}} search="" capability="Configurations overview" />);
    expect(screen.getByRole('link', { name: 'Choose a merchant' }).getAttribute('href')).toBe('/context?route=%2Fconfigurations');
  });

  it('creates a configuration through the wizard, which will not pass step 1 without a trade name', async () => {
    signIn({ permissions: ['Mapi.Configurations.Read', 'Mapi.Configurations.Update'], context, paths: ['/configurations'] });
    const api = fakeApi({ '/businesses/B1/merchants/M1/configurations': () => ({ results: [], numberOfResults: 0 }) });
    const post = api.post as unknown as ReturnType<typeof vi.fn>;
    post.mockResolvedValue(detail({ configurationId: 'CFGNEW', tradeName: 'Pop-up shop' }));
    renderWithServices(<ConfigurationsPane params={{}} search="" capability="Configurations overview" />);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'New configuration' }));
    const dialog = await screen.findByRole('dialog', { name: 'New configuration' });
    await user.click(within(dialog).getByRole('button', { name: 'Next' }));
    expect(within(dialog).getByText('Trade name is required')).toBeTruthy();
    await user.type(within(dialog).getByRole('textbox', { name: /^Trade name/ }), 'Pop-up shop');
    await user.click(within(dialog).getByRole('button', { name: 'Next' }));
    await user.click(within(dialog).getByRole('checkbox', { name: 'iDEAL' }));
    await user.click(within(dialog).getByRole('button', { name: '4. Review' }));
    expect(within(dialog).getByText('Card, iDEAL')).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Create configuration' }));
    await waitFor(() => expect(post).toHaveBeenCalledTimes(1));
    expect(post.mock.calls[0]?.[0]).toBe('/businesses/B1/merchants/M1/configurations');
    expect(post.mock.calls[0]?.[1]).toMatchObject({ tradeName: 'Pop-up shop', paymentMethods: ['card', 'ideal'] });
  });
});
