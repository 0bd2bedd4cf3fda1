// The palette's 'Go to virtual terminal' when several configurations of the merchant have the terminal on: a dialog
// lists them by name, keyboard first (the first focused, arrows move, Enter opens, Escape closes opening none).
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { useAppServices } from '../../src/app/app-services.tsx';
import { CommandPalette } from '../../src/app/palette.tsx';
import { useShortcutBinder } from '../../src/app/shortcut-binder.ts';
import { TerminalChooserHost } from '../../src/app/terminal-chooser-host.tsx';
import type { ContextSelections } from '../../src/contract/context.ts';
import { contextStore } from '../../src/state/context-store.ts';
import { closeTerminalChooser } from '../../src/state/terminal-chooser-store.ts';
import { currentLayout } from '../../src/state/workspace-store.ts';
import { fakeApi, renderWithServices, resetStores, signIn } from './support.tsx';

function Harness() {
  const { registry, commandServices } = useAppServices();
  useShortcutBinder(registry, commandServices);
  return (
    <>
      <CommandPalette />
      <TerminalChooserHost />
    </>
  );
}

const webShopContext: ContextSelections = {
  business: { id: 'B1', title: 'Alpha Trading' },
  merchant: { id: 'M1', title: 'Alpha Online' },
  configuration: { id: 'C1', title: 'Alpha Online', switches: { virtualTerminalMenuEnabled: false } },
};
const item = (configurationId: string, tradeName: string, on: boolean) => ({
  configurationId,
  tradeName,
  description: '',
  switches: { virtualTerminalMenuEnabled: on },
});

function serve(configurations: ReturnType<typeof item>[]) {
  fakeApi({ '/context/businesses/B1/merchants/M1/configurations': () => ({ data: configurations, totalCount: configurations.length }) });
}

async function runFromPalette(user: ReturnType<typeof userEvent.setup>) {
  await user.keyboard('{Control>}k{/Control}');
  await screen.findByRole('combobox', { name: 'Command palette' });
  await user.keyboard('Go to virtual terminal');
  await waitFor(() => expect(screen.getAllByRole('option')[0]?.textContent).toMatch(/^Go to virtual terminal/));
  await user.keyboard('{Enter}');
}

describe('choosing the virtual terminal’s configuration', { timeout: 30_000 }, () => {
  beforeAll(async () => {
    await import('../../src/api/contract-schemas.ts');
  }, 60_000);
  beforeEach(() => {
    resetStores();
    closeTerminalChooser();
    signIn({ permissions: ['Portal.Moto.Create', 'Mapi.Configurations.Read'], context: webShopContext });
  });

  it('asks which of several, by name and by keyboard, and opens the one chosen as the context’s configuration', async () => {
    serve([item('C1', 'Alpha Online', false), item('C3', 'Alpha Postal Orders', true), item('C2', 'Alpha Telephone Orders', true)]);
    const user = userEvent.setup();
    renderWithServices(<Harness />);
    await runFromPalette(user);
    const dialog = await screen.findByRole('dialog', { name: 'Which virtual terminal?' });
    const list = within(dialog).getByRole('list', { name: 'Configurations with the virtual terminal on' });
    expect(
      within(list)
        .getAllByRole('button')
        .map((button) => button.textContent),
    ).toEqual(['Alpha Postal Orders', 'Alpha Telephone Orders']);
    await waitFor(() => expect(document.activeElement).toBe(within(list).getByRole('button', { name: 'Alpha Postal Orders' })));
    await user.keyboard('{ArrowDown}');
    expect(document.activeElement).toBe(within(list).getByRole('button', { name: 'Alpha Telephone Orders' }));
    await user.keyboard('{Enter}');
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Which virtual terminal?' })).toBeNull());
    expect(currentLayout().paths[currentLayout().focused]).toBe('/configurations/C2/virtual-terminal');
    expect(contextStore.applied.configuration).toEqual({ id: 'C2', title: 'Alpha Telephone Orders', switches: { virtualTerminalMenuEnabled: true } });
  });

  it('closes on Escape, opening nothing and leaving the context as it was', async () => {
    serve([item('C3', 'Alpha Postal Orders', true), item('C2', 'Alpha Telephone Orders', true)]);
    const user = userEvent.setup();
    renderWithServices(<Harness />);
    const before = currentLayout();
    await runFromPalette(user);
    const dialog = await screen.findByRole('dialog', { name: 'Which virtual terminal?' });
    // Escape is the dialog's once it has the keyboard (its first configuration, focused when the list is there).
    await waitFor(() => expect(dialog.contains(document.activeElement)).toBe(true));
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Which virtual terminal?' })).toBeNull());
    expect(currentLayout()).toEqual(before);
    expect(contextStore.applied.configuration?.id).toBe('C1');
  });

  it('opens the only configuration with the terminal on without asking', async () => {
    serve([item('C1', 'Alpha Online', false), item('C2', 'Alpha Telephone Orders', true)]);
    const user = userEvent.setup();
    renderWithServices(<Harness />);
    await runFromPalette(user);
    await waitFor(() => expect(currentLayout().paths[currentLayout().focused]).toBe('/configurations/C2/virtual-terminal'));
    expect(screen.queryByRole('dialog', { name: 'Which virtual terminal?' })).toBeNull();
  });
});
