import type { Command } from '../command.ts';

/** On a commission plan its editors may change (the screen declares 'edit' only then); Shift+E is the generic Edit. */
export const editCommissionPlanCommand: Command = {
  id: 'partners.editCommissionPlan',
  title: 'Edit this commission plan',
  section: 'Record',
  keywords: ['commission', 'rules', 'percentage', 'fixed amount', 'revenue share', 'change', 'partner'],
  permissions: ['Mapi.CommissionPlans.Update'],
  when: (ctx) => ctx.route?.id === 'partnerCommission' && ctx.focusedPane?.capabilities.includes('edit') === true && !ctx.overlayOpen,
  run: ({ state }) => state.paneRequest('edit'),
};

/** While the plan's form is open (editing, or a new plan): a new rule below the others (Shift+N is the generic New item). */
export const addCommissionRuleCommand: Command = {
  id: 'partners.addCommissionRule',
  title: 'Add a commission rule',
  section: 'Record',
  keywords: ['commission', 'rule', 'tier', 'band', 'new'],
  permissions: ['Mapi.CommissionPlans.Update'],
  when: (ctx) =>
    (ctx.route?.id === 'partnerCommission' || ctx.route?.id === 'partnerCommissionNew') &&
    ctx.focusedPane?.capabilities.includes('newItem') === true &&
    !ctx.overlayOpen,
  run: ({ state }) => state.paneRequest('newItem'),
};
