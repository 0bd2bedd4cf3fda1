// Each pane guards its own route: allowed screens render, missing permissions say so and go to not-found,
// context-bound routes without a context go to context selection keeping the intended URL.
import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { useSnapshot } from 'valtio';
import { Workspace } from '../../src/app/workspace.tsx';
import { dismissToast, toastStore } from '../../src/state/toast-store.ts';
import { workspaceStore } from '../../src/state/workspace-store.ts';
import { ToastRegion } from '../../src/ui/toast-region.tsx';
import { fakeApi, merchantContext, renderWithServices, resetStores, signIn } from './support.tsx';

function Toasts() {
  const { toasts } = useSnapshot(toastStore);
  return <ToastRegion toasts={toasts} onDismiss={dismissToast} />;
}

function renderWorkspace() {
  return renderWithServices(
    <>
      <Workspace />
      <Toasts />
    </>,
  );
}

describe('the guard in a pane', () => {
  beforeEach(() => {
    resetStores();
    fakeApi();
  });

  it('shows an allowed screen (every route is built now: no not-built message)', async () => {
    // (The users overview, the watch list and the not-built billing screen, the examples here before, are built now.)
    signIn({ permissions: ['Billing.Invoices.Create'], paths: ['/billing'] });
    renderWorkspace();
    expect(await screen.findByRole('heading', { name: 'Billing', level: 1 })).toBeTruthy();
    expect(screen.queryByText(/Not built yet/)).toBeNull();
  });

  it('without the permission: a danger message and not-found with links to the dashboard and support', async () => {
    signIn({ permissions: ['Mapi.Transactions.Read'], paths: ['/billing'] });
    renderWorkspace();
    expect((await screen.findByRole('alert')).textContent).toContain('You do not have the correct permissions.');
    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Go to the dashboard' }).getAttribute('href')).toBe('/dashboard');
    expect(screen.getByRole('link', { name: 'Visit the support center' }).getAttribute('href')).toBe('/tickets');
    expect(workspaceStore.panes[0]?.path).toBe('/404');
  });

  it('shows not-found in place for an unknown path', async () => {
    signIn({ permissions: [], paths: ['/no-such-screen'] });
    renderWorkspace();
    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeTruthy();
    expect(workspaceStore.panes[0]?.path).toBe('/no-such-screen');
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('sends /business to not-found without a permission message', async () => {
    signIn({ permissions: ['Mapi.Business.Read'], context: merchantContext, paths: ['/business'] });
    renderWorkspace();
    await waitFor(() => expect(workspaceStore.panes[0]?.path).toBe('/404'));
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('without a context: context selection, keeping the intended URL with every pane', async () => {
    window.history.replaceState(null, '', '/configurations?panes=_,%2Fusers');
    signIn({ permissions: ['Mapi.Configurations.Read', 'Mapi.Users.Read'], paths: ['/configurations', '/users'] });
    renderWorkspace();
    await waitFor(() =>
      expect(workspaceStore.panes.map((pane) => pane.path)).toEqual([`/context?route=${encodeURIComponent('/configurations?panes=_,%2Fusers')}`]),
    );
  });

  it('guards each pane on its own', async () => {
    signIn({ permissions: ['Mapi.Users.Read'], paths: ['/users', '/billing'] });
    renderWorkspace();
    const panes = await screen.findAllByRole('region', { name: /pane \d of 2/ });
    expect(panes).toHaveLength(2);
    await waitFor(() => expect(workspaceStore.panes.map((pane) => pane.path)).toEqual(['/users', '/404']));
    expect(await within(screen.getByRole('region', { name: /Users \(pane 1 of 2\)/ })).findByRole('heading', { name: 'Users', level: 1 })).toBeTruthy();
  });
});
