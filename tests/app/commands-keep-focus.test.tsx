// Focus never falls to the page's body after a command. Every command of the registry (the route table's navigation
// commands and the areas' commands) is run, as the palette and the key binder run it, on screens of the workspace in
// jsdom against the fake Portal API the component tests use; the test fails when focus ends on document.body.
// Navigation commands are run once each (from the dashboard): they all end on another screen, whatever they start on.
// The rest are run on every screen listed below where they are available (a fresh pane of the screen whenever the
// command before left it or opened a dialog). Commands not run here are listed with the reason.
import { act, cleanup, screen } from '@testing-library/react';
import { afterAll, describe, expect, it } from 'vitest';
import type { Command } from '../../commands/command.ts';
import { permissionNames } from '../../src/contract/permissions.ts';
import { useAppServices } from '../../src/app/app-services.tsx';
import { currentCommandContext } from '../../src/app/command-context.ts';
import { keepFocusAfter } from '../../src/app/focus-keeper.ts';
import { CommandPalette } from '../../src/app/palette.tsx';
import { useShortcutBinder } from '../../src/app/shortcut-binder.ts';
import { Workspace } from '../../src/app/workspace.tsx';
import { resetShell } from '../../src/state/shell-store.ts';
import { loadLayout, workspaceStore } from '../../src/state/workspace-store.ts';
import { createServices, fakeApi, merchantContext, renderWithServices, resetStores, signIn } from './support.tsx';

/** Not run here, each with the reason. */
const notRunHere: Record<string, string> = {
  'session.signOut': 'leaves the application for the identity provider’s sign-out page',
  'session.signOutEverywhere': 'leaves the application for the identity provider’s sign-out page',
  'workspace.copyLink': 'writes to the system clipboard, which jsdom does not have',
  'help.reportProblem': 'opens the mail client (a mailto: address)',
};

/** Screens the commands are run on: the areas' lists, records and forms merchants work in by keyboard. */
const screens = [
  '/dashboard',
  '/transactions',
  '/payment-jobs',
  '/tickets/T1',
  '/users/add',
  '/notifications',
  '/notifications/N1',
  '/billing',
  '/configurations/C1/virtual-terminal',
  '/business/B1/beneficiaries/BEN1',
  '/reporting/trading-account',
];

function Harness() {
  const { registry, commandServices } = useAppServices();
  useShortcutBinder(registry, commandServices);
  return (
    <>
      <Workspace />
      <CommandPalette />
    </>
  );
}

const frames = async (count: number) => {
  for (let at = 0; at < count; at += 1)
    await act(async () => {
      await new Promise((resolve) => requestAnimationFrame(resolve));
    });
};

async function show(path: string) {
  await act(async () => {
    resetShell();
    workspaceStore.panes = [];
    loadLayout({ paths: [path], focused: 0 });
  });
  // The screen's first answers (the fake API answers at once) and its focus on load.
  await frames(3);
  const pane = document.querySelector<HTMLElement>('section[data-pane-id]');
  // The keyboard in the screen, as a person working in it has it: its first control, else the pane.
  const first = pane?.querySelector<HTMLElement>('main input, main button, main select, [role="grid"] tr[tabindex="0"], input, button, select, textarea');
  await act(async () => {
    (first ?? pane)?.focus();
  });
}

type Outcome = { command: string; screen: string; focus: string };
const bodyFocus: Outcome[] = [];
const ran = new Set<string>();

async function runOn(path: string, command: Command, services: ReturnType<typeof createServices>) {
  await act(async () => {
    await keepFocusAfter(command.run(services.commandServices, {}));
  });
  await frames(2);
  ran.add(command.id);
  const active = document.activeElement;
  if (!active || active === document.body) bodyFocus.push({ command: command.id, screen: path, focus: 'body' });
}

describe('focus after every command', () => {
  afterAll(() => cleanup());

  it('never ends on the page’s body', { timeout: 900_000 }, async () => {
    resetStores();
    fakeApi();
    signIn({ permissions: [...permissionNames], context: merchantContext, paths: ['/dashboard'] });
    const services = createServices();
    renderWithServices(<Harness />, services);
    await screen.findAllByRole('region', undefined, { timeout: 20_000 }).catch(() => undefined);

    // Navigation commands, once each, from the dashboard.
    const navigation = services.registry.all().filter((command) => command.id.startsWith('nav.'));
    for (const command of navigation) {
      if (workspaceStore.panes[0]?.path !== '/dashboard') await show('/dashboard');
      if (!services.registry.available(currentCommandContext()).includes(command)) continue;
      await runOn('/dashboard', command, services);
    }

    for (const path of screens) {
      await show(path);
      const available = services.registry
        .available(currentCommandContext())
        .filter((command) => !command.id.startsWith('nav.') && notRunHere[command.id] === undefined);
      for (const command of available) {
        // A fresh pane only when the last command left this screen or opened a dialog on it.
        if (
          workspaceStore.panes[0]?.path !== path ||
          document.querySelector('section[data-pane-id] [role="dialog"], section[data-pane-id] [role="alertdialog"]')
        )
          await show(path);
        // Still offered on the fresh pane (a command's `when` may read what the screen declared once loaded).
        if (!services.registry.available(currentCommandContext()).some((candidate) => candidate.id === command.id)) continue;
        await runOn(path, command, services);
      }
    }

    expect(ran.size).toBeGreaterThan(50);
    expect(bodyFocus).toEqual([]);
  });
});
