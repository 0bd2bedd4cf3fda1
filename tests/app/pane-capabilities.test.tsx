// Screens declare what they support; commands such as Shift+2 reach them only then.
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { beforeEach, describe, expect, it } from 'vitest';
import { useAppServices } from '../../src/app/app-services.tsx';
import { useShortcutBinder } from '../../src/app/shortcut-binder.ts';
import { PaneScopeContext, usePaneCapabilities } from '../../src/state/pane-scope.tsx';
import { workspaceStore } from '../../src/state/workspace-store.ts';
import { Tabs } from '../../src/ui/tabs.tsx';
import { fakeApi, merchantContext, renderWithServices, resetStores, signIn } from './support.tsx';

function RecordScreen() {
  const [index, setIndex] = useState(0);
  usePaneCapabilities({ tabs: (tab) => tab !== undefined && setIndex(tab) });
  return (
    <Tabs
      label="Payment job"
      tabs={[
        { id: 'details', label: 'Details' },
        { id: 'payments', label: 'Payments' },
      ]}
      contents={['Details panel', 'Payments panel']}
      activeIndex={index}
      onActiveIndexChange={setIndex}
    />
  );
}

function Harness() {
  const { registry, commandServices } = useAppServices();
  useShortcutBinder(registry, commandServices);
  const [withScreen, setWithScreen] = useState(true);
  const paneId = workspaceStore.panes[0]?.id ?? '';
  return (
    <PaneScopeContext value={{ paneId }}>
      <button type="button" onClick={() => setWithScreen(false)}>
        Leave the screen
      </button>
      {withScreen ? <RecordScreen /> : null}
    </PaneScopeContext>
  );
}

describe('pane capabilities', () => {
  beforeEach(() => {
    resetStores();
    fakeApi();
    signIn({ permissions: [], context: merchantContext, paths: ['/configurations/C1/payments/PJ1'] });
  });

  it('Shift+2 and Shift+1 switch the tabs of the focused screen', async () => {
    const user = userEvent.setup();
    renderWithServices(<Harness />);
    await waitFor(() => expect(workspaceStore.panes[0]?.capabilities).toEqual(['tabs']));
    await user.keyboard('{Shift>}2{/Shift}');
    await waitFor(() => expect(screen.getByRole('tab', { name: 'Payments' }).getAttribute('aria-selected')).toBe('true'));
    await user.keyboard('{Shift>}1{/Shift}');
    await waitFor(() => expect(screen.getByRole('tab', { name: 'Details' }).getAttribute('aria-selected')).toBe('true'));
  });

  it('withdraws the capability when the screen goes', async () => {
    const user = userEvent.setup();
    renderWithServices(<Harness />);
    await waitFor(() => expect(workspaceStore.panes[0]?.capabilities).toEqual(['tabs']));
    await user.click(screen.getByRole('button', { name: 'Leave the screen' }));
    await waitFor(() => expect(workspaceStore.panes[0]?.capabilities).toEqual([]));
  });
});
