// Creating and deleting commission plans on screen: the new plan's form (the edit form's fields and checks) posts the
// plan and goes to it; a scheduled plan is deleted from its screen through 'Delete this commission plan' (the command
// and the button ask the same confirmation dialog), then the screen goes back to the partner. Started plans offer no
// deletion. The commands' availability is a table of cases.
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import type { CommandServices } from '../../../commands/command.ts';
import { deleteCommissionPlanCommand } from '../../../commands/partners/delete-commission-plan.ts';
import { newCommissionPlanCommand } from '../../../commands/partners/new-commission-plan.ts';
import { partnerCommands } from '../../../commands/partners/partner-commands.ts';
import { isAvailable } from '../../../commands/registry.ts';
import { CommissionPlanPane } from '../../../panes/partners/commission-plan-pane.tsx';
import { firstOfNextMonth, NewCommissionPlanPane } from '../../../panes/partners/new-commission-plan-pane.tsx';
import type { CommissionPlanDetail } from '../../../src/contract/partner-schemas.ts';
import { PaneScopeContext } from '../../../src/state/pane-scope.tsx';
import type { PaneCapability } from '../../../src/state/workspace-store.ts';
import { sendPaneRequest, workspaceStore } from '../../../src/state/workspace-store.ts';
import { baseContext, fakeApi, renderWithServices, resetStores, signIn } from '../../app/support.tsx';

vi.setConfig({ testTimeout: 20_000 });

const editor = ['Mapi.Partner.Read', 'Mapi.CommissionPlans.Update'];

const scheduled: CommissionPlanDetail = {
  commissionPlanId: 'CP-P1-3',
  partnerId: 'P1',
  partnerName: 'Northwind Partners',
  name: 'Launch share 2027',
  validFrom: '2027-01-01',
  validTo: null,
  status: 'Scheduled',
  version: 2,
  editable: true,
  rules: [
    {
      ruleId: 'CP-P1-3-R10',
      priority: 10,
      description: 'Any fee: 25%',
      volumeFromMinor: 0,
      volumeToMinor: null,
      percentageBasisPoints: 2500,
      fixedMinor: 0,
      channel: null,
      currency: null,
      paymentMethod: null,
      cardType: null,
    },
  ],
  months: [],
  totals: [],
};

function renderPane(node: ReactNode, path: string) {
  workspaceStore.panes = [{ id: 'pane-test', path, capabilities: [], request: null, dirty: false }];
  workspaceStore.focusedIndex = 0;
  const location = memoryLocation({ path, record: true });
  renderWithServices(
    <PaneScopeContext value={{ paneId: 'pane-test' }}>
      <Router hook={location.hook} searchHook={location.searchHook}>
        {node}
      </Router>
    </PaneScopeContext>,
  );
  return { location, user: userEvent.setup() };
}

const paneServices = { state: { paneRequest: (capability: never, argument?: number) => sendPaneRequest(capability, argument) } } as unknown as CommandServices;

describe('a new commission plan', () => {
  beforeEach(() => resetStores());

  it('checks the form as an edit does, posts the plan and goes to it', async () => {
    signIn({ permissions: editor, paths: ['/partners/P1/commissions/new'] });
    const api = fakeApi();
    const post = vi.mocked(api.post).mockImplementation(async () => scheduled as never);
    const { location, user } = renderPane(
      <NewCommissionPlanPane params={{ partnerId: 'P1' }} search="" capability="New commission plan" />,
      '/partners/P1/commissions/new',
    );
    const form = await screen.findByRole('form', { name: 'New commission plan' });
    expect(within(form).getByLabelText(/^Valid from/)).toHaveProperty('value', firstOfNextMonth(new Date()));

    await user.click(within(form).getByRole('button', { name: 'Create plan' }));
    expect(within(form).getByText('Name is required')).toBeTruthy();
    expect(post).not.toHaveBeenCalled();

    await user.type(within(form).getByRole('textbox', { name: /^Name/ }), 'Launch share 2027');
    const first = within(form).getByRole('group', { name: 'Rule 1' });
    await user.type(within(first).getByRole('textbox', { name: /^Description/ }), 'Any fee: 25%');
    const percent = within(first).getByRole('textbox', { name: 'Percentage of the fee (%)' });
    await user.clear(percent);
    await user.type(percent, '25');
    // The form's 'Add a rule' is the command's newItem: a second rule, then the form is saved by the save capability.
    await waitFor(() => expect([...(workspaceStore.panes[0]?.capabilities ?? [])].sort()).toEqual(['newItem', 'save']));
    act(() => sendPaneRequest('newItem'));
    const second = await within(form).findByRole('group', { name: 'Rule 2' });
    await user.type(within(second).getByRole('textbox', { name: /^Description/ }), 'MOTO: nothing');
    await user.selectOptions(within(second).getByRole('combobox', { name: 'Channel' }), 'Moto');
    await user.click(within(form).getByRole('button', { name: 'Create plan' }));

    await waitFor(() => expect(post).toHaveBeenCalledTimes(1));
    const [path, body] = post.mock.calls[0] as unknown as [
      string,
      Record<string, unknown> & { rules: { priority: number; percentageBasisPoints: number; channel: string | null }[] },
    ];
    expect(path).toBe('/partners/P1/commission-plans');
    expect(body).not.toHaveProperty('version');
    expect(body).toMatchObject({ name: 'Launch share 2027', validFrom: firstOfNextMonth(new Date()), validTo: null });
    expect(body.rules.map((rule) => [rule.priority, rule.percentageBasisPoints, rule.channel])).toEqual([
      [10, 2500, null],
      [20, 0, 'Moto'],
    ]);
    await waitFor(() => expect(location.history?.at(-1)).toBe('/partners/P1/commissions/CP-P1-3'));
  });
});

describe('deleting a commission plan', () => {
  beforeEach(() => resetStores());

  it('asks first from the command, keeps the plan on cancel, deletes it with its version and goes back to the partner', async () => {
    signIn({ permissions: editor, paths: ['/partners/P1/commissions/CP-P1-3'] });
    const api = fakeApi({ '/partners/P1/commission-plans/CP-P1-3': () => scheduled });
    const remove = vi.mocked(api.delete);
    const { location, user } = renderPane(
      <CommissionPlanPane params={{ partnerId: 'P1', commissionPlanId: 'CP-P1-3' }} search="" capability="Commission plan" />,
      '/partners/P1/commissions/CP-P1-3',
    );
    expect(await screen.findByRole('heading', { name: 'Launch share 2027', level: 1 }, { timeout: 15_000 })).toBeTruthy();
    await waitFor(() => expect(workspaceStore.panes[0]?.capabilities).toContain('delete'));
    const ctx = baseContext({
      permissions: editor,
      route: { id: 'partnerCommission', pattern: null, path: '/partners/P1/commissions/CP-P1-3' },
      focusedPane: { id: 'pane-test', capabilities: [...(workspaceStore.panes[0]?.capabilities ?? [])] },
    });
    expect(isAvailable(deleteCommissionPlanCommand, ctx)).toBe(true);

    act(() => void deleteCommissionPlanCommand.run(paneServices, {}));
    const dialog = await screen.findByRole('alertdialog', { name: 'Delete this commission plan?' });
    expect(within(dialog).getByText(/'Launch share 2027' and its rule will be deleted/)).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Keep the plan' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(remove).not.toHaveBeenCalled();

    // The visible button asks the same dialog.
    await user.click(screen.getByRole('button', { name: 'Delete plan' }));
    await user.click(within(await screen.findByRole('alertdialog', { name: 'Delete this commission plan?' })).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(remove).toHaveBeenCalledTimes(1));
    expect(remove).toHaveBeenCalledWith('/partners/P1/commission-plans/CP-P1-3', { query: { version: '2' } });
    await waitFor(() => expect(location.history?.at(-1)).toBe('/partners/P1'));
  });

  it('offers no deletion of a plan that has started, nor to those who may not change it', async () => {
    signIn({ permissions: editor, paths: ['/partners/P1/commissions/CP-P1-3'] });
    fakeApi({ '/partners/P1/commission-plans/CP-P1-3': () => ({ ...scheduled, status: 'Active', validFrom: '2026-01-01' }) });
    renderPane(
      <CommissionPlanPane params={{ partnerId: 'P1', commissionPlanId: 'CP-P1-3' }} search="" capability="Commission plan" />,
      '/partners/P1/commissions/CP-P1-3',
    );
    expect(await screen.findByRole('button', { name: 'Edit plan' }, { timeout: 15_000 })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Delete plan' })).toBeNull();
    expect(workspaceStore.panes[0]?.capabilities).not.toContain('delete');
  });
});

describe('the create and delete commands', () => {
  const on = (id: string, path: string, permissions: string[], capabilities: string[] = []) =>
    baseContext({
      permissions,
      route: { id, pattern: null, path },
      focusedPane: { id: 'pane-1', capabilities: capabilities as unknown as readonly PaneCapability[] },
    });

  it('are registered with the partners area', () => {
    expect(partnerCommands).toContain(newCommissionPlanCommand);
    expect(partnerCommands).toContain(deleteCommissionPlanCommand);
  });

  it.each([
    ['new plan on the partner', newCommissionPlanCommand, on('partnerDetail', '/partners/P1', editor), true],
    ['new plan without the permission', newCommissionPlanCommand, on('partnerDetail', '/partners/P1', ['Mapi.Partner.Read']), false],
    ['new plan elsewhere', newCommissionPlanCommand, on('partnerDeclines', '/partners/P1/declines', editor), false],
    ['delete a plan that offers it', deleteCommissionPlanCommand, on('partnerCommission', '/partners/P1/commissions/CP1', editor, ['edit', 'delete']), true],
    [
      'delete a plan that does not (started, or editing)',
      deleteCommissionPlanCommand,
      on('partnerCommission', '/partners/P1/commissions/CP1', editor, ['edit']),
      false,
    ],
    [
      'delete without the permission',
      deleteCommissionPlanCommand,
      on('partnerCommission', '/partners/P1/commissions/CP1', ['Mapi.Partner.Read'], ['delete']),
      false,
    ],
  ])('%s', (_label, command, ctx, expected) => {
    expect(isAvailable(command, ctx)).toBe(expected);
  });

  it('opens the new plan form of the focused partner', async () => {
    const navigate = vi.fn();
    await newCommissionPlanCommand.run({ context: () => on('partnerDetail', '/partners/P%201', editor), navigate } as unknown as CommandServices, {});
    expect(navigate).toHaveBeenCalledWith('/partners/P%201/commissions/new', undefined);
  });
});
