// The partners area's commands: where each is offered (a pure table over the command context) and where it goes.
import { describe, expect, it, vi } from 'vitest';
import type { CommandContext, CommandServices } from '../../../commands/command.ts';
import type { PaneCapability } from '../../../src/state/workspace-store.ts';
import { addCommissionRuleCommand, editCommissionPlanCommand } from '../../../commands/partners/edit-commission-plan.ts';
import { openBusinessInPartnerFrameCommand } from '../../../commands/partners/open-business-in-partner-frame.ts';
import { openCommissionPlanCommand } from '../../../commands/partners/open-commission-plan.ts';
import { openPartnerDeclinesCommand } from '../../../commands/partners/open-partner-declines.ts';
import { openPartnerTransactionsCommand } from '../../../commands/partners/open-partner-transactions.ts';
import { isAvailable } from '../../../commands/registry.ts';
import { baseContext } from '../../app/support.tsx';

// The answer is checked against the contract's schemas, built on first use (slow on a busy machine).
vi.setConfig({ testTimeout: 30_000 });

const partnerPermissions = ['Mapi.Partner.Read', 'Mapi.Business.Read', 'Mapi.Transactions.Read'];
const on = (id: string, path: string, extra: Partial<CommandContext> = {}) =>
  baseContext({ permissions: partnerPermissions, route: { id, pattern: null, path }, ...extra });

/** A commission plan focused, its screen declaring these capabilities. */
const editable = (capabilities: string[], permissions = [...partnerPermissions, 'Mapi.CommissionPlans.Update']) =>
  baseContext({
    permissions,
    route: { id: 'partnerCommission', pattern: null, path: '/partners/P1/commissions/CP1' },
    focusedPane: { id: 'pane-1', capabilities: capabilities as unknown as readonly PaneCapability[] },
  });

describe('partner commands', () => {
  it.each([
    ['declines from the partner', openPartnerDeclinesCommand, on('partnerDetail', '/partners/P1'), true],
    ['declines on the declines screen', openPartnerDeclinesCommand, on('partnerDeclines', '/partners/P1/declines'), false],
    ['declines from the overview', openPartnerDeclinesCommand, on('partners', '/partners'), false],
    [
      'declines without the permission',
      openPartnerDeclinesCommand,
      baseContext({ permissions: [], route: { id: 'partnerDetail', pattern: null, path: '/partners/P1' } }),
      false,
    ],
    ['transactions from a plan', openPartnerTransactionsCommand, on('partnerCommission', '/partners/P1/commissions/CP1'), true],
    ['transactions on the transactions', openPartnerTransactionsCommand, on('partnerTransactions', '/partners/P1/transactions'), false],
    ['commission plan from the partner', openCommissionPlanCommand, on('partnerDetail', '/partners/P1'), true],
    ['commission plan on a plan', openCommissionPlanCommand, on('partnerCommission', '/partners/P1/commissions/CP1'), false],
    ['frame from its transactions', openBusinessInPartnerFrameCommand, on('partnerBusinessTransactions', '/partners/P1/business/B1/transactions'), true],
    ['frame on the business itself', openBusinessInPartnerFrameCommand, on('partnerBusiness', '/partners/P1/business/B1'), false],
    [
      'frame from a business with a partner applied',
      openBusinessInPartnerFrameCommand,
      on('businessDetail', '/business/B1', { context: { ...baseContext().context, partnerId: 'P1', businessId: 'B1' } }),
      true,
    ],
    ['frame from a business without a partner', openBusinessInPartnerFrameCommand, on('businessDetail', '/business/B1'), false],
    ['edit a plan its editor may change', editCommissionPlanCommand, editable(['edit']), true],
    ['edit a plan the screen does not offer (ended, or already editing)', editCommissionPlanCommand, editable([]), false],
    ['edit a plan without the permission', editCommissionPlanCommand, editable(['edit'], partnerPermissions), false],
    ['edit elsewhere', editCommissionPlanCommand, { ...editable(['edit']), route: { id: 'businessDetail', pattern: null, path: '/business/B1' } }, false],
    ['add a rule while editing', addCommissionRuleCommand, editable(['save', 'newItem']), true],
    ['add a rule before editing', addCommissionRuleCommand, editable(['edit']), false],
  ])('%s: %s', (_label, command, ctx, expected) => {
    expect(isAvailable(command, ctx)).toBe(expected);
  });

  it('goes where it says', async () => {
    const navigate = vi.fn();
    const services = (ctx: CommandContext) => ({ context: () => ctx, navigate }) as unknown as CommandServices;
    await openPartnerTransactionsCommand.run(services(on('partnerBusiness', '/partners/P1/business/B%201')), {});
    await openPartnerDeclinesCommand.run(services(on('partnerDetail', '/partners/P1')), { beside: true });
    await openBusinessInPartnerFrameCommand.run(services(on('partnerMerchant', '/partners/P1/business/B1/merchant/M1')), {});
    expect(navigate.mock.calls).toEqual([
      ['/partners/P1/business/B%201/transactions', undefined],
      ['/partners/P1/declines', { beside: true }],
      ['/partners/P1/business/B1', undefined],
    ]);
  });

  it('opens the active plan, else says there is none', async () => {
    const plan = (commissionPlanId: string, status: string) => ({
      commissionPlanId,
      partnerId: 'P1',
      name: 'Plan',
      validFrom: '2025-01-01',
      validTo: null,
      status,
      ruleCount: 1,
    });
    const answers = [
      { results: [plan('CP-OLD', 'Ended'), plan('CP-NOW', 'Active')], numberOfResults: 2 },
      { results: [], numberOfResults: 0 },
    ];
    const get = vi.fn(async () => answers.shift());
    const navigate = vi.fn();
    const toast = vi.fn();
    const services = { context: () => on('partnerDetail', '/partners/P1'), navigate, api: { get }, state: { toast } } as unknown as CommandServices;
    await openCommissionPlanCommand.run(services, {});
    expect(get).toHaveBeenCalledWith('/partners/P1/commission-plans');
    expect(navigate).toHaveBeenCalledWith('/partners/P1/commissions/CP-NOW', undefined);
    await openCommissionPlanCommand.run(services, {});
    expect(toast).toHaveBeenCalledWith({ kind: 'info', message: 'This partner has no commission plan.' });
  });
});
