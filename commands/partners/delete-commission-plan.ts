import type { Command } from '../command.ts';

/**
 * On a plan that has not started, for its editors (the screen declares 'delete' only then): the screen asks for
 * confirmation, deletes and goes back to the partner. The generic 'Delete this record' asks the same.
 */
export const deleteCommissionPlanCommand: Command = {
  id: 'partners.deleteCommissionPlan',
  title: 'Delete this commission plan',
  section: 'Record',
  keywords: ['commission', 'plan', 'delete', 'remove', 'scheduled', 'partner'],
  permissions: ['Mapi.CommissionPlans.Update'],
  when: (ctx) => ctx.route?.id === 'partnerCommission' && ctx.focusedPane?.capabilities.includes('delete') === true && !ctx.overlayOpen,
  run: ({ state }) => state.paneRequest('delete'),
};
